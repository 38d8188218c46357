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
