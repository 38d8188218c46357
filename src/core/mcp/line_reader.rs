//! The server's stdout read line by line, a long line straight into the buffer that keeps it.
//!
//! Through a 64 KiB `BufReader`, a 10 MB reply is 160 reads of the pipe, each waking the server
//! to write the next 64 KiB, and every byte copied twice (pipe to the reader's buffer, then to the
//! line). Once a line is long, it is read from the pipe into the line's own buffer, a pipe's
//! width (1 MiB, see `pipe_size`) at a time: a sixteenth of the reads and wake-ups, one copy.
//! Bytes read past the line's end (the next messages) are kept for the next line.
//!
//! A long line's bytes are checked to be UTF-8 as they arrive, a read at a time, while the
//! server writes the next: the check of a 10 MB line then costs no wait once it has come.

use tokio::io::{AsyncRead, AsyncReadExt};

use super::stdio::{LONG_LINE, OVERSIZED_HEAD};

/// What one read asks for while a line is short: the width of a pipe at rest.
const SHORT_READ: usize = 64 << 10;

/// What one read into a long line's buffer asks for: the width of a widened pipe.
const LONG_READ: usize = 1 << 20;

/// Lines of `R`, each at most a limit long.
pub struct LineReader<R> {
    inner: R,
    /// Bytes read and not yet taken: `pending[start..]`.
    pending: Vec<u8>,
    start: usize,
    /// The line's first bytes known to be UTF-8 (a whole number of characters).
    checked: usize,
    /// Readies a long line's pages on the second core, once a line was long.
    prefault: Option<super::prefault::Prefault>,
}

/// Where a line stands while it is read.
#[derive(Default)]
pub(super) struct Line {
    total: usize,
    overflow: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R) -> Self {
        LineReader { inner, pending: Vec::new(), start: 0, checked: 0, prefault: None }
    }

    /// As `stdio::read_bounded_line`: one line of at most `max` bytes into `buf` (with its
    /// newline); a longer one is consumed to its end and reported as `Err(len)`, `buf` then
    /// holding its first [`OVERSIZED_HEAD`] bytes. `on_long` is called once when the line
    /// reaches [`LONG_LINE`] bytes.
    pub async fn read_line(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        on_long: impl FnMut(),
    ) -> std::io::Result<Option<Result<(), usize>>> {
        let read = self.read_line_into(buf, max, on_long).await;
        if let Some(p) = &self.prefault {
            p.settle();
            if buf.len() >= LONG_LINE {
                super::prefault::give_back(buf, buf.capacity());
            }
        }
        read
    }

    async fn read_line_into(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        mut on_long: impl FnMut(),
    ) -> std::io::Result<Option<Result<(), usize>>> {
        buf.clear();
        self.checked = 0;
        let mut line = Line::default();
        loop {
            if self.start < self.pending.len() {
                if self.take_pending(buf, max, &mut line, &mut on_long) {
                    return Ok(Some(line.answer()));
                }
                continue;
            }
            let long = line.total >= LONG_LINE && !line.overflow && buf.len().saturating_add(LONG_READ) <= max;
            let read = if long { self.read_into_line(buf).await? } else { self.refill().await? };
            if read == 0 {
                return Ok((line.total() > 0).then(|| line.answer()));
            }
            if long {
                self.check_utf8(buf);
            }
            if long && self.end_line_read(buf, read, &mut line) {
                return Ok(Some(line.answer()));
            }
        }
    }

    /// How many of the last line's first bytes are known to be UTF-8, at a character's end:
    /// only the rest needs a check. Of a whole line only (one over the limit keeps its head).
    pub fn utf8_checked(&self) -> usize {
        self.checked
    }

    /// Checks the bytes that came since the last check, up to the last whole character (a
    /// character cut by the read is checked with the bytes that follow it). At an invalid byte
    /// the checks stay (each later one ends there at once): the caller reads the rest as
    /// unchecked text.
    fn check_utf8(&mut self, buf: &[u8]) {
        let Some(unchecked) = buf.get(self.checked..) else { return };
        self.checked += match std::str::from_utf8(unchecked) {
            Ok(_) => unchecked.len(),
            Err(e) => e.valid_up_to(),
        };
    }

    /// Takes pending bytes up to the line's end (or all); whether the line ended.
    fn take_pending(&mut self, buf: &mut Vec<u8>, max: usize, line: &mut Line, on_long: &mut impl FnMut()) -> bool {
        let (n, done) = line.take(&self.pending[self.start..], buf, max, on_long);
        self.start += n;
        done
    }

    /// Reads into the empty pending buffer; how many bytes came (0: the end).
    async fn refill(&mut self) -> std::io::Result<usize> {
        self.pending.clear();
        self.start = 0;
        if self.pending.capacity() > 4 * SHORT_READ {
            // What a long line's tail left is not kept for the short lines that follow.
            self.pending = Vec::new();
        }
        self.pending.reserve(SHORT_READ);
        self.inner.read_buf(&mut self.pending).await
    }

    /// Reads a long line's next bytes straight into its buffer; how many came.
    async fn read_into_line(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        if self.prefault.is_none() {
            self.prefault = super::prefault::Prefault::start();
        }
        match &self.prefault {
            Some(p) => p.reserve(buf, LONG_READ),
            None => buf.reserve(LONG_READ),
        }
        // At most a read's worth: the caller made room for that much within the limit.
        (&mut self.inner).take(LONG_READ as u64).read_buf(buf).await
    }

    /// The `read` bytes just appended to `buf`: whether they end the line. What follows its
    /// newline goes back to the pending bytes, for the next line.
    fn end_line_read(&mut self, buf: &mut Vec<u8>, read: usize, line: &mut Line) -> bool {
        let from = buf.len() - read;
        let Some(at) = memchr::memchr(b'\n', &buf[from..]).map(|i| from + i + 1) else {
            line.total += read;
            return false;
        };
        line.total += at - from;
        self.pending.clear();
        self.pending.extend_from_slice(&buf[at..]);
        self.start = 0;
        buf.truncate(at);
        // The newline is a character's end: what was checked of the line is still checked.
        self.checked = self.checked.min(at);
        true
    }
}

impl Line {
    /// Takes `chunk`'s bytes up to and with the first newline (or all of them) into `buf`, within
    /// `max`: past it, only the line's head is kept and the rest counted. Returns how many bytes
    /// were taken and whether the line ended.
    pub(super) fn take(
        &mut self,
        chunk: &[u8],
        buf: &mut Vec<u8>,
        max: usize,
        on_long: &mut impl FnMut(),
    ) -> (usize, bool) {
        let (part, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let n = part.len();
        if self.total < LONG_LINE && self.total + n >= LONG_LINE {
            on_long();
        }
        self.total += n;
        if !self.overflow {
            if buf.len() + n > max {
                self.overflow = true;
                // The head is kept: it names the request an oversized reply answers.
                buf.extend_from_slice(&part[..n.min(OVERSIZED_HEAD.saturating_sub(buf.len()))]);
                buf.truncate(OVERSIZED_HEAD);
                buf.shrink_to(64 << 10);
            } else {
                buf.extend_from_slice(part);
            }
        }
        (n, done)
    }

    /// The bytes of the line read so far.
    pub(super) fn total(&self) -> usize {
        self.total
    }

    /// The line as read: whole, or over the limit with its length.
    pub(super) fn answer(&self) -> Result<(), usize> {
        if self.overflow { Err(self.total) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of every length around the long-line mark, read through a reader that hands out
    /// odd-sized pieces, come out as they went in, and the bytes after a long line are kept.
    #[tokio::test]
    async fn lines_come_out_as_they_went_in() {
        let lens = [0, 1, 5, LONG_LINE - 1, LONG_LINE, LONG_LINE + 1, 3 * LONG_LINE + 7, 2, LONG_READ * 2 + 3, 9];
        let lines: Vec<String> =
            lens.iter().enumerate().map(|(k, &n)| char::from(b'a' + k as u8).to_string().repeat(n)).collect();
        let text = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        for piece in [1000, 65_537, 1 << 20, 3 << 20] {
            let (mut w, r) = tokio::io::duplex(piece);
            let sent = text.clone();
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                let _ = w.write_all(sent.as_bytes()).await;
            });
            let mut reader = LineReader::new(r);
            let mut buf = Vec::new();
            for want in &lines {
                let mut said = 0;
                let read = reader.read_line(&mut buf, usize::MAX, || said += 1).await;
                assert!(matches!(read, Ok(Some(Ok(())))), "piece {piece}");
                assert_eq!(buf.strip_suffix(b"\n"), Some(want.as_bytes()), "piece {piece}");
                assert_eq!(said, usize::from(want.len() + 1 >= LONG_LINE), "piece {piece}");
            }
            assert!(matches!(reader.read_line(&mut buf, usize::MAX, || {}).await, Ok(None)));
        }
    }

    /// A long line's bytes are checked as UTF-8 as they come: every read may cut a character,
    /// the checked part is whole characters, all of a valid line that ended in a long read,
    /// and never past an invalid byte.
    #[tokio::test]
    async fn a_long_lines_text_is_checked_as_it_comes() {
        let valid = "é😀a".repeat(LONG_LINE / 2);
        let mut broken = valid.clone().into_bytes();
        broken[LONG_LINE + 1001] = 0xff;
        for piece in [1000, 65_537, (1 << 20) + 1] {
            for (line, ok) in [(valid.as_bytes().to_vec(), true), (broken.clone(), false)] {
                let (mut w, r) = tokio::io::duplex(piece);
                let mut sent = line.clone();
                sent.extend_from_slice(b"\nnext\n");
                tokio::spawn(async move {
                    use tokio::io::AsyncWriteExt;
                    let _ = w.write_all(&sent).await;
                });
                let mut reader = LineReader::new(r);
                let mut buf = Vec::new();
                assert!(matches!(reader.read_line(&mut buf, usize::MAX, || {}).await, Ok(Some(Ok(())))));
                let checked = reader.utf8_checked();
                assert!(std::str::from_utf8(&buf[..checked]).is_ok(), "piece {piece}");
                if ok {
                    assert_eq!(checked, buf.len(), "piece {piece}");
                } else {
                    assert!(checked <= LONG_LINE + 1001, "piece {piece}");
                }
                assert!(matches!(reader.read_line(&mut buf, usize::MAX, || {}).await, Ok(Some(Ok(())))));
                assert_eq!(buf, b"next\n");
            }
        }
    }

    /// A line over the limit is consumed to its end and said with its length, its head kept;
    /// the next line reads whole; a last line without a newline is a line.
    #[tokio::test]
    async fn a_line_over_the_limit_is_said_and_skipped() {
        let text = format!("{}\nok\n{}\ntail", "x".repeat(5000), "y".repeat(3 * LONG_LINE));
        let mut reader = LineReader::new(text.as_bytes());
        let mut buf = Vec::new();
        assert!(matches!(reader.read_line(&mut buf, 100, || {}).await, Ok(Some(Err(5001)))));
        assert_eq!(buf.len(), OVERSIZED_HEAD);
        assert!(matches!(reader.read_line(&mut buf, 100, || {}).await, Ok(Some(Ok(())))));
        assert_eq!(buf, b"ok\n");
        let limit = 2 * LONG_LINE;
        assert!(matches!(reader.read_line(&mut buf, limit, || {}).await, Ok(Some(Err(n))) if n == 3 * LONG_LINE + 1));
        assert!(matches!(reader.read_line(&mut buf, limit, || {}).await, Ok(Some(Ok(())))));
        assert_eq!(buf, b"tail");
        assert!(matches!(reader.read_line(&mut buf, limit, || {}).await, Ok(None)));
    }
}
