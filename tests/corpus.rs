//! The corpus of real answers (`tests/corpus/`): every case's envelope must hold the fields a person
//! wrote by hand, through both normalizer paths (the full tree and the skeleton of the raw reply).
//! `scripts/corpus` runs this with `MCPLENS_CORPUS_REPORT=1`: a verdict per case and `N of M right`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mcplens::envelope::pager::{infer_from_request, next_arguments};
use mcplens::envelope::{Envelope, normalize, normalize_reply};
use mcplens::mcp::{Reply, ReplyBody};
use serde_json::{Map, Value, json};

struct Case {
    path: PathBuf,
    doc: Value,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut out = vec![];
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                let doc = serde_json::from_str(&text).unwrap_or_else(|e| json!({"unreadable": e.to_string()}));
                out.push(Case { path: p, doc });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `expected` holds every key of an object `expected` with equal values (recursively for objects).
fn holds(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|x| holds(x, v))),
        (Value::Number(a), Value::Number(e)) => a.as_f64() == e.as_f64(),
        (Value::String(a), Value::String(e)) => a.trim() == e.trim(),
        _ => actual == expected,
    }
}

fn check_field(errors: &mut Vec<String>, name: &str, actual: &Value, expected: &Value) {
    let ok = match (actual, expected) {
        (_, Value::Null) => actual.is_null(),
        (Value::Object(_), Value::Object(_)) if name != "data" => holds(actual, expected),
        _ => holds(actual, expected) && holds(expected, actual),
    };
    if !ok {
        errors.push(format!("{name}: expected {expected}, got {}", short(actual)));
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 300 { format!("{}…", &s[..s.floor_char_boundary(300)]) } else { s }
}

/// What is wrong with `env` against the case's `expect` (empty when right).
fn verdict(doc: &Value, env: &Envelope) -> Vec<String> {
    let mut errors = vec![];
    let Some(expect) = doc.get("expect").and_then(Value::as_object) else {
        return vec!["no expect".into()];
    };
    let actual = env.to_json();
    for (key, want) in expect {
        match key.as_str() {
            "responseType" | "status" | "message" | "data" | "pagination" | "summary" | "error" => {
                check_field(&mut errors, key, &actual[key.as_str()], want)
            }
            "dataLength" => {
                let n = actual["data"].as_array().map(Vec::len);
                if n != want.as_u64().map(|w| w as usize) {
                    errors.push(format!("dataLength: expected {want}, got {n:?}"));
                }
            }
            "dataFirst" => {
                let first = actual["data"].get(0).cloned().unwrap_or(Value::Null);
                if !holds(&first, want) {
                    errors.push(format!("dataFirst: expected {want}, got {}", short(&first)));
                }
            }
            "nextArguments" => {
                let args = doc.get("arguments").and_then(Value::as_object).cloned().unwrap_or_default();
                let got = match next_arguments(doc.get("inputSchema"), &args, env) {
                    Ok(Some((next, _))) => Value::Object(next),
                    Ok(None) => Value::Null,
                    Err(why) => json!({"error": why}),
                };
                if &got != want {
                    errors.push(format!("nextArguments: expected {want}, got {got}"));
                }
            }
            _ => {}
        }
    }
    errors
}

/// The envelope through the skeleton path: the result as the wire tap would read it.
fn via_reply(doc: &Value, tool: &str, descriptor: Option<&Value>) -> Option<Envelope> {
    let raw = json!({"jsonrpc": "2.0", "id": 1, "result": doc.get("result")?}).to_string();
    let reply = Reply::parse(Arc::from(raw), Duration::ZERO, 1000).ok()?;
    Some(normalize_reply(tool, descriptor, reply.body, reply.elisions))
}

fn run_case(case: &Case) -> Vec<String> {
    let doc = &case.doc;
    let Some(result) = doc.get("result") else { return vec!["no result".into()] };
    let tool = doc.get("tool").and_then(Value::as_str).unwrap_or("tool");
    let mut descriptor = Map::new();
    descriptor.insert("name".into(), json!(tool));
    if let Some(s) = doc.get("inputSchema") {
        descriptor.insert("inputSchema".into(), s.clone());
    }
    // The rest of the descriptor the server declares, when the case records it.
    for key in ["annotations", "outputSchema", "description"] {
        if let Some(v) = doc.get(key) {
            descriptor.insert(key.into(), v.clone());
        }
    }
    let descriptor = Value::Object(descriptor);
    let args = doc.get("arguments").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut env = normalize(tool, Some(&descriptor), &ReplyBody::Result(result.clone()));
    // As `call` and the TUI do: a total without a position is placed by the request's page.
    infer_from_request(&mut env, doc.get("inputSchema"), &args);
    let mut errors = verdict(doc, &env);
    if let Some(mut fast) = via_reply(doc, tool, Some(&descriptor)) {
        infer_from_request(&mut fast, doc.get("inputSchema"), &args);
        if fast.to_json() != env.to_json() {
            errors.push("the skeleton path disagrees with the full tree".into());
        }
    }
    errors
}

#[test]
fn every_corpus_case_is_right() {
    let report = std::env::var_os("MCPLENS_CORPUS_REPORT").is_some();
    let only = std::env::var("MCPLENS_CORPUS_SPLIT").ok();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut right = 0;
    let mut total = 0;
    let mut failures = vec![];
    for case in cases() {
        let split = case.doc.get("split").and_then(Value::as_str).unwrap_or("train");
        if only.as_deref().is_some_and(|o| o != split) {
            continue;
        }
        total += 1;
        let name = case.path.strip_prefix(&root).unwrap_or(&case.path).display().to_string();
        let errors = run_case(&case);
        if errors.is_empty() {
            right += 1;
            if report {
                println!("right  {name}");
            }
        } else {
            if report {
                println!("WRONG  {name}");
                for e in &errors {
                    println!("         {e}");
                }
            }
            failures.push(format!("{name}: {}", errors.join("; ")));
        }
    }
    println!("{right} of {total} right");
    if !report {
        assert!(failures.is_empty(), "{} corpus cases wrong:\n{}", failures.len(), failures.join("\n"));
    }
}
