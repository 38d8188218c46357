//! Writing JSON for people and pipes at any size: a streaming pretty-printer that is also the
//! terminal-safety filter.
//!
//! [`Pretty`] takes JSON text in pieces (from serde_json's compact writer, or raw text as a
//! server sent it), and writes it indented the way `serde_json::to_string_pretty` does, with
//! characters that could act as terminal controls inside strings written as `\uXXXX` escapes.
//! Nothing is built in memory, so a 100 MB envelope streams straight to stdout, and raw records
//! keep their numbers exactly as sent.

use std::io::{self, Write};

use serde::Serialize;

use crate::envelope::{Data, Envelope};

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
        self.buf.push(b'\n');
        for _ in 0..self.depth {
            self.buf.extend_from_slice(b"  ");
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
            if self.in_string && !self.escaped && self.pending.is_empty() {
                // Most of the text is inside strings, and most of that is plain ASCII: copied as
                // a run, up to the next byte that needs a look.
                let run = data[i..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\\' || !(0x20..0x7f).contains(&c))
                    .unwrap_or(data.len() - i);
                self.buf.extend_from_slice(&data[i..i + run]);
                i += run;
                if i == data.len() {
                    break;
                }
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
    let shell = shell?;
    let Data::Items(items) = &e.data else { return Ok(out) };
    // Inside JSON strings every quote is escaped, so this byte sequence is the `data` member.
    const DATA: &[u8] = b"\"data\":null";
    let Some(at) = shell.windows(DATA.len()).position(|w| w == DATA) else {
        return write_pretty(out, e);
    };
    let mut p = Pretty::new(out);
    p.write_all(&shell[..at + DATA.len() - 4])?;
    p.write_all(b"[")?;
    for i in 0..items.len() {
        if i > 0 {
            p.write_all(b",")?;
        }
        p.write_all(items.raw(i).unwrap_or("null").as_bytes())?;
    }
    p.write_all(b"]")?;
    p.write_all(&shell[at + DATA.len()..])?;
    p.finish()
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
