//! The key tables of the README and `docs/keys.md`, written from the embedded keymap so the
//! documents cannot drift from the keys (a test compares them; `MCPLENS_UPDATE_DOCS=1` rewrites).

use super::{Keymap, Scope};

/// The sections the README shows; `docs/keys.md` has every section.
pub const README_SECTIONS: &[&str] = &["global", "tools", "schema", "form", "result", "history", "log"];

/// One markdown table per section, `### title` above it, in the keymap's order with the global
/// section first.
pub fn tables(map: &Keymap, only: Option<&[&str]>) -> String {
    let mut scopes: Vec<Scope> = Scope::all().to_vec();
    scopes.sort_by_key(|s| s.section() != "global");
    let mut out = String::new();
    for scope in scopes.into_iter().filter(|s| only.is_none_or(|o| o.contains(&s.section()))) {
        let rows: Vec<String> = map.own(scope).map(|b| format!("| {} | {} |", cell(&b.label), cell(&b.help))).collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("### {}\n\n| keys | what they do |\n|---|---|\n", scope.title()));
        out.push_str(&rows.join("\n"));
        out.push_str("\n\n");
    }
    out
}

/// Text for a table cell: `|` escaped, keys in code spans.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// `text` with the part between `<!-- keys:start -->` and `<!-- keys:end -->` replaced by
/// `tables`; None when the markers are missing.
pub fn splice(text: &str, tables: &str) -> Option<String> {
    const START: &str = "<!-- keys:start -->\n";
    const END: &str = "<!-- keys:end -->";
    let a = text.find(START)? + START.len();
    let b = a + text[a..].find(END)?;
    Some(format!("{}{}{}", &text[..a], tables, &text[b..]))
}
