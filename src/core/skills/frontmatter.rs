//! A SKILL.md's YAML frontmatter as a JSON object, for comparison with the entry's `frontmatter`
//! (SEP-2640, "Frontmatter Verification").
//!
//! The file comes from a server, so it is read through the YAML parser's event stream with the
//! value built here: nesting is bounded, and aliases are refused (an alias expands a node again
//! wherever it appears; a few lines can expand to gigabytes).

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;
use yaml_rust2::yaml::Yaml;

/// Nesting deeper than this is refused (real frontmatter is two or three levels).
const MAX_DEPTH: usize = 64;

/// The frontmatter block of a SKILL.md: the text between a first line `---` and the next line
/// `---` (or `...`). None when the file does not start with one.
pub fn block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text.find('\n')?;
    if text[..first_end].trim_end() != "---" {
        return None;
    }
    let body = &text[first_end + 1..];
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare == "..." {
            return Some(&body[..at]);
        }
        at += line.len();
    }
    None
}

/// The frontmatter of a SKILL.md as a JSON object.
pub fn parse(text: &str) -> Result<Map<String, Value>, String> {
    let Some(yaml) = block(text) else {
        return Err("the file does not begin with a YAML frontmatter block (--- ... ---)".into());
    };
    match to_json(yaml)? {
        Value::Object(m) => Ok(m),
        Value::Null => Err("the frontmatter is empty".into()),
        other => Err(format!("the frontmatter is not a mapping but {}", kind(&other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a mapping",
    }
}

/// A node being built: a sequence, or a mapping with the key waiting for its value.
enum Open {
    Seq(Vec<Value>),
    Map(Map<String, Value>, Option<String>),
}

/// One YAML document as JSON (the first; a frontmatter block holds one).
fn to_json(yaml: &str) -> Result<Value, String> {
    let mut parser = Parser::new_from_str(yaml);
    let mut stack: Vec<Open> = vec![];
    loop {
        let (event, mark) = parser.next_token().map_err(|e| format!("the frontmatter is not valid YAML: {e}"))?;
        let done = match event {
            Event::Scalar(text, style, _, _) => place(&mut stack, scalar(text, style))?,
            Event::SequenceStart(..) => open(&mut stack, Open::Seq(vec![]))?,
            Event::MappingStart(..) => open(&mut stack, Open::Map(Map::new(), None))?,
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Open::Seq(items)) => place(&mut stack, Value::Array(items))?,
                Some(Open::Map(m, _)) => place(&mut stack, Value::Object(m))?,
                None => None,
            },
            Event::Alias(_) => {
                return Err(format!("the frontmatter uses a YAML alias (line {}); not accepted", mark.line() + 1));
            }
            Event::DocumentEnd | Event::StreamEnd => return Ok(Value::Null),
            _ => None,
        };
        if let Some(value) = done {
            return Ok(value);
        }
    }
}

fn open(stack: &mut Vec<Open>, node: Open) -> Result<Option<Value>, String> {
    if stack.len() >= MAX_DEPTH {
        return Err(format!("the frontmatter nests deeper than {MAX_DEPTH} levels"));
    }
    stack.push(node);
    Ok(None)
}

/// Puts a finished value into the node above it; at the top it is the document.
fn place(stack: &mut [Open], value: Value) -> Result<Option<Value>, String> {
    match stack.last_mut() {
        None => Ok(Some(value)),
        Some(Open::Seq(items)) => {
            items.push(value);
            Ok(None)
        }
        Some(Open::Map(_, key @ None)) => {
            *key = Some(match value {
                Value::String(s) => s,
                Value::Null => "null".into(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => return Err("the frontmatter has a mapping key that is not a scalar".into()),
            });
            Ok(None)
        }
        Some(Open::Map(m, key)) => {
            let k = key.take().unwrap_or_default();
            if m.contains_key(&k) {
                return Err(format!("the frontmatter has the key {k:?} twice"));
            }
            m.insert(k, value);
            Ok(None)
        }
    }
}

/// A scalar by the YAML 1.2 core schema: plain scalars may be null, booleans or numbers; quoted
/// and block scalars are strings.
fn scalar(text: String, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::String(text);
    }
    match Yaml::from_str(&text) {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(r) => match r.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Value::Number(n),
            None => Value::String(text),
        },
        _ => Value::String(text),
    }
}

/// Where the file's frontmatter and the entry's differ, field by field (empty when they agree).
/// Numbers compare by value (`1` and `1.0` are one number).
pub fn differences(entry: &Map<String, Value>, file: &Map<String, Value>) -> Vec<String> {
    let mut out = vec![];
    for (k, v) in entry {
        match file.get(k) {
            None => out.push(format!("{k}: in the entry, not in the file")),
            Some(f) if !same(v, f) => out.push(format!("{k}: the entry has {}, the file {}", short(v), short(f))),
            Some(_) => {}
        }
    }
    for k in file.keys().filter(|k| !entry.contains_key(*k)) {
        out.push(format!("{k}: in the file, not in the entry"));
    }
    out
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn short(v: &Value) -> String {
    crate::sanitize::truncate(&v.to_string(), 120).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_block_is_found_and_read_as_json() {
        let text = "---\nname: pdf-processing\ndescription: Extract, fill\nversion: 1.0\nlicense: 'MIT'\n\
                    metadata:\n  tags: [a, b]\n  io.modelcontextprotocol/x: true\n---\n\nBody.\n";
        let fm = parse(text).unwrap();
        assert_eq!(
            Value::Object(fm),
            json!({"name": "pdf-processing", "description": "Extract, fill", "version": 1.0, "license": "MIT",
                   "metadata": {"tags": ["a", "b"], "io.modelcontextprotocol/x": true}})
        );
    }

    #[test]
    fn block_scalars_and_quoted_numbers_stay_strings() {
        let fm = parse("---\nname: x\ndescription: >\n  folded\n  text\nversion: \"2\"\n---\n").unwrap();
        assert_eq!(fm["description"], json!("folded text\n"));
        assert_eq!(fm["version"], json!("2"));
    }

    #[test]
    fn hostile_frontmatter_is_refused_with_a_reason() {
        assert!(parse("no frontmatter\n").unwrap_err().contains("does not begin"));
        assert!(parse("---\nname: x\n").unwrap_err().contains("does not begin"));
        let bomb = "---\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n---\n";
        assert!(parse(bomb).unwrap_err().contains("alias"));
        let deep = format!("---\nk: {}{}\n---\n", "[".repeat(500), "]".repeat(500));
        assert!(parse(&deep).is_err());
        assert!(parse("---\n- a\n- b\n---\n").unwrap_err().contains("sequence"));
        assert!(parse("---\na: 1\na: 2\n---\n").unwrap_err().contains("twice"));
        assert!(parse("---\na: [\n---\n").is_err());
    }

    #[test]
    fn differences_are_said_field_by_field() {
        let entry = json!({"name": "p", "description": "Extract", "version": 1});
        let file = json!({"name": "p", "description": "Exfiltrate", "version": 1.0, "extra": "x"});
        let d = differences(entry.as_object().unwrap(), file.as_object().unwrap());
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("description: the entry has \"Extract\""));
        assert!(d[1].starts_with("extra: in the file"));
    }
}
