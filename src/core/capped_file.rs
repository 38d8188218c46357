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
    let mut file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let stated = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
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
    let mut file = std::fs::File::open(path).map_err(ReadError::Io)?;
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
    fn endless_files_end_at_the_cap() {
        match read(Path::new("/dev/zero"), 1 << 10) {
            Err(ReadError::TooLarge { cap }) => assert_eq!(cap, 1 << 10),
            other => panic!("{other:?}"),
        }
        let e = read_text(Path::new("/dev/zero"), 1 << 20).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("larger than 1 MiB (the most read)"));
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
