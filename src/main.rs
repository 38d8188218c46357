//! The `mcplens` binary: the TUI with no subcommand, headless commands otherwise.

use clap::Parser;
use mcplens::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
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
