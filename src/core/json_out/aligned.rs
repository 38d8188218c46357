//! A long list's laid-out chunks written out in order, a few at a time, each write ending where
//! the output reaches a multiple of [`ALIGN`]. A file's page cache keeps large folios only where
//! writes are large and aligned: 160 MB written here in pieces of 96,000 bytes took 48-51 ms, in
//! pieces of 64 KB at offsets that are multiples of it 37 ms, of 128 KB 34 ms (the kernel's work
//! for each small folio: its buffers, its extents, its charge). 64 KB keeps at most a part of
//! one chunk waiting, so that memory stays flat.

use std::collections::VecDeque;
use std::io::{self, IoSlice, Write};

use super::Pretty;

/// Writes end where the output's length is a multiple of this.
const ALIGN: u64 = 64 << 10;

/// The chunks laid out and not yet written, in order: the front one from `from` on.
#[derive(Default)]
pub(super) struct Queue {
    printers: VecDeque<Pretty<Vec<u8>>>,
    from: usize,
    bytes: usize,
}

impl Queue {
    /// Queues a chunk's printer (into memory: it never flushes, see `Pretty::for_chunks`).
    pub(super) fn push(&mut self, f: Pretty<Vec<u8>>) {
        debug_assert!(f.out.is_empty());
        self.bytes += f.len;
        self.printers.push_back(f);
    }

    /// Writes the queued text to `p`'s writer up to the last multiple of [`ALIGN`] of the
    /// output, or all of it with `all`; each printer written out whole goes to `give_back`.
    pub(super) fn write<W: Write>(
        &mut self,
        p: &mut Pretty<W>,
        all: bool,
        mut give_back: impl FnMut(Pretty<Vec<u8>>),
    ) -> io::Result<()> {
        let end = p.written + self.bytes as u64;
        let upto = if all { end } else { end / ALIGN * ALIGN };
        let Some(mut n) = upto.checked_sub(p.written).map(|n| n as usize).filter(|&n| n > 0) else { return Ok(()) };
        let mut slices = Vec::with_capacity(self.printers.len());
        let mut from = self.from;
        for f in &self.printers {
            let take = (f.len - from).min(n);
            slices.push(IoSlice::new(&f.buf[from..from + take]));
            n -= take;
            from = 0;
            if n == 0 {
                break;
            }
        }
        let written: usize = slices.iter().map(|s| s.len()).sum();
        write_all_vectored(&mut p.out, &mut slices)?;
        p.written += written as u64;
        self.bytes -= written;
        // The printers written out whole are done with; the last may be written in part.
        let mut left = written + self.from;
        while let Some(f) = self.printers.front() {
            if left < f.len {
                break;
            }
            left -= f.len;
            if let Some(f) = self.printers.pop_front() {
                give_back(f);
            }
        }
        self.from = left;
        Ok(())
    }
}

/// `slices` written out whole, in as few calls as the writer takes.
fn write_all_vectored<W: Write>(out: &mut W, mut slices: &mut [IoSlice<'_>]) -> io::Result<()> {
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "failed to write whole buffer")),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps what it is given and where each call ended, taking at most
    /// `most` bytes a call (as a pipe or a full disk may).
    struct Calls {
        text: Vec<u8>,
        ends: Vec<usize>,
        most: usize,
    }

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.write_vectored(&[IoSlice::new(buf)])
        }

        fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(self.most - n);
                self.text.extend_from_slice(&b[..take]);
                n += take;
            }
            self.ends.push(self.text.len());
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn chunk(byte: u8, len: usize) -> Pretty<Vec<u8>> {
        let mut f = Pretty::for_chunks();
        f.buf = vec![byte; len + 7];
        f.len = len;
        f
    }

    /// The chunks come out whole and in order, and every write but the last ends at a multiple
    /// of the alignment, whatever the chunks' sizes and what came before them.
    #[test]
    fn chunks_are_written_in_order_in_aligned_pieces() {
        for (head, most) in [(0, usize::MAX), (100, usize::MAX), (70_000, 50_000)] {
            let mut p = Pretty::new(Calls { text: vec![], ends: vec![], most });
            p.out.text = vec![b'h'; head];
            p.written = head as u64;
            let (mut queue, mut want, mut given_back) = (Queue::default(), vec![b'h'; head], 0);
            let sizes = [95_000, 1, 131_072, 200_000, 64_000, 3, 300_000];
            for (k, &len) in sizes.iter().enumerate() {
                queue.push(chunk(b'a' + k as u8, len));
                want.extend(std::iter::repeat_n(b'a' + k as u8, len));
                let last = k + 1 == sizes.len();
                queue.write(&mut p, last, |_| given_back += 1).ok();
                assert_eq!(p.written as usize, p.out.text.len());
            }
            assert!(p.out.text == want, "the text as laid out, in order");
            assert_eq!(given_back, sizes.len());
            let ends = &p.out.ends[..p.out.ends.len() - 1];
            if most == usize::MAX {
                assert!(ends.iter().all(|&e| (e as u64).is_multiple_of(ALIGN)), "{ends:?}");
            }
        }
    }
}
