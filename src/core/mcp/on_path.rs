//! Whether the commands of many stdio targets can start, found at a cost that grows with the
//! number of entries, not with entries times `PATH` directories: the connect picker checks every
//! server of a config file (100,000 entries took 18 s as one `stat` per entry per directory).
//! Each command is looked up once, and each `PATH` directory's names are read once.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::PathBuf;

use super::target::StdioTarget;
use crate::error::Result;

/// The most names read from one `PATH` directory; a larger one is asked name by name instead.
const MAX_LISTED: usize = 100_000;

/// One `PATH` directory, its names read on first use (`None`: unreadable or too large, so each
/// name is looked for with a `stat`).
struct Dir {
    path: PathBuf,
    names: Option<Option<HashSet<OsString>>>,
}

impl Dir {
    fn may_hold(&mut self, name: &str) -> bool {
        let names = self.names.get_or_insert_with(|| list(&self.path));
        names.as_ref().is_none_or(|n| n.contains(std::ffi::OsStr::new(name)))
    }
}

fn list(dir: &std::path::Path) -> Option<HashSet<OsString>> {
    let mut names = HashSet::new();
    for e in std::fs::read_dir(dir).ok()? {
        names.insert(e.ok()?.file_name());
        if names.len() > MAX_LISTED {
            return None;
        }
    }
    Some(names)
}

/// Checks targets' commands as [`super::stdio::check_command`] does, remembering what it found.
pub struct Finder {
    dirs: Vec<Dir>,
    found: HashMap<String, bool>,
    /// Files asked about, for the tests: one per command found in a listing, not per entry.
    asked: usize,
}

impl Default for Finder {
    fn default() -> Self {
        let paths = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::env::split_paths(&paths).map(|path| Dir { path, names: None }).collect();
        Finder { dirs, found: HashMap::new(), asked: 0 }
    }
}

impl Finder {
    /// `Ok` when `target` can be started (see [`super::stdio::check_command`]).
    pub fn check(&mut self, target: &StdioTarget) -> Result<()> {
        if target.command.contains('/') {
            return super::stdio::check_command(target);
        }
        super::stdio::check_launch(target)?;
        if self.on_path(&target.command) { Ok(()) } else { Err(super::stdio::not_found(target)) }
    }

    fn on_path(&mut self, command: &str) -> bool {
        if let Some(&known) = self.found.get(command) {
            return known;
        }
        let asked = &mut self.asked;
        let found = self.dirs.iter_mut().any(|d| {
            d.may_hold(command) && {
                *asked += 1;
                d.path.join(command).is_file()
            }
        });
        self.found.insert(command.to_string(), found);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(command: &str) -> StdioTarget {
        StdioTarget { command: command.into(), args: vec![], env: vec![], cwd: None }
    }

    #[test]
    fn it_agrees_with_the_check_one_at_a_time() {
        let mut finder = Finder::default();
        for c in ["sh", "ls", "surely-not-a-command-mcplens", "./nowhere", "/bin/sh", "a\0b", ""] {
            let one = super::super::stdio::check_command(&target(c)).map_err(|e| e.message);
            assert_eq!(finder.check(&target(c)).map_err(|e| e.message), one, "{c:?}");
            assert_eq!(finder.check(&target(c)).map_err(|e| e.message), one, "{c:?} again");
        }
    }

    /// 100,000 entries, of one command or each of its own: a file is asked about once per
    /// command a directory lists, never once per entry and directory.
    #[test]
    fn many_entries_ask_about_each_command_once() {
        let mut finder = Finder::default();
        for _ in 0..100_000 {
            assert!(finder.check(&target("sh")).is_ok());
        }
        assert!(finder.asked <= finder.dirs.len(), "{}", finder.asked);
        let before = finder.asked;
        for i in 0..100_000 {
            assert!(finder.check(&target(&format!("mcplens-surely-absent-{i}"))).is_err());
        }
        let unlisted = finder.dirs.iter().filter(|d| matches!(d.names, Some(None))).count();
        assert!(finder.asked - before <= 100_000 * unlisted, "{}", finder.asked);
    }
}
