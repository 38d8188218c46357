//! What a demanding user reads at 80×24 and 160×45, against the demo and real servers: nothing
//! cut silently at a pane's edge (the footer drops whole hints and says `…`, the status line,
//! history rows, prompt and resource rows and table rows end in `…`), a search prompt that stays
//! on screen in a narrow table, a last table column that uses the room it has, the log saying an
//! error once, the empty result pane's hint read whole.
//! Servers: the embedded demo; npm `@modelcontextprotocol/server-filesystem` (a legacy server:
//! `server/discover` answered with -32601; `read_text_file` of a markdown table) and
//! `@modelcontextprotocol/server-everything` (prompts with long descriptions).

mod common;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::mcp::{StdioTarget, Target};
use mcplens::ui::app::{App, Pane};
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;

async fn connect(target: Target, w: u16, h: u16) -> (App, Arc<mcplens::mcp::Session>, Screen) {
    connect_as(target, "check", (w, h)).await
}

/// `label` is what the status line names the target by (the command, as the TUI does).
async fn connect_as(target: Target, label: &str, size: (u16, u16)) -> (App, Arc<mcplens::mcp::Session>, Screen) {
    let (app, s) =
        connected_app(&target, Theme::default(), label).await.unwrap_or_else(|e| panic!("cannot connect: {e}"));
    (app, Arc::new(s), Screen::new(size.0, size.1))
}

fn node_server(package: &str, args: &[&str]) -> Target {
    let js = common::root().join(format!("tests/peers/node_modules/@modelcontextprotocol/{package}/dist/index.js"));
    assert!(js.exists(), "{} is missing: run scripts/install-peers", js.display());
    let node = common::root().join("tests/peers/node_modules/node/bin/node");
    let node = if node.exists() { node.to_string_lossy().into_owned() } else { "node".into() };
    let mut all = vec![js.to_string_lossy().into_owned()];
    all.extend(args.iter().map(|a| a.to_string()));
    Target::Stdio(StdioTarget { command: node, args: all, env: vec![], cwd: None })
}

fn docs() -> String {
    common::root().join("docs").to_string_lossy().into_owned()
}

/// Filters the tool list to `tool`, opens its form, types `fields` (field, text) in order from
/// the first row, runs it.
async fn run(screen: &mut Screen, app: &mut App, session: &Arc<mcplens::mcp::Session>, tool: &str, fields: &[&str]) {
    screen.press(app, KeyCode::Char('/'));
    screen.type_text(app, tool);
    screen.press(app, KeyCode::Enter);
    screen.press(app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
    for (i, text) in fields.iter().enumerate() {
        if i > 0 {
            screen.press(app, KeyCode::Down);
        }
        screen.type_text(app, text);
    }
    let cmds = screen.press_with(app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(app, session, cmds).await;
    assert!(app.result().is_some(), "no result of {tool}");
}

fn line(text: &str, n: usize) -> &str {
    text.lines().nth(n).unwrap_or_default()
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// At 80 columns every pane's footer is longer than the screen: hints are dropped whole, never
/// cut in the middle of a word ("q qu"), and `…` says some are left out. At 200 they all show.
#[tokio::test]
async fn footers_drop_whole_hints_and_say_so() {
    let (mut app, _session, mut screen) = connect(common::demo(), 80, 24).await;
    let mut wide = Screen::new(240, 45);
    for pane in [Pane::Tools, Pane::Schema, Pane::Result, Pane::Tools] {
        assert!(screen.focus(&mut app, pane), "{pane:?}");
        let text = screen.text(&mut app);
        let foot = last_line(&text);
        // What follows the hints (the schema's node count) stays after the ellipsis.
        let kept = foot.split_once(" …").map(|(kept, _)| kept).unwrap_or_else(|| panic!("{pane:?}: {foot:?}"));
        // The same footer on a wide screen: what the narrow one kept ends where a hint ends.
        let text = wide.text(&mut app);
        let all = last_line(&text);
        assert!(!all.ends_with('…'), "{pane:?}: {all:?}");
        assert!(all.starts_with(kept) && all[kept.len()..].starts_with(' '), "{pane:?}:\n{kept:?}\n{all:?}");
        screen.text(&mut app);
    }
}

/// The status line names the server, its protocol and its command: cut with `…` at 80
/// columns, whole at 160.
#[tokio::test]
async fn the_status_line_is_cut_with_an_ellipsis() {
    let target = node_server("server-filesystem", &[&docs()]);
    let label = format!("node server-filesystem/dist/index.js {}", docs());
    let (mut app, _session, mut screen) = connect_as(target, &label, (80, 24)).await;
    let text = screen.text(&mut app);
    let status = line(&text, 0);
    assert!(status.starts_with(" ● connected secure-filesystem-server"), "{status}");
    assert!(status.ends_with('…'), "{status}");
    let text = Screen::new(200, 45).text(&mut app);
    assert!(line(&text, 0).contains("/docs"), "{}", line(&text, 0));
    assert!(!line(&text, 0).ends_with('…'), "{}", line(&text, 0));
}

/// A markdown table read from a file (filesystem `read_text_file`): in a wide pane its last
/// column shows descriptions whole instead of cutting them at 40 columns beside empty space; at
/// 80 columns they end in `…`, and a search typed in the table stays on screen before the
/// table's own footer.
#[tokio::test]
async fn a_table_uses_its_room_and_keeps_the_search_prompt_on_screen() {
    let target = node_server("server-filesystem", &[&docs()]);
    let keys = format!("{}/keys.md", docs());
    let (mut app, session, mut screen) = connect(target.clone(), 160, 45).await;
    run(&mut screen, &mut app, &session, "read_text_file", &[&keys]).await;
    let text = screen.text(&mut app);
    let whole = "next page of a paged result (fetched once, then kept)";
    assert!(text.contains(whole), "{text}");

    let (mut app, session, mut screen) = connect(target, 80, 24).await;
    run(&mut screen, &mut app, &session, "read_text_file", &[&keys]).await;
    assert!(screen.focus(&mut app, Pane::Result));
    let text = screen.text(&mut app);
    let row = text.lines().find(|l| l.contains("Envelope view: header")).unwrap_or_default();
    assert!(row.trim_end_matches(['┃', ' ']).ends_with('…'), "{text}");
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "Envel");
    let text = screen.text(&mut app);
    assert!(text.lines().any(|l| l.contains("search: Envel")), "{text}");
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(text.lines().any(|l| l.contains("/Envel  n next")), "{text}");
}

/// History rows carry the call's arguments: at 80 columns they end in `…`, not at the border.
#[tokio::test]
async fn history_rows_end_in_an_ellipsis() {
    let (mut app, session, mut screen) = connect(common::demo(), 80, 24).await;
    run(&mut screen, &mut app, &session, "discord_list_channels", &["guild-1", "20", "20"]).await;
    assert!(screen.focus(&mut app, Pane::Result));
    screen.press(&mut app, KeyCode::Char('H'));
    let text = screen.text(&mut app);
    let row = text.lines().find(|l| l.contains("discord_list_channels {")).unwrap_or_default();
    assert!(row.contains("…┃"), "{text}");
}

/// A legacy server answers the era's `server/discover` with -32601: the log's row says
/// "error -32601 Method not found" once ("error error" before), and the empty result pane's hint
/// is read whole at 80 columns (it was cut after "Ctrl").
#[tokio::test]
async fn the_log_says_an_error_once_and_the_empty_result_hint_wraps() {
    let (mut app, _session, mut screen) = connect(node_server("server-filesystem", &[&docs()]), 80, 24).await;
    let text = screen.text(&mut app);
    assert!(text.contains("Ctrl-R runs it."), "{text}");
    screen.press(&mut app, KeyCode::Char('L'));
    screen.press(&mut app, KeyCode::Char('g'));
    let text = screen.text(&mut app);
    let row = text.lines().find(|l| l.contains("← server/discover")).unwrap_or_default();
    assert!(row.contains("error -32601 Method not found"), "{text}");
    assert!(!row.contains("error error"), "{row}");
}

/// server-everything's prompts have descriptions longer than the pane: rows end in `…`, and
/// the descriptor's title names the pane's own keys.
#[tokio::test]
async fn prompt_rows_end_in_an_ellipsis() {
    let (mut app, _session, mut screen) = connect(node_server("server-everything", &[]), 80, 24).await;
    screen.press(&mut app, KeyCode::Char('p'));
    let text = screen.text(&mut app);
    let row = text.lines().find(|l| l.contains("args-prompt")).unwrap_or_default();
    assert!(row.trim_end_matches(['┃', '│', ' ']).ends_with('…'), "{text}");
    assert!(text.contains("as the server sent it (o whole · y copy)"), "{text}");
}

/// Tab while a filter is typed keeps the filter and goes on to the next pane, the filter's
/// prompt closed: the tool list's stayed open over the schema, its footer said "filter: echo"
/// while `q` there quit the app. The log's filter did not let Tab out at all.
#[tokio::test]
async fn tab_from_a_filter_being_typed_keeps_it_and_moves_on() {
    let (mut app, _session, mut screen) = connect(common::demo(), 80, 24).await;
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "echo");
    screen.press(&mut app, KeyCode::Tab);
    assert_eq!(app.outline().focus, Pane::Schema);
    let text = screen.text(&mut app);
    assert!(!last_line(&text).contains("filter:"), "{text}");
    assert!(line(&text, 1).contains("match \"echo"), "{text}");
    // Shift-Tab back: the list, filtered, and letters are commands again (no prompt open).
    screen.press_with(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(app.outline().focus, Pane::Tools);
    assert!(!app.typing(), "a prompt is still open");

    screen.press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.outline().focus, Pane::Log);
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "tools");
    assert!(app.typing());
    screen.press(&mut app, KeyCode::Tab);
    assert_eq!(app.outline().focus, Pane::Tools);
    assert!(!app.typing(), "the log's filter prompt is still open");
    let text = screen.text(&mut app);
    assert!(text.contains("method ~ tools"), "{text}");
}

/// What an empty pane or overlay says is read whole at 80 columns (it was cut at the edge):
/// the demo declares no prompts, runs no task yet and serves no skills.
#[tokio::test]
async fn empty_panes_say_why_in_full() {
    let (mut app, session, mut screen) = connect(common::demo(), 80, 24).await;
    screen.press(&mut app, KeyCode::Char('p'));
    assert!(screen.text(&mut app).contains("offers no prompts."), "{}", screen.text(&mut app));
    let cmds = screen.press(&mut app, KeyCode::Char('T'));
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains("one) shows here."), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Esc);
    let cmds = screen.press(&mut app, KeyCode::Char('I'));
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains("(io.modelcontextprotocol/skills)"), "{}", screen.text(&mut app));
}
