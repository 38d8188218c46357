//! A JSON Schema as a tree of nodes for display, built from the schema exactly as the server sent
//! it.
//!
//! Every keyword ends up somewhere: structural keywords become children (properties, items,
//! variants, ...), `type`/`$ref`/`title`/`description`/`required` become the node's header, and
//! every other keyword, known or custom (`x-...`), is listed as a fact. So nothing in the schema is
//! missing from what the tree can show. `$ref` cycles are cut and marked, and depth and size are
//! bounded, so a hostile schema cannot exhaust the stack or memory.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::resolve::{ref_name, resolve};

/// Deeper than this, a branch is cut (with a marker node).
pub const MAX_DEPTH: usize = 96;
/// More nodes than this in one tree, and the rest is cut (with a marker node).
pub const MAX_NODES: usize = 20_000;
/// A tree (or a form) may always hold this many nodes, however small its schema.
pub const MIN_NODES: usize = 4_000;

/// How many nodes the tree of `schema` may hold: [`size_bound`] up to [`MAX_NODES`].
pub fn node_limit(schema: &Value) -> usize {
    size_bound(schema, MAX_NODES)
}

/// How many nodes (tree nodes, form fields) may be built from `schema`: one per value of the
/// schema, at least [`MIN_NODES`], at most `most`. A node costs far more memory than the JSON
/// value it shows, and `$ref`s let a small schema name one definition thousands of times: tying
/// the bound to the schema's own size keeps what is built a fixed multiple of what the server
/// sent. Without `$ref`s a schema yields at most one node per value, so only repeated expansions
/// are cut. Reads at most `most` values.
pub fn size_bound(schema: &Value, most: usize) -> usize {
    let mut values = 0usize;
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        values += 1;
        if values >= most {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    values.clamp(MIN_NODES.min(most), most)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeRole {
    Root,
    Property,
    Items,
    Additional,
    Pattern,
    Variant,
    Conditional,
    Defs,
    /// A marker where the tree was cut (too deep, too large).
    Cut,
}

#[derive(Debug, Clone)]
pub struct SchemaNode {
    pub label: String,
    pub role: NodeRole,
    pub types: String,
    pub required: bool,
    /// The `$ref` that was followed to reach this schema.
    pub reference: Option<String>,
    /// The `$ref` points back at a schema being expanded: not expanded again.
    pub cycle: bool,
    /// The `$ref` could not be resolved locally.
    pub unresolved: bool,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Every other keyword, in the schema's order, as `(keyword, compact JSON)`.
    pub facts: Vec<(String, String)>,
    pub children: Vec<SchemaNode>,
    /// JSON pointer of this schema inside the root it was built from.
    pub pointer: String,
}

impl SchemaNode {
    fn new(label: impl Into<String>, role: NodeRole, pointer: String) -> Self {
        SchemaNode {
            label: label.into(),
            role,
            types: String::new(),
            required: false,
            reference: None,
            cycle: false,
            unresolved: false,
            title: None,
            description: None,
            facts: Vec::new(),
            children: Vec::new(),
            pointer,
        }
    }

    /// Number of nodes in this subtree.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(SchemaNode::count).sum::<usize>()
    }

    pub fn fact(&self, key: &str) -> Option<&str> {
        self.facts.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// Keywords turned into children or header fields rather than facts.
const STRUCTURAL: &[&str] = &[
    "type",
    "$ref",
    "title",
    "description",
    "required",
    "properties",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "contains",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$defs",
    "definitions",
];

struct Builder<'a> {
    root: &'a Value,
    nodes: usize,
    limit: usize,
    refs: Vec<String>,
}

/// Builds the tree of `schema`, resolving `$ref`s against `schema` itself.
pub fn build(schema: &Value) -> SchemaNode {
    build_labeled(schema, "(root)")
}

pub fn build_labeled(schema: &Value, label: &str) -> SchemaNode {
    let mut b = Builder { root: schema, nodes: 0, limit: node_limit(schema), refs: Vec::new() };
    let mut node = b.node(schema, label, NodeRole::Root, String::new(), 0);
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = schema.get(key) {
            let mut group = SchemaNode::new(key, NodeRole::Defs, format!("/{key}"));
            group.types = format!("{} definitions", defs.len());
            for (name, def) in defs {
                let ptr = format!("/{key}/{}", escape_token(name));
                let r = format!("#{ptr}");
                b.refs.push(r);
                let child = b.node(def, name, NodeRole::Property, ptr, 1);
                b.refs.pop();
                group.children.push(child);
            }
            node.children.push(group);
        }
    }
    node
}

fn escape_token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Compact JSON for a fact, cut at a length that suits one line. Only the first bytes of a big or
/// deep value are ever written.
pub fn compact(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("{s:?}"),
        other => crate::deep::to_string_prefix(other, 4 * 120),
    };
    crate::sanitize::truncate(&s, 120).into_owned()
}

fn type_of(schema: &Map<String, Value>) -> String {
    match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts.iter().map(|t| t.as_str().unwrap_or("?")).collect::<Vec<_>>().join("|"),
        Some(other) => format!("invalid type {}", compact(other)),
        None => {
            if schema.contains_key("properties") || schema.contains_key("additionalProperties") {
                "object".into()
            } else if schema.contains_key("items") || schema.contains_key("prefixItems") {
                "array".into()
            } else if schema.contains_key("enum") {
                "enum".into()
            } else if schema.contains_key("const") {
                "const".into()
            } else if schema.contains_key("oneOf") {
                "oneOf".into()
            } else if schema.contains_key("anyOf") {
                "anyOf".into()
            } else if schema.contains_key("allOf") {
                "allOf".into()
            } else {
                "any".into()
            }
        }
    }
}

fn variant_label(kind: &str, i: usize, v: &Value) -> String {
    match v.get("title").and_then(Value::as_str) {
        Some(t) => format!("{kind}[{i}] {t}"),
        None => format!("{kind}[{i}]"),
    }
}

impl Builder<'_> {
    fn cut(&mut self, why: &str, pointer: String) -> SchemaNode {
        let mut n = SchemaNode::new(why, NodeRole::Cut, pointer);
        n.types = "…".into();
        n
    }

    fn node(&mut self, schema: &Value, label: &str, role: NodeRole, pointer: String, depth: usize) -> SchemaNode {
        self.nodes += 1;
        let mut node = SchemaNode::new(label, role, pointer.clone());
        let Some(map) = object_schema(&mut node, schema) else { return node };
        node.title = map.get("title").and_then(Value::as_str).map(str::to_string);
        node.description = map.get("description").and_then(Value::as_str).map(str::to_string);
        node.types = type_of(map);
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            self.follow_ref(&mut node, map, r, depth);
        }
        facts(&mut node, map);
        if depth >= MAX_DEPTH {
            if has_children(map) {
                node.children.push(self.cut("… nested too deep, not shown (see the raw schema)", pointer));
            }
            return node;
        }
        let at = Here { pointer: &pointer, depth };
        self.object_children(&mut node, map, at);
        self.array_children(&mut node, map, at);
        self.variant_children(&mut node, map, at);
        node
    }

    /// Follows `$ref`, expanding the target in place, unless that would loop or go too deep.
    fn follow_ref(&mut self, node: &mut SchemaNode, map: &Map<String, Value>, r: &str, depth: usize) {
        node.reference = Some(r.to_string());
        if self.refs.iter().any(|seen| seen == r) {
            node.cycle = true;
            node.types = ref_name(r).to_string();
        } else if depth >= MAX_DEPTH {
            let cut = self.cut("… nested too deep, not shown (see the raw schema)", node.pointer.clone());
            node.children.push(cut);
            node.types = ref_name(r).to_string();
        } else if let Some(target) = resolve(self.root, r) {
            self.refs.push(r.to_string());
            let inner_ptr = r.strip_prefix('#').unwrap_or("").to_string();
            let label = node.label.clone();
            let inner = self.node(target, &label, node.role, inner_ptr, depth + 1);
            self.refs.pop();
            if !map.contains_key("type") {
                node.types = inner.types;
            }
            node.title = node.title.take().or(inner.title);
            node.description = node.description.take().or(inner.description);
            node.facts = inner.facts;
            node.children = inner.children;
            node.cycle = inner.cycle;
            node.unresolved = inner.unresolved;
        } else {
            node.unresolved = true;
            node.types = ref_name(r).to_string();
        }
    }

    /// A child of `node` for `child`, or one "too large" mark once the tree holds its
    /// [`node_limit`].
    fn add(&mut self, node: &mut SchemaNode, child: &Value, label: String, role: NodeRole, ptr: String, depth: usize) {
        if self.nodes >= self.limit {
            if node.children.last().is_none_or(|c| c.role != NodeRole::Cut) {
                let cut = self.cut("… schema too large, the rest is not shown (see the raw schema)", ptr);
                node.children.push(cut);
            }
            return;
        }
        let c = self.node(child, &label, role, ptr, depth + 1);
        node.children.push(c);
    }

    /// Properties (with their required marks), pattern and additional properties, and the other
    /// keywords that hold one schema for members.
    fn object_children(&mut self, node: &mut SchemaNode, map: &Map<String, Value>, at: Here) {
        let (pointer, depth) = (at.pointer, at.depth);
        let required: HashSet<&str> = match map.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => HashSet::new(),
        };
        if let Some(Value::Object(props)) = map.get("properties") {
            for (name, prop) in props {
                let ptr = format!("{pointer}/properties/{}", escape_token(name));
                self.add(node, prop, name.clone(), NodeRole::Property, ptr, depth);
                if let Some(last) = node.children.last_mut()
                    && last.role == NodeRole::Property
                {
                    last.required = required.contains(name.as_str());
                }
            }
        }
        required_without_schema(node, map);
        if let Some(Value::Object(pats)) = map.get("patternProperties") {
            for (pat, s) in pats {
                let ptr = format!("{pointer}/patternProperties/{}", escape_token(pat));
                self.add(node, s, format!("/{pat}/"), NodeRole::Pattern, ptr, depth);
            }
        }
        if let Some(s @ Value::Object(_)) = map.get("additionalProperties") {
            let ptr = format!("{pointer}/additionalProperties");
            self.add(node, s, "[additional]".into(), NodeRole::Additional, ptr, depth);
        }
        for key in ["propertyNames", "unevaluatedProperties", "contains", "unevaluatedItems"] {
            if let Some(s @ Value::Object(_)) = map.get(key) {
                self.add(node, s, format!("[{key}]"), NodeRole::Items, format!("{pointer}/{key}"), depth);
            }
        }
    }

    /// `items` (one schema, or a tuple) and `prefixItems`; an array of one item schema is
    /// typed `array<item>`.
    fn array_children(&mut self, node: &mut SchemaNode, map: &Map<String, Value>, at: Here) {
        let (pointer, depth) = (at.pointer, at.depth);
        match map.get("items") {
            Some(Value::Array(tuple)) => {
                for (i, s) in tuple.iter().enumerate() {
                    self.add(node, s, format!("[{i}]"), NodeRole::Items, format!("{pointer}/items/{i}"), depth);
                }
            }
            Some(s @ (Value::Object(_) | Value::Bool(_))) => {
                self.add(node, s, "[items]".into(), NodeRole::Items, format!("{pointer}/items"), depth);
                if node.types == "array"
                    && let Some(item) = node.children.last()
                {
                    let inner = match &item.reference {
                        Some(r) => ref_name(r).to_string(),
                        None => item.types.clone(),
                    };
                    node.types = format!("array<{inner}>");
                }
            }
            _ => {}
        }
        if let Some(Value::Array(tuple)) = map.get("prefixItems") {
            for (i, s) in tuple.iter().enumerate() {
                self.add(node, s, format!("[{i}]"), NodeRole::Items, format!("{pointer}/prefixItems/{i}"), depth);
            }
        }
    }

    /// oneOf/anyOf/allOf variants, not/if/then/else, and dependentSchemas.
    fn variant_children(&mut self, node: &mut SchemaNode, map: &Map<String, Value>, at: Here) {
        let (pointer, depth) = (at.pointer, at.depth);
        for kind in ["oneOf", "anyOf", "allOf"] {
            if let Some(Value::Array(vs)) = map.get(kind) {
                for (i, v) in vs.iter().enumerate() {
                    let ptr = format!("{pointer}/{kind}/{i}");
                    self.add(node, v, variant_label(kind, i, v), NodeRole::Variant, ptr, depth);
                }
            }
        }
        for kind in ["not", "if", "then", "else"] {
            if let Some(s) = map.get(kind)
                && (s.is_object() || s.is_boolean())
            {
                self.add(node, s, format!("[{kind}]"), NodeRole::Conditional, format!("{pointer}/{kind}"), depth);
            }
        }
        if let Some(Value::Object(deps)) = map.get("dependentSchemas") {
            for (name, s) in deps {
                let ptr = format!("{pointer}/dependentSchemas/{}", escape_token(name));
                self.add(node, s, format!("[if {name}]"), NodeRole::Conditional, ptr, depth);
            }
        }
    }
}

/// Where a node's children are built: its JSON pointer and depth.
#[derive(Clone, Copy)]
struct Here<'a> {
    pointer: &'a str,
    depth: usize,
}

/// The schema's keywords as an object; a boolean or invalid schema is typed on `node` (which
/// then has no children) and gives None.
fn object_schema<'a>(node: &mut SchemaNode, schema: &'a Value) -> Option<&'a Map<String, Value>> {
    match schema {
        Value::Object(m) => Some(m),
        Value::Bool(true) => {
            node.types = "any".into();
            None
        }
        Value::Bool(false) => {
            node.types = "never".into();
            None
        }
        other => {
            node.types = "invalid schema".into();
            node.facts.push(("value".into(), compact(other)));
            None
        }
    }
}

/// The keywords that are facts, not structure (and the closed-object marks).
fn facts(node: &mut SchemaNode, map: &Map<String, Value>) {
    for (k, v) in map {
        if !STRUCTURAL.contains(&k.as_str()) {
            node.facts.push((k.clone(), compact(v)));
        }
    }
    if let Some(Value::Bool(false)) = map.get("additionalProperties") {
        node.facts.push(("additionalProperties".into(), "false".into()));
    }
    if let Some(Value::Bool(false)) = map.get("unevaluatedProperties") {
        node.facts.push(("unevaluatedProperties".into(), "false".into()));
    }
}

/// Required names with no property schema, as a fact.
fn required_without_schema(node: &mut SchemaNode, map: &Map<String, Value>) {
    let Some(Value::Array(r)) = map.get("required") else { return };
    let props = map.get("properties").and_then(Value::as_object);
    let missing: Vec<&str> =
        r.iter().filter_map(Value::as_str).filter(|n| props.is_none_or(|p| !p.contains_key(*n))).collect();
    if !missing.is_empty() {
        node.facts.push(("required (no property schema)".into(), missing.join(", ")));
    }
}

fn has_children(map: &Map<String, Value>) -> bool {
    STRUCTURAL[5..].iter().any(|k| map.contains_key(*k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find<'a>(n: &'a SchemaNode, path: &[&str]) -> &'a SchemaNode {
        let mut cur = n;
        for p in path {
            cur = cur
                .children
                .iter()
                .find(|c| c.label == *p)
                .unwrap_or_else(|| panic!("no child {p} under {}", cur.label));
        }
        cur
    }

    #[test]
    fn seed_003_person_finder_is_fully_shown() {
        let tool = mcplens_demo::catalog::tools().into_iter().find(|t| t["name"] == "fg_findPersons");
        let schema = tool.map(|t| t["inputSchema"].clone()).unwrap_or_default();
        let tree = build(&schema);
        let queries = find(&tree, &["queries"]);
        assert!(queries.required);
        assert_eq!(queries.types, "array<PersonQuery>");
        assert_eq!(queries.fact("minItems"), Some("1"));
        let item = find(queries, &["[items]"]);
        assert_eq!(item.reference.as_deref(), Some("#/$defs/PersonQuery"));
        assert_eq!(item.fact("additionalProperties"), Some("false"));
        assert_eq!(item.fact("x-searchable"), Some("true"));
        let fg = find(item, &["fg_id"]);
        assert!(fg.required);
        assert_eq!(fg.fact("format"), Some("\"uuid\""));
        assert_eq!(find(item, &["role"]).fact("enum"), Some(r#"["engineer","manager","designer","analyst"]"#));
        assert_eq!(find(item, &["address", "country"]).fact("pattern"), Some("\"^[A-Z]{2}$\""));
        let m = find(item, &["match"]);
        assert_eq!(m.children.len(), 2);
        assert_eq!(find(m, &["oneOf[1] Fuzzy", "fuzziness"]).fact("default"), Some("0.3"));
        let rec = find(item, &["reports_to"]);
        assert!(rec.cycle, "recursive $ref must be cut");
        assert_eq!(find(&tree, &["limit"]).fact("default"), Some("10"));
        assert_eq!(tree.fact("x-fg-version"), Some("\"2.1\""));
        assert!(find(&tree, &["$defs", "Address"]).children.len() == 2);
    }

    #[test]
    fn hostile_schemas_are_bounded() {
        // 500 levels deep (deeper than serde_json will parse): no stack overflow, cut with a marker.
        let mut deep = json!({"type": "string"});
        for _ in 0..500 {
            deep = json!({"type": "object", "properties": {"a": deep}});
        }
        let tree = build(&deep);
        let mut n = &tree;
        let mut depth = 0;
        while let Some(c) = n.children.first() {
            n = c;
            depth += 1;
        }
        assert_eq!(n.role, NodeRole::Cut);
        assert!(depth <= MAX_DEPTH + 1);
        // A DAG of refs that doubles at every level: bounded by MAX_NODES.
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            defs.insert(format!("D{i}"), json!({"properties": {"l": {"$ref": format!("#/$defs/D{}", i + 1)}, "r": {"$ref": format!("#/$defs/D{}", i + 1)}}}));
        }
        let dag = json!({"$ref": "#/$defs/D0", "$defs": defs});
        assert!(build(&dag).count() <= MAX_NODES + 200);
    }

    /// Bytes a tree holds on the heap (nodes, strings, facts), as a unit-level measure of memory.
    fn held(n: &SchemaNode) -> usize {
        let strings = [&n.label, &n.types, &n.pointer].iter().map(|s| s.capacity()).sum::<usize>()
            + [&n.reference, &n.title, &n.description]
                .iter()
                .flat_map(|s| s.as_ref())
                .map(String::capacity)
                .sum::<usize>();
        let facts = n.facts.capacity() * size_of::<(String, String)>()
            + n.facts.iter().map(|(k, v)| k.capacity() + v.capacity()).sum::<usize>();
        let kids = n.children.capacity() * size_of::<SchemaNode>();
        strings + facts + kids + n.children.iter().map(held).sum::<usize>()
    }

    /// `count` properties that all name one definition of `width` described properties.
    fn fan_out(count: usize, width: usize) -> Value {
        let props: serde_json::Map<String, Value> = (0..width)
            .map(|i| (format!("f{i}"), json!({"type": "string", "description": "a field of the shared record"})))
            .collect();
        let refs: serde_json::Map<String, Value> =
            (0..count).map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/R"}))).collect();
        json!({"type": "object", "properties": refs, "$defs": {"R": {"type": "object", "properties": props}}})
    }

    #[test]
    fn repeated_refs_are_bounded_by_the_schema_size() {
        // 2,200 refs to one 40-property definition: a small schema whose expansion is 90k nodes.
        let schema = fan_out(2_200, 40);
        let bytes = serde_json::to_string(&schema).map(|s| s.len()).unwrap_or_default();
        assert!(bytes < 64 << 10, "{bytes}");
        let tree = build(&schema);
        let limit = node_limit(&schema);
        assert!(limit < MAX_NODES / 2, "{limit}");
        // Cut marks (one per cut parent) come on top of the limit.
        assert!(tree.count() <= limit + 2 * (limit / 40) + 50, "{} > {limit}", tree.count());
        // The tree's memory stays a small multiple of the schema's text.
        assert!(held(&tree) < 50 * bytes, "{} bytes held for {bytes}", held(&tree));
        // Other shapes of repetition: refs in arrays and variants, and the doubling DAG.
        let arrays = json!({"type": "array", "items": {"anyOf": (0..2_000).map(|_| json!({"$ref": "#/$defs/R"})).collect::<Vec<_>>()},
            "$defs": fan_out(0, 40)["$defs"].clone()});
        assert!(build(&arrays).count() <= node_limit(&arrays) + 200);
    }

    #[test]
    fn schemas_without_repeated_refs_are_shown_whole() {
        // Up to MAX_NODES, a schema whose refs name each definition once loses nothing.
        let wide = fan_out(0, 12_000);
        let tree = build(&wide);
        assert!(!has_cut(&tree));
        assert_eq!(tree.count(), 1 + 1 + 1 + 12_000);
        // Refs used a few times in a small schema stay under the floor and are expanded.
        let few = fan_out(60, 40);
        assert!(!has_cut(&build(&few)));
        assert_eq!(node_limit(&json!({})), MIN_NODES);
    }

    fn has_cut(n: &SchemaNode) -> bool {
        n.role == NodeRole::Cut || n.children.iter().any(has_cut)
    }

    #[test]
    fn odd_values_do_not_panic() {
        for s in [
            json!(null),
            json!(42),
            json!("x"),
            json!(true),
            json!({"type": 7}),
            json!({"properties": 1}),
            json!({"$ref": 5}),
            json!({"$ref": "#/nope"}),
        ] {
            let _ = build(&s);
        }
        assert!(build(&json!({"$ref": "#/nope"})).unresolved);
    }
}
