//! The terminal UI.

use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;

pub async fn run(_target: TargetArgs, _ui: UiArgs) -> i32 {
    eprintln!("mcplens: the TUI is not built yet");
    2
}
