//! The HTTP view of each exchange (`--show-http`, and the log's entries) against
//! server-everything's streamable HTTP mode: every POST by what it carried, the SSE GET, the
//! headers both ways with the user's secret header masked, the status and the time.

mod common;

use common::{mcplens, server_everything_http, stderr};

#[test]
fn every_exchange_shows_method_url_headers_status_and_time() {
    let (_server, url) = server_everything_http();
    let out = mcplens(&["resources", "--show-http", "-H", "X-Api-Key: sekrit-4242", "--url", &url]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    for what in ["initialize", "notifications/initialized", "resources/list"] {
        let line = format!("HTTP POST {url} ({what}) → 2");
        assert!(err.contains(&line), "{line:?} missing from:\n{err}");
    }
    // The event stream's GET is answered, or (the command was quicker) said to be left unanswered.
    let get = format!("HTTP GET {url} (event stream) → ");
    let got = err.split(&get).nth(1).unwrap_or_default();
    assert!(got.starts_with("200 OK in ") || got.starts_with("no answer: the session ended first in "), "{err}");
    assert!(err.contains(&format!("HTTP DELETE {url} (end of session) → ")), "{err}");
    let list = err.split(&format!("HTTP POST {url} (resources/list)")).nth(1).unwrap_or_default();
    let list = list.split("\nHTTP ").next().unwrap_or_default();
    assert!(list.starts_with(" → 200 OK in ") && list.contains(" ms\n"), "{list}");
    for want in [
        "  request headers:\n",
        "    x-api-key: «redacted»\n",
        "    mcp-protocol-version: 2025-11-25\n",
        "    mcp-session-id: ",
        "  response headers:\n",
        "    content-type: text/event-stream\n",
    ] {
        assert!(list.contains(want), "{want:?} missing from the resources/list exchange:\n{list}");
    }
    assert!(!err.contains("sekrit-4242"), "the secret header's value was printed:\n{err}");
}

#[test]
fn without_the_flag_no_exchange_is_printed() {
    let (_server, url) = server_everything_http();
    let out = mcplens(&["tools", "--url", &url]);
    assert!(!stderr(&out).contains("request headers:"), "{}", stderr(&out));
}
