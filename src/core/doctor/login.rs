//! The doctor's login steps, for a server that answered 401: the challenge, the protected
//! resource metadata (RFC 9728) and the authorization server's metadata (RFC 8414 / OpenID
//! discovery), each document with where it was fetched from; how the client would register;
//! the browser step named; the stored token. Nothing is registered and no token is asked for:
//! a doctor must not leave clients behind on someone's authorization server.

use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use url::Url;

use super::http::Answer;
use super::{Step, Verdict, excerpt, probe_wait};
use crate::mcp::auth::Challenge;
use crate::mcp::auth::discovery::{canonical_resource, check_web_url, metadata_urls};
use crate::mcp::{ConnectOptions, HttpTarget};

/// Largest metadata document read.
const MAX_DOC: usize = 1 << 20;

/// A metadata document: every URL tried with its status, and the first JSON object found.
struct Fetched {
    tried: Vec<String>,
    found: Option<(String, Value)>,
}

pub async fn probe(t: &HttpTarget, answer: &Answer, options: &ConnectOptions) -> Vec<Step> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(probe_wait(options))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new());
    let mut steps = vec![];
    let challenge = answer.www_authenticate.as_deref().map(Challenge::parse).unwrap_or_default();
    steps.push(challenge_step(answer, &challenge));
    let Ok(server) = Url::parse(&answer.url) else { return steps };
    let prm = fetch_first(&client, &prm_candidates(&server, challenge.resource_metadata.as_deref())).await;
    let (prm_step, issuer) = prm_step(&server, &prm);
    let prm_failed = prm_step.verdict == Verdict::Fail;
    steps.push(prm_step);
    let Some(issuer) = issuer.filter(|_| !prm_failed) else { return steps };
    let asm = fetch_first(&client, &metadata_urls(&issuer)).await;
    let as_step = as_step(&issuer, &asm);
    let as_failed = as_step.verdict == Verdict::Fail;
    steps.push(as_step);
    if as_failed {
        return steps;
    }
    let metadata = asm.found.map(|(_, v)| v).unwrap_or(Value::Null);
    steps.push(registration_step(t, &metadata));
    let endpoint = metadata.get("authorization_endpoint").and_then(Value::as_str).unwrap_or("/authorize");
    steps.push(Step::new(
        "login.browser",
        "login: the browser step",
        Verdict::Skip,
        format!("not run: a person approves at {endpoint}; `mcplens auth login --url {}` runs it", t.url),
    ));
    steps.push(token_step(t, &options.auth));
    steps
}

fn challenge_step(answer: &Answer, c: &Challenge) -> Step {
    const TITLE: &str = "login: the 401 challenge";
    let mut step = match &answer.www_authenticate {
        None => Step::new("login.challenge", TITLE, Verdict::Warn, "the 401 carries no WWW-Authenticate header")
            .fix("send `WWW-Authenticate: Bearer resource_metadata=\"<URL of your protected resource metadata>\"` with the 401 (MCP authorization, RFC 9728 §5.1)"),
        Some(h) => {
            let s = Step::new("login.challenge", TITLE, Verdict::Pass, "a Bearer challenge").received(format!("WWW-Authenticate: {}", excerpt(h, 300)));
            if c.resource_metadata.is_none() {
                let mut s = s.fix("name the protected resource metadata in the challenge (resource_metadata=...); clients fall back to the well-known URL");
                s.verdict = Verdict::Warn;
                s.detail = "the challenge names no resource_metadata".into();
                s
            } else {
                s
            }
        }
    };
    step.received.insert(0, format!("HTTP 401 from {}", answer.url));
    step
}

/// Where RFC 9728 and the MCP spec say to look: the challenge's URL, else the well-known path
/// with the server's path, else at the root.
fn prm_candidates(server: &Url, from_challenge: Option<&str>) -> Vec<String> {
    if let Some(u) = from_challenge.and_then(|u| server.join(u).ok()).filter(|u| check_web_url(u).is_ok()) {
        return vec![u.to_string()];
    }
    let origin = server.origin().ascii_serialization();
    let path = server.path().trim_end_matches('/');
    let mut out = vec![];
    if !path.is_empty() {
        out.push(format!("{origin}/.well-known/oauth-protected-resource{path}"));
    }
    out.push(format!("{origin}/.well-known/oauth-protected-resource"));
    out
}

async fn fetch_first(client: &reqwest::Client, urls: &[String]) -> Fetched {
    let mut f = Fetched { tried: vec![], found: None };
    for url in urls {
        match get(client, url).await {
            Err(e) => f.tried.push(format!("GET {url} → {e}")),
            Ok((status, body)) => {
                let json = crate::json_depth::parse::<Value>(&body, 64).ok().filter(Value::is_object);
                let what = if json.is_some() { "a JSON object".to_string() } else { excerpt(&body, 120) };
                f.tried.push(format!("GET {url} → HTTP {status}: {what}"));
                if let (200..=299, Some(j)) = (status, json) {
                    f.found = Some((url.clone(), j));
                    return f;
                }
            }
        }
    }
    f
}

async fn get(client: &reqwest::Client, url: &str) -> Result<(u16, String), String> {
    let resp = client.get(url).header("Accept", "application/json").send().await.map_err(|e| {
        let mut cause: &dyn std::error::Error = &e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        cause.to_string()
    })?;
    let status = resp.status().as_u16();
    let mut body = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), stream.next()).await.ok().flatten() {
        body.extend_from_slice(&chunk.map_err(|e| e.to_string())?);
        if body.len() > MAX_DOC {
            return Err(format!("the document is over {MAX_DOC} bytes"));
        }
    }
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

/// The protected resource metadata's verdict, and the authorization server it names.
fn prm_step(server: &Url, f: &Fetched) -> (Step, Option<Url>) {
    const TITLE: &str = "login: protected resource metadata (RFC 9728)";
    let mut step = Step::new("login.resource", TITLE, Verdict::Pass, "");
    step.sent = f.tried.clone();
    let Some((from, prm)) = &f.found else {
        step.verdict = Verdict::Warn;
        step.detail =
            "none found; clients fall back to the server's origin as the authorization server (2025-03-26)".into();
        let origin = Url::parse(&server.origin().ascii_serialization()).ok();
        return (step.fix("serve the protected resource metadata at /.well-known/oauth-protected-resource (required since protocol 2025-06-18)"), origin);
    };
    step.received.push(excerpt(&prm.to_string(), 300));
    let resource = prm.get("resource").and_then(Value::as_str);
    let expected = canonical_resource(server.as_str());
    if let Some(r) = resource
        && !same_resource(r, &expected)
    {
        step.verdict = Verdict::Fail;
        step.detail = format!("from {from}: its resource {r:?} is not this server ({expected})");
        return (
            step.fix(
                "set `resource` to the MCP server's URL: clients refuse metadata for another resource (RFC 9728 §3.3)",
            ),
            None,
        );
    }
    let issuer =
        prm.get("authorization_servers").and_then(Value::as_array).and_then(|a| a.iter().find_map(Value::as_str));
    match issuer.map(|i| (i, Url::parse(i))) {
        Some((_, Ok(u))) if check_web_url(&u).is_ok() => {
            step.detail = format!("from {from}; authorization server {u}");
            (step, Some(u))
        }
        Some((i, _)) => {
            step.verdict = Verdict::Fail;
            step.detail =
                format!("from {from}: the authorization server {i:?} is not an https URL (or http on loopback)");
            (step.fix("list the authorization server's issuer URL in authorization_servers"), None)
        }
        None => {
            step.verdict = Verdict::Fail;
            step.detail = format!("from {from}: it names no authorization server");
            (step.fix("list the authorization server's issuer URL in authorization_servers (RFC 9728 §2)"), None)
        }
    }
}

/// The resource matches when it equals the server URL or is a prefix of it at a path boundary.
fn same_resource(resource: &str, server: &str) -> bool {
    let (r, s) = (resource.trim_end_matches('/'), server.trim_end_matches('/'));
    s == r || s.starts_with(&format!("{r}/"))
}

fn as_step(issuer: &Url, f: &Fetched) -> Step {
    const TITLE: &str = "login: authorization server metadata (RFC 8414)";
    let mut step = Step::new("login.server", TITLE, Verdict::Pass, "");
    step.sent = f.tried.clone();
    let Some((from, m)) = &f.found else {
        step.verdict = Verdict::Fail;
        step.detail = format!("no metadata for {issuer} at any well-known URL");
        return step.fix(
            "serve RFC 8414 metadata at /.well-known/oauth-authorization-server (or OpenID discovery) for the issuer",
        );
    };
    step.received.push(excerpt(&m.to_string(), 300));
    let problems = metadata_problems(issuer, m);
    if problems.is_empty() {
        step.detail = format!("from {from}");
        return step;
    }
    step.verdict = Verdict::Fail;
    step.detail = format!("from {from}: {}", problems.join("; "));
    step.fix("fix the metadata document: clients refuse to log in with it as it is")
}

/// What a client would refuse in the metadata: RFC 8414 §3.3 (issuer), §2 (endpoints), and the
/// MCP spec's PKCE rule (no `code_challenge_methods_supported` with S256: clients must refuse).
fn metadata_problems(issuer: &Url, m: &Value) -> Vec<String> {
    let mut out = vec![];
    match m.get("issuer").and_then(Value::as_str) {
        None => out.push("it has no issuer".to_string()),
        Some(i) if i.trim_end_matches('/') != issuer.as_str().trim_end_matches('/') => {
            out.push(format!("its issuer {i:?} is not the URL it was found for ({issuer}) (RFC 8414 §3.3)"))
        }
        Some(_) => {}
    }
    for key in ["authorization_endpoint", "token_endpoint"] {
        match m.get(key).and_then(Value::as_str).map(Url::parse) {
            None => out.push(format!("it has no {key}")),
            Some(Err(e)) => out.push(format!("its {key} cannot be read: {e}")),
            Some(Ok(u)) if check_web_url(&u).is_err() => out.push(format!("its {key} is not an https URL")),
            Some(Ok(_)) => {}
        }
    }
    let s256 = m
        .get("code_challenge_methods_supported")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|v| v.as_str() == Some("S256")));
    if !s256 {
        out.push(
            "code_challenge_methods_supported does not list S256 (MCP clients must refuse a server without PKCE)"
                .into(),
        );
    }
    out
}

fn registration_step(t: &HttpTarget, m: &Value) -> Step {
    const TITLE: &str = "login: client registration";
    let cimd = m.get("client_id_metadata_document_supported").and_then(Value::as_bool).unwrap_or(false);
    let dcr = m.get("registration_endpoint").and_then(Value::as_str);
    let (verdict, detail) = match (&t.oauth.client.client_id, &t.oauth.client.client_metadata_url, cimd, dcr) {
        (Some(id), ..) => (Verdict::Pass, format!("a pre-registered client ({id})")),
        (None, Some(url), true, _) => (Verdict::Pass, format!("a client ID metadata document ({url})")),
        (None, _, _, Some(ep)) => {
            (Verdict::Pass, format!("dynamic registration at {ep} (not tried: it would create a client)"))
        }
        (None, _, true, None) => (Verdict::Pass, "client ID metadata documents (give --client-metadata-url)".into()),
        (None, _, false, None) => (
            Verdict::Fail,
            "the authorization server offers neither dynamic registration nor client ID metadata documents".into(),
        ),
    };
    let step = Step::new("login.registration", TITLE, verdict, detail);
    if verdict == Verdict::Fail {
        step.fix("register a client with the authorization server and give --client-id (and --client-secret), or enable dynamic registration")
    } else {
        step
    }
}

fn token_step(t: &HttpTarget, auth: &crate::mcp::auth::AuthOptions) -> Step {
    const TITLE: &str = "login: the token";
    let dir = auth.store_dir.clone().or_else(crate::mcp::auth::store::dir);
    let record = dir.as_ref().and_then(|d| crate::mcp::auth::store::load(d, &t.url).ok().flatten());
    if let (Some(d), Some(r)) = (&dir, &record)
        && let Some(why) = crate::mcp::auth::store::unusable(d, r)
    {
        return Step::new("login.token", TITLE, Verdict::Fail, why)
            .fix(format!("log in again: mcplens auth login --url {}", t.url));
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    match record {
        Some(r) if r.access_token.is_some() && !r.expired(now) => {
            Step::new("login.token", TITLE, Verdict::Pass, format!("a stored token ({} grant) is used", r.grant))
        }
        Some(r) if r.refresh_token.is_some() => Step::new(
            "login.token",
            TITLE,
            Verdict::Pass,
            "the stored token expired; it is refreshed at the token endpoint",
        ),
        _ => Step::new(
            "login.token",
            TITLE,
            Verdict::Skip,
            "no stored token: the token request follows the browser step",
        )
        .fix(format!("log in: mcplens auth login --url {}", t.url)),
    }
}
