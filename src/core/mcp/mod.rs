//! The MCP connection core: targets, transports with the wire tap, the session. No UI here.

mod ask_check;
mod ask_choices;
pub mod ask_schema;
pub mod asks;
pub mod auth;
pub mod cache_hint;
pub mod client;
pub mod compact_reply;
pub mod completion;
pub mod config;
pub mod descriptor;
pub mod era;
pub mod http;
pub mod http_view;
pub mod input;
pub mod listing;
pub mod log;
pub mod logging;
pub mod modern;
pub mod on_path;
pub mod param_headers;
mod pipe_size;
pub mod prompts;
pub mod resources;
pub mod rpc;
pub mod session;
pub mod sse;
pub mod stdio;
pub mod target;
pub mod task_ext;
pub mod task_poll;
pub mod tasks;
pub mod tools;
pub mod uri_template;
pub mod url_secrets;
pub mod wire;
mod wire_scan;

pub use session::{CallOptions, ConnectOptions, Progress, Reply, ReplyBody, ServerInfo, Session};
pub use target::{HttpTarget, StdioTarget, Target};
pub use tools::{ToolDescriptor, ToolList};

pub use completion::{Completion, CompletionRef};
pub use descriptor::{Descriptor, ItemKind, Listing, PromptArgument};
pub use prompts::{PromptMessage, PromptMessages};
pub use resources::{ContentKind, ReadContents, ResourceContent};
pub use rpc::{Answered, RpcError};
