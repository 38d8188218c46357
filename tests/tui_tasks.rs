//! The TUI's tasks overlay (`T`) and its roots keys (`+`/`-` in the server info pane), against
//! tests/servers/modern_server.py (SEP-2663 tasks, 2026-07-28): the list with id, tool, status
//! and age, Enter showing a finished task's result, `c` cancelling a running one. Snapshots on
//! TestBackend.

mod common;

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::KeyCode;
use mcplens::mcp::{CallOptions, Session, StdioTarget, Target};
use mcplens::ui::app::{App, Cmd};
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;

fn target(extra: &[&str]) -> Target {
    let mut args = vec![common::script("modern_server.py")];
    args.extend(extra.iter().map(|s| s.to_string()));
    Target::Stdio(StdioTarget {
        command: common::python().to_string_lossy().into_owned(),
        args,
        env: vec![],
        cwd: None,
    })
}

async fn app(extra: &[&str]) -> (App, Arc<Session>) {
    let (app, session) =
        connected_app(&target(extra), Theme::default(), "modern_server.py").await.unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(session))
}

/// Ages and versions vary from run to run: masked.
fn stable(text: &str) -> String {
    let ages = regex::Regex::new(r" +\d+s( |$)").unwrap_or_else(|e| panic!("{e}"));
    // The request id counts every request before it (listings the app makes at connect).
    let ids = regex::Regex::new(r#""id": \d+,"#).unwrap_or_else(|e| panic!("{e}"));
    let text = text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z");
    let lines = text.lines().map(|l| ages.replace_all(l, "    Ns$1").into_owned());
    lines.map(|l| ids.replace_all(&l, r#""id": N,"#).into_owned()).collect::<Vec<_>>().join("\n")
}

/// Presses `key` and carries out the commands it gives, as the worker would.
async fn press(screen: &mut Screen, app: &mut App, session: &Arc<Session>, key: KeyCode) -> Vec<Cmd> {
    let cmds = screen.press(app, key);
    let shown: Vec<Cmd> = cmds.iter().filter(|c| matches!(c, Cmd::Tasks | Cmd::CancelTask(_))).cloned().collect();
    execute(app, session, cmds).await;
    shown
}

#[tokio::test]
async fn t_lists_the_sessions_tasks_enter_shows_a_result_and_c_cancels() {
    let (mut app, session) = app(&[]).await;
    let mut screen = Screen::new(110, 24);
    // No task yet: the overlay says how one comes.
    press(&mut screen, &mut app, &session, KeyCode::Char('T')).await;
    assert!(screen.text(&mut app).contains("No tasks yet"), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Esc);
    assert!(app.outline().overlays.is_empty());

    // A task run to its end: the server makes one of slow_job (resultType "task").
    let reply = session.call_tool("slow_job", None, &CallOptions::default(), &mut |_| {}).await;
    assert!(reply.unwrap_or_else(|e| panic!("{e}")).raw.contains("job done"));
    // A second one left running, to cancel.
    let running = session.clone();
    let bg = tokio::spawn(async move {
        let opts = CallOptions { timeout: Some(Duration::from_secs(30)), cancel: None };
        running.call_tool("long_job", None, &opts, &mut |_| {}).await.map(|r| r.raw.to_string())
    });
    while session.session_tasks().len() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let cmds = press(&mut screen, &mut app, &session, KeyCode::Char('T')).await;
    assert!(matches!(cmds.as_slice(), [Cmd::Tasks]));
    let text = screen.text(&mut app);
    assert!(text.contains("Tasks: 2 in this session") && text.contains("slow_job") && text.contains("completed"));
    insta::assert_snapshot!("tasks_list", stable(&text));

    // The newest (long_job, still running) is first: down to slow_job, Enter shows its result.
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(text.contains("Task task-1 · result as sent") && text.contains("job done"), "{text}");
    insta::assert_snapshot!("tasks_result", stable(&text));
    screen.press(&mut app, KeyCode::Esc);
    // A finished task cannot be cancelled; the running one can.
    screen.press(&mut app, KeyCode::Char('c'));
    // (The footer shows the overlay's keys: the notice is read from the app.)
    let notice = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert_eq!(notice, "task task-1 already ended (completed)");
    screen.press(&mut app, KeyCode::Char('k'));
    let cmds = press(&mut screen, &mut app, &session, KeyCode::Char('c')).await;
    assert!(matches!(cmds.as_slice(), [Cmd::CancelTask(id)] if id == "task-2"), "{cmds:?}");
    assert!(app.outline().overlays.is_empty());
    let notice = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert_eq!(notice, "task task-2 cancelled");
    let ended = tokio::time::timeout(Duration::from_secs(10), bg).await;
    assert!(matches!(ended, Ok(Ok(Err(_)))), "the cancelled call did not end as cancelled: {ended:?}");
    press(&mut screen, &mut app, &session, KeyCode::Char('T')).await;
    assert!(screen.text(&mut app).contains("cancelled"));
}

#[tokio::test]
async fn plus_and_minus_in_the_info_pane_change_the_roots_offered() {
    let (mut app, session) = app(&[]).await;
    let mut screen = Screen::new(110, 40);
    screen.press(&mut app, KeyCode::Char('i'));
    let cmds = screen.press(&mut app, KeyCode::Char('+'));
    let [Cmd::SetRoots(roots)] = cmds.as_slice() else { panic!("{cmds:?}") };
    assert_eq!(roots.len(), 1);
    execute(&mut app, &session, cmds.clone()).await;
    assert_eq!(session.roots().len(), 1);
    let text = screen.text(&mut app);
    assert!(text.contains("root      "), "{text}");
    // The modern server asks for them in its next input_required.
    let reply = session.call_tool("show_roots", None, &CallOptions::default(), &mut |_| {}).await;
    let cwd = std::env::current_dir().unwrap_or_default();
    let name = cwd.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    assert!(reply.unwrap_or_else(|e| panic!("{e}")).raw.contains(&format!(r#"\"name\": \"{name}\""#)));
    let cmds = screen.press(&mut app, KeyCode::Char('-'));
    execute(&mut app, &session, cmds).await;
    assert!(session.roots().is_empty());
    let cmds = screen.press(&mut app, KeyCode::Char('-'));
    assert!(cmds.is_empty());
    assert_eq!(app.outline().notice.map(|n| n.0).as_deref(), Some("no root to remove"));
}

#[tokio::test]
async fn a_legacy_server_offered_roots_is_told_they_changed() {
    // The legacy era (--dual, a fixed version): roots/list_changed goes out on the wire.
    let opts = mcplens::mcp::ConnectOptions {
        protocol: mcplens::mcp::era::Protocol::Legacy("2025-11-25"),
        roots: vec![mcplens::mcp::asks::Root { uri: "file:///tmp".into(), name: "tmp".into() }],
        ..Default::default()
    };
    let session = Session::connect(&target(&["--dual"]), opts).await.unwrap_or_else(|e| panic!("{e}"));
    session.set_roots(vec![]).await.unwrap_or_else(|e| panic!("{e}"));
    let told = session.log().entries().iter().any(|e| e.text.contains("notifications/roots/list_changed"));
    assert!(told, "no roots/list_changed in the log");
    session.close().await;
}
