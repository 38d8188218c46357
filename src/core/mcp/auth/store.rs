//! Tokens kept per server URL in the state directory (`auth/<key>.json`, mode 0600 in a 0700
//! directory), written whole to a temporary file and renamed, so a crash never leaves half a
//! file. The file is read with a cap; a file that cannot be read is no login, never a panic.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::client::ClientInfo;

/// Largest token file read back.
const MAX_FILE: u64 = 256 << 10;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub server_url: String,
    pub resource: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    pub token_endpoint: String,
    pub client: ClientInfo,
    /// Absent after a logout that kept the registered client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// Seconds since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// The scopes granted (or, when the server did not say, asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The grant that got the token: "authorization_code", "client_credentials", "jwt_bearer"
    /// or "enterprise" (an identity assertion from the enterprise IdP).
    pub grant: String,
    /// "DPoP" when the access token is bound to `dpop_key`; absent for a bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_type: Option<String>,
    /// The DPoP proof key the tokens are bound to (PKCS#8, base64url): without it a bound token
    /// is of no use, so it is kept with the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_key: Option<String>,
    pub obtained_at: u64,
}

impl Record {
    /// Expired, or about to: within a minute, or a quarter of a short lifetime (a token that
    /// lives 30 s is not refreshed before every request).
    pub fn expired(&self, now: u64) -> bool {
        self.expires_at.is_some_and(|t| {
            let margin = (t.saturating_sub(self.obtained_at) / 4).min(60);
            now.saturating_add(margin) >= t
        })
    }
}

pub fn dir() -> Option<PathBuf> {
    crate::dirs::state_dir().map(|d| d.join("auth"))
}

pub fn path_for(dir: &Path, server_url: &str) -> PathBuf {
    dir.join(format!("{}.json", crate::dirs::server_key(server_url)))
}

pub fn load(dir: &Path, server_url: &str) -> Result<Option<Record>, String> {
    let path = path_for(dir, server_url);
    let text = match crate::capped_file::read_text(&path, MAX_FILE) {
        Ok(t) => t,
        Err(_) if !path.exists() => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let record: Record =
        serde_json::from_str(&text).map_err(|e| format!("{} is not a token file: {e}", path.display()))?;
    // Two URLs with the same key would be a hash collision: never send one's token to another.
    if record.server_url != server_url {
        return Ok(None);
    }
    let secrets = [&record.access_token, &record.refresh_token, &record.client.client_secret, &record.dpop_key];
    for s in secrets.into_iter().flatten() {
        crate::mcp::log::learn_secret(s);
    }
    Ok(Some(record))
}

/// Why the stored access token cannot be sent, naming the file and what to do: an HTTP header
/// is one line of printable characters. Never quotes the token.
pub fn unusable(dir: &Path, record: &Record) -> Option<String> {
    let why = crate::mcp::target::header_value_problem(record.access_token.as_deref()?)?;
    let url = &record.server_url;
    Some(format!(
        "the token stored in {} for {url} {why}, which no HTTP header can carry: log in again with \
         `mcplens auth login --url {url}`",
        path_for(dir, url).display()
    ))
}

pub fn save(dir: &Path, record: &Record) -> Result<PathBuf, String> {
    use std::io::Write;
    crate::dirs::create_private_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = path_for(dir, &record.server_url);
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    let text = serde_json::to_string_pretty(record).map_err(|e| e.to_string())?;
    let written = crate::dirs::open_private(&tmp, false)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(path)
}

/// Removes the server's file; Ok(false) when there was none.
pub fn remove(dir: &Path, server_url: &str) -> Result<bool, String> {
    let path = path_for(dir, server_url);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("cannot remove {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::client::{AuthMethod, Registration};
    use super::*;

    fn record(url: &str) -> Record {
        Record {
            server_url: url.into(),
            resource: url.into(),
            issuer: None,
            token_endpoint: "http://as/token".into(),
            client: ClientInfo {
                client_id: "id".into(),
                client_secret: None,
                method: AuthMethod::None,
                registration: Registration::Dynamic,
                redirect_uri: None,
                private_key_pem: None,
            },
            access_token: Some("tok-123456".into()),
            refresh_token: None,
            expires_at: Some(100),
            scope: None,
            grant: "authorization_code".into(),
            token_type: None,
            dpop_key: None,
            obtained_at: 0,
        }
    }

    #[test]
    fn a_token_no_header_can_carry_is_named_with_its_file_never_quoted() {
        let dir = Path::new("/state/auth");
        assert_eq!(unusable(dir, &record("http://a/mcp")), None);
        let mut r = record("http://a/mcp");
        r.access_token = Some("tok-12\n3456".into());
        let why = unusable(dir, &r).unwrap_or_default();
        let file = path_for(dir, "http://a/mcp");
        assert!(
            why.starts_with(&format!("the token stored in {} for http://a/mcp holds a line break", file.display()))
        );
        assert!(why.ends_with("log in again with `mcplens auth login --url http://a/mcp`"), "{why}");
        assert!(!why.contains("tok-12"), "{why}");
        r.access_token = None;
        assert_eq!(unusable(dir, &r), None);
    }

    #[test]
    fn round_trips_privately_and_per_url() {
        let dir = std::env::temp_dir().join(format!("mcplens-auth-store-{}", std::process::id()));
        let r = record("http://a/mcp");
        let path = save(&dir, &r).unwrap_or_else(|e| panic!("{e}"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777).unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
        assert_eq!(load(&dir, "http://a/mcp").ok().flatten(), Some(r));
        assert_eq!(load(&dir, "http://b/mcp").ok().flatten(), None);
        std::fs::write(path_for(&dir, "http://c/mcp"), "{not json").ok();
        assert!(load(&dir, "http://c/mcp").is_err());
        assert_eq!(remove(&dir, "http://a/mcp"), Ok(true));
        assert_eq!(remove(&dir, "http://a/mcp"), Ok(false));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn expiry_has_a_margin() {
        let r = record("http://a/mcp");
        assert!(!r.expired(0));
        assert!(!r.expired(70));
        assert!(r.expired(80));
        let long = Record { expires_at: Some(10_000), ..r };
        assert!(!long.expired(9_900) && long.expired(9_950));
    }
}
