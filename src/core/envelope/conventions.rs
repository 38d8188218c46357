//! The conventions the normalizer and the pager know (paging names, totals, where records are,
//! what describes an answer), as data: `conventions.toml` is the embedded preset, and the
//! `[[convention]]` entries of the user's hints files are laid over it (their names added to
//! the role's, an argument name put first).

use std::collections::HashSet;
use std::sync::{Arc, OnceLock, RwLock};

use serde::{Deserialize, Serialize};

use super::key_norm as norm;
use super::pagination::PageKind;

/// One entry: a role and the names that play it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Convention {
    pub role: String,
    pub names: Vec<String>,
    /// Which servers or specifications use it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// What a name is, in an answer or among a tool's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    HasMore,
    HasNextPage,
    EndCursor,
    Cursor,
    Complete,
    Offset,
    Limit,
    NextOffset,
    Page,
    TotalPages,
    Before,
    After,
    NextLink,
    Total,
    Count,
    Container,
    Records,
    Echo,
    ResponseMeta,
    Argument(PageKind),
    PageSizeArgument,
    /// A member holding the failure (`error`).
    ErrorMember,
    /// A list of failures whose first is lifted (GraphQL `errors`).
    ErrorList,
    /// Where an error's code is, best first (a dotted name is a path: `extensions.code`).
    ErrorCode,
    /// Where an error's message is, best first.
    ErrorMessage,
    /// Where an error's details are.
    ErrorDetails,
    /// A member beside a failure holding its HTTP status.
    HttpStatus,
    /// A boolean member saying the call succeeded (`success`, `ok`).
    SuccessFlag,
    /// A boolean member saying the answer is incomplete.
    PartialFlag,
    /// The only members of a record that counts what a write changed (`affected_rows`).
    ChangeCount,
    /// A word of a tool's name that says it changes something.
    ActionVerb,
    /// A verb that, as a tool's whole name, computes rather than writes (`add(a, b)`).
    ComputingVerb,
    /// Values of a `status` member, compared without case.
    SuccessWord,
    ErrorWord,
    PartialWord,
    /// How the first line of a text that only reports a failure begins.
    FailurePrefix,
    /// Words of an output-schema description saying a count is this page's only.
    PageCountPhrase,
}

/// The roles of an answer's members, in the order a key is tried against them.
pub const ANSWER_ROLES: &[Role] = &[
    Role::HasMore,
    Role::HasNextPage,
    Role::EndCursor,
    Role::Cursor,
    Role::Complete,
    Role::Offset,
    Role::Limit,
    Role::NextOffset,
    Role::Page,
    Role::TotalPages,
    Role::Before,
    Role::After,
    Role::NextLink,
    Role::Total,
    Role::Count,
];

impl Role {
    fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "has_more" => Role::HasMore,
            "has_next_page" => Role::HasNextPage,
            "end_cursor" => Role::EndCursor,
            "cursor" => Role::Cursor,
            "complete" => Role::Complete,
            "offset" => Role::Offset,
            "limit" => Role::Limit,
            "next_offset" => Role::NextOffset,
            "page" => Role::Page,
            "total_pages" => Role::TotalPages,
            "before" => Role::Before,
            "after" => Role::After,
            "next_link" => Role::NextLink,
            "total" => Role::Total,
            "count" => Role::Count,
            "container" => Role::Container,
            "records" => Role::Records,
            "echo" => Role::Echo,
            "response_meta" => Role::ResponseMeta,
            "offset_argument" => Role::Argument(PageKind::Offset),
            "cursor_argument" => Role::Argument(PageKind::Cursor),
            "after_argument" => Role::Argument(PageKind::After),
            "before_argument" => Role::Argument(PageKind::Before),
            "page_argument" => Role::Argument(PageKind::Page),
            "page_size_argument" => Role::PageSizeArgument,
            "error_member" => Role::ErrorMember,
            "error_list" => Role::ErrorList,
            "error_code" => Role::ErrorCode,
            "error_message" => Role::ErrorMessage,
            "error_details" => Role::ErrorDetails,
            "http_status" => Role::HttpStatus,
            "success_flag" => Role::SuccessFlag,
            "partial_flag" => Role::PartialFlag,
            "change_count" => Role::ChangeCount,
            "action_verb" => Role::ActionVerb,
            "computing_verb" => Role::ComputingVerb,
            "success_word" => Role::SuccessWord,
            "error_word" => Role::ErrorWord,
            "partial_word" => Role::PartialWord,
            "failure_prefix" => Role::FailurePrefix,
            "page_count_phrase" => Role::PageCountPhrase,
            _ => return None,
        })
    }

    /// Roles whose names are words or phrases, compared as written without case (spaces and
    /// `_` kept), not as member names.
    fn is_phrase(self) -> bool {
        matches!(
            self,
            Role::ActionVerb
                | Role::ComputingVerb
                | Role::SuccessWord
                | Role::ErrorWord
                | Role::PartialWord
                | Role::FailurePrefix
                | Role::PageCountPhrase
        )
    }
}

/// The names of every role, compared as `key_norm` writes them.
#[derive(Debug, Default)]
pub struct Table {
    sets: Vec<(Role, HashSet<String>)>,
    /// Argument names in order, best first.
    ordered: Vec<(Role, Vec<String>)>,
}

impl Table {
    /// Whether `key` (already normalized) plays `role`.
    pub fn is(&self, role: Role, key: &str) -> bool {
        self.sets.iter().any(|(r, s)| *r == role && s.contains(key))
    }

    /// The first answer role `key` (already normalized) plays.
    pub fn answer_role(&self, key: &str) -> Option<Role> {
        ANSWER_ROLES.iter().copied().find(|r| self.is(*r, key))
    }

    /// A role's names in order, normalized (argument names best first).
    pub fn names(&self, role: Role) -> &[String] {
        self.ordered.iter().find(|(r, _)| *r == role).map_or(&[], |(_, n)| n.as_slice())
    }

    /// The first member of `m` playing `role`, in the role's order (a dotted name walks into
    /// objects: `extensions.code`), with the member of `m` it was found under.
    pub fn member<'a>(
        &self,
        role: Role,
        m: &'a serde_json::Map<String, serde_json::Value>,
    ) -> Option<(&'a str, &'a serde_json::Value)> {
        self.names(role).iter().find_map(|name| {
            let mut parts = name.split('.');
            let first = parts.next()?;
            let (key, mut v) = m.iter().find(|(k, _)| norm(k) == first)?;
            for p in parts {
                v = v.as_object()?.iter().find(|(k, _)| norm(k) == p)?.1;
            }
            Some((key.as_str(), v))
        })
    }

    /// Whether the phrase role `role` has a name `text` (lowercase) starts with.
    pub fn starts(&self, role: Role, text: &str) -> bool {
        self.names(role).iter().any(|p| text.starts_with(p.as_str()))
    }

    /// Whether the phrase role `role` has a name `text` (lowercase) contains.
    pub fn mentions(&self, role: Role, text: &str) -> bool {
        self.names(role).iter().any(|p| text.contains(p.as_str()))
    }

    fn add(&mut self, c: &Convention, first: bool) -> Result<(), String> {
        let role = Role::parse(&c.role).ok_or_else(|| format!("convention role {:?} is not known", c.role))?;
        let written = |n: &String| if role.is_phrase() { n.to_lowercase() } else { norm(n) };
        let names: Vec<String> = c.names.iter().map(written).filter(|n| !n.is_empty()).collect();
        match self.ordered.iter_mut().find(|(r, _)| *r == role) {
            Some((_, list)) if first => {
                list.retain(|n| !names.contains(n));
                list.splice(0..0, names.iter().cloned());
            }
            Some((_, list)) => list.extend(names.iter().filter(|n| !list.contains(n)).cloned().collect::<Vec<_>>()),
            None => self.ordered.push((role, names.clone())),
        }
        match self.sets.iter_mut().find(|(r, _)| *r == role) {
            Some((_, set)) => set.extend(names),
            None => self.sets.push((role, names.into_iter().collect())),
        }
        Ok(())
    }
}

/// The entries of a conventions file's text.
#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    convention: Vec<Convention>,
}

const PRESET: &str = include_str!("conventions.toml");

fn preset() -> Vec<Convention> {
    preset_lines(PRESET).unwrap_or_else(|| toml::from_str::<File>(PRESET).map(|f| f.convention).unwrap_or_default())
}

/// The preset read a line at a time: it is written in a small part of TOML (entries of one-line
/// strings and string arrays, escapes `\"` and `\\` only), and the TOML parser took a third of
/// the instructions of a small `call`. None for anything beyond that part (the parser reads it);
/// a test checks that both read the preset alike.
fn preset_lines(text: &str) -> Option<Vec<Convention>> {
    let mut out: Vec<Convention> = vec![];
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if line == "[[convention]]" {
            out.push(Convention::default());
            continue;
        }
        let (key, value) = line.split_once(" = ")?;
        let c = out.last_mut()?;
        match key {
            "role" => c.role = whole_string(value)?,
            "source" => c.source = whole_string(value)?,
            "names" => c.names = string_array(value)?,
            _ => return None,
        }
    }
    Some(out)
}

/// `text` as one basic string and nothing after it.
fn whole_string(text: &str) -> Option<String> {
    match basic_string(text)? {
        (s, "") => Some(s),
        _ => None,
    }
}

/// `["a", "b"]` and nothing after it.
fn string_array(text: &str) -> Option<Vec<String>> {
    let mut rest = text.strip_prefix('[')?;
    let mut out = vec![];
    loop {
        if rest == "]" {
            return Some(out);
        }
        let (s, after) = basic_string(rest)?;
        out.push(s);
        rest = after.strip_prefix(", ").unwrap_or(after);
    }
}

/// The basic string `text` starts with, unescaped, and what follows it.
fn basic_string(text: &str) -> Option<(String, &str)> {
    let mut rest = text.strip_prefix('"')?;
    let mut s = String::new();
    loop {
        let at = rest.bytes().position(|b| matches!(b, b'"' | b'\\' | ..b' ' | 0x7f))?;
        let (plain, stop) = rest.split_at(at);
        s.reserve_exact(plain.len());
        s.push_str(plain);
        if let Some(after) = stop.strip_prefix('"') {
            return Some((s, after));
        }
        let mut escape = stop.strip_prefix('\\')?.chars();
        match escape.next()? {
            e @ ('"' | '\\') => s.push(e),
            _ => return None,
        }
        rest = escape.as_str();
    }
}

fn build(user: &[Convention]) -> Result<Table, String> {
    let mut t = Table::default();
    for c in preset() {
        t.add(&c, false)?;
    }
    for c in user {
        t.add(c, true)?;
    }
    Ok(t)
}

/// The preset alone, read from its TOML once per process: every command that loads hints lays
/// the user's entries over it, most often none, and parsing the preset is most of that cost.
fn preset_table() -> Arc<Table> {
    static PRESET_TABLE: OnceLock<Arc<Table>> = OnceLock::new();
    Arc::clone(PRESET_TABLE.get_or_init(|| Arc::new(build(&[]).unwrap_or_default())))
}

/// Reads the preset on a thread of its own, for a command that will need it once its server
/// answers: the reading is done while the command waits, not after.
pub fn read_preset_beside() {
    let _ = std::thread::Builder::new().name("conventions".into()).spawn(|| {
        preset_table();
    });
}

fn current() -> &'static RwLock<Arc<Table>> {
    static TABLE: OnceLock<RwLock<Arc<Table>>> = OnceLock::new();
    TABLE.get_or_init(|| RwLock::new(preset_table()))
}

/// The conventions in force: the preset with the user's entries over it.
pub fn table() -> Arc<Table> {
    current().read().map(|t| Arc::clone(&t)).unwrap_or_default()
}

/// Lays the user's entries over the preset (replacing any laid before).
pub fn overlay(user: &[Convention]) -> Result<(), String> {
    let t = if user.is_empty() { preset_table() } else { Arc::new(build(user)?) };
    if let Ok(mut cur) = current().write() {
        *cur = t;
    }
    Ok(())
}

/// Checks one user entry.
pub fn check(c: &Convention) -> Result<(), String> {
    Role::parse(&c.role).map(|_| ()).ok_or_else(|| format!("convention role {:?} is not known", c.role))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preset_reads_and_every_role_has_names() {
        let f: File = toml::from_str(PRESET).unwrap_or_default();
        assert!(f.convention.len() > 20);
        for c in &f.convention {
            assert!(check(c).is_ok() && !c.names.is_empty() && !c.source.is_empty(), "{c:?}");
        }
        let t = build(&[]).unwrap_or_default();
        assert_eq!(t.answer_role("nextpagetoken"), Some(Role::Cursor));
        assert_eq!(t.names(Role::Argument(PageKind::Page)).first().map(String::as_str), Some("page"));
        assert!(t.is(Role::Records, "searchresults") && t.is(Role::ResponseMeta, "shards"));
    }

    #[test]
    fn the_preset_reads_a_line_at_a_time_as_toml_reads_it() {
        let f: File = toml::from_str(PRESET).unwrap_or_default();
        assert_eq!(preset_lines(PRESET), Some(f.convention));
        // Beyond the part it reads: left to the TOML parser.
        for text in [
            "[[convention]]\nrole = 'single'",
            "[[convention]]\nrole = \"a\\tb\"",
            "[[convention]]\nnames = [\"a\",\n\"b\"]",
            "[[convention]]\nother = \"x\"",
            "role = \"no entry\"",
            "[[convention]]\nrole = \"x\" # comment",
        ] {
            assert_eq!(preset_lines(text), None, "{text}");
        }
        let text = "# c\n[[convention]]\nrole = \"cursor\"\nnames = [\"a\\\"b\", \"c\"]\nsource = \"s\\\\\"\n";
        let f: File = toml::from_str(text).unwrap_or_default();
        assert_eq!(preset_lines(text), Some(f.convention));
    }

    #[test]
    fn user_entries_add_names_and_put_arguments_first() {
        let user = vec![
            Convention { role: "cursor".into(), names: vec!["resume_after".into()], source: String::new() },
            Convention { role: "page_argument".into(), names: vec!["folio".into()], source: String::new() },
        ];
        let t = build(&user).unwrap_or_default();
        assert_eq!(t.answer_role("resumeafter"), Some(Role::Cursor));
        assert_eq!(t.names(Role::Argument(PageKind::Page)).first().map(String::as_str), Some("folio"));
        let bad = Convention { role: "nope".into(), names: vec!["x".into()], source: String::new() };
        assert!(build(&[bad]).is_err());
    }

    #[test]
    fn error_members_are_found_in_order_and_through_paths() {
        let t = build(&[]).unwrap_or_default();
        let m = serde_json::json!({"extensions": {"code": "NOT_FOUND"}, "type": "x", "Message": "gone"});
        let m = m.as_object().cloned().unwrap_or_default();
        assert_eq!(
            t.member(Role::ErrorCode, &m).map(|(k, v)| (k, v.clone())),
            Some(("extensions", "NOT_FOUND".into()))
        );
        assert_eq!(t.member(Role::ErrorMessage, &m).map(|(k, _)| k), Some("Message"));
        // Phrases keep their spaces and `_`; words of tool names are compared as written.
        assert!(t.starts(Role::FailurePrefix, "cannot open file") && !t.starts(Role::FailurePrefix, "cannotopen"));
        assert!(t.is(Role::PartialWord, "partial_success") && t.is(Role::ActionVerb, "create"));
        let user =
            vec![Convention { role: "error_code".into(), names: vec!["fault_code".into()], source: String::new() }];
        let t = build(&user).unwrap_or_default();
        let m = serde_json::json!({"code": 1, "faultCode": 7}).as_object().cloned().unwrap_or_default();
        assert_eq!(t.member(Role::ErrorCode, &m).map(|(k, _)| k), Some("faultCode"));
    }
}
