//! What a headless command says on stderr while it logs in to a server: the authorization URL
//! is always printed (the browser may not open, or be on another machine).

use super::err_line;
use crate::mcp::auth::Notice;
use crate::sanitize;

pub fn say(notice: Notice) {
    match notice {
        Notice::Starting { server } => {
            err_line(&format!("mcplens: {} asks for a login (OAuth)", sanitize::line(&server)));
        }
        Notice::OpenUrl { url, opened } => {
            err_line("mcplens: to log in, open this URL in a browser:");
            err_line(&format!("  {}", sanitize::line(&url)));
            match opened {
                Ok(()) => err_line("mcplens: opened in your browser; waiting for the login to come back"),
                Err(e) if e.is_empty() => err_line("mcplens: waiting for the login to come back"),
                Err(e) => err_line(&format!("mcplens: {}; waiting for the login to come back", sanitize::line(&e))),
            }
        }
        Notice::LoggedIn { scope, how } => {
            let scope = scope.map(|s| format!(", scopes: {}", sanitize::line(&s))).unwrap_or_default();
            err_line(&format!("mcplens: logged in ({how}{scope})"));
        }
        Notice::Refreshed | Notice::Failed(_) => {}
    }
}
