//! Pasted text (bracketed paste: one `Event::Paste`, not key presses) against the embedded demo
//! server: it lands where a typed key would (a filter, a form field, the JSON editor with its
//! line breaks), never runs the command a letter or Enter is bound to, and where nothing holds
//! a text cursor it goes nowhere and the status line says so.

mod common;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::ui::app::{App, Cmd, Msg, Pane, SetUp};
use mcplens::ui::headless::{Screen, connected_app};
use mcplens::ui::theme::Theme;
use serde_json::{Value, json};

async fn demo() -> (App, mcplens::mcp::Session, Screen) {
    let (mut app, s) = connected_app(&common::demo(), Theme::default(), "paste")
        .await
        .unwrap_or_else(|e| panic!("cannot connect: {e}"));
    app.set_up(SetUp { history: Some(mcplens::history::History::default()), ..Default::default() });
    (app, s, Screen::new(120, 40))
}

fn paste(app: &mut App, text: &str) -> Vec<Cmd> {
    app.update(Msg::Paste(text.into()))
}

fn arguments(app: &App) -> Value {
    app.form().and_then(|f| f.arguments().ok()).unwrap_or_default()
}

#[tokio::test]
async fn a_paste_where_no_text_cursor_is_runs_nothing_and_says_so() {
    let (mut app, _s, mut screen) = demo().await;
    assert_eq!(app.outline().focus, Pane::Tools);
    // As keys, "q" would quit, "K" open the collection and the line break run the tool.
    let cmds = paste(&mut app, "qK\nl?");
    assert!(cmds.is_empty(), "{cmds:?}");
    let o = app.outline();
    assert!(!o.quit && o.overlays.is_empty() && o.docked.is_none() && !o.log_shown);
    assert!(app.form().is_none());
    let text = screen.text(&mut app);
    assert!(text.contains("nothing here takes text"), "{text}");
}

#[tokio::test]
async fn a_paste_into_the_filter_and_a_field_is_typed_there_as_one_line() {
    let (mut app, _s, mut screen) = demo().await;
    screen.press(&mut app, KeyCode::Char('/'));
    assert!(paste(&mut app, "echo").is_empty());
    let text = screen.text(&mut app);
    assert!(text.contains("match \"echo\""), "{text}");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
    // The first field, `message`, holds its cursor: the paste replaces the default shown
    // selected, its line break and tab become spaces, its escape sequence is dropped.
    let cmds = paste(&mut app, "hello\nworld\tq\u{1b}[2J");
    assert!(cmds.is_empty(), "{cmds:?}");
    assert_eq!(arguments(&app), json!({"message": "hello world q[2J"}));
    // Typing goes on after the pasted text.
    screen.type_text(&mut app, "!");
    assert_eq!(arguments(&app)["message"], json!("hello world q[2J!"));
    let o = app.outline();
    assert!(!o.quit && o.overlays.is_empty() && o.focus == Pane::Form);
}

#[tokio::test]
async fn a_paste_into_the_json_editor_keeps_its_lines() {
    let (mut app, _s, mut screen) = demo().await;
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "echo");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Enter);
    screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert!(app.form().is_some_and(|f| f.raw.is_some()), "not in JSON mode");
    // Pasted at the editor's cursor, in among the text it held, its lines kept.
    let pasted = "{\n  \"message\": \"a\",\n  \"repeat\": 3\n}";
    let cmds = paste(&mut app, pasted);
    assert!(cmds.is_empty(), "{cmds:?}");
    let raw = app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
    assert!(raw.contains(pasted), "{raw}");
    let text = screen.text(&mut app);
    assert!(text.contains("\"repeat\": 3"), "{text}");
}
