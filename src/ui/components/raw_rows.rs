//! JSON text pretty-printed as sent, cut into rows of the pane's width: a line longer than the
//! pane (a long description) goes on in the rows below instead of running past the edge.

use ratatui::text::{Line, Span};

use crate::json_pretty::Line as Pretty;
use crate::sanitize;
use crate::ui::theme::Theme;

pub struct RawRows {
    lines: Vec<Pretty>,
    /// Each row on screen as (line, first character of the line it shows).
    rows: Vec<(usize, usize)>,
    width: usize,
}

impl RawRows {
    pub fn new(lines: Vec<Pretty>) -> RawRows {
        let mut raw = RawRows { lines, rows: vec![], width: 0 };
        raw.set_width(80);
        raw
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Cuts the lines again for a pane `width` columns wide; false when it already was.
    pub fn set_width(&mut self, width: usize) -> bool {
        let width = width.max(1);
        if width == self.width {
            return false;
        }
        self.width = width;
        self.rows.clear();
        for (i, line) in self.lines.iter().enumerate() {
            self.rows.push((i, 0));
            // Cut by columns, not characters: a wide character takes two.
            let (mut at, mut used) = (0, 0);
            for c in line.iter().flat_map(|(_, t)| sanitize::line(t).chars().collect::<Vec<_>>()) {
                let w = crate::ui::fit::columns(c);
                if used + w > width && used > 0 {
                    self.rows.push((i, at));
                    used = 0;
                }
                used += w;
                at += 1;
            }
        }
        true
    }

    /// The row showing character `at` of `line` in the current layout.
    pub fn row_of(&self, (line, at): (usize, usize)) -> usize {
        self.rows.partition_point(|&r| r < (line, at + 1)).saturating_sub(1)
    }

    /// Where row `row` starts: (line, first character).
    pub fn place(&self, row: usize) -> (usize, usize) {
        self.rows.get(row).copied().unwrap_or_default()
    }

    /// The rows in `range`, each its line's characters that fit, in their tokens' styles.
    pub fn draw(&self, range: std::ops::Range<usize>, t: &Theme) -> Vec<Line<'static>> {
        range.filter_map(|r| self.rows.get(r).map(|&(i, start)| self.row(i, start, self.row_end(r), t))).collect()
    }

    /// Where the row after `row` starts, when it goes on the same line.
    fn row_end(&self, row: usize) -> usize {
        match (self.rows.get(row), self.rows.get(row + 1)) {
            (Some(&(i, _)), Some(&(j, start))) if i == j => start,
            _ => usize::MAX,
        }
    }

    fn row(&self, i: usize, start: usize, end: usize, t: &Theme) -> Line<'static> {
        let Some(line) = self.lines.get(i) else { return Line::default() };
        let mut at = 0;
        let mut spans = vec![];
        for (tok, txt) in line {
            let txt = sanitize::line(txt);
            let n = txt.chars().count();
            let (from, to) = (start.max(at), end.min(at + n));
            if from < to {
                let piece: String = txt.chars().skip(from - at).take(to - from).collect();
                spans.push(Span::styled(piece, crate::ui::result::token_style(t, *tok)));
            }
            at += n;
            if at >= end {
                break;
            }
        }
        Line::from(spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_go_on_below_and_the_place_is_kept() {
        let text = r#"{"a": "0123456789012345678901234567890123456789", "b": 1}"#;
        let mut raw = RawRows::new(crate::json_pretty::lines(text, 1000));
        let whole = raw.len();
        raw.set_width(20);
        assert!(raw.len() > whole);
        let theme = Theme::default();
        let rows: Vec<String> = raw.draw(0..raw.len(), &theme).iter().map(|l| l.to_string()).collect();
        assert!(rows.iter().all(|r| r.chars().count() <= 20), "{rows:?}");
        assert_eq!(rows.concat().replace(' ', ""), text.replace(' ', ""));
        // The row that shows a place shows it after the width changes too.
        let place = raw.place(2);
        raw.set_width(7);
        let row = raw.row_of(place);
        let (line, start) = raw.place(row);
        assert!(line == place.0 && start <= place.1 && place.1 < start + 7, "{place:?} {line} {start}");
    }

    #[test]
    fn wide_characters_are_cut_by_their_columns() {
        let text = r#"{"名前": "名前名前名前名前名前名前名前名前名前名前"}"#;
        let mut raw = RawRows::new(crate::json_pretty::lines(text, 1000));
        raw.set_width(7);
        let rows = raw.draw(0..raw.len(), &Theme::default());
        assert!(rows.iter().all(|r| r.width() <= 7), "{rows:?}");
        let shown: String = rows.iter().map(|l| l.to_string()).collect();
        assert_eq!(shown.replace(' ', ""), text.replace(' ', ""));
    }
}
