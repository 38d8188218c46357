//! What every result view is: a [`ResultView`] holds what it built from the call (trees, a
//! table, styled text) and its own state (scroll, search, the side shown), draws it, and answers
//! the keys that only it knows. The list of views is in `views`: adding one is a file there and
//! its name in that list.

use ratatui::Frame;
use ratatui::layout::Rect;
use serde_json::Value;

use super::table::Table;
use super::text::TextView;
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::Command;
use crate::ui::msg::CallResult;
use crate::ui::theme::Theme;

/// The part of the shown view that takes keys: search, navigation, `o`, copy.
pub enum Focus<'a> {
    Tree(&'a mut JsonView),
    Table(&'a mut Table),
    Text(&'a mut TextView),
    None,
}

/// What a view did with a command of its own (`s`, `d`).
pub enum Answer {
    /// Not a command this view knows: the pane says where it works.
    NotMine,
    Done,
    /// Done, and the status line says so.
    Notice(&'static str),
}

/// What drawing needs besides the area: the theme, whether the pane has focus, and the number
/// of the page's first item (a table's `#` column counts from it).
pub struct Draw<'a> {
    pub theme: &'a Theme,
    pub focused: bool,
    pub first_item: usize,
}

/// One view of a call's result. Built the first time it is shown, never while drawing.
pub trait ResultView {
    /// The part that takes keys.
    fn focus_mut(&mut self) -> Focus<'_>;

    /// Whether a search prompt is open (it takes every printable key).
    fn typing(&self) -> bool;

    fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw);

    /// A command only this view knows.
    fn command(&mut self, _cmd: Command, _call: &CallResult, _theme: &Theme) -> Answer {
        Answer::NotMine
    }

    /// Esc: closes what the view opened (a record); false if nothing was open.
    fn back(&mut self) -> bool {
        false
    }

    /// The selected node as a JSON pointer into the result, with its value (what a hint taught
    /// here names); None where the view is not a tree of the result.
    fn pointer(&mut self) -> Option<(String, Value)> {
        None
    }

    /// Text to copy (`y`): the selected value by default.
    fn copy_text(&mut self) -> Option<String> {
        match self.focus_mut() {
            Focus::Tree(v) => v.selected_text().map(str::to_string),
            Focus::Table(t) => t.selected_text(),
            _ => None,
        }
    }

    /// What `e` writes when this view is shown, `(kind, text)`; None: the envelope.
    fn export(&self, _call: &CallResult) -> Option<(&'static str, String)> {
        None
    }

    /// Where each content block starts and the top line shown, in a view that shows the blocks
    /// (`O` reads the first resource from there on).
    fn block_position(&self) -> Option<(&[usize], usize)> {
        None
    }

    /// Whether the view reads the envelope (rebuilt when a taught hint reads the reply again);
    /// the others read the reply only and are kept with their state.
    fn reads_envelope(&self) -> bool {
        false
    }
}

/// A registered view: its name and how it is built.
pub struct Kind {
    /// Shown in the pane's title.
    pub name: &'static str,
    pub build: fn(&CallResult, &Theme) -> Box<dyn ResultView>,
    /// Over `SHED_OVER` bytes of reply, dropped when it leaves the screen (rebuilt when shown
    /// again): each tree costs a row model of ~32 bytes per JSON node.
    pub shed: bool,
}

/// A tree's selected node as a pointer: `prefix`, then the node's path (for a tree of the whole
/// reply, `strip_result`, the path below `result`).
pub fn tree_pointer(v: &JsonView, prefix: &[&str], strip_result: bool) -> Option<(String, Value)> {
    let mut segs = v.segments();
    if strip_result {
        if segs.first().map(String::as_str) != Some("result") {
            return None;
        }
        segs.remove(0);
    }
    let value = v.selected_text().and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null);
    let pointer: String = prefix
        .iter()
        .map(|s| s.to_string())
        .chain(segs)
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect();
    Some((pointer, value))
}
