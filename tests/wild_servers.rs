//! The envelope and the pager on the reference servers as installed from the registries
//! (filesystem, memory and sequential-thinking from npm; git, fetch and time from PyPI), over
//! stdio, on real files, a real git repository and a real web page on loopback.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::*;
use serde_json::Value;

fn npm_server(name: &str) -> String {
    let p = root().join(format!("tests/peers/node_modules/@modelcontextprotocol/{name}/dist/index.js"));
    assert!(p.exists(), "{} is missing: run scripts/install-peers", p.display());
    p.to_string_lossy().into_owned()
}

/// A fresh directory under the system's temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("mcplens-wild-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap_or_else(|e| panic!("{e}"));
        TempDir(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn envelope(args: &[&str], server: &[&str]) -> Value {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--json");
    all.push("--");
    all.extend(server);
    let o = mcplens(&all);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    json_out(&o)
}

fn write(dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    if let Some(d) = p.parent() {
        let _ = std::fs::create_dir_all(d);
    }
    std::fs::write(p, text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn filesystem_listings_are_lists_and_file_info_is_a_record() {
    let dir = TempDir::new("fs");
    write(&dir.0, "a.txt", "hello\n");
    write(&dir.0, "src/b.json", "{}");
    write(&dir.0, "src/sub/c.txt", "zz");
    let fs = npm_server("server-filesystem");
    let server = ["node", fs.as_str(), dir.path()];
    let e = envelope(&["call", "list_directory", "--arg", &format!("path={}", dir.path())], &server);
    assert_eq!((e["responseType"].as_str(), e["status"].as_str()), (Some("list"), Some("success")), "{e}");
    assert_eq!(e["data"], serde_json::json!(["[FILE] a.txt", "[DIR] src"]), "{e}");
    let e = envelope(&["call", "list_directory_with_sizes", "--arg", &format!("path={}", dir.path())], &server);
    assert_eq!(e["data"].as_array().map(Vec::len), Some(2), "{e}");
    assert!(e["message"].as_str().is_some_and(|m| m.starts_with("Total: 1 files, 1 directories")), "{e}");
    let e = envelope(&["call", "directory_tree", "--arg", &format!("path={}", dir.path())], &server);
    assert_eq!(e["responseType"], "list", "{e}");
    assert_eq!(e["data"][1]["children"][1]["children"][0]["name"], "c.txt", "{e}");
    let e = envelope(
        &["call", "search_files", "--arg", &format!("path={}", dir.path()), "--arg", "pattern=**/*.txt"],
        &server,
    );
    assert_eq!(e["responseType"], "list", "{e}");
    assert!(
        e["data"]
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(|p| p.as_str().is_some_and(|p| p.ends_with(".txt")))),
        "{e}"
    );
    let e = envelope(&["call", "get_file_info", "--arg", &format!("path={}/a.txt", dir.path())], &server);
    assert_eq!((e["responseType"].as_str(), e["data"]["size"].as_str()), (Some("single"), Some("6")), "{e}");
    let e = envelope(&["call", "read_text_file", "--arg", "path=/etc/hostname"], &server);
    assert_eq!((e["responseType"].as_str(), e["status"].as_str()), (Some("error"), Some("error")), "{e}");
}

/// Files read whole lose nothing and keep their place: several files with JSON among them (the
/// server joins `path:\ncontent` with `---`), mail headers with a key given twice, a file of
/// 2,000 numbered `row N: ...` lines. Each is a document whose message is the text as sent.
#[test]
fn files_read_whole_keep_every_line_in_its_place() {
    let dir = TempDir::new("fs-read");
    write(&dir.0, "hello.txt", "hello world\n");
    write(&dir.0, "a/data.json", "{\"k\": 1}\n");
    write(&dir.0, "people.csv", "name,age\nann,3\nbob,4\n");
    write(&dir.0, "mail.txt", "Received: from x\nReceived: from y\nSubject: hi\n");
    let rows: String = (0..2000).map(|i| format!("row {i}: the quick brown fox\n")).collect();
    write(&dir.0, "big.txt", &rows);
    let fs = npm_server("server-filesystem");
    let server = ["node", fs.as_str(), dir.path()];
    let paths = ["hello.txt", "a/data.json", "people.csv"].map(|p| format!("{}/{p}", dir.path()));
    let args = serde_json::json!({ "paths": paths }).to_string();
    let e = envelope(&["call", "read_multiple_files", "--args", &args], &server);
    let message = e["message"].as_str().unwrap_or_default();
    let order = ["hello world", "data.json:", "{\"k\": 1}", "people.csv:", "bob,4"].map(|s| message.find(s));
    assert!(order.iter().all(Option::is_some) && order.is_sorted(), "{e}");
    for (file, last) in [("mail.txt", "from y"), ("big.txt", "row 1999: the quick brown fox")] {
        let e = envelope(&["call", "read_text_file", "--arg", &format!("path={}/{file}", dir.path())], &server);
        assert_eq!(e["responseType"], "single", "{e}");
        assert!(e["message"].as_str().is_some_and(|m| m.contains(last)), "{file}: {e}");
    }
}

fn git(dir: &str, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-C", dir, "-c", "user.name=Ada", "-c", "user.email=ada@example.org"])
        .args(args)
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git {args:?}");
}

#[test]
fn git_log_blocks_are_records_and_branches_a_list() {
    let dir = TempDir::new("git");
    git(dir.path(), &["init", "-q"]);
    for i in 1..=3 {
        write(&dir.0, &format!("f{i}"), "x");
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-qm", &format!("commit {i}\n\nwhy it was made")]);
    }
    git(dir.path(), &["branch", "feature"]);
    let py = python().to_string_lossy().into_owned();
    let server = [py.as_str(), "-m", "mcp_server_git"];
    let e = envelope(&["call", "git_log", "--arg", &format!("repo_path={}", dir.path())], &server);
    assert_eq!(e["responseType"], "list", "{e}");
    let log = e["data"].as_array().cloned().unwrap_or_default();
    assert_eq!(log.len(), 3, "{e}");
    assert_eq!(log[0]["Message"], "commit 3\n\nwhy it was made", "{e}");
    assert_eq!(log[2]["Author"], "Ada", "{e}");
    assert!(log.iter().all(|c| c["Commit"].as_str().is_some_and(|h| h.len() >= 40)), "{e}");
    let e = envelope(
        &["call", "git_branch", "--arg", &format!("repo_path={}", dir.path()), "--arg", "branch_type=local"],
        &server,
    );
    assert_eq!(e["responseType"], "list", "{e}");
    assert_eq!(e["data"].as_array().map(Vec::len), Some(2), "{e}");
}

#[test]
fn fetch_pages_a_long_page_by_start_index_and_all_pages_rebuild_it_exactly() {
    let dir = TempDir::new("web");
    let paras: String = (0..60).map(|i| format!("<p>Paragraph {i}: {}</p>", "lorem ipsum dolor ".repeat(12))).collect();
    write(&dir.0, "long.html", &format!("<html><body><h1>Long page</h1>{paras}</body></html>"));
    let port = free_port();
    let web = Guard(
        Command::new("python3")
            .args(["-m", "http.server", &port.to_string(), "--bind", "127.0.0.1", "--directory", dir.path()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    wait_for_port(port);
    let py = python().to_string_lossy().into_owned();
    let server = [py.as_str(), "-m", "mcp_server_fetch", "--ignore-robots-txt", "--allow-private-ips"];
    let url = format!("url=http://127.0.0.1:{port}/long.html");
    let e = envelope(&["call", "fetch", "--arg", &url, "--arg", "max_length=3000"], &server);
    let p = &e["pagination"];
    assert_eq!(
        (p["hasMore"].as_bool(), p["nextOffset"].as_u64(), p["argument"].as_str()),
        (Some(true), Some(3000), Some("start_index")),
        "{e}"
    );
    let whole = envelope(&["call", "fetch", "--arg", &url, "--arg", "max_length=900000"], &server);
    let paged = envelope(&["call", "fetch", "--arg", &url, "--arg", "max_length=3000", "--all-pages"], &server);
    assert_eq!(paged["pagination"]["hasMore"], false, "{paged}");
    assert_eq!(paged["summary"]["hasMore"], false, "{paged}");
    assert!(paged["metadata"]["pager"]["pages"].as_u64().is_some_and(|n| n > 3), "{paged}");
    assert_eq!(paged["message"], whole["message"], "every slice exactly once, nothing else");
    drop(web);
}

#[test]
fn memory_sequential_thinking_and_time() {
    let dir = TempDir::new("memory");
    let memory = npm_server("server-memory");
    let file = format!("{}/memory.jsonl", dir.path());
    let o = Command::new(bin())
        .args(["call", "create_entities", "--json", "--args"])
        .arg(r#"{"entities":[{"name":"Ada","entityType":"person","observations":["wrote programs"]},{"name":"Engine","entityType":"machine","observations":["analytical"]}]}"#)
        .args(["--", "node", &memory])
        .env("MEMORY_FILE_PATH", &file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let e = json_out(&o);
    assert_eq!(e["data"].as_array().map(Vec::len), Some(2), "{e}");
    assert!(e["metadata"].get("textPayloads").is_none(), "the text repeats structuredContent's list: {e}");

    let thinking = npm_server("server-sequential-thinking");
    let e = envelope(
        &[
            "call",
            "sequentialthinking",
            "--args",
            r#"{"thought":"first","thoughtNumber":1,"totalThoughts":3,"nextThoughtNeeded":true}"#,
        ],
        &["node", &thinking],
    );
    assert_eq!((e["responseType"].as_str(), e["data"]["thoughtNumber"].as_u64()), (Some("single"), Some(1)), "{e}");

    let py = python().to_string_lossy().into_owned();
    let server = [py.as_str(), "-m", "mcp_server_time"];
    let e = envelope(&["call", "get_current_time", "--arg", "timezone=Europe/Paris"], &server);
    assert_eq!((e["status"].as_str(), e["data"]["timezone"].as_str()), (Some("success"), Some("Europe/Paris")), "{e}");
    let e = envelope(&["call", "get_current_time", "--arg", "timezone=Mars/Base"], &server);
    assert_eq!(e["responseType"], "error", "{e}");
    assert!(e["error"]["message"].as_str().is_some_and(|m| m.contains("Mars/Base")), "{e}");
}

/// A shape no heuristic reads: a project hints file beside the config teaches where the records
/// and the next position are, and `--all-pages` follows it.
#[test]
fn a_project_hint_teaches_a_shape_the_heuristics_miss() {
    let dir = TempDir::new("hints");
    let server = script("misbehave.py");
    let config = serde_json::json!({"mcpServers": {"odd": {"command": "python3", "args": [server, "odd-shape"]}}});
    write(&dir.0, ".mcp.json", &config.to_string());
    let cfg = format!("{}/.mcp.json", dir.path());
    let call = |extra: &[&str]| {
        let mut args = vec!["call", "report", "--json", "--config", cfg.as_str()];
        args.extend(extra);
        let o = mcplens(&args);
        (json_out(&o), stderr(&o))
    };
    let (e, _) = call(&[]);
    assert_eq!(e["responseType"], "single", "untaught, the heuristics see one object: {e}");
    write(
        &dir.0,
        ".mcplens-hints.toml",
        "[[hint]]\nserver = \"odd\"\ntool = \"report\"\nrecords = \"/content/0/text/payload/blob\"\nnext = \"/content/0/text/k\"\nargument = \"page_key\"\n",
    );
    let (e, _) = call(&[]);
    assert_eq!((e["responseType"].as_str(), e["data"].as_array().map(Vec::len)), (Some("list"), Some(2)), "{e}");
    assert_eq!(e["pagination"]["nextOffset"], "p2", "{e}");
    let (e, _) = call(&["--all-pages"]);
    let ids: Vec<u64> =
        e["data"].as_array().map(|a| a.iter().filter_map(|r| r["id"].as_u64()).collect()).unwrap_or_default();
    assert_eq!(ids, vec![1, 2, 3, 4, 5], "every record exactly once: {e}");
    assert_eq!(e["pagination"]["hasMore"], false, "{e}");
    // A bad file names its line; the heuristics go on.
    write(&dir.0, ".mcplens-hints.toml", "[[hint]]\ntool = \"report\"\nrecords = \"payload\"\n");
    let (e, err) = call(&[]);
    assert!(err.contains("line 1") && err.contains("must start with /"), "{err}");
    assert_eq!(e["responseType"], "single", "{e}");
}

/// The project's FastMCP server: FastMCP's ways of answering, paged to the end over stdio and
/// over streamable HTTP.
#[test]
fn fastmcp_answers_and_pages_over_stdio_and_http() {
    let py = python().to_string_lossy().into_owned();
    let server_script = script("fastmcp_tools.py");
    let stdio = [py.as_str(), server_script.as_str()];
    let e = envelope(&["call", "add", "--arg", "a=2", "--arg", "b=40"], &stdio);
    assert_eq!(e["data"], serde_json::json!({"result": 42}), "kept as sent: {e}");
    let e = envelope(&["call", "list_users", "--arg", "limit=10", "--all-pages"], &stdio);
    let ids: std::collections::BTreeSet<u64> =
        e["data"].as_array().map(|a| a.iter().filter_map(|u| u["id"].as_u64()).collect()).unwrap_or_default();
    assert_eq!((e["data"].as_array().map(Vec::len), ids.len()), (Some(57), 57), "{e}");
    assert_eq!((e["pagination"]["hasMore"].as_bool(), e["summary"]["total"].as_u64()), (Some(false), Some(57)), "{e}");
    let e = envelope(&["call", "notes", "--all-pages"], &stdio);
    assert_eq!(e["data"].as_array().map(Vec::len), Some(6), "pages named only in prose: {e}");
    let e = envelope(&["call", "fail", "--arg", "code=PERMISSION_DENIED"], &stdio);
    assert_eq!(
        (e["error"]["code"].as_str(), e["error"]["message"].as_str()),
        (Some("PERMISSION_DENIED"), Some("the operation failed")),
        "{e}"
    );

    let port = free_port();
    let _http = Guard(
        Command::new(&py)
            .args([server_script.as_str(), "--http", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    wait_for_port(port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let o = mcplens(&["call", "search_items", "--arg", "query=item", "--all-pages", "--json", "--url", &url]);
    let e = json_out(&o);
    assert_eq!(e["data"].as_array().map(Vec::len), Some(7), "{e}\n{}", stderr(&o));
    assert_eq!(e["metadata"]["pager"]["pages"], 3, "{e}");
}

/// FastMCP writes a Python int as its digits however large (fastmcp 4.1.0, PrefectHQ/fastmcp
/// 4bc415b73bd8ba5f70d5732ff7215cf68e89b7c7, src/fastmcp/tools/base.py 76-90: results go
/// through pydantic's `dump_python(mode="json")`, which keeps ints as ints; 415-432: a list is
/// wrapped as `{"result": [...]}`, a dict sent as itself). Ids past 2^53 then reach a client as
/// `100000000000000000001`, which a float reads as `1e20`: the printed envelope and `--json` show
/// the digits sent, for a list's records and for an object alike.
#[test]
fn fastmcp_ids_past_a_floats_integers_are_printed_as_sent() {
    let py = python().to_string_lossy().into_owned();
    let server_script = script("fastmcp_tools.py");
    let server = ["--", py.as_str(), server_script.as_str()];
    for (tool, literals) in [
        ("ledger", ["100000000000000000001", "100000000000000000003"]),
        ("balance", ["100000000000000000007", "100000000000000000008"]),
    ] {
        for json in [false, true] {
            let mut args = vec!["call", tool];
            args.extend(json.then_some("--json"));
            args.extend(server);
            let o = mcplens(&args);
            let out = stdout(&o);
            assert_eq!(o.status.code(), Some(0), "{tool}: {}", stderr(&o));
            for literal in literals {
                assert!(out.contains(literal), "{tool} (--json: {json}): {literal} missing:\n{out}");
            }
            assert!(!out.contains("e+20") && !out.contains("e20"), "{tool} (--json: {json}):\n{out}");
        }
    }
}
