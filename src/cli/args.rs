//! Command-line arguments, and turning them into a `Target`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::{LensError, Result};
use crate::mcp::asks::Root;
use crate::mcp::auth::{AuthOptions, OAuthConfig};
use crate::mcp::era::Protocol;
use crate::mcp::log::Level;
use crate::mcp::target::header_value_problem;
use crate::mcp::{ConnectOptions, HttpTarget, StdioTarget, Target, config};

pub const EXIT_CODES: &str = "\
Exit codes:
    0  done
    1  the tool reported an error (isError), or the server answered the request with a JSON-RPC
       error (call, read, prompt, complete)
    2  bad usage, arguments or config (including a server command that cannot be found)
    3  the connection or protocol failed (server did not start, died, timed out, broke the protocol)
    4  output was lost: stdout or stderr could not be written (disk full, I/O error)
  141  stdout or stderr was closed by its reader (e.g. `| head`): stopped quietly, as after SIGPIPE
       (4 and 141 replace 0 and 1; 2 and 3 keep their codes)

Targets (for the TUI and every command):
  mcplens [OPTIONS] -- <command> [args...]      a server started as a child process (stdio)
  mcplens --url http://127.0.0.1:3000/mcp       a streamable HTTP server
  mcplens --config .mcp.json [--server NAME]    an entry of an mcpServers / VS Code servers file
  mcplens                                       the embedded demo server";

pub const SKILLS_EXIT_CODES: &str = "\
Exit codes:
    0  done
    1  the server answered the read with a JSON-RPC error
    2  bad usage, or no such skill
    3  the connection or protocol failed
    6  the skill file failed verification (size, sha256 digest, frontmatter, or not in the skill's
       entry) or the entry is invalid: its content was not used

A listing reads nothing but skills/list; files are read only by `read`.
";

pub const DIFF_EXIT_CODES: &str = "\
Exit codes:
    0  no breaking change (there may be compatible ones)
    5  at least one breaking change
    2  bad usage, or a file that is not an mcplens snapshot
    3  the connection to the live target failed
    4  output was lost; 141 stdout was closed by its reader";

pub const LINT_EXIT_CODES: &str = "\
Exit codes:
    0  no finding above info
    7  at least one warning (no error)
    8  at least one error
    2  bad usage, or a file that is not a snapshot or a recording
    3  the connection to the live target failed
    4  output was lost; 141 stdout was closed by its reader";

pub const REPLAY_EXIT_CODES: &str = "\
Exit codes:
    0  the client closed stdin (stdio), or Ctrl-C (HTTP)
    2  bad usage, or a file that is not a recording (not JSON Lines, too large, nested too deep)
    4  output was lost; 141 stdout was closed by its reader";

pub const TEST_EXIT_CODES: &str = "\
Exit codes:
    0  every call met its expectations
    6  at least one call missed one (or got no answer: a connection lost mid-run fails that call)
    2  bad usage, or a collection file that cannot be read (its line is named)
    3  the target could not be reached at the start
    4  output was lost; 141 stdout was closed by its reader";

#[derive(Parser, Debug)]
#[command(
    name = "mcplens",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("MCPLENS_COMMIT"), ")"),
    about = "A terminal explorer for MCP servers: tools with their full schemas, forms, normalized results, paging.",
    after_help = EXIT_CODES,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub ui: UiArgs,
}

/// The command line when its first word is a command, as most are: the commands alone, without
/// the TUI's own arguments (which no command takes: `args_conflicts_with_subcommands`), whose
/// building cost a small command a fifth of its start. Help, version, errors and command lines
/// of any other shape are parsed by [`Cli`] (see `settings::parse`).
#[derive(Parser, Debug)]
#[command(name = "mcplens", subcommand_required = true)]
pub struct CommandLine {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Args, Debug, Clone, Default)]
pub struct UiArgs {
    /// Theme: a built-in name (dark, light, high-contrast) or a path to a theme TOML file.
    #[arg(long, value_name = "NAME|PATH", env = "MCPLENS_THEME")]
    pub theme: Option<String>,
    /// A keymap TOML file laid over the built-in keymap (default: the config directory's
    /// mcplens/keymap.toml, if it exists).
    #[arg(long, value_name = "FILE")]
    pub keymap: Option<std::path::PathBuf>,
    /// A snapshot (`mcplens snapshot -o`) to mark the tools that changed since (default:
    /// mcp-snapshot.json in the server's --cwd, beside the --config file, or here, if there).
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<std::path::PathBuf>,
    /// The collection of saved calls (TOML, `mcplens test FILE`) that S saves into and the
    /// collection pane (K) runs (default: mcplens-calls.toml here).
    #[arg(long, value_name = "FILE", env = "MCPLENS_COLLECTION")]
    pub collection: Option<std::path::PathBuf>,
}

/// Each subcommand's arguments are built only when it is the one run (or help is shown): most
/// share the target and OAuth arguments, and building all of them cost every command, however
/// small its answer, several times parsing its own.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum Command {
    /// List every tool (all pages) with its input and output schemas.
    #[command(after_help = EXIT_CODES)]
    Tools {
        /// Print the tool descriptors as a JSON array, exactly as the server sent them.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// The server as it introduced itself: name, version, protocol, capabilities, instructions.
    #[command(after_help = EXIT_CODES)]
    Info {
        /// Print the initialize result exactly as the server sent it.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// A task of the server's (a tool run with `call --task`): its status, result, or cancel; or
    /// every task the server lists. Tasks live in the session that made them: over HTTP a
    /// server may keep them across connections, a stdio server's end with its process.
    #[command(after_help = EXIT_CODES)]
    Task(TaskArgs),
    /// Call one tool and print its result.
    #[command(after_help = EXIT_CODES)]
    Call(CallArgs),
    /// List every resource (all pages): URI, name, MIME type, size, description.
    #[command(after_help = EXIT_CODES)]
    Resources {
        /// Print the resource descriptors as a JSON array, exactly as the server sent them.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// List every resource template (all pages) with its variables.
    #[command(after_help = EXIT_CODES)]
    Templates {
        /// Print the template descriptors as a JSON array, exactly as the server sent them.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Read a resource: text with its MIME type, a blob's size and type (its bytes with -o).
    #[command(after_help = EXIT_CODES)]
    Read(ReadArgs),
    /// List every prompt (all pages) with its arguments.
    #[command(after_help = EXIT_CODES)]
    Prompts {
        /// Print the prompt descriptors as a JSON array, exactly as the server sent them.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Get a prompt with its arguments and print the messages it returns, by role.
    #[command(after_help = EXIT_CODES)]
    Prompt(PromptArgs),
    /// Ask the server for completions of a prompt argument or a resource template variable.
    #[command(after_help = EXIT_CODES)]
    Complete(CompleteArgs),
    /// The skills the server serves (SEP-2640) with their frontmatter and files; `read NAME`
    /// reads one skill's SKILL.md (or --file) and verifies it against its entry.
    #[command(after_help = SKILLS_EXIT_CODES)]
    Skills(SkillsArgs),
    /// Ping the server and print the round-trip time.
    #[command(after_help = EXIT_CODES)]
    Ping {
        /// How many pings, one after the other (at least 1).
        #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        count: u32,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Log in to an HTTP server that asks for OAuth, see the stored login, or remove it.
    /// Tokens are kept per server URL in the state directory (mode 0600), never printed.
    #[command(after_help = EXIT_CODES)]
    Auth {
        #[arg(value_enum)]
        action: AuthAction,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Write what the server offers as one JSON document: its initialize (or discover) result,
    /// tools, resources, resource templates and prompts, each as sent, sorted by name or URI.
    #[command(after_help = EXIT_CODES)]
    Snapshot {
        /// Write the snapshot to FILE instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Compare two snapshots (files written by `mcplens snapshot`), or a snapshot file with the
    /// live target when NEW is left out: tools, resources, templates and prompts added, removed
    /// and changed, each change breaking or compatible for callers: an input schema breaks them
    /// when it refuses more, an output schema when it may return more or drops a property. Exit 0
    /// when nothing breaks, 5 when something does.
    #[command(after_help = DIFF_EXIT_CODES)]
    Diff {
        /// The old snapshot file.
        old: PathBuf,
        /// The new snapshot file; without it, the target (`-- <server>`, --url, --config) now.
        new: Option<PathBuf>,
        /// Print the changes as one JSON object: {"breaking", "compatible", "changes": [{"path",
        /// "impact", "change"}]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Run the server (`-- <command>`) behind a stdio proxy that passes every line both ways as
    /// it is and appends each message, with its time and direction, to FILE (JSON Lines, as the
    /// TUI's log export; secrets given with -e masked). Any client can be recorded:
    /// `mcplens tools -- mcplens record -o rec.jsonl -- node server.js`.
    #[command(after_help = EXIT_CODES)]
    Record {
        /// The recording to write (replaced if it exists).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Put in a host's config in place of a server: the host's session passes through byte for
    /// byte (stdio with `-- <command>`, or streamable HTTP served on a loopback port with --url),
    /// optionally recorded, and is served live to `mcplens watch`. See docs/proxy.md.
    #[cfg(unix)]
    #[command(after_help = EXIT_CODES)]
    Proxy {
        /// Also record the session to FILE (as `mcplens record` does).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// With --url: the address to serve the host at (default 127.0.0.1:0, any free port;
        /// the URL is printed on stderr).
        #[arg(long, value_name = "ADDR:PORT")]
        listen: Option<String>,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// List the running proxies (`mcplens proxy`), or attach to one: its session from the start,
    /// then live, as JSON Lines on stdout (the log export's format). With --break, matching
    /// messages are held and released by commands on stdin (send, drop, edit JSON, error, delay),
    /// or with --tui in the TUI, where `b` sets more breakpoints and `B` lists them.
    #[cfg(unix)]
    Watch {
        /// The proxy's pid, as listed; without it, the list.
        pid: Option<u32>,
        /// Hold messages of this method or tool (`tools/call`, `echo`); `>NAME` only those to the
        /// server, `<NAME` only those to the host. Repeatable.
        #[arg(long = "break", value_name = "METHOD|TOOL", requires = "pid", value_parser = break_spec)]
        breaks: Vec<String>,
        /// Show the session in the TUI's log pane (pairing, timing, filters, whole entries,
        /// export) instead of printing it.
        #[arg(long, requires = "pid")]
        tui: bool,
    },
    /// Serve a recording (`mcplens record`, or a log exported from the TUI) as an MCP server:
    /// each request answered with the recorded reply to the same method and params.
    #[command(after_help = REPLAY_EXIT_CODES)]
    Replay {
        /// The recording (JSON Lines).
        file: PathBuf,
        /// Serve streamable HTTP at this address (port 0: any free port; the URL is printed on
        /// stderr) instead of stdio.
        #[arg(long, value_name = "ADDR:PORT")]
        http: Option<String>,
        /// Deepest JSON nesting accepted in the recording and in requests.
        #[arg(long, default_value_t = crate::json_depth::DEFAULT_MAX_DEPTH, value_name = "LEVELS")]
        max_depth: usize,
    },
    /// Run the saved calls of a collection file (TOML) against the target and check each answer
    /// against its expectations: one line per call, failures under it, a summary. Exit 0 when
    /// every call passed, 6 when one failed.
    #[command(after_help = TEST_EXIT_CODES)]
    Test(TestArgs),
    /// Take the connection step by step and say which step fails and what to do about it: the
    /// command or the HTTP transport (status, content type, redirects, TLS), the protocol
    /// version each era negotiates, the login's documents, the first listing. Exit 0 when no
    /// step fails, 3 when one does.
    #[command(after_help = EXIT_CODES)]
    Doctor {
        /// Print the steps as one JSON object: {"target", "ok", "first_failure", "steps": [{"id",
        /// "title", "verdict", "detail", "sent", "received", "fix"}]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Check what the server lists against the specification's rules and the hosts' documented
    /// limits (tool names, schemas, annotations, MCP Apps): each finding with its severity, its
    /// rule and the rule's source. Live, or offline from a snapshot file or a recording (which
    /// adds results against outputSchema, errors, repeated cursors, notifications). Exit 0 with
    /// no error or warning, 7 with warnings, 8 with an error.
    #[command(after_help = LINT_EXIT_CODES)]
    Lint {
        /// Print the findings as one JSON object: {"tools", "findings": [{"rule", "severity",
        /// "tool", "at", "message", "source"}]}.
        #[arg(long)]
        json: bool,
        /// Lint a snapshot file (`mcplens snapshot -o`) instead of a live server.
        #[arg(long, value_name = "FILE", conflicts_with = "recording")]
        snapshot: Option<PathBuf>,
        /// Lint a recording (`mcplens record`, or a log exported from the TUI): its last tool
        /// listing and what the session shows.
        #[arg(long, value_name = "FILE")]
        recording: Option<PathBuf>,
        /// Check a server.json (the MCP Registry's format) against the registry's schema and,
        /// when a target is given, against the version the server reports.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["snapshot", "recording"])]
        server_json: Option<PathBuf>,
        /// Check a Server Card (a file, or an http(s) URL fetched as
        /// application/mcp-server-card+json; servers may host it at <mcp-url>/server-card)
        /// against its schema and, when a target is given, against what the server reports.
        #[arg(long, value_name = "URL|FILE", conflicts_with_all = ["snapshot", "recording", "server_json"])]
        card: Option<String>,
        /// Print every rule with its severity and source, and exit.
        #[arg(long)]
        rules: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Open an MCP App (a tool with a `ui://` view, SEP-1865) in the browser: a local host page
    /// on a loopback port runs the view in a sandboxed iframe (a sandbox proxy on a second port,
    /// under the view's Content-Security-Policy), answers its `ui/*` requests and passes its
    /// tools/call and resources/read to the live session. Runs until Ctrl-C. See docs/apps.md.
    #[command(after_help = EXIT_CODES)]
    App(AppArgs),
    /// Print a JSON Schema mcplens defines (e.g. `envelope`).
    Schema {
        #[arg(value_enum)]
        which: SchemaName,
    },
    /// Serve the embedded demo MCP server over stdio.
    DemoServer,
    /// Print a shell's completion script: `source <(mcplens completions bash)`, or into the
    /// shell's completion directory (zsh: a `_mcplens` file on $fpath).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (`mcplens man | man -l -`), or write one page per command into DIR.
    Man {
        /// Write mcplens.1, mcplens-tools.1, ... into this directory instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthAction {
    /// Log in now (a new login, even with a stored token) and store the token.
    Login,
    /// Whether a token is stored for the server, its scopes and expiry (never the token).
    Status,
    /// Remove the stored token.
    Logout,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum SchemaName {
    Envelope,
}

#[derive(Args, Debug)]
pub struct CallArgs {
    /// The tool's name.
    pub tool: String,
    /// All arguments as one JSON object.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// One argument, typed by the tool's input schema (integer, number, boolean; JSON for objects
    /// and arrays). Repeatable; wins over the same key in --args.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// Print the normalized envelope as JSON.
    #[arg(long, conflicts_with = "raw")]
    pub json: bool,
    /// Print the result exactly as the server sent it.
    #[arg(long, conflicts_with = "all_pages")]
    pub raw: bool,
    /// Follow every page of a paged result and print one envelope holding every item.
    #[arg(long)]
    pub all_pages: bool,
    /// With --all-pages: stop after this many pages.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub max_pages: usize,
    /// Send the arguments even if they break the input schema (to test the server's own checks).
    #[arg(long)]
    pub no_validate: bool,
    /// Run the tool as a task: poll its status (on stderr) and print its result when it ends.
    /// A tool whose `execution.taskSupport` is "required" runs as a task without it.
    #[arg(long)]
    pub task: bool,
    /// Run the tool as a task (--task is implied), print the task's id and status as soon as it
    /// is created, and exit.
    #[arg(long)]
    pub no_wait: bool,
    /// Print the call as a `mcplens call` command line instead of running it: the target with
    /// every connection and login flag given, the arguments, the protocol the server spoke.
    #[arg(long, group = "print")]
    pub print_command: bool,
    /// Print the call as a curl request to paste (HTTP servers) instead of running it: one
    /// request in the 2026-07-28 era, the initialize handshake first before it.
    #[arg(long, group = "print")]
    pub print_curl: bool,
    /// Print the call's JSON-RPC request instead of running it.
    #[arg(long, group = "print")]
    pub print_message: bool,
    /// With --print-*: show the target's secrets (env and header values, the URL's credentials,
    /// a client secret) instead of masking them.
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub answers: AnswerArgs,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// What a call is printed as (`--print-command`, `--print-curl`, `--print-message`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Command,
    Curl,
    Message,
}

impl CallArgs {
    /// Which --print-* form was asked for.
    pub fn print_form(&self) -> Option<Form> {
        [(self.print_command, Form::Command), (self.print_curl, Form::Curl), (self.print_message, Form::Message)]
            .into_iter()
            .find_map(|(asked, form)| asked.then_some(form))
    }
}

impl Command {
    /// The server a command talks to (None for `schema` and `demo-server`).
    pub fn target(&self) -> Option<&TargetArgs> {
        match self {
            Command::Tools { target, .. }
            | Command::Info { target, .. }
            | Command::Resources { target, .. }
            | Command::Templates { target, .. }
            | Command::Prompts { target, .. }
            | Command::Ping { target, .. }
            | Command::Snapshot { target, .. }
            | Command::Diff { target, .. }
            | Command::Record { target, .. }
            | Command::Auth { target, .. }
            | Command::Doctor { target, .. }
            | Command::Lint { target, .. } => Some(target),
            #[cfg(unix)]
            Command::Proxy { target, .. } => Some(target),
            Command::Task(a) => Some(&a.target),
            Command::Call(a) => Some(&a.target),
            Command::Test(a) => Some(&a.target),
            Command::Read(a) => Some(&a.target),
            Command::Skills(a) => Some(&a.target),
            Command::App(a) => Some(&a.target),
            Command::Prompt(a) => Some(&a.target),
            Command::Complete(a) => Some(&a.target),
            _ => None,
        }
    }
}

#[derive(Args, Debug)]
pub struct TestArgs {
    /// The collection file: `[[call]]` tables with name, tool, arguments and `[call.expect]`.
    pub file: PathBuf,
    /// Run only the call of this name. Repeatable.
    #[arg(long, value_name = "NAME")]
    pub only: Vec<String>,
    /// How results are printed on stdout: text, or tap (TAP version 13).
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    pub format: TestFormat,
    /// Also write the results as JUnit XML to FILE (for GitHub Actions, GitLab, Jenkins).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Rewrite each call's expectations to what the server answers now (status, response type,
    /// the values at the listed paths), keep the rest of the file, and say what changed.
    #[arg(long)]
    pub update: bool,
    /// For calls with all_pages: stop after this many pages.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub max_pages: usize,
    #[command(flatten)]
    pub answers: AnswerArgs,
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestFormat {
    Text,
    Tap,
}

#[derive(Args, Debug)]
pub struct TaskArgs {
    #[arg(value_enum)]
    pub action: TaskAction,
    /// The task's id (not for `list`).
    #[arg(required_if_eq_any = [("action", "get"), ("action", "result"), ("action", "cancel")])]
    pub id: Option<String>,
    /// Print the server's reply as JSON, exactly as sent.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub answers: AnswerArgs,
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(Args, Debug)]
pub struct ReadArgs {
    /// The resource's URI; with --arg, a URI template (RFC 6570) filled with those values.
    pub uri: String,
    /// A template variable's value (KEY=VALUE). Repeatable.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// Print the result exactly as the server sent it.
    #[arg(long, conflicts_with = "raw")]
    pub json: bool,
    /// Print the text as it is, without a header (a blob's bytes only to a file or a pipe).
    #[arg(long)]
    pub raw: bool,
    /// Write the content to FILE (a blob as its decoded bytes, text as UTF-8); `-` is stdout
    /// when it is not a terminal.
    #[arg(short = 'o', long = "output", value_name = "FILE", conflicts_with = "json")]
    pub output: Option<PathBuf>,
    /// Which of several contents -o writes (from 0).
    #[arg(long, value_name = "N")]
    pub index: Option<usize>,
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskAction {
    Get,
    Result,
    Cancel,
    List,
}

// How `call` answers what the server asks during the call. (A plain comment: a doc comment here
// would be the `about` of each subcommand that flattens these arguments, since subcommands build
// their arguments after their own `about`, see `Command`.)
#[derive(Args, Debug, Clone, Default)]
pub struct AnswerArgs {
    /// Answer the server's elicitation requests: accept (with the schema's defaults), decline,
    /// cancel, or ask on the terminal (the default; without a terminal it declines).
    #[arg(long, value_enum, value_name = "HOW")]
    pub elicitation: Option<Elicitation>,
    /// Accept elicitation requests with this JSON object (the schema's defaults fill the rest).
    #[arg(long, value_name = "JSON")]
    pub elicitation_answer: Option<String>,
    /// Answer sampling/createMessage requests with this text as the model's reply, or `decline`.
    /// Without it the request is shown and the reply asked for on the terminal.
    #[arg(long, value_name = "TEXT|decline")]
    pub sampling_answer: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elicitation {
    Accept,
    Decline,
    Cancel,
    Ask,
}

#[derive(Args, Debug)]
pub struct PromptArgs {
    /// The prompt's name.
    pub name: String,
    /// One argument (a string, as MCP prompts take). Repeatable.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// All arguments as one JSON object (--arg wins over the same key).
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// Print the result exactly as the server sent it.
    #[arg(long)]
    pub json: bool,
    /// Send the request even if the prompt is not listed or a required argument is missing.
    #[arg(long)]
    pub no_validate: bool,
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(Args, Debug)]
#[group(id = "reference", required = true, multiple = false, args = ["prompt", "template"])]
pub struct CompleteArgs {
    /// Complete an argument of this prompt.
    #[arg(long, value_name = "NAME")]
    pub prompt: Option<String>,
    /// Complete a variable of this resource template (its uriTemplate).
    #[arg(long, value_name = "URI_TEMPLATE")]
    pub template: Option<String>,
    /// The argument or variable to complete and what is typed so far (may be empty: `name=`).
    #[arg(long = "arg", value_name = "NAME=PARTIAL")]
    pub arg: String,
    /// A value already chosen for another argument. Repeatable.
    #[arg(long = "context", value_name = "KEY=VALUE")]
    pub context: Vec<String>,
    /// Print the result exactly as the server sent it.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(Args, Debug)]
pub struct SkillsArgs {
    /// `read`, to read a skill's file (nothing is read without it).
    #[arg(value_name = "ACTION", value_parser = ["read"])]
    pub action: Option<String>,
    /// The skill to read: its name, its path, or the URI of its SKILL.md.
    #[arg(value_name = "NAME", requires = "action")]
    pub name: Option<String>,
    /// With read: a supporting file of the skill (a path under its root, e.g. references/FORMS.md)
    /// instead of its SKILL.md. It must be listed in the skill's entry.
    #[arg(long, value_name = "PATH", requires = "name")]
    pub file: Option<String>,
    /// The entries as sent (listing), or the verified file as JSON (read).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub target: TargetArgs,
}

impl SkillsArgs {
    /// The skill `read` names, if reading.
    pub fn read_name(&self) -> crate::error::Result<Option<&str>> {
        match (&self.action, &self.name) {
            (None, _) => Ok(None),
            (Some(_), Some(n)) => Ok(Some(n)),
            (Some(_), None) => Err(crate::error::LensError::usage("read needs a skill: mcplens skills read NAME")),
        }
    }
}

/// `--timeout`'s default, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 60.0;
/// The shortest timeout taken, in seconds: no server answers sooner.
pub const MIN_TIMEOUT: f64 = 0.001;
/// `--max-message-mb`'s default.
pub const DEFAULT_MAX_MESSAGE_MB: usize = 512;

#[derive(Args, Debug, Clone)]
pub struct TargetArgs {
    /// A streamable HTTP endpoint.
    #[arg(long, value_name = "URL", conflicts_with = "config")]
    pub url: Option<String>,
    /// An HTTP header for --url (or a config's HTTP server). Repeatable.
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// An mcpServers config file (Claude Desktop, Cursor, .mcp.json) or VS Code's servers file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Which server of the --config file (optional when it has only one).
    #[arg(long, value_name = "NAME", requires = "config")]
    pub server: Option<String>,
    /// An environment variable for the server process. Repeatable.
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// Working directory for the server process.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Seconds to wait for the handshake and for each request; progress notifications reset it.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_name = "SECS", env = "MCPLENS_TIMEOUT")]
    pub timeout: f64,
    /// Largest single message accepted from the server, in MiB.
    #[arg(long, default_value_t = DEFAULT_MAX_MESSAGE_MB, value_name = "MIB")]
    pub max_message_mb: usize,
    /// Deepest JSON nesting accepted in a server's message.
    #[arg(long, default_value_t = crate::json_depth::DEFAULT_MAX_DEPTH, value_name = "LEVELS")]
    pub max_depth: usize,
    /// A directory offered to the server as a root (`roots/list`). Repeatable; adds to the
    /// config entry's "roots".
    #[arg(long = "root", value_name = "PATH")]
    pub roots: Vec<PathBuf>,
    /// Ask the server for its log messages at LEVEL and above (logging/setLevel on connect):
    /// debug, info, notice, warning, error, critical, alert, emergency. Headless commands print
    /// them on stderr.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub log_level: Option<Level>,
    /// Print each HTTP exchange on stderr: method, URL, what it was for, the headers sent
    /// (credentials masked), the status, the response headers and the time (docs/headless.md).
    #[arg(long)]
    pub show_http: bool,
    /// The protocol to speak: auto (server/discover, falling back to initialize with
    /// 2025-11-25 when the server does not know it), 2026-07-28 (the modern era only), or a
    /// legacy version offered in initialize: 2025-11-25, 2025-06-18, 2025-03-26. Default: the
    /// config entry's "protocol", else auto.
    #[arg(long, value_name = "VERSION", value_parser = ProtocolParser, hide_possible_values = true, env = "MCPLENS_PROTOCOL")]
    pub protocol: Option<Protocol>,
    #[command(flatten)]
    pub oauth: OAuthArgs,
    /// The server command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
    /// The `--config` entry, read once: the target, its protocol, roots and name all come from
    /// it. Kept with the file and the server name it was read for: the TUI's picker sets another.
    #[arg(skip)]
    config_entry: std::sync::OnceLock<(PathBuf, Option<String>, config::Entry)>,
}

/// The arguments as the command line gives them when none is given.
impl Default for TargetArgs {
    fn default() -> TargetArgs {
        TargetArgs {
            url: None,
            headers: vec![],
            config: None,
            server: None,
            env: vec![],
            cwd: None,
            timeout: DEFAULT_TIMEOUT,
            max_message_mb: DEFAULT_MAX_MESSAGE_MB,
            max_depth: crate::json_depth::DEFAULT_MAX_DEPTH,
            roots: vec![],
            log_level: None,
            show_http: false,
            protocol: None,
            oauth: OAuthArgs::default(),
            command: vec![],
            config_entry: std::sync::OnceLock::new(),
        }
    }
}

/// A `--break` as `watch` sends it: a method or a tool, after `>` or `<` for one direction.
#[cfg(unix)]
fn break_spec(s: &str) -> std::result::Result<String, String> {
    super::watch::break_command(s).map(|_| s.to_string())
}

fn parse_protocol(s: &str) -> std::result::Result<Protocol, String> {
    Protocol::parse(s).ok_or_else(|| format!("expected one of {}", Protocol::NAMES.join(", ")))
}

/// `--protocol`'s values, read by [`parse_protocol`] and named for shell completion (the help
/// names them in its own words).
#[derive(Clone)]
struct ProtocolParser;

impl clap::builder::TypedValueParser for ProtocolParser {
    type Value = Protocol;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<Protocol, clap::Error> {
        parse_protocol.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Protocol::NAMES.iter().map(|n| clap::builder::PossibleValue::new(*n))))
    }
}

// Logging in to an HTTP server that asks for OAuth (they win over the config's "oauth"). A plain
// comment, as for `AnswerArgs`.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "OAuth (HTTP servers that ask for a login)")]
pub struct OAuthArgs {
    /// A client registered with the authorization server beforehand.
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// The pre-registered client's secret (or $MCPLENS_CLIENT_SECRET, kept off the process list).
    #[arg(long, value_name = "SECRET", env = "MCPLENS_CLIENT_SECRET", hide_env_values = true)]
    pub client_secret: Option<String>,
    /// The https URL of a client ID metadata document describing mcplens, used as the client ID
    /// with authorization servers that support them (else dynamic registration is used).
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// A PEM file with the pre-registered client's private key (PKCS#8, EC P-256): the client
    /// proves itself at the token endpoint with a JWT signed ES256 (private_key_jwt) instead of
    /// a secret.
    #[arg(long, value_name = "FILE")]
    pub client_key: Option<PathBuf>,
    /// Use the client credentials grant (no browser; for CI) with --client-id and
    /// --client-secret or --client-key.
    #[arg(long)]
    pub client_credentials: bool,
    /// The scopes to ask for (space-separated), instead of those the server names.
    #[arg(long, value_name = "SCOPES")]
    pub scope: Option<String>,
    /// The loopback port the browser is sent back to (default: any free port).
    #[arg(long, value_name = "PORT")]
    pub callback_port: Option<u16>,
    /// Never open a browser or wait for a login: fail with a clear message when no stored token
    /// works (for CI).
    #[arg(long)]
    pub no_browser: bool,
    /// Log in before connecting (discovery from the well-known paths) instead of on a 401.
    #[arg(long)]
    pub auth: bool,
    /// Bind tokens to a key mcplens holds (DPoP, RFC 9449) and prove it on every request; by
    /// default tokens are bound when the authorization server's metadata offers DPoP with ES256.
    #[arg(long, conflicts_with = "no_dpop")]
    pub dpop: bool,
    /// Never ask for DPoP-bound tokens (plain bearer tokens).
    #[arg(long)]
    pub no_dpop: bool,
    /// Workload identity: a file holding the JWT your platform issues this workload (e.g. a
    /// Kubernetes projected service account token), sent as a JWT bearer grant (RFC 7523)
    /// instead of a browser login; read again at each login, so a rotated token is picked up.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["client_credentials", "id_token"])]
    pub assertion_file: Option<PathBuf>,
    /// Enterprise-managed authorization: a file holding your ID token from the enterprise IdP
    /// (--idp), exchanged there for an identity assertion grant for this server (no browser).
    #[arg(long, value_name = "FILE", requires = "idp", conflicts_with = "client_credentials")]
    pub id_token: Option<PathBuf>,
    /// The enterprise IdP's issuer URL (its token endpoint is found from its metadata).
    #[arg(long, value_name = "URL", requires = "id_token")]
    pub idp: Option<String>,
    /// mcplens's client ID at the enterprise IdP.
    #[arg(long, value_name = "ID", requires = "id_token")]
    pub idp_client_id: Option<String>,
    /// The secret of that client (or $MCPLENS_IDP_CLIENT_SECRET, kept off the process list).
    #[arg(long, value_name = "SECRET", env = "MCPLENS_IDP_CLIENT_SECRET", hide_env_values = true)]
    pub idp_client_secret: Option<String>,
}

/// Where a JWT bearer login's assertion comes from, checked before anything is sent.
fn assertion_source(o: &OAuthArgs) -> Result<Option<crate::mcp::auth::assertion::Source>> {
    use crate::mcp::auth::assertion::{Enterprise, Source, read_jwt};
    if let Some(path) = &o.assertion_file {
        read_jwt(path, "--assertion-file").map_err(LensError::usage)?;
        return Ok(Some(Source::File(path.clone())));
    }
    let (Some(path), Some(idp)) = (&o.id_token, &o.idp) else { return Ok(None) };
    if !idp.starts_with("https://") && !idp.starts_with("http://") {
        return Err(LensError::usage(format!("--idp {idp}: must be an https URL")));
    }
    read_jwt(path, "--id-token").map_err(LensError::usage)?;
    if let Some(s) = &o.idp_client_secret {
        crate::mcp::log::learn_secret(s);
    }
    Ok(Some(Source::Enterprise(Enterprise {
        idp: idp.clone(),
        id_token_file: path.clone(),
        client_id: o.idp_client_id.clone(),
        client_secret: o.idp_client_secret.clone(),
    })))
}

/// The client key, checked before anything is sent; a key file is small, and only a regular
/// file is read.
fn read_client_key(path: &std::path::Path) -> Result<String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| LensError::usage(format!("--client-key {shown}: {e}")))?;
    if !meta.is_file() || meta.len() > 64 * 1024 {
        return Err(LensError::usage(format!("--client-key {shown}: not a PEM key file")));
    }
    let pem = std::fs::read_to_string(path).map_err(|e| LensError::usage(format!("--client-key {shown}: {e}")))?;
    crate::mcp::auth::jwt::check_key(&pem).map_err(|e| LensError::usage(format!("--client-key {shown}: {e}")))?;
    crate::mcp::log::learn_secret(pem.trim());
    Ok(pem)
}

/// Why `path` is not a directory mcplens can see, if it is not.
fn root_problem(path: &Path) -> Option<&'static str> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => None,
        Ok(_) => Some("not a directory"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("no such directory"),
        Err(_) => Some("inaccessible"),
    }
}

fn parse_level(s: &str) -> std::result::Result<Level, String> {
    Level::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.label()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

pub(crate) fn split_pair(s: &str, sep: char, what: &str) -> Result<(String, String)> {
    match s.split_once(sep) {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim_start().to_string())),
        _ => Err(LensError::usage(format!(
            "{what} {s:?}: expected {}",
            if sep == '=' { "KEY=VALUE" } else { "\"Name: value\"" }
        ))),
    }
}

impl TargetArgs {
    pub fn connect_options(&self) -> Result<ConnectOptions> {
        if !(self.timeout.is_finite() && self.timeout >= MIN_TIMEOUT) {
            return Err(LensError::usage(format!(
                "{} must be a number of seconds, at least {MIN_TIMEOUT}",
                super::settings::timeout_from()
            )));
        }
        if self.max_message_mb == 0 {
            return Err(LensError::usage("--max-message-mb must be at least 1"));
        }
        if self.max_depth == 0 {
            return Err(LensError::usage("--max-depth must be at least 1 (a message is at least one level deep)"));
        }
        Ok(ConnectOptions {
            timeout: Duration::from_secs_f64(self.timeout.min(1e9)),
            timeout_from: super::settings::timeout_from(),
            max_message: self.max_message_mb.saturating_mul(1 << 20),
            max_depth: self.max_depth,
            roots: self.roots()?,
            log_level: self.log_level,
            protocol: self.protocol()?,
            auth: self.auth_options(),
            ..ConnectOptions::default()
        })
    }

    /// The `--config` file's entry (`path` is `self.config`), read at the first use.
    fn config_entry(&self, path: &Path) -> Result<config::Entry> {
        if let Some((p, server, e)) = self.config_entry.get()
            && p == path
            && *server == self.server
        {
            return Ok(e.clone());
        }
        let e = config::entry(path, self.server.as_deref())?;
        // Kept for the first file and server asked for only (another is read each time).
        let _ = self.config_entry.set((path.to_path_buf(), self.server.clone(), e.clone()));
        Ok(e)
    }

    /// `--protocol`, else the config entry's "protocol", else auto.
    pub fn protocol(&self) -> Result<Protocol> {
        match (self.protocol, &self.config) {
            (Some(p), _) => Ok(p),
            (None, Some(path)) => Ok(self.config_entry(path)?.protocol.unwrap_or_default()),
            (None, None) => Ok(Protocol::Auto),
        }
    }

    /// The config entry's roots, then each `--root`, as `file://` URIs.
    pub fn roots(&self) -> Result<Vec<Root>> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut paths = match &self.config {
            Some(path) => self.config_entry(path)?.roots,
            None => vec![],
        };
        paths.extend(self.roots.iter().map(|p| p.to_string_lossy().into_owned()));
        Ok(paths.iter().map(|p| Root::from_path(p, &cwd)).collect())
    }

    /// A warning for each root that is not a directory here, naming it and where it was given.
    /// Such a root is still offered: the server may see another filesystem than mcplens does
    /// (a container, a remote HTTP server), and it decides what the root means to it.
    pub fn root_warnings(&self) -> Vec<String> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut named: Vec<(String, String)> = vec![];
        if let Some(path) = &self.config
            && let Ok(entry) = self.config_entry(path)
        {
            let (server, file) = (entry.name, path.display());
            named.extend(entry.roots.into_iter().map(|r| {
                let what = format!("root {r:?} of server \"{server}\" in {file}");
                (r, what)
            }));
        }
        named.extend(self.roots.iter().map(|p| (p.to_string_lossy().into_owned(), format!("--root {}", p.display()))));
        named
            .into_iter()
            .filter_map(|(path, what)| {
                let why = root_problem(&cwd.join(path))?;
                Some(format!("{what}: {why} here; offered to the server anyway (fix the path, unless the server sees another filesystem)"))
            })
            .collect()
    }

    /// Where the project's files sit (hints beside `.mcp.json`): the config file's directory, else
    /// the current one.
    pub fn project_dir(&self) -> Option<PathBuf> {
        match &self.config {
            Some(c) => c.parent().map(|p| if p.as_os_str().is_empty() { PathBuf::from(".") } else { p.to_path_buf() }),
            None => std::env::current_dir().ok(),
        }
    }

    /// The names a hint's `server` pattern may match: the config entry's name, given or found.
    pub fn server_names(&self) -> Vec<String> {
        match &self.config {
            Some(path) => self.config_entry(path).map(|e| vec![e.name]).unwrap_or_default(),
            None => vec![],
        }
    }

    /// The OAuth settings: the flags over the config entry's.
    pub fn oauth(&self, mut base: OAuthConfig) -> Result<OAuthConfig> {
        let o = &self.oauth;
        if o.client_id.is_some() {
            base.client.client_id = o.client_id.clone();
            base.client.client_secret = None;
            base.unset.retain(|u| !matches!(u.setting, "clientId" | "clientSecret"));
        }
        if o.client_secret.is_some() {
            base.client.client_secret = o.client_secret.clone();
            base.unset.retain(|u| u.setting != "clientSecret");
        }
        if let Some(u) = &o.client_metadata_url {
            if !u.starts_with("https://") && !u.starts_with("http://") {
                return Err(LensError::usage(format!("--client-metadata-url {u}: must be an https URL")));
            }
            base.client.client_metadata_url = Some(u.clone());
        }
        if let Some(path) = &o.client_key {
            base.client.private_key_pem = Some(read_client_key(path)?);
        }
        base.client_credentials |= o.client_credentials;
        if o.scope.is_some() {
            base.scope = o.scope.clone();
        }
        if let Some(p) = o.callback_port {
            base.callback_port = p;
        }
        if let Some(source) = assertion_source(o)? {
            base.assertion = Some(source);
            base.client_credentials = false;
            base.unset.retain(|u| !u.setting.starts_with("idp"));
        }
        if o.dpop {
            base.dpop = crate::mcp::auth::dpop::Mode::Always;
        } else if o.no_dpop {
            base.dpop = crate::mcp::auth::dpop::Mode::Never;
        }
        let proof = base.client.client_secret.is_some() || base.client.private_key_pem.is_some();
        if base.client_credentials && (base.client.client_id.is_none() || !proof) {
            // A config entry's unset variable is the reason, and what to set.
            return Err(LensError::usage(base.unset.first().map_or_else(
                || "--client-credentials needs --client-id and --client-secret or --client-key".to_string(),
                |u| format!("{}; client credentials cannot be sent without it", u.message),
            )));
        }
        Ok(base)
    }

    /// How logins run for these arguments (headless: the browser is opened, the URL printed).
    pub fn auth_options(&self) -> AuthOptions {
        AuthOptions {
            no_browser: self.oauth.no_browser,
            up_front: self.oauth.auth,
            notify: Some(std::sync::Arc::new(super::login::say)),
            ..AuthOptions::default()
        }
    }

    /// How these arguments name a server (`--url`, `--config`, `-- COMMAND`), if they name one;
    /// for the commands that may read files instead and must not leave one given unused.
    pub fn named_by(&self) -> Option<&'static str> {
        match (&self.url, &self.config, self.command.is_empty()) {
            (Some(_), _, _) => Some("--url"),
            (None, Some(_), _) => Some("--config"),
            (None, None, false) => Some("-- COMMAND"),
            (None, None, true) => None,
        }
    }

    /// What the `--config` entry holds that is left unexpanded or unused, one line each, for the
    /// headless commands to say on stderr and the TUI in its status line. Headers left
    /// unexpanded are not among them: [`TargetArgs::target`] refuses those; nor an oauth client id
    /// or secret: a login stops with what to set.
    pub fn config_warnings(&self) -> Vec<String> {
        let Some(entry) = self.config.as_ref().and_then(|path| self.config_entry(path).ok()) else { return vec![] };
        let given_env = |k: &str| self.env.iter().any(|e| e.split_once('=').is_some_and(|(g, _)| g.trim() == k));
        let mut said = entry.notes.clone();
        said.extend(
            entry
                .unexpanded
                .iter()
                .filter(|u| u.header().is_none() && !u.in_client_setting() && !u.env_key().is_some_and(given_env))
                .map(|u| format!("{}; passed on as written", u.message(&entry.name))),
        );
        said
    }

    /// The server these arguments name; the demo server when they name none.
    pub fn target(&self) -> Result<Target> {
        let env = self.env.iter().map(|e| split_pair(e, '=', "-e")).collect::<Result<Vec<_>>>()?;
        let headers = self.headers.iter().map(|h| split_pair(h, ':', "--header")).collect::<Result<Vec<_>>>()?;
        if let Some((k, why)) = headers.iter().find_map(|(k, v)| Some((k, header_value_problem(v)?))) {
            return Err(LensError::usage(format!(
                "--header {k}: its value {why}; an HTTP header value is one line of printable characters"
            )));
        }
        let stdio_only = |t: &str| {
            if !env.is_empty() || self.cwd.is_some() {
                Err(LensError::usage(format!("-e and --cwd apply to servers started as a command, not to {t}")))
            } else {
                Ok(())
            }
        };
        if let Some(url) = &self.url {
            if !self.command.is_empty() {
                return Err(LensError::usage("give either --url or a command after --, not both"));
            }
            stdio_only("--url")?;
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(LensError::usage(format!("--url {url}: must start with http:// or https://")));
            }
            return Ok(Target::Http(HttpTarget { url: url.clone(), headers, oauth: self.oauth(Default::default())? }));
        }
        if let Some(path) = &self.config {
            if !self.command.is_empty() {
                return Err(LensError::usage("give either --config or a command after --, not both"));
            }
            let entry = self.config_entry(path)?;
            return Ok(match entry.target {
                Target::Stdio(mut s) => {
                    if !headers.is_empty() {
                        return Err(LensError::usage(
                            "--header applies to HTTP servers; this config entry is a command",
                        ));
                    }
                    s.env.extend(env);
                    if let Some(cwd) = &self.cwd {
                        s.cwd = Some(cwd.clone());
                    }
                    Target::Stdio(s)
                }
                Target::Http(mut h) => {
                    stdio_only("an HTTP server")?;
                    // A header given with -H replaces the entry's of the same name.
                    let given = |name: &str| headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
                    // A `${TOKEN}` sent as written is never the credential meant.
                    if let Some(u) = entry.unexpanded.iter().find(|u| u.header().is_some_and(|h| !given(h))) {
                        return Err(LensError::usage(format!(
                            "config file {}: {}; the header is not sent as written",
                            path.display(),
                            u.message(&entry.name)
                        )));
                    }
                    h.headers.retain(|(k, _)| !given(k));
                    h.headers.extend(headers);
                    h.oauth = self.oauth(h.oauth)?;
                    Target::Http(h)
                }
            });
        }
        if !headers.is_empty() {
            return Err(LensError::usage("--header needs --url (or a --config entry with a url)"));
        }
        match self.command.split_first() {
            Some((command, args)) => Ok(Target::Stdio(StdioTarget {
                command: command.clone(),
                args: args.to_vec(),
                env,
                cwd: self.cwd.clone(),
            })),
            None => {
                stdio_only("the demo server")?;
                Ok(Target::demo())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> std::result::Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("mcplens").chain(args.iter().copied()))
    }

    #[test]
    fn a_config_file_is_read_once_for_its_target_protocol_roots_and_name() {
        let dir = std::env::temp_dir().join(format!("mcplens-config-once-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("mcp.json");
        let text = r#"{"mcpServers": {"s": {"command": "node", "roots": ["docs"], "protocol": "2025-06-18"}}}"#;
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let cli = parse(&["tools", "--config", &path.to_string_lossy()]).unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        assert!(matches!(target.target(), Ok(Target::Stdio(s)) if s.command == "node"));
        // Gone after the first read: what else the entry holds comes from that read.
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(target.protocol().ok(), Protocol::parse("2025-06-18"));
        let roots = target.roots().unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(roots.len(), 1);
        assert_eq!(target.server_names(), ["s"]);
    }

    #[test]
    fn roots_that_are_no_directory_here_are_named_with_where_they_were_given() {
        let dir = std::env::temp_dir().join(format!("mcplens-config-roots-{}", std::process::id()));
        let _ = std::fs::create_dir_all(dir.join("here"));
        let path = dir.join("mcp.json");
        let text = r#"{"mcpServers": {"s": {"command": "node", "roots": ["here", "gone"]}}}"#;
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let config = path.to_string_lossy();
        let cli = parse(&["tools", "--config", &config, "--root", "/no/such/dir", "--root", &config])
            .unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        let warnings = target.root_warnings();
        let _ = std::fs::remove_dir_all(&dir);
        let gone = dir.join("gone");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings[0]
                .starts_with(&format!("root {:?} of server \"s\" in {config}: no such", gone.display().to_string()))
        );
        assert!(warnings[1].starts_with("--root /no/such/dir: no such directory here; offered to the server anyway"));
        assert!(warnings[2].starts_with(&format!("--root {config}: not a directory here")));
        // Offered all the same: the server decides what they mean.
        assert_eq!(target.roots().map(|r| r.len()).ok(), Some(4));
    }

    /// The TUI's picker names another server of the same arguments: its own entry is read.
    #[test]
    fn another_server_of_the_config_gets_its_own_entry() {
        let dir = std::env::temp_dir().join(format!("mcplens-config-other-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("mcp.json");
        let text = r#"{"mcpServers": {"a": {"command": "node"}, "b": {"command": "python3"}}}"#;
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let cli =
            parse(&["tools", "--config", &path.to_string_lossy(), "--server", "a"]).unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { mut target, .. }) = cli.command else { panic!("expected tools") };
        assert!(matches!(target.target(), Ok(Target::Stdio(s)) if s.command == "node"));
        target.server = Some("b".into());
        let copy = target.clone();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(target.target().is_err() && copy.target().is_err(), "b is read from the file, now gone");
    }

    #[test]
    fn targets_from_arguments() {
        let cli = parse(&["tools", "-e", "A=1", "--cwd", "/tmp", "--", "node", "s.js", "--flag"])
            .unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        assert_eq!(
            target.target().ok(),
            Some(Target::Stdio(StdioTarget {
                command: "node".into(),
                args: vec!["s.js".into(), "--flag".into()],
                env: vec![("A".into(), "1".into())],
                cwd: Some("/tmp".into())
            }))
        );
        let cli = parse(&[
            "call",
            "echo",
            "--url",
            "http://127.0.0.1:1/mcp",
            "-H",
            "Authorization: Bearer x",
            "--arg",
            "a=1",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Call(c)) = cli.command else { panic!("expected call") };
        assert_eq!(
            c.target.target().ok(),
            Some(Target::Http(HttpTarget::new(
                "http://127.0.0.1:1/mcp",
                vec![("Authorization".into(), "Bearer x".into())]
            )))
        );
        let cli = parse(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert!(cli.command.is_none());
        assert!(matches!(cli.target.target(), Ok(Target::Stdio(s)) if s.args == ["demo-server"]));
    }

    /// A header value that is not one line of printable characters is refused before anything
    /// is sent, naming the header, never quoting the value (often a secret).
    #[test]
    fn a_header_value_no_request_can_carry_is_a_usage_error_naming_the_header() {
        for (value, why) in
            [("Bearer sek\nret", "holds a line break"), ("Bearer sek\u{7}ret", "holds a control character")]
        {
            let h = format!("Authorization: {value}");
            let cli = parse(&["tools", "--url", "http://x/mcp", "-H", &h]).unwrap_or_else(|e| panic!("{e}"));
            let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
            let e = target.target().err().unwrap_or_else(|| panic!("{value:?} accepted"));
            assert_eq!(e.exit_code(), 2);
            assert!(e.message.starts_with(&format!("--header Authorization: its value {why}")), "{}", e.message);
            assert!(!e.message.contains("sek"), "{}", e.message);
        }
        // A tab is allowed in a header value.
        let cli = parse(&["tools", "--url", "http://x/mcp", "-H", "X-A: a\tb"]).unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        assert!(target.target().is_ok());
    }

    #[test]
    fn conflicting_targets_are_usage_errors() {
        let cli = parse(&["tools", "--url", "http://x/mcp", "--", "node"]).unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        assert!(target.target().is_err());
        let cli = parse(&["tools", "-e", "NOEQUALS", "--", "node"]).unwrap_or_else(|e| panic!("{e}"));
        let Some(Command::Tools { target, .. }) = cli.command else { panic!("expected tools") };
        assert!(target.target().err().is_some_and(|e| e.message.contains("KEY=VALUE")));
    }
}

#[derive(Args, Debug)]
pub struct AppArgs {
    /// The tool whose view to open (default: the only tool that declares one).
    pub tool: Option<String>,
    /// The tool's arguments as one JSON object.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// One argument, typed by the tool's input schema. Repeatable; wins over --args.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// Print the URL and do not start a browser.
    #[arg(long)]
    pub no_open: bool,
    /// The host page's loopback port (default: any free port). The sandbox takes another one.
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    #[command(flatten)]
    pub target: TargetArgs,
}
