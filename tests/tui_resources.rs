//! The TUI's resources and prompts: the two docked panes, a read of text, JSON, markdown and a
//! blob, a template's form with the server's completions, a subscription and the re-read an
//! update brings, a prompt's messages, list_changed, the server log level and ping. Snapshots on
//! TestBackend against the project's Python SDK server (tests/servers/resources_server.py) and
//! the demo; each command the app asks for is carried out by the same code the worker runs.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::mcp::log::Level;
use mcplens::mcp::{CallOptions, Session, StdioTarget, Target};
use mcplens::ui::app::{App, Cmd};
use mcplens::ui::headless::{Screen, connected_app, connected_app_with, execute, notifications};
use mcplens::ui::keymap::Command;
use mcplens::ui::ops::Known;
use mcplens::ui::theme::Theme;

fn py_target() -> Target {
    Target::Stdio(StdioTarget {
        command: common::python().to_string_lossy().into_owned(),
        args: vec![common::script("resources_server.py")],
        env: vec![],
        cwd: None,
    })
}

/// The legacy era, as in tests/headless_resources.rs: the Python SDK (2.3) speaks 2026-07-28 too,
/// but there it answers neither `subscriptions/listen` nor `resources/subscribe`, which these
/// tests exercise.
async fn py_app() -> (App, Arc<Session>, Screen) {
    let options = mcplens::mcp::ConnectOptions {
        protocol: mcplens::mcp::era::Protocol::Legacy("2025-11-25"),
        ..Default::default()
    };
    let (app, s) = connected_app_with(&py_target(), options, Theme::default(), "resources server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(s), Screen::new(120, 36))
}

/// Timings vary run to run: `12 ms` becomes `N ms ` (the same width, so nothing moves).
fn stable(text: &str) -> String {
    let text = text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(" ms") {
        let head = &rest[..i];
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').len();
        out.push_str(&head[..head.len() - digits]);
        if digits > 0 {
            out.push('N');
        }
        out.push_str(" ms");
        // The width the digits took, after the unit: what follows keeps its place.
        out.push_str(&" ".repeat(digits.saturating_sub(1)));
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    out
}

/// The overlay whose title holds `title`, cut out of the screen (what is around it moves).
fn overlay(text: &str, title: &str) -> String {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let Some(top) = rows.iter().position(|r| r.iter().collect::<String>().contains(title)) else {
        return format!("no overlay {title:?} in:\n{text}");
    };
    let left = rows[top].iter().position(|c| *c == '┏').unwrap_or(0);
    let right = rows[top].iter().rposition(|c| *c == '┓').unwrap_or(rows[top].len().saturating_sub(1));
    let mut out = String::new();
    for r in &rows[top..] {
        let line: String = r.get(left..=right.min(r.len().saturating_sub(1))).unwrap_or_default().iter().collect();
        out.push_str(&line);
        out.push('\n');
        if r.get(left) == Some(&'┗') {
            break;
        }
    }
    out
}

fn ctrl(screen: &mut Screen, app: &mut App, c: char) -> Vec<Cmd> {
    screen.press_with(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Moves the resources pane's cursor to the item whose URI (or URI template) is `uri`: `y`
/// copies the selected descriptor as sent.
fn select(screen: &mut Screen, app: &mut App, uri: &str) {
    screen.press(app, KeyCode::Char('g'));
    for _ in 0..40 {
        let copied = screen.press(app, KeyCode::Char('y'));
        if let Some(Cmd::Copy(t)) = copied.first()
            && (t.contains(&format!("\"uri\":\"{uri}\"")) || t.contains(&format!("\"uriTemplate\":\"{uri}\"")))
        {
            return;
        }
        screen.press(app, KeyCode::Char('j'));
    }
    panic!("{uri} not found:\n{}", screen.text(app));
}

#[tokio::test]
async fn the_resources_pane_lists_every_page_and_shows_the_descriptor_as_sent() {
    let (mut app, _s, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('r'));
    let text = screen.text(&mut app);
    assert!(text.contains("Resources (25, 3 pages)"), "{text}");
    assert!(text.contains("evil\\x1b[2Jname") && !text.contains('\u{1b}'), "{text}");
    insta::assert_snapshot!("resources_pane", stable(&text));
    // Every resource and template, over all pages.
    screen.press(&mut app, KeyCode::Char('G'));
    let text = screen.text(&mut app);
    assert!(text.contains("Resource templates (3, 3 pages)") && text.contains("files:///{+path}"), "{text}");
    // The notes' annotations, icons and _meta are in its descriptor.
    select(&mut screen, &mut app, "res://item/002");
    let text = screen.text(&mut app);
    for needle in ["\"_meta\"", "\"annotations\"", "\"icons\""] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    // `o` shows it whole; `y` copies it as sent.
    screen.press(&mut app, KeyCode::Char('o'));
    assert!(screen.text(&mut app).contains("\"vendor/tag\""), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Esc);
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(matches!(cmds.first(), Some(Cmd::Copy(t)) if t.contains("\"rank\":2")), "{cmds:?}");
    // r (or Esc) hides it.
    screen.press(&mut app, KeyCode::Char('r'));
    assert!(!screen.text(&mut app).contains("Resources (25)"));
}

#[tokio::test]
async fn reads_show_blobs_json_markdown_and_text_and_save_to_a_file() {
    let (mut app, session, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('r'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert_eq!(cmds, [Cmd::ReadResource { uri: "res://item/000".into(), refresh: false }]);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("image/png · 69 B · blob") && text.contains("image 1×1"), "{text}");
    insta::assert_snapshot!("read_blob", stable(&text));
    let cmds = screen.press(&mut app, KeyCode::Char('e'));
    assert!(matches!(cmds.first(), Some(Cmd::Save { index: 0, .. })), "{cmds:?}");
    screen.press(&mut app, KeyCode::Esc);

    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("▾ { 3 keys") && text.contains("[2]: 3"), "JSON in the tree viewer:\n{text}");
    insta::assert_snapshot!("read_json", stable(&text));
    screen.press(&mut app, KeyCode::Char('v'));
    assert!(screen.text(&mut app).contains("\"level\": 3,"), "pretty text:\n{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Esc);

    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("# Notes") && text.contains("Some *markdown*."), "every character kept:\n{text}");
    screen.press(&mut app, KeyCode::Esc);

    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("before\\x1b[31mred\\x1b[0m after\\x07") && !text.contains('\u{1b}'), "{text}");
}

#[tokio::test]
async fn a_template_form_offers_the_servers_completions_and_reads_the_uri() {
    let (mut app, session, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('r'));
    select(&mut screen, &mut app, "db://{table}/rows{?column}");
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert!(matches!(&cmds[..], [Cmd::Complete(a)] if a.argument == "table" && a.partial.is_empty()), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("3 suggestions for table") && text.contains("order_items"), "{text}");
    let mut asked = vec![];
    for c in "ord".chars() {
        asked.extend(screen.press(&mut app, KeyCode::Char(c)));
    }
    // One ask per change; the worker sends the last one after a pause.
    assert_eq!(asked.len(), 3, "{asked:?}");
    execute(&mut app, &session, asked.split_off(2)).await;
    let text = screen.text(&mut app);
    assert!(text.contains("2 suggestions for table"), "{text}");
    insta::assert_snapshot!("template_form", stable(&text));
    ctrl(&mut screen, &mut app, 'n');
    screen.press(&mut app, KeyCode::Enter);
    assert!(screen.text(&mut app).contains("reads  db://orders/rows"), "{}", screen.text(&mut app));
    // The column's suggestions come from the table in the context.
    let cmds = screen.press(&mut app, KeyCode::Tab);
    assert!(matches!(&cmds[..], [Cmd::Complete(a)] if a.context == [("table".to_string(), "orders".to_string())]));
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains("placed_at"), "{}", screen.text(&mut app));
    let cmds = ctrl(&mut screen, &mut app, 'r');
    assert_eq!(cmds, [Cmd::ReadResource { uri: "db://orders/rows".into(), refresh: false }]);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("content 1 of 2"), "{text}");
    screen.press(&mut app, KeyCode::Tab);
    let text = screen.text(&mut app);
    assert!(text.contains("db://orders/rows#csv · text/csv · 8 B · blob"), "{text}");
    // A CSV sent as base64 is shown as its text.
    assert!(text.contains("text sent as base64 (8 B); e saves its bytes"), "{text}");
    assert!(text.contains("a,b") && text.contains("1,2") && !text.contains("binary, 8 B"), "{text}");
}

/// The highlight moves only among the suggestions on screen, and the line that says how many
/// more there are shows under them: Enter never takes a value the user did not see.
#[tokio::test]
async fn the_highlighted_suggestion_is_always_one_on_screen() {
    let (mut app, session, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('r'));
    select(&mut screen, &mut app, "users://{user}/profile");
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    for _ in 0..8 {
        ctrl(&mut screen, &mut app, 'n');
    }
    let shown = overlay(&screen.text(&mut app), "Template: user-profile");
    insta::assert_snapshot!("template_suggestions_highlighted", stable(&shown));
    assert!(shown.contains("user007") && shown.contains("… 92 more: type to narrow"), "{shown}");
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(text.contains("reads  users://user007/profile"), "{text}");
}

#[tokio::test]
async fn a_subscription_shows_updates_and_the_open_read_reads_again() {
    let (mut app, session, mut screen) = py_app().await;
    let mut events = session.events();
    screen.press(&mut app, KeyCode::Char('r'));
    select(&mut screen, &mut app, "res://item/004");
    let cmds = screen.press(&mut app, KeyCode::Char('s'));
    assert_eq!(cmds, [Cmd::Subscribe { uri: "res://item/004".into(), on: true }]);
    execute(&mut app, &session, cmds).await;
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    let args = serde_json::json!({"uri": "res://item/004"}).as_object().cloned();
    session.call_tool("touch", args, &CallOptions::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    let known = Arc::new(Mutex::new(Known::default()));
    notifications(&mut app, &session, &mut events, known, Duration::from_secs(2)).await;
    let text = screen.text(&mut app);
    assert!(text.contains("read again after the server's update"), "{text}");
    assert!(text.contains("✱ the server updated res://item/004"), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    let text = screen.text(&mut app);
    assert!(text.contains("✱1  ") && text.contains("1 subscribed"), "{text}");
    // The same key unsubscribes.
    let cmds = screen.press(&mut app, KeyCode::Char('s'));
    assert_eq!(cmds, [Cmd::Subscribe { uri: "res://item/004".into(), on: false }]);
}

#[tokio::test]
async fn a_read_again_after_an_update_keeps_the_place_the_folds_and_the_search() {
    let (mut app, session, mut screen) = py_app().await;
    let mut events = session.events();
    screen.press(&mut app, KeyCode::Char('r'));
    select(&mut screen, &mut app, "res://item/001");
    let cmds = screen.press(&mut app, KeyCode::Char('s'));
    execute(&mut app, &session, cmds).await;
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    // A search that finds "level", then "nested" folded under the cursor.
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "level");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Char('h'));
    let before = overlay(&screen.text(&mut app), "Resource: res://item/001");
    assert!(before.contains("▸ \"nested\": {…} 1 key") && before.contains("/level"), "{before}");
    let args = serde_json::json!({"uri": "res://item/001"}).as_object().cloned();
    session.call_tool("touch", args, &CallOptions::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    let known = Arc::new(Mutex::new(Known::default()));
    notifications(&mut app, &session, &mut events, known, Duration::from_secs(2)).await;
    let after = stable(&overlay(&screen.text(&mut app), "Resource: res://item/001"));
    assert!(after.contains("read again after the server's update"), "{after}");
    assert!(
        after.contains("▸ \"nested\": {…} 1 key") && after.contains("/level"),
        "the fold and the search kept:\n{after}"
    );
    // The clock of the note varies run to run.
    let clockless: Vec<String> = after
        .lines()
        .map(|l| if l.contains("read again after") { l.replace(|c: char| c.is_ascii_digit(), "0") } else { l.into() })
        .collect();
    insta::assert_snapshot!("resource_read_again_in_place", clockless.join("\n"));
}

#[tokio::test]
async fn the_prompts_pane_gets_a_prompt_through_its_form_and_shows_every_content_type() {
    let (mut app, session, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('p'));
    let text = screen.text(&mut app);
    assert!(text.contains("Prompts (3, 3 pages)") && text.contains("name              * required"), "{text}");
    insta::assert_snapshot!("prompts_pane", stable(&text));
    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    // Required is enforced before sending.
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty());
    screen.type_text(&mut app, "x = 1");
    let cmds = ctrl(&mut screen, &mut app, 'r');
    assert!(matches!(&cmds[..], [Cmd::GetPrompt { name, .. }] if name == "review"), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    for needle in [
        "── user ──",
        "x = 1",
        "#1 image · image/png · 69 bytes · 1×1",
        "#1 audio · audio/wav · 16 bytes",
        "#1 resource · res://item/002 · text/markdown",
        "── assistant ──",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    insta::assert_snapshot!("prompt_messages", stable(&text));
    // The resource_link at the bottom is read in one key, once it is at the top.
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "resource_link");
    screen.press(&mut app, KeyCode::Enter);
    let cmds = screen.press(&mut app, KeyCode::Char('O'));
    assert_eq!(cmds, [Cmd::ReadResource { uri: "res://item/001".into(), refresh: false }]);
    // A prompt without arguments is got at once.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert!(matches!(&cmds[..], [Cmd::GetPrompt { name, arguments }] if name == "plain" && arguments.is_empty()));
}

#[tokio::test]
async fn list_changed_relists_once_and_says_what_changed() {
    let (mut app, session, mut screen) = py_app().await;
    let mut events = session.events();
    let known = Arc::new(Mutex::new(Known::default()));
    // What the app was shown first, as the worker remembers it.
    mcplens::ui::ops::relist(
        session.clone(),
        vec![mcplens::ui::ops::ListKind::Resources],
        false,
        known.clone(),
        tokio::sync::mpsc::unbounded_channel().0,
    )
    .await;
    for _ in 0..2 {
        session
            .call_tool("add_resource", None, &CallOptions::default(), &mut |_| {})
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let before = session.log().pushed();
    notifications(&mut app, &session, &mut events, known, Duration::from_secs(2)).await;
    let sent = session.log().since(before);
    let relisted = sent.iter().filter(|e| e.text.contains("\"method\":\"resources/list\"")).count();
    assert_eq!(relisted, 3, "two notifications, one re-listing of the 3 pages");
    let notice = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert_eq!(notice, "resources changed (list_changed): 2 added: res://item/025, res://item/026");
    screen.press(&mut app, KeyCode::Char('r'));
    assert!(screen.text(&mut app).contains("Resources (27, 3 pages)"), "{}", screen.text(&mut app));
}

#[tokio::test]
async fn the_server_log_level_is_picked_in_the_log_and_ping_shows_the_round_trip() {
    let (mut app, session, mut screen) = py_app().await;
    screen.press(&mut app, KeyCode::Char('L'));
    screen.press(&mut app, KeyCode::Char('s'));
    let text = screen.text(&mut app);
    insta::assert_snapshot!("server_level", overlay(&text, "Server log level"));
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert_eq!(cmds, [Cmd::SetLogLevel(Level::Warning)]);
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains("the server now sends log messages at warning and above"));
    let cmds = screen.press(&mut app, KeyCode::Char('P'));
    assert_eq!(cmds, [Cmd::Request(Command::Ping)]);
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("pong: ") && text.contains("ms round trip"), "{text}");
}

#[tokio::test]
async fn a_results_resource_link_and_embedded_resource_open_in_one_key() {
    let (mut app, s) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let session = Arc::new(s);
    let mut screen = Screen::new(120, 36);
    // The demo declares neither resources nor prompts: the panes say so.
    screen.press(&mut app, KeyCode::Char('r'));
    assert!(screen.text(&mut app).contains("declares no resources capability"), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Char('r'));
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "get_resources");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Enter);
    let cmds = ctrl(&mut screen, &mut app, 'r');
    assert!(matches!(cmds.first(), Some(Cmd::Call { .. })), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    screen.press(&mut app, KeyCode::Char('3'));
    // The embedded resource (the first block) is shown as it came, without a request.
    let cmds = screen.press(&mut app, KeyCode::Char('O'));
    assert!(cmds.is_empty(), "{cmds:?}");
    let text = screen.text(&mut app);
    assert!(text.contains("Embedded resource: demo://notes/readme.md") && text.contains("- second item"), "{text}");
    insta::assert_snapshot!("embedded_resource", stable(&text));
    screen.press(&mut app, KeyCode::Esc);
    // From the resource_link's block on, O reads it.
    for _ in 0..7 {
        screen.press(&mut app, KeyCode::Char('j'));
    }
    let cmds = screen.press(&mut app, KeyCode::Char('O'));
    assert_eq!(cmds, [Cmd::ReadResource { uri: "demo://files/report.pdf".into(), refresh: false }]);
}
