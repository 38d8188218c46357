//! The `mcplens` binary: the TUI with no subcommand, headless commands otherwise.

use std::io::IsTerminal;

use mcplens::cli::{self, Cli, Command};

fn main() {
    mcplens_core::heap::grow_by_the_megabyte();
    // A server certain from the words alone is started before the command line's parse, on a
    // runtime of one thread (every command with such a server is a headless one).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let first = cli::early::server(&args).and_then(|server| {
        mcplens_core::heap::one_heap();
        let runtime = runtime(false).ok()?;
        mcplens::mcp::stdio::early_coming();
        let _within = runtime.enter();
        mcplens::mcp::stdio::start_early(&server);
        Some(runtime)
    });
    let cli = match cli::settings::parse(args) {
        Ok(cli) => cli,
        Err(e) => std::process::exit(clap_exit(&e)),
    };
    if !serves_or_shows(cli.command.as_ref()) {
        mcplens_core::heap::one_heap();
    }
    let started = first.is_some();
    let runtime = match first.map_or_else(|| runtime_for(cli.command.as_ref()), Ok) {
        Ok(rt) => rt,
        Err(e) => {
            mcplens::cli::output::err_line(&format!("mcplens: cannot start the async runtime: {e}"));
            std::process::exit(3);
        }
    };
    // Otherwise the server of a command that connects first is started from this thread, once
    // the command's thread is on its way: see `start_early` for why not from that thread.
    let early = cli::early_server(&cli).filter(|_| !started).map(|server| (server, runtime.handle().clone()));
    if early.is_some() {
        mcplens::mcp::stdio::early_coming();
    }
    // Server data may nest as deep as --max-depth allows. Our own walks over it grow their stack
    // as they go; a roomy stack is the net under recursion in libraries (see mcplens_core::deep).
    // The main thread's stack is fixed by the system, hence a thread of our own.
    let stack = mcplens::deep::MAIN_STACK;
    // The process ends from that thread: joined, its stack (mapped at the size above) would be
    // unmapped page by page first, only for the process to end a moment later.
    let main = move || {
        let code = run(runtime, cli);
        report_peak_memory();
        std::process::exit(code)
    };
    let thread = std::thread::Builder::new().name("mcplens".into()).stack_size(stack).spawn(main);
    if let Some((server, handle)) = early {
        let _within = handle.enter();
        mcplens::mcp::stdio::start_early(&server);
    }
    let code = match thread {
        // The thread returns only by a panic.
        Ok(thread) => thread.join().map_or(101, |()| 101),
        Err(e) => {
            mcplens::cli::output::err_line(&format!("mcplens: cannot start the main thread: {e}"));
            3
        }
    };
    report_peak_memory();
    std::process::exit(code);
}

/// The async runtime a command runs on (see [`serves_or_shows`]).
fn runtime_for(command: Option<&Command>) -> std::io::Result<tokio::runtime::Runtime> {
    runtime(serves_or_shows(command))
}

/// A runtime with worker threads for a command that `serves` or shows, else one of this thread.
fn runtime(serves: bool) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = if serves {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    builder.thread_stack_size(mcplens::deep::WORKER_STACK).enable_all().build()
}

fn run(runtime: tokio::runtime::Runtime, cli: Cli) -> i32 {
    let code = runtime.block_on(async move {
        match cli.command {
            None => mcplens::ui::run(cli.target, cli.ui).await,
            Some(_) => cli::run(cli).await,
        }
    });
    // Child processes and background tasks must not keep the process alive after the answer.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

/// Whether the command keeps worker threads: the TUI (and `watch --tui`) draws while results are
/// read and laid out, and the commands that serve others (proxy, replay, the demo server, an
/// app's web host) answer several peers at once. Every other command asks a server and prints
/// the answer, one step after another: on this thread alone it starts no workers and hands no
/// message from thread to thread (a fifth less CPU time on a small listing).
fn serves_or_shows(command: Option<&Command>) -> bool {
    match command {
        None | Some(Command::Replay { .. } | Command::DemoServer | Command::App(_)) => true,
        #[cfg(unix)]
        Some(Command::Proxy { .. } | Command::Watch { tui: true, .. }) => true,
        Some(_) => false,
    }
}

/// Help, version or a usage error, written without a panicking print: help to stdout (exit 0,
/// or 4/141 when it cannot be written), errors to stderr (exit 2).
fn clap_exit(e: &clap::Error) -> i32 {
    let to_stderr = e.use_stderr();
    let tty = if to_stderr { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
    let text = if cli::output::color_wanted(tty) { e.render().ansi().to_string() } else { e.render().to_string() };
    if to_stderr {
        cli::output::err_raw(&text);
    } else {
        let _ = cli::output::out(&text);
    }
    cli::output::exit_code(e.exit_code())
}

/// With MCPLENS_REPORT_PEAK=1, prints this process's own peak memory (not its server's) to
/// stderr; scripts/bench-compare uses it, since tools like `time` add the child server's memory.
fn report_peak_memory() {
    if std::env::var_os("MCPLENS_REPORT_PEAK").is_none() {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
        mcplens::cli::output::err_line(&format!("mcplens-peak-rss {}", line.trim_start_matches("VmHWM:").trim()));
    }
}
