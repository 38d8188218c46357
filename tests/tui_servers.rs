//! Several servers side by side in the real binary, in a real terminal (tmux), against real
//! servers: npm `@modelcontextprotocol/server-memory` twice (each with its own memory file, so the
//! same `read_graph` call answers differently) and `@modelcontextprotocol/server-everything`.
//! Connect, switch, run the same call on two servers and compare, compare tool lists, close one.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let o = Command::new("tmux").args(args).output().unwrap_or_else(|e| panic!("tmux is needed for this test: {e}"));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.0]);
    }
}

fn wait_for(session: &str, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(needle) {
            return screen;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {needle:?}; screen:\n{screen}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Keys one at a time, with a pause: an Alt key right after Esc would read as one sequence.
fn keys(session: &str, keys: &[&str]) {
    for k in keys {
        tmux(&["send-keys", "-t", session, k]);
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// A memory file holding one entity.
fn memory_file(dir: &Path, name: &str, entity: &str) -> String {
    let path = dir.join(name);
    let line = serde_json::json!({"type": "entity", "name": entity, "entityType": "person", "observations": []});
    std::fs::write(&path, format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
    path.display().to_string()
}

fn config(dir: &Path) -> std::path::PathBuf {
    let memory = common::root().join("tests/peers/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    let memory = memory.display().to_string();
    let text = serde_json::json!({"mcpServers": {
        "everything": {"command": "node", "args": [common::server_everything(), "stdio"]},
        "memory-a": {"command": "node", "args": [&memory],
                     "env": {"MEMORY_FILE_PATH": memory_file(dir, "a.jsonl", "Ada Lovelace")}},
        "memory-b": {"command": "node", "args": [&memory],
                     "env": {"MEMORY_FILE_PATH": memory_file(dir, "b.jsonl", "Grace Hopper")}},
    }});
    let path = dir.join("mcp.json");
    std::fs::write(&path, text.to_string()).unwrap_or_else(|e| panic!("{e}"));
    path
}

#[test]
fn two_servers_side_by_side_compared() {
    let dir = std::env::temp_dir().join(format!("mcplens-servers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let config = config(&dir);
    let name = format!("mcplens-servers-{}", std::process::id());
    let cmd = format!("{} --config {} --server memory-a; echo EXITED=$?; sleep 30", common::bin(), config.display());
    tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "40", &cmd]);
    let _guard = Session(name.clone());
    let screen = wait_for(&name, "Tools (9)");
    assert!(screen.contains(" 1 memory-a "), "the strip names the server:\n{screen}");

    // Another server of the config file, connected beside the first and shown.
    keys(&name, &["M-c"]);
    wait_for(&name, "Connect another server of");
    keys(&name, &["Down", "Down", "Enter"]);
    wait_for(&name, " 2 memory-b ");
    wait_for(&name, "connected memory-server");

    // The same call on both: read_graph on memory-a, then Alt-r runs it on memory-b.
    keys(&name, &["M-1", "/", "read_graph", "Enter", "Enter"]);
    wait_for(&name, "Form: read_graph");
    keys(&name, &["C-r"]);
    wait_for(&name, "Ada Lovelace");
    keys(&name, &["M-r"]);
    let screen = wait_for(&name, "The same call on memory-a and on memory-b");
    let screen = if screen.contains("Grace Hopper") { screen } else { wait_for(&name, "Grace Hopper") };
    assert!(screen.contains("read_graph {}"), "{screen}");
    assert!(screen.contains("≠ /data"), "the differing member is named:\n{screen}");
    assert!(screen.contains("Ada Lovelace"), "{screen}");

    // memory-b kept its own result: shown after the comparison closes.
    keys(&name, &["Escape", "M-n"]);
    let screen = wait_for(&name, "Grace Hopper");
    assert!(!screen.contains("Ada Lovelace"), "{screen}");

    // A third server; its tools compared with memory-a's (a picker: two others).
    keys(&name, &["M-c", "Enter"]);
    wait_for(&name, " 3 everything ");
    wait_for(&name, "connected mcp-servers/everything");
    keys(&name, &["M-t"]);
    wait_for(&name, "Compare the tools with");
    keys(&name, &["Enter"]);
    let screen = wait_for(&name, "Tools of everything and of memory-a");
    assert!(screen.contains("/tools/echo  tool removed"), "{screen}");
    assert!(screen.contains("/tools/read_graph  tool added"), "{screen}");

    // Closing the shown server leaves the others connected.
    keys(&name, &["Escape", "M-w"]);
    let screen = wait_for(&name, "everything disconnected");
    assert!(screen.contains(" 1 memory-a ") && screen.contains(" 2 memory-b "), "{screen}");
    assert!(!screen.contains(" 3 everything "), "{screen}");
    keys(&name, &["q"]);
    wait_for(&name, "EXITED=0");
    let _ = std::fs::remove_dir_all(&dir);
}
