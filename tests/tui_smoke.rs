//! The real binary in a real terminal (tmux): it starts on the demo server, lists the tools, and
//! quits cleanly with the terminal restored.

mod common;

use std::time::Duration;

#[test]
fn starts_lists_tools_and_quits_cleanly() {
    let name = format!("mcplens-smoke-{}", std::process::id());
    let cmd = format!("{}; echo EXITED=$?; sleep 30", common::bin());
    let t = common::Tmux::start(&name, 120, 40, &cmd);
    let screen = t.wait_for("Tools (19)", 20);
    assert!(screen.contains("connected mcplens-demo"), "{screen}");
    assert!(screen.contains("List channels"), "{screen}");
    t.keys(&["/", "weather"]);
    t.wait_for("Tools (1/19 match \"weather", 20);
    t.keys(&["Enter"]);
    t.keys(&["q"]);
    let screen = t.wait_for("EXITED=0", 20);
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
    let t = common::Tmux::start(&name, 120, 30, &cmd);
    let screen = t.wait_for("lists several servers", 20);
    assert!(screen.contains("cannot start"), "{screen}");
    // The broken entry says why on Enter and stays; the demo connects.
    t.keys(&["j", "Enter"]);
    t.wait_for("url must start with http", 20);
    t.keys(&["j", "Enter"]);
    t.wait_for("Tools (19)", 20);
    t.keys(&["q"]);
    t.wait_for("EXITED=0", 20);
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
    let t = common::Tmux::start(&name, 120, 40, &cmd);
    t.wait_for("Tools (2)", 20);
    t.keys(&["Enter"]);
    t.wait_for("Form: leak", 20);
    t.keys(&["C-r"]);
    t.wait_for("your token is", 20);
    let fragments = [&secret[..8], &secret[secret.len() - 8..], "c2stbGl2ZS0w", "zay1saXZlLTAx"];
    for view in ["1", "2", "3", "4"] {
        t.keys(&[view]);
        std::thread::sleep(Duration::from_millis(500));
        let screen = t.screen();
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
    let t = common::Tmux::start(&name, 120, 30, &cmd);
    // Said beforehand, beside the entry.
    let screen = t.wait_for("lists several servers", 20);
    assert!(screen.contains("cannot start: command \"no-such-mcp-server-anywhere\" not found"), "{screen}");
    t.keys(&["Enter"]);
    t.wait_for("is it installed and on PATH?", 20);
    // An entry whose file went away after the list was read: the failed start is said and the
    // picker comes back, on that entry.
    std::fs::remove_file(&vanishing).unwrap_or_else(|e| panic!("{e}"));
    t.keys(&["j", "Enter"]);
    let screen = t.wait_for(&format!("vanishing cannot start: file \"{}\" not found", vanishing.display()), 20);
    assert!(screen.contains("lists several servers") && !screen.contains("EXITED"), "{screen}");
    t.keys(&["j", "Enter"]);
    t.wait_for("Tools (19)", 20);
    t.keys(&["q"]);
    t.wait_for("EXITED=0", 20);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A root that is no directory here is said in the status line, and offered all the same.
#[test]
fn a_root_that_is_no_directory_here_is_said_on_start() {
    let name = format!("mcplens-root-gone-{}", std::process::id());
    let cmd = format!("{} --root /no/such/root-dir; echo EXITED=$?; sleep 30", common::bin());
    let t = common::Tmux::start(&name, 120, 40, &cmd);
    let screen = t.wait_for("Tools (19)", 20);
    assert!(screen.contains("--root /no/such/root-dir: no such directory here"), "{screen}");
    t.keys(&["i"]);
    t.wait_for("file:///no/such/root-dir", 20);
    t.keys(&["q"]);
    t.wait_for("EXITED=0", 20);
}
