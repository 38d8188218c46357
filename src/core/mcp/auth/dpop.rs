//! DPoP (RFC 9449, the MCP DPoP extension SEP-1932): access tokens bound to a key the client
//! holds. Each token request and each request to the MCP server carries a fresh proof, a JWT
//! signed with that key (ES256, P-256) naming the method and URL, and, on resource requests,
//! the hash of the token (`ath`); a server that wants a nonce of its own says so with
//! `use_dpop_nonce` and a `DPoP-Nonce` header, and the request is sent once more with it.
//!
//! The key lives as long as the token it is bound to: it is kept in the token file (mode 0600,
//! beside the refresh token, which is no less secret), so a stored token still works in the next
//! run. Nothing about the key reaches the log.

use std::collections::HashMap;
use std::sync::Mutex;

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The one algorithm mcplens signs proofs with.
pub const ALG: &str = "ES256";

/// The `error` a server answers when it wants its nonce in the proof (RFC 9449 §8, §9).
pub const USE_NONCE: &str = "use_dpop_nonce";

/// The header a server hands its nonce in.
pub const NONCE_HEADER: &str = "DPoP-Nonce";

/// Longest nonce kept: a nonce is an opaque string of a few dozen bytes.
const MAX_NONCE: usize = 1024;

/// Whether to bind tokens to a key (`--dpop`, `--no-dpop`; else when the authorization server
/// advertises it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mode {
    /// When the authorization server's metadata lists ES256 in
    /// `dpop_signing_alg_values_supported`.
    #[default]
    Auto,
    /// Always; a login fails when the authorization server says it cannot.
    Always,
    Never,
}

/// A proof key: an EC P-256 key pair, kept as its PKCS#8 document (base64url) in the token file.
pub struct Key {
    pair: EcdsaKeyPair,
    stored: String,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Key").field("jkt", &self.thumbprint()).finish_non_exhaustive()
    }
}

impl Key {
    pub fn generate() -> Result<Key, String> {
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .map_err(|_| "no DPoP key could be made (no randomness from the system?)".to_string())?;
        Key::from_stored(&URL_SAFE_NO_PAD.encode(doc.as_ref()))
    }

    /// A key from the token file; an unreadable one is said so (the caller logs in anew).
    pub fn from_stored(stored: &str) -> Result<Key, String> {
        let der =
            URL_SAFE_NO_PAD.decode(stored.trim()).map_err(|_| "the stored DPoP key cannot be read".to_string())?;
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der)
            .map_err(|_| "the stored DPoP key is not an EC P-256 key".to_string())?;
        crate::mcp::log::learn_secret(stored.trim());
        Ok(Key { pair, stored: stored.trim().to_string() })
    }

    /// What the token file keeps.
    pub fn stored(&self) -> &str {
        &self.stored
    }

    /// The public key as a JWK (RFC 7517): the uncompressed point's coordinates.
    pub fn jwk(&self) -> Value {
        let point = self.pair.public_key().as_ref();
        // 0x04 || X (32 bytes) || Y (32 bytes) for P-256.
        let (x, y) = match point.len() {
            65 => (&point[1..33], &point[33..65]),
            _ => (&point[..0], &point[..0]),
        };
        json!({"kty": "EC", "crv": "P-256", "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)})
    }

    /// RFC 7638 thumbprint (`jkt`): what a server binds the token to; shown by `auth status`.
    pub fn thumbprint(&self) -> String {
        thumbprint_of(&self.jwk())
    }

    /// A fresh proof for one request: `htm` the method, `htu` the URL without query and
    /// fragment, `iat` now, a random `jti`; `ath` when a token goes with it, `nonce` when the
    /// server gave one.
    pub fn proof(&self, method: &str, url: &str, token: Option<&str>, nonce: Option<&str>) -> Result<String, String> {
        let mut claims = json!({
            "jti": super::grant::random_token(16)?,
            "htm": method,
            "htu": htu(url),
            "iat": crate::dirs::now_secs(),
        });
        if let Some(t) = token {
            claims["ath"] = Value::String(ath(t));
        }
        if let Some(n) = nonce {
            claims["nonce"] = Value::String(n.to_string());
        }
        let header = json!({"typ": "dpop+jwt", "alg": ALG, "jwk": self.jwk()});
        super::jwt::sign(&self.pair, &header, &claims).map_err(|_| "the DPoP proof could not be signed".to_string())
    }
}

/// RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
pub fn thumbprint_of(jwk: &Value) -> String {
    let s = |k: &str| jwk.get(k).and_then(Value::as_str).unwrap_or("");
    let canonical = format!(r#"{{"crv":"{}","kty":"{}","x":"{}","y":"{}"}}"#, s("crv"), s("kty"), s("x"), s("y"));
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

/// `ath`: base64url(SHA-256(the ASCII access token)) (RFC 9449 §4.2).
pub fn ath(token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))
}

/// The `htu` of a request: its URL without query and fragment (RFC 9449 §4.2).
pub fn htu(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            u.set_query(None);
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) => url.split(['?', '#']).next().unwrap_or(url).to_string(),
    }
}

/// Whether a server's `dpop_signing_alg_values_supported` lets mcplens sign (None: not listed).
pub fn signs_with(algs: Option<&[String]>) -> Option<bool> {
    algs.map(|a| a.iter().any(|x| x == ALG))
}

/// Whether a login with `server` binds its tokens: `Auto` when the metadata lists ES256;
/// `Always` unless the metadata lists algorithms without it (then the login is refused, since
/// the user asked for bound tokens and this server cannot check mcplens's proofs).
pub fn wanted(mode: Mode, server: &super::discovery::ServerMetadata) -> Result<bool, String> {
    match (mode, signs_with(server.dpop_algs.as_deref())) {
        (Mode::Never, _) | (Mode::Auto, None | Some(false)) => Ok(false),
        (Mode::Always, Some(false)) => Err(format!(
            "--dpop: the authorization server's metadata ({}) lists dpop_signing_alg_values_supported {} without \
             ES256, the algorithm mcplens signs proofs with; login refused",
            server.fetched_from.as_deref().map(crate::sanitize::line).unwrap_or_default(),
            crate::sanitize::line(&server.dpop_algs.clone().unwrap_or_default().join(", "))
        )),
        (Mode::Always, _) | (Mode::Auto, Some(true)) => Ok(true),
    }
}

/// The nonces servers handed out, by origin (the authorization server's and the MCP server's
/// are separate: RFC 9449 §8, §9). The newest wins; a server may rotate it in any answer.
#[derive(Debug, Default)]
pub struct Nonces(Mutex<HashMap<String, String>>);

impl Nonces {
    pub fn get(&self, url: &str) -> Option<String> {
        let key = origin(url)?;
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key).cloned()
    }

    /// Keeps `nonce` for `url`'s origin; an empty, overlong or non-visible-ASCII one is
    /// ignored (RFC 9449 §8.1: `1*NQCHAR`). Returns whether it changed.
    pub fn note(&self, url: &str, nonce: &str) -> bool {
        let ok = !nonce.is_empty() && nonce.len() <= MAX_NONCE && nonce.bytes().all(|b| (0x21..=0x7e).contains(&b));
        let Some(key) = origin(url).filter(|_| ok) else { return false };
        let mut map = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        map.insert(key, nonce.to_string()).as_deref() != Some(nonce)
    }
}

/// An MCP server's answer: keeps the nonce it carries (a server may hand a new one in any
/// answer, RFC 9449 §8.2), and says whether the request should go again with it, which it
/// should once when the server refused the proof for want of that nonce.
pub fn wants_nonce_again(auth: &super::Authorizer, url: &str, resp: &reqwest::Response, challenge: &str) -> bool {
    let Some(nonce) = resp.headers().get(NONCE_HEADER).and_then(|v| v.to_str().ok()) else { return false };
    let fresh = auth.note_nonce(url, nonce);
    fresh
        && resp.status() == reqwest::StatusCode::UNAUTHORIZED
        && super::Challenge::parse(challenge).error.as_deref() == Some(USE_NONCE)
}

fn origin(url: &str) -> Option<String> {
    url::Url::parse(url).ok().map(|u| u.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    use super::*;

    fn part(jwt: &str, i: usize) -> Value {
        let seg = jwt.split('.').nth(i).unwrap_or_default();
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(seg).unwrap_or_default()).unwrap_or_default()
    }

    #[test]
    fn ath_and_thumbprint_match_rfc_9449() {
        // RFC 9449 §7.1 (the access token of the example request and its ath).
        assert_eq!(ath("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"), "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
        // RFC 9449 §6.1: the example proof's key and the jkt bound to it.
        let jwk = json!({"kty": "EC", "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
                         "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA", "crv": "P-256"});
        assert_eq!(thumbprint_of(&jwk), "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I");
    }

    #[test]
    fn a_proof_verifies_with_the_public_key_it_carries() {
        let key = Key::generate().unwrap_or_else(|e| panic!("{e}"));
        let proof = key
            .proof("POST", "https://mcp.example/mcp?x=1#f", Some("tok"), Some("n-1"))
            .unwrap_or_else(|e| panic!("{e}"));
        let (header, claims) = (part(&proof, 0), part(&proof, 1));
        assert_eq!((header["typ"].as_str(), header["alg"].as_str()), (Some("dpop+jwt"), Some("ES256")));
        assert!(header["jwk"].get("d").is_none(), "no private part in the header");
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "https://mcp.example/mcp");
        assert_eq!(claims["ath"], ath("tok"));
        assert_eq!(claims["nonce"], "n-1");
        assert!(claims["jti"].as_str().is_some_and(|j| j.len() >= 16) && claims["iat"].is_u64());
        // Verified with the key rebuilt from the JWK alone, as a server does.
        let coord = |k: &str| URL_SAFE_NO_PAD.decode(header["jwk"][k].as_str().unwrap_or_default()).unwrap_or_default();
        let point = [vec![4u8], coord("x"), coord("y")].concat();
        let mut segs = proof.rsplitn(2, '.');
        let sig = URL_SAFE_NO_PAD.decode(segs.next().unwrap_or_default()).unwrap_or_default();
        let signed = segs.next().unwrap_or_default();
        assert!(UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point).verify(signed.as_bytes(), &sig).is_ok());
        // Each proof is new; the key survives the token file.
        let again = key.proof("POST", "https://mcp.example/mcp", None, None).unwrap_or_default();
        assert_ne!(part(&again, 1)["jti"], claims["jti"]);
        assert!(part(&again, 1).get("ath").is_none() && part(&again, 1).get("nonce").is_none());
        let back = Key::from_stored(key.stored()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.thumbprint(), key.thumbprint());
        assert!(Key::from_stored("not a key").is_err());
    }

    #[test]
    fn tokens_are_bound_when_the_metadata_offers_es256_or_the_user_asks() {
        let with = |algs: Option<&[&str]>| super::super::discovery::ServerMetadata {
            dpop_algs: algs.map(|a| a.iter().map(|s| s.to_string()).collect()),
            fetched_from: Some("https://as.example/.well-known/oauth-authorization-server".into()),
            ..Default::default()
        };
        assert_eq!(wanted(Mode::Auto, &with(Some(&["ES256"]))), Ok(true));
        assert_eq!(wanted(Mode::Auto, &with(Some(&["RS256"]))), Ok(false));
        assert_eq!(wanted(Mode::Auto, &with(None)), Ok(false));
        assert_eq!(wanted(Mode::Never, &with(Some(&["ES256"]))), Ok(false));
        assert_eq!(wanted(Mode::Always, &with(None)), Ok(true));
        let e = wanted(Mode::Always, &with(Some(&["RS256", "PS256"]))).unwrap_err();
        assert!(e.contains("RS256, PS256") && e.contains("as.example"), "{e}");
    }

    #[test]
    fn nonces_are_kept_per_origin_and_checked() {
        let n = Nonces::default();
        assert!(n.note("http://as.example/token", "abc"));
        assert!(!n.note("http://as.example/other", "abc"));
        assert_eq!(n.get("http://as.example/x").as_deref(), Some("abc"));
        assert_eq!(n.get("http://rs.example/mcp"), None);
        assert!(!n.note("http://rs.example/mcp", "bad nonce"));
        assert!(!n.note("http://rs.example/mcp", "\u{1b}[2J"));
        assert!(!n.note("http://rs.example/mcp", ""));
        assert_eq!(signs_with(Some(&["RS256".into()])), Some(false));
        assert_eq!(signs_with(Some(&["RS256".into(), "ES256".into()])), Some(true));
        assert_eq!(signs_with(None), None);
    }
}
