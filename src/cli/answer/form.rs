//! An elicitation form asked on the terminal, a field at a time. A field's answer is read by its
//! schema (a choice by its title or its value, a list as `a,b` or JSON, a number beyond 64 bits
//! whole) and checked at once: a bad one is asked again, alone. Answers are kept as typed (only
//! the line end is not), and editing the form again starts from them.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::mcp::asks::{self, Answer, AskSchema, Choices, PropInfo};
use crate::mcp::exact_numbers;
use crate::sanitize;

/// Where the form is asked: the terminal, or a script in tests.
pub trait Console {
    /// The answer to `q` as typed, without its line end; None at the end of input.
    fn ask(&mut self, q: &str) -> Option<String>;
    /// A line for the person answering.
    fn say(&mut self, text: &str);
}

/// What was given for a field: the text as typed and the value it reads as.
struct Given {
    text: String,
    value: Value,
}

/// Each property asked in turn (Enter keeps the default, or the answer given before), then
/// accept, decline, cancel or edit again.
pub fn ask(schema: &AskSchema, c: &mut impl Console) -> Answer {
    let mut given: BTreeMap<usize, Given> = BTreeMap::new();
    loop {
        for i in 0..schema.props().len() {
            match ask_field(schema, i, given.get(&i), c) {
                Some(Some(g)) => {
                    given.insert(i, g);
                }
                Some(None) => {}
                None => return Answer::Cancel,
            }
        }
        let typed: Map<String, Value> =
            given.iter().filter_map(|(&i, g)| Some((schema.props().get(i)?.name.clone(), g.value.clone()))).collect();
        let content = asks::with_defaults(schema, &typed);
        let problems = super::problems(schema, &content);
        for p in &problems {
            c.say(&format!("  ✖ {p}"));
        }
        let q = if problems.is_empty() {
            "accept (a), decline (d), cancel (c) or edit again (e)? [A/d/c/e] "
        } else {
            "accept anyway (a), decline (d), cancel (c) or edit again (E)? [a/d/c/E] "
        };
        match c.ask(q).as_deref().map(str::trim) {
            None | Some("c") => return Answer::Cancel,
            Some("d") => return Answer::Decline,
            Some("a") => return Answer::Accept(content),
            Some("") if problems.is_empty() => return Answer::Accept(content),
            _ => {}
        }
    }
}

/// Field `i` asked until its answer reads and holds: Some(Some) a new answer, Some(None) the
/// one it had (Enter), None when the input ended.
fn ask_field(schema: &AskSchema, i: usize, before: Option<&Given>, c: &mut impl Console) -> Option<Option<Given>> {
    let prop = schema.props().get(i)?;
    let info = schema.info(i);
    let mark = if prop.required { "*" } else { "" };
    let q = format!("  {}{mark} ({}): ", prop.name, hint(&info, before.map(|g| g.text.as_str())));
    loop {
        let text = c.ask(&q)?;
        if text.is_empty() {
            return Some(None);
        }
        match value(schema, i, &info, &text) {
            Ok(value) => return Some(Some(Given { text, value })),
            Err(why) => c.say(&format!("  ✖ {why}; again:")),
        }
    }
}

/// The value `text` gives field `i`, checked against the field's schema.
fn value(schema: &AskSchema, i: usize, info: &PropInfo, text: &str) -> Result<Value, String> {
    let v = match &info.choices {
        Some(c) if info.multi => {
            let items = list(text).iter().map(|t| choice(info, c, t)).collect::<Result<Vec<_>, _>>()?;
            Value::Array(items)
        }
        Some(c) => choice(info, c, text)?,
        None => typed(schema, i, info, text)?,
    };
    let problems = schema.prop_problems(i, &v).unwrap_or_default();
    match problems.first() {
        None => Ok(v),
        Some(_) => Err(problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; ")),
    }
}

/// The choice `text` names: by its title or its value as typed, else by either with case and
/// surrounding spaces ignored when that names one choice only.
fn choice(info: &PropInfo, c: &Choices, text: &str) -> Result<Value, String> {
    let as_json = exact_numbers::read(text, 64).ok();
    let exact = (0..c.len()).find(|&k| label(info, c, k) == text).or_else(|| c.position(&Value::String(text.into())));
    if let Some(k) = exact.or_else(|| as_json.as_ref().and_then(|v| c.position(v))) {
        return Ok(c.value(k));
    }
    let loose = text.trim().to_lowercase();
    let named = |k: &usize| {
        label(info, c, *k).to_lowercase() == loose || exact_numbers::shown(&c.value(*k)).to_lowercase() == loose
    };
    let found: Vec<usize> = (0..c.len()).filter(named).take(2).collect();
    match found[..] {
        [k] => Ok(c.value(k)),
        _ => Err(format!("{text:?} is none of the choices")),
    }
}

/// The items of a list answer: a JSON array's, else the text cut at commas, each trimmed.
fn list(text: &str) -> Vec<String> {
    if let Ok(Value::Array(items)) = exact_numbers::read(text, 64) {
        return items.iter().map(exact_numbers::shown).collect();
    }
    text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// `text` read as the type field `i` declares: a string as typed, a number whole, a boolean as
/// yes/no too, a list of strings as `a,b`, anything else as JSON.
fn typed(schema: &AskSchema, i: usize, info: &PropInfo, text: &str) -> Result<Value, String> {
    let is = |t: &str| info.types.iter().any(|x| x == t);
    if is("null") && text.trim() == "null" {
        return Ok(Value::Null);
    }
    if is("string") {
        return Ok(Value::String(text.to_string()));
    }
    if (is("integer") || is("number"))
        && let Some(n) = exact_numbers::number(text.trim())
        && (is("number") || is_integer(&n))
    {
        return Ok(n);
    }
    if is("boolean") {
        match text.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" | "on" => return Ok(Value::Bool(true)),
            "false" | "no" | "n" | "0" | "off" => return Ok(Value::Bool(false)),
            _ => {}
        }
    }
    if is("array") && strings_listed(schema, i) && !text.trim_start().starts_with('[') {
        return Ok(Value::Array(list(text).into_iter().map(Value::String).collect()));
    }
    match exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH) {
        Ok(v) if info.types.is_empty() || is(json_type(&v)) => Ok(v),
        Err(_) if info.types.is_empty() => Ok(Value::String(text.to_string())),
        _ => Err(format!("{text:?} is not {}", a_type(&info.types))),
    }
}

fn is_integer(n: &Value) -> bool {
    match exact_numbers::literal(n) {
        Some(l) => l.bytes().all(|b| b.is_ascii_digit() || b == b'-'),
        None => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
    }
}

/// The JSON type name of `v` (a number kept whole is a number).
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) if exact_numbers::literal(v).is_some() => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// "an integer", "a number or null".
fn a_type(types: &[String]) -> String {
    let first = types.first().map_or("", String::as_str);
    let article = if first.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {}", types.join(" or "))
}

/// Whether field `i` is an array whose items are strings (or say nothing of their type).
fn strings_listed(schema: &AskSchema, i: usize) -> bool {
    let Ok(prop) = serde_json::from_str::<Value>(schema.prop_text(i)) else { return false };
    match prop.get("items").and_then(|items| items.get("type")) {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(_) => false,
    }
}

/// The most choices named in a prompt; the rest are counted.
const NAMED_CHOICES: usize = 20;

/// What choice `k` is called: its title (`enumNames` for an `enum`), else its value.
fn label(info: &PropInfo, c: &Choices, k: usize) -> String {
    info.names.get(k).filter(|_| !info.multi).cloned().unwrap_or_else(|| c.label(k))
}

/// What a field takes: its type or choices, what Enter keeps (the answer `given` before, else
/// the default) and its description, for the prompt.
pub fn hint(info: &PropInfo, given: Option<&str>) -> String {
    let mut parts = vec![];
    match &info.choices {
        Some(c) => {
            let named: Vec<String> = (0..c.len().min(NAMED_CHOICES)).map(|i| label(info, c, i)).collect();
            let more = c.len().saturating_sub(NAMED_CHOICES);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            let how = if info.multi { "some of" } else { "one of" };
            let sep = if info.multi { ", separated by commas" } else { "" };
            parts.push(format!("{how} {}{more}{sep}", named.join(", ")));
        }
        None if info.types.is_empty() => parts.push("any".into()),
        None if info.types.iter().any(|t| t == "array") => parts.push("a list: a,b or JSON".into()),
        None => parts.push(info.types.join(" or ")),
    }
    match (given, &info.default) {
        // Spaces at either end are shown by quotes.
        (Some(g), _) if g.trim() != g => parts.push(format!("Enter keeps {g:?}")),
        (Some(g), _) => parts.push(format!("Enter keeps {g}")),
        (None, Some(d)) => parts.push(format!("Enter for {}", default_label(info, d))),
        (None, None) => {}
    }
    if let Some(d) = &info.description {
        parts.push(d.clone());
    }
    sanitize::line(&parts.join("; ")).into_owned()
}

/// A default as the prompt names it: a choice by its title, a list by its items.
fn default_label(info: &PropInfo, d: &Value) -> String {
    let Some(c) = &info.choices else { return exact_numbers::shown(d) };
    let name = |v: &Value| c.position(v).map_or_else(|| exact_numbers::shown(v), |k| label(info, c, k));
    match d {
        Value::Array(items) if info.multi => items.iter().map(name).collect::<Vec<_>>().join(","),
        other => name(other),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Arc;

    use super::*;
    use serde_json::json;

    /// Answers typed in turn; what was asked and said, kept.
    struct Script {
        typed: VecDeque<&'static str>,
        seen: Vec<String>,
    }

    impl Console for Script {
        fn ask(&mut self, q: &str) -> Option<String> {
            self.seen.push(q.to_string());
            self.typed.pop_front().map(str::to_string)
        }
        fn say(&mut self, text: &str) {
            self.seen.push(text.to_string());
        }
    }

    fn run(schema: Value, typed: &[&'static str]) -> (Answer, Vec<String>) {
        run_text(&schema.to_string(), typed)
    }

    fn run_text(schema: &str, typed: &[&'static str]) -> (Answer, Vec<String>) {
        let raw = Arc::new(schema.to_string());
        let schema = AskSchema::read(&raw.clone(), &raw);
        let mut s = Script { typed: typed.iter().copied().collect(), seen: vec![] };
        (ask(&schema, &mut s), s.seen)
    }

    fn accepted(a: &Answer) -> Value {
        match a {
            Answer::Accept(c) => Value::Object(c.clone()),
            other => panic!("not accepted: {other:?}"),
        }
    }

    /// The fields of server-everything's `trigger-elicitation-request` that the prompt reads
    /// in its own ways.
    fn heroes() -> Value {
        json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"},
            "integer": {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
            "hero": {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"},
                {"const": "hero-2", "title": "Green Lantern"}], "default": "hero-1"},
            "fish": {"type": "array", "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"},
                {"const": "fish-2", "title": "Salmon"}]}, "default": ["fish-1"]},
            "tags": {"type": "array", "items": {"type": "string"}}}})
    }

    #[test]
    fn a_titled_choice_is_named_by_its_title_or_its_value_and_sends_the_value() {
        let (a, seen) = run(heroes(), &["Ada", "", "Green Lantern", "Salmon, tuna", "", ""]);
        assert_eq!(accepted(&a)["hero"], "hero-2");
        assert_eq!(accepted(&a)["fish"], json!(["fish-2", "fish-1"]));
        let hero = seen.iter().find(|q| q.starts_with("  hero")).cloned().unwrap_or_default();
        assert!(hero.contains("one of Superman, Green Lantern; Enter for Superman"), "{hero}");
        let fish = seen.iter().find(|q| q.starts_with("  fish")).cloned().unwrap_or_default();
        assert!(fish.contains("some of Tuna, Salmon, separated by commas; Enter for Tuna"), "{fish}");
        let (a, _) = run(heroes(), &["Ada", "", "hero-2", "[\"fish-2\"]", "", ""]);
        assert_eq!((accepted(&a)["hero"].clone(), accepted(&a)["fish"].clone()), (json!("hero-2"), json!(["fish-2"])));
    }

    #[test]
    fn a_bad_field_is_asked_again_alone_and_the_others_are_kept() {
        let (a, seen) = run(heroes(), &["Ada", "500", "7", "Batman", "Superman", "", "", ""]);
        let c = accepted(&a);
        assert_eq!(
            (c["name"].clone(), c["integer"].clone(), c["hero"].clone()),
            (json!("Ada"), json!(7), json!("hero-1"))
        );
        assert!(seen.iter().any(|l| l.contains("✖ 500 is greater than the maximum of 100; again:")), "{seen:?}");
        assert!(seen.iter().any(|l| l.contains("✖ \"Batman\" is none of the choices; again:")), "{seen:?}");
        assert_eq!(seen.iter().filter(|q| q.starts_with("  name")).count(), 1, "{seen:?}");
    }

    #[test]
    fn editing_again_starts_from_the_answers_given() {
        // The required name left out: the form says so; `e` edits, Enter keeps each answer.
        let (a, seen) = run(heroes(), &["", "9", "", "", "a,b", "e", "Lin", "", "", "", "", "a"]);
        let c = accepted(&a);
        assert_eq!(
            (c["name"].clone(), c["integer"].clone(), c["tags"].clone()),
            (json!("Lin"), json!(9), json!(["a", "b"]))
        );
        assert!(seen.iter().any(|l| l.contains("\"name\" is a required property")), "{seen:?}");
        assert!(seen.iter().any(|q| q.starts_with("  integer (integer; Enter keeps 9)")), "{seen:?}");
        let tags = seen.iter().find(|q| q.starts_with("  tags")).cloned().unwrap_or_default();
        assert!(tags.contains("a list: a,b or JSON"), "{tags}");
    }

    #[test]
    fn answers_keep_their_spaces_and_numbers_their_digits() {
        let schema = r#"{"type": "object", "properties": {"s": {"type": "string"},
            "big": {"type": "integer", "default": 12345678901234567890123}}}"#;
        let (a, seen) = run_text(schema, &["  two  spaces ", "", "e", "", "", "a"]);
        assert_eq!(accepted(&a)["s"], "  two  spaces ");
        assert!(seen.iter().any(|q| q == "  s (string; Enter keeps \"  two  spaces \"): "), "{seen:?}");
        let big = seen.iter().find(|q| q.starts_with("  big")).cloned().unwrap_or_default();
        assert!(big.contains("Enter for 12345678901234567890123"), "{big}");
        let (a, _) = run_text(schema, &["x", "98765432109876543210987", ""]);
        assert_eq!(exact_numbers::shown(&accepted(&a)), r#"{"big":98765432109876543210987,"s":"x"}"#);
    }

    #[test]
    fn a_legacy_titled_enum_takes_its_names() {
        let schema = json!({"type": "object", "properties": {"pet": {"type": "string",
            "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"], "default": "pet-1"}}});
        let (a, seen) = run(schema, &["dogs", ""]);
        assert_eq!(accepted(&a)["pet"], "pet-2");
        assert!(seen[0].contains("one of Cats, Dogs; Enter for Cats"), "{seen:?}");
    }

    #[test]
    fn the_end_of_input_cancels() {
        assert_eq!(run(heroes(), &["Ada"]).0, Answer::Cancel);
    }
}
