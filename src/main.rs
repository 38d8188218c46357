//! The `mcplens` binary: the TUI with no subcommand, headless commands otherwise.

use std::io::IsTerminal;

use clap::Parser;
use mcplens::cli::{self, Cli};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => std::process::exit(clap_exit(&e)),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            mcplens::cli::output::err_line(&format!("mcplens: cannot start the async runtime: {e}"));
            std::process::exit(3);
        }
    };
    let code = runtime.block_on(async move {
        match cli.command {
            None => mcplens::ui::run(cli.target, cli.ui).await,
            Some(_) => cli::run(cli).await,
        }
    });
    // Child processes and background tasks must not keep the process alive after the answer.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    report_peak_memory();
    std::process::exit(code);
}

/// Help, version or a usage error, written without a panicking print: help to stdout (exit 0,
/// or 4/141 when it cannot be written), errors to stderr (exit 2).
fn clap_exit(e: &clap::Error) -> i32 {
    let to_stderr = e.use_stderr();
    let tty = if to_stderr { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
    let text = if tty { e.render().ansi().to_string() } else { e.render().to_string() };
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
