//! `R` in the real binary (tmux) while a call is under way or a server's request is open: the
//! call is cancelled first (the server is told) and says why, and the request's overlay closes
//! saying why. Server: tests/servers/reconnect_server.py, whose calls wait on the client.

mod common;

/// The result pane's first lines inside its border, numbers made `N` (durations vary).
fn result_lines(screen: &str) -> String {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let title = |r: &Vec<char>| r.iter().collect::<String>().contains("Result");
    let Some(top) = rows.iter().position(title) else { return format!("no result pane in:\n{screen}") };
    let left = rows[top].iter().position(|c| matches!(c, '┏' | '╭')).unwrap_or(0);
    let text: Vec<String> =
        rows[top..].iter().skip(1).take(5).map(|r| r.iter().skip(left + 1).collect::<String>()).collect();
    // The right border goes: a duration's digits made one `N` would move it.
    let text: Vec<&str> = text.iter().map(|l| l.trim_end().trim_end_matches(['┃', '│']).trim_end()).collect();
    let mut stable = String::new();
    let mut digits = false;
    for c in text.join("\n").chars() {
        if c.is_ascii_digit() {
            if !digits {
                stable.push('N');
            }
            digits = true;
        } else {
            digits = false;
            stable.push(c);
        }
    }
    stable
}

#[test]
fn reconnect_cancels_the_running_call_and_closes_the_servers_request() {
    let dir = std::env::temp_dir().join(format!("mcplens-reconnect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let log = dir.join("cancelled.jsonl");
    let _ = std::fs::remove_file(&log);
    let server = common::script("reconnect_server.py");
    let cmd = format!(
        "MCPLENS_STATE_DIR={} {} -- python3 {server} {}; sleep 30",
        dir.join("state").display(),
        common::bin(),
        log.display()
    );
    let t = common::Tmux::start(&format!("mcplens-reconnect-{}", std::process::id()), 120, 40, &cmd);
    t.wait_for("Tools (2)", 20);
    // The call waits on the server; Esc leaves the form, R reconnects.
    t.keys(&["Enter"]);
    t.wait_for("Form: slow", 20);
    t.keys(&["C-r"]);
    t.wait_for("Ctrl-K cancels", 20);
    // Apart: Esc then R at once reads as Alt-R.
    t.keys(&["Escape"]);
    t.wait_for("Enter form", 20);
    t.keys(&["R"]);
    let screen = t.wait_for("connected again", 20);
    insta::assert_snapshot!("reconnect_cancels_the_call", result_lines(&screen));
    let told = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(told.contains("\"requestId\""), "no notifications/cancelled reached the server: {told:?}");
    // A server's request open when R is pressed: its overlay closes, saying why.
    t.keys(&["Tab"]);
    t.wait_for("Enter form", 20);
    t.keys(&["j", "Enter"]);
    t.wait_for("Form: ask", 20);
    t.keys(&["C-r"]);
    t.wait_for("Open the page to go on", 20);
    t.keys(&["R"]);
    let screen = t.wait_for("request from the old connection", 20);
    assert!(!screen.contains("Open the page to go on"), "{screen}");
    assert!(!screen.contains("withdrew"), "{screen}");
    t.wait_for("connected again", 20);
    let told = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(told.lines().count(), 2, "{told}");
    // Each notifications/cancelled says why: the user reconnected (not a Ctrl-K).
    for line in told.lines() {
        let params: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(params["reason"], "reconnecting", "{line}");
    }
}
