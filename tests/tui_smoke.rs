//! The real binary in a real terminal (tmux): it starts on the demo server, lists the tools, and
//! quits cleanly with the terminal restored.

mod common;

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

#[test]
fn starts_lists_tools_and_quits_cleanly() {
    let name = format!("mcplens-smoke-{}", std::process::id());
    let cmd = format!("{}; echo EXITED=$?; sleep 30", common::bin());
    tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "40", &cmd]);
    let _guard = Session(name.clone());
    let screen = wait_for(&name, "Tools (19)");
    assert!(screen.contains("connected mcplens-demo"), "{screen}");
    assert!(screen.contains("List channels"), "{screen}");
    tmux(&["send-keys", "-t", &name, "/", "weather"]);
    wait_for(&name, "Tools (1/19 match \"weather");
    tmux(&["send-keys", "-t", &name, "Enter"]);
    tmux(&["send-keys", "-t", &name, "q"]);
    let screen = wait_for(&name, "EXITED=0");
    // The alternate screen is gone: none of the TUI's frame is left on the terminal.
    assert!(!screen.contains("Tools ("), "terminal not restored:\n{screen}");
}

#[test]
fn a_config_with_several_servers_offers_a_picker() {
    let dir = std::env::temp_dir().join(format!("mcplens-picker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let config = dir.join("mcp.json");
    let bin = common::bin();
    let text = serde_json::json!({"mcpServers": {
        "first": {"command": "/nonexistent/server"},
        "bad": {"url": "ftp://x"},
        "demo": {"command": bin, "args": ["demo-server"]},
    }});
    std::fs::write(&config, text.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let name = format!("mcplens-picker-{}", std::process::id());
    let cmd = format!("{bin} --config {}; echo EXITED=$?; sleep 30", config.display());
    tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "30", &cmd]);
    let _guard = Session(name.clone());
    let screen = wait_for(&name, "lists several servers");
    assert!(screen.contains("cannot start"), "{screen}");
    // The broken entry says why on Enter and stays; the demo connects.
    tmux(&["send-keys", "-t", &name, "j", "Enter"]);
    wait_for(&name, "url must start with http");
    tmux(&["send-keys", "-t", &name, "j", "Enter"]);
    wait_for(&name, "Tools (19)");
    tmux(&["send-keys", "-t", &name, "q"]);
    wait_for(&name, "EXITED=0");
}

/// A server that echoes an `-e` value back (as text, in structuredContent, base64-encoded alone
/// and in a Basic credential) has it masked in every result view, the Split view's cut columns
/// too: nothing of it reaches the screen.
#[test]
fn a_secret_echoed_back_is_masked_in_every_view() {
    let secret = "sk-live-0123456789abcdef";
    let name = format!("mcplens-secret-{}", std::process::id());
    let server = common::script("hostile_io.py");
    let cmd = format!("{} -e API_TOKEN={secret} -- python3 {server} echo; sleep 30", common::bin());
    tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "40", &cmd]);
    let _guard = Session(name.clone());
    wait_for(&name, "Tools (2)");
    tmux(&["send-keys", "-t", &name, "Enter"]);
    wait_for(&name, "Form: leak");
    tmux(&["send-keys", "-t", &name, "C-r"]);
    wait_for(&name, "your token is");
    let fragments = [&secret[..8], &secret[secret.len() - 8..], "c2stbGl2ZS0w", "zay1saXZlLTAx"];
    for view in ["1", "2", "3", "4"] {
        tmux(&["send-keys", "-t", &name, view]);
        std::thread::sleep(Duration::from_millis(500));
        let screen = tmux(&["capture-pane", "-p", "-t", &name]);
        for f in fragments {
            assert!(!screen.contains(f), "view {view} shows {f:?}:\n{screen}");
        }
    }
}

#[test]
fn a_config_entry_that_cannot_start_says_why_and_the_picker_stays() {
    let dir = std::env::temp_dir().join(format!("mcplens-picker-gone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let config = dir.join("mcp.json");
    let vanishing = dir.join("server.sh");
    std::fs::write(&vanishing, "#!/bin/sh\nexit 1\n").unwrap_or_else(|e| panic!("{e}"));
    let bin = common::bin();
    let text = serde_json::json!({"mcpServers": {
        "missing": {"command": "no-such-mcp-server-anywhere"},
        "vanishing": {"command": vanishing},
        "demo": {"command": bin, "args": ["demo-server"]},
    }});
    std::fs::write(&config, text.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let name = format!("mcplens-picker-gone-{}", std::process::id());
    let cmd = format!("{bin} --config {}; echo EXITED=$?; sleep 30", config.display());
    tmux(&["new-session", "-d", "-s", &name, "-x", "120", "-y", "30", &cmd]);
    let _guard = Session(name.clone());
    // Said beforehand, beside the entry.
    let screen = wait_for(&name, "lists several servers");
    assert!(screen.contains("cannot start: command \"no-such-mcp-server-anywhere\" not found"), "{screen}");
    tmux(&["send-keys", "-t", &name, "Enter"]);
    wait_for(&name, "is it installed and on PATH?");
    // An entry whose file went away after the list was read: the failed start is said and the
    // picker comes back, on that entry.
    std::fs::remove_file(&vanishing).unwrap_or_else(|e| panic!("{e}"));
    tmux(&["send-keys", "-t", &name, "j", "Enter"]);
    let screen = wait_for(&name, &format!("vanishing cannot start: file \"{}\" not found", vanishing.display()));
    assert!(screen.contains("lists several servers") && !screen.contains("EXITED"), "{screen}");
    tmux(&["send-keys", "-t", &name, "j", "Enter"]);
    wait_for(&name, "Tools (19)");
    tmux(&["send-keys", "-t", &name, "q"]);
    wait_for(&name, "EXITED=0");
    let _ = std::fs::remove_dir_all(&dir);
}
