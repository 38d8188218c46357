//! The checks of the fuzz target (`src/core/fuzz`), shared with the stable property test so CI
//! runs them without nightly: any bytes go to the tokenizer and to each of its users, which must
//! not panic and must agree with serde_json on whether the text is JSON.

use std::sync::Arc;

use serde_json::value::RawValue;

/// Runs every check on `data`; panics (the fuzzer's signal) on a disagreement.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tokenized = super::check(text);
    let serde = super::depth::validate(text);
    assert_eq!(tokenized.is_ok(), serde.is_ok(), "tokenizer {tokenized:?}, serde_json {serde:?}: {text:?}");
    if let Err(e) = tokenized {
        assert!(e.offset <= text.len(), "{e} is past the end of {text:?}");
    }
    let depth = super::depth::depth(text);
    let _ = crate::json_pretty::lines(text, 1000);
    let tree = crate::jsontree::JsonTree::build(Arc::<str>::from(text), "fuzz");
    if serde.is_ok() {
        assert!(tree.error.is_none(), "row model: {:?} for {text:?}", tree.error);
        let deepest = super::Tokenizer::new(text).flatten().filter(|t| t.kind.is_open()).map(|t| t.depth + 1).max();
        assert_eq!(depth, deepest.unwrap_or(0), "depth of {text:?}");
        if let Ok(raw) = serde_json::from_str::<Box<RawValue>>(text) {
            let _ = crate::mcp::ToolDescriptor::from_raw(&raw, 1000).problem();
        }
        if let Ok(v) = super::depth::parse::<serde_json::Value>(text, 1000) {
            let _ = crate::json_out::to_pretty_string(&v);
        }
    }
}
