//! Finding the authorization server, as the MCP spec (2025-11-25) orders it: the protected
//! resource metadata (RFC 9728) from the challenge's `resource_metadata` or the well-known
//! paths, then the authorization server's metadata (RFC 8414, then OpenID discovery); with the
//! 2025-03-26 fallbacks when the server publishes no resource metadata (the MCP server's own
//! origin as authorization server, and `/authorize`, `/token`, `/register` there).

use serde_json::Value;
use url::Url;

use super::fetch::Fetcher;

/// The authorization server's endpoints and what it supports.
#[derive(Debug, Clone, Default)]
pub struct ServerMetadata {
    pub issuer: Option<String>,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub token_auth_methods: Option<Vec<String>>,
    pub scopes_supported: Option<Vec<String>>,
    pub cimd_supported: bool,
    pub iss_parameter_supported: bool,
    pub code_challenge_methods: Option<Vec<String>>,
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the server binds tokens to keys.
    pub dpop_algs: Option<Vec<String>>,
    pub grant_types: Option<Vec<String>>,
    /// The URL the metadata was fetched from; None for the 2025-03-26 endpoints guessed at the
    /// server's origin when there is no metadata.
    pub fetched_from: Option<String>,
}

/// Everything a login needs to know about where to go.
#[derive(Debug, Clone)]
pub struct Discovered {
    /// The `resource` indicator (RFC 8707): the PRM's `resource`, else the server's URL.
    pub resource: String,
    /// The PRM's `scopes_supported`.
    pub resource_scopes: Option<Vec<String>>,
    pub server: ServerMetadata,
}

/// The canonical form of the MCP server's URL (no fragment), the default resource indicator.
pub fn canonical_resource(server_url: &str) -> String {
    match Url::parse(server_url) {
        Ok(mut u) => {
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) => server_url.to_string(),
    }
}

pub async fn discover(
    fetch: &Fetcher,
    server_url: &str,
    resource_metadata: Option<&str>,
) -> Result<Discovered, String> {
    let server = Url::parse(server_url).map_err(|e| format!("the server URL cannot be read: {e}"))?;
    let prm = protected_resource(fetch, &server, resource_metadata).await?;
    let Some(prm) = prm else {
        fetch.log().push(
            crate::mcp::log::LogKind::Info,
            "auth: no protected resource metadata; the server's own origin is taken as the authorization server (2025-03-26)",
        );
        let origin_text = origin_of(&server);
        let origin = Url::parse(&origin_text).map_err(|e| format!("the server URL cannot be read: {e}"))?;
        let metadata = match server_metadata(fetch, &origin, &origin_text, super::rules::Expected::Origin).await? {
            Some(m) => m,
            None => fallback_endpoints(&origin),
        };
        super::rules::check_endpoints(&metadata)?;
        return Ok(Discovered { resource: canonical_resource(server_url), resource_scopes: None, server: metadata });
    };
    let resource = match prm.get("resource").and_then(Value::as_str) {
        Some(r) => {
            check_resource(r, &server)?;
            r.to_string()
        }
        None => canonical_resource(server_url),
    };
    let issuer = prm
        .get("authorization_servers")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().find_map(Value::as_str))
        .ok_or("the protected resource metadata names no authorization server")?;
    let issuer_url =
        Url::parse(issuer).map_err(|e| format!("the authorization server URL {issuer:?} cannot be read: {e}"))?;
    check_web_url(&issuer_url)?;
    let metadata = match server_metadata(fetch, &issuer_url, issuer, super::rules::Expected::Named).await? {
        Some(m) => m,
        None => fallback_endpoints(&issuer_url),
    };
    super::rules::check_endpoints(&metadata)?;
    Ok(Discovered { resource, resource_scopes: strings(prm.get("scopes_supported")), server: metadata })
}

/// The PRM, from the challenge's URL, else `/.well-known/oauth-protected-resource` with the
/// server's path, else at the root; None when there is none (a 2025-03-26 server).
async fn protected_resource(
    fetch: &Fetcher,
    server: &Url,
    resource_metadata: Option<&str>,
) -> Result<Option<Value>, String> {
    let mut candidates = vec![];
    if let Some(u) = resource_metadata {
        match server.join(u) {
            Ok(url) if check_web_url(&url).is_ok() => candidates.push(url.to_string()),
            _ => fetch.log().push(
                crate::mcp::log::LogKind::Warning,
                &format!("auth: resource_metadata {:?} is not a web URL; ignored", crate::sanitize::line(u)),
            ),
        }
    }
    if candidates.is_empty() {
        let origin = origin_of(server);
        let path = server.path().trim_end_matches('/');
        if !path.is_empty() {
            candidates.push(format!("{origin}/.well-known/oauth-protected-resource{path}"));
        }
        candidates.push(format!("{origin}/.well-known/oauth-protected-resource"));
    }
    for url in candidates {
        // An unreachable candidate is no metadata there (the fetcher logged why): the next one
        // and the 2025-03-26 fallbacks still get their turn.
        let Ok(answer) = fetch.get(&url).await else { continue };
        if answer.ok()
            && let Some(json) = answer.json.filter(Value::is_object)
        {
            return Ok(Some(json));
        }
    }
    Ok(None)
}

/// RFC 8414 then OpenID discovery, path-aware, in the spec's order; `expected` is the issuer
/// identifier as it was named (the PRM's entry, or the server's origin), which the metadata's
/// `issuer` must match.
async fn server_metadata(
    fetch: &Fetcher,
    issuer: &Url,
    expected: &str,
    how: super::rules::Expected,
) -> Result<Option<ServerMetadata>, String> {
    let candidates = metadata_urls(issuer);
    for url in candidates {
        let answer = fetch.get(&url).await?;
        if !answer.ok() {
            continue;
        }
        let Some(json) = answer.json.filter(Value::is_object) else { continue };
        let claimed = json.get("issuer").and_then(Value::as_str);
        super::rules::check_issuer(expected, how, claimed, &url)?;
        let mut metadata = read_metadata(&json)?;
        metadata.fetched_from = Some(url);
        return Ok(Some(metadata));
    }
    Ok(None)
}

fn read_metadata(json: &Value) -> Result<ServerMetadata, String> {
    let text = |k: &str| json.get(k).and_then(Value::as_str).map(str::to_string);
    let endpoint = |k: &str| -> Result<Option<String>, String> {
        match text(k) {
            None => Ok(None),
            Some(u) => {
                let url = Url::parse(&u).map_err(|e| format!("the authorization server's {k} cannot be read: {e}"))?;
                check_web_url(&url)?;
                Ok(Some(u))
            }
        }
    };
    Ok(ServerMetadata {
        issuer: text("issuer"),
        authorization_endpoint: endpoint("authorization_endpoint")?
            .ok_or("the authorization server's metadata has no authorization_endpoint")?,
        token_endpoint: endpoint("token_endpoint")?
            .ok_or("the authorization server's metadata has no token_endpoint")?,
        registration_endpoint: endpoint("registration_endpoint")?,
        token_auth_methods: strings(json.get("token_endpoint_auth_methods_supported")),
        scopes_supported: strings(json.get("scopes_supported")),
        cimd_supported: json.get("client_id_metadata_document_supported").and_then(Value::as_bool).unwrap_or(false),
        iss_parameter_supported: json
            .get("authorization_response_iss_parameter_supported")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        code_challenge_methods: strings(json.get("code_challenge_methods_supported")),
        dpop_algs: strings(json.get("dpop_signing_alg_values_supported")),
        grant_types: strings(json.get("grant_types_supported")),
        fetched_from: None,
    })
}

/// The 2025-03-26 default endpoints, at the authorization server's origin.
fn fallback_endpoints(base: &Url) -> ServerMetadata {
    let origin = origin_of(base);
    ServerMetadata {
        authorization_endpoint: format!("{origin}/authorize"),
        token_endpoint: format!("{origin}/token"),
        registration_endpoint: Some(format!("{origin}/register")),
        ..ServerMetadata::default()
    }
}

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
}

/// Where an issuer's metadata is looked for: RFC 8414 then OpenID discovery, path-aware, in the
/// MCP spec's order.
pub fn metadata_urls(issuer: &Url) -> Vec<String> {
    let origin = origin_of(issuer);
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

fn origin_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// Endpoints are fetched and opened: only http and https.
pub fn check_web_url(url: &Url) -> Result<(), String> {
    match url.scheme() {
        "http" | "https" => Ok(()),
        s => Err(format!("{s}: URLs are not followed; only http and https")),
    }
}

/// The PRM's resource must be this server (same origin, and a prefix of its path): a token
/// for another resource must never be asked for on this server's say-so.
fn check_resource(resource: &str, server: &Url) -> Result<(), String> {
    let shown = crate::sanitize::line(resource).into_owned();
    let r = Url::parse(resource)
        .map_err(|e| format!("the protected resource metadata's resource {shown:?} cannot be read: {e}"))?;
    let prefix = r.path().trim_end_matches('/');
    let path = server.path();
    let within = path == prefix || path.starts_with(&format!("{prefix}/")) || prefix.is_empty();
    if r.origin() != server.origin() || !within {
        return Err(format!(
            "the protected resource metadata is for {shown}, not for this server ({server}); \
             login refused (a token for another resource would be sent)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_resource_must_be_this_server() {
        let server = url("http://127.0.0.1:9/mcp");
        assert!(check_resource("http://127.0.0.1:9/mcp", &server).is_ok());
        assert!(check_resource("http://127.0.0.1:9", &server).is_ok());
        assert!(check_resource("http://127.0.0.1:9/", &server).is_ok());
        assert!(check_resource("https://evil.example.com/mcp", &server).is_err());
        assert!(check_resource("http://127.0.0.1:9/mcp2", &server).is_err());
        assert!(check_resource("http://127.0.0.1:10/mcp", &server).is_err());
    }

    #[test]
    fn fallbacks_sit_at_the_origin() {
        let m = fallback_endpoints(&url("http://h:1/tenant/x"));
        assert_eq!(m.authorization_endpoint, "http://h:1/authorize");
        assert_eq!(m.token_endpoint, "http://h:1/token");
    }
}
