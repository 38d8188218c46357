//! Reading a collection file: capped in size, unknown keys refused by name, every error with the
//! line it is on. The file is untrusted: no panic, regexes compiled with a size limit, JSON
//! strings read with a depth limit.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use toml::Spanned;

use super::model::{At, Check, Collection, Expect, JsonType, Pattern, SavedCall, parse_response_type, parse_status};
use super::toml_json::to_json;
use crate::error::LensError;

/// Largest collection file read.
pub const MAX_COLLECTION: u64 = 4 << 20;
/// Deepest value an `arguments_json` or `equals_json` string may hold: as deep as a server's
/// answer may be by default, so what `--update` writes can be read back.
pub const MAX_JSON_DEPTH: usize = crate::json::depth::DEFAULT_MAX_DEPTH;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    call: Vec<RawCall>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCall {
    name: Spanned<String>,
    tool: String,
    arguments: Option<toml::Table>,
    arguments_json: Option<String>,
    #[serde(default)]
    all_pages: bool,
    expect: Option<RawExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    status: Option<String>,
    #[serde(alias = "responseType")]
    response_type: Option<String>,
    time_ms: Option<u64>,
    #[serde(default)]
    output_schema: bool,
    #[serde(default)]
    complete: bool,
    #[serde(default)]
    at: Vec<RawAt>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAt {
    path: Spanned<String>,
    equals: Option<toml::Value>,
    equals_json: Option<String>,
    contains: Option<toml::Value>,
    matches: Option<String>,
    length: Option<u64>,
    #[serde(rename = "type")]
    type_: Option<String>,
    exists: Option<bool>,
}

/// Reads the collection at `path`; a usage error (exit 2) says what is wrong and where.
pub fn load(path: &Path) -> Result<Collection, LensError> {
    let shown = path.display().to_string();
    let text =
        crate::capped_file::read_text(path, MAX_COLLECTION).map_err(|e| LensError::usage(format!("{shown}: {e}")))?;
    parse(&text).map_err(|e| LensError::usage(format!("{shown}: {e}")))
}

/// Reads a collection from its text.
pub fn parse(text: &str) -> Result<Collection, String> {
    let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(&e.to_string()))?;
    let mut calls: Vec<SavedCall> = Vec::with_capacity(raw.call.len());
    // Names seen, with their line: a search through the calls before each took minutes for a
    // file of 100,000 small calls.
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(raw.call.len());
    let lines = Lines::new(text);
    for c in raw.call {
        let line = lines.of(c.name.span().start);
        let name = c.name.get_ref().clone();
        let call = read_call(c, &lines).map_err(|e| format!("line {line}: call {:?}: {e}", short(&name)))?;
        if let Some(first) = seen.get(&call.name) {
            return Err(format!(
                "line {line}: call {:?}: the name is taken by the call on line {first}; names are unique",
                short(&name)
            ));
        }
        seen.insert(call.name.clone(), line);
        calls.push(SavedCall { line: Some(line), ..call });
    }
    Ok(Collection { calls })
}

/// The TOML parser's error, each line of it cut short: it quotes the line at fault whole, and
/// one line may be the whole file (4 MiB on stderr).
fn toml_error(e: &str) -> String {
    let lines: Vec<String> = e.trim_end().lines().map(|l| crate::sanitize::line_head(l, 200).into_owned()).collect();
    lines.join("\n")
}

fn short(s: &str) -> String {
    crate::sanitize::line_head(s, 60).into_owned()
}

/// Where the file's lines start, to name the line of a byte offset without counting from the
/// start each time (that was quadratic: minutes for a file of 100,000 small calls).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i).collect())
    }

    /// The 1-based line of a byte offset.
    fn of(&self, offset: usize) -> usize {
        self.0.partition_point(|&newline| newline < offset) + 1
    }
}

fn read_call(c: RawCall, lines: &Lines) -> Result<SavedCall, String> {
    let name = c.name.into_inner();
    if name.trim().is_empty() {
        return Err("the name is empty".into());
    }
    if c.tool.is_empty() {
        return Err("tool is empty".into());
    }
    let arguments = match (c.arguments, c.arguments_json) {
        (Some(_), Some(_)) => return Err("give arguments or arguments_json, not both".into()),
        (Some(t), None) => match to_json(&toml::Value::Table(t)) {
            Value::Object(m) => Some(m),
            _ => None,
        },
        (None, Some(j)) => match json(&j, "arguments_json")? {
            Value::Object(m) => Some(m),
            _ => return Err("arguments_json: not a JSON object".into()),
        },
        (None, None) => None,
    };
    let expect = c.expect.map(|e| read_expect(e, lines)).transpose()?.unwrap_or_default();
    if expect.complete && !c.all_pages {
        return Err("expect.complete needs all_pages = true (only then are pages followed)".into());
    }
    Ok(SavedCall { name, tool: c.tool, arguments, all_pages: c.all_pages, expect, line: None })
}

fn read_expect(e: RawExpect, lines: &Lines) -> Result<Expect, String> {
    let mut at = Vec::with_capacity(e.at.len());
    for (i, a) in e.at.into_iter().enumerate() {
        let line = lines.of(a.path.span().start);
        at.push(read_at(a).map_err(|why| format!("expect.at[{i}] (line {line}): {why}"))?);
    }
    Ok(Expect {
        status: e.status.as_deref().map(parse_status).transpose()?,
        response_type: e.response_type.as_deref().map(parse_response_type).transpose()?,
        time_ms: e.time_ms,
        output_schema: e.output_schema,
        complete: e.complete,
        at,
    })
}

fn read_at(a: RawAt) -> Result<At, String> {
    let (source, pointer) = At::parse_path(a.path.get_ref())?;
    let mut checks = Vec::new();
    match (a.equals, a.equals_json) {
        (Some(_), Some(_)) => return Err("give equals or equals_json, not both".into()),
        (Some(v), None) => checks.push(Check::Equals(to_json(&v))),
        (None, Some(j)) => checks.push(Check::Equals(json(&j, "equals_json")?)),
        (None, None) => {}
    }
    if let Some(v) = a.contains {
        checks.push(Check::Contains(to_json(&v)));
    }
    if let Some(p) = a.matches {
        checks.push(Check::Matches(Pattern::new(&p).map_err(|e| format!("matches: {e}"))?));
    }
    if let Some(n) = a.length {
        checks.push(Check::Length(n));
    }
    if let Some(t) = a.type_ {
        let ty = JsonType::parse(&t)
            .ok_or_else(|| format!("type {:?}: expected one of {}", short(&t), JsonType::NAMES.join(", ")))?;
        checks.push(Check::Type(ty));
    }
    if let Some(b) = a.exists {
        checks.push(Check::Exists(b));
    }
    if checks.is_empty() {
        return Err("nothing to check: give equals, equals_json, contains, matches, length, type or exists".into());
    }
    if checks.contains(&Check::Exists(false)) && checks.len() > 1 {
        return Err("exists = false cannot be checked with anything else".into());
    }
    Ok(At { source, pointer, checks })
}

fn json(s: &str, key: &str) -> Result<Value, String> {
    crate::json::depth::parse(s, MAX_JSON_DEPTH).map_err(|e| format!("{key}: not JSON: {}", short(&e)))
}
