//! mcplens in CI: `snapshot` (stable, as sent, secrets masked) and `diff` (changes classified
//! breaking or compatible, exit codes), against the demo server, the project's Python server and
//! snapshot files written here by hand.

mod common;

use common::*;
use serde_json::Value;

fn py_server() -> Vec<String> {
    vec![python().to_string_lossy().into_owned(), script("resources_server.py")]
}

fn with_py(args: &[&str]) -> std::process::Output {
    let server = py_server();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--protocol", "2025-11-25", "--"]);
    all.extend(server.iter().map(String::as_str));
    mcplens(&all)
}

#[test]
fn demo_snapshots_are_identical_across_runs() {
    let a = mcplens(&["snapshot"]);
    let b = mcplens(&["snapshot"]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout, "two snapshots of the demo server differ");
    let v = json_out(&a);
    assert_eq!(v["mcplensSnapshot"], 1);
    let names: Vec<&str> = v["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(v["server"]["capabilities"].is_object(), "{}", v["server"]);
    for kind in ["resources", "resourceTemplates", "prompts"] {
        assert!(v[kind].is_array(), "{kind} missing");
    }
}

#[test]
fn snapshot_keeps_every_kind_sorted_and_as_sent() {
    let file = scratch("snap.json");
    let o = with_py(&["snapshot", "-o", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&file).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let uris: Vec<&str> = v["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert!(!uris.is_empty());
    let mut sorted = uris.clone();
    sorted.sort();
    assert_eq!(uris, sorted);
    assert!(!v["resourceTemplates"].as_array().unwrap().is_empty());
    assert!(!v["prompts"].as_array().unwrap().is_empty());
    // Each descriptor is the server's text: `resources --json` prints the same bytes.
    let listed = with_py(&["resources", "--json"]);
    for line in text.lines().filter(|l| l.starts_with("{\"uri\"") || l.starts_with("{\"name\"")) {
        let item = line.trim_end_matches(',');
        if v["resources"].as_array().unwrap().iter().any(|r| r == &serde_json::from_str::<Value>(item).unwrap()) {
            assert!(stdout(&listed).contains(item), "not as sent: {item}");
        }
    }
    let again = with_py(&["snapshot"]);
    assert_eq!(again.stdout, text.as_bytes(), "snapshot to stdout and to a file differ");
}

/// A path of this test process's own under the temporary directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcplens-ci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn fixture(name: &str) -> String {
    root().join("tests/ci").join(name).to_string_lossy().into_owned()
}

fn diff_json(new: &str) -> (Option<i32>, Vec<(String, String)>) {
    let o = mcplens(&["diff", &fixture("old.json"), &fixture(new), "--json"]);
    let v = json_out(&o);
    let changes = v["changes"].as_array().unwrap();
    let pairs =
        changes.iter().map(|c| (c["path"].as_str().unwrap().to_string(), c["impact"].as_str().unwrap().to_string()));
    (o.status.code(), pairs.collect())
}

#[test]
fn reordered_keys_are_no_change() {
    let o = mcplens(&["diff", &fixture("old.json"), &fixture("same-reordered.json")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "no changes\n");
}

#[test]
fn compatible_changes_exit_zero() {
    let (code, changes) = diff_json("compatible.json");
    assert_eq!(code, Some(0));
    assert!(changes.iter().all(|(_, i)| i == "compatible"), "{changes:?}");
    for path in [
        "/tools/track",
        "/tools/order/inputSchema/properties/gift",
        "/tools/order/inputSchema/properties/note/type",
        "/tools/order/inputSchema/properties/qty/maximum",
        "/tools/order/inputSchema/properties/qty/minimum",
        "/tools/order/inputSchema/properties/speed/enum",
        "/tools/search/inputSchema/properties/q/maxLength",
        "/tools/search/inputSchema/properties/limit/type",
        "/prompts/summarize/arguments/length",
        "/server/capabilities/resources",
    ] {
        assert!(changes.iter().any(|(p, _)| p == path), "{path} missing from {changes:?}");
    }
}

#[test]
fn every_kind_of_breaking_change_is_found() {
    let (code, changes) = diff_json("breaking.json");
    assert_eq!(code, Some(5));
    let breaking: Vec<&str> = changes.iter().filter(|(_, i)| i == "breaking").map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        breaking,
        [
            "/prompts/summarize/arguments/tone",
            "/resources/shop:~1~1catalogue",
            "/server/capabilities/prompts",
            "/tools/order/inputSchema/properties/account",
            "/tools/order/inputSchema/properties/note",
            "/tools/order/inputSchema/properties/qty/maximum",
            "/tools/order/inputSchema/properties/qty/type",
            "/tools/order/inputSchema/properties/sku/pattern",
            "/tools/order/inputSchema/properties/speed/enum",
            "/tools/order/outputSchema/properties/id/format",
            "/tools/retired",
            "/tools/search/inputSchema/properties/q/maxLength",
            "/tools/search/inputSchema/properties/q/minLength",
            "/tools/search/inputSchema/required/limit",
        ]
    );
    let text = mcplens(&["diff", &fixture("old.json"), &fixture("breaking.json")]);
    assert!(stdout(&text).contains("BREAKING    /tools/retired  tool removed\n"), "{}", stdout(&text));
    assert!(stdout(&text).ends_with("14 breaking, 1 compatible\n"), "{}", stdout(&text));
}

#[test]
fn a_snapshot_diffed_with_its_live_server_shows_no_change() {
    let file = scratch("demo.json");
    let o = mcplens(&["snapshot", "-o", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = mcplens(&["diff", file.to_str().unwrap(), "--", bin(), "demo-server"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "no changes\n"), "{}", stderr(&o));
    // The demo server offers no prompts: against the hand-written shop, everything differs.
    let o = mcplens(&["diff", &fixture("old.json"), "--", bin(), "demo-server"]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
}

#[test]
fn files_that_are_no_snapshot_are_usage_errors() {
    let not_json = scratch("bad.json");
    std::fs::write(&not_json, "{\"a\":").unwrap();
    let deep = scratch("deep.json");
    std::fs::write(&deep, format!("{}{}", "[".repeat(5000), "]".repeat(5000))).unwrap();
    let other = scratch("other.json");
    std::fs::write(&other, "{\"tools\":[]}").unwrap();
    for file in [&not_json, &deep, &other, &scratch("missing.json")] {
        let o = mcplens(&["diff", file.to_str().unwrap(), &fixture("old.json")]);
        assert_eq!(o.status.code(), Some(2), "{}: {}", file.display(), stderr(&o));
        assert!(stderr(&o).starts_with("mcplens: error: "), "{}", stderr(&o));
    }
}
