//! Whether a second core is there to run a long reply's passes beside the main one.

use std::sync::OnceLock;

/// More than one core is available to this process. Asked once: on Linux the answer reads the
/// cgroup's files (about a dozen system calls), and every long reply's pass asks.
pub fn two() -> bool {
    static TWO: OnceLock<bool> = OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}
