//! Target options written before the command (`mcplens --url URL tools`) are read as if written
//! after it, where each command takes them. The TUI's own form, `mcplens [OPTIONS] -- SERVER`,
//! names no command and is parsed as it is. An option only the TUI takes (`--theme`) before a
//! command is a usage error that says so: moved, it would mean something else or nothing.

use std::ffi::OsString;

use clap::{Arg, Args, Command};

use super::args::TargetArgs;

/// What to do with a command line the parser refused.
#[derive(Debug, PartialEq)]
pub enum Retry {
    /// Parse this one instead: the same words, the command first.
    Args(Vec<OsString>),
    /// Why the options cannot go with the command.
    Refused(String),
}

/// For `args` (the program's name first) that `cmd` (built) refused: the command moved before the
/// options that precede it, or why it cannot be; None when no command follows options.
pub fn retry(cmd: &Command, args: &[OsString]) -> Option<Retry> {
    let (at, given) = command_position(cmd, args)?;
    let name = args[at].to_str()?;
    let target: Vec<String> =
        TargetArgs::augment_args(Command::new("target")).get_arguments().map(|a| a.get_id().to_string()).collect();
    if let Some((_, spelled)) = given.iter().find(|(id, _)| !target.contains(id)) {
        return Some(Retry::Refused(format!(
            "{spelled} is an option of the TUI (mcplens [OPTIONS] [-- SERVER]), not of `mcplens {name}`; \
             put the options of a command after it: mcplens {name} [OPTIONS]"
        )));
    }
    let sub = cmd.find_subcommand(name)?;
    if let Some((_, spelled)) = given.iter().find(|(id, _)| sub.get_arguments().all(|a| a.get_id() != id.as_str())) {
        return Some(Retry::Refused(format!("{spelled} is not an option of `mcplens {name}`")));
    }
    let mut moved = vec![args[0].clone(), args[at].clone()];
    moved.extend_from_slice(&args[1..at]);
    moved.extend_from_slice(&args[at + 1..]);
    Some(Retry::Args(moved))
}

/// Where the command is when options precede it, with the id and spelling of each option before
/// it; None when the words before `--` hold no command or cannot be read as options.
fn command_position(cmd: &Command, args: &[OsString]) -> Option<(usize, Vec<(String, String)>)> {
    let mut given = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let word = args[i].to_str()?;
        if word == "--" {
            return None;
        }
        let (arg, value_attached) = if let Some(long) = word.strip_prefix("--") {
            let (name, value) = long.split_once('=').map_or((long, false), |(n, _)| (n, true));
            (cmd.get_arguments().find(|a| a.get_long() == Some(name) || has_alias(a, name))?, value)
        } else if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            let mut chars = shorts.chars();
            let c = chars.next()?;
            let arg = cmd.get_arguments().find(|a| a.get_short() == Some(c))?;
            // A cluster of flags (`-ab`) is not taken apart: no option of mcplens's has one.
            if !arg.get_action().takes_values() && !chars.as_str().is_empty() {
                return None;
            }
            (arg, !chars.as_str().is_empty())
        } else {
            return (i > 1 && cmd.find_subcommand(word).is_some()).then_some((i, given));
        };
        given.push((arg.get_id().to_string(), word.split('=').next().unwrap_or(word).to_string()));
        if arg.get_action().takes_values() && !value_attached {
            i += 1;
        }
        i += 1;
    }
    None
}

fn has_alias(arg: &Arg, name: &str) -> bool {
    arg.get_all_aliases().is_some_and(|all| all.contains(&name))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;
    use crate::cli::Cli;

    fn retry_of(words: &[&str]) -> Option<Retry> {
        let mut cmd = Cli::command();
        cmd.build();
        let args: Vec<OsString> = std::iter::once("mcplens").chain(words.iter().copied()).map(OsString::from).collect();
        retry(&cmd, &args)
    }

    fn moved(words: &[&str]) -> Option<Retry> {
        Some(Retry::Args(std::iter::once("mcplens").chain(words.iter().copied()).map(OsString::from).collect()))
    }

    #[test]
    fn target_options_before_the_command_move_after_it() {
        assert_eq!(retry_of(&["--url", "http://h/mcp", "tools"]), moved(&["tools", "--url", "http://h/mcp"]));
        assert_eq!(
            retry_of(&["--timeout=5", "-eA=1", "-H", "X: y", "call", "echo", "--", "node"]),
            moved(&["call", "--timeout=5", "-eA=1", "-H", "X: y", "echo", "--", "node"])
        );
        // A value that names a command is a value.
        assert_eq!(
            retry_of(&["--config", "c.json", "--server", "tools", "info"]),
            moved(&["info", "--config", "c.json", "--server", "tools"])
        );
    }

    #[test]
    fn the_tuis_own_options_before_a_command_are_refused_with_the_reason() {
        let Some(Retry::Refused(why)) = retry_of(&["--theme", "x", "info"]) else { panic!("not refused") };
        assert!(why.starts_with("--theme is an option of the TUI") && why.contains("mcplens info [OPTIONS]"), "{why}");
        // The TUI's --snapshot is not lint's.
        assert!(matches!(retry_of(&["--snapshot", "s.json", "lint"]), Some(Retry::Refused(_))));
        let no_target = Some(Retry::Refused("--timeout is not an option of `mcplens replay`".into()));
        assert_eq!(retry_of(&["--timeout", "5", "replay", "rec.jsonl"]), no_target);
    }

    #[test]
    fn no_command_before_the_double_dash_is_no_retry() {
        assert_eq!(retry_of(&["--url", "http://h/mcp", "--", "tools"]), None);
        assert_eq!(retry_of(&["--bogus", "tools"]), None);
        assert_eq!(retry_of(&["--url", "http://h/mcp", "nothing"]), None);
        assert_eq!(retry_of(&["tools", "--url"]), None);
    }
}
