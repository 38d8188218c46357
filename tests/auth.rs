//! OAuth against a Python SDK server behind its own authorization server on loopback
//! (tests/servers/auth_server.py): `auth login|status|logout`, refresh with rotation, expiry,
//! a pre-registered client, `--no-browser`, and no token in stdout, stderr, the log, its
//! export or the history. The "browser" follows the redirects (tests/auth/follow-browser.sh).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{Guard, bin, free_port, python, root, script, stderr, stdout, wait_for_port};

struct Server {
    _guard: Guard,
    url: String,
    events: PathBuf,
    state: PathBuf,
}

impl Server {
    fn start(name: &str, args: &[&str]) -> Server {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("mcplens-auth-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let events = dir.join("events.txt");
        let child = Command::new(python())
            .arg(script("auth_server.py"))
            .args(["--port", &port.to_string(), "--events", &events.to_string_lossy()])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the auth server: {e}"));
        let guard = Guard(child);
        wait_for_port(port);
        Server { _guard: guard, url: format!("http://127.0.0.1:{port}/mcp"), events, state: dir.join("state") }
    }

    /// mcplens with this server's state directory and the redirect-following browser.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .env("MCPLENS_STATE_DIR", &self.state)
            .env("BROWSER", root().join("tests/auth/follow-browser.sh"))
            .env_remove("MCPLENS_CLIENT_SECRET")
            .stdin(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()))
    }

    fn events(&self, kind: &str) -> usize {
        std::fs::read_to_string(&self.events).unwrap_or_default().lines().filter(|l| l.starts_with(kind)).count()
    }

    /// The stored token file, read as the test's own check (mcplens never prints it).
    fn stored(&self) -> serde_json::Value {
        let dir = self.state.join("auth");
        let file = std::fs::read_dir(&dir)
            .ok()
            .and_then(|mut d| d.next())
            .and_then(|e| e.ok())
            .map(|e| e.path())
            .unwrap_or_else(|| panic!("no token file in {}", dir.display()));
        assert_mode_0600(&file);
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap_or_default()).unwrap_or_default()
    }

    fn secrets(&self) -> Vec<String> {
        let s = self.stored();
        ["access_token", "refresh_token"]
            .iter()
            .filter_map(|k| s.get(k).and_then(|v| v.as_str()).map(str::to_string))
            .collect()
    }
}

fn assert_mode_0600(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).map(|m| m.permissions().mode() & 0o777).unwrap_or(0);
    assert_eq!(mode, 0o600, "{} has mode {mode:o}", path.display());
}

fn assert_ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what} failed ({:?}):\nstdout:\n{}\nstderr:\n{}", o.status, stdout(o), stderr(o));
}

fn assert_no_secret(o: &Output, secrets: &[String]) {
    let text = format!("{}{}", stdout(o), stderr(o));
    for s in secrets {
        assert!(!text.contains(s.as_str()), "a token reached the terminal:\n{text}");
    }
}

#[test]
fn login_status_logout_and_no_token_on_the_terminal() {
    let server = Server::start("login", &[]);
    let url = server.url.as_str();
    let login = server.run(&["auth", "login", "--url", url], &[]);
    assert_ok(&login, "auth login");
    assert!(stdout(&login).contains("logged in to"), "{}", stdout(&login));
    assert!(stderr(&login).contains("/authorize?response_type=code"), "the URL is always printed: {}", stderr(&login));
    let secrets = server.secrets();
    assert_eq!(secrets.len(), 2, "an access and a refresh token are stored");
    assert_no_secret(&login, &secrets);

    let status = server.run(&["auth", "status", "--url", url], &[]);
    assert_ok(&status, "auth status");
    let text = stdout(&status);
    assert!(
        text.contains("logged in") && text.contains("mcp:use") && text.contains("dynamic client registration"),
        "{text}"
    );
    assert_no_secret(&status, &secrets);

    let call = server.run(&["call", "whoami", "--no-browser", "--json", "--url", url], &[]);
    assert_ok(&call, "call with the stored token");
    assert!(stdout(&call).contains("scopes mcp:use"), "{}", stdout(&call));
    assert_no_secret(&call, &secrets);
    assert_eq!(server.events("authorization_code"), 1, "the stored token was used, no second login");

    let logout = server.run(&["auth", "logout", "--url", url], &[]);
    assert_ok(&logout, "auth logout");
    assert!(stdout(&logout).contains("logged out"));
    let status = server.run(&["auth", "status", "--url", url], &[]);
    assert!(stdout(&status).contains("not logged in"), "{}", stdout(&status));

    let refused = server.run(&["tools", "--no-browser", "--url", url], &[]);
    assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
    let err = stderr(&refused);
    assert!(err.contains("--no-browser") && err.contains("mcplens auth login"), "{err}");
    assert!(!err.contains("/authorize?"), "no login was started: {err}");
}

/// A stored token holding a line break (no HTTP header can carry it) stops the connection with
/// the file and what to do, never the token; `auth status` says so; `auth login` replaces it.
#[test]
fn a_stored_token_with_a_line_break_is_named_never_shown_and_a_login_replaces_it() {
    let server = Server::start("linebreak", &[]);
    let url = server.url.as_str();
    assert_ok(&server.run(&["auth", "login", "--url", url], &[]), "auth login");
    let mut stored = server.stored();
    let token = stored["access_token"].as_str().unwrap_or_default().to_string();
    let (head, tail) = token.split_at(token.len() / 2);
    stored["access_token"] = format!("{head}\n{tail}").into();
    let file = std::fs::read_dir(server.state.join("auth"))
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| e.ok())
        .map(|e| e.path())
        .unwrap_or_else(|| panic!("no token file"));
    std::fs::write(&file, stored.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let secrets = vec![head.to_string(), tail.to_string()];

    let o = server.run(&["tools", "--no-browser", "--url", url], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("the token stored in {} for {url} holds a line break", file.display())), "{err}");
    assert!(err.contains(&format!("log in again with `mcplens auth login --url {url}`")), "{err}");
    assert!(!err.contains("failed to parse header value"), "{err}");
    assert_no_secret(&o, &secrets);
    let status = server.run(&["auth", "status", "--url", url], &[]);
    assert!(stdout(&status).contains("  unusable: the token stored in"), "{}", stdout(&status));
    assert_no_secret(&status, &secrets);

    assert_ok(&server.run(&["auth", "login", "--url", url], &[]), "auth login again");
    assert_ok(&server.run(&["call", "whoami", "--no-browser", "--url", url], &[]), "call with the new token");
    assert_eq!(server.events("authorization_code"), 2);
}

/// A login that takes longer than auto's wait on `server/discover` (the user reads the consent
/// page for 7 s) is one login: the wait stands still while it runs, as the request clocks do.
#[test]
fn a_slow_login_under_protocol_auto_is_one_login() {
    let server = Server::start("slow", &[]);
    let slow = root().join("tests/auth/slow-browser.sh");
    let o = server.run(&["tools", "--url", &server.url], &[("BROWSER", &slow.to_string_lossy())]);
    assert_ok(&o, "tools after a slow login");
    assert_eq!(stderr(&o).matches("opened in your browser").count(), 1, "{}", stderr(&o));
    assert_eq!(server.events("authorization_code"), 1);
}

#[test]
fn an_expired_token_is_refreshed_and_the_refresh_token_rotated() {
    let server = Server::start("refresh", &["--token-ttl", "2"]);
    let url = server.url.as_str();
    assert_ok(&server.run(&["auth", "login", "--url", url], &[]), "auth login");
    let before = server.stored();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let call = server.run(&["call", "whoami", "--no-browser", "--url", url], &[]);
    assert_ok(&call, "call after expiry");
    let after = server.stored();
    assert!(server.events("refresh_token") >= 1, "the token was refreshed");
    assert_eq!(server.events("authorization_code"), 1, "no new login");
    assert_ne!(before.get("refresh_token"), after.get("refresh_token"), "the rotated refresh token is kept");
    assert_ne!(before.get("access_token"), after.get("access_token"));
    let mut secrets = server.secrets();
    secrets
        .extend(["access_token", "refresh_token"].iter().filter_map(|k| before.get(k)?.as_str().map(str::to_string)));
    assert_no_secret(&call, &secrets);
}

#[test]
fn without_a_refresh_token_expiry_means_a_new_login() {
    let server = Server::start("norefresh", &["--token-ttl", "2", "--no-refresh"]);
    let url = server.url.as_str();
    assert_ok(&server.run(&["call", "whoami", "--url", url], &[]), "first call (logs in)");
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let refused = server.run(&["call", "whoami", "--no-browser", "--url", url], &[]);
    assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--no-browser"), "{}", stderr(&refused));
    assert_ok(&server.run(&["call", "whoami", "--url", url], &[]), "call that logs in again");
    assert_eq!(server.events("authorization_code"), 2);
}

#[test]
fn a_pre_registered_client_when_the_server_offers_no_registration() {
    let port = free_port().to_string();
    let client = format!("lens-ci:s3cret-value:http://127.0.0.1:{port}/callback");
    let server = Server::start("prereg", &["--no-registration", "--client", &client]);
    let url = server.url.as_str();
    let without = server.run(&["tools", "--url", url], &[]);
    assert_eq!(without.status.code(), Some(3));
    assert!(stderr(&without).contains("--client-id"), "{}", stderr(&without));
    let with = server.run(
        &["call", "whoami", "--client-id", "lens-ci", "--callback-port", &port, "--url", url],
        &[("MCPLENS_CLIENT_SECRET", "s3cret-value")],
    );
    assert_ok(&with, "call with a pre-registered client");
    assert!(stdout(&with).contains("client lens-ci"), "{}", stdout(&with));
    let mut secrets = server.secrets();
    secrets.push("s3cret-value".into());
    assert_no_secret(&with, &secrets);
    let stored = server.stored().to_string();
    assert!(!stored.contains("s3cret-value"), "the user's client secret stays in their flags: {stored}");
    // Its refresh still works: the secret comes from the flag again.
    let again = server.run(
        &["call", "whoami", "--no-browser", "--client-id", "lens-ci", "--url", url],
        &[("MCPLENS_CLIENT_SECRET", "s3cret-value")],
    );
    assert_ok(&again, "second call with the stored token");
}

/// A config entry's client secret whose `${VAR}` is not set stops the login, naming the variable,
/// before anything is sent; the secret given another way logs in.
#[test]
fn an_unset_client_secret_in_a_config_stops_the_login() {
    let port = free_port().to_string();
    let client = format!("lens-ci:s3cret-value:http://127.0.0.1:{port}/callback");
    let server = Server::start("unset-secret", &["--no-registration", "--client", &client]);
    let config = server.state.with_file_name("mcp.json");
    let entry = serde_json::json!({"servers": {"s": {"url": server.url, "oauth": {
        "clientId": "lens-ci", "clientSecret": "${env:MCPLENS_TEST_SECRET}", "callbackPort": port.parse::<u16>().unwrap_or(0)}}}});
    std::fs::write(&config, entry.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let config = config.to_string_lossy();
    let stopped = server.run(&["call", "whoami", "--config", &config], &[]);
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr(&stopped));
    let err = stderr(&stopped);
    assert!(
        err.contains("login failed: server \"s\": oauth.clientSecret uses MCPLENS_TEST_SECRET, which is not set"),
        "{err}"
    );
    assert!(err.contains("the login does not send it as written") && !err.contains("open this URL"), "{err}");
    assert!(!err.contains("passed on as written"), "{err}");
    let with = server.run(&["call", "whoami", "--config", &config], &[("MCPLENS_CLIENT_SECRET", "s3cret-value")]);
    assert_ok(&with, "call with the secret from $MCPLENS_CLIENT_SECRET");
    assert!(stdout(&with).contains("client lens-ci"), "{}", stdout(&with));
}

/// In process: the session log, its export and a history entry hold no token.
#[tokio::test(flavor = "multi_thread")]
async fn no_token_in_the_log_its_export_or_the_history() {
    use mcplens::mcp::auth::AuthOptions;
    use mcplens::mcp::{ConnectOptions, HttpTarget, Session, Target};
    let server = Server::start("inproc", &[]);
    let state = server.state.clone();
    let options = ConnectOptions {
        auth: AuthOptions { store_dir: Some(state.join("auth")), ..AuthOptions::default() },
        ..ConnectOptions::default()
    };
    // SAFETY of the test: only this test of this binary reads BROWSER in process.
    unsafe { std::env::set_var("BROWSER", root().join("tests/auth/follow-browser.sh")) };
    let target = Target::Http(HttpTarget::new(server.url.clone(), vec![]));
    let session = Session::connect(&target, options).await.unwrap_or_else(|e| panic!("{e}"));
    let reply =
        session.call_tool("whoami", None, &Default::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    let log = session.log().clone();
    let export = mcplens::mcp::log::to_json_lines(&log, &log.entries());
    session.close().await;
    let secrets = server.secrets();
    // A history entry whose arguments hold the token (a user pasting it into a form): masked.
    let mut history = mcplens::history::History::open_in(&state, &server.url);
    let reply_text = reply.raw.to_string();
    history.append(
        mcplens::history::Entry {
            tool: "whoami".into(),
            arguments: serde_json::json!({"pasted": secrets[0], "reply": reply_text}),
            at: 0,
            duration_ms: 1,
            status: mcplens::call::CallStatus::Ok,
            purpose: mcplens::call::Purpose::New,
        },
        log.redactor(),
    );
    assert!(!secrets.is_empty());
    let texts: Vec<String> = log.entries().iter().map(|e| e.text.to_string()).collect();
    let histories: String = std::fs::read_dir(&state)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    for s in &secrets {
        for t in &texts {
            assert!(!t.contains(s.as_str()), "a token in the log: {t}");
        }
        assert!(!export.contains(s.as_str()), "a token in the export");
        assert!(!histories.contains(s.as_str()), "a token in the history");
    }
    assert!(texts.iter().any(|t| t.contains("auth: POST") && t.contains("/token")), "the token exchange is logged");
    assert!(texts.iter().any(|t| t.contains(mcplens::mcp::log::MASK)), "the token answer is logged masked");
}
