//! The TUI's share of "mcplens in CI": the tools marked against a saved snapshot (what changed,
//! breaking or not, new, removed), the call on screen saved into a collection, and the
//! collection pane running it; driven headless against the demo server.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::ui::app::{App, Cmd, Msg, SessionMsg, SetUp};
use mcplens::ui::baseline::{Mark, Source};
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;
use serde_json::{Value, json};

fn stable(text: &str) -> String {
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

/// The screen with the scratch directory written `<dir>`, padded so that the frame stays put.
fn masked(text: &str, dir: &std::path::Path) -> String {
    let dir = dir.to_string_lossy();
    let pad = " ".repeat(dir.chars().count().saturating_sub(5));
    text.replace(&format!("{dir}/mcp-snapshot.json"), &format!("<dir>/mcp-snapshot.json{pad}"))
}

/// A directory for one test's files, named relative to the package (the tests' working
/// directory): the screens show its paths, and a temporary directory's path is as long as the
/// machine makes it (`TMPDIR`), which would wrap the lines the tests read.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(format!("target/tui-ci-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// The demo's snapshot as `mcplens snapshot` writes it, changed into what an older server had:
/// echo's `repeat` allowed up to 20 (now 10: breaking), get_weather's `country` at least 3
/// long (now 2: compatible), list_issues without `states` (now optional: compatible), no
/// web_search (now new), a tool `legacy_export` (now removed), and a prompts capability.
fn older_snapshot(dir: &std::path::Path) -> PathBuf {
    let live = dir.join("live.json");
    let out = common::mcplens(&["snapshot", "-o", live.to_str().unwrap_or_default()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = std::fs::read_to_string(&live).unwrap_or_else(|e| panic!("{e}"));
    let mut doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let tools = doc["tools"].as_array_mut().unwrap_or_else(|| panic!("no tools"));
    for t in tools.iter_mut() {
        match t["name"].as_str() {
            Some("echo") => t["inputSchema"]["properties"]["repeat"]["maximum"] = json!(20),
            Some("get_weather") => t["inputSchema"]["properties"]["country"]["minLength"] = json!(3),
            Some("list_issues") => {
                t["inputSchema"]["properties"].as_object_mut().map(|p| p.remove("states"));
            }
            _ => {}
        }
    }
    tools.retain(|t| t["name"] != "web_search");
    tools.push(json!({"name": "legacy_export", "inputSchema": {"type": "object"}}));
    doc["server"]["capabilities"]["prompts"] = json!({});
    let path = dir.join("mcp-snapshot.json");
    std::fs::write(&path, doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// The demo connected, and told what the worker tells it after listing: the comparison with
/// the snapshot at `path`.
async fn compared_app(path: PathBuf) -> (App, mcplens::mcp::Session) {
    let (mut app, session) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tools = session.list_tools().await.unwrap_or_else(|e| panic!("{e}"));
    let source = Source { given: Some(path), candidates: vec![] };
    let outcome = match source.load() {
        Ok(Some(b)) => Ok(Arc::new(b.compare(&session.server, &session.target, &tools))),
        Ok(None) => panic!("no snapshot"),
        Err(e) => Err(e),
    };
    app.update(Msg::Session(SessionMsg::Compared(outcome)));
    (app, session)
}

#[tokio::test]
async fn tools_changed_since_the_snapshot_are_marked() {
    let dir = scratch("marks");
    let path = older_snapshot(&dir);
    let (mut app, _s) = compared_app(path.clone()).await;
    let since = app.tools().since.clone().unwrap_or_else(|| panic!("not compared"));
    assert_eq!(since.marks.get("echo"), Some(&Mark::Breaking));
    assert_eq!(since.marks.get("get_weather"), Some(&Mark::Compatible));
    assert_eq!(since.marks.get("list_issues"), Some(&Mark::Compatible));
    assert_eq!(since.marks.get("web_search"), Some(&Mark::New));
    assert_eq!(since.removed, ["legacy_export"]);
    assert_eq!(since.marks.len(), 4, "{:?}", since.marks);

    let mut screen = Screen::new(140, 32);
    // echo is the demo's last tool.
    screen.press(&mut app, KeyCode::Char('G'));
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some("echo"));
    let text = masked(&screen.text(&mut app), &dir);
    assert!(text.contains("Tools (19) ✗1 ~2 +1 −1"), "{text}");
    assert!(text.contains("BREAKING   /inputSchema/properties/repeat/maximum  bound tightened: 20 -> 10"), "{text}");
    insta::assert_snapshot!("marked_list", stable(&text));

    // The info pane: the file compared, the counts, each change, the removed tool.
    screen.press(&mut app, KeyCode::Char('i'));
    let text = masked(&screen.text(&mut app), &dir);
    for needle in [
        "file      <dir>/mcp-snapshot.json",
        "tools     1 with a breaking change, 2 changed compatibly, 1 new, 1 removed",
        "− removed legacy_export",
        "+ new      web_search",
        "BREAKING   /server/capabilities/prompts  capability removed",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    insta::assert_snapshot!("marked_info", stable(&text));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_unchanged_server_marks_nothing_and_a_new_tool_says_so() {
    let dir = scratch("same");
    let live = dir.join("mcp-snapshot.json");
    let out = common::mcplens(&["snapshot", "-o", live.to_str().unwrap_or_default()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (mut app, _s) = compared_app(live).await;
    let since = app.tools().since.clone().unwrap_or_else(|| panic!("not compared"));
    assert!(since.marks.is_empty() && since.removed.is_empty() && since.server.is_empty(), "{since:?}");
    let mut screen = Screen::new(120, 32);
    assert!(screen.text(&mut app).contains("Tools (19) · as snapshot"));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_bad_snapshot_is_a_warning_and_hostile_names_stay_text() {
    let dir = scratch("bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"mcplensSnapshot\": 1, \"tools\": [\u{1b}[2J").unwrap_or_else(|e| panic!("{e}"));
    let (mut app, _s) = compared_app(bad).await;
    assert!(app.tools().since.is_none());
    let mut screen = Screen::new(120, 32);
    let text = screen.text(&mut app);
    assert!(text.contains("bad.json not compared: not JSON"), "{text}");
    assert!(text.contains("Tools (19)") && !text.contains('\u{1b}'), "{text}");

    // A snapshot from a server whose removed tool's name carries a terminal control.
    let odd = dir.join("odd.json");
    let doc = json!({"mcplensSnapshot": 1, "server": {}, "tools": [{"name": "evil\u{1b}]52;c;aGk=\u{7}", "inputSchema": {}}]});
    std::fs::write(&odd, doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let (mut app, _s) = compared_app(odd).await;
    screen.press(&mut app, KeyCode::Char('i'));
    let text = screen.text(&mut app);
    assert!(text.contains("− removed evil\\x1b]52;c;aGk=\\x07"), "{text}");
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'));
    let _ = std::fs::remove_dir_all(dir);
}

/// Durations change run to run: each one, and the padding after it, written `N ms `.
fn timeless(name: &str, text: &str) {
    insta::with_settings!({filters => vec![(r"\d+ ms(\)?) *", "N ms$1 ")]}, {
        insta::assert_snapshot!(name, stable(text));
    });
}

async fn demo_app() -> (App, Arc<mcplens::mcp::Session>) {
    let (app, session) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(session))
}

/// Selects `tool` with the filter and runs it with its form's defaults.
async fn run_tool(screen: &mut Screen, app: &mut App, session: &Arc<mcplens::mcp::Session>, tool: &str) {
    screen.press(app, KeyCode::Char('/'));
    screen.type_text(app, tool);
    screen.press(app, KeyCode::Enter);
    screen.press(app, KeyCode::Enter);
    let cmds = screen.press_with(app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(matches!(cmds.first(), Some(Cmd::Call { .. })), "{cmds:?}");
    execute(app, session, cmds).await;
}

#[tokio::test]
async fn s_saves_the_call_on_screen_and_the_saved_collection_passes() {
    let dir = scratch("save");
    let file = dir.join("calls.toml");
    let (mut app, session) = demo_app().await;
    app.set_up(SetUp { collection_file: Some(file.clone()), ..SetUp::default() });
    let mut screen = Screen::new(120, 36);
    run_tool(&mut screen, &mut app, &session, "list_issues").await;
    assert!(screen.press(&mut app, KeyCode::Char('S')).is_empty());
    let text = screen.text(&mut app);
    for needle in [
        "name list_issues1",
        "[x] status is ok",
        "[x] responseType is list",
        "[x] envelope:/data holds 20 items",
        "[ ] takes at most",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    timeless("save_overlay", &text);
    // The name is typed over; then Enter writes the file.
    screen.press(&mut app, KeyCode::Backspace);
    screen.type_text(&mut app, "_first");
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert!(matches!(cmds.first(), Some(Cmd::SaveCall { call, .. }) if call.name == "list_issues_first"), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    assert!(app.outline().overlays.is_empty());
    let notice = app.outline().notice.map(|n| n.0).unwrap_or_default();
    assert!(notice.starts_with("saved call \"list_issues_first\" in ") && notice.contains("calls.toml"), "{notice}");

    // What `mcplens test` does with it: the core reads it, runs each call and checks it.
    let collection = mcplens::collection::load(&file).unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(collection.calls.len(), 1);
    let call = &collection.calls[0];
    assert_eq!((call.tool.as_str(), call.expect.at.len()), ("list_issues", 1));
    let tools = session.list_tools().await.unwrap_or_else(|e| panic!("{e}"));
    let descriptor = tools.find("list_issues").map(|t| t.value().clone());
    let opts = mcplens::collection::RunOptions::default();
    let seen = mcplens::collection::run(&session, call, descriptor.as_ref(), None, &opts).await;
    assert_eq!(mcplens::collection::evaluate(&call.expect, &seen), vec![]);

    // Saved again under the same name: replaced, not added.
    screen.press(&mut app, KeyCode::Char('S'));
    screen.press(&mut app, KeyCode::Backspace);
    screen.type_text(&mut app, "_first");
    let cmds = screen.press(&mut app, KeyCode::Enter);
    execute(&mut app, &session, cmds).await;
    let again = mcplens::collection::load(&file).unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(again.calls.len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_collection_pane_runs_calls_and_shows_pass_and_fail() {
    let dir = scratch("pane");
    let file = dir.join("mcplens-calls.toml");
    let toml = r#"
[[call]]
name = "echo_hello"
tool = "echo"
arguments = { message = "hello" }
[call.expect]
status = "ok"
[[call.expect.at]]
path = "/structuredContent/arguments/message"
equals = "hello"

[[call.expect]]
"#;
    // A broken file first: the pane says why, the session goes on.
    std::fs::write(&file, toml).unwrap_or_else(|e| panic!("{e}"));
    let (mut app, session) = demo_app().await;
    app.set_up(SetUp { collection_file: Some(file.clone()), ..SetUp::default() });
    let mut screen = Screen::new(120, 30);
    let cmds = screen.press(&mut app, KeyCode::Char('K'));
    assert_eq!(cmds, vec![Cmd::LoadCollection(file.clone())]);
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains("cannot read the collection"), "{}", screen.text(&mut app));

    let toml = toml.replace("[[call.expect]]\n", "")
        + r#"
[[call]]
name = "weather_wrong"
tool = "get_weather"
arguments = { city = "Paris" }
[call.expect]
response_type = "list"
[[call.expect.at]]
path = "envelope:/data/temperature"
equals = 99
"#;
    std::fs::write(&file, toml).unwrap_or_else(|e| panic!("{e}"));
    // K hides the pane, K again shows it and reads the file again.
    screen.press(&mut app, KeyCode::Char('K'));
    let cmds = screen.press(&mut app, KeyCode::Char('K'));
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("not run         echo_hello  echo"), "{text}");
    let cmds = screen.press(&mut app, KeyCode::Char('a'));
    assert!(matches!(&cmds[..], [Cmd::RunSaved(calls)] if calls.len() == 2), "{cmds:?}");
    let text = screen.text(&mut app);
    assert!(text.contains("2 calls · 2 running") && text.contains("Ctrl-K cancel call"), "{text}");
    // While they run, `a` again is refused and Ctrl-K stops the run.
    assert!(screen.press(&mut app, KeyCode::Char('a')).is_empty());
    assert_eq!(screen.press_with(&mut app, KeyCode::Char('k'), KeyModifiers::CONTROL), vec![Cmd::Cancel]);
    let (before, kept) = (app.calls().0.entries.len(), app.calls().1.len());
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("2 calls · 1 pass · 1 FAIL"), "{text}");
    assert!(!text.contains("Ctrl-K cancel call"), "{text}");
    // Each run is in the history like any call.
    let ran: Vec<&str> = app.calls().0.entries[before..].iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(ran, ["echo", "get_weather"]);
    // And its result reopens from there, the reply whole.
    let reopened: Vec<bool> = app.calls().1[kept..].iter().map(|(_, r)| r.reply.is_some()).collect();
    assert_eq!(reopened, [true, true]);
    timeless("collection_pane", &text);

    // Enter on the failed row: its failures.
    screen.press(&mut app, KeyCode::Char('j'));
    assert!(screen.press(&mut app, KeyCode::Enter).is_empty());
    let text = screen.text(&mut app);
    assert!(text.contains("weather_wrong: 2 failed"), "{text}");
    assert!(text.contains("response_type: expected list, got single"), "{text}");
    assert!(text.contains("envelope:/data/temperature: expected equals 99, got 14.2"), "{text}");
    // Esc closes them; Enter on the passing row runs it again.
    screen.press(&mut app, KeyCode::Esc);
    screen.press(&mut app, KeyCode::Char('k'));
    let cmds = screen.press(&mut app, KeyCode::Enter);
    assert!(matches!(&cmds[..], [Cmd::RunSaved(calls)] if calls[0].0.name == "echo_hello"), "{cmds:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A cancelled run (Ctrl-K) runs no further call and names the ones left, which the pane shows
/// as not run again.
#[tokio::test]
async fn a_cancelled_collection_run_stops_and_its_calls_are_not_run() {
    let (mut app, session) = demo_app().await;
    let call = |name: &str| mcplens::collection::SavedCall::new(name, "echo", None);
    let cancel = mcplens::mcp::Cancel::new();
    cancel.cancel();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let both = vec![(call("one"), None), (call("two"), None)];
    mcplens::ui::saved::run(session.clone(), (Default::default(), Default::default()), both, cancel, tx).await;
    let mut heard = vec![];
    while let Ok(Msg::Session(SessionMsg::SavedRun(m))) = rx.try_recv() {
        heard.push(format!("{m:?}"));
        app.update(Msg::Session(SessionMsg::SavedRun(m)));
    }
    assert_eq!(heard, [r#"Finished { not_run: ["one", "two"] }"#]);
    assert!(!app.saved_running());
}

/// `R` during the collection's run: the call it stops is said as a single call's result says
/// it ("cancelled: reconnecting"), in the pane and in the result the history reopens, not as a
/// FAIL; the calls left are not run.
#[tokio::test]
async fn a_collection_run_stopped_by_a_reconnect_says_so() {
    let dir = scratch("reconnect");
    let file = dir.join("mcplens-calls.toml");
    let toml = r#"
[[call]]
name = "slow_one"
tool = "slow_task"
arguments = { steps = 100, delay_ms = 100 }
[call.expect]
status = "ok"

[[call]]
name = "echo_after"
tool = "echo"
arguments = { message = "hi" }
"#;
    std::fs::write(&file, toml).unwrap_or_else(|e| panic!("{e}"));
    let (mut app, session) = demo_app().await;
    app.set_up(SetUp { collection_file: Some(file.clone()), ..SetUp::default() });
    let mut screen = Screen::new(120, 30);
    let cmds = screen.press(&mut app, KeyCode::Char('K'));
    execute(&mut app, &session, cmds).await;
    let cmds = screen.press(&mut app, KeyCode::Char('a'));
    let Some(Cmd::RunSaved(calls)) = cmds.into_iter().next() else { panic!("a ran nothing") };
    assert_eq!(screen.press(&mut app, KeyCode::Char('R')), vec![Cmd::Reconnect]);
    // The worker stops the run as R does (see worker::stop_call).
    let cancel = mcplens::mcp::Cancel::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        stop.cancel_for(mcplens::mcp::cancel::RECONNECTING);
    });
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let kept = app.calls().1.len();
    mcplens::ui::saved::run(session.clone(), (Default::default(), Default::default()), calls, cancel, tx).await;
    while let Ok(msg) = rx.try_recv() {
        app.update(msg);
    }
    let text = screen.text(&mut app);
    assert!(text.contains("2 calls · 1 cancelled"), "{text}");
    let row = text.lines().find(|l| l.contains("slow_one")).unwrap_or_default();
    assert!(row.contains("cancelled: reconnecting (") && !row.contains("FAIL"), "{text}");
    let left = text.lines().find(|l| l.contains("echo_after")).unwrap_or_default();
    assert!(left.contains("not run "), "{text}");
    // The names stay in one column past the longest state.
    let at = |row: &str, name: &str| row.find(name).map(|i| row[..i].chars().count());
    assert_eq!(at(row, "slow_one"), at(left, "echo_after"), "{text}");
    timeless("collection_stopped_by_reconnect", &text);
    let reopened: Vec<Option<&str>> = app.calls().1[kept..].iter().map(|(_, r)| r.error.as_deref()).collect();
    assert_eq!(reopened, [Some("cancelled: reconnecting")]);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_snapshot_of_another_server_is_said_and_marks_nothing() {
    let dir = scratch("other");
    let path = dir.join("mcp-snapshot.json");
    let everything = common::server_everything();
    let out = common::mcplens(&[
        "snapshot",
        "-o",
        path.to_str().unwrap_or_default(),
        "--",
        "node",
        everything.to_str().unwrap_or_default(),
        "stdio",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (mut app, _s) = compared_app(path.clone()).await;
    let since = app.tools().since.clone().unwrap_or_else(|| panic!("not compared"));
    assert!(since.marks.is_empty() && since.removed.is_empty() && since.server.is_empty(), "{since:?}");
    let why = since.other_server.clone().unwrap_or_default();
    assert!(why.contains("\"mcp-servers/everything\"") && why.contains("\"mcplens-demo\""), "{why}");
    let mut screen = Screen::new(160, 45);
    let text = screen.text(&mut app);
    assert!(text.contains("Tools (19) · snapshot of another server"), "{text}");
    assert!(text.contains("not compared: the snapshot is of server"), "{text}");
    screen.press(&mut app, KeyCode::Char('i'));
    assert!(screen.text(&mut app).contains("not compared: the snapshot is of server"));
    // Headless, the diff is made but says so first.
    let d = common::mcplens(&["diff", path.to_str().unwrap_or_default()]);
    assert!(
        common::stderr(&d).contains("warning: the snapshot is of server \"mcp-servers/everything\""),
        "{}",
        common::stderr(&d)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A snapshot records what it was taken of. Found beside a server started another way (here
/// another command line for the same demo), it is not applied and the status line says both;
/// named with --snapshot it is compared, with the same words beside the changes. `diff` says so
/// on stderr and compares.
#[tokio::test]
async fn a_snapshot_of_another_target_is_said_and_applied_only_when_named() {
    let dir = scratch("target");
    let path = dir.join("mcp-snapshot.json");
    let out = common::mcplens(&["snapshot", "-o", path.to_str().unwrap_or_default()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc["target"]["args"], json!(["demo-server"]), "{text:.300}");
    doc["target"] = json!({"command": "/opt/bin/mcplens", "args": ["demo-server", "--slow"]});
    std::fs::write(&path, doc.to_string()).unwrap_or_else(|e| panic!("{e}"));

    let (mut app, session) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tools = session.list_tools().await.unwrap_or_else(|e| panic!("{e}"));
    let found = Source { given: None, candidates: vec![path.clone()] };
    let Ok(Some(baseline)) = found.load() else { panic!("not found") };
    let compared = baseline.compare(&session.server, &session.target, &tools);
    let why = compared.other_server.clone().unwrap_or_default();
    assert!(
        why.starts_with("snapshot taken of \"mcplens demo-server --slow\", this is \"mcplens demo-server\""),
        "{why}"
    );
    assert!(why.contains("--snapshot "), "{why}");
    app.update(Msg::Session(SessionMsg::Compared(Ok(Arc::new(compared)))));
    let mut screen = Screen::new(160, 45);
    assert!(screen.text(&mut app).contains("not compared: snapshot taken of"));

    let given = Source { given: Some(path.clone()), candidates: vec![] };
    let Ok(Some(baseline)) = given.load() else { panic!("not read") };
    let compared = baseline.compare(&session.server, &session.target, &tools);
    assert!(compared.other_server.is_none() && compared.marks.is_empty(), "{compared:?}");
    assert!(compared.note.as_deref().is_some_and(|n| n.starts_with("snapshot taken of")), "{compared:?}");
    app.update(Msg::Session(SessionMsg::Compared(Ok(Arc::new(compared)))));
    assert!(screen.text(&mut app).contains("compared: snapshot taken of"));

    let d = common::mcplens(&["diff", path.to_str().unwrap_or_default()]);
    let err = common::stderr(&d);
    assert!(err.contains("note: snapshot taken of \"mcplens demo-server --slow\""), "{err}");
    assert!(String::from_utf8_lossy(&d.stdout).contains("no changes"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
