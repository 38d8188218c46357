//! Reading a keymap file (the embedded default, or a user's laid over it) into typed bindings.
//! Every error names the section and the binding, and a line when TOML itself failed.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::key::Key;
use super::{Binding, Command, Scope};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    /// The section's heading in the help (only the embedded keymap's is used).
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    keymap: Vec<RawBinding>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBinding {
    on: OneOrMany,
    run: String,
    #[serde(default)]
    desc: Option<String>,
    #[serde(default)]
    footer: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A parsed binding; `command` is `None` for `run = "noop"` (unbinds its keys).
pub(super) struct Parsed {
    pub scope: Scope,
    pub keys: Vec<Key>,
    pub command: Option<Command>,
    pub help: String,
    pub footer: Option<String>,
}

/// The `[name]` headers of a keymap file, in the file's order (TOML tables lose it). Taken from
/// the embedded text itself, so the names live as long as the program.
pub(super) fn section_names(text: &'static str) -> Vec<&'static str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('[')?.strip_suffix(']'))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

/// Each section's `title`, by name.
pub(super) fn section_titles(text: &'static str) -> Vec<(&'static str, String)> {
    let Ok(sections) = toml::from_str::<BTreeMap<String, Section>>(text) else { return vec![] };
    section_names(text).into_iter().filter_map(|name| Some((name, sections.get(name)?.title.clone()?))).collect()
}

pub(super) fn parse(text: &str) -> Result<Vec<Parsed>, String> {
    let sections: BTreeMap<String, Section> = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |r| text[..r.start.min(text.len())].matches('\n').count() + 1);
        format!("line {line}: {}", e.message().trim())
    })?;
    let mut out = vec![];
    for (name, section) in sections {
        let scope = Scope::from_section(&name).ok_or_else(|| {
            let known: Vec<&str> = Scope::all().iter().map(|s| s.section()).collect();
            format!("[{name}] is not a section; the sections are: {}", known.join(", "))
        })?;
        let mut seen: Vec<Key> = vec![];
        for (i, raw) in section.keymap.into_iter().enumerate() {
            let p = binding(scope, raw).map_err(|e| format!("[{name}] binding {}: {e}", i + 1))?;
            if let Some(k) = p.keys.iter().find(|k| seen.contains(k)) {
                return Err(format!("[{name}] binding {}: {} is bound twice in [{name}]", i + 1, k.notation()));
            }
            seen.extend(&p.keys);
            out.push(p);
        }
    }
    Ok(out)
}

fn binding(scope: Scope, raw: RawBinding) -> Result<Parsed, String> {
    let command = match raw.run.as_str() {
        "noop" => None,
        name => Some(Command::from_name(name).ok_or_else(|| format!("run = {name:?} names no command"))?),
    };
    let keys = raw.on.items().into_iter().map(Key::parse).collect::<Result<Vec<_>, _>>()?;
    if keys.is_empty() {
        return Err("`on` lists no key".into());
    }
    let help = raw.desc.unwrap_or_else(|| raw.run.replace('_', " "));
    Ok(Parsed { scope, keys, command, help, footer: raw.footer })
}

/// Lays `user` over `base`: a user binding takes its keys away from the base bindings of its
/// section (a base binding left with no key goes), then joins the section unless it is `noop`.
pub(super) fn overlay(base: Vec<Binding>, user: Vec<Parsed>) -> Vec<Binding> {
    let mut out = base;
    for u in user {
        for b in out.iter_mut().filter(|b| b.scope == u.scope) {
            b.keys.retain(|k| !u.keys.contains(k));
        }
        out.retain(|b| !b.keys.is_empty());
        if let Some(command) = u.command {
            out.push(Binding::new(u.scope, u.keys, command, u.help, u.footer));
        }
    }
    out
}

pub(super) fn into_bindings(parsed: Vec<Parsed>) -> Vec<Binding> {
    parsed.into_iter().filter_map(|p| p.command.map(|c| Binding::new(p.scope, p.keys, c, p.help, p.footer))).collect()
}
