//! The TUI's app connected to the embedded demo server, driven without a terminal, and the steps
//! tests of forms take on it.

use std::sync::Arc;

use crossterm::event::KeyCode;
use mcplens::ui::app::{App, Pane};
use mcplens::ui::headless::{Screen, connected_app};
use mcplens::ui::theme::Theme;

/// The app on the demo server, with a 120x40 screen.
pub async fn setup() -> (App, Arc<mcplens::mcp::Session>, Screen) {
    let (app, s) =
        connected_app(&super::demo(), Theme::default(), "embedded demo server").await.unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(s), Screen::new(120, 40))
}

/// Opens the form of the first tool the filter `filter` finds.
pub fn open(screen: &mut Screen, app: &mut App, filter: &str) {
    screen.press(app, KeyCode::Char('/'));
    screen.type_text(app, filter);
    screen.press(app, KeyCode::Enter);
    screen.press(app, KeyCode::Enter);
    assert_eq!(app.outline().focus, Pane::Form);
}

/// Moves the focus down to the next field named `key`.
pub fn go(screen: &mut Screen, app: &mut App, key: &str) {
    for _ in 0..60 {
        if app.form().and_then(|f| f.focused_field()).is_some_and(|f| f.key == key) {
            return;
        }
        screen.press(app, KeyCode::Down);
    }
    panic!("no field {key} below the focus");
}
