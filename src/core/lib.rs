//! The core of mcplens: the MCP session and its lossless wire tap, schemas, forms' model, the
//! normalized envelope and its pager, JSON tools and the call history. It knows nothing of the
//! terminal: no ratatui, crossterm or clap here, and the compiler keeps it so.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod apps;
pub mod call;
pub mod capped_file;
pub mod collection;
pub mod cores;
pub mod deep;
pub mod dirs;
pub mod doctor;
pub mod envelope;
pub mod error;
pub mod heap;
pub mod history;
pub mod json;
pub mod lint;
/// The depth check, at its old path.
pub use json::depth as json_depth;
pub mod json_out;
pub mod json_pretty;
pub mod jsonc;
pub mod jsontree;
pub mod mcp;
pub mod opener;
#[cfg(unix)]
pub mod proxy;
pub mod raw_object;
pub mod replay;
pub mod sanitize;
pub mod schema;
pub mod skeleton;
pub mod skills;
pub mod snapshot;
pub mod snapshot_text;
pub mod value_diff;
pub mod value_set;
