//! `mcplens resources`, `templates` and `read`.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::Path;

use super::args::{ReadArgs, split_pair};
use super::connect::open;
use super::items::{human_size, listing_json, write_listing};
use super::{TargetArgs, err_line, out, refused, warn_schema};
use crate::error::{LensError, Result};
use crate::mcp::{CallOptions, ContentKind, ItemKind, ReadContents, ResourceContent};
use crate::sanitize;

/// `mcplens resources`, `mcplens templates` and `mcplens prompts`.
pub async fn list(target: &TargetArgs, kind: ItemKind, json: bool) -> Result<i32> {
    let opened = open(target).await?;
    opened
        .run(async |o| o.last_answer(o.session.list_all(kind)).await.and_then(|list| print_listing(&list, json)))
        .await
}

/// A listing of `mcplens resources`, `templates` or `prompts`, readable or as JSON.
fn print_listing(list: &crate::mcp::Listing, json: bool) -> Result<i32> {
    if let Some(hint) = &list.cache {
        err_line(&sanitize::line(hint));
    }
    // On stderr, readable or JSON: stdout holds the listing alone.
    super::warn_list(&list.warnings);
    if json {
        out(&listing_json(list))?;
    } else {
        // Written in blocks of whole items (a secret never spans two).
        let mut block = String::new();
        write_listing(list, &mut |chunk| {
            block.push_str(chunk);
            if block.len() >= 1 << 16 {
                out(&block)?;
                block.clear();
            }
            Ok(())
        })?;
        out(&block)?;
    }
    Ok(0)
}

/// The URI to read: `a.uri` itself, or with `--arg` the template filled in.
fn uri_of(a: &ReadArgs) -> Result<String> {
    if a.arg.is_empty() {
        return Ok(a.uri.clone());
    }
    let values = a.arg.iter().map(|p| split_pair(p, '=', "--arg")).collect::<Result<HashMap<_, _>>>()?;
    let vars = crate::mcp::uri_template::variables(&a.uri);
    if let Some(unknown) = values.keys().find(|k| !vars.contains(k)) {
        return Err(LensError::usage(format!(
            "--arg {unknown}: the template {} has no such variable (it has: {})",
            a.uri,
            if vars.is_empty() { "none".to_string() } else { vars.join(", ") }
        )));
    }
    Ok(crate::mcp::uri_template::expand(&a.uri, &values))
}

/// `mcplens read`
pub async fn read(a: &ReadArgs) -> Result<i32> {
    let uri = uri_of(a)?;
    if let Some(path) = &a.output
        && path == Path::new("-")
        && std::io::stdout().is_terminal()
    {
        return Err(LensError::usage("-o - writes to stdout only when it is not a terminal (a file or a pipe)"));
    }
    let opened = open(&a.target).await?;
    opened
        .run(async |o| {
            o.last_answer(o.session.read_resource(&uri, &CallOptions::default())).await.and_then(|r| print_read(&r, a))
        })
        .await
}

/// What `mcplens read` prints (or saves) of the answer.
fn print_read(answer: &crate::mcp::Answered<ReadContents>, a: &ReadArgs) -> Result<i32> {
    warn_schema(&answer.warnings);
    if a.json {
        out(&format!("{}\n", sanitize::json(answer.member_raw())))?;
    }
    let contents = match &answer.outcome {
        Ok(read) => &read.contents,
        Err(e) => return Ok(refused(e)),
    };
    if let Ok(ReadContents { cache: Some(hint), .. }) = &answer.outcome {
        err_line(&sanitize::line(hint));
    }
    if a.json {
        return Ok(0);
    }
    if let Some(path) = &a.output {
        return save(contents, a.index, path);
    }
    if a.raw {
        return raw(contents);
    }
    let mut text = String::new();
    if contents.is_empty() {
        text.push_str("(the resource has no contents)\n");
    }
    for c in contents {
        text.push_str(&readable(c));
    }
    out(&text)?;
    Ok(0)
}

/// A content's header line: URI, MIME type, size, and for a blob what its bytes look like.
fn head(c: &ResourceContent) -> String {
    let mut parts = vec![sanitize::line(c.uri().unwrap_or("(no uri)")).into_owned()];
    parts.push(c.mime_type().map(|m| sanitize::line(m).into_owned()).unwrap_or_else(|| "(no mimeType)".into()));
    if let Some(size) = c.size() {
        parts.push(human_size(size as u64));
    }
    match c.kind() {
        ContentKind::Text => parts.push("text".into()),
        ContentKind::Blob => {
            let looks = match (c.sniffed_type(), c.mime_type()) {
                (Some(s), Some(m)) if s != m => format!(" (its bytes look like {s})"),
                (Some(s), None) => format!(" (its bytes look like {s})"),
                _ => String::new(),
            };
            parts.push(format!("blob{looks}"));
        }
        ContentKind::Unknown => parts.push("neither text nor blob".into()),
    }
    parts.join("  ")
}

fn readable(c: &ResourceContent) -> String {
    let mut s = format!("{}\n", head(c));
    match c.kind() {
        ContentKind::Text => push_text(&mut s, c.text().unwrap_or_default()),
        ContentKind::Blob => match c.blob_text() {
            Some(text) => {
                s.push_str(&format!(
                    "(text sent as base64, {}; --json shows it as sent)\n",
                    human_size(text.len() as u64)
                ));
                push_text(&mut s, &text);
            }
            None => s.push_str("(binary, not printed: -o FILE saves its bytes, --json shows the base64)\n"),
        },
        ContentKind::Unknown => {}
    }
    s
}

/// A content's text, sanitized, ending its line.
fn push_text(s: &mut String, text: &str) {
    let text = sanitize::text(text);
    s.push_str(&text);
    if !text.ends_with('\n') {
        s.push('\n');
    }
}

/// `--raw`: each text as it is; a blob's bytes only when stdout is not a terminal.
fn raw(contents: &[ResourceContent]) -> Result<i32> {
    let tty = std::io::stdout().is_terminal();
    let mut stdout = std::io::stdout().lock();
    for c in contents {
        let bytes = match c.kind() {
            ContentKind::Text if tty => sanitize::text(c.text().unwrap_or_default()).into_owned().into_bytes(),
            ContentKind::Text => super::output::redact(c.text().unwrap_or_default()).into_owned().into_bytes(),
            ContentKind::Blob if tty => {
                err_line(&format!("{} (binary, not written to a terminal: use -o FILE)", head(c)));
                continue;
            }
            ContentKind::Blob => c.bytes().map_err(LensError::connection)?,
            ContentKind::Unknown => {
                err_line(&head(c));
                continue;
            }
        };
        // A lost write ends the command; output::exit_code says how.
        if super::output::stdout_result(stdout.write_all(&bytes)).is_err() {
            return Ok(0);
        }
    }
    let _ = super::output::stdout_result(stdout.flush());
    Ok(0)
}

/// `-o FILE`: one content's bytes (a blob decoded, text as UTF-8) to FILE, or to stdout for `-`.
fn save(contents: &[ResourceContent], index: Option<usize>, path: &Path) -> Result<i32> {
    let i = match (index, contents.len()) {
        (_, 0) => return Err(LensError::connection("the resource has no contents to write")),
        (None, 1) => 0,
        (None, n) => {
            return Err(LensError::usage(format!(
                "the resource has {n} contents; choose one with --index 0..{}",
                n - 1
            )));
        }
        (Some(i), n) if i >= n => return Err(LensError::usage(format!("--index {i}: the resource has {n} contents"))),
        (Some(i), _) => i,
    };
    let c = &contents[i];
    let bytes = match c.kind() {
        ContentKind::Text => c.text().unwrap_or_default().as_bytes().to_vec(),
        ContentKind::Blob => c.bytes().map_err(LensError::connection)?,
        ContentKind::Unknown => {
            return Err(LensError::connection(format!("contents[{i}] has neither a text nor a blob to write")));
        }
    };
    let written = if path == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        super::output::stdout_result(stdout.write_all(&bytes).and_then(|_| stdout.flush()))?;
        Ok(())
    } else {
        crate::dirs::write_file(path, &bytes)
    };
    written.map_err(|e| LensError::output(format!("cannot write {}: {e}", path.display())))?;
    err_line(&format!("wrote {} to {}: {}", human_size(bytes.len() as u64), path.display(), head(c)));
    Ok(0)
}
