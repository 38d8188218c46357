//! The server's stdout pipe made wide while a long message crosses it. At Linux's default 64 KiB,
//! a reply of 25 MB crosses in some four hundred fills, each waking the reader and then the
//! writer again; at 1 MiB it takes about a third of the time. The pipe is narrowed again after
//! the message: a user's wide pipes count against a quota (`pipe-user-pages-soft`, 64 MiB by
//! default), and past it every new pipe of that user, in any program, is cut to two pages.

/// The width asked for while a long message crosses: Linux's default ceiling for a user
/// (`/proc/sys/fs/pipe-max-size`).
const WIDE: i32 = 1 << 20;

/// Linux's default width, asked for again once the message has crossed.
const NARROW: i32 = 64 << 10;

/// The reading end of a child's stdout, by its descriptor (which the reader owns and keeps open
/// as long as it reads).
pub(super) struct Pipe {
    #[cfg(target_os = "linux")]
    fd: std::os::fd::RawFd,
}

impl Pipe {
    pub(super) fn of(stdout: &tokio::process::ChildStdout) -> Self {
        #[cfg(target_os = "linux")]
        return Pipe { fd: std::os::fd::AsRawFd::as_raw_fd(stdout) };
        #[cfg(not(target_os = "linux"))]
        {
            let _ = stdout;
            Pipe {}
        }
    }

    /// Asks for a wide pipe; whether it was given (a user over the quota is refused).
    pub(super) fn widen(&self) -> bool {
        self.set(WIDE)
    }

    /// Asks for the default width again. Refused while more than that is still in the pipe (the
    /// next message already crossing): the pipe then stays wide until the next long message.
    pub(super) fn narrow(&self) {
        self.set(NARROW);
    }

    #[cfg(target_os = "linux")]
    fn set(&self, width: i32) -> bool {
        // SAFETY: fcntl on a descriptor the reader holds open; it reads or writes no memory of ours.
        unsafe { libc::fcntl(self.fd, libc::F_SETPIPE_SZ, width) >= 0 }
    }

    #[cfg(not(target_os = "linux"))]
    fn set(&self, _width: i32) -> bool {
        false
    }
}
