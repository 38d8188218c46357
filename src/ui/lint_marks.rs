//! The lint marks of the tool list: each tool's worst finding (`mcplens lint`'s rules), shown
//! after its name.

use std::collections::HashMap;

use serde_json::value::RawValue;

use crate::lint::{self, Severity};
use crate::mcp::ToolDescriptor;

/// Lists longer than this are not linted in the TUI (`mcplens lint` does them): every
/// descriptor would be parsed again at each listing.
const MAX_TOOLS: usize = 5000;

/// A tool's worst finding: its severity and rule.
pub type Marks = HashMap<String, (Severity, &'static str)>;

pub fn marks(tools: &[ToolDescriptor]) -> Marks {
    if tools.len() > MAX_TOOLS {
        return Marks::new();
    }
    let raws: Vec<&RawValue> = tools.iter().map(|t| t.raw_value()).collect();
    let mut out = Marks::new();
    // Info findings (a draft-07 $schema) are too common to mark.
    for f in lint::lint_texts(&raws, &[], 128).into_iter().filter(|f| f.severity < Severity::Info) {
        if let Some(tool) = f.tool {
            let worst = out.entry(tool).or_insert((f.severity, f.rule));
            // A host's rule gives way to the specification's of the same severity.
            if f.severity < worst.0
                || (f.severity == worst.0 && worst.1.starts_with("host/") && !f.rule.starts_with("host/"))
            {
                *worst = (f.severity, f.rule);
            }
        }
    }
    out
}
