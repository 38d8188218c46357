//! Tool annotations that contradict each other.

use serde_json::Value;

use super::Finding;

pub fn check(tool: &str, desc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let flag = |k: &str| desc.get("annotations").and_then(|a| a.get(k)).and_then(Value::as_bool);
    if flag("readOnlyHint") == Some(true) && flag("destructiveHint") == Some(true) {
        out.push(Finding::new(
            "annotations/contradiction",
            Some(tool),
            Some("/annotations/destructiveHint".into()),
            "readOnlyHint is true and destructiveHint is true: a tool that changes nothing destroys nothing (hosts that ask before destructive tools get two answers)",
        ));
    }
    out
}
