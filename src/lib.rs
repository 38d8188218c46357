//! mcplens: a terminal explorer for MCP servers.
//!
//! The core (`mcp`, `schema`, `envelope`) knows nothing of the terminal; the TUI (`ui`) and the
//! headless commands (`cli`) both sit on top of it.

pub mod cli;
pub mod demo;
pub mod envelope;
pub mod error;
pub mod history;
pub mod json_depth;
pub mod json_out;
pub mod json_pretty;
pub mod jsontree;
pub mod mcp;
pub mod sanitize;
pub mod schema;
pub mod skeleton;
pub mod ui;
