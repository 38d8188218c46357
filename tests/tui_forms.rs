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
