//! Validation of tool arguments (and structured results) against the server's JSON Schema.
//!
//! Uses the `jsonschema` crate (2020-12 by default, the draft named by `$schema` otherwise) with
//! format checks on and remote references off: a schema cannot make mcplens fetch anything.
//!
//! Compiling a schema costs time and memory that grow with the square of its nesting, and a
//! stack frame per level, so a schema nested deeper than [`VALIDATED_DEPTH`] is not compiled: the
//! call goes out unvalidated, with a warning, and the server checks the arguments itself.

use serde_json::Value;

/// The deepest schema (in JSON levels) that is compiled for validation: 375 nested `anyOf`s or
/// 750 nested objects, about 40 MB at most.
pub const VALIDATED_DEPTH: usize = 1500;

/// Stack kept free while a schema is compiled or used (the validator recurses per level).
pub(crate) const ROOM: usize = 32 << 20;

/// One violation: where in the instance, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the instance ("" for the root).
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() { "(root)" } else { &self.path };
        write!(f, "{path}: {}", self.message)
    }
}

/// A validator for `schema`; `Err` says why there is none (too deep, or not a usable schema).
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    let depth = crate::deep::depth(schema);
    if depth > VALIDATED_DEPTH {
        return Err(format!(
            "the schema nests {depth} levels deep; mcplens validates schemas up to {VALIDATED_DEPTH} levels"
        ));
    }
    crate::deep::with_room(ROOM, || jsonschema::options().should_validate_formats(true).build(schema))
        .map_err(|e| format!("the schema cannot be used for validation: {e}"))
}

/// The first `max` violations of `instance`. A number kept whole as a stand-in (see
/// `mcp::exact_numbers`) is checked as the number it reads as.
pub fn violations(validator: &jsonschema::Validator, instance: &Value, max: usize) -> Vec<Violation> {
    use crate::mcp::exact_numbers;
    let read = exact_numbers::holds_stand_in(instance).then(|| exact_numbers::value_as_read(instance));
    let instance = read.as_ref().unwrap_or(instance);
    crate::deep::with_room(ROOM, || {
        validator
            .iter_errors(instance)
            .take(max)
            .map(|e| Violation {
                path: e.instance_path().to_string(),
                message: crate::sanitize::line(&message(&e)).into_owned(),
            })
            .collect()
    })
}

/// The error in words. The library's format error reads "is not a "email"", wrong before a
/// vowel: it is said whatever the format's name.
fn message(e: &jsonschema::ValidationError) -> String {
    match e.kind() {
        jsonschema::error::ValidationErrorKind::Format { format } => {
            format!("{} is not in the format \"{format}\"", e.instance())
        }
        _ => e.to_string(),
    }
}

/// Validates `instance`; `Err` when the schema is not used (see [`validator`]). Plain schemas
/// that the arguments satisfy are told so by `quick`, without compiling a validator (and the
/// meta-schema it is checked against, which would stay in memory).
pub fn validate(schema: &Value, instance: &Value) -> Result<Vec<Violation>, String> {
    if super::quick::proves_valid(schema, instance) {
        return Ok(vec![]);
    }
    Ok(violations(&validator(schema)?, instance, 200))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_each_violation_with_its_path() {
        let tool =
            mcplens_demo::catalog::tools().into_iter().find(|t| t["name"] == "fg_findPersons").unwrap_or_default();
        let schema = &tool["inputSchema"];
        let ok = json!({"queries": [{"fg_id": "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c", "role": "engineer"}]});
        assert_eq!(validate(schema, &ok), Ok(vec![]));
        let bad = json!({"queries": [{"fg_id": "nope", "role": "boss", "extra": 1}], "limit": 0});
        let v = validate(schema, &bad).unwrap_or_default();
        let paths: Vec<&str> = v.iter().map(|v| v.path.as_str()).collect();
        assert!(paths.contains(&"/queries/0/fg_id"), "{v:?}");
        assert!(paths.contains(&"/queries/0/role"), "{v:?}");
        assert!(paths.contains(&"/limit"), "{v:?}");
        assert!(v.iter().any(|x| x.message.contains("extra")), "{v:?}");
    }

    #[test]
    fn broken_schema_is_an_error_not_a_panic() {
        assert!(validate(&json!({"type": 12}), &json!(1)).is_err());
    }
}
