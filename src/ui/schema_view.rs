//! How one schema node reads on a line: label, type, reference, facts, title, description.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::theme::{Role, Theme};
use crate::sanitize;
use crate::schema::tree::{NodeRole, SchemaNode};

/// Trees with fewer nodes than this open fully expanded.
pub const EXPAND_ALL_BELOW: usize = 200;

pub fn node_line(n: &SchemaNode, theme: &Theme) -> Line<'static> {
    let mut spans = vec![];
    let label_style = match n.role {
        NodeRole::Variant | NodeRole::Items | NodeRole::Additional | NodeRole::Pattern | NodeRole::Conditional => {
            theme.paint(Role::Dim)
        }
        NodeRole::Cut => theme.paint(Role::Warning),
        _ => theme.paint(Role::Text).add_modifier(Modifier::BOLD),
    };
    spans.push(Span::styled(sanitize::line(&n.label).into_owned(), label_style));
    if n.required {
        spans.push(Span::styled("*", theme.paint(Role::Required).add_modifier(Modifier::BOLD)));
    }
    if n.role == NodeRole::Cut {
        return Line::from(spans);
    }
    spans.push(Span::styled(format!(" {}", sanitize::line(&n.types)), theme.paint(Role::Type)));
    if let Some(r) = &n.reference {
        let mut s = format!(" → {}", sanitize::line(r));
        if n.cycle {
            s.push_str(" ↻ cycle, not expanded");
        }
        if n.unresolved {
            s.push_str(" (unresolved)");
        }
        spans.push(Span::styled(s, theme.paint(Role::Reference)));
    }
    for (k, v) in &n.facts {
        // SEP-2243: which HTTP header the value is mirrored into on a call.
        if k == "x-mcp-header" {
            let name = v.trim_matches('"');
            let shown = format!("  → header {}{}", crate::mcp::param_headers::PREFIX, sanitize::line(name));
            spans.push(Span::styled(shown, theme.paint(Role::Reference)));
            continue;
        }
        spans.push(Span::styled(format!("  {}=", sanitize::line(k)), theme.paint(Role::Fact)));
        let role = if k == "enum" || k == "const" || k == "default" { Role::JsonString } else { Role::Fact };
        spans.push(Span::styled(sanitize::line(v).into_owned(), theme.paint(role)));
    }
    if let Some(t) = n.title.as_deref().filter(|_| n.role != NodeRole::Variant) {
        spans.push(Span::styled(format!("  \"{}\"", sanitize::line(t)), theme.paint(Role::Dim)));
    }
    if let Some(d) = &n.description {
        spans.push(Span::styled(format!(" — {}", sanitize::truncate(&sanitize::line(d), 300)), theme.paint(Role::Dim)));
    }
    Line::from(spans)
}
