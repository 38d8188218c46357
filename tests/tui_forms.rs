//! Forms in the TUI against the demo server, driven by key events: a form opened over a docked
//! pane is the one on screen and has the keys.

mod common;

use common::demo_app::setup;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::ui::app::{App, Pane};
use mcplens::ui::headless::Screen;

fn stable(text: &str) -> String {
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

/// `key` shows a docked pane; Shift-Tab goes back to the tool list, `G` to its last tool (echo),
/// Enter opens its form and `secret` is typed into it.
fn open_over_docked(screen: &mut Screen, app: &mut App, key: char) {
    screen.press(app, KeyCode::Char(key));
    assert!(app.outline().docked.is_some(), "{key} shows no docked pane");
    screen.press_with(app, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(app.outline().focus, Pane::Tools);
    screen.press(app, KeyCode::Char('G'));
    screen.press(app, KeyCode::Enter);
    screen.type_text(app, "secret");
}

#[tokio::test]
async fn a_form_opened_over_server_info_replaces_it_on_screen() {
    let (mut app, _session, mut screen) = setup().await;
    open_over_docked(&mut screen, &mut app, 'i');
    let text = screen.text(&mut app);
    assert_eq!(app.outline().focus, Pane::Form);
    assert_eq!(app.outline().docked, None);
    insta::assert_snapshot!("form_over_server_info", stable(&text));
    // The info comes back with its key, from the tool list.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('i'));
    assert!(screen.text(&mut app).contains("Server info"));
}

#[tokio::test]
async fn a_form_opened_over_any_docked_pane_is_the_one_shown() {
    for key in ['r', 'p', 'K'] {
        let (mut app, _session, mut screen) = setup().await;
        open_over_docked(&mut screen, &mut app, key);
        let text = screen.text(&mut app);
        let o = app.outline();
        assert_eq!((o.focus, o.docked), (Pane::Form, None), "{key}:\n{text}");
        assert!(text.contains("Form: echo") && text.contains("secret"), "{key}:\n{text}");
    }
}

/// The form left for the result, then a docked pane shown: Esc in the result goes back to the
/// form, which is then the one shown; Right from the tool list goes to what stands right of it.
#[tokio::test]
async fn the_focus_never_rests_on_a_pane_not_shown() {
    let (mut app, session, mut screen) = setup().await;
    common::demo_app::open(&mut screen, &mut app, "echo");
    screen.type_text(&mut app, "hi");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Char('i'));
    screen.press(&mut app, KeyCode::Tab);
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Esc);
    let o = app.outline();
    assert_eq!((o.focus, o.docked), (Pane::Form, None));
    assert!(screen.text(&mut app).contains("Form: echo"));
    // From the tool list, Right goes to the form on screen, not to the schema under it.
    assert!(screen.focus(&mut app, Pane::Tools));
    screen.press(&mut app, KeyCode::Right);
    assert_eq!(app.outline().focus, Pane::Form);
    // And to server info, when it is shown.
    assert!(screen.focus(&mut app, Pane::Tools));
    screen.press(&mut app, KeyCode::Char('i'));
    assert!(screen.focus(&mut app, Pane::Tools));
    screen.press(&mut app, KeyCode::Right);
    assert_eq!(app.outline().focus, Pane::Docked);
}

/// The app on `hostile_sizes.py tool-enum 3000`: one tool `t` whose field `choice` is one of
/// 3,000 values, its form open.
async fn big_enum_form() -> (App, mcplens::mcp::Session, Screen) {
    let target = mcplens::mcp::Target::Stdio(mcplens::mcp::StdioTarget {
        command: "python3".into(),
        args: vec![common::script("hostile_sizes.py"), "tool-enum".into(), "3000".into()],
        env: vec![],
        cwd: None,
    });
    let (mut app, s) = mcplens::ui::headless::connected_app(&target, mcplens::ui::theme::Theme::default(), "sizes")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
    (app, s, screen)
}

fn line_with(text: &str, what: &str) -> String {
    text.lines().find(|l| l.contains(what)).unwrap_or_default().to_string()
}

#[tokio::test]
async fn an_enum_picker_moves_by_pages_and_to_either_end() {
    let (mut app, _s, mut screen) = big_enum_form().await;
    screen.press(&mut app, KeyCode::Char(' '));
    screen.press(&mut app, KeyCode::End);
    insta::assert_snapshot!("enum_picker_at_the_end", stable(&screen.text(&mut app)));
    screen.press(&mut app, KeyCode::Enter);
    assert!(line_with(&screen.text(&mut app), "choice:").contains("v0002999"));
    // g and G, Home, the page keys.
    screen.press(&mut app, KeyCode::Char(' '));
    screen.press(&mut app, KeyCode::Char('g'));
    screen.press(&mut app, KeyCode::PageDown);
    screen.press_with(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    screen.press(&mut app, KeyCode::PageUp);
    let at = app.form().and_then(|f| f.picker.as_ref()).map(|p| p.scroll.cursor).unwrap_or_default();
    assert!(at > 1, "a page is more than a row: {at}");
    screen.press(&mut app, KeyCode::Char('G'));
    screen.press(&mut app, KeyCode::Home);
    screen.press(&mut app, KeyCode::Enter);
    assert!(line_with(&screen.text(&mut app), "choice:").contains("omitted"));
}

#[tokio::test]
async fn an_enum_pickers_filter_is_typed_after_the_slash() {
    let (mut app, _s, mut screen) = big_enum_form().await;
    screen.press(&mut app, KeyCode::Char(' '));
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "v000123");
    insta::assert_snapshot!("enum_picker_filtered", stable(&screen.text(&mut app)));
    // Enter keeps the filter; then the list keys move in what it leaves, and Enter picks.
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Char('G'));
    screen.press(&mut app, KeyCode::Enter);
    assert!(line_with(&screen.text(&mut app), "choice:").contains("v0001239"));
}

/// The rows of the picker's box on screen, its frame included (0 when no picker is drawn).
fn picker_height(text: &str) -> usize {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = lines.iter().enumerate().find_map(|(i, l)| {
        let s: String = l.iter().collect();
        s.find("┏ Enter picks").map(|at| (i, s[..at].chars().count()))
    });
    let Some((top, col)) = top else { return 0 };
    lines.iter().skip(top).position(|l| l.get(col) == Some(&'┗')).map_or(0, |n| n + 1)
}

/// A filter shrinks the picker's box to the options it leaves (one row for "no option
/// matches"), the filter staying on its bottom edge; cleared, the box is as high as before.
#[tokio::test]
async fn a_filtered_enum_picker_fits_what_it_lists() {
    let (mut app, _s, mut screen) = big_enum_form().await;
    screen.press(&mut app, KeyCode::Char(' '));
    let every = picker_height(&screen.text(&mut app));
    assert!(every > 20, "3,000 options fill the rows: {every}");
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "v000123");
    assert_eq!(picker_height(&screen.text(&mut app)), 10 + 2);
    screen.type_text(&mut app, "9");
    let text = screen.text(&mut app);
    assert_eq!(picker_height(&text), 1 + 2, "{text}");
    assert!(line_with(&text, "┗ /v0001239").contains("1 of 1"), "{text}");
    screen.type_text(&mut app, "z");
    let text = screen.text(&mut app);
    assert_eq!(picker_height(&text), 1 + 2, "{text}");
    assert!(text.contains("no option matches"), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(picker_height(&screen.text(&mut app)), every);
}

/// An elicitation's enum field takes the same list keys as a tool form's.
#[tokio::test]
async fn an_elicitations_enum_picker_goes_to_the_bottom() {
    use mcplens::mcp::asks::{Answer, ServerAsk};
    use mcplens::ui::app::{Cmd, Msg, SessionMsg};
    let (mut app, _session, mut screen) = setup().await;
    let values: Vec<String> = (0..3000).map(|i| format!("v{i}")).collect();
    let raw = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "pick", "requestedSchema": {"type": "object", "properties": {"c": {"type": "string", "enum": values}}}}});
    let (ask, _rx) = ServerAsk::new("7".into(), std::sync::Arc::new(raw.to_string()), 1000)
        .unwrap_or_else(|e| panic!("not an ask: {e}"));
    app.update(Msg::Session(SessionMsg::Asked(ask.view())));
    screen.press(&mut app, KeyCode::Char(' '));
    screen.press(&mut app, KeyCode::Char('G'));
    screen.press(&mut app, KeyCode::Enter);
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let sent: Vec<Answer> = cmds
        .into_iter()
        .filter_map(|c| match c {
            Cmd::Answer { answer, .. } => Some(answer),
            _ => None,
        })
        .collect();
    let want = serde_json::json!({"c": "v2999"}).as_object().cloned().unwrap_or_default();
    assert_eq!(sent, [Answer::Accept(want)]);
}

/// Enter on a tool list whose filter hides every tool opens nothing, the form on screen
/// included, and says why.
#[tokio::test]
async fn enter_with_no_tool_matching_opens_nothing() {
    let (mut app, session, mut screen) = setup().await;
    common::demo_app::open(&mut screen, &mut app, "echo");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert!(screen.focus(&mut app, Pane::Tools));
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "zzzz");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Enter);
    let o = app.outline();
    assert_eq!(o.focus, Pane::Tools);
    let note = o.notice.map(|n| n.0).unwrap_or_default();
    assert_eq!(note, "no tool matches the filter \"echozzzz\" (Esc clears it)");
    assert!(screen.text(&mut app).contains("no tool matches the filter"));
}

/// The tool list refreshed (list_changed) without the tool whose form is open: the form stays,
/// says so, and Ctrl-R does not run it until the server lists the tool again.
#[tokio::test]
async fn a_form_whose_tool_the_server_removed_is_not_run() {
    use mcplens::ui::app::{Msg, SessionMsg};
    let (mut app, _session, mut screen) = setup().await;
    let listed = app.tools().tools.clone();
    let list = |tools: Vec<mcplens::mcp::ToolDescriptor>| mcplens::mcp::ToolList {
        tools,
        pages: 1,
        warnings: vec![],
        cache: None,
    };
    common::demo_app::open(&mut screen, &mut app, "echo");
    screen.type_text(&mut app, "hi");
    let without: Vec<_> = listed.iter().filter(|t| t.name() != "echo").cloned().collect();
    app.update(Msg::Session(SessionMsg::ToolsRefreshed(list(without))));
    let text = screen.text(&mut app);
    insta::assert_snapshot!("form_of_a_removed_tool", stable(&text));
    assert!(screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL).is_empty());
    let note = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert!(note.starts_with("this server no longer lists echo"), "{note}");
    // Listed again: it runs.
    app.update(Msg::Session(SessionMsg::ToolsRefreshed(list(listed))));
    assert!(!screen.text(&mut app).contains("no longer lists"));
    assert!(!screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL).is_empty());
}

/// An argument-less form whose tool the server removed says only what holds: the tool is gone
/// and not run, and what to do instead (go back for another tool, or reconnect); nothing on it
/// says Ctrl-R runs it.
#[tokio::test]
async fn an_argument_less_form_of_a_removed_tool_offers_only_what_works() {
    use mcplens::ui::app::{Msg, SessionMsg};
    let (mut app, _session, mut screen) = setup().await;
    let listed = app.tools().tools.clone();
    common::demo_app::open(&mut screen, &mut app, "server_status");
    assert!(screen.text(&mut app).contains("This tool takes no arguments: Ctrl-R runs it."));
    let without: Vec<_> = listed.iter().filter(|t| t.name() != "server_status").cloned().collect();
    let list = mcplens::mcp::ToolList { tools: without, pages: 1, warnings: vec![], cache: None };
    app.update(Msg::Session(SessionMsg::ToolsRefreshed(list)));
    screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let text = screen.text(&mut app);
    insta::assert_snapshot!("argument_less_form_of_a_removed_tool", stable(&text));
    let form = text.lines().filter(|l| l.contains('┃')).collect::<Vec<_>>().join("\n");
    assert!(!form.contains("Ctrl-R"), "{form}");
    assert!(form.contains("no longer lists server_status: not run"), "{form}");
    assert!(form.contains("Esc goes back to the tool list to pick another tool or reconnect (R)"), "{form}");
    let note = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert!(!note.contains("Ctrl-R") && note.contains("pick another tool or reconnect (R)"), "{note}");
}
