//! `mcplens lint --card URL|FILE [target]`: a Server Card against its schema and against the
//! live server (see `mcplens_core::lint::server_card`).

use std::time::Duration;

use serde_json::Value;

use super::lint::{as_json, exit_code, readable};
use super::{TargetArgs, out};
use crate::error::{LensError, Result};
use crate::lint::server_card;
use crate::sanitize;

/// The largest card read (a card is a few KiB).
const MAX_CARD: usize = 1 << 20;

pub async fn lint_card(target: &TargetArgs, card: &str, json: bool) -> Result<i32> {
    let text = if card.starts_with("http://") || card.starts_with("https://") {
        fetch(card).await?
    } else {
        crate::capped_file::read_text(std::path::Path::new(card), MAX_CARD as u64)
            .map_err(|e| LensError::usage(format!("cannot read {}: {e}", sanitize::line(card))))?
    };
    let doc: Value = crate::json_depth::parse(&text, target.max_depth)
        .map_err(|e| LensError::usage(format!("{}: not JSON: {}", sanitize::line(card), sanitize::line(&e))))?;
    let mut findings = server_card::check(&doc);
    let given = target.url.is_some() || target.config.is_some() || !target.command.is_empty();
    if given {
        let opened = super::connect::open(target).await?;
        findings.extend(server_card::compare(&doc, &opened.session.server.result));
        opened.close().await;
    }
    findings.sort_by_key(|f| f.severity);
    out(&if json { as_json(&findings, 0) } else { readable(&findings, None) })?;
    Ok(exit_code(&findings))
}

/// The card at `url`, asked for with its media type (the extension's "Hosted Server Card
/// Location"); redirects are followed, the size is capped.
async fn fetch(url: &str) -> Result<String> {
    let fail = |why: String| LensError::connection(format!("the card at {}: {why}", sanitize::line(url)));
    let client =
        reqwest::Client::builder().timeout(Duration::from_secs(20)).build().map_err(|e| fail(e.to_string()))?;
    let mut resp = client
        .get(url)
        .header("Accept", format!("{}, application/json;q=0.9", server_card::MEDIA_TYPE))
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?;
    if !resp.status().is_success() {
        return Err(fail(format!("HTTP {}", resp.status())));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(|e| fail(e.to_string()))? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_CARD {
            return Err(fail(format!("larger than {} KiB", MAX_CARD >> 10)));
        }
    }
    String::from_utf8(body).map_err(|_| fail("not UTF-8".into()))
}
