//! The user's defaults: `config.toml` in the config directory (`$MCPLENS_CONFIG_DIR`, else
//! `$XDG_CONFIG_HOME/mcplens`, else `~/.config/mcplens`). A flag wins over its environment
//! variable (`MCPLENS_THEME`, `MCPLENS_TIMEOUT`, `MCPLENS_PROTOCOL`, `MCPLENS_COLLECTION`), which
//! wins over the file, which wins over the built-in default. clap does the first two; the file's
//! values become the arguments' defaults, so every subcommand that has the flag takes them.
//!
//! A file that cannot be read, or a value that makes no sense, is said on stderr and left out:
//! mcplens goes on with the built-in defaults, as a bad keymap or theme does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};

use super::args::{Cli, Command, CommandLine, MIN_TIMEOUT, UiArgs};
use super::command_first::Retry;
use crate::mcp::era::Protocol;

/// The settings file's largest size: it holds four short values.
const MAX_BYTES: u64 = 64 * 1024;

/// The settings a file may hold: clap argument id and value, checked.
#[derive(Debug, Default, PartialEq)]
pub struct Settings {
    pub values: Vec<(&'static str, String)>,
    /// What was wrong with the file, one line each.
    pub problems: Vec<String>,
}

/// Where the settings file is looked for.
pub fn file() -> Option<PathBuf> {
    crate::dirs::config_dir().map(|d| d.join("config.toml"))
}

/// Parses the command line with the settings file's values as defaults.
/// `args` is the process's command line.
pub fn parse(args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let path = file();
    let settings = path.as_deref().map(load).unwrap_or_default();
    for p in &settings.problems {
        super::output::err_line(&format!("mcplens: {p}"));
    }
    let (matches, cli) = match commanded(&settings, &args) {
        Some(parsed) => parsed,
        None => {
            let matches = matches_from(settled(Cli::command(), &settings), args)?;
            let cli = Cli::from_arg_matches(&matches)?;
            (matches, cli)
        }
    };
    let timeout_file = path.filter(|_| settings.values.iter().any(|(id, _)| *id == "timeout"));
    if let Some(from) = timeout_source(&matches, timeout_file.as_deref()) {
        let _ = TIMEOUT_FROM.set(from);
    }
    Ok(cli)
}

/// `args` read as a command (see [`CommandLine`]) when they parse as one that has a target;
/// None for anything else (help, an error, a command line of another shape), which the whole
/// command line's parse then reads, as it always did.
fn commanded(settings: &Settings, args: &[OsString]) -> Option<(clap::ArgMatches, Cli)> {
    let cmd = CommandLine::command();
    // Only a command's name first: a refusal costs its message, built from every command.
    cmd.find_subcommand(args.get(1)?)?;
    let matches = settled(cmd, settings).try_get_matches_from(args).ok()?;
    let command = Command::from_arg_matches(&matches).ok()?;
    // The TUI's arguments go unused with a command: its target stands in for theirs.
    let target = command.target()?.clone();
    Some((matches, Cli { command: Some(command), target, ui: UiArgs::default() }))
}

/// `cmd` with the settings file's defaults. Without a settings file (the common case), every
/// argument of every subcommand is not walked.
fn settled(cmd: clap::Command, settings: &Settings) -> clap::Command {
    if settings.values.is_empty() { cmd } else { with_defaults(cmd, settings) }
}

/// Where the timeout was set when not with `--timeout`. Kept for the process, as the settings
/// are: every session of the command line (the TUI's too) takes its timeout from the same place.
static TIMEOUT_FROM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Where the timeout was set, as said when it passes: `--timeout` (or its default),
/// `MCPLENS_TIMEOUT`, or the settings file.
pub fn timeout_from() -> String {
    TIMEOUT_FROM.get().map_or("--timeout", String::as_str).to_string()
}

/// Where the command's timeout came from, when not from `--timeout` or its built-in default;
/// `settings_file`: the settings file, when it sets one.
fn timeout_source(matches: &clap::ArgMatches, settings_file: Option<&Path>) -> Option<String> {
    let command = matches.subcommand().map_or(matches, |(_, sub)| sub);
    // Asked only of a command that has the argument (clap checks the name).
    if !command.ids().any(|id| id.as_str() == "timeout") {
        return None;
    }
    match command.value_source("timeout")? {
        ValueSource::EnvVariable => Some("MCPLENS_TIMEOUT".into()),
        ValueSource::DefaultValue => settings_file.map(|p| format!("the timeout in {}", p.display())),
        _ => None,
    }
}

/// Parses `args` (the program's name first) with `command` into a command line; target options
/// written before the command are read after it (see `command_first`).
pub fn parse_from(command: clap::Command, args: Vec<OsString>) -> Result<Cli, clap::Error> {
    Cli::from_arg_matches(&matches_from(command, args)?)
}

fn matches_from(mut command: clap::Command, args: Vec<OsString>) -> Result<clap::ArgMatches, clap::Error> {
    Ok(match command.try_get_matches_from_mut(&args) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => return Err(e),
        Err(e) => {
            command.build();
            match super::command_first::retry(&command, &args) {
                None => return Err(e),
                Some(Retry::Args(moved)) => command.try_get_matches_from_mut(moved)?,
                Some(Retry::Refused(why)) => return Err(command.error(ErrorKind::ArgumentConflict, why)),
            }
        }
    })
}

/// `cmd` with each of the settings as the default of its argument, in every subcommand.
pub fn with_defaults(mut cmd: clap::Command, settings: &Settings) -> clap::Command {
    // Subcommands build their arguments when first used (`defer`): build them all, so that
    // each has its arguments to take the defaults.
    cmd.build();
    defaults_into(cmd, settings)
}

fn defaults_into(cmd: clap::Command, settings: &Settings) -> clap::Command {
    let cmd = cmd.mut_args(|arg| match settings.values.iter().find(|(id, _)| *id == arg.get_id().as_str()) {
        Some((_, value)) => arg.default_value(value.clone()),
        None => arg,
    });
    cmd.mut_subcommands(|sub| defaults_into(sub, settings))
}

/// Reads the settings file; a missing file is no settings.
pub fn load(path: &Path) -> Settings {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Settings::default(),
        Err(e) => return refused(path, &e.to_string()),
    };
    // A FIFO or a device would block or never end; the file is the user's, but not that.
    if !meta.is_file() {
        return refused(path, "not a regular file");
    }
    if meta.len() > MAX_BYTES {
        return refused(path, &format!("larger than {} KiB", MAX_BYTES / 1024));
    }
    match std::fs::read_to_string(path) {
        Ok(text) => parse_text(&text, path),
        Err(e) => refused(path, &e.to_string()),
    }
}

fn refused(path: &Path, why: &str) -> Settings {
    Settings { values: Vec::new(), problems: vec![format!("settings {}: {why}; using the defaults", path.display())] }
}

/// The file's text into checked values; each bad or unknown key is a problem of its own.
pub fn parse_text(text: &str, path: &Path) -> Settings {
    let table: toml::Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let first = e.to_string().lines().next().unwrap_or_default().to_string();
            return refused(path, &crate::sanitize::line(&first));
        }
    };
    let mut settings = Settings::default();
    for (key, value) in &table {
        match setting(key, value) {
            Ok((id, v)) => settings.values.push((id, v)),
            Err(why) => settings.problems.push(format!(
                "settings {}: {}: {why}; left out",
                path.display(),
                crate::sanitize::line(key)
            )),
        }
    }
    settings
}

/// One key of the file: its argument id and its value as the command line would spell it.
fn setting(key: &str, value: &toml::Value) -> Result<(&'static str, String), String> {
    match key {
        "theme" => text(value).map(|t| ("theme", t)),
        "collection" => text(value).map(|t| ("collection", t)),
        "protocol" => {
            let p = text(value)?;
            Protocol::parse(&p).ok_or_else(|| format!("expected one of {}", Protocol::NAMES.join(", ")))?;
            Ok(("protocol", p))
        }
        "timeout" => {
            let secs = value.as_float().or_else(|| value.as_integer().map(|i| i as f64));
            match secs {
                Some(s) if s.is_finite() && s >= MIN_TIMEOUT => Ok(("timeout", s.to_string())),
                _ => Err(format!("expected a number of seconds, at least {MIN_TIMEOUT}")),
            }
        }
        _ => Err("not a setting (theme, timeout, protocol, collection)".into()),
    }
}

fn text(value: &toml::Value) -> Result<String, String> {
    value.as_str().filter(|s| !s.is_empty()).map(str::to_string).ok_or_else(|| "expected a non-empty string".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(settings: &Settings, args: &[&str]) -> Cli {
        let m = with_defaults(Cli::command(), settings).try_get_matches_from(args).unwrap();
        Cli::from_arg_matches(&m).unwrap()
    }

    fn file(text: &str) -> Settings {
        parse_text(text, Path::new("config.toml"))
    }

    #[test]
    fn the_files_values_are_defaults_that_flags_override() {
        let s = file("theme = \"light\"\ntimeout = 5\nprotocol = \"2025-11-25\"\ncollection = \"c.toml\"\n");
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        let c = cli(&s, &["mcplens"]);
        assert_eq!(c.ui.theme.as_deref(), Some("light"));
        assert_eq!(c.target.timeout, 5.0);
        assert_eq!(c.ui.collection, Some(PathBuf::from("c.toml")));
        assert!(c.target.protocol.is_some());
        let c = cli(&s, &["mcplens", "--theme", "dark", "--timeout", "9"]);
        assert_eq!(c.ui.theme.as_deref(), Some("dark"));
        assert_eq!(c.target.timeout, 9.0);
    }

    #[test]
    fn subcommands_take_the_defaults_too() {
        let s = file("timeout = 2.5\n");
        let c = cli(&s, &["mcplens", "tools", "--url", "http://127.0.0.1:1/mcp"]);
        let Some(super::super::args::Command::Tools { target, .. }) = c.command else { panic!("not tools") };
        assert_eq!(target.timeout, 2.5);
    }

    #[test]
    fn bad_values_and_unknown_keys_are_said_and_left_out() {
        let s = file("timeout = -1\nprotocol = \"1999\"\nthem = \"x\"\ntheme = \"light\"\n");
        assert_eq!(s.values, vec![("theme", "light".to_string())]);
        assert_eq!(s.problems.len(), 3, "{:?}", s.problems);
        assert!(s.problems.iter().any(|p| p.contains("them:") && p.contains("not a setting")));
        // Under a millisecond, no server could answer.
        let short = file("timeout = 0.0001\n");
        assert!(short.values.is_empty() && short.problems[0].contains("at least 0.001"), "{:?}", short.problems);
        let broken = file("timeout = ");
        assert!(broken.values.is_empty() && broken.problems[0].contains("using the defaults"));
    }

    #[test]
    fn the_timeouts_source_is_named_unless_it_is_the_flag() {
        let s = file("timeout = 2.5\n");
        let cmd = || with_defaults(Cli::command(), &s);
        let m = cmd().try_get_matches_from(["mcplens", "tools"]).unwrap();
        let from = timeout_source(&m, Some(Path::new("/c/config.toml")));
        assert_eq!(from.as_deref(), Some("the timeout in /c/config.toml"));
        let m = cmd().try_get_matches_from(["mcplens", "tools", "--timeout", "3"]).unwrap();
        assert_eq!(timeout_source(&m, Some(Path::new("/c/config.toml"))), None);
        // A command without a timeout, and no settings file.
        let m = cmd().try_get_matches_from(["mcplens", "replay", "r.jsonl"]).unwrap();
        assert_eq!(timeout_source(&m, Some(Path::new("/c/config.toml"))), None);
        let m = Cli::command().try_get_matches_from(["mcplens", "tools"]).unwrap();
        assert_eq!(timeout_source(&m, None), None);
    }

    #[test]
    fn a_fifo_or_directory_is_refused_not_read() {
        let dir = std::env::temp_dir().join(format!("mcplens-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let s = load(&dir);
        assert!(s.problems[0].contains("not a regular file"), "{:?}", s.problems);
        assert_eq!(load(&dir.join("missing.toml")), Settings::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
