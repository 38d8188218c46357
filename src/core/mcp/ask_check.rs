//! An elicitation's answer checked against the requested schema. A small schema is validated
//! whole; a big one property by property: each answered property's schema compiled alone (its
//! choices compared in the text, not compiled), and the required names and
//! `additionalProperties: false` checked here. Compiling a 1M-value enum took 300 MB.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::ask_schema::AskSchema;
use super::descriptor::object_members;
use crate::schema::validate::{self, Violation};

/// The most problems reported at once.
const MAX: usize = 200;

impl AskSchema {
    /// What is wrong with `content` as an answer to this schema; why it cannot be checked when
    /// the schema cannot be used.
    pub fn problems(&self, content: &Map<String, Value>) -> Result<Vec<Violation>, String> {
        // A number kept whole (a default beyond 64 bits) is checked as the number it reads as.
        let content = &*super::exact_numbers::as_read(content);
        let instance = || Value::Object(content.clone());
        if self.is_small() {
            return validate::validate(&self.value()?, &instance());
        }
        let mut out = self.missing(content);
        let by_name: HashMap<&str, usize> =
            self.props().iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
        for (k, v) in content {
            match by_name.get(k.as_str()) {
                Some(&i) => out.extend(self.check_prop(i, k, v)?),
                None if self.closed() => out.push(Violation {
                    path: String::new(),
                    message: format!(
                        "Additional properties are not allowed ({} was unexpected)",
                        Value::from(k.as_str())
                    ),
                }),
                None => {}
            }
            if out.len() >= MAX {
                break;
            }
        }
        out.truncate(MAX);
        Ok(out)
    }

    /// What is wrong with `v` as the answer to property `i` alone (its type, range, format and
    /// choices; not what the schema asks of the whole, such as the required names).
    pub fn prop_problems(&self, i: usize, v: &Value) -> Result<Vec<Violation>, String> {
        let name = self.props().get(i).map_or("", |p| p.name.as_str());
        self.check_prop(i, name, &super::exact_numbers::value_as_read(v))
    }

    /// The required names `content` lacks.
    fn missing(&self, content: &Map<String, Value>) -> Vec<Violation> {
        let props = self.props().iter().filter(|p| p.required).map(|p| p.name.as_str());
        let names = props.chain(self.loose_required().iter().map(String::as_str));
        let missing = names.filter(|n| !content.contains_key(*n)).take(MAX);
        let said = |n: &str| format!("{} is a required property", Value::from(n));
        missing.map(|n| Violation { path: String::new(), message: said(n) }).collect()
    }

    /// Property `i`'s value `v` against its schema: the choices in the text, the rest compiled.
    fn check_prop(&self, i: usize, name: &str, v: &Value) -> Result<Vec<Violation>, String> {
        let path = format!("/{}", name.replace('~', "~0").replace('/', "~1"));
        let info = self.info(i);
        let mut out = vec![];
        if let Some(c) = &info.choices {
            let items = if info.multi { v.as_array().map(|a| a.iter().collect()) } else { Some(vec![v]) };
            for item in items.into_iter().flatten().filter(|x| c.position(x).is_none()) {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("{item} is not one of the {} choices", c.len()),
                });
            }
        }
        let skipped: &[&str] = match (&info.choices, info.multi) {
            (None, _) => &[],
            (Some(_), false) => &["enum", "oneOf", "anyOf"],
            (Some(_), true) => &["items"],
        };
        let mut rest = Map::new();
        for (key, text) in object_members(self.prop_text(i)).unwrap_or_default() {
            if !skipped.contains(&key.as_str()) {
                rest.insert(key, crate::json_depth::parse(text.get(), usize::MAX)?);
            }
        }
        if self.prop_text(i).contains("\"$ref\"") {
            rest.extend(self.defs());
        }
        let checker = validate::validator(&Value::Object(rest))?;
        for mut e in validate::violations(&checker, v, MAX) {
            e.path = format!("{path}{}", e.path);
            out.push(e);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use serde_json::json;

    /// The schema padded past the size that is validated whole.
    fn big(mut v: Value) -> AskSchema {
        v["description"] = Value::String("x".repeat(super::super::ask_schema::SMALL_SCHEMA));
        let raw = Arc::new(v.to_string());
        AskSchema::read(&raw.clone(), &raw)
    }

    fn said(s: &AskSchema, content: Value) -> Vec<String> {
        let content = content.as_object().cloned().unwrap_or_default();
        match s.problems(&content) {
            Ok(v) => v.iter().map(ToString::to_string).collect(),
            Err(e) => vec![e],
        }
    }

    #[test]
    fn a_big_schema_is_checked_property_by_property() {
        let s = big(json!({"type": "object", "required": ["n", "c"], "additionalProperties": false,
            "$defs": {"small": {"maximum": 3}},
            "properties": {"n": {"type": "integer", "$ref": "#/$defs/small"},
                "c": {"type": "string", "enum": ["a", "b"], "minLength": 1},
                "m": {"type": "array", "items": {"enum": ["x", "y"]}, "maxItems": 1}}}));
        assert!(!s.is_small());
        assert_eq!(said(&s, json!({"n": 2, "c": "a"})), Vec::<String>::new());
        assert_eq!(
            said(&s, json!({})),
            ["(root): \"n\" is a required property", "(root): \"c\" is a required property"]
        );
        let wrong = said(&s, json!({"n": 9, "c": "z", "m": ["x", "q"], "other": 1}));
        assert!(wrong.contains(&"/n: 9 is greater than the maximum of 3".to_string()), "{wrong:?}");
        assert!(wrong.contains(&"/c: \"z\" is not one of the 2 choices".to_string()), "{wrong:?}");
        assert!(wrong.contains(&"/m: \"q\" is not one of the 2 choices".to_string()), "{wrong:?}");
        assert!(wrong.iter().any(|w| w.starts_with("/m: ") && w.contains("more than 1 item")), "{wrong:?}");
        assert!(
            wrong.contains(&"(root): Additional properties are not allowed (\"other\" was unexpected)".to_string())
        );
    }

    #[test]
    fn a_small_schema_is_validated_whole() {
        let raw = Arc::new(json!({"type": "object", "required": ["a"], "minProperties": 2}).to_string());
        let s = AskSchema::read(&raw.clone(), &raw);
        let wrong = said(&s, json!({"a": 1}));
        assert_eq!(wrong.len(), 1, "{wrong:?}");
    }
}
