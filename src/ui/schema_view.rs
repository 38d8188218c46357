//! How one schema node reads on a line: label, type, reference, facts, title, description.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::theme::Theme;
use crate::sanitize;
use crate::schema::tree::{NodeRole, SchemaNode};

/// Trees with fewer nodes than this open fully expanded.
pub const EXPAND_ALL_BELOW: usize = 200;

pub fn node_line(n: &SchemaNode, theme: &Theme) -> Line<'static> {
    let mut spans = vec![];
    let label_style = match n.role {
        NodeRole::Variant | NodeRole::Items | NodeRole::Additional | NodeRole::Pattern | NodeRole::Conditional => {
            theme.fg("dim")
        }
        NodeRole::Cut => theme.fg("warning"),
        _ => theme.fg("text").add_modifier(Modifier::BOLD),
    };
    spans.push(Span::styled(sanitize::line(&n.label).into_owned(), label_style));
    if n.required {
        spans.push(Span::styled("*", theme.fg("required").add_modifier(Modifier::BOLD)));
    }
    if n.role == NodeRole::Cut {
        return Line::from(spans);
    }
    spans.push(Span::styled(format!(" {}", sanitize::line(&n.types)), theme.fg("type")));
    if let Some(r) = &n.reference {
        let mut s = format!(" → {}", sanitize::line(r));
        if n.cycle {
            s.push_str(" ↻ cycle, not expanded");
        }
        if n.unresolved {
            s.push_str(" (unresolved)");
        }
        spans.push(Span::styled(s, theme.fg("reference")));
    }
    for (k, v) in &n.facts {
        spans.push(Span::styled(format!("  {}=", sanitize::line(k)), theme.fg("fact")));
        let role = if k == "enum" || k == "const" || k == "default" { "json_string" } else { "fact" };
        spans.push(Span::styled(sanitize::line(v).into_owned(), theme.fg(role)));
    }
    if let Some(t) = n.title.as_deref().filter(|_| n.role != NodeRole::Variant) {
        spans.push(Span::styled(format!("  \"{}\"", sanitize::line(t)), theme.fg("dim")));
    }
    if let Some(d) = &n.description {
        spans.push(Span::styled(format!(" — {}", sanitize::truncate(&sanitize::line(d), 300)), theme.fg("dim")));
    }
    Line::from(spans)
}
