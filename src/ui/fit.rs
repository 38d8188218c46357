//! A row cut to its pane's width with `…` in the last column: a name or title that does not fit
//! is never cut silently by the pane's edge.

use ratatui::text::{Line, Span};

/// `line` as it fits in `width` columns: whole, or cut with `…` as its last column.
pub fn fit(line: Line<'static>, width: usize) -> Line<'static> {
    if line.width() <= width {
        return line;
    }
    let room = width.saturating_sub(1);
    let mut used = 0;
    let mut spans: Vec<Span<'static>> = vec![];
    for span in &line.spans {
        let w = span.width();
        if used + w <= room {
            used += w;
            spans.push(span.clone());
            continue;
        }
        let mut kept = String::new();
        for ch in span.content.chars() {
            let mut buf = [0u8; 4];
            let cw = Span::raw(&*ch.encode_utf8(&mut buf)).width();
            if used + cw > room {
                break;
            }
            used += cw;
            kept.push(ch);
        }
        kept.push('…');
        spans.push(Span::styled(kept, span.style));
        break;
    }
    Line { spans, ..line }
}

/// `1 item`, `2 items`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_row_too_wide_ends_in_an_ellipsis_at_the_edge() {
        let row = || Line::from(vec![Span::raw("· "), Span::raw("discord_delete_message"), Span::raw("  Delete")]);
        assert_eq!(text(&fit(row(), 40)), "· discord_delete_message  Delete");
        assert_eq!(text(&fit(row(), 12)), "· discord_d…");
        assert_eq!(fit(row(), 12).width(), 12);
        // Cut at a span's edge: the ellipsis still shows.
        assert_eq!(text(&fit(row(), 25)), "· discord_delete_message…");
        // Wide characters are counted by their columns.
        assert_eq!(fit(Line::from("名前名前名前"), 6).width(), 5);
        assert_eq!(text(&fit(Line::from("abc"), 0)), "…");
    }
}
