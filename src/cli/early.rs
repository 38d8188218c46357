//! The server of a command line read before the command line's parse: for the few shapes whose
//! server is certain from the words alone (`mcplens tools --json -- node server.js`), it can be
//! started first thing, while the definition of the commands is built and the line is parsed
//! (a few tenths of a millisecond, the whole of which the server's start then overlaps).
//!
//! Certain means: a command that connects first (the listings, `info`, `ping`, `call`), only
//! options that say nothing of the server (`--json`, a call's arguments...), the server's
//! command after `--`, no settings file (its values may give the server an environment or a
//! directory) and no `MCPLENS_*` variable the parse reads as an option's value (one that does
//! not parse must stop the command before any server starts). Anything else is left to the
//! parse: [`super::early_server`] then starts the server once the line is parsed. The session
//! takes a server started for its very target only (`mcp::stdio::take_early`).

use std::ffi::OsString;

use crate::mcp::StdioTarget;

/// The options each command may have before `--` for its server to be certain: flags, and
/// options that take a value (as the next word or after `=`), and how many positionals.
struct Shape {
    flags: &'static [&'static str],
    valued: &'static [&'static str],
    positionals: usize,
}

const LISTING: Shape = Shape { flags: &["--json"], valued: &[], positionals: 0 };

fn shape(command: &str) -> Option<Shape> {
    Some(match command {
        "tools" | "info" | "resources" | "templates" | "prompts" => LISTING,
        "ping" => Shape { flags: &[], valued: &["--count"], positionals: 0 },
        "call" => Shape {
            flags: &["--json", "--raw", "--all-pages", "--no-validate"],
            valued: &["--arg", "--args"],
            positionals: 1,
        },
        _ => return None,
    })
}

/// The environment variables the parse reads as options' values.
const READ_AS_OPTIONS: &[&str] = &["MCPLENS_TIMEOUT", "MCPLENS_PROTOCOL"];

/// The server `args` (the whole command line, the program's name first) certainly starts, if
/// it is one of the shapes above and no settings file or variable may change it.
pub fn server(args: &[OsString]) -> Option<StdioTarget> {
    if READ_AS_OPTIONS.iter().any(|k| std::env::var_os(k).is_some()) {
        return None;
    }
    let target = server_of(args)?;
    super::settings::file().is_none_or(|f| !f.exists()).then_some(target)
}

/// [`server`] as the words alone say it.
fn server_of(args: &[OsString]) -> Option<StdioTarget> {
    let words: Vec<&str> = args.iter().skip(1).map(|a| a.to_str()).collect::<Option<_>>()?;
    let (command, rest) = words.split_first()?;
    let shape = shape(command)?;
    let end = rest.iter().position(|w| *w == "--")?;
    let (options, server) = (&rest[..end], &rest[end + 1..]);
    if !options_fit(options, &shape) {
        return None;
    }
    let (program, server_args) = server.split_first()?;
    Some(StdioTarget {
        command: program.to_string(),
        args: server_args.iter().map(|a| a.to_string()).collect(),
        env: vec![],
        cwd: None,
    })
}

/// Whether `options` are all of `shape`'s, each flag once, each value plain (not taken for an
/// option, and a `--count` a positive number).
fn options_fit(options: &[&str], shape: &Shape) -> bool {
    let (mut positionals, mut seen) = (0, Vec::new());
    let mut words = options.iter();
    while let Some(&word) = words.next() {
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (word, None),
        };
        if shape.flags.contains(&name) && inline.is_none() {
            if seen.contains(&name) {
                return false;
            }
            seen.push(name);
        } else if shape.valued.contains(&name) {
            let Some(value) = inline.or_else(|| words.next().copied()) else { return false };
            if value.starts_with('-') || (name == "--count" && !value.parse::<u32>().is_ok_and(|n| n >= 1)) {
                return false;
            }
            // Only the repeatable one may come twice.
            if name != "--arg" && seen.contains(&name) {
                return false;
            }
            seen.push(name);
        } else if !word.starts_with('-') && !word.is_empty() && positionals < shape.positionals {
            positionals += 1;
        } else {
            return false;
        }
    }
    positionals == shape.positionals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        std::iter::once("mcplens").chain(line.split(' ')).map(OsString::from).collect()
    }

    /// Whenever the words alone name a server, the parse reads the same line as a command whose
    /// server is that one: the early start then never starts a server the command would not.
    #[test]
    fn the_server_the_words_name_is_the_one_the_parse_starts() {
        let lines = [
            "tools -- node server.js",
            "tools --json -- node server.js --flag x",
            "info --json -- python -m srv",
            "resources -- srv",
            "templates --json -- srv",
            "prompts -- srv",
            "ping -- srv",
            "ping --count 3 -- srv",
            "ping --count=2 -- srv",
            "call echo -- srv",
            "call echo --json --arg mb=1 -- srv a b",
            "call --json echo --arg=a=1 --arg b=2 --args {} -- srv",
            "call echo --raw --no-validate -- srv",
            "call echo --all-pages --json -- srv",
        ];
        for line in lines {
            let args = words(line);
            let early = server_of(&args).unwrap_or_else(|| panic!("no server read from {line}"));
            let cli =
                crate::cli::settings::parse_from(<crate::cli::Cli as clap::CommandFactory>::command(), args.clone())
                    .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(crate::cli::early_server(&cli), Some(early), "{line}");
        }
    }

    /// Anything the words alone cannot settle is left to the parse.
    #[test]
    fn lines_of_any_other_shape_are_left_to_the_parse() {
        let lines = [
            "tools --json",
            "tools --json --",
            "tools -e K=V -- srv",
            "tools --cwd /tmp -- srv",
            "tools --config c.json -- srv",
            "tools --url http://x -- srv",
            "tools --timeout 5 -- srv",
            "tools --json --json -- srv",
            "tools -h -- srv",
            "tools extra -- srv",
            "snapshot -- srv",
            "call -- srv",
            "call a b -- srv",
            "call echo --arg -- srv",
            "call echo --arg --json -- srv",
            "call echo --args {} --args {} -- srv",
            "call echo --print-message -- srv",
            "call echo --elicitation decline -- srv",
            "ping --count 0 -- srv",
            "ping --count x -- srv",
            "lint -- srv",
            "-- srv",
        ];
        for line in lines {
            assert_eq!(server_of(&words(line)), None, "{line}");
        }
    }
}
