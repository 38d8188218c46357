//! Every secret mcplens knows is masked wherever it is drawn (fresh adversary, round four): the
//! credentials a URL carries (`https://user:PASSWORD@host`, `https://TOKEN@host`,
//! `?access_token=...`) are secrets as `-H` values are, in `--show-http`, the connection error,
//! `doctor`'s report and the `--print-*` forms; a long `-H` value is masked before it is cut to
//! the view's width (cut first, it was no longer found whole). Against server-everything's
//! streamable HTTP mode, and a closed port.

mod common;

use common::{free_port, mcplens, server_everything_http, stderr, stdout};

const PASSWORD: &str = "pw-0f1e2d3c4b5a";
const QUERY_TOKEN: &str = "qt-9a8b7c6d5e4f";

fn with_credentials(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    format!("{scheme}://me:{PASSWORD}@{rest}?access_token={QUERY_TOKEN}&page=2")
}

fn assert_masked(text: &str, secrets: &[&str], what: &str) {
    for s in secrets {
        assert!(!text.contains(s), "{what}: {s} shown:\n{text}");
    }
}

/// Budget: neither URL credential nor any 8-character run of a 400-character header value is
/// shown by --show-http; the call still works.
#[test]
fn show_http_masks_the_urls_credentials_and_long_header_values() {
    let (_server, url) = server_everything_http();
    let long = format!("lv-{}", "0123456789abcdef".repeat(25));
    let header = format!("X-Long-Key: {long}");
    let out = mcplens(&["ping", "--show-http", "-H", &header, "--url", &with_credentials(&url)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("x-long-key: «redacted»"), "{err}");
    assert!(err.contains("?access_token=«redacted»&page=2"), "{err}");
    assert_masked(&err, &[PASSWORD, QUERY_TOKEN, &long[..40], "0123456789abcdef01"], "--show-http");
}

/// Budget: the printed command and curl lines mask the URL's credentials unless asked.
#[test]
fn print_forms_mask_the_urls_credentials_unless_asked() {
    let (_server, url) = server_everything_http();
    let target = with_credentials(&url);
    for form in ["--print-command", "--print-curl"] {
        let out = mcplens(&["call", "echo", "--arg", "message=hi", form, "--url", &target]);
        assert_eq!(out.status.code(), Some(0), "{form}: {}", stderr(&out));
        assert_masked(&stdout(&out), &[PASSWORD, QUERY_TOKEN], form);
        assert!(stdout(&out).contains("«redacted»"), "{form}: {}", stdout(&out));
        let shown = mcplens(&["call", "echo", "--arg", "message=hi", form, "--show-secrets", "--url", &target]);
        assert!(stdout(&shown).contains(PASSWORD), "{form} --show-secrets: {}", stdout(&shown));
    }
}

/// Budget: a server that cannot be reached is named without the URL's credentials, by the
/// headless error and by doctor (whose report also masks a token written as the user name).
#[test]
fn errors_and_doctor_name_the_server_without_its_credentials() {
    let port = free_port();
    let target = with_credentials(&format!("http://127.0.0.1:{port}/mcp"));
    let out = mcplens(&["ping", "--url", &target]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("could not be reached"), "{}", stderr(&out));
    assert_masked(&stderr(&out), &[PASSWORD, QUERY_TOKEN], "ping");
    let token_user = format!("http://ghp_{PASSWORD}@127.0.0.1:{port}/mcp");
    for t in [target.as_str(), token_user.as_str()] {
        let doc = mcplens(&["doctor", "--timeout", "5", "--url", t]);
        assert_eq!(doc.status.code(), Some(3), "{}", stdout(&doc));
        assert_masked(&format!("{}{}", stdout(&doc), stderr(&doc)), &[PASSWORD, QUERY_TOKEN], "doctor");
    }
    let json = mcplens(&["doctor", "--json", "--timeout", "5", "--url", &target]);
    assert_masked(&stdout(&json), &[PASSWORD, QUERY_TOKEN], "doctor --json");
}
