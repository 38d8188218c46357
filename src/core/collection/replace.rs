//! Replacing a collection file whole, as an editor saving it would: the new text is written to a
//! file of its own beside the one it replaces, then renamed over it, so a reader never sees half
//! a file. A symlink is followed (its target is replaced, the link stays a link), the file keeps
//! its permissions, and two writers at once each write their own temporary file.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most symlinks followed from the path given (as the system's own limit, `ELOOP`).
const MAX_LINKS: usize = 40;

/// Replaces the file at `path` (or the file its symlinks lead to) with `text`.
pub fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    let path = resolved(path)?;
    // The old file's permissions, when there is one: a 0600 collection (it may hold arguments
    // that are nobody else's business) stays 0600.
    let kept = std::fs::metadata(&path).ok().map(|m| m.permissions());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (tmp, mut file) = temporary(&dir, &path, kept.is_some())?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|_| file.flush())
        .and_then(|_| kept.map_or(Ok(()), |p| file.set_permissions(p)))
        .and_then(|_| std::fs::rename(&tmp, &path));
    if written.is_err() {
        // A half-written copy is no use to anyone; the file itself is untouched.
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `path` with its symlinks followed: the file a write through it reaches (which may not exist
/// yet: a link to a file still to be made).
fn resolved(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other(format!("more than {MAX_LINKS} symlinks to follow")))
}

/// A new file in `dir` named after `path` and unique to this write (created, never reused: a
/// name another writer took is refused by the system and another drawn). `private`: it will
/// take an existing file's permissions once written, so until then it is its owner's only (a
/// new collection gets the default permissions).
fn temporary(dir: &Path, path: &Path, private: bool) -> std::io::Result<(PathBuf, File)> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut last = None;
    for _ in 0..16 {
        let tmp = dir.join(format!(".{name}.{}-{:016x}.mcplens-tmp", std::process::id(), draw()));
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            if private {
                opts.mode(0o600);
            }
        }
        #[cfg(not(unix))]
        let _ = private;
        match opts.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// A number to tell this write's temporary file from another's: random, else the time.
fn draw() -> u64 {
    let mut buf = [0u8; 8];
    match getrandom::fill(&mut buf) {
        Ok(()) => u64::from_le_bytes(buf),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mcplens-replace-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        d
    }

    #[cfg(unix)]
    fn mode(p: &Path) -> Option<u32> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).ok().map(|m| m.permissions().mode() & 0o777)
    }

    fn read(p: &Path) -> String {
        std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    fn leftovers(d: &Path) -> Vec<String> {
        let names = std::fs::read_dir(d).into_iter().flatten().flatten();
        names.map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.contains("mcplens-tmp")).collect()
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_stays_private_and_a_symlink_stays_a_link() {
        use std::fs::Permissions;
        use std::os::unix::fs::PermissionsExt;
        let d = dir("kept");
        let (file, link) = (d.join("calls.toml"), d.join("link.toml"));
        std::fs::write(&file, "old").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&file, Permissions::from_mode(0o600)).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink("calls.toml", &link).unwrap_or_else(|e| panic!("{e}"));
        replace(&link, "new").unwrap_or_else(|e| panic!("{e}"));
        assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        assert_eq!((read(&file), read(&link)), ("new".into(), "new".into()));
        assert_eq!(mode(&file), Some(0o600));
        replace(&file, "newer").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&file), Some(0o600));
        // A link to a file still to be made makes it, and a loop of links is an error.
        std::os::unix::fs::symlink(d.join("later.toml"), d.join("ahead.toml")).unwrap_or_else(|e| panic!("{e}"));
        replace(&d.join("ahead.toml"), "made").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&d.join("later.toml")), "made");
        std::os::unix::fs::symlink("loop.toml", d.join("loop.toml")).unwrap_or_else(|e| panic!("{e}"));
        assert!(replace(&d.join("loop.toml"), "x").is_err());
        assert_eq!(leftovers(&d), Vec::<String>::new());
    }

    /// Writers at once each use a temporary file of their own: every write lands whole.
    #[test]
    fn writers_at_once_do_not_share_a_temporary_file() {
        let d = dir("race");
        let file = d.join("calls.toml");
        let texts: Vec<String> = (0..8).map(|i| format!("{i}").repeat(200_000)).collect();
        std::thread::scope(|s| {
            for t in &texts {
                let file = &file;
                s.spawn(move || replace(file, t).unwrap_or_else(|e| panic!("{e}")));
            }
        });
        assert!(texts.contains(&read(&file)));
        assert_eq!(leftovers(&d), Vec::<String>::new());
    }
}
