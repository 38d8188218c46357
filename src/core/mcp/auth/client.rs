//! Who mcplens is to the authorization server, in the order the MCP spec gives: a
//! pre-registered client (flags or config), a client ID metadata document (when the server
//! supports them), dynamic client registration (RFC 7591); else the user is told what to give.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::discovery::ServerMetadata;
use super::fetch::Fetcher;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthMethod {
    None,
    ClientSecretBasic,
    ClientSecretPost,
    /// A JWT signed with the client's private key (RFC 7523).
    PrivateKeyJwt,
}

impl AuthMethod {
    fn parse(s: &str) -> Option<AuthMethod> {
        match s {
            "none" => Some(AuthMethod::None),
            "client_secret_basic" => Some(AuthMethod::ClientSecretBasic),
            "client_secret_post" => Some(AuthMethod::ClientSecretPost),
            "private_key_jwt" => Some(AuthMethod::PrivateKeyJwt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AuthMethod::None => "none",
            AuthMethod::ClientSecretBasic => "client_secret_basic",
            AuthMethod::ClientSecretPost => "client_secret_post",
            AuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Registration {
    /// `--client-id` / the config's `oauth.clientId`.
    PreRegistered,
    /// The client ID is the URL of a client ID metadata document.
    MetadataDocument,
    /// RFC 7591, at the server's registration endpoint.
    Dynamic,
}

impl Registration {
    pub fn label(self) -> &'static str {
        match self {
            Registration::PreRegistered => "pre-registered client",
            Registration::MetadataDocument => "client ID metadata document",
            Registration::Dynamic => "dynamic client registration",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientInfo {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    pub method: AuthMethod,
    pub registration: Registration,
    /// The redirect URI a dynamically registered client was registered with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
    /// The pre-registered client's private key (PKCS#8 PEM) for private_key_jwt; never stored.
    #[serde(skip)]
    pub private_key_pem: Option<String>,
}

/// What the user gave about the client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientSettings {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub client_metadata_url: Option<String>,
    /// A private key (PKCS#8 PEM, EC P-256) the pre-registered client authenticates with
    /// (private_key_jwt) instead of a secret.
    pub private_key_pem: Option<String>,
}

/// The token endpoint auth method for a client with or without a secret, from what the server
/// supports (RFC 8414's default when it says nothing: client_secret_basic).
pub fn choose_method(server: &ServerMetadata, has_secret: bool) -> AuthMethod {
    if !has_secret {
        return AuthMethod::None;
    }
    match &server.token_auth_methods {
        None => AuthMethod::ClientSecretBasic,
        Some(list) => list
            .iter()
            .filter_map(|m| AuthMethod::parse(m))
            .find(|m| !matches!(m, AuthMethod::None | AuthMethod::PrivateKeyJwt))
            .unwrap_or(AuthMethod::ClientSecretBasic),
    }
}

/// The client to use; `stored` is a dynamically registered client kept from an earlier login
/// with the same server and redirect URI.
pub async fn resolve(
    fetch: &Fetcher,
    settings: &ClientSettings,
    server: &ServerMetadata,
    redirect_uri: &str,
    grant_types: &[&str],
    stored: Option<&ClientInfo>,
) -> Result<ClientInfo, String> {
    if let Some(id) = &settings.client_id {
        let secret = settings.client_secret.clone();
        let method = match &settings.private_key_pem {
            Some(_) => AuthMethod::PrivateKeyJwt,
            None => choose_method(server, secret.is_some()),
        };
        return Ok(ClientInfo {
            client_id: id.clone(),
            client_secret: secret,
            method,
            registration: Registration::PreRegistered,
            redirect_uri: None,
            private_key_pem: settings.private_key_pem.clone(),
        });
    }
    if let Some(url) = &settings.client_metadata_url
        && server.cimd_supported
    {
        return Ok(ClientInfo {
            client_id: url.clone(),
            client_secret: None,
            method: AuthMethod::None,
            registration: Registration::MetadataDocument,
            redirect_uri: None,
            private_key_pem: None,
        });
    }
    // A loopback redirect may take any port (RFC 8252 §7.3): a client registered on an earlier
    // run is reused whatever port this run listens on.
    if let Some(s) = stored.filter(|s| s.registration == Registration::Dynamic) {
        return Ok(s.clone());
    }
    match &server.registration_endpoint {
        Some(endpoint) => register(fetch, endpoint, server, redirect_uri, grant_types).await,
        None => Err("the authorization server offers no dynamic registration and mcplens has no client for it: \
             give a pre-registered client with --client-id (and --client-secret), or the config's \
             \"oauth\": {\"clientId\": ...}"
            .into()),
    }
}

async fn register(
    fetch: &Fetcher,
    endpoint: &str,
    server: &ServerMetadata,
    redirect_uri: &str,
    grant_types: &[&str],
) -> Result<ClientInfo, String> {
    // A public client (PKCE, no secret) is what a CLI is; a server that takes only secrets gets
    // the method it lists first.
    let wanted = match &server.token_auth_methods {
        Some(list) if !list.iter().any(|m| m == "none") => list
            .iter()
            .filter_map(|m| AuthMethod::parse(m))
            .find(|m| *m != AuthMethod::PrivateKeyJwt)
            .unwrap_or(AuthMethod::ClientSecretBasic),
        _ => AuthMethod::None,
    };
    let mut body = json!({
        "client_name": "mcplens",
        "grant_types": grant_types,
        "token_endpoint_auth_method": wanted.name(),
        // SEP-837: mcplens runs on the user's machine and its redirects are loopback ones.
        "application_type": "native",
    });
    if !redirect_uri.is_empty() {
        body["redirect_uris"] = json!([redirect_uri]);
        body["response_types"] = json!(["code"]);
    }
    let answer = fetch.post_json(endpoint, &body).await?;
    if let Some(secret) = answer.json.as_ref().and_then(|j| j.get("client_secret")).and_then(Value::as_str) {
        crate::mcp::log::learn_secret(secret);
    }
    fetch.log_body("registration answer", &answer);
    if !answer.ok() {
        return Err(format!("dynamic client registration was refused: {}", answer.describe()));
    }
    let json = answer.json.unwrap_or(Value::Null);
    let client_id = json
        .get("client_id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or("the registration answer has no client_id")?
        .to_string();
    let client_secret = json.get("client_secret").and_then(Value::as_str).map(str::to_string);
    let method = json
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str)
        .and_then(AuthMethod::parse)
        .unwrap_or_else(|| choose_method(server, client_secret.is_some()));
    Ok(ClientInfo {
        client_id,
        client_secret,
        method,
        registration: Registration::Dynamic,
        redirect_uri: Some(redirect_uri.to_string()).filter(|r| !r.is_empty()),
        private_key_pem: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_method_follows_the_metadata() {
        let mut m = ServerMetadata::default();
        assert_eq!(choose_method(&m, false), AuthMethod::None);
        assert_eq!(choose_method(&m, true), AuthMethod::ClientSecretBasic);
        m.token_auth_methods = Some(vec!["client_secret_post".into()]);
        assert_eq!(choose_method(&m, true), AuthMethod::ClientSecretPost);
        m.token_auth_methods = Some(vec!["none".into(), "client_secret_basic".into()]);
        assert_eq!(choose_method(&m, true), AuthMethod::ClientSecretBasic);
    }
}
