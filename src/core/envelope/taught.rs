//! Normalizing with what the user taught (a hint): the heuristics run first (status, error,
//! message), then the hint's records, next position and responseType replace what they found.

use serde_json::{Map, Value};

use super::hints::{self, Hint};
use super::normalize::records_from_prose;
use super::{Data, Envelope, ResponseType, Summary, normalize_owned, normalize_reply, position};
use crate::mcp::ReplyBody;
use crate::skeleton::Elisions;

/// The envelope of a reply, with `hint` applied when there is one.
pub fn normalize_taught(
    tool: &str,
    descriptor: Option<&Value>,
    body: ReplyBody,
    el: Elisions,
    hint: Option<&Hint>,
) -> Envelope {
    let Some(hint) = hint else { return normalize_reply(tool, descriptor, body, el) };
    let mut result = match body {
        ReplyBody::Result(r) => r,
        other => return normalize_reply(tool, descriptor, other, el),
    };
    // A hint's paths address the whole result, so the reply is read in full.
    el.expand(&mut result);
    let mut env = normalize_owned(tool, descriptor, ReplyBody::Result(result.clone()));
    apply(hint, &result, &mut env);
    env
}

/// Lays `hint` over `env`, the envelope of `result`.
pub fn apply(hint: &Hint, result: &Value, env: &mut Envelope) {
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return;
    }
    let mut steps = vec![format!("hint for {}", hint.tool)];
    if let Some(path) = &hint.records {
        match hints::resolve(result, path) {
            Some(v) => {
                let (data, how) = records(v);
                steps.push(format!("records at {path}{how}"));
                env.response_type = if data.is_array() { ResponseType::List } else { ResponseType::Single };
                env.data = Data::Value(data);
            }
            None => steps.push(format!("nothing at {path}")),
        }
    }
    if let Some(t) = hint.response_type() {
        env.response_type = t;
    }
    let position = match (&hint.next, &hint.next_pattern) {
        (Some(path), _) => Some(hints::resolve(result, path)),
        (None, Some(pattern)) => Some(position::by_pattern(pattern, &texts(result))),
        (None, None) => None,
    };
    if let Some(position) = position {
        steps.push(match (&hint.next, &position) {
            (Some(path), _) => format!("next position at {path}"),
            (None, Some(_)) => "next position by pattern".into(),
            (None, None) => "no next position (pattern not found)".into(),
        });
        env.pagination = Some(position::from_hint(position, hint.argument.as_deref()));
    }
    let returned = env.data.is_array().then(|| env.data.item_count() as u64);
    let has_more = env.pagination.as_ref().and_then(|p| p.has_more);
    let total = env.summary.as_ref().and_then(|s| s.total);
    env.summary = Some(Summary { total, returned, has_more });
    let meta = env.metadata.get_or_insert_with(Map::new);
    let before = meta.get("source").and_then(Value::as_str).map(str::to_string);
    if let Some(b) = before {
        meta.insert("heuristicSource".into(), Value::String(b));
    }
    meta.insert("source".into(), Value::String(steps.join(" → ")));
}

/// The records a value holds: itself, or what a text carries (JSON, records written as text,
/// else one record per line); and how they were read.
fn records(v: Value) -> (Value, String) {
    let Value::String(s) = v else { return (v, String::new()) };
    if let Some(decoded) = hints::decoded(&s) {
        return (decoded, " → JSON".into());
    }
    if let Some((rows, _, how)) = records_from_prose(std::slice::from_ref(&s), "") {
        return (Value::Array(rows), format!(" → {how}"));
    }
    let lines = s.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| Value::String(l.to_string()));
    (Value::Array(lines.collect()), " → lines".into())
}

fn texts(result: &Value) -> Vec<&str> {
    let blocks = result.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn taught(result: Value, hint: Hint) -> Envelope {
        normalize_taught("t", None, ReplyBody::Result(result), Elisions::default(), Some(&hint))
    }

    #[test]
    fn records_and_a_next_position_taught() {
        let r = json!({"content": [{"type": "text", "text": "{\"out\": {\"rows\": [{\"a\": 1}, {\"a\": 2}]}, \"k\": \"n2\"}"}]});
        let hint = Hint {
            tool: "t".into(),
            records: Some("/content/0/text/out/rows".into()),
            next: Some("/content/0/text/k".into()),
            argument: Some("page_key".into()),
            ..Hint::default()
        };
        let e = taught(r, hint);
        assert_eq!(e.response_type, ResponseType::List);
        assert_eq!(e.data, json!([{"a": 1}, {"a": 2}]));
        let p = e.pagination.clone().unwrap_or_default();
        assert_eq!(
            (p.has_more, p.next_offset, p.argument.as_deref()),
            (Some(true), Some(json!("n2")), Some("page_key"))
        );
        let schema = json!({"properties": {"page_key": {"type": "string"}}});
        let next = super::super::pager::next_arguments(Some(&schema), &Map::new(), &e).ok().flatten();
        assert_eq!(next.map(|(a, _)| Value::Object(a)), Some(json!({"page_key": "n2"})));
    }

    #[test]
    fn lines_of_a_text_and_a_pattern() {
        let r = json!({"content": [{"type": "text", "text": "alpha\nbeta\ngamma\n\n(more after token=XYZ)"}]});
        let hint = Hint {
            tool: "t".into(),
            records: Some("/content/0/text".into()),
            next_pattern: Some("token=(\\w+)".into()),
            ..Hint::default()
        };
        let e = taught(r, hint);
        assert_eq!(e.item_count(), 3);
        assert_eq!(e.pagination.and_then(|p| p.next_offset), Some(json!("XYZ")));
    }
}
