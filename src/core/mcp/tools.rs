//! Tool descriptors exactly as the server sent them.
//!
//! Each descriptor keeps its original text (for `--json` and the raw view, byte for byte) beside
//! a parsed value (for the tree and the form). Nothing is converted into a typed model and back:
//! that is how other clients lose schema detail (seed 003).

use std::ops::Range;
use std::sync::{Arc, LazyLock, OnceLock};

use serde_json::Value;
use serde_json::value::RawValue;

use crate::json::{Kind, Skim};

/// A value's JSON text exactly as the server sent it, taken out of a reply whose syntax was
/// checked when it arrived: a part of that reply, shared with it (a listing's tools are not
/// copied out of their pages, one allocation each).
#[derive(Clone)]
pub struct RawText {
    whole: Arc<String>,
    span: Range<usize>,
}

impl RawText {
    /// `part`, a slice of `whole`; a copy of it when it is not one.
    pub fn within(whole: &Arc<String>, part: &str) -> RawText {
        let at = (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize);
        let span = at..at.wrapping_add(part.len());
        if whole.get(span.clone()).is_some_and(|s| std::ptr::eq(s, part)) {
            RawText { whole: whole.clone(), span }
        } else {
            RawText::copied(part)
        }
    }

    /// `text`, copied.
    pub fn copied(text: &str) -> RawText {
        RawText { whole: Arc::new(text.to_string()), span: 0..text.len() }
    }

    pub fn get(&self) -> &str {
        self.whole.get(self.span.clone()).unwrap_or_default()
    }
}

/// The text alone, as it reads (not the reply it is a part of).
impl std::fmt::Debug for RawText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("RawText").field(&self.get()).finish()
    }
}

#[derive(Debug, Clone)]
pub struct ToolDescriptor {
    /// The descriptor's JSON text exactly as it appeared in the server's reply.
    pub raw: RawText,
    /// Parsed when first needed: listing 20,000 tools as JSON never needs it. Boxed, as is
    /// `listed`: what is not read yet takes a pointer's room in each descriptor, not a value's.
    value: OnceLock<Box<Value>>,
    /// Why the descriptor could not be read (too deep), if it could not.
    pub unreadable: Option<String>,
    /// The top-level `name` is a non-empty string and `inputSchema` an object or boolean (read
    /// when the descriptor arrived, so listing needs no parse to find what is wrong).
    well_formed: bool,
    /// It holds what can only be read approximated (`1e400`, a lone surrogate: `json::lenient`).
    inexact: bool,
    /// Name, title and the head of the description, read from the text when first needed.
    listed: OnceLock<Box<Listed>>,
}

/// What the tool list filters by: the name, the title and the head of the description, read
/// from the descriptor's text without parsing it (20,000 tools filtered must not hold 20,000
/// parsed descriptors). Title and description are cut to [`LISTED_MAX`] characters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listed {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// As [`ToolDescriptor::read_only`] and [`ToolDescriptor::destructive`] say: the row's mark.
    pub read_only: bool,
    pub destructive: bool,
}

/// The most characters of a title or description a [`Listed`] keeps.
pub const LISTED_MAX: usize = 512;

/// What [`Listed`] is read from: the string literals (as sent, quoted) of the last top-level
/// `name`, `title` and `description` and of `annotations.title`, and the annotations' hints.
#[derive(Default)]
struct Literals<'a> {
    strings: [Option<&'a str>; 4],
    read_only: Option<bool>,
    destructive: Option<bool>,
}

/// [`Literals`] in one pass over the tokens.
fn listed_literals(text: &str) -> Literals<'_> {
    const KEYS: [&str; 3] = ["\"name\"", "\"title\"", "\"description\""];
    const HINTS: [&str; 3] = ["\"title\"", "\"readOnlyHint\"", "\"destructiveHint\""];
    let (mut found, mut key, mut in_annotations, mut hint) = (Literals::default(), None, false, None);
    for tok in Skim::new(text) {
        match (tok.depth, tok.kind) {
            (1, Kind::Key) => {
                let k = tok.text(text);
                key = KEYS.iter().position(|w| *w == k);
                in_annotations = k == "\"annotations\"";
            }
            (1, Kind::String) => {
                if let Some(k) = key.take() {
                    found.strings[k] = Some(tok.text(text));
                }
            }
            (1, _) => key = None,
            (2, Kind::Key) if in_annotations => hint = HINTS.iter().position(|w| *w == tok.text(text)),
            (2, kind) if in_annotations => {
                let flag = matches!(kind, Kind::True | Kind::False).then_some(kind == Kind::True);
                match hint.take() {
                    Some(0) if kind == Kind::String => found.strings[3] = Some(tok.text(text)),
                    // A hint that is no boolean reads as none, as `Value::as_bool` reads it.
                    Some(1) => found.read_only = flag,
                    Some(2) => found.destructive = flag,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    found
}

/// What one pass over a descriptor's text found.
struct Scan {
    depth: usize,
    well_formed: bool,
    inexact: bool,
}

/// The top-level member whose value is being read.
#[derive(PartialEq)]
enum Member {
    Name,
    Schema,
    Other,
}

/// One pass over a descriptor's text: its nesting depth, and whether the top-level `name` holds a
/// non-empty string and `inputSchema` an object or a boolean (the last of repeated keys counts,
/// as in a parse). The text came out of a parsed reply, so its syntax is not checked again. A
/// member's value that is a container is walked byte by byte, not token by token: only its
/// extent, its depth and whether it may hold an inexact literal matter here.
///
/// Also where the value at the start of `text` ends (a descriptor among a page's): the walk
/// stops there.
fn scan(text: &str) -> (Scan, usize) {
    let mut skim = Skim::new(text);
    let (mut suspect, mut end) = (false, text.len());
    let (mut max, mut key, mut root_object) = (0usize, Member::Other, None);
    let (mut name_ok, mut schema_ok) = (false, false);
    while let Some(tok) = skim.next() {
        suspect = suspect || (tok.kind == Kind::Number && crate::json::skim::may_be_inexact(tok.kind, tok.text(text)));
        let in_object = *root_object.get_or_insert(tok.kind == Kind::ObjectOpen);
        if tok.depth == 1 && in_object {
            match tok.kind {
                Kind::Key => {
                    key = match tok.text(text) {
                        "\"name\"" => Member::Name,
                        "\"inputSchema\"" => Member::Schema,
                        _ => Member::Other,
                    };
                }
                // A member's value: the first token at depth 1 after its key.
                kind => {
                    match (kind.starts_value(), &key) {
                        // `""` is the empty name; any longer literal decodes to at least one character.
                        (true, Member::Name) => name_ok = kind == Kind::String && tok.end - tok.start > 2,
                        (true, Member::Schema) => {
                            schema_ok = matches!(kind, Kind::ObjectOpen | Kind::True | Kind::False)
                        }
                        _ => {}
                    }
                    key = Member::Other;
                }
            }
        }
        if tok.kind.is_open() {
            max = max.max(tok.depth + 1);
            if tok.depth >= 1 {
                let (_, deepest, s) = skim.finish_container_noting();
                max = max.max(tok.depth + 1 + deepest);
                suspect |= s;
            }
        } else if tok.depth == 0 {
            // The value's close (or the whole value, a scalar).
            end = tok.end;
            break;
        }
    }
    let text = &text[..end];
    // One search of the whole text for a `\uD...` escape spares a look into each string.
    suspect = suspect || may_hold_surrogate_escape(text);
    // Rare: a literal that may be inexact, read for certain.
    let inexact = suspect && Skim::new(text).any(|t| crate::json::lenient::is_inexact(t.kind, t.text(text)));
    (Scan { depth: max, well_formed: name_ok && schema_ok && root_object == Some(true), inexact }, end)
}

/// Whether `text` holds a backslash followed by `u` and `d` or `D`: without one, no string of it
/// escapes a surrogate. (An escaped backslash before `ud` counts too: this only rules out.)
fn may_hold_surrogate_escape(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'\\', b)
        .any(|i| b.get(i + 1) == Some(&b'u') && b.get(i + 2).is_some_and(|&c| c | 0x20 == b'd'))
}

/// The literal of the last top-level member `key` (quoted, as sent) whose value is a string.
fn top_level_string<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let (mut key_matches, mut found) = (false, None);
    for tok in Skim::new(text).filter(|t| t.depth == 1) {
        match tok.kind {
            Kind::Key => key_matches = tok.text(text) == key,
            Kind::String if key_matches => {
                found = Some(tok.text(text));
                key_matches = false;
            }
            _ => key_matches = false,
        }
    }
    found
}

/// Whether a descriptor's text holds `x-mcp-header` anywhere (it may map a parameter to an HTTP
/// header): a searcher built once, where `str::contains` set one up for every descriptor listed.
pub fn mentions_param_header(text: &str) -> bool {
    static FINDER: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("x-mcp-header"));
    FINDER.find(text.as_bytes()).is_some()
}

impl ToolDescriptor {
    pub fn from_raw(raw: &RawValue, max_depth: usize) -> Self {
        let text = raw.get();
        Self::read(text, max_depth, |end| RawText::copied(&text[..end])).0
    }

    /// The descriptor at the start of `text`, a part of `page` (JSON checked before, as a
    /// page's tools are), and where its text ends: one walk of it finds both. Its text is
    /// shared with the page.
    pub fn in_page(page: &Arc<String>, text: &str, max_depth: usize) -> (Self, usize) {
        Self::read(text, max_depth, |end| RawText::within(page, &text[..end]))
    }

    fn read(text: &str, max_depth: usize, raw: impl FnOnce(usize) -> RawText) -> (Self, usize) {
        let (Scan { depth, well_formed, inexact }, end) = scan(text);
        let unreadable = (depth > max_depth)
            .then(|| format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)"));
        let value = OnceLock::new();
        if unreadable.is_some() {
            let _ = value.set(Box::new(Value::Null));
        }
        let raw = raw(end);
        (ToolDescriptor { raw, value, unreadable, well_formed, inexact, listed: OnceLock::new() }, end)
    }

    /// The text as a `RawValue`, for what reads descriptors as such (the lint, snapshots): read
    /// again each time, borrowing the text.
    pub fn raw_value(&self) -> &RawValue {
        serde_json::from_str(self.raw.get()).unwrap_or(RawValue::NULL)
    }

    /// Name, title and the head of the description (see [`Listed`]), read from the text once.
    pub fn listed(&self) -> &Listed {
        self.listed.get_or_init(|| Box::new(self.read_listed()))
    }

    fn read_listed(&self) -> Listed {
        let cut = |s: &str| crate::sanitize::truncate(s, LISTED_MAX).into_owned();
        if self.value.get().is_some() {
            return Listed {
                name: self.name().to_string(),
                title: self.title().map(cut),
                description: self.description().map(cut),
                read_only: self.read_only(),
                destructive: self.destructive(),
            };
        }
        // A literal decodes as `name()` reads it (a lone surrogate as U+FFFD).
        let read = |l: Option<&str>| l.and_then(|l| crate::json_depth::parse::<String>(l, 1).ok());
        let found = listed_literals(self.raw.get());
        let [name, title, description, annotations_title] = found.strings;
        let read_only = found.read_only == Some(true);
        Listed {
            name: read(name).unwrap_or_default(),
            title: read(title).or_else(|| read(annotations_title)).map(|t| cut(&t)),
            description: read(description).map(|d| cut(&d)),
            read_only,
            destructive: !read_only && found.destructive == Some(true),
        }
    }

    /// A copy that parses for itself: what is read from it (a readable listing) is dropped with
    /// it, not kept beside the descriptor for the life of the list.
    pub fn transient(&self) -> ToolDescriptor {
        let value = OnceLock::new();
        if self.unreadable.is_some() {
            let _ = value.set(Box::new(Value::Null));
        }
        ToolDescriptor {
            raw: self.raw.clone(),
            value,
            unreadable: self.unreadable.clone(),
            well_formed: self.well_formed,
            inexact: self.inexact,
            listed: OnceLock::new(),
        }
    }

    /// Whether the descriptor was parsed (what listing and filtering avoid).
    pub fn is_parsed(&self) -> bool {
        self.value.get().is_some()
    }

    /// The parsed value, taken out (to be dropped iteratively: it may nest deep).
    pub fn take_value(&mut self) -> Option<Value> {
        self.value.take().map(|v| *v)
    }

    /// The descriptor, parsed.
    pub fn value(&self) -> &Value {
        // The text is valid JSON within the depth limit (checked when it was read).
        self.value.get_or_init(|| Box::new(crate::json_depth::parse(self.raw.get(), usize::MAX).unwrap_or_default()))
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.value().get(key).and_then(Value::as_str)
    }

    /// The name as read (a lone surrogate in it as U+FFFD; see [`Self::name_literal`]).
    pub fn name(&self) -> &str {
        self.str_field("name").unwrap_or("")
    }

    /// The name's JSON string literal as sent, when reading it changed it (a lone surrogate):
    /// what a call must send back for the server to know the tool.
    pub fn name_literal(&self) -> Option<&str> {
        if !self.inexact {
            return None;
        }
        top_level_string(self.raw.get(), "\"name\"").filter(|l| crate::json::lenient::is_inexact(Kind::String, l))
    }

    /// The name as [`Self::name`] gives it, read without parsing the descriptor when it has not
    /// been parsed yet: a re-listing of 20,000 tools compares them by name, and parsing them all
    /// would cost several times the list's size.
    pub fn listed_name(&self) -> std::borrow::Cow<'_, str> {
        if self.value.get().is_some() {
            return std::borrow::Cow::Borrowed(self.name());
        }
        top_level_string(self.raw.get(), "\"name\"")
            .and_then(|l| crate::json_depth::parse::<String>(l, 1).ok())
            .map_or(std::borrow::Cow::Borrowed(""), std::borrow::Cow::Owned)
    }

    /// Whether `name` names this tool: its name as read, or as sent between the quotes (so
    /// `sur\ud800` can be typed for a name holding a lone surrogate).
    pub fn is_named(&self, name: &str) -> bool {
        self.name() == name || self.name_literal().and_then(|l| l.get(1..l.len() - 1)) == Some(name)
    }

    /// `title`, or the older `annotations.title`.
    pub fn title(&self) -> Option<&str> {
        self.str_field("title")
            .or_else(|| self.value().get("annotations").and_then(|a| a.get("title")).and_then(Value::as_str))
    }

    pub fn description(&self) -> Option<&str> {
        self.str_field("description")
    }

    pub fn input_schema(&self) -> Option<&Value> {
        self.value().get("inputSchema")
    }

    pub fn output_schema(&self) -> Option<&Value> {
        self.value().get("outputSchema")
    }

    fn hint(&self, key: &str) -> Option<bool> {
        self.value().get("annotations").and_then(|a| a.get(key)).and_then(Value::as_bool)
    }

    pub fn read_only(&self) -> bool {
        self.hint("readOnlyHint") == Some(true)
    }

    /// Destructive per the spec's default: a tool that is not read-only is destructive unless it
    /// says otherwise.
    pub fn destructive(&self) -> bool {
        !self.read_only() && self.hint("destructiveHint") == Some(true)
    }

    /// Why this descriptor is unusable, if it is (it is still listed, never dropped).
    pub fn problem(&self) -> Option<String> {
        if let Some(e) = &self.unreadable {
            return Some(format!("descriptor cannot be read: {e}"));
        }
        // The common case, known without building the descriptor.
        if self.well_formed && !self.inexact {
            return None;
        }
        if self.well_formed {
            let (_, seen) = crate::json_depth::parse_noting::<Value>(self.raw.get(), usize::MAX).unwrap_or_default();
            return Some(format!(
                "it holds {}, {}; tools --json and the raw view have it as sent (it can still be called)",
                seen.describe(),
                seen.stand_ins()
            ));
        }
        let Some(obj) = self.value().as_object() else {
            return Some("descriptor is not a JSON object".into());
        };
        match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => {}
            Some(Value::String(_)) => return Some("tool name is empty".into()),
            Some(_) => return Some("tool name is not a string".into()),
            None => return Some("tool has no name".into()),
        }
        match obj.get("inputSchema") {
            Some(Value::Object(_)) | Some(Value::Bool(_)) => None,
            Some(_) => Some("inputSchema is not a JSON Schema object".into()),
            None => Some("tool has no inputSchema".into()),
        }
    }
}

/// Every tool of a server, after following `nextCursor` to the end.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    pub tools: Vec<ToolDescriptor>,
    pub pages: usize,
    /// What went wrong along the way without stopping the listing (repeated cursor, ...).
    pub warnings: Vec<String>,
    /// The first page's cache hint (2026-07-28: `ttlMs`, `cacheScope`), as one line.
    pub cache: Option<String>,
}

impl ToolList {
    pub fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.tools.iter().find(|t| t.is_named(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<String> {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
        ToolDescriptor::from_raw(&raw, 1000).problem()
    }

    /// What the list filters by, read from the text and from the parsed descriptor, must agree.
    #[test]
    fn listed_reads_from_the_text_what_a_parse_reads() {
        let long = "d".repeat(LISTED_MAX * 3);
        for text in [
            r#"{"name": "a", "title": "T", "description": "x\ny", "inputSchema": {}}"#.to_string(),
            r#"{"name": "a", "annotations": {"title": "old", "readOnlyHint": true}, "inputSchema": {"title": "no"}}"#
                .to_string(),
            r#"{"title": 5, "annotations": {"title": "A", "destructiveHint": true, "x": {"title": "no"}}, "name": "b"}"#
                .to_string(),
            r#"{"name": "sur\ud800", "annotations": {"readOnlyHint": "yes", "destructiveHint": true}}"#.to_string(),
            r#"{"name": "a", "annotations": {"readOnlyHint": true, "destructiveHint": true}, "name": "c"}"#.to_string(),
            r#"{"inputSchema": {"name": "inner", "description": "no"}}"#.to_string(),
            format!(r#"{{"name": "l", "description": "{long}"}}"#),
        ] {
            let raw: Box<RawValue> = serde_json::from_str(&text).unwrap_or_else(|_| RawValue::NULL.to_owned());
            let from_text = ToolDescriptor::from_raw(&raw, 1000);
            let parsed = ToolDescriptor::from_raw(&raw, 1000);
            parsed.value();
            assert_eq!(from_text.listed(), parsed.listed(), "{text}");
            assert!(from_text.value.get().is_none(), "no parse: {text}");
        }
        let raw: Box<RawValue> = serde_json::from_str(&format!(r#"{{"name": "l", "description": "{long}"}}"#))
            .unwrap_or_else(|_| RawValue::NULL.to_owned());
        let d = ToolDescriptor::from_raw(&raw, 1000).listed().description.clone().unwrap_or_default();
        assert_eq!(d.chars().count(), LISTED_MAX);
    }

    /// A listing holds thousands of descriptors; what is read lazily is boxed (the text, shared
    /// with its page, is a pointer and a span).
    #[test]
    fn a_descriptor_unread_is_small() {
        assert!(std::mem::size_of::<ToolDescriptor>() <= 88, "{}", std::mem::size_of::<ToolDescriptor>());
    }

    #[test]
    fn problems_are_found_with_or_without_a_parse() {
        assert_eq!(problem(r#"{"name": "a", "inputSchema": {"type": "object"}}"#), None);
        assert_eq!(problem(r#"{"inputSchema": true, "x": {"name": 1}, "name": "a\"b"}"#), None);
        assert_eq!(problem(r#"{"name": "", "inputSchema": {}}"#).as_deref(), Some("tool name is empty"));
        assert_eq!(problem(r#"{"name": 7, "inputSchema": {}}"#).as_deref(), Some("tool name is not a string"));
        assert_eq!(problem(r#"{"inputSchema": {"name": "inner"}}"#).as_deref(), Some("tool has no name"));
        assert_eq!(problem(r#"{"name": "a"}"#).as_deref(), Some("tool has no inputSchema"));
        assert_eq!(
            problem(r#"{"name": "a", "inputSchema": "x"}"#).as_deref(),
            Some("inputSchema is not a JSON Schema object")
        );
        // The last of repeated keys counts, as in a parse.
        assert_eq!(problem(r#"{"name": "a", "inputSchema": {}, "name": ""}"#).as_deref(), Some("tool name is empty"));
        assert_eq!(problem(r#"["name"]"#).as_deref(), Some("descriptor is not a JSON object"));
        let deep = format!(r#"{{"name": "d", "inputSchema": {}{}}}"#, "[".repeat(50), "]".repeat(50));
        let raw: Box<RawValue> = serde_json::from_str(&deep).unwrap_or_else(|_| RawValue::NULL.to_owned());
        assert!(ToolDescriptor::from_raw(&raw, 20).problem().is_some_and(|p| p.contains("51 levels")));
    }

    #[test]
    fn the_scan_reads_shapes_as_a_parse_would() {
        for (text, well_formed) in [
            (r#"{"name":"a","inputSchema":{}}"#, true),
            (r#" { "name" : "\u00e9\"" , "inputSchema" : false } "#, true),
            (r#"{"name":"\n","inputSchema":true,"n":[1e5,-2.5E-3,{}]}"#, true),
            // A nested `name` or `inputSchema` is not the tool's.
            (r#"{"x":{"name":"a","inputSchema":{}},"name":"b"}"#, false),
            (r#"{"name":"","inputSchema":{}}"#, false),
            (r#"{"name":["a"],"inputSchema":{}}"#, false),
            (r#"{"name":"a","inputSchema":[]}"#, false),
            (r#"{"name":"a","inputSchema":null}"#, false),
            // An escaped key is left to the parse (which finds the name).
            (r#"{"na\u006de":"a","inputSchema":{}}"#, false),
            (r#"[{"name":"a","inputSchema":{}}]"#, false),
            (r#""name""#, false),
            (r#"{}"#, false),
            // Truncated text (never met: descriptors come out of a parse) is judged on what was read.
            (r#"{"name":"a","inputSchema":{"#, true),
        ] {
            assert_eq!(scan(text).0.well_formed, well_formed, "{text}");
        }
        assert_eq!(scan(r#"{"a":[{"b":[]}],"c":"[[[["}"#).0.depth, 4);
        let deep = format!(r#"{{"name":"d","inputSchema":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
        let t = |text: &str| {
            let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
            ToolDescriptor::from_raw(&raw, 1000)
        };
        assert_eq!(t(r#"{"name":"a","inputSchema":{"name":"inner"},"name":"b\u0021"}"#).listed_name(), "b!");
        assert_eq!(t(r#"{"inputSchema":{"name":"inner"}}"#).listed_name(), "");
        let s = scan(&deep).0;
        assert_eq!((s.depth, s.well_formed, s.inexact), (100_001, false, false));
    }

    /// The scan finds an inexact literal wherever reading every token finds one, at any depth,
    /// and nowhere else (numbers with exponents or long digits that a float holds, escapes that
    /// pair up or are no surrogates).
    #[test]
    fn the_scan_finds_inexact_literals_as_reading_every_token_does() {
        let long = format!("1{}", "0".repeat(320));
        let within = format!("1{}", "0".repeat(305));
        for (n, text) in [
            r#"{"name":"a","inputSchema":{"default":1e400}}"#.to_string(),
            r#"{"name":"a","inputSchema":{"enum":[[-1E+999]]}}"#.to_string(),
            r#"{"name":"a","inputSchema":{"x":{"\ud800":1}}}"#.to_string(),
            r#"{"name":"sur\uD800","inputSchema":{}}"#.to_string(),
            r#"{"name":"a","inputSchema":{"const":"x\udfff"}}"#.to_string(),
            format!(r#"{{"name":"a","inputSchema":{{"maximum":{long}}}}}"#),
            format!(r#"{{"name":"a","n":-{long},"inputSchema":{{}}}}"#),
            format!(r#"[{{"a":[{long}]}}]"#),
            r#"{"name":"a","inputSchema":{"default":1e300,"m":-2.5E-3,"p":"\ud83d\ude00"}}"#.to_string(),
            r#"{"name":"a","inputSchema":{"d":"\\ud800","e":"\u0064","f":"\uD7FF"}}"#.to_string(),
            format!(r#"{{"name":"a","inputSchema":{{"maximum":{within}}}}}"#),
            r#"{"name":"1e999","inputSchema":{"description":"1e999 \\ud800"}}"#.to_string(),
        ]
        .iter()
        .enumerate()
        {
            let every = Skim::new(text).any(|t| crate::json::lenient::is_inexact(t.kind, t.text(text)));
            assert_eq!(scan(text).0.inexact, every, "{text}");
            // The first eight hold an inexact literal; the others none.
            assert_eq!(every, n < 8, "{text}");
        }
    }
}
