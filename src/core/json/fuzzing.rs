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
    spans_are_sound(text);
    skim_is_sound(text, tokenized.is_ok());
    let serde = super::depth::validate_serde(text);
    assert_eq!(tokenized.is_ok(), serde.is_ok(), "tokenizer {tokenized:?}, serde_json {serde:?}: {text:?}");
    assert_eq!(super::valid::is_json(text), serde.is_ok(), "valid::is_json, serde_json {serde:?}: {text:?}");
    if let Err(e) = tokenized {
        assert!(e.offset <= text.len(), "{e} is past the end of {text:?}");
    }
    let depth = super::depth::depth(text);
    let pretty = crate::json_pretty::lines(text, 1000);
    let tree = crate::jsontree::JsonTree::build(Arc::<str>::from(text), "fuzz");
    for r in &tree.rows {
        for (a, len) in [(r.key_start, r.key_len), (r.value_start, r.value_len)] {
            let (a, b) = (a as usize, (a + len) as usize);
            assert!(
                b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b),
                "row {a}..{b} of {text:?}"
            );
        }
    }
    // The scan reads text serde_json has checked; on any other it must only end without panic.
    let scan = crate::skeleton::scan(text, usize::MAX, 0, 0);
    assert!(scan.is_ok(), "skeleton scan {:?} of {text:?}", scan.as_ref().err());
    if serde.is_ok() {
        assert!(tree.error.is_none(), "row model: {:?} for {text:?}", tree.error);
        assert!(tree.rows.iter().all(|r| r.loaded), "row model of {text:?} not loaded");
        if let Ok(scan) = &scan {
            for &[a, b] in scan.arrays.iter().flatten().chain(&scan.strings) {
                let span = text.get(a as usize..b as usize);
                assert!(span.is_some_and(|s| super::check(s).is_ok()), "skeleton span {a}..{b} of {text:?}");
            }
        }
        // The same document, laid out (a number too large for a Value is a syntax error to no
        // one, but cannot be compared this way).
        if pretty.len() < 1000
            && let Some(v) = parse_any(text)
        {
            let again = crate::json_pretty::to_string(&pretty);
            assert_eq!(parse_any(&again), Some(v), "pretty {again:?} of {text:?}");
        }
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

fn parse_any(text: &str) -> Option<serde_json::Value> {
    super::depth::parse(text, usize::MAX).ok()
}

/// The unchecked reader yields the checked one's tokens on JSON, and on any text spans inside it
/// on character boundaries.
fn skim_is_sound(text: &str, json: bool) {
    for tok in super::Skim::new(text) {
        assert!(tok.start < tok.end && tok.end <= text.len(), "skim {tok:?} of {text:?}");
        assert!(text.is_char_boundary(tok.start) && text.is_char_boundary(tok.end), "skim {tok:?} of {text:?}");
    }
    if json {
        let checked: Vec<_> = super::Tokenizer::new(text).flatten().collect();
        let skimmed: Vec<_> = super::Skim::new(text).collect();
        assert_eq!(skimmed, checked, "skim of {text:?}");
    }
}

/// Every token's span is inside the text and on character boundaries; strings keep their quotes;
/// depths step as the brackets do.
fn spans_are_sound(text: &str) {
    let mut depth = 0usize;
    for tok in super::Tokenizer::new(text).map_while(Result::ok) {
        assert!(tok.start < tok.end && tok.end <= text.len(), "{tok:?} of {text:?}");
        assert!(text.is_char_boundary(tok.start) && text.is_char_boundary(tok.end), "{tok:?} of {text:?}");
        let s = tok.text(text);
        if matches!(tok.kind, super::Kind::Key | super::Kind::String) {
            assert!(s.len() >= 2 && s.starts_with('"') && s.ends_with('"'), "{tok:?} of {text:?}");
        }
        if tok.kind.is_close() {
            depth = depth.saturating_sub(1);
        }
        assert_eq!(tok.depth, depth, "{tok:?} of {text:?}");
        if tok.kind.is_open() {
            depth += 1;
        }
    }
}

/// Texts for the stable property tests: pieces picked at random (xorshift, so every run picks
/// the same ones) and joined.
#[cfg(test)]
pub(crate) struct Mix(u64);

#[cfg(test)]
impl Mix {
    pub(crate) fn new(seed: u64) -> Mix {
        Mix(seed.max(1))
    }

    /// A number below `n` (at least 1).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    /// Fewer than `most` of `pieces`, joined.
    pub(crate) fn text(&mut self, pieces: &[&str], most: usize) -> String {
        (0..self.below(most)).map(|_| pieces[self.below(pieces.len())]).collect()
    }
}
