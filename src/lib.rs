//! mcplens: a terminal explorer for MCP servers.
//!
//! The core (`mcplens-core`: session, schema, envelope, JSON tools, history) knows nothing of the
//! terminal; the TUI (`ui`) and the headless commands (`cli`) both sit on top of it. The core's
//! modules are re-exported here so the binary, tests and benches name them in one place.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
pub mod ui;

#[cfg(unix)]
pub use mcplens_core::proxy;
pub use mcplens_core::{
    apps, call, capped_file, collection, deep, dirs, doctor, envelope, error, history, json, json_depth, json_out,
    json_pretty, jsonc, jsontree, lint, mcp, opener, replay, sanitize, schema, skeleton, skills, snapshot,
    snapshot_text,
};
pub use mcplens_demo as demo;
