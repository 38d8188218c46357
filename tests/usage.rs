//! How the command line is read where it could be misread: options written before the command,
//! inputs given twice, and files checked before the work that would write them.

mod common;

use common::*;

#[test]
fn target_options_before_the_command_are_taken_as_after_it() {
    let o = mcplens(&["--timeout", "20", "--protocol", "2025-06-18", "info", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["protocolVersion"], "2025-06-18");
    let o = mcplens(&["--theme", "light", "info"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--theme is an option of the TUI"), "{}", stderr(&o));
    // The TUI's own form keeps its options: the TUI is what starts (and wants a terminal).
    let o = mcplens(&["--timeout", "20", "--", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the TUI needs a terminal"), "{}", stderr(&o));
}

/// A directory of the test's own.
fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcplens-usage-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// A config file in a directory of the test's own, holding `json`.
fn config_file(tag: &str, json: &serde_json::Value) -> std::path::PathBuf {
    let path = scratch_dir(tag).join("mcp.json");
    std::fs::write(&path, json.to_string()).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// `${VAR}` of an unset variable and VS Code's `${input:id}` are said (the entry, the place, the
/// variable, never a value); in a header they stop the connection, unless -H gives the header.
#[test]
fn config_references_left_unexpanded_are_said() {
    let config = config_file(
        "refs",
        &serde_json::json!({"mcpServers": {
            "cmd": {"command": python(), "args": [script("misbehave.py"), "ok", "${MCPLENS_TEST_UNSET}", "${input:tok}"],
                    "env": {"K": "${MCPLENS_TEST_UNSET}"}},
            "http": {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${MCPLENS_TEST_UNSET}"}},
            "both": {"url": "http://127.0.0.1:1/mcp", "command": "node"}
        }}),
    );
    let config = config.to_string_lossy();
    let o = mcplens(&["tools", "--config", &config, "--server", "cmd"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("warning: server \"cmd\": args[2] uses MCPLENS_TEST_UNSET, which is not set"), "{err}");
    assert!(err.contains("args[3] uses the VS Code input \"tok\", which mcplens cannot prompt for"), "{err}");
    assert!(err.contains("env.K uses MCPLENS_TEST_UNSET") && err.contains("-e K=..."), "{err}");
    assert!(!stdout(&o).contains("warning"), "{}", stdout(&o));
    // -e gives the value: nothing said of env.K.
    let o = mcplens(&["tools", "--config", &config, "--server", "cmd", "-e", "K=1"]);
    assert!(!stderr(&o).contains("env.K"), "{}", stderr(&o));

    let o = mcplens(&["tools", "--config", &config, "--server", "http"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("headers.Authorization uses MCPLENS_TEST_UNSET") && err.contains("not sent as written"),
        "{err}"
    );
    // With the header given, the connection is tried (and finds no server).
    let o = mcplens(&["tools", "--config", &config, "--server", "http", "-H", "authorization: Bearer x"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));

    let o = mcplens(&["tools", "--config", &config, "--server", "both"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("has both \"url\" and \"command\": the url is used"), "{}", stderr(&o));
}

/// VS Code's `${env:VAR}` is expanded as `${VAR}` is: a set one is the script the server runs, an
/// unset one is said the same way, and stops the connection in a header.
#[test]
fn vs_code_env_references_are_expanded() {
    let config = config_file(
        "env-refs",
        &serde_json::json!({"servers": {
            "cmd": {"type": "stdio", "command": python(), "args": ["${env:MCPLENS_TEST_SCRIPT}", "ok", "${env:MCPLENS_TEST_UNSET}"]},
            "http": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${env:MCPLENS_TEST_UNSET}"}}
        }}),
    );
    let run = |server: &str| {
        std::process::Command::new(bin())
            .args(["tools", "--config", &config.to_string_lossy(), "--server", server])
            .env("MCPLENS_STATE_DIR", scratch_dir("env-refs").join("state"))
            .env("MCPLENS_TEST_SCRIPT", script("misbehave.py"))
            .env_remove("MCPLENS_TEST_UNSET")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let o = run("cmd");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("echo"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("warning: server \"cmd\": args[2] uses MCPLENS_TEST_UNSET, which is not set"), "{err}");
    assert!(!err.contains("args[0]") && !err.contains("a form mcplens does not expand"), "{err}");
    let o = run("http");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("headers.Authorization uses MCPLENS_TEST_UNSET") && err.contains("not sent as written"),
        "{err}"
    );
}

/// Two inputs for one side: the files are what is compared or linted, and the server given too is
/// refused rather than left unused without a word.
#[test]
fn a_server_given_beside_the_files_it_would_replace_is_a_usage_error() {
    let o = mcplens(&["diff", "old.json", "new.json", "--url", "http://127.0.0.1:1/mcp"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("diff old.json new.json compares the two files: the server given with --url"),
        "{}",
        stderr(&o)
    );
    let o = mcplens(&["lint", "--snapshot", "s.json", "--", "node", "server.js"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("lint --snapshot s.json lints the file: the server given with -- COMMAND"),
        "{}",
        stderr(&o)
    );
    let o = mcplens(&["lint", "--recording", "r.jsonl", "--config", "mcp.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("leave --recording out to lint that server"), "{}", stderr(&o));
}

/// A `--junit` file that cannot be written is said before the run: here before the connection
/// (to no server) is even tried; a run that ends without results leaves no empty file behind.
#[test]
fn a_junit_file_that_cannot_be_written_stops_the_run_before_it_starts() {
    let dir = scratch_dir("junit");
    let calls = dir.join("calls.toml");
    std::fs::write(&calls, "[[call]]\nname = \"e\"\ntool = \"echo\"\n").unwrap_or_else(|e| panic!("{e}"));
    let calls = calls.to_string_lossy();
    let nowhere = dir.join("no-such-dir").join("junit.xml");
    let o = mcplens(&["test", &calls, "--junit", &nowhere.to_string_lossy(), "--url", "http://127.0.0.1:1/mcp"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot write") && !err.contains("connection failed"), "{err}");
    let junit = dir.join("junit.xml");
    let o = mcplens(&["test", &calls, "--junit", &junit.to_string_lossy(), "--url", "http://127.0.0.1:1/mcp"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!junit.exists(), "an empty {} was left", junit.display());
    let _ = std::fs::remove_dir_all(&dir);
}
