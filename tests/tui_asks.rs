//! The TUI's overlay for a server's request (elicitation form and URL, sampling): what it shows,
//! and the answer each key sends to the worker. Snapshots on TestBackend, against the demo.

mod common;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::mcp::asks::{Answer, ServerAsk};
use mcplens::ui::app::{App, Cmd, Msg, SessionMsg};
use mcplens::ui::headless::{Screen, connected_app};
use mcplens::ui::theme::Theme;
use serde_json::json;

async fn app() -> (App, mcplens::mcp::Session) {
    connected_app(&common::demo(), Theme::default(), "embedded demo server").await.unwrap_or_else(|e| panic!("{e}"))
}

/// The app told that the server sent `raw` (request id 7).
fn asked(app: &mut App, raw: serde_json::Value) {
    let (ask, _rx) =
        ServerAsk::new("7".into(), Arc::new(raw.to_string()), 1000).unwrap_or_else(|e| panic!("not an ask: {e}"));
    app.update(Msg::Session(SessionMsg::Asked(ask.view())));
}

fn answers(cmds: &[Cmd]) -> Vec<Answer> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::Answer { id, answer } if id == "7" => Some(answer.clone()),
            _ => None,
        })
        .collect()
}

fn stable(text: &str) -> String {
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

fn elicit(schema: serde_json::Value) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
        "params": {"message": "Who are you?\u{1b}[2J", "requestedSchema": schema}})
}

#[tokio::test]
async fn a_form_request_is_filled_in_and_accepted_with_its_defaults() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(
        &mut app,
        elicit(json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "description": "Your name"},
            "color": {"type": "string", "enum": ["red", "green"], "default": "green"},
            "subscribe": {"type": "boolean", "default": false}}})),
    );
    let text = screen.text(&mut app);
    assert!(text.contains("Who are you?\\x1b[2J") && !text.contains('\u{1b}'), "{text}");
    insta::assert_snapshot!("ask_form", stable(&text));
    // Ctrl-R with the required name missing does not send.
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(answers(&cmds).is_empty());
    assert!(screen.text(&mut app).contains("1 validation error(s): fix them, or Ctrl-V"));
    // Letters bound elsewhere (q quits, o opens) are typed into the field.
    screen.type_text(&mut app, "qo Lin");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let content = json!({"name": "qo Lin", "color": "green", "subscribe": false});
    assert_eq!(answers(&cmds), [Answer::Accept(content.as_object().cloned().unwrap_or_default())]);
    assert!(!screen.text(&mut app).contains("The server asks"), "the overlay closes once answered");
}

#[tokio::test]
async fn decline_and_cancel_are_one_key_each() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(&mut app, elicit(json!({"type": "object", "properties": {}})));
    let cmds = screen.press_with(&mut app, KeyCode::Char('o'), KeyModifiers::CONTROL);
    assert_eq!(answers(&cmds), [Answer::Decline]);
    asked(&mut app, elicit(json!({"type": "object", "properties": {"c": {"enum": ["a", "b"]}}})));
    // Esc closes the enum's picker first, then cancels.
    screen.press(&mut app, KeyCode::Char(' '));
    assert!(answers(&screen.press(&mut app, KeyCode::Esc)).is_empty());
    assert_eq!(answers(&screen.press(&mut app, KeyCode::Esc)), [Answer::Cancel]);
}

/// A default beyond 64 bits is shown in its field as sent, with no complaint, and sent whole.
#[tokio::test]
async fn a_default_beyond_64_bits_is_shown_and_sent_whole() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    let raw = r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Big",
        "requestedSchema":{"type":"object","properties":{"i":{"type":"integer","default":12345678901234567890123}}}}}"#;
    let (ask, _rx) = ServerAsk::new("7".into(), Arc::new(raw.to_string()), 1000).unwrap_or_else(|e| panic!("{e}"));
    app.update(Msg::Session(SessionMsg::Asked(ask.view())));
    let text = screen.text(&mut app);
    assert!(text.contains("12345678901234567890123") && !text.contains("e+22"), "{text}");
    assert!(!text.contains("not an integer"), "{text}");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let [Answer::Accept(content)] = &answers(&cmds)[..] else { panic!("not accepted: {cmds:?}") };
    let sent = mcplens::mcp::exact_numbers::shown(&serde_json::Value::Object(content.clone()));
    assert_eq!(sent, r#"{"i":12345678901234567890123}"#);
}

#[tokio::test]
async fn a_url_request_shows_the_url_and_opens_only_web_urls() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    let url = |u: &str| {
        json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"mode": "url", "message": "Log in", "url": u, "elicitationId": "e1"}})
    };
    asked(&mut app, url("https://example.com/login"));
    let text = screen.text(&mut app);
    insta::assert_snapshot!("ask_url", stable(&text));
    let cmds = screen.press(&mut app, KeyCode::Char('o'));
    assert!(cmds.contains(&Cmd::OpenUrl("https://example.com/login".into())), "{cmds:?}");
    assert_eq!(answers(&cmds), [Answer::Accept(Default::default())]);
    asked(&mut app, url("file:///etc/passwd"));
    let cmds = screen.press(&mut app, KeyCode::Char('o'));
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::OpenUrl(_))), "{cmds:?}");
    assert!(screen.text(&mut app).contains("only http and https URLs are opened"));
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(cmds.contains(&Cmd::Copy("file:///etc/passwd".into())), "{cmds:?}");
    // User info made to look like a host: the host it really opens is said before `o`.
    screen.press(&mut app, KeyCode::Esc);
    asked(&mut app, url("https://good.example@evil.example/login"));
    let text = screen.text(&mut app);
    assert!(text.contains("opens host evil.example; WARNING: \"good.example\" before the @ is user info"), "{text}");
}

#[tokio::test]
async fn a_sampling_request_shows_the_conversation_and_sends_the_typed_reply() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(
        &mut app,
        json!({"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": {
            "systemPrompt": "Be brief.", "maxTokens": 20,
            "messages": [{"role": "user", "content": {"type": "text", "text": "Name a color"}},
                {"role": "assistant", "content": {"type": "image", "mimeType": "image/png", "data": "AAAA"}}]}}),
    );
    let text = screen.text(&mut app);
    insta::assert_snapshot!("ask_sampling", stable(&text));
    assert!(answers(&screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL)).is_empty());
    screen.type_text(&mut app, "blue");
    screen.press(&mut app, KeyCode::Enter);
    screen.type_text(&mut app, "q");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(answers(&cmds), [Answer::Reply { text: "blue\nq".into(), model: "mcplens (typed by the user)".into() }]);
}

#[tokio::test]
async fn a_request_the_server_withdraws_closes_its_overlay() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(&mut app, elicit(json!({"type": "object", "properties": {}})));
    assert!(screen.text(&mut app).contains("The server asks"));
    app.update(Msg::Session(SessionMsg::AskWithdrawn("7".into(), mcplens::ui::app::Withdrawn::ByServer)));
    let text = screen.text(&mut app);
    assert!(!text.contains("The server asks") && text.contains("withdrew"), "{text}");
}

/// The overlay cut out of the screen: its frame, from its title row down (what is around it
/// moves).
fn ask_overlay(text: &str) -> String {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let Some(top) = rows.iter().position(|r| r.iter().collect::<String>().contains("The server asks")) else {
        return format!("no overlay in:\n{text}");
    };
    let left = rows[top].iter().position(|c| *c == '┏').unwrap_or(0);
    let right = rows[top].iter().rposition(|c| *c == '┓').unwrap_or(rows[top].len().saturating_sub(1));
    let mut out = vec![];
    for r in &rows[top..] {
        out.push(r.get(left..=right.min(r.len().saturating_sub(1))).unwrap_or_default().iter().collect::<String>());
        if r.get(left) == Some(&'┗') {
            break;
        }
    }
    out.join("\n")
}

#[tokio::test]
async fn a_long_sampling_request_scrolls_by_pages_and_says_what_is_hidden() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(
        &mut app,
        json!({"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": {
            "maxTokens": 10, "temperature": 0.1,
            "messages": [{"role": "user", "content": {"type": "text", "text": "context ".repeat(300)}},
                {"role": "user", "content": {"type": "text", "text": "FINAL QUESTION: what is 2+2?"}}]}}),
    );
    let text = screen.text(&mut app);
    assert!(!text.contains("FINAL QUESTION") && text.contains("more lines: PgDn"), "{text}");
    screen.press(&mut app, KeyCode::PageDown);
    let text = ask_overlay(&screen.text(&mut app));
    assert!(text.contains("user: FINAL QUESTION: what is 2+2?") && text.contains("temperature 0.1"), "{text}");
    insta::assert_snapshot!("ask_sampling_scrolled", text);
    // Ctrl-B and Ctrl-F scroll too; typing still goes to the reply.
    screen.press_with(&mut app, KeyCode::Char('b'), KeyModifiers::CONTROL);
    let text = screen.text(&mut app);
    assert!(text.contains("user: context context") && !text.contains("above: PgUp"), "{text}");
    screen.press_with(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    assert!(screen.text(&mut app).contains("FINAL QUESTION"));
    screen.type_text(&mut app, "4");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(answers(&cmds), [Answer::Reply { text: "4".into(), model: "mcplens (typed by the user)".into() }]);
}

#[tokio::test]
async fn a_long_elicitation_message_scrolls_and_a_big_form_keeps_its_page_keys() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    let message = format!("Read this first.\n{}\nTHE END", "long ".repeat(400));
    let ask = |schema: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": message, "requestedSchema": schema}})
    };
    asked(&mut app, ask(json!({"type": "object", "properties": {"a": {"type": "string"}}})));
    let text = screen.text(&mut app);
    assert!(text.contains("Read this first.") && !text.contains("THE END"), "{text}");
    assert!(text.contains("more lines: PgDn"), "{text}");
    screen.press(&mut app, KeyCode::PageDown);
    assert!(!screen.text(&mut app).contains("THE END"), "a page at a time");
    screen.press(&mut app, KeyCode::PageDown);
    let text = ask_overlay(&screen.text(&mut app));
    assert!(text.contains("THE END") && text.contains("above: PgUp"), "{text}");
    insta::assert_snapshot!("ask_form_long_message_scrolled", text);
    screen.press(&mut app, KeyCode::Esc);
    // A schema over 64 KiB: PageDown pages its fields, Ctrl-F scrolls the message.
    let props: serde_json::Map<String, serde_json::Value> = (0..2000)
        .map(|i| (format!("field{i:04}"), json!({"type": "string", "description": "a field of a very big form"})))
        .collect();
    asked(&mut app, ask(json!({"type": "object", "properties": props})));
    let text = screen.text(&mut app);
    assert!(text.contains("field 1 of 2000") && text.contains("more lines: Ctrl-F"), "{text}");
    screen.press(&mut app, KeyCode::PageDown);
    let text = screen.text(&mut app);
    assert!(!text.contains("field 1 of 2000") && !text.contains("THE END"), "{text}");
    screen.press_with(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    screen.press_with(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    let text = screen.text(&mut app);
    assert!(text.contains("THE END") && text.contains("above: Ctrl-B") && text.contains("field 17 of"), "{text}");
}

/// A word longer than the overlay's row (a URL, a run of CJK) goes on where the row stands and
/// is broken where each row ends, as a pager shows it: no row left short before it, no text
/// lost, no row past the frame.
#[tokio::test]
async fn a_word_longer_than_a_row_is_broken_across_rows() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    let url = format!("https://example.com/{}", "long/path/".repeat(20));
    let cjk = "名前".repeat(40);
    let marks = "e\u{301}".repeat(70);
    let message = format!("Open {url} to go on, then {cjk} and {marks} done.");
    asked(
        &mut app,
        json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": message, "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}),
    );
    let text = screen.text(&mut app);
    insta::assert_snapshot!("ask_long_words_broken", stable(&text));
    // The overlay's rows of the message, inside its frame (the panes around it are not thick).
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("The server asks"))
        .skip(1)
        .take_while(|l| !l.contains("ok:"))
        .filter_map(|l| l.split('┃').nth(1))
        .collect();
    // The URL starts on the row of "Open", and that row is full.
    let first = rows.first().copied().unwrap_or_default();
    assert!(first.starts_with("Open https://example.com/") && !first.ends_with(' '), "{text}");
    // Nothing lost: the message, read across the rows, is whole (a wide character's second
    // column reads as a space).
    let squeezed = |s: &str| s.chars().filter(|c| *c != ' ').collect::<String>();
    assert_eq!(squeezed(&rows.concat()), squeezed(&message), "{text}");
}

#[tokio::test]
async fn a_long_reply_line_scrolls_sideways_to_the_cursor() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    asked(
        &mut app,
        json!({"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": {
            "maxTokens": 10, "messages": [{"role": "user", "content": {"type": "text", "text": "Say x"}}]}}),
    );
    screen.type_text(&mut app, &format!("{}yz", "x".repeat(250)));
    let text = ask_overlay(&screen.text(&mut app));
    let row = |text: &str| text.lines().find(|l| l.contains("xxxx")).map(str::to_string).unwrap_or_default();
    assert!(row(&text).contains("xxyz") && row(&text).starts_with("┃…x"), "the cursor's end in view:\n{text}");
    screen.press(&mut app, KeyCode::Home);
    let text = ask_overlay(&screen.text(&mut app));
    assert!(row(&text).starts_with("┃xxx") && row(&text).ends_with("x…┃"), "the start, cut on the right:\n{text}");
    screen.press(&mut app, KeyCode::End);
    screen.type_text(&mut app, "!");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let sent = format!("{}yz!", "x".repeat(250));
    assert_eq!(answers(&cmds), [Answer::Reply { text: sent, model: "mcplens (typed by the user)".into() }]);
}

#[tokio::test]
async fn requests_at_once_open_in_the_order_they_came_and_say_how_many_wait() {
    let (mut app, _s) = app().await;
    let mut screen = Screen::new(120, 36);
    for (id, message) in [("7", "first"), ("8", "second"), ("9", "third")] {
        let raw = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": message, "requestedSchema": {"type": "object", "properties": {}}}});
        let (ask, _rx) = ServerAsk::new(id.into(), Arc::new(raw.to_string()), 1000).unwrap_or_else(|e| panic!("{e}"));
        app.update(Msg::Session(SessionMsg::Asked(ask.view())));
    }
    let answered = |cmds: &[Cmd]| -> Vec<String> {
        cmds.iter().filter_map(|c| if let Cmd::Answer { id, .. } = c { Some(id.clone()) } else { None }).collect()
    };
    let text = ask_overlay(&screen.text(&mut app));
    assert!(text.contains("┃first") && text.contains("2 more requests waiting"), "{text}");
    insta::assert_snapshot!("ask_two_waiting", text);
    assert_eq!(answered(&screen.press_with(&mut app, KeyCode::Char('o'), KeyModifiers::CONTROL)), ["7"]);
    let text = ask_overlay(&screen.text(&mut app));
    assert!(text.contains("┃second") && text.contains(" 1 more request waiting: it opens when"), "{text}");
    assert_eq!(answered(&screen.press(&mut app, KeyCode::Esc)), ["8"]);
    let text = ask_overlay(&screen.text(&mut app));
    assert!(text.contains("┃third") && !text.contains("waiting"), "{text}");
}
