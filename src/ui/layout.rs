//! Where the panes go: the focus order's panes, and the screen cut among them from a few facts
//! of the model's state. Pure: the update uses it for mouse hits and page sizes, the draw to
//! place the panes.

use ratatui::layout::{Constraint, Layout, Rect};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Tools,
    Schema,
    Form,
    Result,
    Log,
    /// The docked pane shown in the schema's place (`Panes::shown`).
    Docked,
}

/// Where things were drawn last, for mouse hit-testing.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub top: Rect,
    pub footer: Rect,
    pub tools: Rect,
    pub schema: Rect,
    pub result: Rect,
    pub log: Rect,
}

/// What the layout depends on: the model's state in four facts.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub zoom: bool,
    pub focus: Pane,
    pub show_log: bool,
    /// A result is shown or a call is running.
    pub has_result: bool,
}

/// Where each pane goes on a screen of `area`; a pane not shown gets an empty rectangle. Pure:
/// the update uses it for mouse hits and page sizes, the draw to place the panes.
pub fn layout(app: Shape, area: Rect) -> Areas {
    let [top, main, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3), Constraint::Length(1)]).areas(area);
    let mut a = Areas { top, footer, ..Areas::default() };
    if app.zoom {
        match app.focus {
            Pane::Tools => a.tools = main,
            Pane::Schema | Pane::Form | Pane::Docked => a.schema = main,
            Pane::Result => a.result = main,
            Pane::Log => a.log = main,
        }
        return a;
    }
    let main = if app.show_log {
        let [m, l] = Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(main);
        a.log = l;
        m
    } else {
        main
    };
    let [tools, right] = Layout::horizontal([Constraint::Percentage(34), Constraint::Percentage(66)]).areas(main);
    // The focused one of schema/form and result gets the room; a result left from an earlier
    // call does not squeeze the form being filled in.
    let has_result = app.has_result;
    let result_h = match app.focus {
        Pane::Result => Constraint::Percentage(75),
        Pane::Form | Pane::Schema | Pane::Docked if has_result => Constraint::Percentage(30),
        _ if has_result => Constraint::Percentage(50),
        _ => Constraint::Length(6),
    };
    let [schema, result] = Layout::vertical([Constraint::Min(6), result_h]).areas(right);
    (a.tools, a.schema, a.result) = (tools, schema, result);
    a
}
