//! The schema tree as indented plain text, for the headless `tools` command.

use super::tree::{NodeRole, SchemaNode};
use crate::sanitize;

/// One line for a node: `name* type → Ref  facts — description`. Sanitized for the terminal.
pub fn node_line(n: &SchemaNode) -> String {
    let mut s = String::new();
    s.push_str(&sanitize::line(&n.label));
    if n.required {
        s.push('*');
    }
    if n.role == NodeRole::Cut {
        return s;
    }
    s.push_str(": ");
    s.push_str(&sanitize::line(&n.types));
    if let Some(r) = &n.reference {
        s.push_str(&format!(" → {}", sanitize::line(r)));
        if n.cycle {
            s.push_str(" (cycle: not expanded again)");
        }
        if n.unresolved {
            s.push_str(" (unresolved)");
        }
    }
    if let Some(t) = &n.title
        && n.role != NodeRole::Variant
    {
        s.push_str(&format!(" \"{}\"", sanitize::line(t)));
    }
    for (k, v) in &n.facts {
        s.push_str(&format!("  {}={}", sanitize::line(k), sanitize::line(v)));
    }
    if let Some(d) = &n.description {
        s.push_str(" — ");
        s.push_str(&sanitize::truncate(&sanitize::line(d), 200));
    }
    s
}

/// The children of `root`, each on its own line, indented two spaces per level.
pub fn lines(root: &SchemaNode, indent: usize) -> Vec<String> {
    let mut out = Vec::new();
    // Iterative, so the output side has no recursion of its own to bound.
    let mut stack: Vec<(&SchemaNode, usize)> = root.children.iter().rev().map(|c| (c, indent)).collect();
    while let Some((n, depth)) = stack.pop() {
        out.push(format!("{}{}", "  ".repeat(depth), node_line(n)));
        stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    out
}
