//! Two servers compared, over the server on screen: the same call's two envelopes (where they
//! differ, as JSON pointers, then both side by side), or the two tool lists through the
//! snapshot diff (`mcplens diff`'s changes, from the first server's list to the second's).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};
use serde_json::{Value, json};

use crate::mcp::ToolDescriptor;
use crate::sanitize;
use crate::ui::keymap::Command;
use crate::ui::msg::CallResult;
use crate::ui::theme::{Role, Theme};
use mcplens_core::value_diff::{Side, differences};

/// The most differences listed; the most lines of each envelope shown.
const MAX_DIFFERENCES: usize = 500;
const MAX_LINES: usize = 20_000;

enum Row {
    /// One line across the view.
    Full(String, Role),
    /// A line of each side; marked when the two differ.
    Pair(String, String),
}

pub(super) struct View {
    title: String,
    rows: Vec<Row>,
    top: usize,
}

impl View {
    /// `first` (on server `a`) and the same call's result on server `b`.
    pub(super) fn calls((a, first): (&str, &CallResult), (b, second): (&str, &CallResult)) -> View {
        let (a, b) = (sanitize::line(a).into_owned(), sanitize::line(b).into_owned());
        let (left, right) = (side(first), side(second));
        let args = crate::mcp::wire::with_exact_literals(&crate::deep::compact(&first.arguments)).into_owned();
        let args = sanitize::line_head(&args, 200).into_owned();
        let ms = |r: &CallResult| r.elapsed.as_millis();
        let mut rows = vec![Row::Full(
            format!("{} {args}: {a} in {} ms, {b} in {} ms", sanitize::line(&first.tool), ms(first), ms(second)),
            Role::Title,
        )];
        rows.extend(difference_rows(&left, &right, (&a, &b)));
        rows.push(Row::Full(String::new(), Role::Dim));
        rows.push(Row::Pair(format!("── {a} ──"), format!("── {b} ──")));
        rows.extend(aligned(&pretty(&left), &pretty(&right)));
        View { title: format!(" The same call on {a} and on {b} "), rows, top: 0 }
    }

    /// The tools of server `a` against those of server `b`.
    pub(super) fn tools((a, first): (&str, &[ToolDescriptor]), (b, second): (&str, &[ToolDescriptor])) -> View {
        let (a, b) = (sanitize::line(a).into_owned(), sanitize::line(b).into_owned());
        let list =
            |tools: &[ToolDescriptor]| json!({ "tools": tools.iter().map(|t| t.value().clone()).collect::<Vec<_>>() });
        let changes = crate::snapshot::compare(&list(first), &list(second));
        let mut rows = vec![Row::Full(
            format!("{a}: {} tools · {b}: {} tools · read as {a} becoming {b}", first.len(), second.len()),
            Role::Title,
        )];
        if changes.is_empty() {
            rows.push(Row::Full("The two tool lists are the same.".into(), Role::Ok));
        } else {
            let note = format!("{} changes (\"removed\": only {a} has it; \"added\": only {b} has it)", changes.len());
            rows.push(Row::Full(note, Role::Dim));
        }
        for c in changes {
            let role = match c.impact {
                crate::schema::diff::Impact::Breaking => Role::Breaking,
                crate::schema::diff::Impact::Compatible => Role::Compatible,
            };
            let line = format!("  {:<10} {}  {}", c.impact.label(), sanitize::line(&c.path), sanitize::line(&c.what));
            rows.push(Row::Full(line, role));
        }
        View { title: format!(" Tools of {a} and of {b} "), rows, top: 0 }
    }

    /// Moves the view (`page`: its height in rows).
    pub(super) fn command(&mut self, c: Command, page: usize) {
        let last = self.rows.len().saturating_sub(1);
        self.top = match c {
            Command::Down => self.top + 1,
            Command::Up => self.top.saturating_sub(1),
            Command::PageDown => self.top + page.max(1),
            Command::PageUp => self.top.saturating_sub(page.max(1)),
            Command::Top => 0,
            Command::Bottom => last,
            _ => self.top,
        }
        .min(last);
    }

    /// Its keys, for the footer.
    pub(super) fn hints(&self) -> Vec<(String, String)> {
        let keys = crate::ui::keymap::key(super::others::COMPARE_SCOPE, Command::Back);
        vec![("j/k PageUp/PageDown".into(), "move".into()), (keys, "close".into())]
    }

    /// Draws the rows in view over all of `area`.
    pub(super) fn draw(&self, f: &mut Frame, area: Rect, t: &Theme) {
        f.render_widget(Clear, area);
        let keys = crate::ui::keymap::key(super::others::COMPARE_SCOPE, Command::Back);
        // Nothing is drawn over the comparison: it always has the keys.
        let b = crate::ui::component::overlay_block(t, self.title.clone(), true)
            .title_bottom(Line::from(format!(" j/k PageUp/PageDown move · {keys} closes ")).style(t.paint(Role::Dim)));
        let inner = b.inner(area);
        f.render_widget(b, area);
        let half = inner.width.saturating_sub(3) / 2;
        for (y, row) in (inner.y..inner.bottom()).zip(self.rows.iter().skip(self.top)) {
            let line = Rect { y, height: 1, ..inner };
            match row {
                Row::Full(text, role) => f.render_widget(Paragraph::new(text.as_str()).style(t.paint(*role)), line),
                Row::Pair(l, r) => {
                    let style =
                        if l == r { t.paint(Role::Text) } else { t.paint(Role::Warning).add_modifier(Modifier::BOLD) };
                    let left = Rect { width: half, ..line };
                    let bar = Rect { x: line.x + half + 1, width: 1, ..line };
                    let right = Rect { x: line.x + half + 3, width: inner.width.saturating_sub(half + 3), ..line };
                    f.render_widget(Paragraph::new(l.as_str()).style(style), left);
                    f.render_widget(Paragraph::new("│").style(t.paint(Role::Dim)), bar);
                    f.render_widget(Paragraph::new(r.as_str()).style(style), right);
                }
            }
        }
    }
}

/// What a call's side shows: its envelope, or why there is none.
fn side(r: &CallResult) -> Value {
    match (&r.envelope, &r.error) {
        (Some(e), _) => serde_json::to_value(&**e).unwrap_or_else(|e| json!({ "error": e.to_string() })),
        (None, Some(why)) => json!({ "error": why }),
        (None, None) => json!({ "error": "no reply" }),
    }
}

/// The pretty-printed lines of `v`, bounded, each made safe for the terminal.
fn pretty(v: &Value) -> Vec<String> {
    let lines = crate::json_pretty::lines(&crate::deep::compact(v), MAX_LINES);
    lines.iter().map(|l| sanitize::line(&crate::json_pretty::to_string(std::slice::from_ref(l))).into_owned()).collect()
}

/// The two sides' lines side by side, the lines both have on the same row (a line only one side
/// has faces an empty one), as a line diff aligns them; a diff that takes too long stops
/// aligning (the rest is shown row by row).
fn aligned(l: &[String], r: &[String]) -> Vec<Row> {
    use similar::DiffOp;
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(300);
    let ops = similar::capture_diff_slices_deadline(similar::Algorithm::Myers, l, r, Some(deadline));
    let at = |lines: &[String], i: usize| lines.get(i).cloned().unwrap_or_default();
    let mut rows = vec![];
    for op in ops {
        let (old, new) = (op.old_range(), op.new_range());
        match op {
            DiffOp::Equal { .. } | DiffOp::Replace { .. } => {
                let n = old.len().max(new.len());
                rows.extend((0..n).map(|i| {
                    let left = if i < old.len() { at(l, old.start + i) } else { String::new() };
                    let right = if i < new.len() { at(r, new.start + i) } else { String::new() };
                    Row::Pair(left, right)
                }));
            }
            DiffOp::Delete { .. } => rows.extend(old.map(|i| Row::Pair(at(l, i), String::new()))),
            DiffOp::Insert { .. } => rows.extend(new.map(|i| Row::Pair(String::new(), at(r, i)))),
        }
    }
    rows
}

/// Where the two envelopes differ, a row each.
fn difference_rows(left: &Value, right: &Value, (a, b): (&str, &str)) -> Vec<Row> {
    let (found, more) = differences(left, right, MAX_DIFFERENCES);
    if found.is_empty() {
        return vec![Row::Full("The two envelopes are the same.".into(), Role::Ok)];
    }
    let more = if more { " (the first ones)" } else { "" };
    let head = format!("{} differences{more}: ← only {a} has it · → only {b} has it · ≠ both, different", found.len());
    let mut rows = vec![Row::Full(head, Role::Warning)];
    rows.extend(found.into_iter().map(|d| {
        let (mark, role) = match d.side {
            Side::Left => ("←", Role::Breaking),
            Side::Right => ("→", Role::Added),
            Side::Both => ("≠", Role::Warning),
        };
        let at = if d.pointer.is_empty() { "(the whole envelope)".to_string() } else { d.pointer };
        Row::Full(format!("  {mark} {}", sanitize::line(&at)), role)
    }));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    fn pairs(rows: Vec<Row>) -> Vec<(String, String)> {
        rows.into_iter()
            .filter_map(|r| match r {
                Row::Pair(l, r) => Some((l, r)),
                Row::Full(..) => None,
            })
            .collect()
    }

    #[test]
    fn lines_both_sides_have_share_a_row() {
        let rows =
            aligned(&lines(&["{", "  \"a\": 1,", "  \"b\": 2", "}"]), &lines(&["{", "  \"x\": 0,", "  \"b\": 3", "}"]));
        let got = pairs(rows);
        assert_eq!(got.first(), Some(&("{".to_string(), "{".to_string())));
        assert_eq!(got.last(), Some(&("}".to_string(), "}".to_string())));
        assert_eq!(got.len(), 4, "{got:?}");
        let rows = aligned(&lines(&["{", "}"]), &lines(&["{", "  \"more\": [", "  ]", "}"]));
        let got = pairs(rows);
        assert_eq!(got[1], (String::new(), "  \"more\": [".to_string()));
        assert_eq!(got[3], ("}".to_string(), "}".to_string()));
    }

    #[test]
    fn the_difference_rows_name_each_side() {
        let rows = difference_rows(&json!({"a": 1, "b": [1]}), &json!({"a": 2, "c": null}), ("one", "two"));
        let text: Vec<String> = rows
            .into_iter()
            .filter_map(|r| match r {
                Row::Full(t, _) => Some(t),
                Row::Pair(..) => None,
            })
            .collect();
        assert!(text[0].starts_with("3 differences"), "{text:?}");
        assert_eq!(&text[1..], ["  ← /b", "  → /c", "  ≠ /a"]);
    }
}
