//! Token endpoint requests (authorization code with PKCE, refresh, client credentials, JWT
//! bearer), with DPoP proofs when tokens are bound, and the
//! pieces of the authorization request (PKCE pair, state).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::client::{AuthMethod, ClientInfo};
use super::fetch::Fetcher;

/// Random bytes as base64url: PKCE verifiers and `state` values.
pub fn random_token(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(URL_SAFE_NO_PAD.encode(buf))
}

/// `BASE64URL(SHA256(verifier))` (RFC 7636 S256).
pub fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A token answer, read.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
    /// "DPoP" for a token bound to the proof key; else None (a bearer token).
    pub token_type: Option<String>,
}

/// What the grant sends besides the client's credentials.
pub enum Grant<'a> {
    Code {
        code: &'a str,
        redirect_uri: &'a str,
        verifier: &'a str,
    },
    Refresh {
        refresh_token: &'a str,
    },
    ClientCredentials,
    /// RFC 7523 §2.1: a signed assertion (a workload's identity token, an identity assertion
    /// grant from the enterprise IdP) is the grant.
    JwtBearer {
        assertion: &'a str,
    },
}

/// `grant_type` of the JWT bearer grant (RFC 7523).
pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The proof key and the nonces, when tokens are bound (DPoP).
#[derive(Clone, Copy)]
pub struct Dpop<'a> {
    pub key: &'a super::dpop::Key,
    pub nonces: &'a super::dpop::Nonces,
}

/// One token request: where, who asks, for what.
pub struct TokenRequest<'a> {
    pub endpoint: &'a str,
    /// The authorization server's issuer, the `aud` of a private_key_jwt assertion.
    pub audience: &'a str,
    pub client: &'a ClientInfo,
    pub resource: &'a str,
    pub scope: Option<&'a str>,
    pub dpop: Option<Dpop<'a>>,
}

type Pairs = Vec<(&'static str, String)>;

pub async fn request(fetch: &Fetcher, req: &TokenRequest<'_>, grant: Grant<'_>) -> Result<Tokens, String> {
    let what = match &grant {
        Grant::Code { .. } => "the authorization code exchange",
        Grant::Refresh { .. } => "the token refresh",
        Grant::ClientCredentials => "the client credentials grant",
        Grant::JwtBearer { .. } => "the JWT bearer grant",
    };
    if let Grant::JwtBearer { assertion } = &grant {
        crate::mcp::log::learn_secret(assertion);
    }
    let answer = post(fetch, req, &grant).await?;
    let field = |k: &str| answer.json.as_ref().and_then(|j| j.get(k)).and_then(Value::as_str).map(str::to_string);
    // Learned before the body is logged, so the log shows the mask.
    for k in ["access_token", "refresh_token", "id_token"] {
        if let Some(t) = field(k) {
            crate::mcp::log::learn_secret(&t);
        }
    }
    fetch.log_body("token answer", &answer);
    if !answer.ok() {
        return Err(format!("{what} was refused: {}", answer.describe()));
    }
    let access_token = checked_access_token(what, field("access_token"))?;
    let token_type = token_type(field("token_type"), req.dpop.is_some()).map_err(|e| format!("{what}: {e}"))?;
    let expires_in = answer.json.as_ref().and_then(|j| j.get("expires_in")).and_then(|v| {
        // Some servers send the number as a string.
        v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    });
    Ok(Tokens { access_token, refresh_token: field("refresh_token"), expires_in, scope: field("scope"), token_type })
}

/// The answer's access token, if it is one a request can carry (never quoted: it is a secret).
fn checked_access_token(what: &str, token: Option<String>) -> Result<String, String> {
    let token = token.filter(|t| !t.is_empty()).ok_or_else(|| format!("{what}: the answer has no access_token"))?;
    match crate::mcp::target::header_value_problem(&token) {
        Some(why) => Err(format!(
            "{what}: the access_token the authorization server sent {why}, which no HTTP header can carry \
             (a fault of that server: tell its operator)"
        )),
        None => Ok(token),
    }
}

/// Bearer (or no type named: RFC 6749 makes it required, some servers leave it out), or DPoP
/// when a proof was sent; anything else cannot be presented.
fn token_type(named: Option<String>, proved: bool) -> Result<Option<String>, String> {
    match named {
        None => Ok(None),
        Some(t) if t.eq_ignore_ascii_case("bearer") => Ok(None),
        Some(t) if t.eq_ignore_ascii_case("dpop") && proved => Ok(Some("DPoP".into())),
        Some(t) => Err(format!(
            "the token is of type {:?}; mcplens sends Bearer tokens, and DPoP ones it asked for",
            crate::sanitize::line(&t)
        )),
    }
}

/// Sends the request; with DPoP, a fresh proof each time, and once more with the server's
/// nonce when it answers `use_dpop_nonce` (RFC 9449 §8).
async fn post(fetch: &Fetcher, req: &TokenRequest<'_>, grant: &Grant<'_>) -> Result<super::fetch::Answer, String> {
    let mut retried = false;
    loop {
        let (form, mut headers) = build(req, grant)?;
        if let Some(d) = req.dpop {
            let proof = d.key.proof("POST", req.endpoint, None, d.nonces.get(req.endpoint).as_deref())?;
            headers.push(("DPoP", proof));
        }
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = fetch.post_form(req.endpoint, &pairs, &headers).await?;
        let Some(d) = req.dpop else { return Ok(answer) };
        let fresh = answer.dpop_nonce.as_deref().is_some_and(|n| d.nonces.note(req.endpoint, n));
        if retried || !fresh || answer.error() != Some(super::dpop::USE_NONCE) {
            return Ok(answer);
        }
        fetch.log().push(
            crate::mcp::log::LogKind::Info,
            "auth: the token endpoint wants a DPoP nonce (use_dpop_nonce); sending the request again with it",
        );
        retried = true;
    }
}

/// The form and the headers of one attempt: each attempt signs a fresh client assertion.
fn build(req: &TokenRequest<'_>, grant: &Grant<'_>) -> Result<(Pairs, Pairs), String> {
    let mut form: Pairs = match grant {
        Grant::Code { code, redirect_uri, verifier } => vec![
            ("grant_type", "authorization_code".into()),
            ("code", code.to_string()),
            ("redirect_uri", redirect_uri.to_string()),
            ("code_verifier", verifier.to_string()),
        ],
        Grant::Refresh { refresh_token } => {
            vec![("grant_type", "refresh_token".into()), ("refresh_token", refresh_token.to_string())]
        }
        Grant::ClientCredentials => vec![("grant_type", "client_credentials".into())],
        Grant::JwtBearer { assertion } => vec![("grant_type", JWT_BEARER.into()), ("assertion", assertion.to_string())],
    };
    form.push(("resource", req.resource.to_string()));
    if let Some(s) = req.scope.filter(|s| !s.is_empty()) {
        form.push(("scope", s.to_string()));
    }
    let headers = client_auth(req.client, req.audience, &mut form)?;
    Ok((form, headers))
}

/// The client's credentials, as its method says: in the form, or as a Basic header.
fn client_auth(client: &ClientInfo, audience: &str, form: &mut Pairs) -> Result<Pairs, String> {
    let secret = client.client_secret.as_deref().unwrap_or("");
    match client.method {
        AuthMethod::PrivateKeyJwt => {
            let Some(pem) = &client.private_key_pem else {
                return Err("private_key_jwt needs the client's key (--client-key)".into());
            };
            let assertion = super::jwt::client_assertion(pem, &client.client_id, audience)?;
            crate::mcp::log::learn_secret(&assertion);
            form.push(("client_id", client.client_id.clone()));
            form.push(("client_assertion_type", super::jwt::ASSERTION_TYPE.into()));
            form.push(("client_assertion", assertion));
            Ok(vec![])
        }
        AuthMethod::ClientSecretBasic => Ok(vec![("Authorization", basic_header(&client.client_id, secret))]),
        AuthMethod::ClientSecretPost => {
            form.push(("client_id", client.client_id.clone()));
            form.push(("client_secret", secret.to_string()));
            Ok(vec![])
        }
        AuthMethod::None => {
            form.push(("client_id", client.client_id.clone()));
            Ok(vec![])
        }
    }
}

/// RFC 6749 §2.3.1: the id and secret form-encoded, then joined and base64'd.
pub(super) fn basic_header(id: &str, secret: &str) -> String {
    let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    let pair = format!("{}:{}", enc(id), enc(secret));
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(pair))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s256_matches_rfc_7636() {
        // RFC 7636 appendix B.
        assert_eq!(
            challenge_of("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn randomness_is_long_and_url_safe() {
        let t = random_token(32).unwrap_or_default();
        assert_eq!(t.len(), 43);
        assert!(t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(random_token(32).ok(), Some(t));
    }

    #[test]
    fn dpop_tokens_are_taken_only_when_a_proof_was_sent() {
        assert_eq!(token_type(None, false), Ok(None));
        assert_eq!(token_type(Some("bearer".into()), true), Ok(None));
        assert_eq!(token_type(Some("DPoP".into()), true), Ok(Some("DPoP".into())));
        assert!(token_type(Some("DPoP".into()), false).is_err());
        assert!(token_type(Some("mac".into()), true).is_err());
    }

    #[test]
    fn a_jwt_bearer_grant_sends_the_assertion_and_the_resource() {
        let client = ClientInfo {
            client_id: "wl".into(),
            client_secret: None,
            method: AuthMethod::None,
            registration: super::super::client::Registration::PreRegistered,
            redirect_uri: None,
            private_key_pem: None,
        };
        let req = TokenRequest {
            endpoint: "http://as/token",
            audience: "http://as",
            client: &client,
            resource: "http://rs/mcp",
            scope: Some("a b"),
            dpop: None,
        };
        let (form, headers) = build(&req, &Grant::JwtBearer { assertion: "x.y.z" }).unwrap_or_default();
        let get = |k: &str| form.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("grant_type"), Some(JWT_BEARER));
        assert_eq!(
            (get("assertion"), get("resource"), get("scope")),
            (Some("x.y.z"), Some("http://rs/mcp"), Some("a b"))
        );
        assert_eq!(get("client_id"), Some("wl"));
        assert!(headers.is_empty());
    }

    #[test]
    fn an_access_token_no_header_can_carry_is_refused_unquoted() {
        let what = "the token request";
        assert_eq!(checked_access_token(what, Some("tok".into())), Ok("tok".into()));
        assert!(checked_access_token(what, Some(String::new())).is_err_and(|e| e.contains("has no access_token")));
        for (token, why) in [("sek\nret", "holds a line break"), ("sek\u{1b}ret", "holds a control character")] {
            let e = checked_access_token(what, Some(token.into())).err().unwrap_or_default();
            assert!(e.starts_with(&format!("{what}: the access_token the authorization server sent {why}")), "{e}");
            assert!(!e.contains("sek"), "{e}");
        }
    }

    #[test]
    fn basic_credentials_are_form_encoded() {
        assert_eq!(
            basic_header("a b", "c:d"),
            format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("a+b:c%3Ad"))
        );
    }
}
