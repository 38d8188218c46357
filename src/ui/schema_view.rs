//! A tool's input and output schema trees as tui-tree-widget items, built once per selection.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use tui_tree_widget::TreeItem;

use super::theme::Theme;
use crate::mcp::ToolDescriptor;
use crate::sanitize;
use crate::schema::tree::{self, NodeRole, SchemaNode};

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

fn item(n: &SchemaNode, id: usize, theme: &Theme) -> TreeItem<'static, usize> {
    let children: Vec<TreeItem<'static, usize>> =
        n.children.iter().enumerate().map(|(i, c)| item(c, i, theme)).collect();
    let text = node_line(n, theme);
    // Identifiers are sibling indices, so they are always unique: `new` cannot fail.
    TreeItem::new(id, text.clone(), children).unwrap_or_else(|_| TreeItem::new_leaf(id, text))
}

fn paths(items: &[TreeItem<'static, usize>], prefix: &[usize], depth: usize, out: &mut Vec<Vec<usize>>) {
    for it in items {
        if it.children().is_empty() {
            continue;
        }
        let mut p = prefix.to_vec();
        p.push(*it.identifier());
        out.push(p.clone());
        if depth > 1 {
            paths(it.children(), &p, depth - 1, out);
        }
    }
}

/// Every path with children, for "expand all".
pub fn all_paths(items: &[TreeItem<'static, usize>]) -> Vec<Vec<usize>> {
    let mut out = vec![];
    paths(items, &[], usize::MAX, &mut out);
    out
}

/// The schema trees, their tree-widget items, the node count, and the paths to open.
pub type Built = (Vec<SchemaNode>, Vec<TreeItem<'static, usize>>, usize, Vec<Vec<usize>>);

/// The tree items of `tool` (input schema, then output schema), its node count, and the paths
/// to open at first: everything for small trees, two levels otherwise.
pub fn items(tool: &ToolDescriptor, theme: &Theme) -> Built {
    let mut trees = vec![];
    let mut roots = vec![];
    let mut nodes = 0;
    let mut id = 0;
    for (label, schema) in [("input", tool.input_schema()), ("output", tool.output_schema())] {
        let Some(schema) = schema else { continue };
        let root = tree::build_labeled(schema, label);
        nodes += root.count();
        roots.push(item(&root, id, theme));
        trees.push(root);
        id += 1;
    }
    if roots.is_empty() {
        let line = Line::styled("this tool has no input schema", theme.fg("warning"));
        roots.push(TreeItem::new_leaf(0, line));
    }
    let mut open = vec![];
    paths(&roots, &[], if nodes < EXPAND_ALL_BELOW { usize::MAX } else { 2 }, &mut open);
    (trees, roots, nodes, open)
}
