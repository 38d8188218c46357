//! `mcplens auth login|status|logout`: the stored OAuth login of an HTTP server.

use super::args::{AuthAction, TargetArgs};
use super::{connect, out};
use crate::error::{LensError, Result};
use crate::mcp::Target;
use crate::mcp::auth::{LoginState, Record, store};
use crate::sanitize;

pub async fn command(action: AuthAction, target: &TargetArgs) -> Result<i32> {
    let Target::Http(http) = target.target()? else {
        return Err(LensError::usage("auth applies to HTTP servers: give --url (or a --config entry with a url)"));
    };
    let dir = store::dir().ok_or_else(|| LensError::usage("no state directory (set HOME or MCPLENS_STATE_DIR)"))?;
    let url = sanitize::line(&http.url).into_owned();
    match action {
        AuthAction::Login => login(target, &url).await,
        AuthAction::Status => {
            let record = store::load(&dir, &http.url).map_err(LensError::usage)?;
            let mut text = status_text(&url, record.as_ref(), crate::dirs::now_secs());
            if let Some(why) = record.as_ref().and_then(|r| store::unusable(&dir, r)) {
                text.push_str(&format!("  unusable: {}\n", sanitize::line(&why)));
            }
            out(&text)?;
            Ok(0)
        }
        AuthAction::Logout => {
            let removed = store::remove(&dir, &http.url).map_err(LensError::usage)?;
            out(&if removed {
                format!("logged out of {url}: the stored token is removed\n")
            } else {
                format!("not logged in to {url}: nothing to remove\n")
            })?;
            Ok(0)
        }
    }
}

/// Connects with a new login before the first request, then reports what was stored.
async fn login(target: &TargetArgs, url: &str) -> Result<i32> {
    let mut options = target.connect_options()?;
    options.auth.fresh = true;
    options.auth.up_front = true;
    let opened = connect::open_with(target, options).await?;
    let state = opened.session.auth().map(|a| a.state());
    let record = opened.session.auth().and_then(|a| a.record());
    opened.close().await;
    match state {
        Some(LoginState::LoggedIn { .. }) => {
            out(&status_text(url, record.as_ref(), crate::dirs::now_secs()))?;
            Ok(0)
        }
        _ => {
            out(&format!("{url} did not ask for a login: nothing stored\n"))?;
            Ok(0)
        }
    }
}

/// What is stored for a server, in words: never the token.
pub fn status_text(url: &str, record: Option<&Record>, now: u64) -> String {
    let Some(r) = record.filter(|r| r.access_token.is_some()) else {
        return format!("not logged in to {url}\n");
    };
    let mut s = format!("logged in to {url}\n");
    let expiry = match r.expires_at {
        None => "no expiry given".to_string(),
        Some(t) if t <= now => "expired".to_string(),
        Some(t) => format!("expires in {}", words(t - now)),
    };
    let refresh = if r.refresh_token.is_some() { ", refreshable" } else { "" };
    s.push_str(&format!("  token:  {expiry}{refresh} ({})\n", r.grant.replace('_', " ")));
    s.push_str(&format!("  scopes: {}\n", r.scope.as_deref().map(sanitize::line).unwrap_or("(none named)".into())));
    s.push_str(&format!("  client: {} ({})\n", sanitize::line(&r.client.client_id), r.client.registration.label()));
    if let Some(i) = &r.issuer {
        s.push_str(&format!("  issuer: {}\n", sanitize::line(i)));
    }
    if r.token_type.as_deref() == Some("DPoP") {
        let jkt = r.dpop_key.as_deref().and_then(|k| crate::mcp::auth::dpop::Key::from_stored(k).ok());
        let jkt = jkt.map(|k| format!(" (key thumbprint {})", k.thumbprint())).unwrap_or_default();
        s.push_str(&format!("  bound:  DPoP{jkt}\n"));
    }
    s
}

fn words(secs: u64) -> String {
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{} min", s / 60),
        s if s < 172_800 => format!("{} h", s / 3600),
        s => format!("{} days", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::auth::{AuthMethod, ClientInfo, Registration};

    #[test]
    fn status_never_shows_the_token() {
        let r = Record {
            server_url: "http://x/mcp".into(),
            resource: "http://x/mcp".into(),
            issuer: Some("http://as".into()),
            token_endpoint: "http://as/token".into(),
            client: ClientInfo {
                client_id: "cid".into(),
                client_secret: Some("csecret".into()),
                method: AuthMethod::ClientSecretBasic,
                registration: Registration::Dynamic,
                redirect_uri: None,
                private_key_pem: None,
            },
            access_token: Some("the-access-token".into()),
            refresh_token: Some("the-refresh-token".into()),
            expires_at: Some(1000 + 3600),
            scope: Some("mcp:basic".into()),
            grant: "authorization_code".into(),
            token_type: None,
            dpop_key: None,
            obtained_at: 1000,
        };
        let s = status_text("http://x/mcp", Some(&r), 1000);
        assert!(
            s.contains("logged in") && s.contains("60 min") && s.contains("refreshable") && s.contains("mcp:basic"),
            "{s}"
        );
        assert!(!s.contains("the-access-token") && !s.contains("the-refresh-token") && !s.contains("csecret"), "{s}");
        assert_eq!(status_text("http://x/mcp", None, 0), "not logged in to http://x/mcp\n");
        // A bound token: its key's thumbprint is shown, never the key.
        let key = crate::mcp::auth::dpop::Key::generate().unwrap_or_else(|e| panic!("{e}"));
        let bound = Record { token_type: Some("DPoP".into()), dpop_key: Some(key.stored().into()), ..r };
        let s = status_text("http://x/mcp", Some(&bound), 1000);
        assert!(s.contains("bound:  DPoP") && s.contains(&key.thumbprint()), "{s}");
        assert!(!s.contains(key.stored()), "{s}");
    }
}
