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
            let chars: usize = line.iter().map(|(_, t)| sanitize::line(t).chars().count()).sum();
            let n = chars.div_ceil(width).max(1);
            self.rows.extend((0..n).map(|k| (i, k * width)));
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
        let rows = self.rows.get(range).unwrap_or_default();
        rows.iter().map(|&(i, start)| self.row(i, start, t)).collect()
    }

    fn row(&self, i: usize, start: usize, t: &Theme) -> Line<'static> {
        let Some(line) = self.lines.get(i) else { return Line::default() };
        let end = start + self.width;
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
}
