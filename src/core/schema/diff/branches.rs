//! A schema split into branches: one for each option of its `anyOf`/`oneOf` (completed with the
//! schema's other keywords) and for each JSON type its `type` allows, a branch holding only the
//! keywords that apply to values of its type and only the `enum` values of that type. Schemas
//! written differently that take the same values then have equal branches:
//! `type: ["number", "null"]` and `anyOf: [{"type": "number"}, {"type": "null"}]`, an `anyOf` of
//! two types and one option listing both, `enum: ["a"]` and `const: "a"`. Branches are compared
//! by equality alone, which never calls two schemas the same wrongly and costs no trial
//! comparison; what it cannot pair is left to the comparison by trial.

use serde_json::{Map, Value};

use super::{ALL_TYPES, ANNOTATIONS, EMPTY, ENUM_NOT_LISTED, complete, members, only_for};
use crate::value_set::hash;

/// A schema that splits into more branches than this is left to the comparison by trial.
pub(super) const MAX_BRANCHES: usize = 64;

/// How many levels of option lists inside options are opened.
const MAX_LEVELS: usize = 4;

/// How many options one split may open in all: options that add no branch (`false`) nested in
/// options would otherwise multiply the work.
const MAX_OPENED: usize = 4 * MAX_BRANCHES;

/// One branch of a schema.
pub(super) struct Branch {
    /// The branch as a schema, annotations kept: what a comparison of two branches walks.
    pub schema: Value,
    /// The same without its annotations: what equality compares.
    pub bare: Value,
}

impl Branch {
    /// The JSON type the branch takes, when it takes one only.
    pub fn kind(&self) -> Option<&str> {
        self.bare.get("type").and_then(Value::as_str)
    }
}

impl Drop for Branch {
    fn drop(&mut self) {
        crate::deep::drop_value(std::mem::take(&mut self.schema));
        crate::deep::drop_value(std::mem::take(&mut self.bare));
    }
}

/// The branches of `schema`, each once, types in a fixed order (null, boolean, object, array,
/// number, string, integer); None when it cannot be split: not a schema, a keyword in a form not
/// understood, a `oneOf` whose options may overlap (a value taken by two is refused), too many
/// branches or levels. `root` is the document `schema` is in, for the `$ref`s of a `oneOf`.
pub(super) fn split(schema: &Value, root: &Value) -> Option<Vec<Branch>> {
    let mut out = vec![];
    let mut opened = 0;
    split_into(schema, root, (0, &mut opened), &mut out)?;
    Some(out)
}

/// `at`: the level of option lists this schema is in, and the options opened so far.
fn split_into(schema: &Value, root: &Value, at: (usize, &mut usize), out: &mut Vec<Branch>) -> Option<()> {
    let m = match schema {
        Value::Bool(true) => &*EMPTY,
        // Takes no value: no branch.
        Value::Bool(false) => return Some(()),
        Value::Object(m) => m,
        _ => return None,
    };
    // A thinned enum stands for values that are not there.
    if m.contains_key(ENUM_NOT_LISTED) {
        return None;
    }
    let key = match (m.get("anyOf"), m.get("oneOf")) {
        (None, None) => None,
        (Some(Value::Array(_)), None) => Some("anyOf"),
        (None, Some(Value::Array(_))) => Some("oneOf"),
        _ => return None,
    };
    if let Some(key) = key {
        return options_into(m, key, root, at, out);
    }
    let kinds = kinds(m.get("type"))?;
    match kinds {
        None => add(out, branch(m, None)?),
        Some(kinds) => {
            for t in kinds {
                add(out, branch(m, Some(t))?);
            }
        }
    }
    (out.len() <= MAX_BRANCHES).then_some(())
}

/// The branches of each option of `m`'s `key` list, completed with `m`'s other keywords.
fn options_into(
    m: &Map<String, Value>,
    key: &str,
    root: &Value,
    (level, opened): (usize, &mut usize),
    out: &mut Vec<Branch>,
) -> Option<()> {
    let options = members(m.get(key), key);
    *opened += options.len();
    if level >= MAX_LEVELS || *opened > MAX_OPENED {
        return None;
    }
    let mut completed = Vec::with_capacity(options.len());
    // An option that takes no value adds no branch.
    for (_, option) in options.iter().filter(|(_, o)| **o != Value::Bool(false)) {
        match complete(m, key, option) {
            Some(c) => completed.push(c),
            None => {
                completed.into_iter().for_each(crate::deep::drop_value);
                return None;
            }
        }
    }
    // A value taken by two options of a `oneOf` is refused: its options are a plain union only
    // when no two of them overlap.
    let union = key == "anyOf" || super::disjoint::overlapping(&completed.iter().collect::<Vec<_>>(), root).is_none();
    let mut result = union.then_some(());
    if union {
        for c in &completed {
            result = result.and_then(|()| split_into(c, root, (level + 1, &mut *opened), out));
        }
    }
    completed.into_iter().for_each(crate::deep::drop_value);
    result.filter(|()| out.len() <= MAX_BRANCHES)
}

/// The types a `type` keyword allows, in the order of [`ALL_TYPES`], integers left out when
/// numbers are in: Some(None) when it is missing (any type), None when it is not understood.
fn kinds(t: Option<&Value>) -> Option<Option<Vec<&'static str>>> {
    let named: Vec<&str> = match t {
        None => return Some(None),
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().map(Value::as_str).collect::<Option<_>>()?,
        Some(_) => return None,
    };
    if named.iter().any(|n| !ALL_TYPES.contains(n)) {
        return None;
    }
    let numbers = named.contains(&"number");
    let kinds = ALL_TYPES.into_iter().filter(|t| named.contains(t) && !(*t == "integer" && numbers)).collect();
    Some(Some(kinds))
}

/// Whether a keyword that constrains values of type `only` applies to values of type `t`.
fn applies(only: &str, t: &str) -> bool {
    only == t || (only == "number" && t == "integer")
}

/// Whether `v` is a value of JSON type `t`.
fn of_type(v: &Value, t: &str) -> bool {
    match (t, v) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("array", Value::Array(_)) | ("object", Value::Object(_)) | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

/// The branch of `m` for values of type `t` (every type when None): the keywords that apply to
/// them, `const` and `enum` made one list of values of that type (one value written as `const`);
/// Some(None) when it takes no value, None when a keyword's form is not understood.
fn branch(m: &Map<String, Value>, t: Option<&str>) -> Option<Option<Branch>> {
    let mut schema = Map::new();
    for (k, v) in m {
        let other_type = t.is_some_and(|t| only_for(k).is_some_and(|only| !applies(only, t)));
        if !other_type && k != "const" && k != "enum" && k != "type" {
            schema.insert(k.clone(), crate::deep::clone_value(v));
        }
    }
    if let Some(t) = t {
        schema.insert("type".into(), Value::String(t.into()));
    }
    if let Some(values) = values(m)? {
        let mut values: Vec<&Value> = values.into_iter().filter(|v| t.is_none_or(|t| of_type(v, t))).collect();
        values.sort_by_cached_key(|v| (hash(v), super::compact(v)));
        values.dedup();
        let every_value = match t {
            Some("null") => values.len() == 1,
            Some("boolean") => values.len() == 2,
            _ => false,
        };
        match values[..] {
            [] => {
                crate::deep::drop_value(Value::Object(schema));
                return Some(None);
            }
            _ if every_value => {}
            [one] => {
                schema.insert("const".into(), crate::deep::clone_value(one));
            }
            _ => {
                schema.insert("enum".into(), Value::Array(values.into_iter().map(crate::deep::clone_value).collect()));
            }
        }
    }
    let bare: Map<String, Value> = schema
        .iter()
        .filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), crate::deep::clone_value(v)))
        .collect();
    Some(Some(Branch { schema: Value::Object(schema), bare: Value::Object(bare) }))
}

/// The values `const` and `enum` allow together: Some(None) when neither is written, None when
/// `enum` is not a list.
fn values(m: &Map<String, Value>) -> Option<Option<Vec<&Value>>> {
    let listed = match m.get("enum") {
        None => None,
        Some(Value::Array(a)) => Some(a),
        Some(_) => return None,
    };
    Some(match (m.get("const"), listed) {
        (None, None) => None,
        (Some(c), None) => Some(vec![c]),
        (None, Some(a)) => Some(a.iter().collect()),
        (Some(c), Some(a)) => Some(a.iter().filter(|v| *v == c).collect()),
    })
}

/// `b` added to `out` unless an equal branch is there.
fn add(out: &mut Vec<Branch>, b: Option<Branch>) {
    if let Some(b) = b
        && !out.iter().any(|o| o.bare == b.bare)
    {
        out.push(b);
    }
}

/// Where each of `wanted` is among `held`, by equality of their bare schemas; None for one not
/// there.
pub(super) fn positions(wanted: &[Branch], held: &[Branch]) -> Vec<Option<usize>> {
    let index = crate::value_set::ValueIndex::new(held.iter().map(|b| &b.bare));
    wanted.iter().map(|b| index.position(&b.bare)).collect()
}

/// Whether two lists of branches hold the same ones.
pub(super) fn same(a: &[Branch], b: &[Branch]) -> bool {
    a.len() == b.len() && positions(a, b).iter().all(Option::is_some)
}

/// A key for a list of branches that two lists holding the same branches share: their hashes,
/// sorted.
pub(super) fn key(bs: &[Branch]) -> Vec<u64> {
    let mut k: Vec<u64> = bs.iter().map(|b| hash(&b.bare)).collect();
    k.sort_unstable();
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bare(v: Value) -> Vec<Value> {
        split(&v, &v).expect("splits").iter().map(|b| b.bare.clone()).collect()
    }

    #[test]
    fn a_type_list_and_one_option_per_type_split_alike() {
        let list = json!({"type": ["string", "null"], "maxLength": 5, "description": "a name"});
        let options = json!({"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 5}]});
        assert_eq!(bare(list.clone()), bare(options));
        assert_eq!(bare(list), vec![json!({"type": "null"}), json!({"type": "string", "maxLength": 5})]);
        // Integers are numbers: a list of both is numbers.
        assert_eq!(bare(json!({"type": ["integer", "number"]})), bare(json!({"type": "number"})));
        // Two options merged into one type list.
        let merged = json!({"anyOf": [{"type": ["string", "integer"]}, {"type": "null"}]});
        let apart = json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]});
        assert_eq!(bare(merged), bare(apart));
    }

    #[test]
    fn enum_values_go_to_the_branch_of_their_type() {
        assert_eq!(bare(json!({"enum": ["a"]})), bare(json!({"const": "a"})));
        assert_eq!(bare(json!({"enum": ["b", "a", "a"]})), bare(json!({"enum": ["a", "b"]})));
        let mixed = json!({"type": ["string", "null"], "enum": ["a", null]});
        assert_eq!(bare(mixed), vec![json!({"type": "null"}), json!({"type": "string", "const": "a"})]);
        // No value of a type in the enum: that type takes nothing.
        let numbers = bare(json!({"type": ["string", "integer"], "enum": [2, 1, "b"]}));
        assert_eq!(numbers[0], json!({"type": "string", "const": "b"}));
        assert_eq!(numbers[1], bare(json!({"type": "integer", "enum": [1, 2]}))[0]);
        assert_eq!(bare(json!({"type": ["string", "integer"], "enum": [1, 2]})).len(), 1);
        assert_ne!(bare(json!({"enum": ["a", "b"]})), bare(json!({"const": "a"})));
    }

    #[test]
    fn what_cannot_be_split_is_left_alone() {
        // A oneOf whose options may overlap refuses what two take: no plain union.
        let overlapping = json!({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]});
        assert!(split(&overlapping, &overlapping).is_none());
        let disjoint = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
        assert_eq!(bare(disjoint), bare(json!({"type": ["string", "integer"]})));
        for odd in [
            json!({"type": 3}),
            json!({"type": "text"}),
            json!({"enum": "a"}),
            json!(1),
            json!({"anyOf": [{"type": "string"}], "oneOf": [{}]}),
        ] {
            assert!(split(&odd, &odd).is_none(), "{odd}");
        }
        // Too many branches, or options opened: left to the comparison by trial.
        let many: Vec<Value> = (0..=MAX_BRANCHES).map(|i| json!({"const": i})).collect();
        let wide = json!({ "anyOf": many });
        assert!(split(&wide, &wide).is_none());
        let mut nothing = json!(false);
        for _ in 0..3 {
            nothing = json!({ "anyOf": vec![nothing; 20] });
        }
        assert!(split(&nothing, &nothing).is_none());
        assert!(split(&json!({"anyOf": [false, false]}), &json!({})).is_some_and(|b| b.is_empty()));
    }
}
