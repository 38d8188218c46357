//! `mcplens lint`: each rule fires on a hand-built case (tests/lint/bad_snapshot.json,
//! tests/lint/bad_session.jsonl); real servers (the demo, server-everything, filesystem, memory,
//! mcp-server-git) and the real tool schemas of tests/corpus (servers the rules were not written
//! from) have no error or warning.

mod common;

use std::collections::BTreeSet;

use common::*;
use serde_json::{Value, json};

fn lint(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["lint", "--json"];
    all.extend_from_slice(args);
    let o = mcplens(&all);
    assert!(stderr(&o).is_empty() || o.status.code() != Some(2), "{}", stderr(&o));
    let report = json_out(&o);
    // Every finding has the same members (null where it is about no tool or no one place).
    let members = ["rule", "severity", "tool", "at", "message", "source"];
    let same = |f: &Value| f.as_object().is_some_and(|o| o.len() == 6 && members.iter().all(|m| o.contains_key(*m)));
    let findings = report["findings"].as_array().map(Vec::as_slice).unwrap_or_default();
    assert!(findings.iter().all(same), "{report:#}");
    (o.status.code(), report)
}

fn rules_at(report: &Value, severities: &[&str]) -> BTreeSet<String> {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| severities.contains(&f["severity"].as_str().unwrap_or("")))
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap_or(""), f["tool"].as_str().unwrap_or("-")))
        .collect()
}

fn file(name: &str) -> String {
    root().join("tests/lint").join(name).to_string_lossy().into_owned()
}

#[test]
fn every_schema_rule_fires_on_its_hand_built_case() {
    let (code, r) = lint(&["--snapshot", &file("bad_snapshot.json")]);
    assert_eq!(code, Some(8), "{r:#}");
    let got = rules_at(&r, &["error", "warning", "info"]);
    let long = "x".repeat(131);
    let want = [
        "tool-name/characters get weather".to_string(),
        "host/gemini-cli/name get weather".into(),
        "host/openai/name get weather".into(),
        "host/openai/name admin.users.list".into(),
        "tool-name/unique dup".into(),
        format!("tool-name/length {long}"),
        format!("host/gemini-cli/name {long}"),
        "input-schema/object top_level_anyof".into(),
        "input-schema/object no_schema".into(),
        "output-schema/object array_output".into(),
        "schema/dialect draft04".into(),
        "schema/draft-keyword old_keywords".into(),
        "schema/remote-ref remote_ref".into(),
        "schema/invalid invalid_schema".into(),
        "host/gemini-cli/schema-stripped strict_object".into(),
        "annotations/contradiction read_but_destroys".into(),
        "apps/resource-uri app_http_uri".into(),
        "apps/deprecated-meta app_flat_meta".into(),
        "apps/visibility app_flat_meta".into(),
    ];
    for w in &want {
        assert!(got.contains(w), "{w} missing from {got:#?}");
    }
    // Only the rule that is due fires: a dotted name breaks OpenAI's rule and no other.
    let dotted: Vec<&String> = got.iter().filter(|g| g.ends_with(" admin.users.list")).collect();
    assert_eq!(dotted, [&"host/openai/name admin.users.list".to_string()]);
    // Every finding names its source.
    for f in r["findings"].as_array().into_iter().flatten() {
        assert!(f["source"].as_str().is_some_and(|s| s.contains("https://")), "{f}");
    }
}

#[test]
fn a_recorded_session_shows_results_errors_cursors_and_notifications() {
    let (code, r) = lint(&["--recording", &file("bad_session.jsonl")]);
    assert_eq!(code, Some(8), "{r:#}");
    let got = rules_at(&r, &["error", "warning", "info"]);
    for w in [
        "list/repeated-cursor -",
        "result/output-schema weather",
        "result/tool-error-as-rpc-error lookup",
        "list-changed/never-sent -",
    ] {
        assert!(got.contains(w), "{w} missing from {got:#?}");
    }
    // The isError result is not held against the outputSchema: two findings, from the two
    // successful calls (one nonconforming, one without structuredContent).
    let n = r["findings"].as_array().into_iter().flatten().filter(|f| f["rule"] == "result/output-schema").count();
    assert_eq!(n, 2, "{r:#}");
}

#[test]
fn real_servers_have_no_error_or_warning() {
    let n = root().join("tests/peers/node_modules/.bin");
    let bin = |b: &str| n.join(b).to_string_lossy().into_owned();
    let dir = std::env::temp_dir();
    let dir = dir.to_string_lossy().into_owned();
    let py = python().to_string_lossy().into_owned();
    let servers: Vec<Vec<String>> = vec![
        vec![],
        vec!["--".into(), bin("mcp-server-everything"), "stdio".into()],
        vec!["--".into(), bin("mcp-server-filesystem"), dir],
        vec!["--".into(), bin("mcp-server-memory")],
        vec!["--".into(), py, "-m".into(), "mcp_server_git".into()],
    ];
    for s in servers {
        let args: Vec<&str> = s.iter().map(String::as_str).collect();
        let (code, r) = lint(&args);
        assert_eq!(code, Some(0), "{s:?}: {r:#}");
        assert!(rules_at(&r, &["error", "warning"]).is_empty(), "{s:?}: {r:#}");
        assert!(r["tools"].as_u64().is_some_and(|n| n > 0), "{s:?}: {r:#}");
    }
}

#[test]
fn the_real_schemas_of_the_corpus_have_no_error_or_warning() {
    let mut tools = serde_json::Map::new();
    for dir in std::fs::read_dir(root().join("tests/corpus")).into_iter().flatten().flatten() {
        for case in std::fs::read_dir(dir.path()).into_iter().flatten().flatten() {
            let Ok(text) = std::fs::read_to_string(case.path()) else { continue };
            let Ok(c) = serde_json::from_str::<Value>(&text) else { continue };
            if let (Some(name), Some(schema)) = (c["tool"].as_str(), c.get("inputSchema")) {
                tools.insert(name.to_string(), json!({"name": name, "inputSchema": schema}));
            }
        }
    }
    assert!(tools.len() > 50, "{}", tools.len());
    let snap = json!({"mcplensSnapshot": 1, "server": {}, "tools": tools.values().collect::<Vec<_>>()});
    let path = std::env::temp_dir().join(format!("mcplens-lint-corpus-{}.json", std::process::id()));
    std::fs::write(&path, snap.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let (code, r) = lint(&["--snapshot", &path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(0), "{r:#}");
    assert!(rules_at(&r, &["error", "warning"]).is_empty(), "{r:#}");
}

#[test]
fn the_rules_list_names_a_source_for_each_rule() {
    let o = mcplens(&["lint", "--rules"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for r in mcplens::lint::RULES {
        assert!(text.contains(r.id), "{}", r.id);
        assert!(r.source.contains("https://"), "{}", r.id);
    }
}

#[test]
fn a_live_server_is_linted_as_its_snapshot_is() {
    let py = python().to_string_lossy().into_owned();
    let (code, live) = lint(&["--", &py, &script("lint_tools.py")]);
    assert_eq!(code, Some(8), "{live:#}");
    let (_, snap) = lint(&["--snapshot", &file("bad_snapshot.json")]);
    let all = ["error", "warning", "info"];
    let mut live_rules = rules_at(&live, &all);
    // Views are read live only: the ui://app/view.html that app_flat_meta declares does not exist.
    assert!(live_rules.remove("apps/view-missing app_flat_meta"), "{live_rules:#?}");
    assert_eq!(live_rules, rules_at(&snap, &all));
}

#[test]
fn server_json_against_the_registry_schema_and_the_live_server() {
    let sj = |name: &str| root().join("tests/lint/server-json").join(name).to_string_lossy().into_owned();
    // Real files (tests/lint/server-json/SOURCE.md): valid; they name a newer schema version.
    for real in ["0xarchive.json", "1claw.json"] {
        let (code, r) = lint(&["--server-json", &sj(real)]);
        assert_eq!(code, Some(0), "{real}: {r:#}");
        assert_eq!(rules_at(&r, &["info"]), BTreeSet::from(["server-json/schema-version -".to_string()]), "{r:#}");
    }
    let (code, r) = lint(&["--server-json", &sj("bad.json")]);
    assert_eq!(code, Some(8), "{r:#}");
    let at: BTreeSet<&str> = r["findings"].as_array().into_iter().flatten().filter_map(|f| f["at"].as_str()).collect();
    for want in ["/name", "/description", "/packages/0/version", "/packages/0", "/remotes/0"] {
        assert!(at.contains(want), "{want}: {r:#}");
    }
    // With a target, its version is compared with the server's own.
    let (_, r) = lint(&["--server-json", &sj("bad.json"), "--", bin(), "demo-server"]);
    assert!(rules_at(&r, &["warning"]).contains("server-json/version -"), "{r:#}");
}

/// The server-card extension's own examples (modelcontextprotocol/experimental-ext-server-card,
/// commit 8924e08, examples/ServerCard/{valid,invalid}/*.json, copied to tests/lint/cards/).
#[test]
fn server_cards_the_extensions_examples_pass_or_fail_as_it_says() {
    for name in ["valid-minimal.json", "valid-templated-remote.json"] {
        let (code, r) = lint(&["--card", &file(&format!("cards/{name}"))]);
        assert_eq!(code, Some(0), "{name}: {r:#}");
    }
    for name in ["invalid-bad-name-pattern.json", "invalid-missing-name.json", "invalid-wrong-schema-name.json"] {
        let (code, r) = lint(&["--card", &file(&format!("cards/{name}"))]);
        assert_eq!(code, Some(8), "{name}: {r:#}");
        assert_eq!(rules_at(&r, &["error"]), BTreeSet::from(["server-card/schema -".to_string()]), "{name}");
    }
}

/// A card fetched over HTTP with its media type, and compared with the live demo server.
#[test]
fn a_served_server_card_is_compared_with_what_the_server_reports() {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let card = std::fs::read_to_string(file("cards/valid-templated-remote.json")).unwrap();
    let server = std::thread::spawn(move || {
        let (conn, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(conn.try_clone().unwrap());
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        let mut conn = conn;
        let _ = write!(
            conn,
            "HTTP/1.1 200 OK\r\nContent-Type: application/mcp-server-card+json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{card}",
            card.len()
        );
        head
    });
    let url = format!("http://127.0.0.1:{port}/mcp/server-card");
    let (code, r) = lint(&["--card", &url, "--", bin(), "demo-server"]);
    let head = server.join().unwrap();
    assert!(head.to_ascii_lowercase().contains("accept: application/mcp-server-card+json"), "{head}");
    assert_eq!(code, Some(7), "{r:#}");
    let got = rules_at(&r, &["warning"]);
    assert!(got.contains("server-card/version -") && got.contains("server-card/title -"), "{got:#?}");
}
