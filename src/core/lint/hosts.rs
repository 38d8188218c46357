//! Limits on the whole list that a host's own documentation states.

use serde_json::Value;

use super::Finding;

/// OpenAI's Chat Completions API: "A max of 128 functions are supported" (`tools`).
const OPENAI_MAX_TOOLS: usize = 128;

pub fn check(tools: &[Value]) -> Vec<Finding> {
    check_count(tools.len())
}

/// The finding for a list of `count` tools.
pub fn check_count(count: usize) -> Vec<Finding> {
    if count <= OPENAI_MAX_TOOLS {
        return vec![];
    }
    vec![Finding::new(
        "host/openai/tool-count",
        None,
        None,
        format!(
            "{} tools: a host built on OpenAI's API sends at most {OPENAI_MAX_TOOLS} functions in one request, so it must leave some out (and the user's other servers count too)",
            count
        ),
    )]
}

#[cfg(test)]
mod tests {
    #[test]
    fn more_than_128_tools_is_a_finding() {
        let tools: Vec<serde_json::Value> = (0..129).map(|i| serde_json::json!({"name": format!("t{i}")})).collect();
        assert_eq!(super::check(&tools[..128]).len(), 0);
        assert_eq!(super::check(&tools)[0].rule, "host/openai/tool-count");
    }
}
