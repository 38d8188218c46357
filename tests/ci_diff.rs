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
fn real_servers_snapshots_are_identical_across_runs_and_diff_clean() {
    let everything = vec!["node".to_string(), server_everything().to_string_lossy().into_owned(), "stdio".into()];
    for (i, target) in [everything, py_server()].iter().enumerate() {
        let run = |args: &[&str]| {
            let mut all = args.to_vec();
            all.extend(["--protocol", "2025-11-25", "--"]);
            all.extend(target.iter().map(String::as_str));
            mcplens(&all)
        };
        let (a, b) = (run(&["snapshot"]), run(&["snapshot"]));
        assert_eq!(a.status.code(), Some(0), "{target:?}: {}", stderr(&a));
        assert_eq!(a.stdout, b.stdout, "{target:?}: two snapshots differ");
        let file = scratch(&format!("real-{i}.json"));
        std::fs::write(&file, &a.stdout).unwrap();
        let d = run(&["diff", file.to_str().unwrap()]);
        assert_eq!(d.status.code(), Some(0), "{target:?}: {}{}", stdout(&d), stderr(&d));
        assert!(stdout(&d).contains("no changes"), "{target:?}: {}", stdout(&d));
    }
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
    // The demo declares tools alone: the lists it does not offer are left out.
    for kind in ["resources", "resourceTemplates", "prompts"] {
        assert!(v.get(kind).is_none(), "{kind} recorded");
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
        // An output that promises more (a format, a new required property) breaks no caller.
        "/tools/order/outputSchema/properties/id/format",
        "/tools/order/outputSchema/properties/total",
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
            "/tools/order/outputSchema/required/id",
            "/tools/retired",
            "/tools/search/inputSchema/properties/q/maxLength",
            "/tools/search/inputSchema/properties/q/minLength",
            "/tools/search/inputSchema/required/limit",
        ]
    );
    let text = mcplens(&["diff", &fixture("old.json"), &fixture("breaking.json")]);
    assert!(stdout(&text).contains("BREAKING    /tools/retired  tool removed\n"), "{}", stdout(&text));
    // The id may now be missing from a result: breaking; its format added is a promise, compatible.
    assert!(stdout(&text).contains("compatible  /tools/order/outputSchema/properties/id/format"), "{}", stdout(&text));
    assert!(stdout(&text).ends_with("14 breaking, 2 compatible\n"), "{}", stdout(&text));
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

/// A stdio server listing tool `a` twice with different schemas; `reversed` lists them the
/// other way round, `one` only the first.
const TWO_OF_ONE_NAME: &str = r#"
import json, sys
plain = {"name": "a", "inputSchema": {"type": "object"}}
strict = {"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
tools = {"reversed": [strict, plain], "one": [plain]}.get(sys.argv[1] if len(sys.argv) > 1 else "", [plain, strict])
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m.get("method") == "initialize":
        r = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "dup", "version": "1"}}
    elif m.get("method") == "tools/list":
        r = {"tools": tools}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "no"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"#;

#[test]
fn tools_sharing_a_name_are_no_change_against_themselves() {
    let server = scratch("two_of_one_name.py");
    std::fs::write(&server, TWO_OF_ONE_NAME).unwrap();
    let (py, server) = (python().to_string_lossy().into_owned(), server.to_string_lossy().into_owned());
    let file = scratch("two_of_one_name.json");
    let file = file.to_str().unwrap();
    let o = mcplens(&["snapshot", "-o", file, "--", &py, &server]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (args, code, printed) in [
        (vec!["diff", file, file], 0, "no changes\n"),
        (vec!["diff", file, "--", &py, &server], 0, "no changes\n"),
        (vec!["diff", file, "--", &py, &server, "reversed"], 0, "no changes\n"),
        (
            vec!["diff", file, "--", &py, &server, "one"],
            5,
            "BREAKING    /tools/a  tool removed\n1 breaking, 0 compatible\n",
        ),
    ] {
        let o = mcplens(&args);
        assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(code), printed), "{args:?}: {}", stderr(&o));
    }
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

/// Whether `path` is `at` or a path below it.
fn at_or_under(path: &str, at: &str) -> bool {
    path == at || path.strip_prefix(at).is_some_and(|rest| rest.starts_with('/'))
}

/// What is wrong with `mcplens diff --json` on one case of tests/ci/wild/ against its expected.json:
/// the exit code, every breaking change at or under an expected breaking path and each of those
/// met, and each expected compatible path met by compatible changes only.
fn wild_case_problems(dir: &std::path::Path) -> Vec<String> {
    let arg = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let o = mcplens(&["diff", &arg("old.json"), &arg("new.json"), "--json"]);
    let got = json_out(&o);
    let changes: Vec<(&str, &str)> = got["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["impact"].as_str().unwrap()))
        .collect();
    let wanted = |impact: &str| -> Vec<&str> {
        let list = expected["changes"].as_array().unwrap().iter();
        list.filter(|c| c["impact"] == impact).map(|c| c["path"].as_str().unwrap()).collect()
    };
    let (breaking, compatible) = (wanted("breaking"), wanted("compatible"));
    let mut problems = vec![];
    let code = match expected["verdict"].as_str().unwrap() {
        "breaking" => 5,
        _ => 0,
    };
    if o.status.code() != Some(code) {
        problems.push(format!("exit {:?}, expected {code}", o.status.code()));
    }
    if expected["verdict"] == "none" && !changes.is_empty() {
        problems.push("changes reported where none was expected".into());
    }
    for (path, impact) in &changes {
        if *impact == "breaking" && !breaking.iter().any(|b| at_or_under(path, b)) {
            problems.push(format!("breaking, expected not: {path}"));
        }
    }
    for b in &breaking {
        if !changes.iter().any(|(p, i)| *i == "breaking" && at_or_under(p, b)) {
            problems.push(format!("not found breaking: {b}"));
        }
    }
    for c in &compatible {
        let under: Vec<_> = changes.iter().filter(|(p, _)| at_or_under(p, c)).collect();
        if under.is_empty() {
            problems.push(format!("not found compatible: {c}"));
        } else if under.iter().any(|(p, i)| *i == "breaking" && !breaking.iter().any(|b| at_or_under(p, b))) {
            problems.push(format!("breaking, expected compatible: {c}"));
        }
    }
    problems
}

/// Real schema changes from public MCP servers' histories (tests/ci/wild/*/SOURCE.md), each with the
/// verdict a careful reader gave it before mcplens was run on it.
#[test]
fn real_schema_changes_are_classified_as_a_reader_would() {
    let root = root().join("tests/ci/wild");
    let mut cases: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 15, "{} cases", cases.len());
    let mut wrong = vec![];
    for dir in &cases {
        let problems = wild_case_problems(dir);
        if !problems.is_empty() {
            wrong.push(format!("{}: {}", dir.file_name().unwrap().to_string_lossy(), problems.join("; ")));
        }
    }
    assert!(wrong.is_empty(), "{} of {} cases wrong:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
}

/// A schema nested 6,000 levels deep (a raised --max-depth) whose leaf changed: one breaking
/// change past the levels classified, in time that grows with the depth, not with its square (it
/// took over a minute at this depth, debug build, and grew fourfold with each doubling).
#[test]
fn a_change_deep_in_a_deep_schema_costs_time_linear_in_its_depth() {
    let snap = |leaf: &str| {
        let (open, close) = (r#"{"type":"object","properties":{"a":"#.repeat(6000), "}}".repeat(6000));
        let schema = format!(r#"{open}{{"type":"{leaf}"}}{close}"#);
        format!(
            r#"{{"mcplensSnapshot":1,"server":{{"serverInfo":{{"name":"s"}}}},"tools":[{{"name":"t","inputSchema":{schema}}}],"resources":[],"resourceTemplates":[],"prompts":[]}}"#
        )
    };
    let (old, new) = (scratch("deep-old.json"), scratch("deep-new.json"));
    std::fs::write(&old, snap("string")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&new, snap("integer")).unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let o = mcplens(&["diff", "--max-depth", "20000", &old.to_string_lossy(), &new.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(5), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("changed too deep to classify"), "{}", &stdout(&o)[..stdout(&o).len().min(400)]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
}

/// A snapshot of one tool `t` whose input and output schemas are both `schema`.
fn one_tool_snapshot(name: &str, schema: &Value) -> String {
    let doc = serde_json::json!({
        "mcplensSnapshot": 1,
        "target": {"command": "server", "args": []},
        "server": {"serverInfo": {"name": "s", "version": "1"}, "capabilities": {"tools": {}}},
        "tools": [{"name": "t", "inputSchema": schema, "outputSchema": schema}],
        "resources": [], "resourceTemplates": [], "prompts": []
    });
    let file = scratch(name);
    std::fs::write(&file, doc.to_string()).unwrap();
    file.to_string_lossy().into_owned()
}

/// Schemas rewritten without a value gained or lost: 70 nullable properties become options (more
/// than one diff's trials would once compare), an `anyOf` becomes a `oneOf` whose options share
/// no value, two options are merged into one type list, `enum: ["a"]` becomes `const: "a"`; and
/// one enum of two values become a `const`: the one narrowing, breaking the input only.
#[test]
fn schemas_rewritten_to_take_the_same_values_are_compatible() {
    let kinds = ["string", "integer", "number", "boolean", "array", "object"];
    let (mut old, mut new) = (serde_json::Map::new(), serde_json::Map::new());
    for i in 0..70 {
        let kind = kinds[i % kinds.len()];
        old.insert(format!("p{i:02}"), serde_json::json!({"type": [kind, "null"]}));
        new.insert(
            format!("p{i:02}"),
            serde_json::json!({"anyOf": [{"type": kind}, {"type": "null"}], "default": null}),
        );
    }
    let pet =
        |k: &str| serde_json::json!({"type": "object", "properties": {"kind": {"const": k}}, "required": ["kind"]});
    let (s, i, n) = (
        serde_json::json!({"type": "string"}),
        serde_json::json!({"type": "integer"}),
        serde_json::json!({"type": "null"}),
    );
    old.insert("pet".into(), serde_json::json!({"anyOf": [pet("cat"), pet("dog")]}));
    new.insert("pet".into(), serde_json::json!({"oneOf": [pet("cat"), pet("dog")]}));
    old.insert("id".into(), serde_json::json!({"anyOf": [s, i, n]}));
    new.insert("id".into(), serde_json::json!({"anyOf": [{"type": ["string", "integer"]}, n]}));
    old.insert("mode".into(), serde_json::json!({"type": "string", "enum": ["fast"]}));
    new.insert("mode".into(), serde_json::json!({"type": "string", "const": "fast"}));
    let object = |props: serde_json::Map<String, Value>| serde_json::json!({"type": "object", "properties": props});
    let (old_file, new_file) = (
        one_tool_snapshot("same-old.json", &object(old.clone())),
        one_tool_snapshot("same-new.json", &object(new.clone())),
    );
    for (a, b) in [(&old_file, &new_file), (&new_file, &old_file)] {
        let o = mcplens(&["diff", a, b]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
        assert!(!text.contains("BREAKING") && !text.contains("/mode"), "{text}");
        assert!(text.ends_with(" compatible\n"), "{text}");
    }
    let o = mcplens(&["diff", &old_file, &new_file, "--json"]);
    let v = json_out(&o);
    assert_eq!(v["breaking"], 0, "{v}");
    let changes = v["changes"].as_array().unwrap();
    let at = |path: &str| changes.iter().find(|c| c["path"] == path).map(|c| c["change"].as_str().unwrap().to_string());
    let inputs = "/tools/t/inputSchema/properties";
    assert!(at(&format!("{inputs}/p69/anyOf")).is_some_and(|c| c.contains("take every value taken before")), "{v}");
    assert!(at(&format!("{inputs}/pet/oneOf")).is_some_and(|c| c.contains("anyOf became oneOf")), "{v}");
    assert!(at(&format!("{inputs}/id/anyOf")).is_some_and(|c| c.contains("regrouped")), "{v}");
    // An enum of two values become one: the values a caller sent may be refused.
    old.insert("level".into(), serde_json::json!({"enum": ["low", "high"]}));
    new.insert("level".into(), serde_json::json!({"const": "low"}));
    let (old_file, new_file) =
        (one_tool_snapshot("level-old.json", &object(old)), one_tool_snapshot("level-new.json", &object(new)));
    let o = mcplens(&["diff", &old_file, &new_file]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(5), "{text}{}", stderr(&o));
    let narrowed = "BREAKING    /tools/t/inputSchema/properties/level/const  value removed: \"high\" (enum [\"low\",\"high\"] -> const \"low\")\n";
    assert!(text.starts_with(narrowed), "{text}");
    assert!(text.contains("compatible  /tools/t/outputSchema/properties/level/const  value removed"), "{text}");
    assert!(text.contains("\n1 breaking, "), "{text}");
}
