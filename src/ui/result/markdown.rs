//! A server's text, styled as markdown or as a diff, with every character it sent kept: the
//! markers (`#`, `-`, `**`, backticks, `+`/`-` of a diff) are coloured, never removed or
//! replaced, so what is on screen is what the server said.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::sanitize;
use crate::ui::theme::{Role, Theme};

/// The lines of `text`, styled; one screen line per line of the text (wrapping is the view's).
pub fn lines(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    let clean = sanitize::text(text);
    if is_diff(&clean) {
        return clean.lines().map(|l| diff_line(l, theme)).collect();
    }
    let mut out = vec![];
    let mut in_code = false;
    for l in clean.lines() {
        if l.trim_start().starts_with("```") {
            in_code = !in_code;
            out.push(Line::styled(l.to_string(), theme.paint(Role::Dim)));
        } else if in_code {
            out.push(Line::styled(l.to_string(), theme.paint(Role::JsonString)));
        } else if l.starts_with('#') {
            out.push(Line::styled(l.to_string(), theme.paint(Role::Title).add_modifier(Modifier::BOLD)));
        } else {
            out.push(prose_line(l, theme));
        }
    }
    out
}

/// A unified diff (git's, or any with file headers and hunks): its `-` lines are removals, not
/// bullets.
fn is_diff(text: &str) -> bool {
    let mut headers = false;
    for l in text.lines() {
        if l.starts_with("diff --git ") || l.starts_with("+++ ") || l.starts_with("--- ") {
            headers = true;
        } else if headers && l.starts_with("@@ ") {
            return true;
        }
    }
    false
}

fn diff_line(l: &str, theme: &Theme) -> Line<'static> {
    let role = match l.as_bytes().first() {
        _ if l.starts_with("+++ ") || l.starts_with("--- ") || l.starts_with("diff ") => Role::Title,
        Some(b'+') => Role::Ok,
        Some(b'-') => Role::Error,
        Some(b'@') => Role::Key,
        _ => Role::Text,
    };
    Line::styled(l.to_string(), theme.paint(role))
}

/// A line of prose: a list marker coloured, `**bold**` bold and `` `code` `` coloured, the
/// markers themselves dimmed but kept.
fn prose_line(l: &str, theme: &Theme) -> Line<'static> {
    let indent = l.len() - l.trim_start().len();
    let body = &l[indent..];
    let marker = ["- ", "* ", "+ "].iter().find(|m| body.starts_with(**m)).map_or(0, |m| m.len());
    let mut spans = vec![Span::raw(l[..indent].to_string())];
    if marker > 0 {
        spans.push(Span::styled(body[..marker].to_string(), theme.paint(Role::Key)));
    }
    spans.extend(emphasis(&body[marker..], theme));
    Line::from(spans)
}

fn emphasis(text: &str, theme: &Theme) -> Vec<Span<'static>> {
    let dim = theme.paint(Role::Dim);
    let (mut bold, mut code) = (false, false);
    let mut spans = vec![];
    let mut cur = String::new();
    let style = |bold: bool, code: bool| -> Style {
        let st = theme.paint(if code { Role::JsonString } else { Role::Text });
        if bold { st.add_modifier(Modifier::BOLD) } else { st }
    };
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let marker = if rest.starts_with("**") && !code {
            Some("**")
        } else if c == '`' {
            Some("`")
        } else {
            None
        };
        match marker {
            Some(m) => {
                if !cur.is_empty() {
                    spans.push(Span::styled(std::mem::take(&mut cur), style(bold, code)));
                }
                spans.push(Span::styled(m.to_string(), dim));
                if m == "`" {
                    code = !code;
                } else {
                    bold = !bold;
                }
                rest = &rest[m.len()..];
            }
            None => {
                cur.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, style(bold, code)));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    #[test]
    fn every_character_the_server_sent_is_on_screen() {
        let t = Theme::default();
        let md = "# Title\n\n- a **bold** word\n  * nested `code`\n```sh\necho `date`\n```\n2 * 3 = 6";
        assert_eq!(text_of(&lines(md, &t)), md.lines().collect::<Vec<_>>());
    }

    #[test]
    fn a_diff_keeps_its_minus_lines_and_colours_them() {
        let t = Theme::default();
        let diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n same";
        let out = lines(diff, &t);
        assert_eq!(text_of(&out), diff.lines().collect::<Vec<_>>());
        assert_eq!(out[4].style, t.paint(Role::Error));
        assert_eq!(out[5].style, t.paint(Role::Ok));
    }

    #[test]
    fn a_bullet_list_is_not_a_diff() {
        let t = Theme::default();
        let out = lines("- one\n- two", &t);
        assert_eq!(out[0].spans[1].style, t.paint(Role::Key));
    }
}
