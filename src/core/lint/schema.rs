//! A tool's input and output schemas: their type, their dialect, keywords of other drafts,
//! references outside the document, validity, and what Gemini CLI strips. Each schema is read
//! from its text, one node at a time (see [`super::spans`]): a schema of any size costs a small
//! multiple of its bytes.

use serde_json::Value;
use serde_json::value::RawValue;

use super::Finding;
use super::meta_pieces::{self, Draft, Place};
use super::spans::{self, Doc, Members, Node};

/// Schema levels walked for findings: deeper schemas are rare and their keywords are checked by
/// validation.
const MAX_WALK: usize = 64;
/// Findings of one kind kept per schema (a generated schema repeats the same keyword hundreds
/// of times; the first few say it).
const MAX_SAME: usize = 3;

/// Keywords that hold one subschema.
const ONE: &[&str] = &[
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "items",
];
/// Keywords that hold a list of subschemas.
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords that hold a map of subschemas.
const MAP: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Keywords of drafts before 2020-12 that 2020-12 replaced, and what replaced them.
const OLD: &[(&str, &str)] = &[
    ("definitions", "$defs"),
    ("dependencies", "dependentRequired / dependentSchemas"),
    ("additionalItems", "items (with prefixItems)"),
    ("$recursiveRef", "$dynamicRef"),
    ("$recursiveAnchor", "$dynamicAnchor"),
];

/// Schemas with more values than this are checked against their meta-schema (piece by piece)
/// instead of compiled: a compiled validator costs about 40 times the schema's text, past the
/// memory a hostile listing may cost (10 times its bytes).
const COMPILED_NODES: usize = 20_000;

/// The findings about a tool's `inputSchema` and `outputSchema`, given as their texts.
pub fn check(tool: &str, input: Option<&RawValue>, output: Option<&RawValue>, max_depth: usize) -> Vec<Finding> {
    let mut out = vec![];
    let at = "/inputSchema";
    let doc = input.map(|s| Doc::new(s.get()));
    match input.zip(doc.as_ref()).map(|(s, d)| (s, d, d.members(d.root()))) {
        Some((s, doc, Some(m))) => {
            if !is_object_type(&m) {
                out.push(Finding::new(
                    "input-schema/object",
                    Some(tool),
                    Some(at.into()),
                    "inputSchema: its type is not \"object\"",
                ));
            }
            out.extend(one(tool, at, s, doc, &m, max_depth));
        }
        Some((_, _, None)) => out.push(Finding::new(
            "input-schema/object",
            Some(tool),
            Some(at.into()),
            "inputSchema: it is not an object",
        )),
        None => out.push(Finding::new("input-schema/object", Some(tool), Some(at.into()), "no inputSchema")),
    }
    let at = "/outputSchema";
    if let Some(s) = output.filter(|s| s.get().trim() != "null") {
        let doc = Doc::new(s.get());
        let m = doc.members(doc.root());
        if !m.as_ref().is_some_and(is_object_type) {
            let msg = "outputSchema: its type is not \"object\"";
            out.push(Finding::new("output-schema/object", Some(tool), Some(at.into()), msg));
        }
        if let Some(m) = m {
            out.extend(one(tool, at, s, &doc, &m, max_depth));
        }
    }
    out
}

fn is_object_type(m: &Members<'_>) -> bool {
    spans::get(m, "type").and_then(spans::string).is_some_and(|t| t == "object")
}

/// The findings of one schema (`members`, those of `raw`, indexed as `doc`).
fn one(tool: &str, at: &str, raw: &RawValue, doc: &Doc<'_>, members: &Members<'_>, max_depth: usize) -> Vec<Finding> {
    let mut out = vec![];
    let dialect = spans::get(members, "$schema").and_then(spans::string);
    let modern = dialect.as_deref().is_none_or(|d| d.contains("2020-12"));
    if let Some(d) = dialect.as_deref().filter(|_| !modern) {
        let msg = format!("$schema is {d:?}, not 2020-12");
        out.push(Finding::new("schema/dialect", Some(tool), Some(format!("{at}/$schema")), msg));
    }
    let (nodes, depth) = super::text_shape::of(raw.get());
    let large = nodes > COMPILED_NODES;
    let mut walk = Walk::new(tool, doc, modern, max_depth);
    if large && depth <= crate::schema::validate::VALIDATED_DEPTH {
        walk.meta = Some(Meta::of(dialect.as_deref(), members, max_depth));
    }
    walk.visit(doc.root(), &mut at.to_string(), 0, true, true);
    let remote = walk.counts[1] > 0;
    out.append(&mut walk.out);
    // Where the schema fails (a node of a large one, else the whole), and why.
    let invalid = match () {
        _ if remote => None,
        _ if large && depth > crate::schema::validate::VALIDATED_DEPTH => {
            Some((at.to_string(), format!("the schema nests {depth} levels deep")))
        }
        _ if large => walk.meta_error.take(),
        _ => compiles(raw, max_depth).err().map(|e| (at.to_string(), e)),
    };
    if let Some((node, e)) = invalid {
        let msg = format!("the schema does not compile: {}", super::session::short(&e));
        out.push(Finding::new("schema/invalid", Some(tool), Some(node), msg));
    }
    if at == "/inputSchema" && walk.additional {
        out.push(Finding::new(
            "host/gemini-cli/schema-stripped",
            Some(tool),
            Some(at.into()),
            "Gemini CLI removes additionalProperties before the model sees the schema: it may send properties this schema forbids",
        ));
    }
    out
}

/// A small schema compiled as the validator would compile it.
fn compiles(raw: &RawValue, max_depth: usize) -> Result<(), String> {
    let schema: Value = crate::json_depth::parse(raw.get(), max_depth)?;
    let compiled = crate::schema::validate::validator(&schema).map(|_| ());
    crate::deep::drop_value(schema);
    compiled
}

/// A large schema's check against its meta-schema: its draft, and the root's `$schema`, which
/// each piece carries so that it is read in the root's draft.
struct Meta {
    draft: Draft,
    dialect: Option<Value>,
}

impl Meta {
    fn of(dialect: Option<&str>, root: &Members<'_>, max_depth: usize) -> Meta {
        let given = spans::get(root, "$schema").and_then(|d| crate::json_depth::parse(d.text, max_depth).ok());
        Meta { draft: Draft::of(dialect), dialect: given }
    }
}

/// Whether `text`, a schema, passes its meta-schema, checked piece by piece.
#[cfg(test)]
pub(super) fn meta_by_pieces(text: &str, max_depth: usize) -> Result<(), String> {
    let doc = Doc::new(text);
    let Some(m) = doc.members(doc.root()) else {
        return jsonschema::meta::validate(&serde_json::from_str(text).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string());
    };
    let dialect = spans::get(&m, "$schema").and_then(spans::string);
    let mut walk = Walk::new("", &doc, true, max_depth);
    walk.meta = Some(Meta::of(dialect.as_deref(), &m, max_depth));
    walk.visit(doc.root(), &mut String::new(), 0, false, true);
    walk.meta_error.map_or(Ok(()), |(at, e)| Err(format!("{at}: {e}")))
}

/// The way a keyword's value holds subschemas, for the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    One,
    List,
    Map,
}

struct Walk<'a, 'd> {
    tool: &'a str,
    doc: &'a Doc<'d>,
    out: Vec<Finding>,
    modern: bool,
    /// Findings so far: old keywords, remote refs, (unused).
    counts: [usize; 3],
    /// Whether a schema node has `additionalProperties`.
    additional: bool,
    /// Set for a large schema: checked piece by piece against its meta-schema.
    meta: Option<Meta>,
    /// The first piece that fails its meta-schema: where, and why.
    meta_error: Option<(String, String)>,
    max_depth: usize,
}

impl<'a, 'd> Walk<'a, 'd> {
    fn new(tool: &'a str, doc: &'a Doc<'d>, modern: bool, max_depth: usize) -> Walk<'a, 'd> {
        let (out, counts) = (vec![], [0; 3]);
        Walk { tool, doc, out, modern, counts, additional: false, meta: None, meta_error: None, max_depth }
    }

    /// The node `raw` at `at`, `depth` schema levels down: its findings when `walk`, its piece of
    /// the meta-schema check when `meta`; then its subschemas.
    fn visit(&mut self, raw: Node<'d>, at: &mut String, depth: usize, walk: bool, meta: bool) {
        let walk = walk && depth <= MAX_WALK;
        let meta = meta && self.meta.is_some() && self.meta_error.is_none();
        if !walk && !meta {
            return;
        }
        let Some(m) = self.doc.members(raw) else { return };
        if walk {
            self.findings(&m, at);
        }
        if meta {
            self.check_piece(&m, at);
        }
        for &(ref k, v) in &m {
            let array = meta_pieces::starts(v) == b'[';
            let by_walk = if walk { walk_shape(k, array) } else { None };
            let by_meta = match (meta, &self.meta) {
                (true, Some(x)) => meta_shape(meta_pieces::place(x.draft, k, array)),
                _ => None,
            };
            let len = at.len();
            at.push('/');
            at.push_str(&crate::schema::diff::token(k));
            if by_walk == by_meta {
                self.descend(v, by_walk, at, depth, walk, meta);
            } else {
                self.descend(v, by_walk, at, depth, walk, false);
                self.descend(v, by_meta, at, depth, false, meta);
            }
            at.truncate(len);
        }
    }

    /// The subschemas of `v`, held the way `shape` says.
    fn descend(&mut self, v: Node<'d>, shape: Option<Shape>, at: &mut String, depth: usize, walk: bool, meta: bool) {
        let len = at.len();
        match shape {
            None => {}
            Some(Shape::One) => crate::deep::grow(|| self.visit(v, at, depth + 1, walk, meta)),
            Some(Shape::List) => {
                let items = self.doc.elements(v).unwrap_or_default();
                for (i, sub) in items.into_iter().enumerate() {
                    at.push_str(&format!("/{i}"));
                    crate::deep::grow(|| self.visit(sub, at, depth + 1, walk, meta));
                    at.truncate(len);
                }
            }
            Some(Shape::Map) => {
                for (name, sub) in self.doc.members(v).unwrap_or_default() {
                    at.push('/');
                    at.push_str(&crate::schema::diff::token(&name));
                    crate::deep::grow(|| self.visit(sub, at, depth + 1, walk, meta));
                    at.truncate(len);
                }
            }
        }
    }

    fn findings(&mut self, m: &Members<'_>, at: &str) {
        if self.modern {
            for (k, instead) in OLD {
                if spans::get(m, k).is_some() {
                    let msg = format!("{k} is not a 2020-12 keyword (use {instead}); validators ignore it");
                    self.note(0, "schema/draft-keyword", format!("{at}/{k}"), msg);
                }
            }
            if spans::get(m, "items").is_some_and(|v| meta_pieces::starts(v) == b'[') {
                let msg = "items as an array is the tuple form of older drafts (2020-12: prefixItems)";
                self.note(0, "schema/draft-keyword", format!("{at}/items"), msg.into());
            }
        }
        if let Some(r) = spans::get(m, "$ref").and_then(spans::string)
            && !r.starts_with('#')
        {
            self.note(1, "schema/remote-ref", format!("{at}/$ref"), format!("$ref {r:?} points outside the schema"));
        }
        self.additional |= spans::get(m, "additionalProperties").is_some();
    }

    fn check_piece(&mut self, m: &Members<'_>, at: &str) {
        let Some(meta) = &self.meta else { return };
        let piece = meta_pieces::piece(meta.draft, self.doc, m, meta.dialect.as_ref(), self.max_depth);
        // A piece nests only as deep as the values the meta-schema constrains, which it checks
        // one level down: no room is needed beyond this frame's.
        let checked = jsonschema::meta::validate(&piece).map_err(|e| e.to_string());
        crate::deep::drop_value(piece);
        if let Err(e) = checked {
            self.meta_error = Some((at.to_string(), format!("the schema cannot be used for validation: {e}")));
        }
    }

    fn note(&mut self, kind: usize, rule: &'static str, at: String, message: String) {
        self.counts[kind] += 1;
        if self.counts[kind] <= MAX_SAME {
            self.out.push(Finding::new(rule, Some(self.tool), Some(at), message));
        }
    }
}

/// How the walk for findings reads a keyword's subschemas.
fn walk_shape(key: &str, array: bool) -> Option<Shape> {
    if MAP.contains(&key) {
        Some(Shape::Map)
    } else if LIST.contains(&key) && array {
        Some(Shape::List)
    } else if ONE.contains(&key) {
        Some(Shape::One)
    } else {
        None
    }
}

fn meta_shape(place: Place) -> Option<Shape> {
    match place {
        Place::One => Some(Shape::One),
        Place::List => Some(Shape::List),
        Place::Map => Some(Shape::Map),
        Place::Kept | Place::Free => None,
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;
    use serde_json::json;

    fn invalid(schema: &Value) -> Vec<String> {
        let text = schema.to_string();
        let raw: &RawValue = serde_json::from_str(&text).unwrap();
        let found = check("t", Some(raw), None, 200).into_iter().filter(|f| f.rule == "schema/invalid");
        found.map(|f| format!("{} {}", f.at.unwrap_or_default(), f.message)).collect()
    }

    #[test]
    fn a_large_schema_is_checked_against_its_meta_schema_piece_by_piece() {
        let props: serde_json::Map<String, Value> =
            (0..30_000).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
        let good = json!({"type": "object", "properties": props});
        assert!(super::super::text_shape::of(&good.to_string()).0 > COMPILED_NODES);
        assert_eq!(invalid(&good), Vec::<String>::new());
        let mut bad = good.clone();
        bad["properties"]["p7"] = json!({"type": 5});
        let found = invalid(&bad);
        assert!(found.len() == 1 && found[0].starts_with("/inputSchema/properties/p7 "), "{found:?}");
        assert_eq!(invalid(&json!({"type": 5})).len(), 1);
    }

    /// Each level lists only its own members, jumping over nested ones: a schema 600 levels deep
    /// is read about once (a listing that read whole subtrees would read it 300 times).
    #[test]
    fn a_deep_schema_is_read_a_bounded_number_of_times() {
        let level = r#"{"type":"object","required":["a"],"allOf":[{"minimum":1}],"x":"\"}","properties":{"a":"#;
        let n = 600;
        let text = format!("{}{}{}", level.repeat(n), r#"{"type":"string"}"#, "}}".repeat(n));
        let doc = Doc::new(&text);
        let root = doc.members(doc.root()).unwrap();
        let mut walk = Walk::new("t", &doc, true, 10_000);
        walk.meta = Some(Meta::of(None, &root, 10_000));
        walk.visit(doc.root(), &mut String::new(), 0, true, true);
        assert_eq!(walk.meta_error, None);
        let read = doc.read.get();
        assert!(read >= text.len() / 2 && read <= 2 * text.len(), "{read} bytes read of {}", text.len());
    }
}
