//! Token endpoint requests (authorization code with PKCE, refresh, client credentials) and the
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
}

/// What the grant sends besides the client's credentials.
pub enum Grant<'a> {
    Code { code: &'a str, redirect_uri: &'a str, verifier: &'a str },
    Refresh { refresh_token: &'a str },
    ClientCredentials,
}

/// `audience` is the authorization server's issuer, the `aud` of a private_key_jwt assertion.
pub async fn request(
    fetch: &Fetcher,
    token_endpoint: &str,
    audience: &str,
    client: &ClientInfo,
    grant: Grant<'_>,
    resource: &str,
    scope: Option<&str>,
) -> Result<Tokens, String> {
    let mut form: Vec<(&str, &str)> = vec![];
    let what = match &grant {
        Grant::Code { code, redirect_uri, verifier } => {
            form.extend([
                ("grant_type", "authorization_code"),
                ("code", *code),
                ("redirect_uri", *redirect_uri),
                ("code_verifier", *verifier),
            ]);
            "the authorization code exchange"
        }
        Grant::Refresh { refresh_token } => {
            form.extend([("grant_type", "refresh_token"), ("refresh_token", *refresh_token)]);
            "the token refresh"
        }
        Grant::ClientCredentials => {
            form.push(("grant_type", "client_credentials"));
            "the client credentials grant"
        }
    };
    form.push(("resource", resource));
    if let Some(s) = scope.filter(|s| !s.is_empty()) {
        form.push(("scope", s));
    }
    let secret = client.client_secret.as_deref().unwrap_or("");
    let assertion = match (client.method, &client.private_key_pem) {
        (AuthMethod::PrivateKeyJwt, Some(pem)) => super::jwt::client_assertion(pem, &client.client_id, audience)?,
        (AuthMethod::PrivateKeyJwt, None) => return Err("private_key_jwt needs the client's key (--client-key)".into()),
        _ => String::new(),
    };
    let basic = match client.method {
        AuthMethod::PrivateKeyJwt => {
            crate::mcp::log::learn_secret(&assertion);
            form.push(("client_id", &client.client_id));
            form.push(("client_assertion_type", super::jwt::ASSERTION_TYPE));
            form.push(("client_assertion", &assertion));
            None
        }
        AuthMethod::ClientSecretBasic => Some(basic_header(&client.client_id, secret)),
        AuthMethod::ClientSecretPost => {
            form.push(("client_id", &client.client_id));
            form.push(("client_secret", secret));
            None
        }
        AuthMethod::None => {
            form.push(("client_id", &client.client_id));
            None
        }
    };
    let answer = fetch.post_form(token_endpoint, &form, basic).await?;
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
    let access_token = field("access_token")
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("{what}: the answer has no access_token"))?;
    if let Some(kind) = field("token_type")
        && !kind.eq_ignore_ascii_case("bearer")
    {
        return Err(format!(
            "{what}: the token is of type {:?}; mcplens sends Bearer tokens only",
            crate::sanitize::line(&kind)
        ));
    }
    let expires_in = answer.json.as_ref().and_then(|j| j.get("expires_in")).and_then(|v| {
        // Some servers send the number as a string.
        v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    });
    Ok(Tokens { access_token, refresh_token: field("refresh_token"), expires_in, scope: field("scope") })
}

/// RFC 6749 §2.3.1: the id and secret form-encoded, then joined and base64'd.
fn basic_header(id: &str, secret: &str) -> String {
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
    fn basic_credentials_are_form_encoded() {
        assert_eq!(
            basic_header("a b", "c:d"),
            format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("a+b:c%3Ad"))
        );
    }
}
