//! What the result's header and its Envelope view show, built when the result arrives (never
//! while drawing), and the members of the reply the other views read.

use crate::envelope::twin::data_repeats_message;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use serde_json::Value;
use serde_json::value::RawValue;

use super::body::Body;
use super::table::Table;
use super::text::TextView;
use super::{Page, header_text, json_lines, markdown};
use crate::envelope::{Envelope, ResponseType};
use crate::sanitize;
use crate::ui::jsonview::JsonView;
use crate::ui::msg::CallResult;
use crate::ui::theme::{Role, Theme};

/// A message longer than this many lines is shown in the Envelope view's body, whole, rather
/// than in its header.
const HEADER_MESSAGE_LINES: usize = 3;

/// Data up to this size is printed under a long message; larger data keeps its lazy tree.
const DOC_DATA_MAX: usize = 256 << 10;

/// One member of the reply's `result` (or of its JSON-RPC `error`), parsed from the raw text
/// on demand: the parsed reply itself was taken apart by the envelope.
pub fn result_member(call: &CallResult, key: &str) -> Option<Value> {
    #[derive(serde::Deserialize)]
    struct Outer<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
    }
    let raw = &call.reply.as_ref()?.raw;
    let outer: Outer = serde_json::from_str(raw).ok()?;
    let body = outer.result.or(outer.error)?;
    if key.is_empty() {
        return crate::json_depth::parse(body.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok();
    }
    let members: std::collections::HashMap<&str, &RawValue> = serde_json::from_str(body.get()).ok()?;
    crate::json_depth::parse(members.get(key)?.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok()
}

/// Whether the envelope's message goes to the body (whole) rather than the header.
fn message_in_body(env: &Envelope) -> bool {
    let Some(m) = &env.message else { return false };
    env.data.is_null()
        || data_repeats_message(env)
        || (!env.data.is_array()
            && m.lines().count() > HEADER_MESSAGE_LINES
            && serde_json::to_string(env.data.json()).map_or(0, |t| t.len()) <= DOC_DATA_MAX)
}

/// The lines above every view: what kind of answer, how long it took, where it was read from,
/// warnings, the error, a short message.
pub fn header(call: &CallResult, page: Page, theme: &Theme) -> Vec<Line<'static>> {
    let mut header = vec![];
    let took = format!("{:.0} ms", call.elapsed.as_secs_f64() * 1000.0);
    let Some(env) = &call.envelope else {
        header.push(Line::styled(
            format!(
                "{} failed after {took}: {}",
                sanitize::line(&call.tool),
                // Its first line: the whole message is shown under it.
                sanitize::line(call.error.as_deref().and_then(|e| e.lines().next()).unwrap_or("no reply"))
            ),
            theme.paint(Role::Error).add_modifier(Modifier::BOLD),
        ));
        return header;
    };
    let role = if env.response_type == ResponseType::Error { Role::Error } else { Role::Ok };
    header.push(Line::from(vec![
        Span::styled(header_text(env, page), theme.paint(role).add_modifier(Modifier::BOLD)),
        Span::styled(format!("  ({took})"), theme.paint(Role::Dim)),
    ]));
    if let Some(source) = env.metadata.as_ref().and_then(|m| m.get("source")).and_then(Value::as_str) {
        let records = match env.data.is_array() {
            true => format!(", {}", super::count(env.item_count(), "record", "records")),
            false => String::new(),
        };
        header.push(Line::styled(format!("from {}{records}", sanitize::line(source)), theme.paint(Role::Dim)));
    }
    // What the reply holds beside the data (memory's graph: its relations beside the entities
    // shown) is not lost from sight.
    let kept: Vec<String> = env
        .metadata
        .iter()
        .flat_map(|m| m.keys())
        .filter(|k| !matches!(k.as_str(), "source" | "pager"))
        .map(|k| sanitize::line(k).into_owned())
        .collect();
    if !kept.is_empty() {
        let (raw, export) = (
            crate::ui::keymap::key(crate::ui::keymap::Scope::Result, crate::ui::keymap::Command::View4),
            crate::ui::keymap::key(crate::ui::keymap::Scope::Result, crate::ui::keymap::Command::Export),
        );
        // One short line: the first few names, and how many more.
        let more = kept.len().saturating_sub(3);
        let names = kept.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
        let names = if more > 0 { format!("{names} +{more} more") } else { names };
        header.push(Line::styled(
            format!("also in metadata: {names} ({raw}: Raw view, {export}: export)"),
            theme.paint(Role::Dim),
        ));
    }
    if let Some(w) = call.reply.as_ref().map(|r| &r.warnings).filter(|w| !w.is_empty()) {
        header.push(Line::styled(
            format!(
                "⚠ the result breaks the MCP schema: {} (all in the log, L; Raw view: 4)",
                sanitize::line(&w.join("; "))
            ),
            theme.paint(Role::Warning),
        ));
    }
    // The spec's MUST, said in every view (the Split view shows each place).
    let output = call.output_schema.as_ref().zip(call.reply.as_ref());
    if let Some(w) = output.and_then(|(s, r)| crate::call::output_schema::check(s, &r.raw, super::CHECK_MAX)?.warning())
    {
        let split = crate::ui::keymap::key(crate::ui::keymap::Scope::Result, crate::ui::keymap::Command::View2);
        header
            .push(Line::styled(format!("⚠ {} (Split view: {split})", sanitize::line(&w)), theme.paint(Role::Warning)));
    }
    if let Some(note) = call.reply.as_ref().and_then(|r| r.approximation_note()) {
        header.push(Line::styled(format!("⚠ {note} (Raw view: 4)"), theme.paint(Role::Warning)));
    }
    if let Some(err) = &env.error {
        let code = if err.code.is_null() { String::new() } else { format!("{} ", err.code) };
        let first = err.message.as_deref().unwrap_or("").lines().next().unwrap_or("");
        header.push(Line::styled(
            format!("✖ error {code}{}", sanitize::line(first)),
            theme.paint(Role::Error).add_modifier(Modifier::BOLD),
        ));
    } else if let Some(m) = env.message.as_ref().filter(|_| !message_in_body(env)) {
        let text = sanitize::text(m);
        for l in text.lines().take(HEADER_MESSAGE_LINES) {
            header.push(Line::styled(l.to_string(), theme.paint(Role::Text)));
        }
        let more = text.lines().count().saturating_sub(HEADER_MESSAGE_LINES);
        if more > 0 {
            header.push(Line::styled(
                format!("… {} more (the Content view, 3, has the whole text)", super::count(more, "line", "lines")),
                theme.paint(Role::Dim),
            ));
        }
    }
    header
}

fn error_lines(env: &Envelope, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![];
    let Some(err) = &env.error else {
        lines.push(Line::styled("The server reported an error without saying more.", theme.paint(Role::Error)));
        return lines;
    };
    if !err.code.is_null() {
        lines.push(Line::styled(format!("code: {}", sanitize::line(&err.code.to_string())), theme.paint(Role::Error)));
    }
    let message = err.message.as_deref().unwrap_or("(no message)");
    let mut text = sanitize::text(message).lines().map(str::to_string).collect::<Vec<_>>().into_iter();
    lines.push(Line::styled(format!("message: {}", text.next().unwrap_or_default()), theme.paint(Role::Error)));
    lines.extend(text.map(|l| Line::styled(format!("  {l}"), theme.paint(Role::Error))));
    if !err.details.is_null() {
        lines.push(Line::styled("details:", theme.paint(Role::Error)));
        lines.extend(json_lines(&err.details.to_string(), theme, 5_000));
    }
    lines
}

fn failed_lines(call: &CallResult, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("No reply came back.", theme.paint(Role::Error).add_modifier(Modifier::BOLD))];
    for l in sanitize::text(call.error.as_deref().unwrap_or("(no reason given)")).lines() {
        lines.push(Line::styled(l.to_string(), theme.paint(Role::Error)));
    }
    lines.push(Line::raw(""));
    let log = crate::ui::keymap::key(crate::ui::keymap::Scope::Any, crate::ui::keymap::Command::ToggleLog);
    lines.push(Line::styled(
        format!("What the server wrote before that is in the log ({log})."),
        theme.paint(Role::Dim),
    ));
    lines
}

/// The Envelope view below its header: whatever the envelope is, what the server said.
pub fn envelope_body(call: &CallResult, theme: &Theme) -> Body {
    let Some(env) = &call.envelope else {
        return Body::Text(TextView::new(failed_lines(call, theme)));
    };
    if env.response_type == ResponseType::Error {
        return Body::Text(TextView::new(error_lines(env, theme)));
    }
    if env.data.is_array() {
        return Body::Table(Box::new(Table::new(env.clone())));
    }
    let message = env.message.as_deref().filter(|_| message_in_body(env));
    // A text sent again as structuredContent is shown once: the Split view has the data.
    match (message, env.data.is_null() || data_repeats_message(env)) {
        // A text answer (most servers send one): the text, whole.
        (Some(m), true) => Body::Text(TextView::new(markdown(m, theme))),
        (None, true) => Body::Text(TextView::new(vec![Line::styled(
            "The reply carries nothing to show: no text, no structured data (the Raw view, 4, has it as sent).",
            theme.paint(Role::Dim),
        )])),
        // A long message with data: the message whole, then the data.
        (Some(m), false) => {
            let mut lines = markdown(m, theme);
            lines.push(Line::raw(""));
            lines.push(Line::styled("data:", theme.paint(Role::JsonKey).add_modifier(Modifier::BOLD)));
            lines.extend(json_lines(&env.data_text(), theme, 20_000));
            Body::Text(TextView::new(lines))
        }
        (None, false) => Body::Tree(Box::new(JsonView::from_text(env.data_text(), "data"))),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use serde_json::json;

    use super::*;
    use crate::mcp::{Reply, ReplyBody};

    /// A call of a tool whose outputSchema wants an integer `n`, answered with `result`.
    pub(in crate::ui::result) fn call(result: Value) -> CallResult {
        let raw = Arc::new(json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string());
        let mut reply = Reply::parse(raw, Duration::ZERO, 100).unwrap_or_else(|e| panic!("{e}"));
        let body = std::mem::replace(&mut reply.body, ReplyBody::Result(Value::Null));
        let env = crate::envelope::normalize_reply("t", None, body, std::mem::take(&mut reply.elisions));
        CallResult {
            tool: "t".into(),
            arguments: json!({}),
            reply: Some(Arc::new(reply)),
            envelope: Some(Arc::new(env)),
            output_schema: Some(json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})),
            error: None,
            elapsed: Duration::ZERO,
        }
    }

    fn said(call: &CallResult) -> String {
        let lines = header(call, Page::default(), &Theme::default());
        lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    /// Every view's header says when the result breaks the tool's outputSchema.
    #[test]
    fn the_header_says_a_result_breaks_the_output_schema() {
        let text = json!([{"type": "text", "text": "x"}]);
        let bad = said(&call(json!({"content": text, "structuredContent": {"n": "not-int"}})));
        assert!(
            bad.contains("⚠ structuredContent breaks the tool's outputSchema: /n: \"not-int\" is not of type \"integer\" (Split view: 2)"),
            "{bad}"
        );
        let none = said(&call(json!({"content": text})));
        assert!(none.contains("⚠ the tool declares an outputSchema but the result has no structuredContent"), "{none}");
        let fits = said(&call(json!({"content": text, "structuredContent": {"n": 1}})));
        assert!(!fits.contains('⚠'), "{fits}");
    }
}
