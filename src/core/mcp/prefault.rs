//! A long line's buffer made ready on the second core ahead of the reads that fill it.
//!
//! Reading a 10 MB reply off the pipe, the reader spends about two fifths of its time in page
//! faults: each fresh page of the line's buffer is found, zeroed and charged when the kernel's
//! copy first touches it, while the server, writing into the pipe, leaves the other core mostly
//! idle. Here a thread asks the kernel for the pages of the read after the one under way
//! (`MADV_POPULATE_WRITE`, which faults them in without touching their bytes), so the reads copy
//! into pages that are there.
//!
//! Only the allocation's own pages are ever named, and never while it moves: the reader holds
//! `moving` while it grows the buffer, the thread while it asks for pages.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// The thread, and what it is asked to ready next.
pub(super) struct Prefault {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Default)]
struct Shared {
    /// The next pages asked for (addresses), and whether the reader is gone.
    asked: Mutex<(Option<Range<usize>>, bool)>,
    wake: Condvar,
    /// Held by the reader while the buffer may move, by the thread while it readies pages.
    moving: Mutex<()>,
    /// Set when the line has ended: pages asked for are no longer wanted.
    settled: AtomicBool,
}

/// The pages readied at once: the reader, once its line has ended, waits for at most one step.
const STEP: usize = 256 << 10;

impl Prefault {
    /// The thread, on a machine with a second core and a kernel that can ready pages; else None.
    pub(super) fn start() -> Option<Prefault> {
        if !cfg!(target_os = "linux") || !crate::cores::two() {
            return None;
        }
        let shared = Arc::new(Shared::default());
        let theirs = shared.clone();
        let thread = std::thread::Builder::new().name("prefault".into()).spawn(move || theirs.serve()).ok()?;
        Some(Prefault { shared, thread: Some(thread) })
    }

    /// `buf` grown to hold `more` bytes past its length, the thread kept from its pages while
    /// it moves; then the thread asked to ready the `more` bytes after those.
    pub(super) fn reserve(&self, buf: &mut Vec<u8>, more: usize) {
        if buf.capacity() - buf.len() < more {
            let _still = self.shared.moving.lock().unwrap_or_else(PoisonError::into_inner);
            buf.reserve(more);
        }
        let base = buf.as_ptr() as usize;
        let from = buf.len().saturating_add(more);
        let to = from.saturating_add(more).min(buf.capacity());
        if from < to {
            let mut asked = self.shared.asked.lock().unwrap_or_else(PoisonError::into_inner);
            self.shared.settled.store(false, Ordering::Relaxed);
            asked.0 = Some(base + from..base + to);
            self.shared.wake.notify_one();
        }
    }

    /// The line has ended (its buffer is about to be handed on, shrunk or freed): returns once
    /// the thread names none of its pages.
    pub(super) fn settle(&self) {
        self.shared.asked.lock().unwrap_or_else(PoisonError::into_inner).0 = None;
        self.shared.settled.store(true, Ordering::Relaxed);
        drop(self.shared.moving.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

/// Gives back the pages of `buf`'s room past its bytes (readied ahead of a read that did not
/// come, the line having ended): up to a read's width that would stay resident otherwise.
pub(super) fn give_back(buf: &[u8], capacity: usize) {
    let base = buf.as_ptr() as usize;
    // SAFETY: the buffer's own room past its bytes, which nothing reads before writing; its
    // pages read as zeros if touched again.
    #[cfg(target_os = "linux")]
    unsafe {
        advise(base + buf.len()..base + capacity, libc::MADV_DONTNEED);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (base, capacity);
}

impl Drop for Prefault {
    fn drop(&mut self) {
        self.shared.asked.lock().unwrap_or_else(PoisonError::into_inner).1 = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Shared {
    fn serve(&self) {
        loop {
            let range = {
                let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if asked.1 {
                        return;
                    }
                    if let Some(r) = asked.0.take() {
                        break r;
                    }
                    asked = self.wake.wait(asked).unwrap_or_else(PoisonError::into_inner);
                }
            };
            let mut at = range.start;
            while at < range.end {
                let _still = self.moving.lock().unwrap_or_else(PoisonError::into_inner);
                if self.settled.load(Ordering::Relaxed) {
                    break;
                }
                let to = at.saturating_add(STEP).min(range.end);
                if !ready(at..to) {
                    // A kernel before 5.14 does not know the request: the reads fault as before.
                    return;
                }
                at = to;
            }
        }
    }
}

/// Faults in the whole pages within `range` as writable, without writing to them; false when the
/// kernel does not know how.
#[cfg(target_os = "linux")]
fn ready(range: Range<usize>) -> bool {
    // SAFETY: the pages are within the reader's allocation, which cannot move or be freed
    // while `moving` is held; populating them reads and writes none of their bytes.
    let done = unsafe { advise(range, libc::MADV_POPULATE_WRITE) };
    done || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
}

#[cfg(not(target_os = "linux"))]
fn ready(_: Range<usize>) -> bool {
    false
}

/// `madvise(advice)` on the whole pages within `range` (none: done); whether the kernel took it.
///
/// # Safety
/// The pages must be the caller's own, in a mapping that stays as it is meanwhile, and `advice`
/// one whose effect on them the caller allows.
#[cfg(target_os = "linux")]
unsafe fn advise(range: Range<usize>, advice: libc::c_int) -> bool {
    const PAGE: usize = 4096;
    let start = range.start.next_multiple_of(PAGE);
    let end = range.end & !(PAGE - 1);
    // SAFETY: as the caller promises.
    end <= start || unsafe { libc::madvise(start as *mut libc::c_void, end - start, advice) } == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer grown while its pages are readied keeps its bytes, and a line's end leaves no
    /// page asked for.
    #[test]
    fn a_buffer_grown_while_readied_keeps_its_bytes() {
        let Some(p) = Prefault::start() else { return };
        let (mut buf, mut want) = (Vec::new(), Vec::new());
        for round in 0..40u32 {
            p.reserve(&mut buf, 1 << 20);
            let bytes: Vec<u8> = (0..(1u32 << 20) - 7).map(|k| (k ^ round) as u8).collect();
            buf.extend_from_slice(&bytes);
            want.extend_from_slice(&bytes);
            assert!(buf == want, "round {round}");
        }
        p.settle();
        assert!(p.shared.asked.lock().unwrap().0.is_none());
        // The room past the bytes given back, the bytes stay.
        give_back(&buf, buf.capacity());
        assert!(buf == want, "given back");
        buf.shrink_to_fit();
        drop(p);
    }
}
