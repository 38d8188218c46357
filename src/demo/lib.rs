//! The embedded demo MCP server (`mcplens demo-server`), served over stdio with rmcp.
//!
//! Its tools answer in every shape the seeds describe, so `mcplens` alone always has something
//! real to show, and the project's tests have a fixture that speaks the actual protocol.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod answers;
pub mod catalog;
pub mod data;

use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// Tools per `tools/list` page: small, so that clients have to follow `nextCursor`.
const PAGE_SIZE: usize = 8;

pub struct DemoServer {
    tools: Vec<Value>,
    started: Instant,
}

impl Default for DemoServer {
    fn default() -> Self {
        DemoServer { tools: catalog::tools(), started: Instant::now() }
    }
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

impl DemoServer {
    async fn slow_task(&self, args: &answers::Args, ctx: &RequestContext<RoleServer>) -> Result<Value, ErrorData> {
        let steps = args.get("steps").and_then(Value::as_u64).unwrap_or(5).clamp(1, 1000);
        let delay = args.get("delay_ms").and_then(Value::as_u64).unwrap_or(500).min(60_000);
        let token = ctx.meta.get_progress_token();
        for step in 1..=steps {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(delay)) => {}
                _ = ctx.ct.cancelled() => return Err(ErrorData::internal_error("cancelled", None)),
            }
            if let Some(token) = &token {
                let param: ProgressNotificationParam = serde_json::from_value(json!({
                    "progressToken": token,
                    "progress": step,
                    "total": steps,
                    "message": format!("step {step} of {steps}"),
                }))
                .map_err(internal)?;
                let _ = ctx.peer.notify_progress(param).await;
            }
        }
        Ok(
            json!({"content": [{"type": "text", "text": format!("Finished {steps} steps.")}], "structuredContent": {"steps": steps, "delayMs": delay}}),
        )
    }
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info.name = "mcplens-demo".into();
        info.server_info.title = Some("mcplens demo server".into());
        info.server_info.version = env!("CARGO_PKG_VERSION").into();
        info.instructions = Some(
            "Demo tools answering in every shape mcplens normalizes: paged lists (offset, before-cursor, \
             GraphQL after-cursor, page numbers), actions, errors, JSON in text, structuredContent vs _meta, \
             JSON-RPC-style wrappers, images, resources, progress and large results."
                .into(),
        );
        info
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c.parse::<usize>().map_err(|_| ErrorData::invalid_params(format!("bad cursor {c:?}"), None))?,
        };
        let page: Vec<Value> = self.tools.iter().skip(start).take(PAGE_SIZE).cloned().collect();
        let next = start + page.len();
        let next_cursor = (next < self.tools.len()).then(|| next.to_string());
        serde_json::from_value(json!({"tools": page, "nextCursor": next_cursor})).map_err(internal)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let value = match request.name.as_ref() {
            "slow_task" => self.slow_task(&args, &ctx).await?,
            "server_status" => answers::server_status(self.tools.len(), self.started.elapsed().as_secs_f64()),
            name if self.tools.iter().any(|t| t["name"] == name) => answer(name, &Value::Object(args)),
            other => return Err(ErrorData::invalid_params(format!("Unknown tool: {other}"), None)),
        };
        let result: CallToolResult = serde_json::from_value(value).map_err(internal)?;
        Ok(CallToolResponse::Complete(result))
    }
}

/// The answer (a `tools/call` result as JSON) of every demo tool that answers at once.
pub fn answer(name: &str, args: &Value) -> Value {
    let empty = answers::Args::new();
    let args = args.as_object().unwrap_or(&empty);
    match name {
        "discord_list_channels" => answers::list_channels(args),
        "discord_read_channel" => answers::read_channel(args),
        "discord_send_message" => answers::send_message(args),
        "discord_edit_message" => answers::edit_message(args),
        "discord_delete_message" => answers::delete_message(args),
        "discord_get_user_info" => answers::get_user(args),
        "yourls_shorten_url" => answers::shorten_url(args),
        "shop_search_products" => answers::search_products(args),
        "web_search" => answers::web_search(args),
        "get_weather" => answers::get_weather(args),
        "mcp_list_tools" => answers::list_tools_catalog(&catalog::tools()),
        "server_status" => answers::server_status(catalog::tools().len(), 0.0),
        "fg_findPersons" => answers::find_persons(args),
        "list_issues" => answers::list_issues(args),
        "get_image" => answers::get_image(args),
        "get_resources" => answers::get_resources(),
        "generate_records" => answers::generate_records(args),
        "echo" => answers::echo(args),
        other => json!({"content": [{"type": "text", "text": format!("Unknown tool: {other}")}], "isError": true}),
    }
}

/// Serves the demo over this process's stdin/stdout until the client goes away.
pub async fn serve_stdio() -> anyhow::Result<()> {
    let service = DemoServer::default().serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
