//! Writing JSON for people and pipes at any size: a streaming pretty-printer that is also the
//! terminal-safety filter.
//!
//! [`Pretty`] takes JSON text in pieces (from serde_json's compact writer, or raw text as a
//! server sent it), and writes it indented the way `serde_json::to_string_pretty` does, with
//! characters that could act as terminal controls inside strings written as `\uXXXX` escapes.
//! Nothing is built in memory, so a 100 MB envelope streams straight to stdout, and raw records
//! keep their numbers exactly as sent.
//!
//! It is the one reader of JSON text not built on [`crate::json`]'s tokenizer, on purpose: its
//! input comes in pieces through `io::Write` (serde_json writes a string in runs and escapes;
//! raw text may be cut anywhere, even inside a character), while the tokenizer reads a whole
//! `&str`. Holding the pieces to tokenize them would undo the streaming; so it keeps its own
//! byte state machine, which only re-indents text that is already JSON (it never decides what
//! is).

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use serde_json::Value;

use crate::envelope::{Data, Envelope, RawItems};
use crate::json::window::WINDOW;

mod aligned;

pub struct Pretty<W: Write> {
    out: W,
    /// Laid-out bytes waiting to go out are `buf[..len]`; the rest is room made before each block
    /// of input, so that laying it out needs no check per byte written.
    buf: Vec<u8>,
    len: usize,
    state: State,
    /// How much laid-out text `buf` holds before it is written to `out`.
    flush_at: usize,
    /// Bytes written to `out` so far (where the next write lands, in a file written anew).
    written: u64,
}

/// Where the printer is in the JSON text, between two pieces of it.
#[derive(Clone, Copy, Default)]
struct State {
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// An opened `{` or `[` whose first member has not been seen (so `{}` stays `{}`).
    open: bool,
    /// The bytes of a multi-byte character inside a string, until it is complete.
    pending: [u8; 4],
    pending_len: usize,
}

/// One block being laid out: the room it writes into and the state, held apart from the printer
/// so that they live in registers, not behind the output's pointer.
struct Layout<'a> {
    out: &'a mut [u8],
    len: usize,
    s: State,
}

const FLUSH_AT: usize = 1 << 16;
/// Input laid out between two checks for room.
const BLOCK: usize = 256;
/// The most one input byte can become: a comma, a newline and the deepest indentation; or, for
/// a character's last byte, its escapes.
const MOST_PER_BYTE: usize = 72;
/// Room past the end for the fixed-size copies (a word of a string, a window, the indentation),
/// which may write beyond what they keep.
const SLACK: usize = 128;
/// What room is made of (see `Pretty::make_room`).
static ZEROS: [u8; 4096] = [0; 4096];
/// Levels laid out one member a line; anything deeper is written compact on its line. Indenting
/// every level would make the output grow with the square of the depth (a 2 MB reply nested 990
/// deep came out as 2 GB), and nobody reads 32 levels of indentation.
pub const INDENTED_LEVELS: usize = 32;

/// A newline and the indentation of the deepest indented level; each level's is a prefix.
const NEWLINE_INDENT: &[u8; 1 + 2 * INDENTED_LEVELS] = &{
    let mut t = [b' '; 1 + 2 * INDENTED_LEVELS];
    t[0] = b'\n';
    t
};

/// Bytes copied as they are inside a string: printable ASCII but the quote and the backslash.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0x20;
    while c < 0x7f {
        t[c] = c != b'"' as usize && c != b'\\' as usize;
        c += 1;
    }
    t
};

/// Bytes of a number or a literal (`true`, `false`, `null`) outside strings.
const SCALAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.');
        c += 1;
    }
    t
};

/// How many bytes from the start of `data` are in the class.
fn run_of(data: &[u8], in_class: impl Fn(u8) -> bool) -> usize {
    data.iter().position(|&c| !in_class(c)).unwrap_or(data.len())
}

/// Where the first byte of the word that [`PLAIN`] leaves out is, as the high bit of its byte
/// (0: none): below 0x20, a quote, a backslash, or 0x7f and above. A borrow or carry only spills
/// upwards from a byte that is itself marked, so the lowest mark is exact.
fn unplain_marks(w: u64) -> u64 {
    use crate::json::swar::{HIGH, ONES, first_below, first_equal};
    let high = (w | w.wrapping_add(ONES)) & HIGH;
    first_below(w, 0x20) | first_equal(w, b'"') | first_equal(w, b'\\') | high
}

impl Layout<'_> {
    #[inline(always)]
    fn push(&mut self, c: u8) {
        self.out[self.len] = c;
        self.len += 1;
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.out[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    #[inline(always)]
    fn newline(&mut self) {
        if self.s.depth > INDENTED_LEVELS {
            return;
        }
        // One fixed-size copy (the room has slack for it); only the level's prefix is kept.
        self.out[self.len..self.len + NEWLINE_INDENT.len()].copy_from_slice(NEWLINE_INDENT);
        self.len += 1 + self.s.depth * 2;
    }

    /// Before a value or a closing bracket: the newline an open bracket owes.
    #[inline(always)]
    fn settle(&mut self, closing: bool) {
        if self.s.open {
            self.s.open = false;
            if !closing {
                self.newline();
            }
        } else if closing {
            self.newline();
        }
    }

    #[inline(always)]
    fn string_byte(&mut self, c: u8) {
        if self.s.pending_len > 0 || c >= 0x80 {
            return self.multibyte(c);
        }
        if self.s.escaped {
            self.s.escaped = false;
            return self.push(c);
        }
        match c {
            b'\\' => {
                self.s.escaped = true;
                self.push(c);
            }
            b'"' => {
                self.s.in_string = false;
                self.push(c);
            }
            // Not valid inside a JSON string, but never let one through raw.
            0..=0x1f | 0x7f => self.escape(c as char),
            _ => self.push(c),
        }
    }

    /// A byte of a multi-byte character: held until the character is whole, then written as it
    /// is, or escaped if it could act on a terminal.
    #[cold]
    #[inline(never)]
    fn multibyte(&mut self, c: u8) {
        self.s.pending[self.s.pending_len] = c;
        self.s.pending_len += 1;
        let need = match self.s.pending[0] {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 1,
        };
        if self.s.pending_len < need {
            return;
        }
        let bytes = self.s.pending;
        let bytes = &bytes[..std::mem::take(&mut self.s.pending_len)];
        match std::str::from_utf8(bytes).ok().and_then(|s| s.chars().next()) {
            Some(ch) if crate::sanitize::is_unsafe(ch) => self.escape(ch),
            _ => self.put(bytes),
        }
    }

    #[cold]
    #[inline(never)]
    fn escape(&mut self, ch: char) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut units = [0u16; 2];
        for &u in ch.encode_utf16(&mut units).iter() {
            let digits = [12, 8, 4, 0].map(|shift| HEX[usize::from((u >> shift) & 0xf)]);
            self.put(b"\\u");
            self.put(&digits);
        }
    }

    #[inline(always)]
    fn byte(&mut self, c: u8) {
        match c {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'{' | b'[' => {
                self.settle(false);
                self.push(c);
                self.s.depth += 1;
                self.s.open = true;
            }
            b'}' | b']' => {
                self.s.depth = self.s.depth.saturating_sub(1);
                self.settle(true);
                self.push(c);
            }
            b',' => {
                self.push(b',');
                self.newline();
            }
            b':' if self.s.depth > INDENTED_LEVELS => self.push(b':'),
            b':' => self.put(b": "),
            b'"' => {
                self.settle(false);
                self.s.in_string = true;
                self.push(c);
            }
            _ => {
                self.settle(false);
                self.push(c);
            }
        }
    }

    /// Plain string bytes from `i`, a word at a time: each word is copied whole, and what
    /// follows its first byte that needs a look is written over next.
    #[inline(always)]
    fn copy_plain(&mut self, data: &[u8], mut i: usize) -> usize {
        while let Some(word) = data.get(i..i + 8) {
            let Ok(bytes) = <[u8; 8]>::try_from(word) else { break };
            self.out[self.len..self.len + 8].copy_from_slice(&bytes);
            let marks = unplain_marks(u64::from_le_bytes(bytes));
            if marks != 0 {
                let n = crate::json::swar::first_at(marks);
                self.len += n;
                return i + n;
            }
            self.len += 8;
            i += 8;
        }
        let n = run_of(&data[i..], |c| PLAIN[c as usize]);
        self.put(&data[i..i + n]);
        i + n
    }

    /// A number or literal from `i`: short, so a word is copied whole when the data has one.
    #[inline(always)]
    fn copy_scalar(&mut self, data: &[u8], i: usize) -> usize {
        let n = run_of(&data[i..], |c| SCALAR[c as usize]);
        match data.get(i..i + 8) {
            Some(word) if n <= 8 => {
                self.out[self.len..self.len + 8].copy_from_slice(word);
                self.len += n;
            }
            _ => self.put(&data[i..i + n]),
        }
        i + n
    }

    /// After a string or a scalar, what most often follows it: a member's colon or a comma (and
    /// the space Python writes after either), laid out at once. Returns where it stopped.
    #[inline(always)]
    fn after_value(&mut self, data: &[u8], mut i: usize) -> usize {
        match data.get(i) {
            Some(b':') if self.s.depth <= INDENTED_LEVELS => self.put(b": "),
            Some(b',') => {
                self.push(b',');
                self.newline();
            }
            _ => return i,
        }
        i += 1;
        if data.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    }

    /// Lays out `data` into the room after `len`: sixteen bytes at a time where they are plain
    /// (see [`Self::run_windows`]), a byte at a time around what is not.
    fn run(&mut self, data: &[u8]) {
        let mut i = 0;
        while i < data.len() {
            if !self.s.escaped && self.s.pending_len == 0 && self.s.depth <= INDENTED_LEVELS {
                i = self.run_windows(data, i);
            }
            // At least the window the windows left (or the last bytes, short of one).
            i = self.run_bytes(data, i, (i + WINDOW).min(data.len()));
        }
    }

    /// Lays out from `i` a window of sixteen bytes at a time while each is plain: no escape, no
    /// control, nothing past ASCII, spacing only by spaces. Strings and scalars are copied as
    /// they are; only the structure between them is looked at, found in a window's masks, the
    /// strings known by the quotes (without escapes, each quote opens or closes one). Returns
    /// where it stopped: a window that is not plain, the last bytes short of a window, or a
    /// level deeper than [`INDENTED_LEVELS`].
    #[inline(never)]
    fn run_windows(&mut self, data: &[u8], mut i: usize) -> usize {
        let out = &mut *self.out;
        let (mut len, mut depth, mut open, mut in_string) = (self.len, self.s.depth, self.s.open, self.s.in_string);
        // Where the text not yet copied starts.
        let mut from = i;
        macro_rules! newline {
            () => {{
                // Most levels' newline and indentation fit one window's copy.
                if depth < WINDOW / 2 {
                    out[len..len + WINDOW].copy_from_slice(&NEWLINE_INDENT[..WINDOW]);
                } else {
                    out[len..len + NEWLINE_INDENT.len()].copy_from_slice(NEWLINE_INDENT);
                }
                len += 1 + depth * 2;
            }};
        }
        // The text from `from` to `to`: a value or part of one, after the newline an opened
        // bracket owes.
        macro_rules! copy_to {
            ($to:expr) => {{
                let to = $to;
                if to > from {
                    if open {
                        open = false;
                        newline!();
                    }
                    len = copy_span(out, len, data, from, to);
                }
            }};
        }
        'windows: while let Some(bytes) = data.get(i..i + WINDOW).and_then(|w| <&[u8; WINDOW]>::try_from(w).ok()) {
            let w = crate::json::window::Window::of(bytes);
            if w.unplain != 0 {
                break;
            }
            let inside = crate::json::window::prefix_xor(w.quotes) ^ if in_string { 0xffff } else { 0 };
            let mut marks = w.structure & !inside;
            while marks != 0 {
                // Below sixteen: the masks have sixteen bits.
                let k = marks.trailing_zeros() as usize & (WINDOW - 1);
                let at = i + k;
                marks &= marks - 1;
                copy_to!(at);
                from = at + 1;
                match bytes[k] {
                    b' ' => {}
                    b',' => {
                        out[len] = b',';
                        len += 1;
                        newline!();
                    }
                    b':' => {
                        out[len..len + 2].copy_from_slice(b": ");
                        len += 2;
                    }
                    c @ (b'{' | b'[') => {
                        if depth == INDENTED_LEVELS {
                            // Deeper levels are written compact: by the bytes' own loop.
                            (i, from) = (at, at);
                            in_string = false;
                            break 'windows;
                        }
                        if open {
                            newline!();
                        }
                        out[len] = c;
                        (len, depth, open) = (len + 1, depth + 1, true);
                    }
                    c => {
                        depth = depth.saturating_sub(1);
                        if open {
                            open = false;
                        } else {
                            newline!();
                        }
                        out[len] = c;
                        len += 1;
                    }
                }
            }
            in_string = inside & 0x8000 != 0;
            i += WINDOW;
        }
        copy_to!(i);
        self.len = len;
        self.s.depth = depth;
        self.s.open = open;
        self.s.in_string = in_string;
        i
    }

    /// Lays out from `i` a byte at a time (a plain string's bytes a word at a time) up to
    /// `until` at least; returns where it stopped.
    fn run_bytes(&mut self, data: &[u8], mut i: usize, until: usize) -> usize {
        while i < until {
            if self.s.in_string {
                if !self.s.escaped && self.s.pending_len == 0 {
                    i = self.copy_plain(data, i);
                    if i == data.len() {
                        break;
                    }
                    if data[i] == b'"' {
                        // The common end of a string, without the look at escapes and controls.
                        self.s.in_string = false;
                        self.push(b'"');
                        i = self.after_value(data, i + 1);
                        continue;
                    }
                }
                self.string_byte(data[i]);
                i += 1;
            } else if data[i] == b' ' {
                // Spacing between tokens (Python's `", "` and `": "`), dropped before a look-up.
                i += 1;
            } else if SCALAR[data[i] as usize] {
                self.settle(false);
                i = self.copy_scalar(data, i);
                i = self.after_value(data, i);
            } else {
                self.byte(data[i]);
                i += 1;
            }
        }
        i
    }
}

/// `data[from..to]` copied to `out` at `len`, a window at a time (the room has slack for the
/// last window's bytes past `to`); returns where the copy ends.
#[inline(always)]
fn copy_span(out: &mut [u8], len: usize, data: &[u8], from: usize, to: usize) -> usize {
    let end = len + (to - from);
    let (mut from, mut len) = (from, len);
    while let Some(window) = data.get(from..from + WINDOW) {
        out[len..len + WINDOW].copy_from_slice(window);
        if to <= from + WINDOW {
            return end;
        }
        (from, len) = (from + WINDOW, len + WINDOW);
    }
    out[len..end].copy_from_slice(&data[from..to]);
    end
}

impl<W: Write> Pretty<W> {
    pub fn new(out: W) -> Pretty<W> {
        Pretty { out, buf: Vec::new(), len: 0, state: State::default(), flush_at: FLUSH_AT, written: 0 }
    }

    /// Lays out `block` (at most [`BLOCK`] bytes) into the room after `len`.
    fn lay_out(&mut self, block: &[u8]) {
        self.make_room(block.len());
        let mut l = Layout { out: &mut self.buf, len: self.len, s: self.state };
        l.run(block);
        (self.len, self.state) = (l.len, l.s);
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf[..self.len])?;
        self.written += self.len as u64;
        self.len = 0;
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<W> {
        self.make_room(1);
        self.buf[self.len] = b'\n';
        self.len += 1;
        self.flush_buf()?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn make_room(&mut self, input: usize) {
        let need = self.len + input * MOST_PER_BYTE + SLACK;
        // The room is zeros copied in, a page at a time: a copy is one call to the C library's
        // at every optimization level, where `resize` in a build that is not optimized writes
        // them a byte at a time (and the guard's counts then moved with how many printers the
        // threads made).
        while self.buf.len() < need {
            let n = (need - self.buf.len()).min(ZEROS.len());
            self.buf.extend_from_slice(&ZEROS[..n]);
        }
    }
}

impl Pretty<Vec<u8>> {
    /// A printer into memory for one chunk of a long list at a time (see `write_records`): the
    /// chunk's layout stays in the printer's own buffer until it is written out, rather than
    /// copied a piece at a time into a second one (which made each such printer hold the chunk
    /// twice, and the copies touch twice the pages).
    fn for_chunks() -> Self {
        Pretty { flush_at: usize::MAX, ..Pretty::new(Vec::new()) }
    }

    /// Empties a printer into memory, to lay out text that starts in `state`.
    fn restart(&mut self, state: State) {
        self.out.clear();
        self.len = 0;
        self.state = state;
    }
}

impl<W: Write> Write for Pretty<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        for block in data.chunks(BLOCK) {
            if self.len >= self.flush_at {
                self.flush_buf()?;
            }
            self.lay_out(block);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_buf()?;
        self.out.flush()
    }
}

/// `value` as pretty, terminal-safe JSON (with a final newline) into `out`.
pub fn write_pretty<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<W> {
    let mut p = Pretty::new(out);
    serde_json::to_writer(&mut p, value).map_err(io::Error::other)?;
    p.finish()
}

/// An envelope as pretty, terminal-safe JSON (with a final newline) into `out`. Records read
/// from the reply's text are copied from it, not parsed: the text was checked when it arrived.
pub fn write_envelope<W: Write>(out: W, e: &mut Envelope) -> io::Result<W> {
    if !matches!(e.data, Data::Items(_)) {
        return write_pretty(out, e);
    }
    let items = std::mem::take(&mut e.data);
    // The envelope around the records: small, whatever the records' size.
    let shell = serde_json::to_vec(e).map_err(io::Error::other);
    e.data = items;
    write_around_items(out, e, shell?)
}

/// As [`write_envelope`], with each number for which `guide` (the same reply read inside
/// [`crate::json::exact::reading_exact`]) holds its literal written as the server wrote it.
pub fn write_envelope_exact<W: Write>(out: W, e: &mut Envelope, guide: &mut Envelope) -> io::Result<W> {
    let items = std::mem::take(&mut e.data);
    let guide_items = std::mem::take(&mut guide.data);
    let values = serde_json::to_value(&*e).and_then(|v| Ok((v, serde_json::to_value(&*guide)?)));
    let (value_data, guide_data) = match (&items, &guide_items) {
        (Data::Items(_), _) => (None, None),
        (Data::Value(v), Data::Value(g)) => (Some(v), Some(g)),
        (Data::Value(v), Data::Items(_)) => (Some(v), None),
    };
    // With the data taken out, both trees are small; the data is walked where it is.
    let shell = values.and_then(|(v, g)| {
        let r = serde_json::to_vec(&ShellWithData { shell: &v, guide: &g, data: value_data, data_guide: guide_data });
        crate::deep::drop_value(v);
        crate::deep::drop_value(g);
        r
    });
    e.data = items;
    guide.data = guide_items;
    let shell = shell.map_err(io::Error::other)?;
    if !matches!(e.data, Data::Items(_)) {
        let mut p = Pretty::new(out);
        p.write_all(&shell)?;
        return p.finish();
    }
    write_around_items(out, e, shell)
}

/// The envelope's members in order, its `data` (when a value) guided by the guide's.
struct ShellWithData<'a> {
    shell: &'a Value,
    guide: &'a Value,
    data: Option<&'a Value>,
    data_guide: Option<&'a Value>,
}

impl Serialize for ShellWithData<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::json::exact::Guided;
        use serde::ser::SerializeMap;
        let Value::Object(m) = self.shell else { return self.shell.serialize(s) };
        let mut map = s.serialize_map(Some(m.len()))?;
        for (k, v) in m {
            let (value, guide) = match self.data {
                Some(d) if k == "data" => (d, self.data_guide),
                _ => (v, self.guide.get(k)),
            };
            map.serialize_entry(k, &Guided { value, guide })?;
        }
        map.end()
    }
}

/// The pretty envelope around the records: `shell` is the envelope's compact JSON with a null
/// `data`, which the records of `e.data` take the place of.
fn write_around_items<W: Write>(out: W, e: &mut Envelope, shell: Vec<u8>) -> io::Result<W> {
    let Data::Items(items) = &e.data else { return Ok(out) };
    // Inside JSON strings every quote is escaped, so this byte sequence is the `data` member.
    const DATA: &[u8] = b"\"data\":null";
    let Some(at) = shell.windows(DATA.len()).position(|w| w == DATA) else {
        return write_pretty(out, e);
    };
    let mut p = Pretty::new(out);
    p.write_all(&shell[..at + DATA.len() - 4])?;
    p.write_all(b"[")?;
    write_records(&mut p, items)?;
    p.write_all(b"]")?;
    p.write_all(&shell[at + DATA.len()..])?;
    p.finish()
}

/// Record text per chunk when a long list is laid out on two threads: a chunk's layout is held
/// until written, so chunks are measured in bytes, whatever the records' size.
const CHUNK_BYTES: usize = 64 << 10;

/// Chunks laid out and not yet written, at most, on each side: each holds its layout (about
/// twice its 64 KB of records), so that memory stays flat.
const AHEAD: usize = 1;

/// The records of a list, inside its opened `[`. A long list is laid out in chunks that this
/// thread and one other take in turn, and written here in order: the layout is one of the
/// larger passes over a long reply. Taking chunks as they are free balances the two threads
/// whatever the writes cost (nothing into a pipe that is read at once, a copy per byte into a
/// file), and holding a few chunks keeps memory flat.
fn write_records<W: Write>(p: &mut Pretty<W>, items: &RawItems) -> io::Result<()> {
    let two_cores = crate::cores::two();
    let chunks = chunks(items);
    if !two_cores || chunks.len() < 2 {
        return write_range(p, items, 0..items.len());
    }
    p.flush_buf()?;
    // Each chunk starts at the list's depth; all but the first after a comma of their own.
    let first = State { depth: p.state.depth, open: p.state.open, ..State::default() };
    let shared = Chunks {
        items,
        ranges: &chunks,
        next: AtomicUsize::new(0),
        first,
        after_comma: State { open: false, ..first },
        printers: std::sync::Mutex::new(Vec::new()),
    };
    std::thread::scope(|s| {
        let (laid_tx, laid_rx) = std::sync::mpsc::sync_channel::<(usize, io::Result<Pretty<Vec<u8>>>)>(AHEAD);
        let shared = &shared;
        s.spawn(move || {
            while let Some(k) = shared.take() {
                let f = shared.printer();
                // A send fails only when the writer has stopped (an error): so does this.
                if laid_tx.send((k, shared.lay_out(k, f))).is_err() {
                    return;
                }
            }
        });
        let (mut laid, mut queue) = (std::collections::BTreeMap::new(), aligned::Queue::default());
        for k in 0..chunks.len() {
            while !laid.contains_key(&k) {
                // The chunk to write next is another's: lay out one meanwhile, or wait for it.
                match laid_rx.try_recv() {
                    Ok((j, f)) => _ = laid.insert(j, f?),
                    Err(_)
                        if laid.len() < AHEAD
                            && let Some(j) = shared.take() =>
                    {
                        laid.insert(j, shared.lay_out(j, shared.printer())?);
                    }
                    Err(_) => {
                        let (j, f) = laid_rx.recv().map_err(|_| io::Error::other("layout thread failed"))?;
                        laid.insert(j, f?);
                    }
                }
            }
            if let Some(f) = laid.remove(&k) {
                queue.push(f);
                queue.write(p, k + 1 == chunks.len(), |f| shared.give_back(f))?;
            }
        }
        Ok::<(), io::Error>(())
    })?;
    p.state.open = false;
    Ok(())
}

/// The chunks of a list laid out on two threads, and the next one not yet taken.
struct Chunks<'a> {
    items: &'a RawItems,
    ranges: &'a [std::ops::Range<usize>],
    next: AtomicUsize,
    first: State,
    after_comma: State,
    /// Printers written out, for either thread's next chunk: a printer is made only when none
    /// is free (a few in all), not for each chunk, so their room is grown and touched once.
    printers: std::sync::Mutex<Vec<Pretty<Vec<u8>>>>,
}

impl Chunks<'_> {
    fn printer(&self) -> Pretty<Vec<u8>> {
        self.printers.lock().ok().and_then(|mut p| p.pop()).unwrap_or_else(Pretty::for_chunks)
    }

    fn give_back(&self, f: Pretty<Vec<u8>>) {
        if let Ok(mut p) = self.printers.lock() {
            p.push(f);
        }
    }

    fn take(&self) -> Option<usize> {
        Some(self.next.fetch_add(1, Ordering::Relaxed)).filter(|&k| k < self.ranges.len())
    }

    /// Chunk `k` laid out into `f`, a printer into memory.
    fn lay_out(&self, k: usize, mut f: Pretty<Vec<u8>>) -> io::Result<Pretty<Vec<u8>>> {
        f.restart(if k == 0 { self.first } else { self.after_comma });
        write_range(&mut f, self.items, self.ranges[k].clone())?;
        Ok(f)
    }
}

/// The records split into chunks of about [`CHUNK_BYTES`] of text each.
fn chunks(items: &RawItems) -> Vec<std::ops::Range<usize>> {
    let (mut chunks, mut start, mut bytes) = (vec![], 0, 0);
    for (i, len) in items.lens().enumerate() {
        bytes += len;
        if bytes >= CHUNK_BYTES {
            chunks.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < items.len() {
        chunks.push(start..items.len());
    }
    chunks
}

/// Records `range`, each after a comma but the list's first: in runs of records as the text
/// holds them, commas included, where it can (see [`RawItems::write_runs`]).
fn write_range<W: Write>(p: &mut Pretty<W>, items: &RawItems, range: std::ops::Range<usize>) -> io::Result<()> {
    let mut comma = range.start > 0;
    items.write_runs(range, |run| {
        if std::mem::replace(&mut comma, true) {
            p.write_all(b",")?;
        }
        p.write_all(run.as_bytes())
    })
}

/// `value` as pretty, terminal-safe JSON text (no final newline).
pub fn to_pretty_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut bytes = write_pretty(Vec::new(), value).unwrap_or_default();
    bytes.pop();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn matches_serde_json_pretty() {
        let v = json!({"a": [1, 2, {"b": [], "c": {}}], "s": "x,y:{z}[\"]", "e": {"n": null, "f": 1.5}, "t": [[]]});
        assert_eq!(to_pretty_string(&v), serde_json::to_string_pretty(&v).unwrap());
    }

    #[test]
    fn reindents_raw_text_and_keeps_numbers_as_sent() {
        let raw = "{ \"x\" :\n [ 1.0e5 , 12345678901234567890123 ],\r\n \"y\":\"é\" }";
        let mut p = Pretty::new(Vec::new());
        // Fed in pieces, splitting a multi-byte character.
        for chunk in raw.as_bytes().chunks(3) {
            p.write_all(chunk).unwrap();
        }
        let out = String::from_utf8(p.finish().unwrap()).unwrap();
        assert_eq!(out, "{\n  \"x\": [\n    1.0e5,\n    12345678901234567890123\n  ],\n  \"y\": \"é\"\n}\n");
    }

    #[test]
    fn any_cut_of_the_text_lays_out_the_same() {
        let v = json!({
            "long plain key, longer than a word": "a string of plain bytes, then é, 𝄞 and \u{202e} and a \\ \"quote\"",
            "n": [-12.5e-3, 123456789012345678u64, true, null, {}, [], [[{"k": "v\u{1b}[31m"}]]],
        });
        let mut deep = json!("leaf");
        for _ in 0..40 {
            deep = json!({"d": [deep, 1]});
        }
        for value in [v, deep] {
            let text = serde_json::to_string(&value).unwrap();
            let whole = to_pretty_string(&value);
            for piece in 1..=17 {
                let mut p = Pretty::new(Vec::new());
                for chunk in text.as_bytes().chunks(piece) {
                    p.write_all(chunk).unwrap();
                }
                let mut out = String::from_utf8(p.finish().unwrap()).unwrap();
                out.pop();
                assert_eq!(out, whole, "cut every {piece} bytes");
            }
            assert_eq!(serde_json::from_str::<Value>(&whole).unwrap(), value);
        }
    }

    #[test]
    fn a_long_list_laid_out_on_two_threads_matches_one_thread() {
        let records: Vec<Value> =
            (0..20_000).map(|i| json!({"id": i, "name": format!("record é {i}"), "tags": ["x"]})).collect();
        let items = RawItems::from_values(&records);
        let mut threaded = Pretty::new(Vec::new());
        threaded.write_all(b"{\"data\":[").unwrap();
        write_records(&mut threaded, &items).unwrap();
        threaded.write_all(b"]}").unwrap();
        let mut single = Pretty::new(Vec::new());
        single.write_all(b"{\"data\":[").unwrap();
        write_range(&mut single, &items, 0..items.len()).unwrap();
        single.write_all(b"]}").unwrap();
        assert_eq!(threaded.finish().unwrap(), single.finish().unwrap());
    }

    /// Records written in runs of the text lay out as written one by one: spacing and commas
    /// between them, a subset of them, records of several parts, records with no text between.
    #[test]
    fn records_in_runs_lay_out_as_one_by_one() {
        use crate::skeleton::{Elided, SharedText};
        use std::sync::Arc;
        let text = r#"[ {"a": 1} ,
  {"b":[2, "x,y"]},{"c":"]"} , 7,"s"]"#;
        let mut spans = vec![];
        let mut at = 1;
        for item in [r#"{"a": 1}"#, r#"{"b":[2, "x,y"]}"#, r#"{"c":"]"}"#, "7", r#""s""#] {
            let start = text[at..].find(item).map(|k| at + k).unwrap();
            spans.push([start as u32, (start + item.len()) as u32]);
            at = start + item.len();
        }
        let part = || Elided { text: SharedText::String(Arc::new(text.to_string())), spans: Arc::new(spans.clone()) };
        let whole = RawItems::from_elided(part());
        let mut two = RawItems::from_elided(part());
        two.append(whole.retain(|i| i != 1 && i != 3));
        let from_values = RawItems::from_values(&[json!({"x": 1}), json!([1, 2]), json!("z")]);
        for items in [whole.clone(), whole.retain(|i| i != 2), two, from_values] {
            for range in [0..items.len(), 1..items.len(), 2..3.min(items.len())] {
                let mut runs = Pretty::new(Vec::new());
                runs.write_all(b"[").unwrap();
                write_range(&mut runs, &items, range.clone()).unwrap();
                let mut each = Pretty::new(Vec::new());
                each.write_all(b"[").unwrap();
                for i in range.clone() {
                    if i > range.start || range.start > 0 {
                        each.write_all(b",").unwrap();
                    }
                    each.write_all(items.raw(i).unwrap().as_bytes()).unwrap();
                }
                assert_eq!(runs.finish().unwrap(), each.finish().unwrap(), "{items:?} {range:?}");
            }
        }
    }

    /// Random JSON (compact, with Python's spacing, indented; escapes, characters past ASCII,
    /// terminal controls, levels past the indented ones) cut at random: laid out a window at
    /// a time where it can, it comes out as laid out a byte at a time; random bytes that are
    /// not JSON are laid out without a panic.
    #[test]
    fn windows_lay_out_as_bytes_do() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for round in 0..4000 {
            let mut text = String::new();
            random_json(&mut next, &mut text, 0, round % 3);
            let mut bytes =
                Layout { out: &mut vec![0; text.len() * MOST_PER_BYTE + SLACK], len: 0, s: State::default() };
            bytes.run_bytes(text.as_bytes(), 0, text.len());
            let want = bytes.out[..bytes.len].to_vec();
            let piece = 1 + (next() % 300) as usize;
            let mut p = Pretty::new(Vec::new());
            for chunk in text.as_bytes().chunks(piece) {
                p.write_all(chunk).unwrap();
            }
            p.flush_buf().unwrap();
            assert_eq!(String::from_utf8_lossy(&p.out), String::from_utf8_lossy(&want), "{text} cut every {piece}");
            let junk: Vec<u8> =
                (0..next() % 200).map(|_| b"\"\\{}[],: a\xc3\xa9\n\x1b"[(next() % 14) as usize]).collect();
            let mut p = Pretty::new(Vec::new());
            for chunk in junk.chunks(piece) {
                p.write_all(chunk).unwrap();
            }
        }
    }

    /// A JSON value of random shape into `out`; `style` 0 compact, 1 Python's spacing, 2
    /// indented.
    fn random_json(next: &mut impl FnMut() -> u64, out: &mut String, depth: usize, style: usize) {
        let space = |out: &mut String| match style {
            1 => out.push(' '),
            2 => out.push_str("\n  "),
            _ => {}
        };
        let r = next() % 10;
        if depth > 40 || r < 4 {
            match next() % 6 {
                0 => out.push_str(&(next() % 100_000).to_string()),
                1 => out.push_str("-12.5e-3"),
                2 => out.push_str(["true", "false", "null"][(next() % 3) as usize]),
                _ => {
                    out.push('"');
                    let pieces = [
                        "a",
                        " ",
                        ",",
                        ":",
                        "{",
                        "]",
                        "\\\"",
                        "\\\\",
                        "\\n",
                        "\\u00e9",
                        "é",
                        "𝄞",
                        "\u{202e}",
                        "\u{7f}",
                        "xyz0123456789",
                        "\\u001b",
                    ];
                    for _ in 0..next() % 40 {
                        out.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                    }
                    out.push('"');
                }
            }
            return;
        }
        let object = r < 7;
        out.push(if object { '{' } else { '[' });
        for k in 0..next() % 5 {
            if k > 0 {
                out.push(',');
                space(out);
            }
            if object {
                out.push_str(&format!("\"k{}\":", next() % 50));
                space(out);
            }
            let deeper = if next().is_multiple_of(7) { 10 } else { 1 };
            random_json(next, out, depth + deeper, style);
        }
        out.push(if object { '}' } else { ']' });
    }

    #[test]
    fn escapes_terminal_controls_in_strings() {
        let v = json!({"k\u{9b}": "a\u{202e}b\u{1b}[2J\u{85}"});
        let out = to_pretty_string(&v);
        assert!(!out.chars().any(|c| crate::sanitize::is_unsafe(c) && c != '\n'), "{out:?}");
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), v);
    }
}
