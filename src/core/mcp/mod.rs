//! The MCP connection core: targets, transports with the wire tap, the session. No UI here.

pub mod asks;
pub mod client;
pub mod config;
pub mod http;
pub mod log;
pub mod session;
pub mod stdio;
pub mod target;
pub mod tasks;
pub mod tools;
pub mod wire;

pub use session::{CallOptions, ConnectOptions, Progress, Reply, ReplyBody, ServerInfo, Session};
pub use target::{HttpTarget, StdioTarget, Target};
pub use tools::{ToolDescriptor, ToolList};
