//! `mcplens doctor`: the connection step by step (see `mcplens_core::doctor`).

use super::{TargetArgs, out};
use crate::doctor;
use crate::error::Result;

/// Exit code when a step failed: the connection failed (as for every command).
const FAILED: i32 = 3;

/// `mcplens doctor [--json]`
pub async fn doctor(target: &TargetArgs, json: bool) -> Result<i32> {
    let (to, options) = (target.target()?, target.connect_options()?);
    super::connect::warn_roots(target);
    let report = doctor::run(&to, options).await;
    let text = if json {
        let mut s = serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".into());
        s.push('\n');
        crate::sanitize::json(&s).into_owned()
    } else {
        let mut s = report.lines().join("\n");
        s.push('\n');
        s
    };
    out(&text)?;
    Ok(if report.ok { 0 } else { FAILED })
}
