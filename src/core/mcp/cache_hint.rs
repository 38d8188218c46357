//! A `server/discover` result's cache hint (`ttlMs`, `cacheScope`) made readable for rmcp, which
//! takes the whole result for something else when `ttlMs` is not a whole number of at least 0 or
//! `cacheScope` is neither "public" nor "private" (or either is missing): the connection then
//! failed with the result dumped in Rust's debug form. The hint only says how long the answer may
//! be cached, so a bad one is replaced (no caching: 0 ms, private), said in the log, and the
//! result the server sent is still what is shown.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

/// The reply to pass on when the hint needs fixing, with what was fixed; None when it is fine.
pub fn tolerated(result: Option<&str>, id_text: &str) -> Option<(String, Vec<String>)> {
    let mut members: BTreeMap<String, Box<RawValue>> = serde_json::from_str(result?).ok()?;
    let mut fixed = vec![];
    let ttl = members.get("ttlMs").map(|v| v.get().to_string());
    if !ttl.as_deref().is_some_and(is_whole_ms) {
        fixed.push(format!("ttlMs {} read as 0 (not cached)", shown(ttl.as_deref())));
        members.insert("ttlMs".into(), raw("0")?);
    }
    let scope = members.get("cacheScope").map(|v| v.get().to_string());
    if !matches!(scope.as_deref(), Some("\"public\"" | "\"private\"")) {
        fixed.push(format!("cacheScope {} read as \"private\"", shown(scope.as_deref())));
        members.insert("cacheScope".into(), raw("\"private\"")?);
    }
    if fixed.is_empty() {
        return None;
    }
    let result = serde_json::to_string(&members).ok()?;
    Some((format!(r#"{{"jsonrpc":"2.0","id":{id_text},"result":{result}}}"#), fixed))
}

/// What is wrong with a discover result's cache hint (as the server sent it), one line each.
pub fn problems(result: &serde_json::Value) -> Vec<String> {
    let text = |k: &str| result.get(k).map(|v| crate::deep::to_string_prefix(v, 64));
    let mut out = vec![];
    if !text("ttlMs").as_deref().is_some_and(is_whole_ms) {
        out.push(format!("ttlMs {} read as 0 (not cached)", shown(text("ttlMs").as_deref())));
    }
    if !matches!(text("cacheScope").as_deref(), Some("\"public\"" | "\"private\"")) {
        out.push(format!("cacheScope {} read as \"private\"", shown(text("cacheScope").as_deref())));
    }
    out
}

/// A JSON integer from 0 to u64's largest (`60000`, not `-1`, `1.5` or `"60"`).
fn is_whole_ms(text: &str) -> bool {
    text.parse::<u64>().is_ok()
}

fn raw(text: &str) -> Option<Box<RawValue>> {
    RawValue::from_string(text.to_string()).ok()
}

/// The value as sent, cut short and made safe for the log.
fn shown(text: Option<&str>) -> String {
    match text {
        Some(t) => crate::sanitize::truncate(t, 40).into_owned(),
        None => "(missing)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(result: &str) -> Option<(String, Vec<String>)> {
        tolerated(Some(result), "7")
    }

    #[test]
    fn a_good_hint_is_passed_on_as_sent() {
        assert!(fix(r#"{"supportedVersions": [], "ttlMs": 60000, "cacheScope": "public"}"#).is_none());
    }

    #[test]
    fn bad_or_missing_hints_become_no_caching() {
        for (ttl, scope) in [("-1", r#""public""#), ("1.5", r#""shared""#), (r#""60""#, "null"), ("1e3", "3")] {
            let text = format!(r#"{{"supportedVersions": ["x"], "ttlMs": {ttl}, "cacheScope": {scope}}}"#);
            let Some((reply, fixed)) = fix(&text) else { panic!("{text}: not fixed") };
            let v: serde_json::Value = serde_json::from_str(&reply).unwrap_or_default();
            assert_eq!(v["id"], 7);
            assert_eq!(v["result"]["ttlMs"], 0, "{reply}");
            assert_eq!(v["result"]["supportedVersions"][0], "x");
            assert!(fixed.iter().any(|f| f.contains(ttl)), "{fixed:?}");
        }
        let Some((reply, fixed)) = fix(r#"{"supportedVersions": []}"#) else { panic!("missing: not fixed") };
        assert!(reply.contains(r#""cacheScope":"private""#) && fixed.len() == 2, "{reply} {fixed:?}");
    }
}
