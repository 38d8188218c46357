//! What a user found in the TUI against the demo server, driven by key events: a key an overlay
//! handled never reaches the pane under it, form messages follow the form's state, explicit
//! values show, empty lists say so, cut text says where it is cut.

mod common;

use std::sync::Arc;

use crossterm::event::KeyCode;
use mcplens::ui::app::{App, Pane};
use mcplens::ui::headless::{Screen, connected_app};
use mcplens::ui::theme::Theme;

async fn setup() -> (App, Arc<mcplens::mcp::Session>, Screen) {
    let (app, s) = connected_app(&common::demo(), Theme::default(), "embedded demo server")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(s), Screen::new(120, 40))
}

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
