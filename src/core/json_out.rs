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

use serde::Serialize;

use serde_json::Value;

use crate::envelope::{Data, Envelope, RawItems};

pub struct Pretty<W: Write> {
    out: W,
    buf: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// An opened `{` or `[` whose first member has not been seen (so `{}` stays `{}`).
    open: bool,
    /// The bytes of a multi-byte character inside a string, until it is complete.
    pending: Vec<u8>,
}

const FLUSH_AT: usize = 1 << 16;
const INDENT: &[u8; 64] = b"                                                                ";
/// Levels laid out one member a line; anything deeper is written compact on its line. Indenting
/// every level would make the output grow with the square of the depth (a 2 MB reply nested 990
/// deep came out as 2 GB), and nobody reads 32 levels of indentation.
pub const INDENTED_LEVELS: usize = 32;

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

impl<W: Write> Pretty<W> {
    pub fn new(out: W) -> Pretty<W> {
        Pretty {
            out,
            buf: Vec::with_capacity(FLUSH_AT + 64),
            depth: 0,
            in_string: false,
            escaped: false,
            open: false,
            pending: vec![],
        }
    }

    fn newline(&mut self) {
        if self.depth > INDENTED_LEVELS {
            return;
        }
        self.buf.push(b'\n');
        let mut left = self.depth * 2;
        while left > 0 {
            let n = left.min(INDENT.len());
            self.buf.extend_from_slice(&INDENT[..n]);
            left -= n;
        }
    }

    /// Before a value or a closing bracket: the newline an open bracket owes.
    fn settle(&mut self, closing: bool) {
        if self.open {
            self.open = false;
            if !closing {
                self.newline();
            }
        } else if closing {
            self.newline();
        }
    }

    fn string_byte(&mut self, c: u8) {
        if !self.pending.is_empty() || c >= 0x80 {
            self.pending.push(c);
            let need = match self.pending[0] {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => 1,
            };
            if self.pending.len() < need {
                return;
            }
            let bytes = std::mem::take(&mut self.pending);
            match std::str::from_utf8(&bytes).ok().and_then(|s| s.chars().next()) {
                Some(ch) if crate::sanitize::is_unsafe(ch) => self.escape(ch),
                _ => self.buf.extend_from_slice(&bytes),
            }
            return;
        }
        if self.escaped {
            self.escaped = false;
            self.buf.push(c);
            return;
        }
        match c {
            b'\\' => {
                self.escaped = true;
                self.buf.push(c);
            }
            b'"' => {
                self.in_string = false;
                self.buf.push(c);
            }
            // Not valid inside a JSON string, but never let one through raw.
            0..=0x1f | 0x7f => self.escape(c as char),
            _ => self.buf.push(c),
        }
    }

    fn escape(&mut self, ch: char) {
        let mut units = [0u16; 2];
        for u in ch.encode_utf16(&mut units) {
            let _ = write!(self.buf, "\\u{u:04x}");
        }
    }

    fn byte(&mut self, c: u8) {
        if self.in_string {
            self.string_byte(c);
            return;
        }
        match c {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'{' | b'[' => {
                self.settle(false);
                self.buf.push(c);
                self.depth += 1;
                self.open = true;
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                self.settle(true);
                self.buf.push(c);
            }
            b',' => {
                self.buf.push(b',');
                self.newline();
            }
            b':' if self.depth > INDENTED_LEVELS => self.buf.push(b':'),
            b':' => self.buf.extend_from_slice(b": "),
            b'"' => {
                self.settle(false);
                self.in_string = true;
                self.buf.push(c);
            }
            _ => {
                self.settle(false);
                self.buf.push(c);
            }
        }
    }

    /// A printer into memory at this one's depth, between values (`after_comma`: a comma was
    /// the last thing written, so the next value is not the container's first).
    fn fork(&self, after_comma: bool) -> Pretty<Vec<u8>> {
        let mut f = Pretty::new(Vec::with_capacity(0));
        f.depth = self.depth;
        f.open = !after_comma && self.open;
        f
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<W> {
        self.buf.push(b'\n');
        self.out.write_all(&self.buf)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for Pretty<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut i = 0;
        while i < data.len() {
            // Most of the text is string contents and scalars: each is copied as a run, up to the
            // next byte that needs a look.
            let run = if !self.in_string {
                run_of(&data[i..], |c| SCALAR[c as usize])
            } else if !self.escaped && self.pending.is_empty() {
                run_of(&data[i..], |c| PLAIN[c as usize])
            } else {
                0
            };
            if run > 0 {
                if !self.in_string {
                    self.settle(false);
                }
                self.buf.extend_from_slice(&data[i..i + run]);
                i += run;
                continue;
            }
            self.byte(data[i]);
            i += 1;
        }
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
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

/// Records per chunk when a long list is laid out on two threads.
const CHUNK: usize = 1024;

/// The records of a list, inside its opened `[`. A long list is laid out in chunks, two at a time
/// on two threads, then written in order: the layout costs as much as everything else in a call
/// does, and holding two chunks keeps memory flat.
fn write_records<W: Write>(p: &mut Pretty<W>, items: &RawItems) -> io::Result<()> {
    let two_cores = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    if !two_cores || items.len() <= 2 * CHUNK {
        return write_range(p, items, 0..items.len());
    }
    p.flush_buf()?;
    let mut start = 0;
    while start < items.len() {
        let mid = (start + CHUNK).min(items.len());
        let end = (mid + CHUNK).min(items.len());
        let (mut a, mut b) = (p.fork(start > 0), p.fork(true));
        let (ra, rb) = std::thread::scope(|s| {
            let other = s.spawn(|| write_range(&mut b, items, mid..end));
            let ra = write_range(&mut a, items, start..mid);
            (ra, other.join().unwrap_or_else(|_| Err(io::Error::other("layout thread failed"))))
        });
        ra?;
        rb?;
        for f in [a, b] {
            p.out.write_all(&f.out)?;
            p.out.write_all(&f.buf)?;
        }
        start = end;
    }
    p.open = false;
    Ok(())
}

/// Records `range`, each after a comma but the list's first.
fn write_range<W: Write>(p: &mut Pretty<W>, items: &RawItems, range: std::ops::Range<usize>) -> io::Result<()> {
    for i in range {
        if i > 0 {
            p.write_all(b",")?;
        }
        p.write_all(items.raw(i).unwrap_or("null").as_bytes())?;
    }
    Ok(())
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
    fn escapes_terminal_controls_in_strings() {
        let v = json!({"k\u{9b}": "a\u{202e}b\u{1b}[2J\u{85}"});
        let out = to_pretty_string(&v);
        assert!(!out.chars().any(|c| crate::sanitize::is_unsafe(c) && c != '\n'), "{out:?}");
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), v);
    }
}
