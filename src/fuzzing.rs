//! The checks of the fuzz targets for the files a user points mcplens at (`src/core/fuzz`:
//! `config`, `theme`, `keymap`), shared with the stable property test (tests/properties.rs) so
//! the suite runs them for a bounded time without nightly. Any text must give a value or an
//! error, never a panic, and an error must be a message fit for one status or stderr line.

use std::path::Path;

/// Any bytes as a config file (`mcp.json` shapes, JSONC, a BOM), with and without a server named.
pub fn check_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for server in [None, Some("x"), Some("")] {
        for dir in [None, Some(Path::new("/tmp"))] {
            match mcplens_core::mcp::config::parse(text, server, dir) {
                Ok((name, _)) => assert!(server.is_none_or(|s| s == name), "asked {server:?}, got {name:?}"),
                Err(e) => message_is_sound(&e.message),
            }
        }
    }
}

/// Any bytes as a theme file.
pub fn check_theme(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(e) = crate::ui::theme::Theme::from_text(text) {
        message_is_sound(&e);
    }
}

/// Any bytes as a keymap file.
pub fn check_keymap(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(e) = crate::ui::keymap::Keymap::with_user(text) {
        message_is_sound(&e);
    }
}

fn message_is_sound(msg: &str) {
    assert!(!msg.is_empty(), "an empty error message");
    // The message goes through the sanitizer where it is shown; it must at least be bounded.
    assert!(msg.len() < 64 << 10, "an error message of {} bytes", msg.len());
}
