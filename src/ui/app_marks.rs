//! MCP Apps in the lists: a mark after each tool that declares a `ui://` view and after each
//! view among the resources, and the tool's app facts (its view, who may call it) in the schema
//! pane's header. `mcplens app` opens a view in the browser.

use std::collections::HashSet;

use serde_json::Value;

use crate::apps;
use crate::mcp::{Descriptor, ToolDescriptor};
use crate::sanitize;
use crate::ui::theme::{Role, Theme};
use ratatui::text::Span;

/// What follows the name of a tool with a view, or of a view.
pub const MARK: &str = " ▣ app";

/// The names of the tools that declare a view. A descriptor is parsed only when its text names
/// a `resourceUri`, so a long list of ordinary tools costs a scan of their text.
pub fn app_tools(tools: &[ToolDescriptor]) -> HashSet<String> {
    tools
        .iter()
        .filter(|t| t.raw.get().contains("resourceUri"))
        .filter_map(|t| crate::json_depth::parse::<Value>(t.raw.get(), 128).ok())
        .filter(|v| apps::tool_resource(v).is_some())
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// A listed resource that is a view (a `ui://` URI, or the app MIME type).
pub fn is_view(d: &Descriptor) -> bool {
    d.uri().is_some_and(apps::is_ui_uri) || d.mime_type().is_some_and(apps::is_app_mime)
}

/// The two-cell column before a resource's name: `!` for a malformed descriptor, else `▣` for
/// a view.
pub fn problem_or_view(d: &Descriptor, t: &Theme) -> Span<'static> {
    if d.problem().is_some() {
        Span::styled("! ", t.paint(Role::Error))
    } else if is_view(d) {
        Span::styled("▣ ", t.paint(Role::Match))
    } else {
        Span::raw("  ")
    }
}

/// The header lines of a tool with a view (none for other tools).
pub fn header(tool: &ToolDescriptor) -> Vec<String> {
    let v = tool.value();
    let Some(uri) = apps::tool_resource(v) else { return vec![] };
    let callers = sanitize::line(&apps::visibility(v).join(", ")).into_owned();
    vec![format!("▣ MCP App: view {} · callable by {callers} · `mcplens app` opens it", sanitize::line_head(uri, 200))]
}
