//! Logins without a browser where a JWT the user already holds is the grant (RFC 7523 §2.1,
//! `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`):
//!
//! - workload identity (SEP-1933): the JWT the workload's platform issues it (a Kubernetes
//!   projected service account token, a cloud's federated token file), read from a file at each
//!   login, since platforms rotate it in place;
//! - enterprise-managed authorization (SEP-990): the user's ID token from the enterprise IdP is
//!   first exchanged there (RFC 8693 token exchange) for an identity assertion JWT grant (ID-JAG)
//!   naming the MCP server's authorization server and resource; that is the assertion.
//!
//! A refused assertion is said and not retried: the same JWT would be refused again.

use std::path::{Path, PathBuf};

use serde_json::Value;
use url::Url;

use super::fetch::Fetcher;
use crate::mcp::log::LogKind;

/// RFC 8693 token exchange.
pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The token type of an identity assertion JWT grant (SEP-990).
pub const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";

/// Largest JWT file read: identity tokens are a few KiB.
const MAX_JWT_FILE: u64 = 64 << 10;

/// Where the assertion of a JWT bearer login comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum Source {
    /// A file holding the workload's JWT (`--assertion-file`).
    File(PathBuf),
    /// The user's ID token, exchanged at the enterprise IdP (`--id-token`, `--idp`).
    Enterprise(Enterprise),
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::File(p) => f.debug_tuple("File").field(p).finish(),
            Source::Enterprise(e) => f
                .debug_struct("Enterprise")
                .field("idp", &e.idp)
                .field("id_token_file", &e.id_token_file)
                .field("client_id", &e.client_id)
                .field("client_secret", &e.client_secret.as_ref().map(|_| crate::mcp::log::MASK))
                .finish(),
        }
    }
}

impl Source {
    /// The grant's name in the token file and `auth status`.
    pub fn grant_name(&self) -> &'static str {
        match self {
            Source::File(_) => "jwt_bearer",
            Source::Enterprise(_) => "enterprise",
        }
    }
}

/// The enterprise IdP and mcplens's client there.
#[derive(Clone, PartialEq, Eq)]
pub struct Enterprise {
    /// The IdP's issuer URL; its token endpoint is found from its metadata.
    pub idp: String,
    pub id_token_file: PathBuf,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
}

/// What the exchange needs to name: the MCP server's authorization server and resource.
pub struct Target<'a> {
    pub issuer: &'a str,
    pub resource: &'a str,
    pub scope: Option<&'a str>,
}

/// The assertion to send, read (and for the enterprise flow, exchanged) now.
pub async fn obtain(fetch: &Fetcher, source: &Source, target: &Target<'_>) -> Result<String, String> {
    match source {
        Source::File(path) => read_jwt(path, "--assertion-file"),
        Source::Enterprise(e) => exchange(fetch, e, target).await,
    }
}

/// A JWT from a file: one line, three base64url parts; taught to the redactor.
pub fn read_jwt(path: &Path, flag: &str) -> Result<String, String> {
    let shown = path.display();
    let text = crate::capped_file::read_text(path, MAX_JWT_FILE).map_err(|e| format!("{flag} {shown}: {e}"))?;
    let jwt = text.trim().to_string();
    let parts: Vec<&str> = jwt.split('.').collect();
    let b64 = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if parts.len() != 3 || !b64(parts[0]) || !b64(parts[1]) {
        return Err(format!("{flag} {shown}: not a JWT (three base64url parts separated by dots)"));
    }
    crate::mcp::log::learn_secret(&jwt);
    Ok(jwt)
}

/// RFC 8693 at the IdP: the ID token for an ID-JAG whose audience is the MCP server's
/// authorization server and whose resource is the MCP server.
async fn exchange(fetch: &Fetcher, e: &Enterprise, target: &Target<'_>) -> Result<String, String> {
    let id_token = read_jwt(&e.id_token_file, "--id-token")?;
    let endpoint = idp_token_endpoint(fetch, &e.idp).await?;
    let mut form: Vec<(&str, &str)> = vec![
        ("grant_type", TOKEN_EXCHANGE),
        ("requested_token_type", ID_JAG),
        ("audience", target.issuer),
        ("resource", target.resource),
        ("subject_token", &id_token),
        ("subject_token_type", ID_TOKEN_TYPE),
    ];
    if let Some(s) = target.scope.filter(|s| !s.is_empty()) {
        form.push(("scope", s));
    }
    let mut headers = vec![];
    match (&e.client_id, &e.client_secret) {
        (Some(id), Some(secret)) => headers.push(("Authorization", super::grant::basic_header(id, secret))),
        (Some(id), None) => form.push(("client_id", id)),
        (None, _) => {}
    }
    let answer = fetch.post_form(&endpoint, &form, &headers).await?;
    let field = |k: &str| answer.json.as_ref().and_then(|j| j.get(k)).and_then(Value::as_str).map(str::to_string);
    if let Some(t) = field("access_token") {
        crate::mcp::log::learn_secret(&t);
    }
    fetch.log_body("token exchange answer", &answer);
    if !answer.ok() {
        return Err(format!("the enterprise IdP refused the token exchange at {endpoint}: {}", answer.describe()));
    }
    if let Some(kind) = field("issued_token_type").filter(|k| k != ID_JAG) {
        return Err(format!(
            "the enterprise IdP issued a token of type {:?}, not an identity assertion grant ({ID_JAG})",
            crate::sanitize::line(&kind)
        ));
    }
    let jag = field("access_token").filter(|t| !t.is_empty());
    let jag = jag.ok_or("the enterprise IdP's token exchange answer has no access_token (the identity assertion)")?;
    fetch.log().push(LogKind::Info, "auth: identity assertion grant (ID-JAG) obtained from the enterprise IdP");
    Ok(jag)
}

/// The IdP's token endpoint from its metadata (RFC 8414, then OpenID discovery), whose issuer
/// must be the one given (RFC 8414 §3.3), on https unless on this machine.
async fn idp_token_endpoint(fetch: &Fetcher, idp: &str) -> Result<String, String> {
    let issuer = Url::parse(idp).map_err(|e| format!("--idp {}: {e}", crate::sanitize::line(idp)))?;
    super::discovery::check_web_url(&issuer)?;
    for url in super::discovery::metadata_urls(&issuer) {
        let Ok(answer) = fetch.get(&url).await else { continue };
        let Some(json) = answer.json.filter(|j| j.is_object() && answer.status == 200) else { continue };
        let claimed = json.get("issuer").and_then(Value::as_str);
        super::rules::check_issuer(idp, super::rules::Expected::Named, claimed, &url)?;
        let endpoint = json
            .get("token_endpoint")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the enterprise IdP's metadata at {url} names no token_endpoint"))?;
        let parsed = Url::parse(endpoint).map_err(|e| format!("the enterprise IdP's token_endpoint: {e}"))?;
        super::discovery::check_web_url(&parsed)?;
        if parsed.scheme() == "http" && !super::rules::is_loopback(&parsed) {
            return Err(format!(
                "the enterprise IdP's token_endpoint {} (named by {url}) is plain http to a host that is not this \
                 machine: the ID token would travel in cleartext; refused",
                crate::sanitize::line(endpoint)
            ));
        }
        return Ok(endpoint.to_string());
    }
    Err(format!(
        "no metadata found for the enterprise IdP {} (looked at {})",
        crate::sanitize::line(idp),
        super::discovery::metadata_urls(&issuer).join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_jwt_is_read_from_a_file() {
        let dir = std::env::temp_dir().join(format!("mcplens-assertion-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("t");
        let _ = std::fs::write(&file, "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln\n");
        assert_eq!(read_jwt(&file, "--x").ok().as_deref(), Some("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln"));
        for junk in ["", "not a jwt", "a.b", "a.b.c.d", "a b.c.d", "\u{1b}[2J.x.y"] {
            let _ = std::fs::write(&file, junk);
            let e = read_jwt(&file, "--x").unwrap_err();
            assert!(e.contains("not a JWT") && !e.contains('\u{1b}'), "{junk:?}: {e}");
        }
        assert!(read_jwt(&dir.join("missing"), "--x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
