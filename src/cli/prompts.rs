//! `mcplens prompt`, `mcplens complete` and `mcplens ping`.

use serde_json::{Map, Value};

use super::args::{CompleteArgs, PromptArgs, split_pair};
use super::connect::open;
use super::items::human_size;
use super::{TargetArgs, err_line, out, refused, warn_schema};
use crate::error::{LensError, Result};
use crate::mcp::{CallOptions, CompletionRef, Listing, PromptMessages, resources};
use crate::sanitize;
use crate::schema::tree;

/// The arguments of `mcplens prompt`: `--args` first, then each `--arg` as a string.
fn prompt_arguments(a: &PromptArgs) -> Result<Map<String, Value>> {
    let mut args = match &a.args {
        None => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return Err(LensError::usage("--args must be a JSON object")),
            Err(e) => return Err(LensError::usage(format!("--args is not JSON: {e}"))),
        },
    };
    for pair in &a.arg {
        let (k, v) = split_pair(pair, '=', "--arg")?;
        args.insert(k, Value::String(v));
    }
    Ok(args)
}

/// The prompt must be listed and get its required arguments (unless --no-validate).
fn check(list: &Listing, a: &PromptArgs, args: &Map<String, Value>) -> Result<()> {
    if let Some(why) = &list.not_offered {
        return Err(LensError::usage(format!(
            "the server offers no prompts: {} (--no-validate sends the request anyway)",
            sanitize::line(why)
        )));
    }
    let Some(prompt) = list.find(&a.name) else {
        let names: Vec<&str> = list.items.iter().map(|p| p.name()).take(20).collect();
        return Err(LensError::usage(format!(
            "no prompt named {:?} on this server; it has: {} (--no-validate sends the request anyway)",
            sanitize::line(&a.name).into_owned(),
            if names.is_empty() { "none".to_string() } else { sanitize::line(&names.join(", ")).into_owned() }
        )));
    };
    let declared = prompt.arguments();
    let missing: Vec<&str> =
        declared.iter().filter(|d| d.required && !args.contains_key(&d.name)).map(|d| d.name.as_str()).collect();
    if !missing.is_empty() {
        return Err(LensError::usage(format!(
            "the prompt {} needs {} (--arg NAME=VALUE; --no-validate sends the request anyway)",
            sanitize::line(&a.name),
            sanitize::line(&missing.join(", "))
        )));
    }
    for k in args.keys().filter(|k| !declared.iter().any(|d| &d.name == *k)) {
        err_line(&format!(
            "warning: the prompt {} declares no argument {}",
            sanitize::line(&a.name),
            sanitize::line(k)
        ));
    }
    Ok(())
}

/// `mcplens prompt`
pub async fn prompt(a: &PromptArgs) -> Result<i32> {
    let args = prompt_arguments(a)?;
    let get = async |session: &crate::mcp::Session| {
        if !a.no_validate {
            check(&session.list_prompts().await?, a, &args)?;
        }
        session.get_prompt(&a.name, args, &CallOptions::default()).await
    };
    let opened = open(&a.target).await?;
    opened.run(async |o| o.last_answer(get(&o.session)).await.and_then(|answer| print_prompt(&answer, a.json))).await
}

/// What `mcplens prompt` prints of the answer.
fn print_prompt(answer: &crate::mcp::Answered<PromptMessages>, json: bool) -> Result<i32> {
    warn_schema(&answer.warnings);
    if json {
        out(&format!("{}\n", sanitize::json(answer.member_raw())))?;
    }
    match &answer.outcome {
        Err(e) => Ok(refused(e)),
        Ok(_) if json => Ok(0),
        Ok(messages) => {
            out(&readable_prompt(messages))?;
            Ok(0)
        }
    }
}

/// The messages by role, every content block readable.
fn readable_prompt(p: &PromptMessages) -> String {
    let mut s = String::new();
    if let Some(d) = &p.description {
        s.push_str(&format!("{}\n\n", sanitize::text(d)));
    }
    if p.messages.is_empty() {
        s.push_str("(no messages)\n");
    }
    for m in &p.messages {
        let role = if m.role.is_empty() { "(no role)" } else { &m.role };
        s.push_str(&format!("[{}]\n", sanitize::line(role)));
        for block in &m.content {
            s.push_str(&content_block(block));
        }
    }
    s
}

/// One content block: text as text, media and resources by type, URI, MIME type and size.
pub fn content_block(b: &Value) -> String {
    let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(|s| sanitize::line(s).into_owned());
    let indent = |text: &str, by: &str| {
        text.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("{by}{l}\n") }).collect::<String>()
    };
    match b.get("type").and_then(Value::as_str) {
        Some("text") => indent(&sanitize::text(b.get("text").and_then(Value::as_str).unwrap_or_default()), "  "),
        Some(t @ ("image" | "audio")) => {
            let size = b.get("data").and_then(Value::as_str).map(|d| human_size(resources::decoded_len(d) as u64));
            let mime = str_of(b, "mimeType").unwrap_or_else(|| "(no mimeType)".into());
            format!("  {t}  {mime}  {}\n", size.unwrap_or_else(|| "(no data)".into()))
        }
        Some("resource") => {
            let inner = resources::ResourceContent::from_value(b.get("resource").cloned().unwrap_or_default());
            let mut s = format!(
                "  resource  {}  {}\n",
                str_of(&inner.value, "uri").unwrap_or_else(|| "(no uri)".into()),
                str_of(&inner.value, "mimeType").unwrap_or_default()
            );
            match (inner.text(), inner.blob_base64()) {
                (Some(t), _) => s.push_str(&indent(&sanitize::text(t), "    ")),
                (None, Some(b64)) => {
                    s.push_str(&format!("    blob  {}\n", human_size(resources::decoded_len(b64) as u64)))
                }
                _ => {}
            }
            s
        }
        Some("resource_link") => format!(
            "  resource_link  {}  {}  {}\n",
            str_of(b, "uri").unwrap_or_else(|| "(no uri)".into()),
            str_of(b, "name").unwrap_or_default(),
            str_of(b, "mimeType").unwrap_or_default()
        ),
        _ => format!("  {}\n", sanitize::line(&tree::compact(b))),
    }
}

/// `mcplens complete`
pub async fn complete(a: &CompleteArgs) -> Result<i32> {
    let (argument, partial) = split_pair(&a.arg, '=', "--arg")?;
    let context = a.context.iter().map(|p| split_pair(p, '=', "--context")).collect::<Result<Vec<_>>>()?;
    let reference = match (&a.prompt, &a.template) {
        (Some(p), _) => CompletionRef::Prompt(p.clone()),
        (None, Some(t)) => CompletionRef::Template(t.clone()),
        (None, None) => return Err(LensError::usage("give --prompt NAME or --template URI_TEMPLATE")),
    };
    let opened = open(&a.target).await?;
    let ask = async |session: &crate::mcp::Session| session.complete(&reference, &argument, &partial, &context).await;
    opened
        .run(async |o| o.last_answer(ask(&o.session)).await.and_then(|answer| print_completions(&answer, a.json)))
        .await
}

/// What `mcplens complete` prints of the answer.
fn print_completions(answer: &crate::mcp::Answered<crate::mcp::Completion>, json: bool) -> Result<i32> {
    warn_schema(&answer.warnings);
    if json {
        out(&format!("{}\n", sanitize::json(answer.member_raw())))?;
    }
    let c = match &answer.outcome {
        Err(e) => return Ok(refused(e)),
        Ok(_) if json => return Ok(0),
        Ok(c) => c,
    };
    let n = c.values.len();
    let mut head = format!("{n} value{}", if n == 1 { "" } else { "s" });
    match (c.total, c.has_more) {
        (Some(t), true) => head.push_str(&format!(" (of {t}; more available)")),
        (Some(t), false) if t as usize != n => head.push_str(&format!(" (of {t})")),
        (None, true) => head.push_str(" (more available)"),
        _ => {}
    }
    let mut text = format!("{head}\n");
    for v in &c.values {
        text.push_str(&format!("{}\n", sanitize::line(v)));
    }
    out(&text)?;
    Ok(0)
}

/// `mcplens ping`
pub async fn ping(target: &TargetArgs, count: u32) -> Result<i32> {
    let opened = open(target).await?;
    let name = sanitize::line(opened.session.server.name()).into_owned();
    let mut times = vec![];
    let mut failed = None;
    for _ in 0..count.max(1) {
        match opened.answer(opened.session.ping()).await {
            Ok(rtt) => {
                out(&format!("pong from {name} in {:.2} ms\n", rtt.as_secs_f64() * 1000.0))?;
                times.push(rtt.as_secs_f64() * 1000.0);
            }
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    opened.close().await;
    if let Some(e) = failed {
        return Err(e);
    }
    if times.len() > 1 {
        let min = times.iter().copied().fold(f64::INFINITY, f64::min);
        let max = times.iter().copied().fold(0.0, f64::max);
        let avg = times.iter().sum::<f64>() / times.len() as f64;
        out(&format!("{} pings: min {min:.2} ms, avg {avg:.2} ms, max {max:.2} ms\n", times.len()))?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_are_readable_and_safe() {
        assert_eq!(content_block(&json!({"type": "text", "text": "a\u{1b}[2J\nb"})), "  a\\x1b[2J\n  b\n");
        assert_eq!(
            content_block(&json!({"type": "image", "data": "AAAA", "mimeType": "image/png"})),
            "  image  image/png  3 B\n"
        );
        let r = content_block(
            &json!({"type": "resource", "resource": {"uri": "a://x", "mimeType": "text/plain", "text": "one\ntwo"}}),
        );
        assert_eq!(r, "  resource  a://x  text/plain\n    one\n    two\n");
        assert_eq!(content_block(&json!({"type": "hologram"})), "  {\"type\":\"hologram\"}\n");
    }
}
