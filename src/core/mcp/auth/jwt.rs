//! Client authentication with a signed JWT (`private_key_jwt`, RFC 7523 §2.2, OpenID Connect
//! Core §9): the client proves itself at the token endpoint with an assertion signed by its
//! private key (an EC P-256 key in PKCS#8 PEM, signed ES256) instead of sending a secret.

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};

/// `client_assertion_type` for a JWT assertion.
pub const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// How long an assertion is good for: it is used at once.
const LIFETIME_SECS: u64 = 300;

/// A fresh assertion: `iss` and `sub` the client, `aud` the authorization server's issuer,
/// a short `exp` and a random `jti`.
pub fn client_assertion(pem: &str, client_id: &str, audience: &str) -> Result<String, String> {
    let key = key_pair(pem)?;
    let now = crate::dirs::now_secs();
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": super::grant::random_token(16)?,
    });
    let header = json!({"alg": "ES256", "typ": "JWT"});
    sign(&key, &header, &claims).map_err(|_| "the client assertion could not be signed".to_string())
}

/// A compact JWS: header and claims base64url'd, signed ES256 (the fixed-size r||s form JWS uses).
pub(super) fn sign(key: &EcdsaKeyPair, header: &Value, claims: &Value) -> Result<String, ()> {
    let input =
        format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
    let sig = key.sign(&SystemRandom::new(), input.as_bytes()).map_err(|_| ())?;
    Ok(format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.as_ref())))
}

/// Whether `pem` is a key mcplens can sign with, said before any request is made.
pub fn check_key(pem: &str) -> Result<(), String> {
    key_pair(pem).map(|_| ())
}

fn key_pair(pem: &str) -> Result<EcdsaKeyPair, String> {
    let body: String = pem.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("-----")).collect();
    if !pem.contains("-----BEGIN PRIVATE KEY-----") {
        return Err("the client key is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)".into());
    }
    let der = STANDARD.decode(body.as_bytes()).map_err(|e| format!("the client key's PEM cannot be read: {e}"))?;
    EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der)
        .map_err(|_| "the client key is not an EC P-256 private key (ES256 is what mcplens signs with)".into())
}

#[cfg(test)]
mod tests {
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    use super::*;

    fn pem_of(der: &[u8]) -> String {
        format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n", STANDARD.encode(der))
    }

    #[test]
    fn the_assertion_is_signed_es256_with_the_claims_a_server_checks() {
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let pem = pem_of(doc.as_ref());
        assert!(check_key(&pem).is_ok());
        let jwt = client_assertion(&pem, "cid", "https://as.example").unwrap_or_else(|e| panic!("{e}"));
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap_or_default()).unwrap_or_default();
        assert_eq!((claims["iss"].as_str(), claims["sub"].as_str()), (Some("cid"), Some("cid")));
        assert_eq!(claims["aud"], "https://as.example");
        assert!(claims["exp"].as_u64() > claims["iat"].as_u64());
        let public = key_pair(&pem).unwrap_or_else(|e| panic!("{e}")).public_key().as_ref().to_vec();
        let sig = URL_SAFE_NO_PAD.decode(parts[2]).unwrap_or_default();
        let signed = format!("{}.{}", parts[0], parts[1]);
        assert!(UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, public).verify(signed.as_bytes(), &sig).is_ok());
    }

    #[test]
    fn keys_that_cannot_sign_are_said_so() {
        assert!(check_key("not a key").is_err());
        assert!(check_key("-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----").is_err());
        assert!(check_key(&pem_of(b"\x30\x03\x02\x01\x00")).is_err());
    }
}
