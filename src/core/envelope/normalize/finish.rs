//! Stages 3 to 6 of `normalize_in`, once the payload is unwrapped: the full list an
//! Agentman-style `_meta` may hold, content items and prose, the classification, the error, and
//! the paging.

use serde_json::{Map, Value};

use super::payload::Payload;
use super::{
    Found, Work, cursor_in_last_record, is_action_tool, is_catalog_tool, is_record_array, looks_like_tool, name_words,
    only_counts_changes, only_member, page_count_keys, primary_array, scan_copy_map, shapes,
};
use crate::envelope::{Pagination, ResponseType, Status, Summary, position, text};
use crate::skeleton::array_len;

/// The data as it is being read, and whether it is a list.
pub(super) struct Reading {
    pub data: Value,
    pub is_list: bool,
}

/// An Agentman-style `_meta` holding the full list that structuredContent only samples.
pub(super) fn full_list_in_meta(r: &mut Reading, has_structured: bool, w: &mut Work) {
    let meta_list = w.meta.get("_meta").and_then(Value::as_object).and_then(|m| {
        let key = primary_array(m)?;
        match m.get(&key) {
            Some(Value::Array(full)) if is_record_array(full) => Some((key, array_len(full))),
            _ => None,
        }
    });
    if let (Some((key, full_len)), true) = (meta_list, has_structured)
        && full_len > r.data.as_array().map_or(0, |a| array_len(a))
        && let Some(full) = w.meta.get("_meta").and_then(|m| m.get(&key)).cloned()
    {
        if !r.data.is_null() {
            w.meta.insert("structuredContentData".into(), std::mem::take(&mut r.data));
        }
        w.source = format!("_meta → {key} (larger than structuredContent's)");
        r.data = full;
        r.is_list = true;
    }
}

/// Content items that are not text (the data when nothing else is), and the prose (the message).
pub(super) fn place_content(r: &mut Reading, others: &[Value], prose_text: Option<&String>, w: &mut Work) {
    if !others.is_empty() {
        if r.data.is_null() && w.error.is_none() {
            w.source = "content items".into();
            r.data = if others.len() == 1 { others[0].clone() } else { Value::Array(others.to_vec()) };
            r.is_list = r.data.is_array();
        } else {
            w.meta.insert("content".into(), Value::Array(others.to_vec()));
        }
    }
    if let Some(p) = prose_text {
        if w.message.is_none() {
            w.message = Some(p.clone());
        } else {
            w.meta.insert("text".into(), Value::String(p.clone()));
        }
    }
}

/// A list tool's "No results found" is an empty list, said in the message.
pub(super) fn nothing_found(r: &mut Reading, p: &Payload, no_items: bool, tool: &str, d: Option<&Value>, w: &mut Work) {
    // The sentence may also come wrapped (FastMCP's `{"result": "No results found"}`).
    let wrapped = only_member(&r.data).and_then(Value::as_str).is_some_and(|s| Some(s) == p.prose_text.as_deref());
    if (r.data.is_null() || wrapped)
        && !w.is_error
        && w.error.is_none()
        && !p.failure_text
        && no_items
        && p.prose_text.as_deref().is_some_and(shapes::says_nothing_found)
        && shapes::list_shaped(&name_words(tool), d)
    {
        r.data = Value::Array(vec![]);
        r.is_list = true;
        w.source = "content[0].text → nothing found".into();
    }
}

/// The response type the data, the status and the tool say.
pub(super) fn classify(r: &Reading, failure_text: bool, tool: &str, d: Option<&Value>, w: &Work) -> ResponseType {
    if w.is_error || w.error.is_some() || w.status == Some(Status::Error) || failure_text {
        return ResponseType::Error;
    }
    if !r.is_list {
        return if is_action_tool(tool, d) { ResponseType::Action } else { ResponseType::Single };
    }
    let items = r.data.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let tools = items.iter().filter(|v| looks_like_tool(v)).count();
    if (!items.is_empty() && tools * 5 >= items.len() * 4) || (is_catalog_tool(tool) && tools > 0) {
        ResponseType::ToolCatalog
    } else if only_counts_changes(items) {
        ResponseType::Action
    } else {
        ResponseType::List
    }
}

/// The status, the error (its message, an HTTP status in it, its details) and the data's
/// final shape for `response_type`.
pub(super) fn settle(response_type: ResponseType, data: &mut Value, prose_text: Option<&String>, w: &mut Work) {
    if response_type == ResponseType::Error {
        w.status = Some(Status::Error);
        let mut e = w.error.take().unwrap_or_default();
        if e.message.is_none() {
            e.message = w.message.clone().or_else(|| prose_text.cloned());
        }
        if e.code.is_null()
            && let Some(status) = e.message.as_deref().and_then(text::http_status_in)
        {
            e.code = Value::from(status);
        }
        if e.details.is_null() && !data.is_null() {
            e.details = data.clone();
        }
        if w.message.is_none() {
            w.message = e.message.clone();
        }
        w.error = Some(e);
        if !data.is_null() {
            w.meta.insert("errorPayload".into(), std::mem::take(data));
        }
    } else if w.status.is_none() {
        w.status = Some(Status::Success);
    }
    if response_type == ResponseType::Action
        && let Value::Array(a) = data
        && only_counts_changes(a)
    {
        // The write's counts are the action's data, an object as the envelope has it.
        *data = a.pop().unwrap_or_default();
    }
    if matches!(response_type, ResponseType::Single | ResponseType::Action) && !data.is_object() && !data.is_null() {
        // structuredContent that is no object breaks the spec; the value is kept, not renamed.
        w.meta.insert("payload".into(), std::mem::take(data));
    }
}

/// Where paging is read, closest first.
pub(super) struct Scopes<'a> {
    pub list: Option<&'a Map<String, Value>>,
    pub structured: Option<&'a Map<String, Value>>,
}

/// Pagination and totals: the list wrapper first, then wrappers, structuredContent, `_meta`,
/// then the prose.
pub(super) fn paging(
    data: &Value,
    scopes: Scopes,
    p: &Payload,
    descriptor: Option<&Value>,
    w: &Work,
) -> (Option<Pagination>, Option<Summary>) {
    let mut found = Found { page_counts: page_count_keys(descriptor), ..Found::default() };
    for s in scopes.list.into_iter().chain(w.scopes.iter().rev()).chain(scopes.structured) {
        found.scan(s);
    }
    if let Some(Value::Object(m)) = w.meta.get("_meta") {
        found.scan(&scan_copy_map(m));
    }
    let returned = data.as_array().map(|a| array_len(a) as u64);
    let (mut pagination, mut total) = found.finish(returned);
    if total.is_none()
        && returned.is_some()
        && let Some(t) = &p.prose_text
    {
        total = position::total_in_prose(t).filter(|t| Some(*t) >= returned);
        // "Found 37 issues" beside two: more than the page, so the whole list's count.
        total = total.or_else(|| position::found_in_prose(t).filter(|n| Some(*n) > returned));
    }
    if pagination.is_none() && p.from_text_records {
        // Records read from text are whole (never a skeleton's sample), so the last one is there.
        pagination = cursor_in_last_record(data);
    }
    if pagination.is_none()
        && let Some(t) = &p.prose_text
    {
        pagination = position::in_prose(t, descriptor.and_then(|d| d.get("inputSchema")));
    }
    let summary = match (returned, total, &pagination) {
        (None, None, None) => None,
        _ => Some(Summary { total, returned, has_more: pagination.as_ref().and_then(|p| p.has_more) }),
    };
    (pagination, summary)
}
