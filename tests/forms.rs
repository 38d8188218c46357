//! Forms in the TUI, driven by key events against the real demo server: the exact arguments the
//! server received, snapshots of forms, confirmation, JSON mode, history.

mod common;

use common::demo_app::{go, open, setup};

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::history::History;
use mcplens::ui::app::{App, Cmd, Pane, SetUp};
use mcplens::ui::headless::{Screen, execute};
use serde_json::{Value, json};

fn ctrl(screen: &mut Screen, app: &mut App, c: char) -> Vec<Cmd> {
    screen.press_with(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn received(app: &App) -> Value {
    let raw = app.result().and_then(|r| r.call.reply.as_ref()).map(|r| r.raw.to_string()).unwrap_or_default();
    let v: Value = serde_json::from_str(&raw).unwrap_or_default();
    v["result"]["structuredContent"]["argumentsReceived"].clone()
}

#[tokio::test]
async fn nested_person_finder_form_sends_exactly_what_was_filled() {
    let (mut app, session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    // The first field has the focus.
    assert_eq!(app.form().and_then(|f| f.focused_field()).map(|f| f.key.clone()).as_deref(), Some("queries"));
    go(&mut screen, &mut app, "fg_id");
    screen.type_text(&mut app, "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c");
    go(&mut screen, &mut app, "role");
    screen.press(&mut app, KeyCode::Char(' '));
    for _ in 0..3 {
        screen.press(&mut app, KeyCode::Down);
    }
    screen.press(&mut app, KeyCode::Enter);
    go(&mut screen, &mut app, "country");
    screen.type_text(&mut app, "JP");
    go(&mut screen, &mut app, "match");
    screen.press(&mut app, KeyCode::Char(' '));
    screen.press(&mut app, KeyCode::Down);
    screen.press(&mut app, KeyCode::Down);
    screen.press(&mut app, KeyCode::Enter);
    go(&mut screen, &mut app, "limit");
    screen.press(&mut app, KeyCode::Backspace);
    screen.press(&mut app, KeyCode::Backspace);
    screen.type_text(&mut app, "5");
    let text = screen.text(&mut app);
    insta::assert_snapshot!("person_finder_form", text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z"));
    let cmds = ctrl(&mut screen, &mut app, 'r');
    assert!(matches!(cmds.first(), Some(Cmd::Call { tool, .. }) if tool == "fg_findPersons"), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result, "focus moves to the result");
    assert_eq!(
        received(&app),
        json!({
            "queries": [{"fg_id": "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c", "role": "designer", "address": {"country": "JP"}, "match": {"fuzziness": 0.3}}],
            "limit": 5, "sort": "relevance", "include_inactive": false
        })
    );
    // Leaving and reopening the form keeps its values.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().focus, Pane::Tools);
    screen.press(&mut app, KeyCode::Enter);
    let args = app.form().and_then(|f| f.arguments().ok()).unwrap_or_default();
    assert_eq!(args["limit"], 5);
}

#[tokio::test]
async fn invalid_arguments_are_flagged_at_their_field_and_not_sent() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    go(&mut screen, &mut app, "fg_id");
    screen.type_text(&mut app, "not-a-uuid");
    let text = screen.text(&mut app);
    assert!(text.contains("✖ \"not-a-uuid\" is not in the format \"uuid\""), "{text}");
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty(), "invalid arguments must not be sent");
    assert!(screen.text(&mut app).contains("validation error(s): fix them, or Ctrl-V to send anyway"));
    ctrl(&mut screen, &mut app, 'v');
    assert!(matches!(ctrl(&mut screen, &mut app, 'r').first(), Some(Cmd::Call { .. })));
}

#[tokio::test]
async fn destructive_tools_ask_first() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "delete_message");
    screen.type_text(&mut app, "general");
    screen.press(&mut app, KeyCode::Tab);
    screen.type_text(&mut app, "42");
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty());
    assert!(screen.text(&mut app).contains("is marked destructive. Run it? y / N"));
    assert!(screen.press(&mut app, KeyCode::Char('n')).is_empty());
    ctrl(&mut screen, &mut app, 'r');
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(
        matches!(cmds.first(), Some(Cmd::Call { arguments, .. }) if arguments == &json!({"channel_id": "general", "message_id": "42"})),
        "{cmds:?}"
    );
}

#[tokio::test]
async fn json_mode_stays_in_sync_with_the_fields() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "echo");
    // The prefilled "hello" is selected: End keeps it, and what is typed goes after it.
    screen.press(&mut app, KeyCode::End);
    screen.type_text(&mut app, "!");
    ctrl(&mut screen, &mut app, 't');
    let raw = app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
    assert_eq!(serde_json::from_str::<Value>(&raw).ok(), Some(json!({"message": "hello!"})));
    // Edit the JSON: replace the whole text.
    screen.type_json(&mut app, r#"{"message": "from json", "repeat": 3, "extra": {"k": "v"}}"#);
    ctrl(&mut screen, &mut app, 't');
    let form = app.form().map(|f| (f.raw.is_none(), f.arguments().ok()));
    assert_eq!(form, Some((true, Some(json!({"message": "from json", "repeat": 3, "extra": {"k": "v"}})))));
    assert!(screen.text(&mut app).contains("k: v"), "the extra key shows as a field row");
}

#[tokio::test]
async fn history_is_kept_privately_and_reopens_or_reruns_calls() {
    let (mut app, session, mut screen) = setup().await;
    let dir = std::env::temp_dir().join(format!("mcplens-forms-hist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    app.set_up(SetUp { history: Some(History::open_in(&dir, "demo")), ..SetUp::default() });
    open(&mut screen, &mut app, "weather");
    screen.type_text(&mut app, "Lisbon");
    let cmds = ctrl(&mut screen, &mut app, 'r');
    execute(&mut app, &session, cmds).await;
    assert_eq!(
        app.result().and_then(|r| r.call.envelope.as_ref()).map(|e| e.data["city"].clone()),
        Some(json!("Lisbon"))
    );
    let path = app.calls().0.path().map(|p| p.to_path_buf()).unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        text.contains("\"tool\":\"get_weather\"") && text.contains("Lisbon") && text.contains("\"status\":\"ok\""),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777).unwrap_or(0), 0o600);
    }
    // A new session reads it back: the form starts from the last arguments.
    let fresh = History::open_in(&dir, "demo");
    assert_eq!(fresh.last_arguments("get_weather"), Some(&json!({"city": "Lisbon"})));
    let (mut app, session, mut screen) = setup().await;
    app.set_up(SetUp { history: Some(fresh), ..SetUp::default() });
    open(&mut screen, &mut app, "weather");
    assert_eq!(app.form().and_then(|f| f.arguments().ok()), Some(json!({"city": "Lisbon"})));
    // The history view re-runs a past call at once.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('H'));
    assert!(screen.text(&mut app).contains("History: 1 call ·"));
    let cmds = screen.press(&mut app, KeyCode::Char('r'));
    assert!(
        matches!(cmds.first(), Some(Cmd::Call { tool, arguments, .. }) if tool == "get_weather" && arguments == &json!({"city": "Lisbon"}))
    );
    assert!(app.outline().overlays.is_empty(), "the overlay closes when a call is re-run");
    // Esc closes it; `o` shows a call's kept result.
    screen.press(&mut app, KeyCode::Char('H'));
    screen.press(&mut app, KeyCode::Esc);
    assert!(app.outline().overlays.is_empty() && !screen.text(&mut app).contains("History: 1 call"));
    execute(&mut app, &session, cmds).await;
    // Another call's result on screen; `o` on the re-run (second newest) brings its result back.
    assert!(screen.focus(&mut app, Pane::Tools));
    // Esc clears the tool list's filter ("weather").
    screen.press(&mut app, KeyCode::Esc);
    open(&mut screen, &mut app, "echo");
    let cmds = ctrl(&mut screen, &mut app, 'r');
    execute(&mut app, &session, cmds).await;
    assert_eq!(app.result().map(|r| r.call.tool.as_str()), Some("echo"));
    screen.press(&mut app, KeyCode::Char('H'));
    screen.press(&mut app, KeyCode::Down);
    screen.press(&mut app, KeyCode::Char('o'));
    assert_eq!(app.outline().focus, Pane::Result);
    assert_eq!(app.result().map(|r| r.call.tool.as_str()), Some("get_weather"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn typing_replaces_a_prefilled_value_and_booleans_flip() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "generate_records");
    // `count` starts from its default, shown selected: what is typed replaces it.
    go(&mut screen, &mut app, "count");
    assert!(app.form().is_some_and(|f| f.selected_value()));
    screen.type_text(&mut app, "42");
    screen.type_text(&mut app, "0");
    let args = app.form().and_then(|f| f.arguments().ok()).unwrap_or_default();
    assert_eq!(args["count"], json!(420));
    // Leaving and coming back selects it again; Backspace then clears it whole.
    screen.press(&mut app, KeyCode::Down);
    screen.press(&mut app, KeyCode::Up);
    screen.press(&mut app, KeyCode::Backspace);
    let args = app.form().and_then(|f| f.arguments().ok()).unwrap_or_default();
    assert_eq!(args.get("count"), None, "{args}");
    // So does leaving the form and opening it again.
    screen.type_text(&mut app, "7");
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Enter);
    assert!(app.form().is_some_and(|f| f.selected_value()));
    screen.press(&mut app, KeyCode::Backspace);
    let args = app.form().and_then(|f| f.arguments().ok()).unwrap_or_default();
    assert_eq!(args.get("count"), None, "{args}");
    // An optional boolean defaulting to false: Space gives true, then false, then true again.
    go(&mut screen, &mut app, "as_text");
    let as_text = |app: &App| app.form().and_then(|f| f.arguments().ok()).unwrap_or_default()["as_text"].clone();
    let before = as_text(&app);
    screen.press(&mut app, KeyCode::Char(' '));
    let first = as_text(&app);
    screen.press(&mut app, KeyCode::Char(' '));
    let second = as_text(&app);
    assert_ne!(first, second);
    assert!(first.is_boolean() && second.is_boolean(), "{before} {first} {second}");
    screen.press(&mut app, KeyCode::Char(' '));
    assert_eq!(as_text(&app), first);
    // Ctrl-D omits it.
    ctrl(&mut screen, &mut app, 'd');
    assert_eq!(as_text(&app), Value::Null);
}

#[tokio::test]
async fn the_message_that_stopped_a_run_goes_once_the_arguments_are_fixed() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    go(&mut screen, &mut app, "fg_id");
    screen.type_text(&mut app, "not-a-uuid");
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty());
    assert!(screen.text(&mut app).contains("validation error(s): fix them"));
    // Fixed: the value is a UUID now.
    for _ in 0.."not-a-uuid".len() {
        screen.press(&mut app, KeyCode::Backspace);
    }
    screen.type_text(&mut app, "123e4567-e89b-12d3-a456-426614174000");
    let text = screen.text(&mut app);
    assert!(text.contains("✔ arguments valid"), "{text}");
    assert!(!text.contains("validation error(s)"), "{text}");
}

#[tokio::test]
async fn the_json_editor_edits_as_every_text_input_does() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    ctrl(&mut screen, &mut app, 't');
    let raw = |app: &App| app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
    assert!(raw(&app).starts_with("{\n  \"limit\": 10,"), "{}", raw(&app));
    // End, Ctrl-U: the line before the cursor is gone; at a line's start Ctrl-U joins the line
    // to the one above, so pressed again it empties the editor and a paste replaces the text.
    for _ in 0..10 {
        screen.press(&mut app, KeyCode::Down);
    }
    screen.press(&mut app, KeyCode::End);
    ctrl(&mut screen, &mut app, 'u');
    assert!(raw(&app).ends_with("false\n"), "{}", raw(&app));
    for _ in 0..10 {
        ctrl(&mut screen, &mut app, 'u');
    }
    assert_eq!(raw(&app), "");
    app.update(mcplens::ui::app::Msg::Paste("{\"queries\": [\"one two\"]}".into()));
    assert_eq!(raw(&app), "{\"queries\": [\"one two\"]}");
    for _ in 0..3 {
        screen.press(&mut app, KeyCode::Left);
    }
    ctrl(&mut screen, &mut app, 'w');
    assert_eq!(raw(&app), "{\"queries\": [\"one \"]}");
    // A long line scrolls to the cursor, cut with `…`.
    screen.type_text(&mut app, &"x".repeat(200));
    let shown = screen.text(&mut app);
    let row = shown.lines().find(|l| l.contains("xxxx")).unwrap_or_default();
    assert!(row.contains("…xxx") && row.contains("x\"…"), "{shown}");
}
