//! What a login refuses, against a hand-built authorization server on loopback whose metadata
//! breaks one rule at a time (tests/servers/lying_as.py): an issuer other than the one the
//! well-known URL was built from (RFC 8414 §3.3), no PKCE with S256 promised, plain-http
//! endpoints off loopback. Each is refused with one clear line naming what was fetched from
//! where, exit 3, and nothing past the metadata is asked for (no registration, no browser, no
//! token request). The honest case is the control: it gets as far as registering.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{Guard, bin, free_port, python, script, stderr, wait_for_port};

struct Lying {
    _guard: Guard,
    url: String,
    dir: PathBuf,
}

impl Lying {
    fn start(lie: &str) -> Lying {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("mcplens-auth-rules-{}-{lie}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let child = Command::new(python())
            .arg(script("lying_as.py"))
            .args(["--port", &port.to_string(), "--lie", lie, "--events"])
            .arg(dir.join("events.txt"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the authorization server: {e}"));
        let guard = Guard(child);
        wait_for_port(port);
        Lying { _guard: guard, url: format!("http://127.0.0.1:{port}/mcp"), dir }
    }

    /// `mcplens tools` as a user runs it; the "browser" only notes that it was started.
    fn run(&self) -> Output {
        let opened = self.dir.join("opened.txt");
        Command::new(bin())
            .args(["tools", "--url", &self.url, "--timeout", "10"])
            .env("MCPLENS_STATE_DIR", self.dir.join("state"))
            .env("BROWSER", format!("touch {}", opened.display()))
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()))
    }

    fn asked(&self) -> String {
        std::fs::read_to_string(self.dir.join("events.txt")).unwrap_or_default()
    }

    fn browser_started(&self) -> bool {
        self.dir.join("opened.txt").exists()
    }
}

impl Drop for Lying {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Refused: exit 3, the reason on one line of stderr with `words`, and nothing past the
/// authorization server's metadata was asked for.
fn assert_refused(lie: &str, words: &[&str]) {
    let server = Lying::start(lie);
    let o = server.run();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{lie}: {err}");
    let line = err.lines().find(|l| l.contains("login refused")).unwrap_or_else(|| panic!("{lie}: no refusal:\n{err}"));
    for w in words {
        assert!(line.contains(w), "{lie}: {w:?} missing from {line}");
    }
    assert!(line.contains("/.well-known/oauth-authorization-server"), "{lie}: where it was fetched from: {line}");
    assert_eq!(line.matches("login refused").count(), 1, "{lie}: said once: {line}");
    let asked = server.asked();
    assert!(asked.contains("GET /.well-known/oauth-authorization-server"), "{lie}: {asked}");
    for past in ["/register", "/authorize", "/token"] {
        assert!(!asked.contains(past), "{lie}: {past} was asked for after the metadata was refused:\n{asked}");
    }
    assert!(!server.browser_started(), "{lie}: the browser was started");
}

#[test]
fn metadata_claiming_another_issuer_is_not_used() {
    assert_refused("issuer", &["claims issuer http://other.example/evil", "8414"]);
}

#[test]
fn metadata_without_code_challenge_methods_is_refused() {
    assert_refused("no-pkce", &["code_challenge_methods_supported", "S256"]);
}

#[test]
fn metadata_offering_only_plain_pkce_is_refused() {
    assert_refused("plain-pkce", &["plain", "not S256"]);
}

#[test]
fn a_plain_http_authorization_endpoint_off_loopback_is_refused() {
    assert_refused("http-authorize", &["authorization_endpoint http://login.example.net/authorize", "cleartext"]);
}

#[test]
fn a_plain_http_token_endpoint_off_loopback_is_refused() {
    assert_refused("http-token", &["token_endpoint http://10.20.30.40/token", "cleartext"]);
}

/// The control: honest metadata passes every rule and the login goes on to register (which
/// this server refuses, to end the test there).
#[test]
fn honest_metadata_gets_as_far_as_registering() {
    let server = Lying::start("none");
    let o = server.run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("dynamic client registration was refused"), "{}", stderr(&o));
    assert!(server.asked().contains("POST /register"), "{}", server.asked());
}
