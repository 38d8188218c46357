//! Reading a file the user points at (config, theme, keymap, history) with a size cap: an endless
//! file (`/dev/zero`) or a huge one ends at once with a clear error instead of filling memory.

use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Largest `--config` file (VS Code's settings files can be large; still far below any harm).
pub const MAX_CONFIG: u64 = 16 << 20;
/// Largest `--theme` or keymap file.
pub const MAX_THEME: u64 = 1 << 20;
/// How much of the end of a history file is read (older lines stay in the file, unread).
pub const MAX_HISTORY_TAIL: u64 = 16 << 20;

#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Longer than the cap (or endless).
    TooLarge {
        cap: u64,
    },
    /// Not UTF-8 text.
    NotText,
    /// A FIFO, socket, device or directory: reading one may block for ever or never end.
    NotRegular {
        kind: &'static str,
    },
}

impl ReadError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge { cap } => write!(f, "larger than {} (the most read)", size(*cap)),
            ReadError::NotText => f.write_str("not UTF-8 text"),
            ReadError::NotRegular { kind } => write!(f, "not a regular file ({kind}); not read"),
        }
    }
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 { format!("{} MiB", bytes >> 20) } else { format!("{} KiB", bytes >> 10) }
}

/// The bytes of `path`, at most `cap` of them.
/// A file that says it is larger than `cap` is refused before a byte is read; an endless one
/// (`/dev/zero`) is read in chunks and refused at the first byte past the cap, so memory never
/// grows past the cap (a read to the end doubled it: 1 GiB held for a 512 MiB cap).
pub fn read(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut file = open_regular(path)?;
    let stated = file.metadata().ok().map(|m| m.len());
    if stated.is_some_and(|len| len > cap) {
        return Err(ReadError::TooLarge { cap });
    }
    let mut bytes = Vec::new();
    if let Some(len) = stated {
        bytes.reserve_exact(usize::try_from(len).unwrap_or(0));
    }
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        if (bytes.len() as u64).saturating_add(n as u64) > cap {
            return Err(ReadError::TooLarge { cap });
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// Opens a file the user points at for reading, only if it is a regular file (after symlinks).
/// The open itself does not wait: on a FIFO a plain open blocks until a writer comes, for ever
/// if none does, so it is opened non-blocking and its kind looked at before a byte is read.
pub fn open_regular(path: &Path) -> Result<std::fs::File, ReadError> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    // O_NONBLOCK stays set: it changes nothing for a regular file (reads of one never wait).
    if meta.is_file() { Ok(file) } else { Err(ReadError::NotRegular { kind: kind_of(&meta.file_type()) }) }
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_dir() { "a directory" } else { "not a plain file" }
}

/// The text of `path` (at most `cap` bytes), without a leading UTF-8 byte order mark.
pub fn read_text(path: &Path, cap: u64) -> Result<String, ReadError> {
    let mut bytes = read(path, cap)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotText)
}

/// The last `cap` bytes of `path` at most, starting at a line: for append-only line files that
/// may grow without end. Whether older lines were left out is returned with them.
pub fn read_tail(path: &Path, cap: u64) -> Result<(Vec<u8>, bool), ReadError> {
    let mut file = open_regular(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let skipped = len > cap;
    if skipped {
        file.seek(SeekFrom::Start(len - cap)).map_err(ReadError::Io)?;
    }
    let mut bytes = Vec::new();
    file.take(cap).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if skipped {
        // The first line is probably cut: start after it.
        let start = memchr::memchr(b'\n', &bytes).map_or(bytes.len(), |i| i + 1);
        bytes.drain(..start);
    }
    Ok((bytes, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_directories_are_refused_at_once() {
        let e = read_text(Path::new("/dev/zero"), 1 << 20).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("not a regular file (a device); not read"));
        let e = read(&std::env::temp_dir(), 1 << 20).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("not a regular file (a directory); not read"));
    }

    /// A FIFO with no writer: a plain open would wait for ever.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting() {
        let dir = std::env::temp_dir().join(format!("mcplens-fifo-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&p).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let e = read_text(&p, 1 << 20).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("not a regular file (a FIFO); not read"));
        let e = read_tail(&p, 1 << 20).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("not a regular file (a FIFO); not read"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bom_is_dropped_and_tails_start_at_a_line() {
        let dir = std::env::temp_dir().join(format!("mcplens-capped-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("f");
        let _ = std::fs::write(&p, b"\xEF\xBB\xBF{}\nline two\nline three\n");
        assert_eq!(read_text(&p, 100).ok().as_deref(), Some("{}\nline two\nline three\n"));
        let (tail, skipped) = read_tail(&p, 15).unwrap_or_default();
        assert!(skipped);
        assert_eq!(tail, b"line three\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
