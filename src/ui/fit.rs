//! A row cut to its pane's width with `…` in the last column: a name or title that does not fit
//! is never cut silently by the pane's edge.

use ratatui::style::Style;
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
            let cw = columns(ch);
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

/// The columns a character takes on screen (two for most CJK characters).
pub fn columns(c: char) -> usize {
    let mut buf = [0u8; 4];
    Span::raw(&*c.encode_utf8(&mut buf)).width()
}

/// Every line fitted to `width` (see [`fit`]): for rows drawn without wrapping, which the
/// pane's edge would otherwise cut silently.
pub fn lines(lines: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    lines.into_iter().map(|l| fit(l, width)).collect()
}

/// A frame's title as it fits on a frame `width` columns wide (the corners take two).
pub fn title(title: String, width: u16) -> Line<'static> {
    fit(Line::from(title), width.saturating_sub(2) as usize)
}

/// `(key, word)` hints, as footers write them, that fit whole in `room` columns: a hint is
/// never cut in the middle of its word; when some are left out, `…` says so. `styles` are the
/// key's and the word's.
pub fn whole_hints(
    hints: impl Iterator<Item = (String, String)>,
    room: usize,
    styles: (Style, Style),
) -> Vec<Span<'static>> {
    let hints: Vec<(String, String)> = hints.collect();
    let mut spans = vec![];
    let mut used = 0;
    for (i, (k, h)) in hints.iter().enumerate() {
        let (key, word) = (format!(" {k}"), format!(" {h} "));
        let w = Span::raw(key.as_str()).width() + Span::raw(word.as_str()).width();
        // Two columns kept for " …" when more hints follow.
        let ellipsis = if i + 1 < hints.len() { 2 } else { 0 };
        if used + w + ellipsis > room {
            spans.push(Span::styled(" …", styles.1));
            break;
        }
        used += w;
        spans.push(Span::styled(key, styles.0));
        spans.push(Span::styled(word, styles.1));
    }
    spans
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

    #[test]
    fn hints_that_do_not_fit_are_left_out_whole() {
        let hints = || [("q", "quit"), ("?", "help"), ("L", "log")].map(|(k, w)| (k.to_string(), w.to_string()));
        let plain = (Style::default(), Style::default());
        let all = Line::from(whole_hints(hints().into_iter(), 80, plain));
        assert_eq!(text(&all), " q quit  ? help  L log ");
        // Room for one and a half: the second is left out whole, and `…` says so.
        let cut = Line::from(whole_hints(hints().into_iter(), 12, plain));
        assert_eq!(text(&cut), " q quit  …");
        assert!(cut.width() <= 12);
        // The last one needs no room for the ellipsis.
        assert_eq!(Line::from(whole_hints(hints().into_iter(), 23, plain)).width(), 23);
    }
}
