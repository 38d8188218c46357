//! Human-readable output of the headless commands. Every server string is sanitized here.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::mcp::ToolDescriptor;
use crate::sanitize;
use crate::schema::{text, tree};

/// A tool as readable text: name, title, description, input schema tree, output schema tree.
pub fn tool(t: &ToolDescriptor) -> String {
    let mut out = String::new();
    out.push_str(&sanitize::line(if t.name().is_empty() { "(no name)" } else { t.name() }));
    if let Some(title) = t.title() {
        out.push_str(&format!(" — {}", sanitize::line(title)));
    }
    let mut marks = vec![];
    if t.read_only() {
        marks.push("read-only");
    }
    if t.destructive() {
        marks.push("destructive");
    }
    if !marks.is_empty() {
        out.push_str(&format!("  [{}]", marks.join(", ")));
    }
    out.push('\n');
    if let Some(problem) = t.problem() {
        out.push_str(&format!("  ! malformed: {problem}\n"));
    }
    if let Some(d) = t.description() {
        for line in sanitize::text(d).lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    for (label, schema) in [("input", t.input_schema()), ("output", t.output_schema())] {
        let Some(schema) = schema else { continue };
        let root = tree::build(schema);
        let mut head = format!("  {label}: {}", sanitize::line(&root.types));
        for (k, v) in &root.facts {
            head.push_str(&format!("  {}={}", sanitize::line(k), sanitize::line(v)));
        }
        out.push_str(&head);
        out.push('\n');
        let lines = text::lines(&root, 2);
        if lines.is_empty() && label == "input" {
            out.push_str("    (no arguments)\n");
        }
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if let Some(obj) = t.value().as_object() {
        let known = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"];
        for (k, v) in obj.iter().filter(|(k, _)| !known.contains(&k.as_str())) {
            out.push_str(&format!("  {}: {}\n", sanitize::line(k), sanitize::line(&tree::compact(v))));
        }
    }
    out
}

fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
    sanitize::text(&crate::json_out::to_pretty_string(v)).into_owned()
}

fn indent(s: &str, by: &str) -> String {
    s.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// An envelope, readable: a header (type, status, counts, paging), message, error, then the data.
pub fn envelope(e: &crate::envelope::Envelope) -> String {
    use crate::envelope::ResponseType;
    let mut head = vec![e.response_type.as_str().to_string()];
    if let Some(s) = e.status {
        head.push(serde_json::to_value(s).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default());
    }
    if let Some(s) = &e.summary {
        match (s.returned, s.total) {
            (Some(r), Some(t)) => head.push(format!("{r} of {t} items")),
            (Some(r), None) => head.push(format!("{r} items")),
            (None, Some(t)) => head.push(format!("{t} in all")),
            _ => {}
        }
    }
    if let Some(p) = &e.pagination {
        match (p.has_more, &p.next_offset) {
            (Some(true), Some(next)) => head.push(format!(
                "more: next {} {}",
                p.kind.map(|k| format!("{k:?}").to_lowercase()).unwrap_or_default(),
                tree::compact(next)
            )),
            (Some(true), None) => head.push("more available".into()),
            _ => head.push("no more pages".into()),
        }
    }
    let mut out = format!("{}\n", head.join(" · "));
    if let Some(src) = e.metadata.as_ref().and_then(|m| m.get("source")).and_then(Value::as_str) {
        out.push_str(&format!("from: {}\n", sanitize::line(src)));
    }
    if let Some(err) = &e.error {
        // A message of several lines is printed as its lines, the later ones indented.
        let mut lines = err.message.as_deref().unwrap_or("(no message)").lines();
        out.push_str(&format!(
            "error {}: {}\n",
            if err.code.is_null() {
                "(no code)".to_string()
            } else {
                sanitize::line(&tree::compact(&err.code)).into_owned()
            },
            sanitize::line(lines.next().unwrap_or_default())
        ));
        for l in lines {
            out.push_str(&format!("  {}\n", sanitize::line(l)));
        }
        if !err.details.is_null() {
            out.push_str(&indent(&pretty(&crate::deep::Deep(&without_binary(&err.details))), "  "));
        }
    }
    if let Some(m) = &e.message
        && e.response_type != ResponseType::Error
    {
        out.push_str(&sanitize::text(m));
        out.push('\n');
    }
    // A text sent again as structuredContent is printed once (--json has both).
    if !e.data.is_null() && !crate::envelope::twin::data_repeats_message(e) {
        // The numbers as sent, when reading rewrote some.
        let exact = e.data_exact.as_deref().and_then(|t| crate::json_depth::parse_borrowed::<&RawValue>(t).ok());
        let shown = match without_binary(e.data.json()) {
            std::borrow::Cow::Owned(elided) => pretty(&elided),
            std::borrow::Cow::Borrowed(_) => exact.map_or_else(|| pretty(&e.data), pretty),
        };
        out.push_str(&shown);
        out.push('\n');
    }
    if let Some(meta) = &e.metadata {
        let keys: Vec<String> =
            meta.keys().filter(|k| *k != "source").map(|k| sanitize::line(k).into_owned()).collect();
        if !keys.is_empty() {
            out.push_str(&format!("metadata: {} (see --json)\n", keys.join(", ")));
        }
    }
    out
}

/// Base64 shorter than this is printed as it is (a tiny icon reads as fast as its size).
const BINARY_SHOWN: usize = 256;

/// The data with the base64 of its images, audio and blobs (content items or embedded resources,
/// at the top level or in a top-level list) said by its size: the readable output is for a
/// person, and a screenshot's megabytes of base64 would fill the terminal (--json keeps them).
fn without_binary(data: &Value) -> std::borrow::Cow<'_, Value> {
    let items = match data {
        Value::Array(items) => items.as_slice(),
        one => std::slice::from_ref(one),
    };
    if !items.iter().any(|i| binary_member(i).is_some()) {
        return std::borrow::Cow::Borrowed(data);
    }
    let mut data = data.clone();
    match &mut data {
        Value::Array(items) => items.iter_mut().for_each(elide_binary),
        one => elide_binary(one),
    }
    std::borrow::Cow::Owned(data)
}

/// Where an item's long base64 is: `data` of an image or audio item, `blob` of a resource (or of
/// an embedded resource's `resource`).
fn binary_member(item: &Value) -> Option<(&str, &str)> {
    let holder = item.get("resource").filter(|r| r.is_object()).unwrap_or(item);
    ["data", "blob"].into_iter().find_map(|key| {
        let text = holder.get(key)?.as_str()?;
        let base64 = text.len() > BINARY_SHOWN
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_' | b'\n' | b'\r'));
        base64.then_some((key, text))
    })
}

fn elide_binary(item: &mut Value) {
    let Some((key, text)) = binary_member(item) else { return };
    let said = format!("({} of base64, not printed: --json has it)", super::items::human_size(text.len() as u64));
    let key = key.to_string();
    let holder = if item.get("resource").is_some_and(Value::is_object) { &mut item["resource"] } else { item };
    holder[key.as_str()] = Value::String(said);
}
