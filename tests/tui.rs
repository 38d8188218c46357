//! Whole-screen snapshots of the TUI on ratatui's TestBackend, driven by key events against the
//! real demo server over stdio; a test per theme; mouse and navigation.

mod common;

use crossterm::event::KeyModifiers;
use crossterm::event::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use mcplens::mcp::{StdioTarget, Target};
use mcplens::ui::app::{App, Msg, Pane};
use mcplens::ui::headless::{Screen, connected_app};
use mcplens::ui::theme::Theme;

async fn app_with(theme: Theme) -> (App, mcplens::mcp::Session) {
    connected_app(&common::demo(), theme, "embedded demo server").await.unwrap_or_else(|e| panic!("{e}"))
}

fn stable(text: &str) -> String {
    // Versions change with releases; the rest of the screen is deterministic.
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

#[tokio::test]
async fn tool_list_with_schema_tree() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    insta::assert_snapshot!("start", stable(&screen.text(&mut app)));
}

#[tokio::test]
async fn filter_finds_the_person_finder_and_shows_every_nested_property() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "findpers");
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some("fg_findPersons"));
    screen.press(&mut app, KeyCode::Char('l'));
    assert_eq!(app.outline().focus, Pane::Schema);
    let text = screen.text(&mut app);
    for needle in [
        "queries* array<PersonQuery>",
        "fg_id* string  format=\"uuid\"",
        "role string  enum=[\"engineer\"",
        "fuzziness* number",
        "reports_to PersonQuery → #/$defs/PersonQuery ↻ cycle",
        "country string  pattern=",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    insta::assert_snapshot!("person_finder", stable(&text));
    // Navigation in the tree: down twice selects `[items]`, whose full line shows below the tree.
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Char('j'));
    let text = screen.text(&mut app);
    assert!(text.contains("[items] object → #/$defs/PersonQuery  x-searchable=true"), "{text}");
    // Collapse all, then expand all.
    screen.press(&mut app, KeyCode::Char('C'));
    assert!(!screen.text(&mut app).contains("fg_id*"));
    screen.press(&mut app, KeyCode::Char('E'));
    assert!(screen.text(&mut app).contains("fg_id*"));
}

#[tokio::test]
async fn help_lists_every_key() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('?'));
    let first = screen.text(&mut app);
    insta::assert_snapshot!("help", stable(&first));
    // The help scrolls: read every page of it.
    let mut text = first;
    for _ in 0..10 {
        screen.press(&mut app, KeyCode::PageDown);
        text.push_str(&screen.text(&mut app));
    }
    for b in mcplens::ui::keymap::bindings() {
        // Long descriptions wrap: look for their first words.
        let start: String = b.help.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert!(text.contains(&b.label) && text.contains(&start), "help lacks {}", b.label);
    }
    screen.press(&mut app, KeyCode::Char('x'));
    assert!(app.outline().overlays.is_empty(), "any other key closes the help");
}

#[tokio::test]
async fn raw_schema_is_the_json_the_server_sent() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Tab);
    screen.press(&mut app, KeyCode::Char('r'));
    insta::assert_snapshot!("raw", stable(&screen.text(&mut app)));
}

#[tokio::test]
async fn log_shows_the_protocol_exchange() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('L'));
    let text = screen.text(&mut app);
    assert!(text.contains("Log ("), "{text}");
    // A row per message: direction, method, id, latency for replies, then the payload's start.
    assert!(text.contains("→ tools/list") && text.contains("← tools/list             #"), "{text}");
    assert!(text.contains("connected to mcplens-demo"), "{text}");
}

#[tokio::test]
async fn keys_and_mouse_move_the_selection() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('G'));
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some("echo"));
    screen.press(&mut app, KeyCode::Char('g'));
    screen.press(&mut app, KeyCode::Down);
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some("discord_read_channel"));
    // Click the fourth row of the tool list (rows start one below the border).
    screen.render(&mut app);
    let area = app.outline().areas.tools;
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: area.x + 3,
        row: area.y + 4,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some("discord_edit_message"));
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: area.x + 3,
        row: area.y + 4,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.tools().scroll.cursor, 6);
    screen.press(&mut app, KeyCode::Tab);
    assert_eq!(app.outline().focus, Pane::Schema);
    screen.press(&mut app, KeyCode::Char('q'));
    assert!(app.outline().quit);
}

#[tokio::test]
async fn every_theme_file_loads_and_colors_the_screen() {
    let dir = common::root().join("themes");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")).flatten() {
        let path = entry.path();
        let (theme, err) = Theme::load(path.to_str(), false);
        assert!(err.is_none(), "{}: {err:?}", path.display());
        let (mut app, _s) = app_with(theme.clone()).await;
        let mut screen = Screen::new(120, 40);
        let buf = screen.render(&mut app).clone();
        // The focused pane's border (tool list, top-left corner) has the theme's focus color.
        let corner = &buf[(app.outline().areas.tools.x, app.outline().areas.tools.y)];
        assert_eq!(corner.fg, theme.paint_color(mcplens::ui::theme::Role::BorderFocus), "{}", path.display());
        assert!(mcplens::ui::headless::buffer_text(&buf).contains("Tools (19)"));
        seen += 1;
    }
    assert!(seen >= 3, "expected at least three themes in {}", dir.display());
}

#[tokio::test]
async fn hostile_tool_text_is_escaped_on_screen() {
    let py = common::python().to_string_lossy().into_owned();
    let script = common::script("hostile_tools.py");
    let target = Target::Stdio(StdioTarget { command: py, args: vec![script], env: vec![], cwd: None });
    let (mut app, _s) = connected_app(&target, Theme::default(), "hostile").await.unwrap_or_else(|e| panic!("{e}"));
    let mut screen = Screen::new(120, 40);
    let buf = screen.render(&mut app).clone();
    for cell in buf.content() {
        assert!(
            !cell.symbol().chars().any(|c| c.is_control()),
            "a control character reached the screen: {:?}",
            cell.symbol()
        );
    }
    let text = mcplens::ui::headless::buffer_text(&buf);
    assert!(text.contains("\\x1b[2J"), "{text}");
    assert!(text.contains("\\x1b]52;c;"), "{text}");
}

#[tokio::test]
async fn tiny_terminals_never_panic() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut big = Screen::new(120, 40);
    // Visit every kind of screen: list, schema, raw, help, log, form, picker, history.
    let visits: &[&[KeyCode]] = &[
        &[],
        &[KeyCode::Char('l')],
        &[KeyCode::Char('r')],
        &[KeyCode::Esc, KeyCode::Char('?')],
        &[KeyCode::Esc, KeyCode::Char('L')],
        &[KeyCode::Char('L'), KeyCode::Esc, KeyCode::Esc, KeyCode::Enter],
        &[KeyCode::Char(' ')],
        &[KeyCode::Esc, KeyCode::Esc, KeyCode::Char('H')],
    ];
    for keys in visits {
        for k in *keys {
            big.press(&mut app, *k);
        }
        for (w, h) in [(1, 1), (2, 2), (10, 3), (20, 5), (40, 10), (200, 4), (4, 60)] {
            let mut small = Screen::new(w, h);
            small.render(&mut app);
        }
    }
}

#[tokio::test]
async fn z_zooms_the_focused_pane_to_the_whole_screen_and_back() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 30);
    screen.press(&mut app, KeyCode::Char('z'));
    let text = screen.text(&mut app);
    // The tool list alone, across the whole width: no schema pane beside it.
    assert!(text.contains("Tools (19)") && !text.contains("Channels per page"), "{text}");
    assert_eq!(app.outline().areas.tools.width, 120);
    // z again: back.
    screen.press(&mut app, KeyCode::Char('z'));
    let text = screen.text(&mut app);
    assert!(text.contains("Tools (19)") && text.contains("Channels per page"), "{text}");
    // Another pane zoomed in turn, then the focus moving on ends the zoom: every pane shows.
    screen.press(&mut app, KeyCode::Tab);
    screen.press(&mut app, KeyCode::Char('z'));
    let text = screen.text(&mut app);
    assert!(!text.contains("Tools (19)") && text.contains("Channels per page"), "{text}");
    screen.press(&mut app, KeyCode::Tab);
    let text = screen.text(&mut app);
    assert!(!app.outline().zoom, "{text}");
    assert!(text.contains("Tools (19)") && text.contains("discord_list_channels — List channels"), "{text}");
    assert!(text.contains("No result yet"), "{text}");
}

#[tokio::test]
async fn the_tool_list_shows_names_whole_before_titles_and_pages_by_its_height() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 14);
    let text = screen.text(&mut app);
    assert!(text.contains("· discord_list_channels  List channels"), "{text}");
    // 14 rows: 10 list rows; PgDn moves a page less one row.
    screen.press(&mut app, KeyCode::PageDown);
    assert_eq!(app.tools().scroll.cursor, 9);
    screen.press(&mut app, KeyCode::Char('G'));
    assert_eq!(app.tools().scroll.cursor, 18);
    assert!(screen.text(&mut app).contains("· echo  Echo"));
}

#[tokio::test]
async fn keys_in_the_help_do_what_the_help_says() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    // Another key closes the help and then does its own work.
    screen.press(&mut app, KeyCode::Char('?'));
    screen.press(&mut app, KeyCode::Char('L'));
    assert!(app.outline().overlays.is_empty() && app.outline().log_shown);
    screen.press(&mut app, KeyCode::Char('L'));
    // `/` filters the help as you type.
    screen.press(&mut app, KeyCode::F(1));
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "clipboard");
    let text = screen.text(&mut app);
    assert!(text.contains("copy the selected value") && !text.contains("next pane"), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Esc);
    assert!(app.outline().overlays.is_empty());
    // In a form, Tab moves fields: the footer and the help say so, not "Tab pane".
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
    let text = screen.text(&mut app);
    assert!(text.contains("Tab field") && !text.contains("Tab pane"), "{text}");
    // Ctrl-C quits even while typing in the filter.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('/'));
    screen.press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(app.outline().quit);
}

#[tokio::test]
async fn the_log_opens_entries_whole_pairs_them_and_filters() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.outline().focus, Pane::Log);
    let text = screen.text(&mut app);
    assert!(text.contains("→ server/discover") && text.contains("← server/discover"), "{text}");
    // After the start note comes the handshake (the demo speaks 2026-07-28: server/discover):
    // Enter shows it whole, p its reply.
    screen.press(&mut app, KeyCode::Char('g'));
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(text.contains("Log entry: sent server/discover") && text.contains("clientInfo\""), "{text}");
    screen.press(&mut app, KeyCode::Char('p'));
    let text = screen.text(&mut app);
    assert!(text.contains("Log entry: received server/discover") && text.contains("serverInfo\""), "{text}");
    assert!(text.contains("latency"), "{text}");
    screen.press(&mut app, KeyCode::Esc);
    assert!(app.outline().overlays.is_empty());
    // Filters: direction, then a method typed in.
    screen.press(&mut app, KeyCode::Char('d'));
    assert!(screen.text(&mut app).contains("sent →"));
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "tools/li");
    screen.press(&mut app, KeyCode::Enter);
    let text = screen.text(&mut app);
    assert!(text.contains("method ~ tools/li") && !text.contains("→ server/discover"), "{text}");
    // Esc clears the filters; a second Esc leaves the pane.
    screen.press(&mut app, KeyCode::Esc);
    assert!(screen.text(&mut app).contains("→ server/discover"));
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().focus, Pane::Tools);
}

/// Clock times, latencies and process ids change run to run; the rest of a log screen does not.
fn masked(name: &str, text: &str) {
    insta::with_settings!({filters => vec![
        (r"\d\d:\d\d:\d\d\.\d\d\d( UTC)?", "HH:MM:SS.mmm"),
        (r"\b\d+(\.\d+)? ?(ms|µs|s)\b *", "T "),
        (r"started \S+ \(pid \d+\) *", "started SERVER (pid N) "),
        // An overlay over the log leaves the first digit of each row's hour showing.
        (r"│\d┃", "│H┃"),
        (r"│\d│", "│H│"),
    ]}, {
        insta::assert_snapshot!(name, stable(text));
    });
}

#[tokio::test]
async fn snapshots_of_the_log_its_entry_and_a_zoomed_pane() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('L'));
    masked("log_rows", &screen.text(&mut app));
    screen.press(&mut app, KeyCode::Char('g'));
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Enter);
    masked("log_entry", &screen.text(&mut app));
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('z'));
    masked("log_zoomed", &screen.text(&mut app));
}

/// With an overlay over another (the help over a log entry), only the top one, which takes the
/// keys, is drawn focused: the one beneath gets the frame of a pane without the focus.
#[tokio::test]
async fn only_the_top_overlay_is_drawn_focused() {
    use mcplens::ui::keymap::Scope;
    let (mut app, _s) = app_with(Theme::default()).await;
    // Wide enough for the entry (the width less 4) to show beside the help (at most 116 wide).
    let mut screen = Screen::new(130, 40);
    screen.press(&mut app, KeyCode::Char('L'));
    screen.press(&mut app, KeyCode::Char('g'));
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Char('?'));
    assert_eq!(app.outline().overlays, [Scope::LogEntry, Scope::Help]);
    masked("help_over_log_entry", &screen.text(&mut app));
    // The frames' colors: the entry's is the panes' plain border, the help's the focused one.
    let theme = Theme::default();
    let buf = screen.render(&mut app).clone();
    let top_row = |x: u16| buf[(x, 1)].clone();
    let (entry, help) = (top_row(2), top_row(7));
    assert_eq!((entry.symbol(), help.symbol()), ("╭", "┏"));
    assert_eq!(entry.fg, theme.border(false).fg.unwrap_or_default());
    assert_eq!(help.fg, theme.border(true).fg.unwrap_or_default());
    // Closed, the help gives the focus back to the entry, drawn focused again.
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().overlays, [Scope::LogEntry]);
    let buf = screen.render(&mut app);
    assert_eq!((buf[(2, 1)].symbol(), buf[(2, 1)].fg), ("┏", theme.border(true).fg.unwrap_or_default()));
    // Under what is drawn over the whole app (the servers' picker), nothing of it looks focused,
    // and the footer says the keys of what is over it, not the entry's.
    let mut term =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(130, 40)).unwrap_or_else(|e| panic!("{e}"));
    let over = [("Enter".to_string(), "connect".to_string())];
    term.draw(|f| mcplens::ui::view::draw_in(f, &app, f.area(), Some(&over))).unwrap_or_else(|e| panic!("{e}"));
    let text = mcplens::ui::headless::buffer_text(term.backend().buffer());
    assert!(text.contains("╭ Log entry") && !text.contains('┏'), "{text}");
    let footer = text.lines().last().unwrap_or_default();
    assert!(footer.contains("Enter connect") && !footer.contains("paired"), "{footer}");
}

#[test]
fn snapshot_of_the_server_picker() {
    use mcplens::ui::component::Component;
    use mcplens::ui::components::picker::{Choice, Picker, State};
    let choices = vec![
        Choice {
            name: "everything".into(),
            detail: "npx -y @modelcontextprotocol/server-everything".into(),
            state: State::Plain,
        },
        Choice {
            name: "broken".into(),
            detail: String::new(),
            state: State::CannotStart("no command and no url".into()),
        },
        Choice { name: "remote".into(), detail: "https://example.com/mcp".into(), state: State::Plain },
    ];
    let picker = Picker::new("mcp.json lists several servers: pick one", choices);
    let theme = Theme::default();
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(90, 7)).unwrap_or_else(|e| panic!("{e}"));
    term.draw(|f| picker.draw(f, f.area(), &theme, true)).unwrap_or_else(|e| panic!("{e}"));
    insta::assert_snapshot!("picker", mcplens::ui::headless::buffer_text(term.backend().buffer()));
}

#[tokio::test]
async fn i_shows_the_server_info_docked_in_the_schemas_place_from_any_pane() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(120, 40);
    screen.press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.outline().focus, Pane::Docked);
    let text = screen.text(&mut app);
    assert!(text.contains("Server info") && text.contains("protocol  2026-07-28"), "{text}");
    assert!(text.contains("capabilities (as sent)") && text.contains("\"tools\": {}"), "{text}");
    insta::assert_snapshot!("server_info", stable(&text));
    // Esc hides it and gives the focus back to the tools; from another pane, i shows it again
    // and i hides it.
    screen.press(&mut app, KeyCode::Esc);
    assert!(app.outline().docked.is_none() && app.outline().focus == Pane::Tools);
    screen.press(&mut app, KeyCode::Tab);
    screen.press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.outline().focus, Pane::Docked);
    screen.press(&mut app, KeyCode::Char('i'));
    assert!(!screen.text(&mut app).contains("Server info"));
    // The help lists its keys under its own heading.
    screen.press(&mut app, KeyCode::Char('?'));
    screen.press(&mut app, KeyCode::Char('G'));
    let mut seen = String::new();
    for _ in 0..10 {
        seen.push_str(&screen.text(&mut app));
        screen.press(&mut app, KeyCode::PageUp);
    }
    assert!(seen.contains("Server info (i, from any pane but the form)"), "{seen}");
}

#[tokio::test]
async fn search_before_any_result_says_so_and_the_letters_typed_run_nothing() {
    let (mut app, _s) = app_with(Theme::default()).await;
    let mut screen = Screen::new(80, 24);
    assert!(screen.focus(&mut app, Pane::Result));
    screen.press(&mut app, KeyCode::Char('/'));
    assert!(screen.text(&mut app).contains("no result yet, nothing to search"), "{}", screen.text(&mut app));
    // "info q": letters meant for the search; none opens a pane or quits.
    screen.type_text(&mut app, "info q");
    assert!(!app.outline().quit && app.outline().docked.is_none() && app.outline().overlays.is_empty());
    assert_eq!(app.outline().focus, Pane::Result);
    // Esc ends it; then keys are commands again.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('i'));
    assert!(app.outline().docked.is_some());
}
