//! Where mcplens keeps its files, and how it writes private ones. The state directory
//! (`$MCPLENS_STATE_DIR`, else `$XDG_STATE_HOME/mcplens`, else `~/.local/state/mcplens`) holds
//! the history, logins and exports; the config directory (`$MCPLENS_CONFIG_DIR`, else
//! `$XDG_CONFIG_HOME/mcplens`, else `~/.config/mcplens`) holds what the user writes: settings,
//! keymap, hints.

use std::path::{Path, PathBuf};

/// The directory of the user's own files for mcplens.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("MCPLENS_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("mcplens"));
    }
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".config/mcplens"))
}

pub fn state_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("MCPLENS_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("mcplens"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state/mcplens"))
}

/// A file name for a server: readable, and unique per target label (FNV-1a of the whole label).
pub fn server_key(label: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let readable: String = label
        .rsplit('/')
        .next()
        .unwrap_or(label)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .take(40)
        .collect();
    format!("{}-{hash:016x}", readable.trim_matches('-'))
}

pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Changed only when it is not already so: a change of mode is a write of the directory's
        // inode, which on a journaled file system may wait for the journal's commit.
        if std::fs::metadata(dir)?.permissions().mode() & 0o7777 != 0o700 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

/// Opens `path` with `opts` (for writing) without ever waiting on a FIFO that no process reads:
/// the open of one waits for a reader for ever, so it is refused with a word instead. A FIFO
/// with a reader (`-o >(jq .)`), a device or a regular file is written as before.
pub fn open_for_write(opts: &mut std::fs::OpenOptions, path: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
        let f = opts.open(path).map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => std::io::Error::other("a FIFO or socket no process reads; not written"),
            _ => e,
        })?;
        blocking(&f)?;
        Ok(f)
    }
    #[cfg(not(unix))]
    opts.open(path)
}

/// `path` created (or truncated) for writing, as `File::create`, through [`open_for_write`].
pub fn create_file(path: &Path) -> std::io::Result<std::fs::File> {
    open_for_write(std::fs::OpenOptions::new().write(true).create(true).truncate(true), path)
}

/// `bytes` written to `path`, as `std::fs::write`, through [`open_for_write`].
pub fn write_file(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = create_file(path)?;
    f.write_all(bytes.as_ref())?;
    f.flush()
}

/// Writes to `f` wait again (it was opened non-blocking only so that the open could not wait).
#[cfg(unix)]
fn blocking(f: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = f.as_raw_fd();
    // SAFETY: fcntl on a descriptor this File owns, with flags read from it just before.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Opens `path` for appending, creating it with mode 0600.
pub fn open_private(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).write(true);
    if append {
        opts.append(true);
    } else {
        opts.truncate(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let f = open_for_write(&mut opts, path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // As for a directory (see `create_private_dir`): changed only when it is not already so.
        if f.metadata()?.permissions().mode() & 0o7777 != 0o600 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(f)
}

pub fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).map(|m| m.permissions().mode() & 0o7777).unwrap_or(0)
    }

    /// A directory or file made too open elsewhere is made private again; one already private
    /// keeps its mode (and is not written to for it).
    #[test]
    fn private_files_are_made_private_again() {
        let dir = std::env::temp_dir().join(format!("mcplens-private-{}", std::process::id()));
        let file = dir.join("history.jsonl");
        create_private_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        create_private_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        drop(open_private(&file, true).unwrap());
        assert_eq!(mode(&file), 0o600);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        drop(open_private(&file, true).unwrap());
        assert_eq!(mode(&file), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
