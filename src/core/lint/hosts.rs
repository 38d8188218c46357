//! Limits on the whole list that a host's own documentation states.

use super::Finding;

/// OpenAI's Chat Completions API: "A max of 128 functions are supported" (`tools`).
const OPENAI_MAX_TOOLS: usize = 128;

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
        assert_eq!(super::check_count(128).len(), 0);
        assert_eq!(super::check_count(129)[0].rule, "host/openai/tool-count");
    }
}
