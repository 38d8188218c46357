//! What a user found in the TUI against the demo server, driven by key events: a key an overlay
//! handled never reaches the pane under it, form messages follow the form's state, explicit
//! values show, empty lists say so, cut text says where it is cut.

mod common;

use common::demo_app::{go, open, setup};

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::ui::app::{App, Pane};
use mcplens::ui::headless::Screen;

fn keys(screen: &mut Screen, app: &mut App, text: &str) {
    screen.type_text(app, text);
}

fn filter(screen: &mut Screen, app: &mut App, text: &str) {
    screen.press(app, KeyCode::Char('/'));
    keys(screen, app, text);
    screen.press(app, KeyCode::Enter);
}

/// `n` in the help's kept search, then Esc: Esc closes the help and does nothing else.
#[tokio::test]
async fn esc_in_the_help_never_reaches_the_pane_under_it() {
    let (mut app, _session, mut screen) = setup().await;
    filter(&mut screen, &mut app, "wea");
    assert!(screen.text(&mut app).contains("Tools (2/19 match \"wea\")"));
    screen.press(&mut app, KeyCode::Char('?'));
    filter(&mut screen, &mut app, "ctrl");
    screen.press(&mut app, KeyCode::Char('n'));
    let after_n = screen.text(&mut app);
    // n is the help's own key (the next binding found): the help stays.
    assert!(after_n.contains("Help · theme"), "{after_n}");
    screen.press(&mut app, KeyCode::Esc);
    let text = screen.text(&mut app);
    assert!(text.contains("Tools (2/19 match \"wea\")"), "after n:\n{after_n}\nafter Esc:\n{text}");
    assert!(!text.contains("Help · theme"), "{text}");
    assert_eq!(app.outline().focus, Pane::Tools);
}

fn ctrl(screen: &mut Screen, app: &mut App, c: char) -> Vec<mcplens::ui::app::Cmd> {
    screen.press_with(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// The form pane's lines (it sits right of the tool list, above the result).
fn form_text(screen: &mut Screen, app: &mut App) -> String {
    let text = screen.text(app);
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let right: String = line.chars().skip(40).collect();
        if right.contains("Form: ") {
            inside = true;
        } else if inside && (right.starts_with('╰') || right.starts_with('┗')) {
            break;
        }
        if inside {
            out.push_str(&right);
            out.push('\n');
        }
    }
    out
}

#[tokio::test]
async fn turning_validation_off_drops_the_refusal_it_answers() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    go(&mut screen, &mut app, "fg_id");
    keys(&mut screen, &mut app, "not-a-uuid");
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty());
    assert!(form_text(&mut screen, &mut app).contains("validation error(s)"));
    ctrl(&mut screen, &mut app, 'v');
    let form = form_text(&mut screen, &mut app);
    assert!(form.contains("validation off"), "{form}");
    assert!(!form.contains("validation error(s)"), "{form}");
}

/// The demo's destructive tool, its form open and filled.
fn fill_delete_message(screen: &mut Screen, app: &mut App) {
    open(screen, app, "discord_delete");
    go(screen, app, "channel_id");
    keys(screen, app, "123");
    go(screen, app, "message_id");
    keys(screen, app, "456");
}

#[tokio::test]
async fn a_confirmed_run_drops_the_not_run_of_the_cancelled_one() {
    let (mut app, session, mut screen) = setup().await;
    fill_delete_message(&mut screen, &mut app);
    assert!(ctrl(&mut screen, &mut app, 'r').is_empty());
    assert!(screen.press(&mut app, KeyCode::Char('x')).is_empty());
    assert!(form_text(&mut screen, &mut app).contains("not run"));
    ctrl(&mut screen, &mut app, 'r');
    let form = form_text(&mut screen, &mut app);
    assert!(form.contains("Run it?") && !form.contains("not run"), "{form}");
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(!cmds.is_empty());
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    let form = form_text(&mut screen, &mut app);
    assert!(!form.contains("not run"), "{form}");
}

#[tokio::test]
async fn only_the_focused_pane_shows_a_text_cursor() {
    let (mut app, session, mut screen) = setup().await;
    open(&mut screen, &mut app, "slow_task");
    ctrl(&mut screen, &mut app, 'd');
    keys(&mut screen, &mut app, "1");
    assert!(form_text(&mut screen, &mut app).contains("steps: 1▏"));
    let cmds = ctrl(&mut screen, &mut app, 'r');
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    let form = form_text(&mut screen, &mut app);
    assert!(form.contains("steps: 1") && !form.contains('▏'), "{form}");
}

/// The row of the form's field `key`, from the screen.
fn field_row(screen: &mut Screen, app: &mut App, key: &str) -> String {
    let form = form_text(screen, app);
    let at = format!("{key}: ");
    form.lines().find(|l| l.contains(&at)).map(|l| l.trim_matches(|c| "│┃ ".contains(c)).to_string()).unwrap_or(form)
}

#[tokio::test]
async fn an_explicit_empty_string_or_null_shows_and_typing_replaces_it() {
    let (mut app, _session, mut screen) = setup().await;
    open(&mut screen, &mut app, "echo");
    go(&mut screen, &mut app, "message");
    keys(&mut screen, &mut app, "hi");
    ctrl(&mut screen, &mut app, 'e');
    let row = field_row(&mut screen, &mut app, "message");
    assert!(row.starts_with("message: \"\""), "{row}");
    ctrl(&mut screen, &mut app, 'n');
    let row = field_row(&mut screen, &mut app, "message");
    assert!(row.starts_with("message: null"), "{row}");
    keys(&mut screen, &mut app, "a");
    let row = field_row(&mut screen, &mut app, "message");
    assert!(row.starts_with("message*: a▏") || row.starts_with("message: a▏"), "{row}");
}

#[tokio::test]
async fn an_empty_list_says_so_and_offers_no_record() {
    let (mut app, session, mut screen) = setup().await;
    open(&mut screen, &mut app, "findpers");
    go(&mut screen, &mut app, "fg_id");
    keys(&mut screen, &mut app, "not-a-uuid");
    ctrl(&mut screen, &mut app, 'v');
    let cmds = ctrl(&mut screen, &mut app, 'r');
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    let text = screen.text(&mut app);
    assert!(text.contains("empty list: 0 records"), "{text}");
    assert!(!text.contains("0 columns") && !text.contains("opens the record"), "{text}");
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(!text.contains("nothing selected") && text.contains("no record to open"), "{text}");
}

/// The screen's line holding `what`.
fn line_with(text: &str, what: &str) -> String {
    text.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("no {what:?} in\n{text}")).to_string()
}

#[tokio::test]
async fn text_too_long_for_its_place_is_wrapped_or_ends_in_an_ellipsis() {
    let (mut app, _session, mut screen) = setup().await;
    filter(&mut screen, &mut app, "zzzz");
    let text = screen.text(&mut app);
    assert!(text.contains("(Esc clears") && text.contains("it)."), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    // A picker's title names its keys whole.
    open(&mut screen, &mut app, "findpers");
    go(&mut screen, &mut app, "role");
    screen.press(&mut app, KeyCode::Char(' '));
    let text = screen.text(&mut app);
    assert!(text.contains("Enter picks · Esc cancels"), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    // An error beside a field that does not fit the row ends in `…`.
    go(&mut screen, &mut app, "limit");
    keys(&mut screen, &mut app, "99999999999999999999999");
    let row = line_with(&screen.text(&mut app), "✖ not an integer");
    assert!(row.ends_with("…┃") || row.ends_with("…│"), "{row}");
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Esc);
    open(&mut screen, &mut app, "list_issues");
    go(&mut screen, &mut app, "states");
    screen.press(&mut app, KeyCode::Char(' '));
    let text = screen.text(&mut app);
    assert!(text.contains("Space toggles · Enter done"), "{text}");
}

/// The raw schema (`r`) wraps a long line rather than cutting it at the pane's edge, zoomed
/// or not; scrolling reaches its last row.
#[tokio::test]
async fn the_raw_schema_wraps_long_lines() {
    let (mut app, _session, mut screen) = setup().await;
    filter(&mut screen, &mut app, "fg");
    screen.press(&mut app, KeyCode::Char('l'));
    screen.press(&mut app, KeyCode::Char('r'));
    let ending = "another type system truncate).\",";
    for zoom in [false, true] {
        if zoom {
            screen.press(&mut app, KeyCode::Char('z'));
        }
        let text = screen.text(&mut app);
        // The schema pane is the right one: what is left of its frame is the tool list's.
        let right = |l: &str| -> String {
            let cut = l.rfind(['┃', '│']).map_or(l, |end| &l[..end]);
            let start = cut.rfind(['┃', '│']).map_or(0, |i| i + '┃'.len_utf8());
            cut[start..].to_string()
        };
        let joined: String = text.lines().map(right).collect();
        assert!(joined.replace(' ', "").contains(&ending.replace(' ', "")), "{text}");
    }
    screen.press(&mut app, KeyCode::Char('G'));
    let text = screen.text(&mut app);
    assert!(text.lines().any(|l| l.contains("│}") || l.contains("┃}")), "{text}");
}

/// Esc in the result first clears a search kept there; the next Esc goes back to the form.
#[tokio::test]
async fn esc_in_the_result_clears_a_kept_search_first() {
    let (mut app, session, mut screen) = setup().await;
    open(&mut screen, &mut app, "echo");
    keys(&mut screen, &mut app, "rust is here");
    let cmds = ctrl(&mut screen, &mut app, 'r');
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    filter(&mut screen, &mut app, "rust");
    assert!(screen.text(&mut app).contains("/rust"));
    screen.press(&mut app, KeyCode::Esc);
    let text = screen.text(&mut app);
    assert!(!text.contains("/rust"), "{text}");
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().focus, Pane::Form);
}

/// A destructive tool run again from the history asks first, as its form does: `y` runs it, any
/// other key does not.
#[tokio::test]
async fn a_destructive_tool_run_again_from_the_history_asks_first() {
    let (mut app, session, mut screen) = setup().await;
    fill_delete_message(&mut screen, &mut app);
    ctrl(&mut screen, &mut app, 'r');
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Char('H'));
    assert!(screen.press(&mut app, KeyCode::Char('r')).is_empty(), "asked first");
    let text = screen.text(&mut app);
    assert!(text.contains("discord_delete_message is marked destructive"), "{text}");
    assert!(screen.press(&mut app, KeyCode::Char('x')).is_empty(), "any other key: not run");
    assert!(screen.text(&mut app).contains("not run"));
    screen.press(&mut app, KeyCode::Char('H'));
    screen.press(&mut app, KeyCode::Char('r'));
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(
        matches!(cmds.first(), Some(mcplens::ui::app::Cmd::Call { tool, .. }) if tool == "discord_delete_message"),
        "{cmds:?}"
    );
}

/// The screen's rows that reach the right edge of the pane whose frame is the last on the row,
/// as the text between that pane's frame lines.
fn right_pane(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let cut = &l[..l.rfind(['┃', '│'])?];
            let start = cut.rfind(['┃', '│']).map_or(0, |i| i + '┃'.len_utf8());
            Some(cut[start..].to_string())
        })
        .collect()
}

/// Rows too long for the schema tree end in `…` at the pane's edge, never cut mid-word by it.
#[tokio::test]
async fn schema_rows_cut_at_the_panes_edge_end_in_an_ellipsis() {
    let (mut app, _session, mut screen) = setup().await;
    filter(&mut screen, &mut app, "fg");
    screen.press(&mut app, KeyCode::Char('l'));
    let rows = right_pane(&screen.text(&mut app));
    let queries = rows.iter().find(|r| r.contains("queries*")).cloned().unwrap_or_default();
    assert!(queries.trim_end().ends_with('…') && queries.contains("Each query"), "{rows:#?}");
}

/// Long strings in each view of a result, and the log's rows, end in `…` at the pane's edge.
#[tokio::test]
async fn result_and_log_rows_cut_at_the_panes_edge_end_in_an_ellipsis() {
    let (mut app, session, mut screen) = setup().await;
    open(&mut screen, &mut app, "echo");
    screen.press(&mut app, KeyCode::End);
    keys(&mut screen, &mut app, &" world 名前 hello".repeat(25));
    let cmds = ctrl(&mut screen, &mut app, 'r');
    mcplens::ui::headless::execute(&mut app, &session, cmds).await;
    screen.focus(&mut app, Pane::Result);
    // Each view of the result (`v` goes round them), then the log.
    let mut screens = vec![];
    for _ in 0..5 {
        screens.push(screen.text(&mut app));
        screen.press(&mut app, KeyCode::Char('v'));
    }
    screen.press(&mut app, KeyCode::Char('L'));
    screens.push(screen.text(&mut app));
    for text in screens {
        // The screen's text shows the column a wide character covers as a cell of its own.
        for row in right_pane(&text).iter().filter(|r| r.contains("hello world")) {
            let whole = [" ", "…", "hello", "world", "前"].iter().any(|end| row.ends_with(end));
            assert!(whole, "{row:?} is cut silently in\n{text}");
        }
    }
}
