//! Keys in the TUI against real servers: letters typed in a form type, on every row (a nested
//! object's header `address*:`, an array item's header `[0]*:`, "+ add item"), and never run the
//! commands bound to them elsewhere; quitting with edits never sent asks first.
//! Servers: FastMCP 4 (`tests/servers/fastmcp_forms.py`, pydantic models as nested objects) and
//! npm `@modelcontextprotocol/server-memory` (`create_entities`: an array of objects).

mod common;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::mcp::{StdioTarget, Target};
use mcplens::ui::app::{App, Cmd, Outline, Pane, SetUp};
use mcplens::ui::form::RowKind;
use mcplens::ui::headless::{Screen, app_on, connected_app, execute};
use mcplens::ui::theme::Theme;
use serde_json::{Value, json};

async fn connect(target: Target) -> (App, Arc<mcplens::mcp::Session>, Screen) {
    let (app, s) =
        connected_app(&target, Theme::default(), "keys").await.unwrap_or_else(|e| panic!("cannot connect: {e}"));
    (app, Arc::new(s), Screen::new(120, 40))
}

fn fastmcp() -> Target {
    Target::Stdio(StdioTarget {
        command: common::python().to_string_lossy().into_owned(),
        args: vec![common::script("fastmcp_forms.py")],
        env: vec![],
        cwd: None,
    })
}

fn memory(file: &std::path::Path) -> Target {
    let js = common::root().join("tests/peers/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    assert!(js.exists(), "{} is missing: run scripts/install-peers", js.display());
    let node = common::root().join("tests/peers/node_modules/node/bin/node");
    let node = if node.exists() { node.to_string_lossy().into_owned() } else { "node".into() };
    Target::Stdio(StdioTarget {
        command: node,
        args: vec![js.to_string_lossy().into_owned()],
        env: vec![("MEMORY_FILE_PATH".into(), file.to_string_lossy().into_owned())],
        cwd: None,
    })
}

fn open(screen: &mut Screen, app: &mut App, tool: &str) {
    screen.press(app, KeyCode::Char('/'));
    screen.type_text(app, tool);
    screen.press(app, KeyCode::Enter);
    screen.press(app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
    assert_eq!(app.form().map(|f| f.tool.as_str()), Some(tool));
}

/// Moves the focus to the row whose field is named `key` (from the top).
fn go(screen: &mut Screen, app: &mut App, key: &str) {
    for _ in 0..40 {
        screen.press(app, KeyCode::Up);
    }
    for _ in 0..60 {
        if app.form().and_then(|f| f.focused_field()).is_some_and(|f| f.key == key) {
            return;
        }
        screen.press(app, KeyCode::Down);
    }
    panic!("no field {key}");
}

fn arguments(app: &App) -> Value {
    app.form().and_then(|f| f.arguments().ok()).unwrap_or_default()
}

/// Nothing but the form changed: no overlay, no docked pane, no quitting, the form focused.
fn only_typed(app: &App, what: &str) {
    assert!(!app.outline().quit, "{what}: quit");
    let seen = app.outline();
    assert!(seen.overlays.is_empty(), "{what}: an overlay opened ({:?})", seen.overlays);
    assert_eq!(seen.docked, None, "{what}: a docked pane opened");
    assert_eq!(seen.focus, Pane::Form, "{what}: the focus left the form");
    assert!(!seen.log_shown, "{what}: the log opened");
}

#[tokio::test]
async fn fastmcp_nested_object_header_types_into_its_first_field() {
    let (mut app, session, mut screen) = connect(fastmcp()).await;
    open(&mut screen, &mut app, "create_person");
    go(&mut screen, &mut app, "address");
    // "Alice" opened server info (i) before; every letter bound elsewhere is tried too.
    screen.type_text(&mut app, "Alice");
    only_typed(&app, "Alice on address*:");
    assert_eq!(arguments(&app)["address"]["street"], json!("Alice"));
    go(&mut screen, &mut app, "address");
    screen.type_text(&mut app, "qKirpHTLvSA]1? x");
    only_typed(&app, "command letters on address*:");
    // The header sent them to the first text field below it, after "Alice": the header had the
    // focus, so nothing was shown selected and nothing is replaced.
    assert_eq!(arguments(&app)["address"]["street"], json!("AliceqKirpHTLvSA]1? x"));
    go(&mut screen, &mut app, "street");
    // On the field itself the value is shown selected: typing replaces it.
    screen.type_text(&mut app, "qKirpHTLvSA]1? x");
    go(&mut screen, &mut app, "name");
    screen.type_text(&mut app, "Bob");
    go(&mut screen, &mut app, "city");
    screen.type_text(&mut app, "Paris");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(&mut app, &session, cmds).await;
    let raw = app.result().and_then(|r| r.call.reply.as_ref()).map(|r| r.raw.to_string()).unwrap_or_default();
    let reply: Value = serde_json::from_str(&raw).unwrap_or_default();
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"name": "Bob", "address": {"street": "qKirpHTLvSA]1? x", "city": "Paris", "zip": null}, "tags": []}),
        "{raw}"
    );
}

#[tokio::test]
async fn memory_array_item_header_and_add_row_never_run_commands() {
    let dir = std::env::temp_dir().join(format!("mcplens-keys-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let (mut app, _session, mut screen) = connect(memory(&dir.join("memory.jsonl"))).await;
    open(&mut screen, &mut app, "create_entities");
    // Enter on `entities` adds an item and focuses its header `[0]*:`.
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.form().and_then(|f| f.focused_field()).map(|f| f.key.clone()).as_deref(), Some("[0]"));
    screen.type_text(&mut app, "Ada");
    only_typed(&app, "Ada on [0]*:");
    assert_eq!(arguments(&app)["entities"][0]["name"], json!("Ada"));
    // Tab to the "+ add item" row under `observations`, Enter adds one, letters go to it.
    go(&mut screen, &mut app, "observations");
    screen.press(&mut app, KeyCode::Enter);
    screen.type_text(&mut app, "qKi likes tea");
    only_typed(&app, "letters on a new observation");
    assert_eq!(arguments(&app)["entities"][0]["observations"], json!(["qKi likes tea"]));
    // On a "+ add item" row itself letters do nothing but say what the row takes.
    for _ in 0..60 {
        if app.form().and_then(|f| f.focused()).is_some_and(|r| r.kind == RowKind::AddItem) {
            break;
        }
        screen.press(&mut app, KeyCode::Tab);
    }
    let before = arguments(&app);
    screen.type_text(&mut app, "qKirL");
    only_typed(&app, "letters on + add item");
    assert_eq!(arguments(&app), before);
    // What the row said is about that row: gone once the focus moves on.
    let hint = || app.form().and_then(|f| f.hint.clone());
    assert!(hint().is_some_and(|h| h.contains("adds an item")), "{:?}", hint());
    screen.press(&mut app, KeyCode::Up);
    assert_eq!(app.form().and_then(|f| f.hint.clone()), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn quitting_with_unsent_edits_asks_first() {
    let (mut app, _session, mut screen) = connect(fastmcp()).await;
    open(&mut screen, &mut app, "create_person");
    go(&mut screen, &mut app, "name");
    screen.type_text(&mut app, "Bob");
    // Ctrl-C asks; any other key stays.
    let cmds = screen.press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.outline().quit && !cmds.contains(&Cmd::Quit));
    assert!(screen.text(&mut app).contains("Unsent edits in the form of create_person"));
    screen.press(&mut app, KeyCode::Char('x'));
    assert!(!app.outline().quit && app.outline().overlays.is_empty());
    assert_eq!(arguments(&app)["name"], json!("Bob"), "the form keeps its values");
    // q where q is a command (the tool list, the form left with Esc) asks too; Esc stays.
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().focus, Pane::Tools);
    screen.press(&mut app, KeyCode::Char('q'));
    assert!(!app.outline().quit);
    screen.press(&mut app, KeyCode::Esc);
    assert!(!app.outline().quit && app.outline().overlays.is_empty());
    // Ctrl-C twice always quits.
    screen.press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    let cmds = screen.press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(app.outline().quit && cmds.contains(&Cmd::Quit));
    // Once sent, nothing is lost: q quits at once (the demo server, quicker to start).
    let (mut app, session, mut screen) = connect(common::demo()).await;
    open(&mut screen, &mut app, "echo");
    go(&mut screen, &mut app, "message");
    screen.type_text(&mut app, "hi");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(!cmds.is_empty());
    execute(&mut app, &session, cmds).await;
    for _ in 0..3 {
        screen.press(&mut app, KeyCode::Esc);
    }
    assert_eq!(app.outline().focus, Pane::Tools);
    screen.press(&mut app, KeyCode::Char('q'));
    assert!(app.outline().quit);
}

/// `q` on a row of the save-call dialog that takes no text asks before the call goes unsaved;
/// `n` goes back to the dialog, and once it is closed `q` quits at once.
#[tokio::test]
async fn quitting_from_the_save_call_dialog_asks_first() {
    let (mut app, session, mut screen) = connect(common::demo()).await;
    open(&mut screen, &mut app, "echo");
    go(&mut screen, &mut app, "message");
    screen.type_text(&mut app, "hi");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Char('S'));
    assert!(screen.text(&mut app).contains("Save the call"), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Down);
    let cmds = screen.press(&mut app, KeyCode::Char('q'));
    assert!(!app.outline().quit && !cmds.contains(&Cmd::Quit));
    assert!(screen.text(&mut app).contains("The call is not saved yet."), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Char('n'));
    assert!(!app.outline().quit);
    assert!(screen.text(&mut app).contains("Save the call"), "the dialog stays");
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('q'));
    assert!(app.outline().quit);
}

fn demo_setup() -> impl std::future::Future<Output = (App, Arc<mcplens::mcp::Session>, Screen)> {
    connect(common::demo())
}

/// Ctrl-A goes to the start of a field's text; Ctrl-E there keeps the form's meaning (an
/// explicit empty value). The JSON editor (Ctrl-T), where no field has the focus, takes both as
/// the line's start and end.
#[tokio::test]
async fn ctrl_a_and_ctrl_e_in_a_field_and_in_the_json_editor() {
    let (mut app, _session, mut screen) = demo_setup().await;
    open(&mut screen, &mut app, "echo");
    go(&mut screen, &mut app, "message");
    screen.type_text(&mut app, "hello");
    screen.press_with(&mut app, KeyCode::Char('a'), KeyModifiers::CONTROL);
    screen.type_text(&mut app, ">");
    assert_eq!(arguments(&app)["message"], json!(">hello"));
    screen.press_with(&mut app, KeyCode::Char('e'), KeyModifiers::CONTROL);
    assert_eq!(arguments(&app)["message"], json!(""), "Ctrl-E in a field: an explicit empty value");
    screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    let editor = |app: &App| app.form().and_then(|f| f.raw.as_ref()).map(|t| (t.text(), t.row, t.col));
    let text = "{\n  \"message\": \"\"\n}".to_string();
    assert_eq!(editor(&app), Some((text.clone(), 0, 0)), "JSON mode");
    screen.press(&mut app, KeyCode::Down);
    screen.press_with(&mut app, KeyCode::Char('e'), KeyModifiers::CONTROL);
    assert_eq!(editor(&app), Some((text.clone(), 1, 15)), "Ctrl-E: the line's end");
    screen.press_with(&mut app, KeyCode::Char('a'), KeyModifiers::CONTROL);
    assert_eq!(editor(&app), Some((text, 1, 0)), "Ctrl-A: the line's start");
    only_typed(&app, "Ctrl-A and Ctrl-E");
}

/// Picks the Fuzzy variant of `fg_findPersons`'s first query's `match` (its `fuzziness` has a
/// default).
fn choose_fuzzy_match(screen: &mut Screen, app: &mut App) {
    go(screen, app, "match");
    screen.press(app, KeyCode::Char(' '));
    screen.press(app, KeyCode::Down);
    screen.press(app, KeyCode::Down);
    screen.press(app, KeyCode::Enter);
}

/// Ctrl-T on a form holding `5x` in an integer field (`limit`, prefilled with its default 10):
/// the form stays as it was, says which field and what is wrong, and keeps the text. Before, the
/// JSON came without `limit` and coming back left the field empty: `5x` and the default both
/// gone. A nested default (the Fuzzy match's `fuzziness`) goes to the JSON and comes back.
#[tokio::test]
async fn ctrl_t_keeps_what_the_form_holds() {
    let (mut app, _session, mut screen) = demo_setup().await;
    open(&mut screen, &mut app, "fg_findPersons");
    choose_fuzzy_match(&mut screen, &mut app);
    go(&mut screen, &mut app, "limit");
    screen.type_text(&mut app, "5x");
    screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    let form =
        |app: &App| app.form().map(|f| (f.raw.is_some(), f.message.clone(), f.focused_field().map(|f| f.text.clone())));
    let refused = "limit: `5x` is not an integer; fix it or clear it (Ctrl-D) before Ctrl-T";
    assert_eq!(form(&app), Some((false, Some(refused.into()), Some("5x".into()))));
    assert!(screen.text(&mut app).contains("limit: 5x"), "{}", screen.text(&mut app));
    screen.type_text(&mut app, "7");
    screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    let all =
        json!({"queries": [{"match": {"fuzziness": 0.3}}], "limit": 7, "sort": "relevance", "include_inactive": false});
    let shown = app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
    assert_eq!(serde_json::from_str::<Value>(&shown).ok(), Some(all.clone()), "{shown}");
    screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert_eq!(form(&app).map(|f| f.0), Some(false));
    assert_eq!(arguments(&app), all);
    let text = screen.text(&mut app);
    assert!(text.contains("match: Fuzzy") && text.contains("fuzziness*: 0.3") && text.contains("limit: 7"), "{text}");
    only_typed(&app, "Ctrl-T");
}

/// Ctrl-D leaves the field out of the arguments: the Fuzzy match (its fuzziness, a default, was
/// still sent), the list emptied by Ctrl-X with the focus left on its "+ add item" row (Ctrl-D
/// there did nothing: `[]` was sent).
#[tokio::test]
async fn ctrl_d_leaves_the_field_out() {
    let (mut app, _session, mut screen) = demo_setup().await;
    open(&mut screen, &mut app, "fg_findPersons");
    choose_fuzzy_match(&mut screen, &mut app);
    assert_eq!(arguments(&app)["queries"], json!([{"match": {"fuzziness": 0.3}}]));
    go(&mut screen, &mut app, "match");
    screen.press_with(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert_eq!(arguments(&app).get("queries"), None, "{}", arguments(&app));
    go(&mut screen, &mut app, "queries");
    screen.press(&mut app, KeyCode::Enter);
    for _ in 0..2 {
        go(&mut screen, &mut app, "[0]");
        screen.press_with(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    }
    assert_eq!(arguments(&app)["queries"], json!([]));
    assert_eq!(app.form().and_then(|f| f.focused()).map(|r| r.kind), Some(RowKind::AddItem));
    screen.press_with(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert_eq!(arguments(&app).get("queries"), None, "{}", arguments(&app));
    only_typed(&app, "Ctrl-D");
}

/// Esc from the result lands on the form with no field in edit mode: a letter typed next (meant
/// for the result, say `j`) is not typed into the value the focus is on, where before it went
/// after it (`hij`). Enter chooses the field; the value is then shown selected, as when the
/// focus comes to the form from another pane.
#[tokio::test]
async fn esc_from_the_result_lands_on_the_form_with_no_field_in_edit_mode() {
    let (mut app, session, mut screen) = demo_setup().await;
    open(&mut screen, &mut app, "echo");
    go(&mut screen, &mut app, "message");
    screen.type_text(&mut app, "hi");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(&mut app, &session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
    screen.press(&mut app, KeyCode::Esc);
    assert_eq!(app.outline().focus, Pane::Form);
    assert!(app.form().is_some_and(|f| f.parked() && f.cursor_view(40).is_none()));
    screen.type_text(&mut app, "jk ");
    screen.press(&mut app, KeyCode::Backspace);
    only_typed(&app, "letters after Esc");
    assert_eq!(arguments(&app)["message"], json!("hi"));
    assert!(screen.text(&mut app).contains("Enter to type in this field"), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.form().and_then(|f| f.focused_field()).map(|f| f.key.as_str()), Some("message"));
    screen.type_text(&mut app, "yo");
    assert_eq!(arguments(&app)["message"], json!("yo"));
    // ↓ after Esc moves, as it always does, and ends the wait.
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(&mut app, &session, cmds).await;
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Down);
    assert!(app.form().is_some_and(|f| !f.parked() && f.focused_field().is_some_and(|f| f.key == "repeat")));
}

/// Tab from `from`, `n` times; the panes it went through.
fn walk(screen: &mut Screen, app: &mut App, key: KeyCode, n: usize) -> Vec<Pane> {
    (0..n)
        .map(|_| {
            screen.press(app, key);
            app.outline().focus
        })
        .collect()
}

#[tokio::test]
async fn one_focus_order_and_tab_leaves_the_form() {
    let (mut app, _session, mut screen) = demo_setup().await;
    use Pane::*;
    assert_eq!(app.outline().focus, Tools);
    assert_eq!(walk(&mut screen, &mut app, KeyCode::Tab, 3), [Schema, Result, Tools]);
    assert_eq!(walk(&mut screen, &mut app, KeyCode::BackTab, 3), [Result, Schema, Tools]);
    // With the log shown, it comes after the result, from every pane the same way round.
    screen.press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.outline().focus, Log);
    assert_eq!(walk(&mut screen, &mut app, KeyCode::Tab, 4), [Tools, Schema, Result, Log]);
    assert_eq!(walk(&mut screen, &mut app, KeyCode::BackTab, 4), [Result, Schema, Tools, Log]);
    screen.press(&mut app, KeyCode::Char('L'));
    // The form: Tab walks its fields, then leaves it for the result; Shift-Tab comes back onto
    // its last field and walks up, then leaves for the tool list.
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "generate_records");
    screen.press(&mut app, KeyCode::Enter);
    screen.press(&mut app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Form);
    let rows = app.form().map_or(0, |f| f.rows.len());
    assert!(rows > 1, "{rows}");
    let forward = walk(&mut screen, &mut app, KeyCode::Tab, rows);
    assert_eq!(forward[..rows - 1], vec![Form; rows - 1][..]);
    assert_eq!(forward[rows - 1], Result);
    screen.press(&mut app, KeyCode::BackTab);
    assert_eq!(app.outline().focus, Form);
    assert_eq!(app.form().map(|f| f.focus), Some(rows - 1));
    let back = walk(&mut screen, &mut app, KeyCode::BackTab, rows);
    assert_eq!(back[rows - 1], Tools);
    assert_eq!(walk(&mut screen, &mut app, KeyCode::Tab, 1), [Form]);
    assert_eq!(app.form().map(|f| f.focus), Some(0));
    // ↓ at the last field stays there: only the pane keys leave.
    for _ in 0..rows + 2 {
        screen.press(&mut app, KeyCode::Down);
    }
    assert_eq!(app.outline().focus, Form);
    // Zoom ends when the focus moves on.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('z'));
    assert!(app.outline().zoom);
    screen.press(&mut app, KeyCode::Tab);
    assert!(!app.outline().zoom);
}

/// The demo's `fg_findPersons`: letters typed on an array item's header go to `fg_id`; back on
/// the header, more letters go after them (they replaced them once, the header not showing the
/// field's value selected).
#[tokio::test]
async fn typing_again_on_a_header_row_appends_to_the_field_below() {
    let (mut app, _session, mut screen) = demo_setup().await;
    open(&mut screen, &mut app, "fg_findPersons");
    go(&mut screen, &mut app, "queries");
    screen.press(&mut app, KeyCode::Enter);
    let item = app_key(&app);
    assert!(item.starts_with('['), "{item}");
    // The arguments leave out items with nothing set: look for the filled one.
    let fg_id =
        |app: &App| arguments(app)["queries"].as_array().into_iter().flatten().find_map(|q| q.get("fg_id").cloned());
    screen.type_text(&mut app, "qKiAlice");
    only_typed(&app, "qKiAlice on the item's header");
    assert_eq!(fg_id(&app), Some(json!("qKiAlice")));
    screen.press(&mut app, KeyCode::Up);
    assert_eq!(app_key(&app), item);
    screen.type_text(&mut app, "zq");
    only_typed(&app, "zq on the item's header");
    assert_eq!(fg_id(&app), Some(json!("qKiAlicezq")));
}

/// `Y` on a result: the call as a command line, a curl request (HTTP only) or its message, the
/// target's secrets masked on screen and in what is copied; from the history too.
#[tokio::test]
async fn a_call_copied_as_a_command_or_its_message_and_no_curl_request_for_a_command() {
    let (mut app, session, mut screen) = demo_setup().await;
    let mut args = mcplens::cli::TargetArgs::default();
    args.command = vec!["python3".into(), "server.py".into()];
    args.env = vec!["API_TOKEN=sekrit-42".into()];
    let copy_source = Some(mcplens::ui::copy_as::CopySource { args, secrets: vec!["sekrit-42".into()] });
    app.set_up(SetUp { copy_source, ..SetUp::default() });
    open(&mut screen, &mut app, "echo");
    screen.type_text(&mut app, "hi");
    let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    execute(&mut app, &session, cmds).await;
    assert!(app.result().is_some(), "no result");
    screen.press(&mut app, KeyCode::Esc);
    assert!(screen.focus(&mut app, Pane::Result));
    screen.press(&mut app, KeyCode::Char('Y'));
    let shown = screen.text(&mut app);
    assert!(shown.contains("an mcplens call command") && shown.contains("mcplens call echo"), "{shown}");
    assert!(!shown.contains("sekrit-42"), "{shown}");
    // A curl request applies to HTTP servers only: a command's server is not offered one.
    assert!(!shown.contains("a curl request"), "{shown}");
    screen.press(&mut app, KeyCode::Down);
    let copied = screen.press(&mut app, KeyCode::Enter);
    let Some(Cmd::Copy(text)) = copied.first() else { panic!("nothing copied: {copied:?}") };
    let message: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(message["method"], "tools/call");
    assert_eq!(message["params"]["name"], "echo");
    assert!(app.outline().overlays.is_empty(), "the overlay closes once copied");
    screen.press(&mut app, KeyCode::Char('H'));
    screen.press(&mut app, KeyCode::Char('Y'));
    assert!(screen.text(&mut app).contains("Copy echo as"), "Y in the history");
}

/// The focused field's key.
fn app_key(app: &App) -> String {
    app.form().and_then(|f| f.focused_field()).map(|f| f.key.clone()).unwrap_or_default()
}

/// The states that hold a text cursor, each entered from the tool list with the keys a user
/// presses. Each returns whether typed text shows before the cursor (`text▏`); the others take
/// no text (a boolean row, "+ add item") and must simply stay as they are.
const STATES: &[&str] = &[
    "tools filter",
    "form text field",
    "form array item header",
    "form + add key row",
    "form JSON mode",
    "form boolean row",
    "form + add item row",
    "log filter",
    "result search",
    "help search",
    "save-call name",
    "resources filter",
    "prompts filter",
    "form text field, cursor moved",
];

fn enter(screen: &mut Screen, app: &mut App, state: &str) -> bool {
    let open = |screen: &mut Screen, app: &mut App, tool: &str, field: &str| {
        screen.press(app, KeyCode::Char('/'));
        screen.type_text(app, tool);
        screen.press(app, KeyCode::Enter);
        screen.press(app, KeyCode::Enter);
        // A fresh form has the focus on its first row (echo's, run once, was left there): down
        // from there.
        for _ in 0..30 {
            if app.form().and_then(|f| f.focused_field()).is_some_and(|f| f.key == field) {
                break;
            }
            screen.press(app, KeyCode::Down);
        }
    };
    match state {
        "tools filter" => {
            screen.press(app, KeyCode::Char('/'));
        }
        "form text field" => open(screen, app, "echo", "message"),
        "form array item header" => {
            open(screen, app, "fg_findPersons", "queries");
            screen.press(app, KeyCode::Enter);
        }
        "form + add key row" => {
            open(screen, app, "echo", "extra");
            screen.press(app, KeyCode::Down);
        }
        "form JSON mode" => {
            open(screen, app, "echo", "message");
            screen.press_with(app, KeyCode::Char('t'), KeyModifiers::CONTROL);
            return false;
        }
        "form boolean row" => {
            open(screen, app, "discord_send_message", "silent");
            return false;
        }
        "form + add item row" => {
            open(screen, app, "fg_findPersons", "queries");
            for _ in 0..30 {
                if app.form().and_then(|f| f.focused()).is_some_and(|r| r.kind == RowKind::AddItem) {
                    break;
                }
                screen.press(app, KeyCode::Down);
            }
            return false;
        }
        "log filter" => {
            screen.press(app, KeyCode::Char('L'));
            screen.press(app, KeyCode::Char('/'));
        }
        "result search" => {
            screen.focus(app, Pane::Result);
            screen.press(app, KeyCode::Char('/'));
        }
        "help search" => {
            screen.press(app, KeyCode::Char('?'));
            screen.press(app, KeyCode::Char('/'));
        }
        "save-call name" => {
            screen.focus(app, Pane::Result);
            screen.press(app, KeyCode::Char('S'));
        }
        "resources filter" | "prompts filter" => {
            screen.press(app, KeyCode::Char(if state.starts_with('r') { 'r' } else { 'p' }));
            screen.press(app, KeyCode::Char('/'));
        }
        "form text field, cursor moved" => {
            open(screen, app, "echo", "message");
            // Typed, then the cursor moved back past one character, to the start, one word on.
            screen.type_text(app, "ab cd");
            screen.press(app, KeyCode::Home);
            screen.press_with(app, KeyCode::Right, KeyModifiers::CONTROL);
            screen.press(app, KeyCode::Right);
        }
        other => panic!("no state {other}"),
    }
    true
}

/// What shows after the cursor once text is typed in `state`.
fn after_cursor(state: &str) -> &'static str {
    if state == "form text field, cursor moved" { "cd" } else { "" }
}

/// Back to the tool list with nothing open (the keys a user would press).
fn reset(screen: &mut Screen, app: &mut App) {
    for _ in 0..8 {
        let seen = app.outline();
        let clear = seen.overlays.is_empty() && seen.focus == Pane::Tools && !app.tools().filtering;
        if clear && app.tools().filter.is_empty() && !seen.log_shown {
            return;
        }
        if seen.log_shown && seen.overlays.is_empty() && !app.typing() {
            screen.focus(app, Pane::Tools);
            screen.press(app, KeyCode::Char('L'));
            continue;
        }
        screen.press(app, KeyCode::Esc);
    }
    panic!("cannot get back to the tool list: focus {:?}", app.outline().focus);
}

/// What a command could have changed: the state in brief, but for the notice (typing may
/// say something there).
fn outside(app: &App) -> Outline {
    Outline { notice: None, ..app.outline() }
}

#[test]
fn typed_keys_in_every_text_state_never_run_a_command() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    let (_, session, _) = rt.block_on(demo_setup());
    let collection = std::env::temp_dir().join(format!("mcplens-keys-calls-{}.toml", std::process::id()));
    // Each case on a new app (no form kept from the last case), with a result to search and to
    // save, back on the tool list.
    let fresh = || {
        rt.block_on(async {
            let mut app = app_on(&session, Theme::default(), "keys").await.unwrap_or_else(|e| panic!("{e}"));
            let mut screen = Screen::new(120, 40);
            app.set_up(SetUp { collection_file: Some(collection.clone()), ..SetUp::default() });
            screen.press(&mut app, KeyCode::Char('/'));
            screen.type_text(&mut app, "echo");
            screen.press(&mut app, KeyCode::Enter);
            screen.press(&mut app, KeyCode::Enter);
            let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
            execute(&mut app, &session, cmds).await;
            assert!(app.result().is_some());
            reset(&mut screen, &mut app);
            (app, screen)
        })
    };
    // Letters, digits and the punctuation bound to commands (q ? / [ ] : + - and the rest).
    let text = "[a-zA-Z0-9?/\\[\\]:+=.,;!@#$%&*()<>_~|{}'-]{1,10}";
    let mut runner = TestRunner::new(Config { cases: 48, failure_persistence: None, ..Config::default() });
    let result = runner.run(&(0..STATES.len(), text), |(state, typed)| {
        let (app, screen) = &mut fresh();
        let shows = enter(screen, app, STATES[state]);
        prop_assert!(app.typing(), "{}: not typing after entering it", STATES[state]);
        let before = outside(app);
        let args = app.form().and_then(|f| f.arguments().ok());
        // "+" is the "+ add item" row's own key (it adds the item), not text.
        let typed: String = typed.chars().filter(|&c| !(c == '+' && STATES[state] == "form + add item row")).collect();
        for c in typed.chars() {
            let cmds = screen.press(app, KeyCode::Char(c));
            prop_assert!(cmds.is_empty(), "{}: {c:?} asked the worker for {cmds:?}", STATES[state]);
        }
        prop_assert_eq!(outside(app), before, "{}: typing {:?} ran a command", STATES[state], typed);
        prop_assert!(app.typing(), "{}: typing {:?} ended the typing", STATES[state], typed);
        let screen_text = screen.text(app);
        if shows {
            prop_assert!(
                screen_text.contains(&format!("{typed}▏{}", after_cursor(STATES[state]))),
                "{}: {:?} is not before the cursor:\n{}",
                STATES[state],
                typed,
                screen_text
            );
        } else if STATES[state] == "form JSON mode" {
            let raw = app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
            prop_assert!(raw.contains(&typed), "{raw}");
        } else {
            prop_assert_eq!(app.form().and_then(|f| f.arguments().ok()), args, "{}", STATES[state]);
        }
        Ok(())
    });
    let _ = std::fs::remove_file(&collection);
    if let Err(e) = result {
        panic!("{e}");
    }
}
