//! Several servers side by side in the real binary, in a real terminal (tmux), against real
//! servers: npm `@modelcontextprotocol/server-memory` twice (each with its own memory file, so the
//! same `read_graph` call answers differently) and `@modelcontextprotocol/server-everything`.
//! Connect, switch, run the same call on two servers and compare, compare tool lists, close one.

mod common;

use std::path::Path;
use std::time::Duration;

/// Keys one at a time, with a pause: an Alt key right after Esc would read as one sequence.
fn keys(t: &common::Tmux, keys: &[&str]) {
    for k in keys {
        t.keys(&[k]);
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
    let t = common::Tmux::start(&name, 120, 40, &cmd);
    let screen = t.wait_for("Tools (9)", 20);
    assert!(screen.contains(" 1 memory-a "), "the strip names the server:\n{screen}");

    // Another server of the config file, connected beside the first and shown.
    keys(&t, &["M-c"]);
    t.wait_for("Connect another server of", 20);
    keys(&t, &["Down", "Down", "Enter"]);
    t.wait_for(" 2 memory-b ", 20);
    t.wait_for("connected memory-server", 20);

    // The same call on both: read_graph on memory-a, then Alt-r runs it on memory-b.
    keys(&t, &["M-1", "/", "read_graph", "Enter", "Enter"]);
    t.wait_for("Form: read_graph", 20);
    keys(&t, &["C-r"]);
    t.wait_for("Ada Lovelace", 20);
    keys(&t, &["M-r"]);
    let screen = t.wait_for("The same call on memory-a and on memory-b", 20);
    let screen = if screen.contains("Grace Hopper") { screen } else { t.wait_for("Grace Hopper", 20) };
    assert!(screen.contains("read_graph {}"), "{screen}");
    assert!(screen.contains("≠ /data"), "the differing member is named:\n{screen}");
    assert!(screen.contains("Ada Lovelace"), "{screen}");

    // memory-b kept its own result: shown after the comparison closes.
    keys(&t, &["Escape", "M-n"]);
    let screen = t.wait_for("Grace Hopper", 20);
    assert!(!screen.contains("Ada Lovelace"), "{screen}");

    // A third server; its tools compared with memory-a's (a picker: two others).
    keys(&t, &["M-c", "Enter"]);
    t.wait_for(" 3 everything ", 20);
    t.wait_for("connected mcp-servers/everything", 20);
    keys(&t, &["M-t"]);
    t.wait_for("Compare the tools with", 20);
    keys(&t, &["Enter"]);
    let screen = t.wait_for("Tools of everything and of memory-a", 20);
    assert!(screen.contains("/tools/echo  tool removed"), "{screen}");
    assert!(screen.contains("/tools/read_graph  tool added"), "{screen}");

    // Closing the shown server leaves the others connected.
    keys(&t, &["Escape", "M-w"]);
    let screen = t.wait_for("everything disconnected", 20);
    assert!(screen.contains(" 1 memory-a ") && screen.contains(" 2 memory-b "), "{screen}");
    assert!(!screen.contains(" 3 everything "), "{screen}");
    keys(&t, &["q"]);
    t.wait_for("EXITED=0", 20);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Alt-c's picker says what is true of each entry: started (and how it is: connected), not
/// started, or cannot start and why; Enter on a started one shows it.
#[test]
fn the_connect_picker_says_which_servers_are_connected_not_started_or_cannot_start() {
    let dir = std::env::temp_dir().join(format!("mcplens-servers-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let bin = common::bin();
    let text = serde_json::json!({"mcpServers": {
        "demo": {"command": bin, "args": ["demo-server"]},
        "missing": {"command": "no-such-mcp-server-anywhere"},
        "demo-b": {"command": bin, "args": ["demo-server"]},
    }});
    let config = dir.join("mcp.json");
    std::fs::write(&config, text.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let name = format!("mcplens-servers-state-{}", std::process::id());
    let cmd = format!("{bin} --config {} --server demo; echo EXITED=$?; sleep 30", config.display());
    let t = common::Tmux::start(&name, 120, 40, &cmd);
    t.wait_for("Tools (19)", 20);

    keys(&t, &["M-c"]);
    let screen = t.wait_for("Connect another server of", 20);
    assert!(screen.contains(" demo     connected (server 1) · "), "{screen}");
    assert!(screen.contains(" missing  cannot start: command \"no-such-mcp-server-anywhere\" not found"), "{screen}");
    assert!(screen.contains(" demo-b   not started · "), "{screen}");
    assert!(!screen.contains("connected already") && !screen.contains("cannot start: cannot start"), "{screen}");

    // The one not started connects; then it says so.
    keys(&t, &["Down", "Down", "Enter"]);
    t.wait_for(" 2 demo-b ", 20);
    t.wait_for("connected mcplens-demo", 20);
    keys(&t, &["M-c"]);
    let screen = t.wait_for("connected (server 2)", 20);
    assert!(screen.contains("connected (server 1)") && !screen.contains("not started"), "{screen}");
    // Enter on a started one shows it: no third server.
    keys(&t, &["Enter"]);
    std::thread::sleep(Duration::from_millis(500));
    let screen = t.screen();
    assert!(!screen.contains("Connect another server of") && !screen.contains(" 3 "), "{screen}");
    keys(&t, &["q"]);
    t.wait_for("EXITED=0", 20);
    let _ = std::fs::remove_dir_all(&dir);
}
