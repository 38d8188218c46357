//! Replaying a recorded session: the recording's reader (`mcplens record` files and the TUI's log
//! export, one JSON Lines format) and the script that answers a client's requests with the
//! recorded replies. No I/O beyond reading the file, no UI: `mcplens replay` serves it.

mod recording;
mod rewrite;
mod script;
#[cfg(test)]
mod tests;

pub use recording::{Entry, MAX_RECORDING, Message, Recording, Side, parse, read};
pub use rewrite::Line;
pub use script::{Answer, Script};
