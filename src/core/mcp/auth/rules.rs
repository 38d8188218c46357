//! The rules a login checks before it trusts an authorization server's metadata: the issuer it
//! claims is the one the well-known URL was built from (RFC 8414 §3.3), PKCE with S256 is
//! offered (MCP authorization: clients must refuse otherwise), and the endpoints that see the
//! user's browser, the code and the PKCE verifier use HTTPS unless they are on this machine.
//! Each refusal names what was fetched from where and why, for the log and the error line.

use url::{Host, Url};

use super::discovery::ServerMetadata;

/// How the issuer the metadata must claim was learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// Named by the protected resource metadata: the claim must be that issuer.
    Named,
    /// Only the MCP server's origin is known (a 2025-03-26 server with no resource metadata,
    /// whose own origin serves the metadata): the claim must be on that origin, whatever its
    /// path, since nothing named a path to compare with.
    Origin,
}

/// RFC 8414 §3.3: the metadata's `issuer` must be identical to the issuer the well-known URL
/// was built from; else a server that can serve metadata could send the login elsewhere. The
/// only difference let through is a trailing `/` on an issuer with no path, which names the
/// same origin (`http://as` and `http://as/` are one URL once parsed).
pub fn check_issuer(expected: &str, how: Expected, claimed: Option<&str>, fetched_from: &str) -> Result<(), String> {
    let from = shown(fetched_from);
    let Some(claimed) = claimed else {
        return Err(format!(
            "the authorization server metadata fetched from {from} names no issuer (expected {}); \
             not used (RFC 8414 §3.3), login refused",
            shown(expected)
        ));
    };
    if claimed == expected || same_root(claimed, expected) {
        return Ok(());
    }
    if let Expected::Origin = how
        && same_origin(claimed, expected)
    {
        return Ok(());
    }
    Err(format!(
        "the authorization server metadata fetched from {from} claims issuer {}, not {} that the URL was \
         built from; not used (RFC 8414 §3.3: a server that serves metadata could redirect the login), login refused",
        shown(claimed),
        shown(expected)
    ))
}

fn same_origin(a: &str, b: &str) -> bool {
    match (Url::parse(a), Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin() && a.origin().is_tuple(),
        _ => false,
    }
}

fn same_root(a: &str, b: &str) -> bool {
    let root = |s: &str| Url::parse(s).ok().filter(|u| u.path() == "/" && u.query().is_none()).map(|u| u.to_string());
    let (a, b) = (a.trim_end_matches('/'), b.trim_end_matches('/'));
    a == b && root(a).is_some() && root(a) == root(b)
}

/// The MCP spec: a client must refuse an authorization server whose metadata does not list
/// `code_challenge_methods_supported` with S256. Endpoints guessed for a 2025-03-26 server with
/// no metadata at all have nothing to check.
pub fn check_pkce(server: &ServerMetadata) -> Result<(), String> {
    let Some(from) = &server.fetched_from else { return Ok(()) };
    let from = shown(from);
    match &server.code_challenge_methods {
        None => Err(format!(
            "the authorization server metadata fetched from {from} lists no code_challenge_methods_supported: \
             it does not promise PKCE with S256, which the MCP authorization spec requires; login refused"
        )),
        Some(m) if !m.iter().any(|x| x == "S256") => Err(format!(
            "the authorization server metadata fetched from {from} offers PKCE with {} but not S256, which the MCP \
             authorization spec requires; login refused",
            shown(&m.join(", "))
        )),
        Some(_) => Ok(()),
    }
}

/// Authorization server endpoints use HTTPS (OAuth 2.1 §1.5, MCP authorization), except on a
/// loopback host, where nothing crosses a network: over plain http the authorization request
/// can be rewritten and the code, the PKCE verifier and any client secret read on the way.
pub fn check_endpoints(server: &ServerMetadata) -> Result<(), String> {
    let named = [
        ("authorization_endpoint", Some(&server.authorization_endpoint)),
        ("token_endpoint", Some(&server.token_endpoint)),
        ("registration_endpoint", server.registration_endpoint.as_ref()),
    ];
    for (name, url) in named {
        let Some(url) = url else { continue };
        if !plain_http_off_machine(url) {
            continue;
        }
        let source = match &server.fetched_from {
            Some(f) => format!("named by the metadata fetched from {}", shown(f)),
            None => "guessed at the server's origin (no metadata)".into(),
        };
        return Err(format!(
            "the authorization server's {name} {} ({source}) is plain http to a host that is not this machine: \
             the login would travel in cleartext; login refused (HTTPS is required off loopback)",
            shown(url)
        ));
    }
    Ok(())
}

fn plain_http_off_machine(url: &str) -> bool {
    match Url::parse(url) {
        Ok(u) => u.scheme() == "http" && !is_loopback(&u),
        Err(_) => false,
    }
}

/// `localhost` (and its subdomains, RFC 6761), 127.0.0.0/8 and ::1.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

fn shown(s: &str) -> String {
    crate::sanitize::line(&crate::sanitize::truncate(s, 300)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(auth: &str, token: &str, methods: Option<&[&str]>) -> ServerMetadata {
        ServerMetadata {
            authorization_endpoint: auth.into(),
            token_endpoint: token.into(),
            code_challenge_methods: methods.map(|m| m.iter().map(|s| s.to_string()).collect()),
            fetched_from: Some("https://as.example/.well-known/oauth-authorization-server".into()),
            ..Default::default()
        }
    }

    #[test]
    fn the_issuer_must_be_the_one_the_url_was_built_from() {
        let from = "http://127.0.0.1:9/.well-known/oauth-authorization-server";
        let check_issuer = |e: &str, c: Option<&str>, f: &str| check_issuer(e, Expected::Named, c, f);
        assert!(check_issuer("http://127.0.0.1:9", Some("http://127.0.0.1:9"), from).is_ok());
        assert!(check_issuer("http://127.0.0.1:9", Some("http://127.0.0.1:9/"), from).is_ok());
        assert!(check_issuer("https://as.example/tenant", Some("https://as.example/tenant"), from).is_ok());
        let e = check_issuer("http://127.0.0.1:9", Some("https://attacker.example.com"), from).unwrap_err();
        assert!(e.contains("attacker.example.com") && e.contains(from) && e.contains("8414"), "{e}");
        assert!(check_issuer("https://as.example/tenant", Some("https://as.example/tenant/"), from).is_err());
        assert!(check_issuer("https://as.example/tenant", Some("https://as.example/other"), from).is_err());
        assert!(check_issuer("https://as.example", Some("https://AS.example"), from).is_err());
        assert!(check_issuer("https://as.example", None, from).is_err());
    }

    #[test]
    fn with_only_an_origin_known_the_issuer_must_be_on_it() {
        let from = "http://127.0.0.1:9/.well-known/oauth-authorization-server";
        let origin = |c: &str| check_issuer("http://127.0.0.1:9", Expected::Origin, Some(c), from);
        assert!(origin("http://127.0.0.1:9").is_ok());
        assert!(origin("http://127.0.0.1:9/oauth").is_ok());
        assert!(origin("http://127.0.0.1:10/oauth").is_err());
        assert!(origin("https://127.0.0.1:9").is_err());
        assert!(origin("http://other.example/evil").is_err());
    }

    #[test]
    fn pkce_with_s256_must_be_promised_by_metadata() {
        let ok = "https://as.example/a";
        assert!(check_pkce(&meta(ok, ok, Some(&["S256"]))).is_ok());
        assert!(check_pkce(&meta(ok, ok, Some(&["plain", "S256"]))).is_ok());
        let e = check_pkce(&meta(ok, ok, None)).unwrap_err();
        assert!(e.contains("code_challenge_methods_supported") && e.contains("as.example"), "{e}");
        assert!(check_pkce(&meta(ok, ok, Some(&["plain"]))).is_err());
        assert!(check_pkce(&meta(ok, ok, Some(&[]))).is_err());
        // No metadata at all (2025-03-26 fallback endpoints): nothing was promised or denied.
        let guessed = ServerMetadata { fetched_from: None, ..meta(ok, ok, None) };
        assert!(check_pkce(&guessed).is_ok());
    }

    #[test]
    fn endpoints_off_this_machine_must_use_https() {
        let s = Some(&["S256"][..]);
        assert!(check_endpoints(&meta("https://as.example/a", "https://as.example/t", s)).is_ok());
        assert!(check_endpoints(&meta("http://localhost:3000/a", "http://127.0.0.1:3000/t", s)).is_ok());
        assert!(check_endpoints(&meta("http://[::1]:3000/a", "http://app.localhost/t", s)).is_ok());
        let e = check_endpoints(&meta("http://evil.example/a", "https://as.example/t", s)).unwrap_err();
        assert!(e.contains("authorization_endpoint") && e.contains("evil.example"), "{e}");
        let e = check_endpoints(&meta("https://as.example/a", "http://10.0.0.1/t", s)).unwrap_err();
        assert!(e.contains("token_endpoint"), "{e}");
        assert!(check_endpoints(&meta("https://as.example/a", "http://localhost.evil.example/t", s)).is_err());
        assert!(check_endpoints(&meta("https://as.example/a", "http://127.0.0.1.evil.example/t", s)).is_err());
        let mut m = meta("https://as.example/a", "https://as.example/t", s);
        m.registration_endpoint = Some("http://as.example/r".into());
        assert!(check_endpoints(&m).is_err());
    }
}
