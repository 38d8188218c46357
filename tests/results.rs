//! The result views on TestBackend against the demo server's shapes: each view, paging forward
//! and back, gathering every page, copying.

mod common;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use mcplens::ui::app::{App, Cmd, Pane};
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;
use serde_json::{Value, json};

async fn setup() -> (App, Arc<mcplens::mcp::Session>, Screen) {
    let (app, s) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(s), Screen::new(120, 40))
}

/// Runs `tool` with `args` through its form (JSON mode) and waits for the result.
async fn run(app: &mut App, session: &Arc<mcplens::mcp::Session>, screen: &mut Screen, tool: &str, args: Value) {
    screen.press(app, KeyCode::Esc);
    screen.press(app, KeyCode::Esc);
    screen.press(app, KeyCode::Esc);
    assert!(screen.focus(app, Pane::Tools));
    if !app.tools().filter.is_empty() {
        // Esc in the tool list clears its filter.
        screen.press(app, KeyCode::Esc);
    }
    screen.press(app, KeyCode::Char('/'));
    screen.type_text(app, tool);
    screen.press(app, KeyCode::Enter);
    assert_eq!(app.selected_tool().map(|t| t.name().to_string()).as_deref(), Some(tool));
    screen.press(app, KeyCode::Enter);
    if app.form().is_some_and(|f| f.raw.is_none()) {
        // A form opened before comes back as it was left: in JSON mode already, or not.
        screen.press_with(app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    }
    screen.type_json(app, &args.to_string());
    let cmds = screen.press_with(app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(
        matches!(cmds.first(), Some(Cmd::Call { .. })),
        "{tool}: {cmds:?} {:?}",
        app.form().map(|f| f.message.clone())
    );
    execute(app, session, cmds).await;
    assert_eq!(app.outline().focus, Pane::Result);
}

fn stable(t: &str) -> String {
    // Durations vary run to run: "(12 ms)" becomes "(N ms)".
    let text = t.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(" ms)") {
        let head = &rest[..i];
        match head.rfind('(') {
            Some(open) if head[open + 1..].chars().all(|c| c.is_ascii_digit()) => {
                out.push_str(&head[..open]);
                out.push_str("(N ms)");
                // Keep the line's width, so what follows does not move with the duration.
                out.push_str(&" ".repeat(head.len() - open - 2));
            }
            _ => {
                out.push_str(head);
                out.push_str(" ms)");
            }
        }
        rest = &rest[i + 4..];
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn envelope_view_shows_lists_as_tables_objects_as_trees_and_errors_standing_out() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "discord_list_channels", json!({"limit": 5})).await;
    let text = screen.text(&mut app);
    assert!(text.contains("list · success · items 1–5 of 150 · page 1 · ] next · A all pages"), "{text}");
    assert!(text.contains("# id") && text.contains("general") && text.contains("nsfw"), "{text}");
    insta::assert_snapshot!("envelope_table", stable(&text));
    // Enter opens a record as a JSON tree; Esc closes it.
    screen.press(&mut app, KeyCode::Char('j'));
    screen.press(&mut app, KeyCode::Enter);
    assert!(screen.text(&mut app).contains("\"name\": \"random\""));
    screen.press(&mut app, KeyCode::Esc);
    assert!(screen.text(&mut app).contains("# id"));

    run(&mut app, &session, &mut screen, "get_weather", json!({"city": "Osaka"})).await;
    let text = screen.text(&mut app);
    assert!(text.contains("single") && text.contains("\"city\": \"Osaka\""), "{text}");

    run(&mut app, &session, &mut screen, "yourls_shorten_url", json!({"url": "https://sho.rt/x"})).await;
    let text = screen.text(&mut app);
    assert!(text.contains("✖ error \"error:already_shortened\" This URL appears"), "{text}");
    assert!(text.contains("details:") && text.contains("\"originalUrl\": \"https://sho.rt/x\""), "{text}");
    insta::assert_snapshot!("envelope_error", stable(&text));
}

#[tokio::test]
async fn split_view_puts_structured_content_beside_meta() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "shop_search_products", json!({})).await;
    screen.press(&mut app, KeyCode::Char('2'));
    let text = screen.text(&mut app);
    let same_row = text.lines().any(|l| l.contains("structuredContent") && l.contains("_meta"));
    assert!(same_row, "the two panes must be side by side:\n{text}");
    assert!(
        text.lines().any(|l| l.contains("\"totalCount\": 87") && l.contains("\"uiType\": \"shopify-products\"")),
        "{text}"
    );
    insta::assert_snapshot!("split", stable(&text));
    // The outputSchema check.
    run(&mut app, &session, &mut screen, "server_status", json!({})).await;
    screen.press(&mut app, KeyCode::Char('2'));
    assert!(screen.text(&mut app).contains("✔ structuredContent fits the tool's outputSchema"));
    // A result without structuredContent says so plainly.
    run(&mut app, &session, &mut screen, "web_search", json!({"query": "q"})).await;
    screen.press(&mut app, KeyCode::Char('2'));
    let text = screen.text(&mut app);
    assert!(text.contains("│absent") && text.contains("this result has no structuredContent"), "{text}");
}

#[tokio::test]
async fn content_and_raw_views() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "get_resources", json!({})).await;
    screen.press(&mut app, KeyCode::Char('3'));
    let text = screen.text(&mut app);
    for needle in [
        "#1 resource · demo://notes/readme.md · text/markdown",
        "# Demo notes",
        "- first item",
        "#2 resource_link · demo://files/report.pdf",
        "mimeType: \"application/pdf\"",
        "#3 audio · audio/wav · 52 bytes",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    insta::assert_snapshot!("content", stable(&text));
    run(&mut app, &session, &mut screen, "get_image", json!({})).await;
    screen.press(&mut app, KeyCode::Char('3'));
    assert!(screen.text(&mut app).contains("#1 image · image/png · 463 bytes · 16×16"), "{}", screen.text(&mut app));
    screen.press(&mut app, KeyCode::Char('v'));
    let text = screen.text(&mut app);
    assert!(text.contains("Raw") && text.contains("\"jsonrpc\": \"2.0\""), "{text}");
    // Search in the raw tree, with the path of the match.
    screen.press(&mut app, KeyCode::Char('/'));
    screen.type_text(&mut app, "caption");
    screen.press(&mut app, KeyCode::Enter);
    assert!(screen.text(&mut app).contains("reply.result.content[1].text"), "{}", screen.text(&mut app));
}

#[tokio::test]
async fn paging_forward_and_back_shows_the_right_items() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "discord_list_channels", json!({"limit": 20, "type": "text"})).await;
    let first =
        app.result().and_then(|r| r.call.envelope.as_ref()).and_then(|e| e.items().next().map(|i| i["name"].clone()));
    let cmds = screen.press(&mut app, KeyCode::Char(']'));
    // The next page keeps the other arguments and moves the offset.
    assert!(
        matches!(cmds.first(), Some(Cmd::Call { arguments, .. }) if arguments == &json!({"limit": 20, "type": "text", "offset": 20})),
        "{cmds:?}"
    );
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("items 21–40 of") && text.contains("2 of 2 fetched"), "{text}");
    assert_eq!(app.result().map(|r| r.page.first_item), Some(20));
    // Back: the kept page, not fetched again.
    let cmds = screen.press(&mut app, KeyCode::Char('['));
    assert!(cmds.is_empty());
    assert_eq!(
        app.result().and_then(|r| r.call.envelope.as_ref()).and_then(|e| e.items().next().map(|i| i["name"].clone())),
        first
    );
    assert!(screen.text(&mut app).contains("items 1–20 of"));
    // Forward again: also kept.
    assert!(screen.press(&mut app, KeyCode::Char(']')).is_empty());
    // A gathers every item once.
    let cmds = screen.press(&mut app, KeyCode::Char('A'));
    // From the second page shown, it goes on from there, and the call it records is the first
    // page's: the gathered list starts there.
    assert!(
        matches!(cmds.first(), Some(Cmd::AllPages { arguments, first, .. })
            if arguments["offset"] == 20 && first == &json!({"limit": 20, "type": "text"})),
        "{cmds:?}"
    );
    execute(&mut app, &session, cmds).await;
    assert_eq!(app.result().map(|r| r.call.arguments.clone()), Some(json!({"limit": 20, "type": "text"})));
    let env = app.result().and_then(|r| r.call.envelope.clone()).unwrap_or_else(|| panic!("no result"));
    let ids: std::collections::HashSet<String> = env.items().map(|i| i["id"].to_string()).collect();
    let expected =
        (0..mcplens::demo::data::CHANNEL_COUNT).filter(|&i| mcplens::demo::data::channel(i)["type"] == "text").count();
    assert!(env.items().all(|i| i["type"] == "text"));
    assert_eq!(ids.len(), env.item_count(), "every item exactly once");
    assert_eq!(env.item_count(), expected);
    assert_eq!(env.summary.as_ref().and_then(|s| s.returned), Some(env.item_count() as u64));
    assert!(screen.text(&mut app).contains("gathered from"));
    // The Split view of a gathered list says where each page's sides are, not that they are absent.
    screen.press(&mut app, KeyCode::Char('2'));
    let text = screen.text(&mut app);
    assert!(text.contains("gathered from several pages") && !text.contains("absent"), "{text}");
    assert!(text.contains("the tool declares no outputSchema"), "{text}");
}

#[tokio::test]
async fn copy_sends_the_selected_value_to_the_clipboard() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "discord_get_user_info", json!({"user_id": "ada0"})).await;
    screen.press(&mut app, KeyCode::Char('j'));
    let cmds = screen.press(&mut app, KeyCode::Char('y'));
    assert!(matches!(cmds.first(), Some(Cmd::Copy(t)) if t.starts_with('"')), "{cmds:?}");
    let cmds = screen.press(&mut app, KeyCode::Char('e'));
    assert!(
        matches!(cmds.first(), Some(Cmd::Export { name, text }) if name == "discord_get_user_info-envelope" && text.contains("\"responseType\": \"single\"")),
        "{cmds:?}"
    );
}

#[tokio::test]
async fn result_views_survive_tiny_terminals() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "shop_search_products", json!({})).await;
    for view in ['1', '2', '3', '4'] {
        screen.press(&mut app, KeyCode::Char(view));
        screen.press(&mut app, KeyCode::Char('G'));
        for (w, h) in [(1, 1), (3, 2), (12, 4), (30, 6), (200, 3)] {
            Screen::new(w, h).render(&mut app);
        }
    }
}

#[tokio::test]
async fn a_list_that_holds_more_than_it_sent_but_cannot_page_says_why() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "web_search", json!({"query": "rust", "maxResults": 5})).await;
    let cmds = screen.press(&mut app, KeyCode::Char(']'));
    assert!(cmds.is_empty(), "{cmds:?}");
    let text = screen.text(&mut app);
    assert!(text.contains("no next page: the server says 1005 in all and sent items 1–5"), "{text}");
}

/// On the last page, `]` says it is the last (not that the server gives no way on), and `A`
/// gathers the pages fetched already, asking for none.
#[tokio::test]
async fn on_the_last_page_next_says_so_and_all_pages_gathers_the_fetched_ones() {
    let (mut app, session, mut screen) = setup().await;
    let total = mcplens::demo::data::CHANNEL_COUNT;
    run(&mut app, &session, &mut screen, "discord_list_channels", json!({"limit": 100})).await;
    let cmds = screen.press(&mut app, KeyCode::Char(']'));
    execute(&mut app, &session, cmds).await;
    assert!(screen.text(&mut app).contains(&format!("of {total} · page 2 · last page")), "{}", screen.text(&mut app));
    assert!(screen.press(&mut app, KeyCode::Char(']')).is_empty());
    let text = screen.text(&mut app);
    assert!(
        text.contains(&format!("this is the last page: {total} in all")) && !text.contains("no next page"),
        "{text}"
    );
    let cmds = screen.press(&mut app, KeyCode::Char('A'));
    assert!(matches!(cmds.first(), Some(Cmd::AllPages { known, .. }) if known.len() == 2), "{cmds:?}");
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains(&format!("items 1–{total} of {total} · last page · gathered from 2 pages")), "{text}");
}

#[tokio::test]
async fn a_call_from_an_offset_says_the_true_positions_on_every_page() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "discord_list_channels", json!({"offset": 20, "limit": 20})).await;
    let total = mcplens::demo::data::CHANNEL_COUNT;
    let text = screen.text(&mut app);
    assert!(text.contains(&format!("items 21–40 of {total} · page 2")), "{text}");
    // The `#` column counts from the offset too: the first row is item 21.
    assert!(text.contains("┃21 1100"), "{text}");
    let cmds = screen.press(&mut app, KeyCode::Char(']'));
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains(&format!("items 41–60 of {total} · page 3")), "{text}");
    let cmds = screen.press(&mut app, KeyCode::Char('A'));
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains(&format!("items 21–{total} of {total}")), "{text}");
    assert_eq!(app.result().map(|r| r.page.first_item), Some(20));
}

/// A call from `page=3` at 10 a page (the demo's shop search, paged by page/pageSize) holds items
/// 21–30, and says so in its header and `#` column; `]` goes on to page 4, `A` gathers from 21.
#[tokio::test]
async fn a_call_from_a_page_number_counts_items_from_that_page() {
    let (mut app, session, mut screen) = setup().await;
    run(&mut app, &session, &mut screen, "shop_search_products", json!({"page": 3, "pageSize": 10})).await;
    let text = screen.text(&mut app);
    assert!(text.contains("items 21–30 of 87 · page 3 · ] next"), "{text}");
    assert!(text.contains("┃21 "), "{text}");
    let cmds = screen.press(&mut app, KeyCode::Char(']'));
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("items 31–40 of 87 · page 4"), "{text}");
    assert!(text.contains("┃31 "), "{text}");
    let cmds = screen.press(&mut app, KeyCode::Char('A'));
    execute(&mut app, &session, cmds).await;
    let text = screen.text(&mut app);
    assert!(text.contains("items 21–87 of 87 · last page"), "{text}");
    assert_eq!(app.result().map(|r| r.page.first_item), Some(20));
}
