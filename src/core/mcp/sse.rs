//! Server-sent events read as the WHATWG spec reads them, tolerantly: invalid UTF-8 is decoded
//! with U+FFFD, a `retry` that is not a number is ignored, unknown fields and lines without a
//! colon are skipped. A stricter parser (sse-stream's) ends the whole response on any of these,
//! and with it the request the response answers; stdio goes on after such a line, and so does
//! this. What was tolerated is reported beside the events, for the log.

use sse_stream::Sse;

/// What one chunk of the stream held: whole events, and what was tolerated on the way.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    Event(Sse),
    Warning(String),
}

/// The parser's state between chunks.
#[derive(Debug)]
pub struct SseParser {
    line: Vec<u8>,
    /// The last chunk ended in `\r`: a `\n` first in the next one ends no other line.
    after_cr: bool,
    event: Sse,
    data: String,
    has_data: bool,
    /// The event's data passed `max`: what follows is dropped, and the event with it.
    oversized: usize,
    max: usize,
}

impl SseParser {
    /// `max` bounds one event's data (and one line) in bytes.
    pub fn new(max: usize) -> SseParser {
        SseParser {
            line: vec![],
            after_cr: false,
            event: Sse::default(),
            data: String::new(),
            has_data: false,
            oversized: 0,
            max,
        }
    }

    /// The events `chunk` completes.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Parsed> {
        let mut out = vec![];
        let mut rest = chunk;
        if self.after_cr && rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
        self.after_cr = false;
        while let Some(i) = memchr::memchr2(b'\n', b'\r', rest) {
            self.extend_line(&rest[..i]);
            let line = std::mem::take(&mut self.line);
            self.on_line(&line, &mut out);
            let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
            if rest[i] == b'\r' && i + 1 == rest.len() {
                self.after_cr = true;
            }
            rest = &rest[i + if crlf { 2 } else { 1 }..];
        }
        self.extend_line(rest);
        out
    }

    fn extend_line(&mut self, bytes: &[u8]) {
        if self.line.len() + bytes.len() > self.max {
            self.oversized += bytes.len();
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn on_line(&mut self, line: &[u8], out: &mut Vec<Parsed>) {
        if line.is_empty() {
            return self.dispatch(out);
        }
        if line[0] == b':' {
            return;
        }
        let text = match std::str::from_utf8(line) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                out.push(Parsed::Warning("server sent invalid UTF-8 in an SSE event; read with U+FFFD".into()));
                String::from_utf8_lossy(line)
            }
        };
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (text.as_ref(), ""),
        };
        match field {
            "data" => self.add_data(value),
            "event" => self.event.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.event.id = Some(value.to_string()),
            "retry" => match value.parse::<u64>() {
                Ok(ms) if value.bytes().all(|b| b.is_ascii_digit()) => self.event.retry = Some(ms),
                _ => out.push(Parsed::Warning(format!(
                    "server sent an SSE retry that is not a number of milliseconds ({}); ignored",
                    crate::sanitize::line_head(value, 40)
                ))),
            },
            _ => {}
        }
    }

    fn add_data(&mut self, value: &str) {
        if self.oversized > 0 || self.data.len() + value.len() + 1 > self.max {
            self.oversized += value.len() + 1;
            self.data = String::new();
            return;
        }
        if self.has_data {
            self.data.push('\n');
        }
        self.data.push_str(value);
        self.has_data = true;
    }

    fn dispatch(&mut self, out: &mut Vec<Parsed>) {
        let mut event = std::mem::take(&mut self.event);
        if self.oversized > 0 {
            out.push(Parsed::Warning(format!(
                "server sent an SSE event of over {} bytes, over the {}-byte limit (--max-message-mb); skipped",
                self.oversized, self.max
            )));
        } else if self.has_data {
            event.data = Some(std::mem::take(&mut self.data));
        }
        (self.has_data, self.oversized) = (false, 0);
        self.data = String::new();
        if event != Sse::default() {
            out.push(Parsed::Event(event));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<Parsed> {
        let mut p = SseParser::new(1 << 20);
        chunks.iter().flat_map(|c| p.push(c)).collect()
    }

    fn data(d: &str) -> Parsed {
        Parsed::Event(Sse { data: Some(d.into()), ..Sse::default() })
    }

    #[test]
    fn reads_events_across_chunks_and_line_ends() {
        let got = events(&[b"data: a\r", b"\ndata: b\r\n\r\nid: 7\n", b"retry: 30\n\n:comment\ndata:c\rdata\r\r"]);
        assert_eq!(got[0], data("a\nb"));
        assert_eq!(got[1], Parsed::Event(Sse { id: Some("7".into()), retry: Some(30), ..Sse::default() }));
        assert_eq!(got[2], data("c\n"));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn tolerates_what_a_strict_parser_ends_the_stream_on() {
        let got = events(&[b"retry: -5\ndata: x\xff\n\nretry: 99999999999999999999999\nbogus\nid: a\0b\ndata: y\n\n"]);
        assert!(matches!(&got[0], Parsed::Warning(w) if w.contains("(-5)")), "{got:?}");
        assert!(matches!(&got[1], Parsed::Warning(w) if w.contains("UTF-8")), "{got:?}");
        assert_eq!(got[2], data("x\u{fffd}"));
        assert!(matches!(&got[3], Parsed::Warning(w) if w.contains("retry")), "{got:?}");
        assert_eq!(got[4], data("y"));
    }

    /// What the SDKs' own transports wrote, recorded from them (tests/wild/SOURCE.md), fed in
    /// one chunk and byte by byte: read in full and nothing said, for nothing in them is wrong.
    fn wild(bytes: &[u8]) -> Vec<Parsed> {
        let whole = events(&[bytes]);
        let split: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(events(&split), whole, "chunking changes nothing");
        assert!(!whole.iter().any(|p| matches!(p, Parsed::Warning(_))), "{whole:?}");
        whole
    }

    fn event(id: Option<&str>, name: Option<&str>, retry: Option<u64>, data: &str) -> Parsed {
        let s = |v: Option<&str>| v.map(str::to_string);
        Parsed::Event(Sse { id: s(id), event: s(name), retry, data: Some(data.into()) })
    }

    #[test]
    fn the_typescript_sdks_priming_event_and_reply_are_read_silently() {
        let got = wild(include_bytes!("../../../tests/wild/sse/ts-sdk-post-initialize.txt"));
        let id = "13510341-e60e-4c4f-b8ef-538dbe8315aa_";
        assert_eq!(got[0], event(Some(&format!("{id}1795451658391_2pqhsl6k")), None, Some(1000), ""));
        let Parsed::Event(reply) = &got[1] else { panic!("{got:?}") };
        assert_eq!(
            (reply.event.as_deref(), reply.id.as_deref()),
            (Some("message"), Some(&*format!("{id}1795451658400_0awxa3kh")))
        );
        assert!(reply.data.as_deref().is_some_and(|d| d.starts_with(r#"{"result":{"protocolVersion":"2025-11-25""#)));
        assert_eq!(got.len(), 2);
        assert!(wild(include_bytes!("../../../tests/wild/sse/ts-sdk-get-keepalive.txt")).is_empty(), "comments only");
    }

    #[test]
    fn the_python_sdks_crlf_priming_event_reply_and_ping_are_read_silently() {
        let got = wild(include_bytes!("../../../tests/wild/sse/python-sdk-post-initialize.txt"));
        assert_eq!(got[0], event(Some("1-1"), None, Some(1000), ""));
        let Parsed::Event(reply) = &got[1] else { panic!("{got:?}") };
        assert_eq!((reply.event.as_deref(), reply.id.as_deref()), (Some("message"), Some("1-2")));
        let data = reply.data.as_deref().unwrap_or_default();
        assert!(data.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":"#) && data.ends_with("}}}"), "{data}");
        assert_eq!(got.len(), 2);
        assert!(wild(include_bytes!("../../../tests/wild/sse/python-sdk-get-ping.txt")).is_empty(), "comments only");
    }

    #[test]
    fn an_oversized_event_is_skipped_and_the_next_read() {
        let mut p = SseParser::new(16);
        let mut got = p.push(b"data: 0123456789\ndata: 0123456789\n\n");
        got.extend(p.push(b"data: ok\n\n"));
        assert!(matches!(&got[0], Parsed::Warning(w) if w.contains("16-byte limit")), "{got:?}");
        assert_eq!(got[1], data("ok"));
        let mut p = SseParser::new(16);
        let got = p.push(&[b"data: ".as_slice(), &[b'x'; 40], b"\n\ndata: ok\n\n"].concat());
        assert!(matches!(&got[0], Parsed::Warning(_)) && got[1] == data("ok"), "{got:?}");
    }
}
