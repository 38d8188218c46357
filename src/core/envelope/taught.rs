//! Normalizing with what the user taught (a hint): the heuristics run first (status, error,
//! message), then the hint's records, next position and responseType replace what they found.

use serde_json::{Map, Value};

use super::hints::{self, Hint};
use super::normalize::records_from_prose;
use super::pagination::Found;
use super::shapes;
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
    let mut beside = None;
    if let Some(path) = &hint.records {
        match hints::resolve(result, path) {
            Some(v) => {
                beside = around(result, path);
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
    let mut total = env.summary.as_ref().and_then(|s| s.total);
    if let Some(fields) = beside {
        // `total`, `page`, `perpage` beside the taught records are their total and paging.
        let mut found = Found::default();
        found.scan(&fields);
        let (paging, stated) = found.finish(returned);
        total = stated.or(total);
        if hint.next.is_none() && hint.next_pattern.is_none() {
            env.pagination = paging.or(env.pagination.take());
        }
    }
    let has_more = env.pagination.as_ref().and_then(|p| p.has_more);
    env.summary = Some(Summary { total, returned, has_more });
    let meta = env.metadata.get_or_insert_with(Map::new);
    let before = meta.get("source").and_then(Value::as_str).map(str::to_string);
    if let Some(b) = before {
        meta.insert("heuristicSource".into(), Value::String(b));
    }
    meta.insert("source".into(), Value::String(steps.join(" → ")));
}

/// The scalars beside the value at `path` (the members of the object that holds it).
fn around(result: &Value, path: &str) -> Option<Map<String, Value>> {
    let (parent, _) = path.rsplit_once('/')?;
    let holder = match hints::resolve(result, parent)? {
        Value::String(s) => hints::decoded(&s)?,
        other => other,
    };
    let fields: Map<String, Value> =
        holder.as_object()?.iter().filter(|(_, v)| !v.is_array()).map(|(k, v)| (k.clone(), v.clone())).collect();
    (!fields.is_empty()).then_some(fields)
}

/// The records a value holds: itself, a map of records keyed by id (its records), or what a
/// text carries (JSON, records written as text, else one record per line); and how they were read.
fn records(v: Value) -> (Value, String) {
    if shapes::keyed_records(&v).is_some() {
        return (shapes::into_records(v).0, " → records keyed by id".into());
    }
    let Value::String(s) = v else { return (v, String::new()) };
    if let Some(decoded) = hints::decoded(&s) {
        return match shapes::keyed_records(&decoded) {
            Some(_) => (shapes::into_records(decoded).0, " → JSON → records keyed by id".into()),
            None => (decoded, " → JSON".into()),
        };
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
    fn records_taught_at_a_keyed_map_with_paging_beside() {
        // YOURLS: links keyed by id, with the total and the page beside them.
        let body = json!({"links": {"link_3": {"shorturl": "c", "clicks": 9}, "link_1": {"shorturl": "a", "clicks": 2}}, "total": 5, "page": 1, "perpage": 2});
        let r = json!({"content": [{"type": "text", "text": body.to_string()}]});
        let hint = Hint { tool: "t".into(), records: Some("/content/0/text/links".into()), ..Hint::default() };
        let e = taught(r, hint);
        assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
        assert_eq!(e.items().next().map(|v| v.into_owned()), Some(json!({"shorturl": "c", "clicks": 9})));
        let s = e.summary.clone().unwrap_or_default();
        assert_eq!((s.returned, s.total, s.has_more), (Some(2), Some(5), Some(true)));
        let p = e.pagination.unwrap_or_default();
        assert_eq!((p.page, p.limit, p.next_offset), (Some(1), Some(2), Some(json!(2))));
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
