//! The `mcplens` binary: the TUI with no subcommand, headless commands otherwise.

use clap::Parser;
use mcplens::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcplens: cannot start the async runtime: {e}");
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
    std::process::exit(code);
}
