//! A call's result as styled lines, built once when the result arrives.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::app::CallResult;
use super::theme::Theme;
use crate::envelope::{Envelope, ResponseType};
use crate::json_pretty::{self, Token};
use crate::sanitize;

/// Pretty JSON lines kept for one result; more is in the raw view and exports.
const MAX_LINES: usize = 20_000;

pub fn token_style(theme: &Theme, tok: Token) -> ratatui::style::Style {
    theme.fg(match tok {
        Token::Key => "json_key",
        Token::String => "json_string",
        Token::Number => "json_number",
        Token::Bool => "json_bool",
        Token::Null => "json_null",
        Token::Punct | Token::Space => "dim",
    })
}

pub fn json_lines(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    json_pretty::lines(text, MAX_LINES)
        .into_iter()
        .map(|l| {
            Line::from(
                l.into_iter()
                    .map(|(tok, s)| Span::styled(sanitize::line(&s).into_owned(), token_style(theme, tok)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

/// `list · success · 50 of 150 items · more: next offset 50`
pub fn header(e: &Envelope) -> String {
    let mut parts = vec![e.response_type.as_str().to_string()];
    if let Some(s) = e.status {
        parts.push(format!("{s:?}").to_lowercase());
    }
    if let Some(s) = &e.summary {
        match (s.returned, s.total) {
            (Some(r), Some(t)) => parts.push(format!("{r} of {t} items")),
            (Some(r), None) => parts.push(format!("{r} items")),
            _ => {}
        }
    }
    if let Some(p) = &e.pagination {
        parts.push(match (p.has_more, &p.next_offset) {
            (Some(true), Some(n)) => {
                format!("more: next {} {n}", p.kind.map(|k| format!("{k:?}").to_lowercase()).unwrap_or_default())
            }
            (Some(true), None) => "more available".into(),
            _ => "last page".into(),
        });
    }
    parts.join(" · ")
}

pub fn lines(r: &CallResult, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![];
    let took = format!("{:.0} ms", r.elapsed.as_secs_f64() * 1000.0);
    let Some(env) = &r.envelope else {
        out.push(Line::styled(
            format!(
                "{} failed after {took}: {}",
                sanitize::line(&r.tool),
                sanitize::line(r.error.as_deref().unwrap_or("no reply"))
            ),
            theme.fg("error").add_modifier(Modifier::BOLD),
        ));
        return out;
    };
    let role = if env.response_type == ResponseType::Error { "error" } else { "ok" };
    out.push(Line::from(vec![
        Span::styled(header(env), theme.fg(role).add_modifier(Modifier::BOLD)),
        Span::styled(format!("  ({took})"), theme.fg("dim")),
    ]));
    if let Some(err) = &env.error {
        let code = if err.code.is_null() { String::new() } else { format!("{} ", err.code) };
        out.push(Line::styled(
            format!("error {code}{}", sanitize::line(err.message.as_deref().unwrap_or(""))),
            theme.fg("error").add_modifier(Modifier::BOLD),
        ));
        if !err.details.is_null() {
            out.extend(json_lines(&err.details.to_string(), theme));
        }
    }
    if let Some(m) = &env.message
        && env.response_type != ResponseType::Error
    {
        for l in sanitize::text(m).lines().take(20) {
            out.push(Line::styled(l.to_string(), theme.fg("text")));
        }
    }
    if !env.data.is_null() {
        out.extend(json_lines(&env.data.to_string(), theme));
    }
    out
}
