//! `mcplens app`: an MCP App's view opened in the browser through a local web host (SEP-1865's
//! host role). This file picks the tool and reads its view; `app_bridge` serves the pages and
//! answers the bridge.

use serde_json::Value;

use super::app_bridge::{self, View};
use super::args::AppArgs;
use super::connect::open;
use super::err_line;
use crate::apps::{self, UiMeta};
use crate::error::{LensError, Result};
use crate::mcp::{CallOptions, ReplyBody, Session, ToolList};
use crate::sanitize;

/// `mcplens app`
pub async fn app(a: &AppArgs) -> Result<i32> {
    open(&a.target).await?.run(async |o| run(&o.session, a).await).await
}

async fn run(session: &Session, a: &AppArgs) -> Result<i32> {
    let list = session.list_tools().await?;
    let tool = pick_tool(&list, a.tool.as_deref())?;
    let desc = tool.clone();
    let name = desc.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let uri = apps::tool_resource(&desc).unwrap_or_default().to_string();
    let schema = desc.get("inputSchema");
    let arguments = crate::schema::args::build(schema, a.args.as_deref(), &a.arg)?.unwrap_or_default();
    let (html, meta) = read_view(session, &uri).await?;
    for line in meta.as_ref().map(UiMeta::describe).unwrap_or_default() {
        err_line(&format!("view {}: {}", sanitize::line(&uri), sanitize::line(&line)));
    }
    let app_tools = app_callable(&list);
    let view = View { tool: desc, name, arguments: Value::Object(arguments), html, meta, app_tools };
    app_bridge::serve(session, view, a.port, !a.no_open).await
}

/// The tool named, or the only one with a view.
fn pick_tool<'a>(list: &'a ToolList, named: Option<&str>) -> Result<&'a Value> {
    let with_view: Vec<&Value> =
        list.tools.iter().map(|t| t.value()).filter(|v| apps::tool_resource(v).is_some()).collect();
    let names = || {
        with_view.iter().filter_map(|v| v.get("name").and_then(Value::as_str)).map(|n| sanitize::line(n).into_owned())
    };
    match named {
        Some(n) => {
            let Some(t) = list.find(n) else {
                return Err(LensError::usage(format!("no tool named {:?} on this server", sanitize::line(n))));
            };
            if apps::tool_resource(t.value()).is_none() {
                let others = names().collect::<Vec<_>>().join(", ");
                return Err(LensError::usage(format!(
                    "tool {:?} declares no view (_meta.ui.resourceUri); tools with one: {}",
                    sanitize::line(n),
                    if others.is_empty() { "none".into() } else { others }
                )));
            }
            Ok(t.value())
        }
        None => match with_view.as_slice() {
            [] => Err(LensError::usage(
                "no tool of this server declares a view (_meta.ui.resourceUri): it has no MCP App",
            )),
            [one] => Ok(*one),
            _ => Err(LensError::usage(format!(
                "several tools declare a view; name one: {}",
                names().collect::<Vec<_>>().join(", ")
            ))),
        },
    }
}

/// The tools a view may call: listed with `"app"` in their visibility (SEP-1865, Visibility:
/// the host MUST reject an app's call of any other).
fn app_callable(list: &ToolList) -> Vec<String> {
    list.tools
        .iter()
        .filter(|t| apps::visibility(t.value()).iter().any(|v| v == "app"))
        .map(|t| t.name().to_string())
        .collect()
}

/// The view's HTML (`text`, or a base64 `blob`) and its `_meta.ui`, read with `resources/read`
/// as the specification says a host does.
async fn read_view(session: &Session, uri: &str) -> Result<(String, Option<UiMeta>)> {
    let result = read_result(session, uri).await.map_err(|why| {
        LensError::connection(format!("the view {} could not be read: {}", sanitize::line(uri), sanitize::line(&why)))
    })?;
    let contents = result.get("contents").and_then(Value::as_array).cloned().unwrap_or_default();
    let content = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or(contents.first())
        .ok_or_else(|| LensError::connection(format!("the view {} has no contents", sanitize::line(uri))))?;
    let mime = content.get("mimeType").and_then(Value::as_str).unwrap_or("");
    if !apps::is_app_mime(mime) {
        err_line(&format!(
            "warning: the view's mimeType is {:?}, not {} (SEP-1865: it MUST be); shown anyway",
            sanitize::line(mime),
            apps::MIME
        ));
    }
    Ok((html_of(content, uri)?, UiMeta::of(content)))
}

fn html_of(content: &Value, uri: &str) -> Result<String> {
    if let Some(t) = content.get("text").and_then(Value::as_str) {
        return Ok(t.to_string());
    }
    use base64::Engine;
    let blob = content.get("blob").and_then(Value::as_str).unwrap_or("");
    base64::engine::general_purpose::STANDARD
        .decode(blob.trim())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            LensError::connection(format!("the view {} has neither text nor a UTF-8 base64 blob", sanitize::line(uri)))
        })
}

/// A `resources/read` result as the server sent it, or why there is none (a JSON-RPC error, a
/// lost connection).
pub(crate) async fn read_result(session: &Session, uri: &str) -> std::result::Result<Value, String> {
    let params = serde_json::json!({ "uri": uri });
    let reply = session
        .request_method("resources/read", params, &CallOptions::default(), &mut |_| {})
        .await
        .map_err(|e| e.message)?;
    match &reply.body {
        ReplyBody::Error(e) => Err(crate::mcp::Reply::error_summary(e)),
        ReplyBody::Result(_) => serde_json::from_str::<Value>(&reply.raw)
            .ok()
            .and_then(|mut v| v.get_mut("result").map(Value::take))
            .ok_or_else(|| "the reply has no result".to_string()),
    }
}
