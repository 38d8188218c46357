use proptest::prelude::*;

use super::*;

fn kinds(text: &str) -> Vec<(Kind, &str, usize)> {
    Tokenizer::new(text).map_while(Result::ok).map(|t| (t.kind, t.text(text), t.depth)).collect()
}

fn serde_accepts(text: &str) -> bool {
    crate::json_depth::validate_serde(text).is_ok()
}

#[test]
fn tokens_carry_spans_and_depth() {
    use Kind::*;
    let text = r#" {"a": [1, -2.5e3, "x\"y"], "b": {}, "c": [true, false, null]} "#;
    assert_eq!(
        kinds(text),
        vec![
            (ObjectOpen, "{", 0),
            (Key, "\"a\"", 1),
            (ArrayOpen, "[", 1),
            (Number, "1", 2),
            (Number, "-2.5e3", 2),
            (String, "\"x\\\"y\"", 2),
            (ArrayClose, "]", 1),
            (Key, "\"b\"", 1),
            (ObjectOpen, "{", 1),
            (ObjectClose, "}", 1),
            (Key, "\"c\"", 1),
            (ArrayOpen, "[", 1),
            (True, "true", 2),
            (False, "false", 2),
            (Null, "null", 2),
            (ArrayClose, "]", 1),
            (ObjectClose, "}", 0),
        ]
    );
    assert_eq!(check(text), Ok(()));
}

#[test]
fn errors_name_their_byte() {
    let at = |t: &str| check(t).err().map(|e| e.offset);
    assert_eq!(at("[1,]"), Some(3));
    assert_eq!(at("{\"a\":1,}"), Some(7));
    assert_eq!(at("[01]"), Some(2));
    assert_eq!(at("\"a\u{1}\""), Some(2));
    assert_eq!(at("[1] x"), Some(4));
    assert_eq!(at("[1}"), Some(2));
    assert_eq!(at(""), Some(0));
    assert_eq!(at("\"\\uZ000\""), Some(3));
    assert_eq!(at("1."), Some(2));
    assert_eq!(at("tru"), Some(3));
    assert_eq!(at("\"\\ud800\""), None);
}

#[test]
fn any_depth_without_recursion() {
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    assert_eq!(check(&deep), Ok(()));
    let open = "[{\"k\":".repeat(100_000);
    assert!(check(&open).is_err());
}

/// Every byte of the plain-run fast path: each special byte at each offset of a chunk.
#[test]
fn string_scan_finds_specials_anywhere() {
    for at in 0..20 {
        for special in ["\"", "\\n", "\u{1f}", "é"] {
            let lit = format!("\"{}{special}{}\"", "a".repeat(at), "b".repeat(20 - at));
            assert_eq!(check(&lit).is_ok(), serde_accepts(&lit), "{lit:?}");
        }
    }
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::String),
        "[\\\\\"\u{0}-\u{1f}a]{0,4}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("\\PC{0,4}", inner), 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Edits that make near-JSON: a byte inserted, removed or replaced from JSON's own alphabet.
fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    const ALPHABET: &[u8] = b"[]{}\",: \t\n\r0123456789.eE+-\\utrfnalsx/\x01";
    let mut b = text.as_bytes().to_vec();
    for &(at, op, c) in edits {
        let at = if b.is_empty() { 0 } else { at % (b.len() + 1) };
        let c = ALPHABET[c as usize % ALPHABET.len()];
        match op % 3 {
            0 => b.insert(at, c),
            1 if at < b.len() => {
                b.remove(at);
            }
            _ if at < b.len() => b[at] = c,
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn agrees_with_serde_json_on_valid_and_mutated_documents(
        v in json_value(),
        pretty in any::<bool>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..4),
    ) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) };
        let text = text.unwrap_or_default();
        prop_assert_eq!(check(&text), Ok(()));
        crate::json::fuzzing::check(mutate(&text, &edits).as_bytes());
    }

    #[test]
    fn agrees_with_serde_json_on_random_text(s in "[\\[\\]{}\",: \t\n0-9.eE+\\-\\\\utrfnals\u{1}é]{0,24}") {
        crate::json::fuzzing::check(s.as_bytes());
    }

    #[test]
    fn never_panics_on_bytes(b in prop::collection::vec(any::<u8>(), 0..64)) {
        crate::json::fuzzing::check(&b);
    }
}

#[test]
fn skip_container_passes_contents_unchecked_and_counts_children() {
    let text = r#"{"a": [1, [2, "]"], {"b": 3}], "c": 4}"#;
    let mut t = Tokenizer::new(text);
    let opened: Vec<Kind> = t.by_ref().take(3).map(|x| x.map(|x| x.kind).unwrap_or(Kind::Null)).collect();
    assert_eq!(opened, [Kind::ObjectOpen, Kind::Key, Kind::ArrayOpen]);
    let end = text.find("], \"c\"").map_or(0, |i| i + 1);
    assert_eq!(t.skip_container(), Ok((end, 3)));
    let rest: Vec<&str> = t.map(|x| x.map(|x| &text[x.start..x.end]).unwrap_or("?")).collect();
    assert_eq!(rest, ["\"c\"", "4", "}"]);
    let mut t = Tokenizer::new(r#"[{"x": [1, 2"#);
    assert!(t.nth(1).is_some_and(|x| x.is_ok_and(|x| x.kind == Kind::ObjectOpen)));
    assert!(t.skip_container().is_err());
    assert_eq!(t.next(), None);
}
