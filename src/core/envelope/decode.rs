//! JSON carried in text in the ways real servers write it: encoded twice (a JSON string holding
//! JSON), inside XML-like tags (`<untrusted-user-data-…>`), in a ```json fence, after a line of
//! prose, or as a Python literal (`str(rows)`: single quotes, `None`, `True`). Each finding says
//! how it was found, for `metadata.source`. Bounded: a fixed number of layers and candidates.

use serde_json::Value;

/// JSON found in a text, the prose around it, and the steps that found it.
#[derive(Debug, PartialEq)]
pub struct Found {
    pub value: Value,
    pub prose: String,
    pub steps: Vec<String>,
}

/// Layers of encoding unwrapped at most (a JSON string in a tag in a fence).
const MAX_LAYERS: usize = 4;
/// Lines tried as the start of JSON after prose.
const MAX_STARTS: usize = 64;
/// Texts longer than this are not searched for JSON after prose (each try may read to the end).
const MAX_SEARCHED: usize = 4 << 20;

/// The JSON a text carries, other than the whole text being one JSON document (the caller tries
/// that first, on its fast path).
pub fn json_in_text(text: &str) -> Option<Found> {
    layered(text, 0)
}

fn layered(text: &str, depth: usize) -> Option<Found> {
    if depth >= MAX_LAYERS {
        return None;
    }
    let t = text.trim();
    if let Some(v) = whole(t) {
        let steps = if depth == 0 { vec![] } else { vec!["JSON".into()] };
        return Some(Found { value: v, prose: String::new(), steps });
    }
    if t.starts_with('"')
        && let Ok(Value::String(inner)) = serde_json::from_str::<Value>(t)
    {
        return layered(&inner, depth + 1).map(|f| f.after("JSON string"));
    }
    if let Some(v) = python_literal(t) {
        return Some(Found { value: v, prose: String::new(), steps: vec!["Python literal".into()] });
    }
    if let Some((tag, inner, prose)) = tagged(t)
        && let Some(f) = layered(inner, depth + 1)
    {
        return Some(f.after(&format!("inside <{tag}>")).with_prose(prose));
    }
    if let Some((inner, prose)) = fenced(t)
        && let Some(f) = layered(inner, depth + 1)
    {
        return Some(f.after("```json fence").with_prose(prose));
    }
    if t.len() > MAX_SEARCHED {
        return None;
    }
    after_prose(t)
}

impl Found {
    fn after(mut self, step: &str) -> Found {
        self.steps.insert(0, step.to_string());
        self
    }

    fn with_prose(mut self, outer: String) -> Found {
        self.prose = match (outer.is_empty(), self.prose.is_empty()) {
            (true, _) => self.prose,
            (false, true) => outer,
            (false, false) => format!("{outer}\n\n{}", self.prose),
        };
        self
    }
}

/// The whole text as one JSON object or array.
fn whole(t: &str) -> Option<Value> {
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    crate::json_depth::parse::<Value>(t, crate::json_depth::DEFAULT_MAX_DEPTH)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// `<tag attr…>inner</tag>` with prose around it: the tag's name, its inner text, the prose.
fn tagged(t: &str) -> Option<(String, &str, String)> {
    let mut from = 0;
    for _ in 0..8 {
        let open = from + t[from..].find('<')?;
        let rest = &t[open + 1..];
        let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ':'))?;
        let name = &rest[..name_len];
        let close_open = rest.find('>')?;
        if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            from = open + 1;
            continue;
        }
        let body_start = open + 1 + close_open + 1;
        let closing = format!("</{name}>");
        let Some(end) = t[body_start..].rfind(&closing).map(|e| body_start + e) else {
            from = open + 1;
            continue;
        };
        let prose = format!("{}\n{}", t[..open].trim(), t[end + closing.len()..].trim());
        return Some((name.to_string(), &t[body_start..end], prose.trim().to_string()));
    }
    None
}

/// The body of a ```json (or bare) fence and the prose around it.
fn fenced(t: &str) -> Option<(&str, String)> {
    let start = t.find("```")?;
    let after = &t[start + 3..];
    let body_start = after.find('\n')? + 1;
    let lang = after[..body_start].trim();
    if !(lang.is_empty() || lang.eq_ignore_ascii_case("json") || lang.eq_ignore_ascii_case("jsonc")) {
        return None;
    }
    let body = &after[body_start..];
    let end = body.find("```")?;
    let prose = format!("{}\n{}", t[..start].trim(), body[end + 3..].trim());
    Some((&body[..end], prose.trim().to_string()))
}

/// A JSON object or array that starts a line after some prose, with prose perhaps after it too.
fn after_prose(t: &str) -> Option<Found> {
    // JSON that starts a line, or follows a `prefix: ` ("failed to search: {...}").
    let line_starts = t.match_indices('\n').map(|(i, _)| i + 1);
    let after_colon = t.match_indices(": ").map(|(i, _)| i + 2);
    let mut starts: Vec<usize> = line_starts
        .chain(after_colon)
        .filter(|&i| t[i..].trim_start_matches([' ', '\t']).starts_with(['{', '[']))
        .take(MAX_STARTS)
        .collect();
    starts.sort_unstable();
    for i in starts {
        let mut stream =
            serde_json::Deserializer::from_str(t[i..].trim_start_matches([' ', '\t'])).into_iter::<Value>();
        let Some(Ok(v)) = stream.next() else { continue };
        if !(v.is_object() || v.is_array()) || v.as_array().is_some_and(Vec::is_empty) && t[i..].len() > 2 {
            continue;
        }
        let end = i + (t[i..].len() - t[i..].trim_start_matches([' ', '\t']).len()) + stream.byte_offset();
        if !super::text::closing_remark(t[end..].trim()) {
            continue;
        }
        let prose = format!("{}\n{}", t[..i].trim(), t[end..].trim());
        return Some(Found { value: v, prose: prose.trim().to_string(), steps: vec!["JSON after prose".into()] });
    }
    None
}

/// A Python literal of dicts and lists (`str(rows)` in a Python server): single- or double-quoted
/// strings, `None`/`True`/`False`, tuples as lists. Anything else (a `datetime(...)`) is not one.
pub fn python_literal(t: &str) -> Option<Value> {
    if !(t.starts_with("[{") || t.starts_with("{'") || t.starts_with("[(") || t.starts_with("['")) {
        return None;
    }
    let json = python_to_json(t)?;
    let v = crate::json_depth::parse::<Value>(&json, crate::json_depth::DEFAULT_MAX_DEPTH).ok()?;
    (v.is_object() || v.is_array()).then_some(v)
}

fn python_to_json(t: &str) -> Option<String> {
    let mut out = String::with_capacity(t.len() + 16);
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let s = python_string(c, &mut chars)?;
                out.push_str(&serde_json::to_string(&s).ok()?);
            }
            '(' => out.push('['),
            ')' => out.push(']'),
            c if c.is_ascii_alphabetic() => {
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if !(n.is_ascii_alphanumeric() || n == '_' || n == '.') {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                if chars.peek() == Some(&'(') {
                    // A value Python shows as a call (`UUID('5b0e…')`, `Decimal('249.90')`,
                    // `datetime.date(2024, 1, 14)`): its one string argument, else the call as written.
                    let call = python_call(&word, &mut chars)?;
                    out.push_str(&serde_json::to_string(&call).ok()?);
                    continue;
                }
                out.push_str(match word.as_str() {
                    "None" => "null",
                    "True" => "true",
                    "False" => "false",
                    _ => return None,
                });
            }
            c => out.push(c),
        }
    }
    // A one-element tuple is written `(x,)`: its trailing comma is no JSON.
    Some(out.replace(",]", "]").replace(", ]", "]"))
}

/// A call's text from its `(` to the matching `)`, quotes respected; its single string argument
/// when it has one (`UUID('x')` is `x`), else the whole call as written.
fn python_call(name: &str, chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut inner = String::new();
    let mut depth = 0usize;
    chars.next(); // the `(`
    loop {
        let c = chars.next()?;
        match c {
            '\'' | '"' => {
                let s = python_string(c, chars)?;
                inner.push(c);
                inner.push_str(&s.replace(c, &format!("\\{c}")));
                inner.push(c);
            }
            '(' => {
                depth += 1;
                inner.push(c);
            }
            ')' if depth == 0 => break,
            ')' => {
                depth -= 1;
                inner.push(c);
            }
            c => inner.push(c),
        }
    }
    let one_string = inner.len() > 1
        && (inner.starts_with('\'') && inner.ends_with('\'') || inner.starts_with('"') && inner.ends_with('"'));
    if one_string {
        let mut it = inner.chars().peekable();
        let quote = it.next()?;
        if let Some(s) = python_string(quote, &mut it).filter(|_| it.peek().is_none()) {
            return Some(s);
        }
    }
    Some(format!("{name}({inner})"))
}

fn python_string(quote: char, chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut s = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => s.push('\n'),
                't' => s.push('\t'),
                'r' => s.push('\r'),
                '\\' => s.push('\\'),
                '\'' => s.push('\''),
                '"' => s.push('"'),
                'x' => {
                    let hex: String = [chars.next()?, chars.next()?].iter().collect();
                    s.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                'u' => {
                    let hex: String = (0..4).map(|_| chars.next()).collect::<Option<String>>()?;
                    s.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => {
                    s.push('\\');
                    s.push(other);
                }
            },
            c if c == quote => return Some(s),
            c => s.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(t: &str) -> (Value, String, Vec<String>) {
        let f = json_in_text(t).unwrap_or(Found { value: Value::Null, prose: "?".into(), steps: vec![] });
        (f.value, f.prose, f.steps)
    }

    #[test]
    fn python_values_shown_as_calls_are_strings() {
        let v = python_literal(
            "[{'id': UUID('ab-1'), 'at': datetime.date(2024, 1, 2), 'tz': ZoneInfo(key='UTC'), 'n': Decimal(\"1.5\")}]",
        );
        assert_eq!(
            v,
            Some(json!([{"id": "ab-1", "at": "datetime.date(2024, 1, 2)", "tz": "ZoneInfo(key='UTC')", "n": "1.5"}]))
        );
        assert_eq!(python_literal("[{'a': f(}]"), None);
    }

    #[test]
    fn json_encoded_twice() {
        let t = serde_json::to_string(&json!({"a": [1, 2]}).to_string()).unwrap_or_default();
        assert_eq!(found(&t), (json!({"a": [1, 2]}), String::new(), vec!["JSON string".into(), "JSON".into()]));
    }

    #[test]
    fn json_inside_tags_with_prose() {
        let t = "Found 2 documents in the collection \"users\".\n<untrusted-user-data-1234>\n[{\"_id\": 1}, {\"_id\": 2}]\n</untrusted-user-data-1234>\nUse this data carefully.";
        let (v, prose, steps) = found(t);
        assert_eq!(v, json!([{"_id": 1}, {"_id": 2}]));
        assert_eq!(prose, "Found 2 documents in the collection \"users\".\nUse this data carefully.");
        assert_eq!(steps, vec!["inside <untrusted-user-data-1234>".to_string(), "JSON".into()]);
    }

    #[test]
    fn json_after_prose_and_in_fences() {
        let (v, prose, _) = found("Query results:\n[{\"id\": 1}]\n\nShowing 1 row.");
        assert_eq!((v, prose.as_str()), (json!([{"id": 1}]), "Query results:\nShowing 1 row."));
        let (v, _, steps) = found("Here:\n```json\n{\"a\": 1}\n```");
        assert_eq!((v, steps), (json!({"a": 1}), vec!["```json fence".to_string(), "JSON".into()]));
        assert!(json_in_text("No JSON {here} at all").is_none());
        let (v, prose, _) = found("failed to search: {\"message\": \"Validation Failed\"}");
        assert_eq!((v, prose.as_str()), (json!({"message": "Validation Failed"}), "failed to search:"));
        assert!(json_in_text("Call again with [start_index] set").is_none());
        // JSON in the middle of a longer text is part of it, not its payload; at its end it is.
        let files = "/r/a.txt:\nhello\n---\n/r/b.json:\n{\"k\": 1}\n---\n/r/c.csv:\nname,age\nann,3\nbob,4\n";
        assert!(json_in_text(files).is_none());
        let (v, prose, _) = found("/r/a.txt:\nhello\n---\n/r/b.json:\n{\"k\": 1}\n");
        assert_eq!((v, prose.as_str()), (json!({"k": 1}), "/r/a.txt:\nhello\n---\n/r/b.json:"));
    }

    #[test]
    fn python_literals() {
        assert_eq!(
            python_literal("[{'id': 1, 'name': 'O\\'Brien', 'ok': True, 'x': None}, {'id': 2, 't': (1,)}]"),
            Some(json!([{"id": 1, "name": "O'Brien", "ok": true, "x": null}, {"id": 2, "t": [1]}]))
        );
        assert_eq!(
            python_literal("[{'d': datetime.date(2024, 1, 1)}]"),
            Some(json!([{"d": "datetime.date(2024, 1, 1)"}]))
        );
        assert_eq!(python_literal("['it''s']"), None);
    }
}
