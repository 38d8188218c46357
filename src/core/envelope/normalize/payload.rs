//! Stages 0 and 1 of `normalize_in`: the result taken apart (content, structuredContent, the
//! rest into metadata), and where its payload is.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{
    Content, Work, block_error, decode, json_doc, json_text_doc, only_member, records_from_prose, repeated_text_key,
    same_blocks, scan_copy, split_content, text, text_repeats_long_array, wrapped_result, wrapped_string_payload,
};
use crate::skeleton::Elisions;

/// The result taken apart.
pub(super) struct Parts {
    pub content: Content,
    pub structured: Option<Value>,
    /// structuredContent that only repeats a text block under this key.
    pub text_twin: Option<(String, Value)>,
    /// structuredContent's scalars, for paging.
    pub structured_scan: Option<Map<String, Value>>,
}

/// Where the payload is, and the prose around it.
pub(super) struct Payload {
    pub value: Option<Value>,
    pub prose_text: Option<String>,
    pub from_text_records: bool,
    /// A text that only reports a failure.
    pub failure_text: bool,
}

/// Takes `result` apart: content, structuredContent, and the rest into `w.meta`.
pub(super) fn take_apart(result: Value, w: &mut Work, el: &mut Elisions) -> Parts {
    let mut result_obj = match result {
        Value::Object(m) => m,
        other => {
            w.meta.insert("result".into(), other);
            Map::new()
        }
    };
    w.is_error = result_obj.get("isError").and_then(Value::as_bool) == Some(true);
    // structuredContent that only restates the content blocks (`{"result": [{type, text}]}`, an
    // SDK wrapping a tool that returns content) is no payload of its own.
    let structured = result_obj.shift_remove("structuredContent").filter(|v| {
        let content = result_obj.get("content");
        !v.is_null() && !content.is_some_and(|c| same_blocks(c, v) || only_member(v).is_some_and(|m| same_blocks(c, m)))
    });
    let content = split_content(result_obj.shift_remove("content"), &mut w.meta, el, structured.as_ref());
    w.error = block_error(&content.others);
    for (k, v) in std::mem::take(&mut result_obj) {
        keep_member(w, k, v);
    }
    if !content.text_fields.is_empty() {
        w.meta.insert("textBlocks".into(), Value::Array(content.text_fields.clone()));
    }
    // structuredContent that only repeats a text block under one key (`{"content": text}`, as
    // the filesystem server sends) is that text: it is read as text.
    let (structured, text_twin) = match repeated_text_key(structured.as_ref(), &content.texts) {
        Some(key) => (None, structured.map(|sc| (key, sc))),
        None => (structured, None),
    };
    let structured_scan = structured.as_ref().map(scan_copy);
    Parts { content, structured, text_twin, structured_scan }
}

/// A member of the result beside content and structuredContent, kept in metadata.
fn keep_member(w: &mut Work, k: String, v: Value) {
    match k.as_str() {
        "isError" => {}
        "_meta" => {
            if let Some(m) = v.as_object() {
                for key in ["uiType", "uiMetadata"] {
                    if let Some(x) = m.get(key) {
                        w.meta.insert(key.into(), x.clone());
                    }
                }
            }
            w.meta.insert("_meta".into(), v);
        }
        _ => {
            w.meta.insert(k, v);
        }
    }
}

/// Where the payload is: structuredContent, JSON in the texts, records written as text, one
/// `Key: value` record, or the object a text repeats.
pub(super) fn find_payload(parts: &mut Parts, tool_name: &str, w: &mut Work, el: &mut Elisions) -> Payload {
    let mut prose: Vec<String> = vec![];
    let texts = &parts.content.texts;
    let (mut value, from_text_records) = match parts.structured.take() {
        Some(sc) => (Some(from_structured(sc, texts, w, el, &mut prose)), false),
        None => from_texts(texts, tool_name, w, el, &mut prose),
    };
    let at = if texts.len() == 1 { "content[0].text".to_string() } else { "content texts".into() };
    // A text that only reports a failure is an error whatever records it seems to hold.
    let text_only = value.is_none() || from_text_records;
    if value.is_none()
        && prose.len() == 1
        && let Some(record) = text::key_value_block(&prose[0])
    {
        w.source = format!("{at} → Key: value lines");
        value = Some(Value::Object(record));
        prose.clear();
    }
    let failure_text = text_only && texts.first().is_some_and(|t| text::is_failure_text(t));
    if let Some((key, sc)) = parts.text_twin.take() {
        w.source = match w.source.is_empty() {
            true => format!("content[0].text (structuredContent.{key} repeats it)"),
            false => format!("{} (structuredContent.{key} repeats it)", w.source),
        };
        // A document: the object as sent, its text the message.
        value = value.or(Some(sc));
    }
    let prose_text = (!prose.is_empty()).then(|| prose.join("\n\n"));
    Payload { value, prose_text, from_text_records, failure_text }
}

/// structuredContent as the payload; the texts that do not repeat it are prose or kept.
fn from_structured(
    sc: Value,
    texts: &[Arc<String>],
    w: &mut Work,
    el: &mut Elisions,
    prose: &mut Vec<String>,
) -> Value {
    w.source = "structuredContent".into();
    // The spec asks servers to repeat structuredContent as JSON text: that is no prose. A big
    // text is compared as text first, which costs a copy of the text, not a parse of it.
    let compact = |t: &str| t.len() > (4 << 20) && serde_json::to_string(&sc).is_ok_and(|s| s == t.trim());
    let member = wrapped_result(&sc);
    // A JSON string wrapped as the result is the payload it encodes.
    let decoded = member.and_then(Value::as_str).and_then(json_doc);
    let repeats_member = |t: &str| {
        // A wrapped number or boolean written again as text; a wrapped prose string stays
        // the message.
        member.is_some_and(|r| {
            !r.is_string() && !r.is_array() && serde_json::from_str::<Value>(t.trim()).is_ok_and(|v| v == *r)
        })
    };
    for t in texts {
        if compact(t) || repeats_member(t) || text_repeats_long_array(t, &sc, el) {
            continue;
        }
        match json_text_doc(t, el) {
            Some(v)
                if el.same(&v, &sc)
                    || only_member(&sc).is_some_and(|m| el.same(&v, m))
                    || decoded.as_ref().is_some_and(|d| el.same(&v, d)) => {}
            Some(v) => {
                if let Some(a) = w.meta.entry("textPayloads").or_insert_with(|| json!([])).as_array_mut() {
                    a.push(v);
                }
            }
            None => prose.push(t.to_string()),
        }
    }
    if decoded.is_some() {
        w.source.push_str(" → result → JSON string");
    }
    decoded.unwrap_or(sc)
}

/// The JSON the texts carry (one document, or several made one list), else records written as
/// text; and whether they were.
fn from_texts(
    texts: &[Arc<String>],
    tool_name: &str,
    w: &mut Work,
    el: &mut Elisions,
    prose: &mut Vec<String>,
) -> (Option<Value>, bool) {
    let (docs, steps) = json_docs(texts, el, prose);
    let payload = match docs.len() {
        0 => None,
        1 => {
            let (i, v) = docs.into_iter().next().unwrap_or((0, Value::Null));
            w.source = format!("content[{i}].text{steps}");
            Some(v)
        }
        n => {
            w.source = format!("{n} JSON text blocks");
            let mut all = vec![];
            for (_, v) in docs {
                match v {
                    Value::Array(a) => all.extend(a),
                    other => all.push(other),
                }
            }
            Some(Value::Array(all))
        }
    };
    if payload.is_none()
        && !prose.is_empty()
        && let Some((list, rest, how)) = records_from_prose(prose, tool_name)
    {
        let at = if texts.len() == 1 { "content[0].text".to_string() } else { "content texts".into() };
        w.source = format!("{at} → {how}");
        *prose = if rest.is_empty() { vec![] } else { vec![rest] };
        return (Some(Value::Array(list)), true);
    }
    (payload, false)
}

/// The JSON documents of the texts, with their block's index, and the steps to the last one;
/// the rest of the texts go to `prose`.
fn json_docs(texts: &[Arc<String>], el: &mut Elisions, prose: &mut Vec<String>) -> (Vec<(usize, Value)>, String) {
    let mut docs: Vec<(usize, Value)> = vec![];
    let mut steps = String::new();
    for (i, t) in texts.iter().enumerate() {
        if let Some(v) = json_text_doc(t, el) {
            match wrapped_string_payload(&v) {
                Some((key, f)) => {
                    docs.push((i, f.value));
                    steps = std::iter::once(format!(" → JSON → {key}"))
                        .chain(f.steps.iter().map(|s| format!(" → {s}")))
                        .collect();
                    if !f.prose.is_empty() {
                        prose.push(f.prose);
                    }
                }
                None => {
                    docs.push((i, v));
                    steps = " → JSON".into();
                }
            }
        } else if let Some(f) = decode::json_in_text(t) {
            docs.push((i, f.value));
            steps = f.steps.iter().map(|s| format!(" → {s}")).collect();
            if !f.prose.is_empty() {
                prose.push(f.prose);
            }
        } else {
            prose.push(t.to_string());
        }
    }
    (docs, steps)
}
