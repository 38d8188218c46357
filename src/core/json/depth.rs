//! Parsing server JSON of any depth safely.
//!
//! serde_json refuses documents nested deeper than 128 levels, which real schemas can exceed. Here
//! the depth is first measured by an iterative scan (no recursion, any input), compared with a
//! settable limit, and only then parsed, on a stack that grows as needed (serde_stacker), so no
//! server can overflow mcplens's stack.

use serde::de::DeserializeOwned;

use super::Skim;
use super::lenient::Approximated;

/// The default limit on nesting (`--max-depth`).
pub const DEFAULT_MAX_DEPTH: usize = 1000;

/// The deepest nesting of arrays and objects in `text` (brackets outside strings). The syntax is
/// not checked here: the parse that follows reports any fault, and serde_json's own depth limit
/// still guards the parse of a text whose brackets hide in an unterminated string.
pub fn depth(text: &str) -> usize {
    let mut max = 0;
    for tok in Skim::new(text) {
        if tok.kind.is_open() {
            max = max.max(tok.depth + 1);
        }
    }
    max
}

/// Parses `text` as `T` if it nests no deeper than `max_depth`. JSON that serde_json refuses but
/// RFC 8259 allows (`1e400`, a lone surrogate) is read approximated (see [`super::lenient`]).
pub fn parse<T: DeserializeOwned + 'static>(text: &str, max_depth: usize) -> Result<T, String> {
    parse_noting(text, max_depth).map(|(v, _)| v)
}

/// As [`parse`], and what was approximated to read it.
pub fn parse_noting<T: DeserializeOwned + 'static>(text: &str, max_depth: usize) -> Result<(T, Approximated), String> {
    // Inside `exact::reading_exact`, inexact number literals are read as stand-ins.
    let exact = if super::exact::active() { super::exact::rewrite(text) } else { None };
    let text = exact.as_deref().unwrap_or(text);
    match parse_strict(text, max_depth) {
        Ok(v) => Ok((v, Approximated::default())),
        Err(e) => match super::lenient::rewrite(text) {
            Some((fixed, seen)) => parse_strict(&fixed, max_depth).map(|v| (v, seen)).map_err(|_| e),
            None => Err(e),
        },
    }
}

fn parse_strict<T: DeserializeOwned + 'static>(text: &str, max_depth: usize) -> Result<T, String> {
    let d = depth(text);
    if d > max_depth {
        return Err(format!("it nests JSON {d} levels deep, over the limit of {max_depth} (--max-depth)"));
    }
    if d < 120 {
        // Within serde_json's own limit, its plain (faster) parser is safe.
        return serde_json::from_str(text).map_err(|e| e.to_string());
    }
    if let Some(v) = built(text) {
        return Ok(v);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let de = serde_stacker::Deserializer::new(&mut de);
    T::deserialize(de).map_err(|e| e.to_string())
}

/// A deep `Value` (or object) built on a heap stack ([`super::build`]): serde's recursion on a
/// grown stack costs about 3 KB a level. Other types, and text the build refuses, take serde's
/// path, which words the fault.
fn built<T: 'static>(text: &str) -> Option<T> {
    use std::any::{Any, TypeId};
    let boxed: Box<dyn Any> = if TypeId::of::<T>() == TypeId::of::<serde_json::Value>() {
        Box::new(super::build::value(text)?)
    } else if TypeId::of::<T>() == TypeId::of::<serde_json::Map<String, serde_json::Value>>() {
        match super::build::value(text)? {
            serde_json::Value::Object(m) => Box::new(m),
            _ => return None,
        }
    } else {
        return None;
    };
    boxed.downcast::<T>().ok().map(|b| *b)
}

/// Parses `text` as a `T` that borrows from it (raw members, string slices), at any depth.
pub fn parse_borrowed<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de)).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// Checks that `text` is one JSON document, at any depth, without building anything: one walk
/// of `json::valid`; a text it refuses is read by serde_json, whose message (line and column) is
/// the one users see.
pub fn validate(text: &str) -> Result<(), String> {
    validate_with(text, None)
}

/// As [`validate`], the walk sharing a long array with a second thread that calls the meet's
/// `help` once free (see `json::valid::Meet`).
pub fn validate_with(text: &str, meet: Option<&super::valid::Meet>) -> Result<(), String> {
    if super::valid::is_json_with(text, meet) {
        return Ok(());
    }
    validate_serde(text)
}

/// serde_json's check of `text`: the oracle `json::valid` and the tokenizer are fuzzed against.
pub fn validate_serde(text: &str) -> Result<(), String> {
    parse_borrowed::<serde::de::IgnoredAny>(text).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_bounds_depth() {
        assert_eq!(depth(r#"{"a": [1, {"b": "[[[[{"}]}"#), 3);
        let deep = format!("{}1{}", "[".repeat(900), "]".repeat(900));
        let v: serde_json::Value = parse(&deep, 1000).unwrap_or_default();
        assert!(v.is_array());
        let too_deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        let err = parse::<serde_json::Value>(&too_deep, 1000).err().unwrap_or_default();
        assert!(err.contains("5000 levels") && err.contains("--max-depth"), "{err}");
    }

    #[test]
    fn depth_of_shapes() {
        assert_eq!(depth(""), 0);
        assert_eq!(depth("  12.5e-3 "), 0);
        assert_eq!(depth("[]"), 1);
        assert_eq!(depth("{}"), 1);
        assert_eq!(depth(r#"{"k\"[": ["\u00e9[", {"x": [[]]}], "y": "é{"}"#), 5);
        assert_eq!(depth("[[[1e+9, -0.0E-2]], []]"), 3);
        // Truncated or broken text: its brackets outside strings.
        assert_eq!(depth("[[[1,"), 3);
        assert_eq!(depth("[[1]] [[[[["), 5);
        assert_eq!(depth("[\"unterminated [[[[["), 1);
        assert_eq!(depth("]]]][[x[\"\\\"[\"]"), 3);
    }

    #[test]
    fn any_depth_without_overflow() {
        let deep = "[".repeat(100_000);
        assert_eq!(depth(&deep), 100_000);
        let closed = format!("{deep}{}", "]".repeat(100_000));
        assert_eq!(depth(&closed), 100_000);
        assert!(validate(&closed).is_ok());
        assert!(parse::<serde_json::Value>(&closed, 1000).is_err_and(|e| e.contains("100000 levels")));
    }
}
