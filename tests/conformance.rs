//! The official MCP client conformance suite (npm `@modelcontextprotocol/conformance`, on the
//! Node 22 that `scripts/install-peers` installs beside it) with mcplens as the client.

mod common;

use std::process::Command;

use common::{bin, root};

/// Runs one client scenario; the suite starts its own server and appends its URL to the command.
fn scenario(name: &str, client: &str) -> (bool, String) {
    let bin_dir = root().join("tests/peers/node_modules/.bin");
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new(bin_dir.join("conformance"))
        .args(["client", "--command", client, "--scenario", name])
        .env("PATH", path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the conformance suite (scripts/install-peers installs it): {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success() && text.contains("OVERALL: PASSED"), text)
}

#[test]
fn initialize_offers_the_newest_protocol_that_has_a_handshake() {
    let (passed, text) = scenario("initialize", &format!("{} tools --url", bin()));
    assert!(passed, "{text}");
}

#[test]
fn tools_call_calls_the_suites_tool_with_typed_arguments() {
    let (passed, text) = scenario("tools_call", &format!("{} call add_numbers --arg a=2 --arg b=3 --url", bin()));
    assert!(passed, "{text}");
}

#[test]
fn sse_retry_reconnects_after_the_retry_time_with_the_last_event_id() {
    let (passed, text) = scenario("sse-retry", &format!("{} call test_reconnection --timeout 10 --url", bin()));
    assert!(passed, "{text}");
}

#[test]
fn elicitation_accepted_headless_applies_every_default_of_the_requested_schema() {
    let (passed, text) = scenario(
        "elicitation-sep1034-client-defaults",
        &format!("{} call test_client_elicitation_defaults --elicitation accept --url", bin()),
    );
    assert!(passed, "{text}");
}

#[test]
fn initialize_with_a_fixed_legacy_protocol_offers_exactly_that_version() {
    let (passed, text) = scenario("initialize", &format!("{} tools --protocol 2025-11-25 --url", bin()));
    assert!(passed, "{text}");
}

#[test]
fn tools_call_with_an_older_fixed_protocol_still_calls_the_tool() {
    let cmd = format!("{} call add_numbers --arg a=2 --arg b=3 --protocol 2025-06-18 --url", bin());
    let (passed, text) = scenario("tools_call", &cmd);
    assert!(passed, "{text}");
}
