//! The README's and docs/keys.md's key tables are the embedded keymap's, so a key changed in the
//! keymap cannot leave the documents behind. `MCPLENS_UPDATE_DOCS=1 cargo test --test docs_keys`
//! rewrites them.

use mcplens::ui::keymap::{Keymap, docs};

fn check(path: &str, only: Option<&[&str]>) {
    let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let tables = docs::tables(&Keymap::default_map(), only);
    let wanted = docs::splice(&text, &tables).unwrap_or_else(|| panic!("{path} has no keys:start/keys:end markers"));
    if wanted == text {
        return;
    }
    if std::env::var_os("MCPLENS_UPDATE_DOCS").is_some() {
        std::fs::write(&file, wanted).unwrap_or_else(|e| panic!("{file}: {e}"));
        return;
    }
    panic!("{path}'s key tables differ from the keymap: run MCPLENS_UPDATE_DOCS=1 cargo test --test docs_keys");
}

#[test]
fn the_readme_lists_the_main_panes_keys_as_bound() {
    check("README.md", Some(docs::README_SECTIONS));
}

#[test]
fn docs_keys_lists_every_section_as_bound() {
    check("docs/keys.md", None);
}
