//! Validation of tool arguments (and structured results) against the server's JSON Schema.
//!
//! Uses the `jsonschema` crate (2020-12 by default, the draft named by `$schema` otherwise) with
//! format checks on and remote references off: a schema cannot make mcplens fetch anything.

use serde_json::Value;

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

/// Validates `instance`; `Err` when the schema itself cannot be compiled.
pub fn validate(schema: &Value, instance: &Value) -> Result<Vec<Violation>, String> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("the schema cannot be used for validation: {e}"))?;
    Ok(validator
        .iter_errors(instance)
        .take(200)
        .map(|e| Violation {
            path: e.instance_path.to_string(),
            message: crate::sanitize::line(&e.to_string()).into_owned(),
        })
        .collect())
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
