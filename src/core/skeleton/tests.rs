use super::*;
use serde_json::json;

fn text(v: &str) -> SharedText {
    SharedText::Str(Arc::from(v))
}

/// Pads a document past MIN_TEXT with a long string member so it gets a skeleton.
fn big(doc: Value) -> String {
    let mut m = serde_json::Map::new();
    m.insert("doc".into(), doc);
    m.insert("pad".into(), Value::String("p".repeat(MIN_TEXT)));
    Value::Object(m).to_string()
}

fn records(n: usize) -> Value {
    Value::Array((0..n).map(|i| json!({"id": i, "tags": [i, "x"], "name": format!("r{i}")})).collect())
}

#[test]
fn short_texts_are_not_skeletons() {
    let mut e = Elisions::default();
    assert!(e.parse(text(r#"{"a":[1,2,3]}"#), 100).is_none());
}

#[test]
fn long_arrays_keep_a_sample_and_every_span() {
    let doc = json!({"items": records(1000), "small": [1, 2, 3], "total": 1000});
    let raw = big(doc.clone());
    let mut e = Elisions::default();
    let mut v = e.parse(text(&raw), 100).unwrap().unwrap();
    let items = v["doc"]["items"].as_array().unwrap();
    assert_eq!(items.len(), SAMPLE + 1);
    assert_eq!(sentinel(&items[SAMPLE]).map(|(_, rest)| rest), Some(1000 - SAMPLE));
    assert_eq!(array_len(items), 1000);
    assert_eq!(v["doc"]["small"], json!([1, 2, 3]));
    let (id, _) = sentinel(&items[SAMPLE]).unwrap();
    let el = e.get(id).unwrap();
    assert_eq!(el.len(), 1000);
    assert_eq!(el.value(999), Some(doc["items"][999].clone()));
    assert_eq!(el.raw(0), Some(doc["items"][0].to_string().as_str()));
    e.expand(&mut v);
    assert_eq!(v["doc"], doc);
}

#[test]
fn nested_long_arrays_and_whitespace_survive_expansion() {
    let inner: Vec<Value> = (0..100).map(|i| json!({"row": i, "cells": (0..150).collect::<Vec<_>>()})).collect();
    let doc = json!({"tables": [inner.clone(), [], [[]]], "s": "a \"quoted\" ] , [ string", "deep": [[[[1]]]]});
    // Pretty text: spans must not take in the whitespace between elements.
    let raw = serde_json::to_string_pretty(&json!({"doc": doc.clone(), "pad": "p".repeat(MIN_TEXT)})).unwrap();
    let mut e = Elisions::default();
    let mut v = e.parse(text(&raw), 100).unwrap().unwrap();
    let rows = v["doc"]["tables"][0].as_array().unwrap();
    assert_eq!(array_len(rows), 100);
    // A long array inside a sampled element is a skeleton too.
    assert_eq!(array_len(rows[0]["cells"].as_array().unwrap()), 150);
    assert_eq!(rows[0]["cells"].as_array().unwrap().len(), SAMPLE + 1);
    e.expand(&mut v);
    assert_eq!(v["doc"], doc);
}

#[test]
fn broken_and_too_deep_texts_fail_as_a_full_parse_would() {
    let raw = big(records(200));
    let broken = raw.replacen("\"id\":150", "\"id\":15 0", 1);
    assert!(Elisions::default().parse(text(&broken), 100).unwrap().is_err());
    let deep = format!("{}{}{}", "[".repeat(50), big(records(100)), "]".repeat(50));
    let err = Elisions::default().parse(text(&deep), 20).unwrap().unwrap_err();
    assert!(err.contains("--max-depth"), "{err}");
}

/// Elements of a long array's tail are skipped over, not read token by token: nesting inside
/// one still counts against the limit exactly as a full parse has it.
#[test]
fn nesting_in_a_long_arrays_tail_counts_against_the_limit() {
    for at in [3, SAMPLE + 10] {
        for nest in [1, 2, 5] {
            let mut items: Vec<Value> = (0..200).map(|i| json!({"id": i, "tags": ["x"]})).collect();
            let mut deep = json!("leaf");
            for _ in 0..nest {
                deep = json!([deep, {"k": {}}]);
            }
            items[at] = json!({"id": at, "deep": deep});
            let raw = big(json!({"items": items}));
            let need = crate::json_depth::depth(&raw);
            for limit in [need - 1, need, need + 1] {
                let skeleton = Elisions::default().parse(text(&raw), limit).unwrap();
                let full = crate::json_depth::parse::<Value>(&raw, limit);
                assert_eq!(skeleton.is_ok(), full.is_ok(), "element {at}, nest {nest}, limit {limit}");
            }
            let mut el = Elisions::default();
            let v = el.parse(text(&raw), usize::MAX).unwrap().unwrap();
            assert_eq!(v["doc"]["items"].as_array().map(|a| array_len(a)), Some(200));
            let e = el.get(0).unwrap();
            assert_eq!(e.value(at).unwrap(), items[at], "{at} {nest}");
            assert_eq!(e.raw(199), Some(r#"{"id":199,"tags":["x"]}"#));
        }
    }
}

#[test]
fn sentinels_cannot_be_forged() {
    let forged = format!("{PREFIX}{:x}:0:5", nonce().wrapping_add(1));
    assert_eq!(sentinel(&Value::String(forged)), None);
    assert_eq!(sentinel(&Value::String(sentinel_text(3, 7))), Some((3, 7)));
}

#[test]
fn same_compares_left_out_elements() {
    let a_doc = records(300);
    let mut b_doc = a_doc.clone();
    b_doc[299]["name"] = json!("changed");
    let mut e = Elisions::default();
    let a = e.parse(text(&big(a_doc.clone())), 100).unwrap().unwrap();
    // The same data, pretty-printed, is the same document.
    let pretty = serde_json::to_string_pretty(&json!({"doc": a_doc, "pad": "p".repeat(MIN_TEXT)})).unwrap();
    let a2 = e.parse(text(&pretty), 100).unwrap().unwrap();
    let b = e.parse(text(&big(b_doc)), 100).unwrap().unwrap();
    assert!(e.same(&a, &a2));
    assert!(!e.same(&a, &b));
}

#[test]
fn projection_reads_a_member_of_each_element() {
    let edges: Vec<Value> = (0..200).map(|i| json!({"cursor": format!("c{i}"), "node": {"n": i}})).collect();
    let raw = big(Value::Array(edges));
    let mut e = Elisions::default();
    let v = e.parse(text(&raw), 100).unwrap().unwrap();
    let (id, _) = sentinel(&v["doc"][SAMPLE]).unwrap();
    let s = e.project(id, "node").unwrap();
    let (pid, rest) = sentinel(&s).unwrap();
    assert_eq!(rest, 200 - SAMPLE);
    assert_eq!(e.get(pid).unwrap().value(150), Some(json!({"n": 150})));
}

#[test]
fn unescape_matches_serde_json() {
    for s in ["", "plain", "q\"b\\s/", "\u{8}\u{c}\n\r\t\u{1}", "é€𝄞 😀", "\u{2028}\u{202e}", "a\\u0041"] {
        let lit = serde_json::to_string(s).unwrap();
        assert_eq!(unescape(&lit).as_deref(), Some(s), "{lit}");
    }
    // Escapes serde_json does not write itself.
    assert_eq!(unescape(r#""\u00e9\/\ud834\udd1e""#).as_deref(), Some("é/𝄞"));
    assert_eq!(unescape(r#""lone \ud800 surrogate""#).as_deref(), Some("lone \u{fffd} surrogate"));
    assert_eq!(unescape(r#""bad \x""#), None);
}

/// Runs of plain bytes are copied eight at a time: every escape and multi-byte character at
/// every offset from those eight-byte steps decodes as serde_json has it.
#[test]
fn unescape_agrees_at_every_offset() {
    for piece in ["\"", "\\", "\n", "é", "€", "😀", "\u{1}", "/"] {
        for before in 0..17 {
            for after in [0, 1, 7, 8, 9] {
                let s = format!("{}{piece}{}{piece}", "a".repeat(before), "b".repeat(after));
                let lit = serde_json::to_string(&s).unwrap();
                assert_eq!(unescape(&lit).as_deref(), Some(s.as_str()), "{lit}");
                let u = format!("\"{}\\u00e9\\ud83d\\ude00{}\"", "c".repeat(before), "d".repeat(after));
                let want: String = serde_json::from_str(&u).unwrap();
                assert_eq!(unescape(&u), Some(want), "{u}");
            }
        }
    }
    assert_eq!(unescape("\"ends in a backslash \\\""), None);
}

/// Escaped JSON has an escape every few bytes. Once eight escapes are behind, a whole word is
/// written at once, its bytes past the first backslash landing on bytes read already: random
/// mixes of escapes, plain runs and multi-byte characters decode as serde_json has them.
#[test]
fn dense_escapes_decode_as_serde_json_has_them() {
    let pieces = ["\"", "\\", "\n", "é", "€", "😀", "\u{1}", "/", "a", "bcdefgh", "{\"id\": 12, ", "\u{2028}"];
    let mut mix = crate::json::fuzzing::Mix::new(0x2545_f491_4f6c_dd1du64);
    for _ in 0..3000 {
        let s = mix.text(&pieces, 60);
        let lit = serde_json::to_string(&s).unwrap();
        assert_eq!(unescape(&lit).as_deref(), Some(s.as_str()), "{lit}");
        let u = format!("\"{}\\u00e9{}\\ud83d\\ude00\"", &lit[1..lit.len() - 1], "\\\"".repeat(mix.below(12)));
        let want: String = serde_json::from_str(&u).unwrap();
        assert_eq!(unescape(&u), Some(want), "{u}");
    }
}

/// A literal of megabytes is decoded in two halves: around its middle, escapes of every kind
/// (runs of backslashes, surrogate pairs, lone surrogates) decode as serde_json has them.
#[test]
fn long_literals_decode_in_halves_as_whole() {
    let half = PARALLEL_DECODE / 2;
    for tail in ["\\\\\\\"x", "\\ud83d\\ude00\\n", "\\ud800\\\"", "\\\\u0041\\u00e9é", "\\t"] {
        for pad in 0..4 {
            let mut lit = format!("\"{}", "a".repeat(half + pad));
            for _ in 0..40 {
                lit.push_str(tail);
            }
            lit.push_str(&"b".repeat(half));
            lit.push('"');
            let inner = &lit[1..lit.len() - 1];
            let mut whole = vec![0u8; inner.len()];
            let n = unescape_into(inner, &mut whole).unwrap();
            whole.truncate(n);
            let got = unescape(&lit).map(String::into_bytes);
            assert_eq!(got.as_ref(), Some(&whole), "{tail} {pad}");
            if !tail.contains("ud800") {
                assert_eq!(got, serde_json::from_str::<String>(&lit).ok().map(String::into_bytes), "{tail} {pad}");
            }
        }
    }
    assert_eq!(escape_near(br"ab\\\\\u0041\ncd", 0), Some(12));
    assert_eq!(escape_near(br"\\\\\\", 0), None);
}

#[test]
fn long_text_members_are_decoded_when_read() {
    let long = format!("{}\"quoted\" é\n", "line of text ".repeat(8000));
    let doc = json!({"content": [{"type": "text", "text": long}, {"type": "resource", "resource": {"text": long}}], "text": "short"});
    let raw = doc.to_string();
    let mut e = Elisions::default();
    let mut v = e.parse(text(&raw), 100).unwrap().unwrap();
    let t = &v["content"][0]["text"];
    assert_ne!(t.as_str(), Some(long.as_str()), "left in the text");
    assert_eq!(e.text(t).as_deref(), Some(long.as_str()));
    assert_eq!(v["text"], "short");
    e.expand(&mut v);
    assert_eq!(v, doc);
}

#[test]
fn a_literal_is_compared_with_bytes_without_decoding_it() {
    let text = "[{\"name\":\"caf\u{e9} \u{1f600}\",\"q\":\"a\\\"b\"}]\n\ttab/";
    let lit = serde_json::to_string(text).unwrap_or_default();
    // As Python's json.dumps writes it: every non-ASCII character as \uXXXX, surrogate pairs too.
    let mut ascii = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => ascii.push_str("\\\""),
            '\\' => ascii.push_str("\\\\"),
            '\n' => ascii.push_str("\\n"),
            '\t' => ascii.push_str("\\t"),
            c if c.is_ascii() => ascii.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    ascii.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    ascii.push('"');
    for l in [lit.as_str(), ascii.as_str()] {
        let (a, b) = text.as_bytes().split_at(5);
        assert!(super::literal_equals(l, &mut [a, b].into_iter()), "{l}");
        let shorter = &text.as_bytes()[..text.len() - 1];
        assert!(!super::literal_equals(l, &mut std::iter::once(shorter)), "{l}");
    }
    assert!(!super::literal_equals("\"\\x\"", &mut std::iter::once(&b"x"[..])));
    assert!(!super::literal_equals("no quotes", &mut std::iter::once(&b"no quotes"[..])));
}

#[test]
fn scanned_spans_are_the_elements_whatever_their_shape() {
    let shapes = [
        json!("q\"]\\,[ \u{1} é😀"),
        json!(-2.5e-3),
        json!(1e300),
        json!([]),
        json!({}),
        json!({"a\"": [[], {}], "text": "t"}),
        json!(null),
        json!(true),
    ];
    let doc: Vec<Value> = (0..200).map(|i| shapes[i % shapes.len()].clone()).collect();
    for raw in [
        big(Value::Array(doc.clone())),
        serde_json::to_string_pretty(&json!({"doc": doc, "pad": "p".repeat(MIN_TEXT)})).unwrap(),
    ] {
        let scan = scan(&raw, 100, 0, 0).unwrap();
        assert_eq!(scan.arrays.len(), 1);
        for (i, [a, b]) in scan.arrays[0].iter().enumerate() {
            let el: Value = serde_json::from_str(&raw[*a as usize..*b as usize]).unwrap();
            assert_eq!(el, shapes[i % shapes.len()], "{i}");
        }
        let skeleton: Value = serde_json::from_str(&scan.skeleton).unwrap();
        assert_eq!(skeleton["doc"].as_array().map(Vec::len), Some(SAMPLE + 1));
    }
}

#[test]
fn truncated_and_deep_texts_are_scanned_safely() {
    let raw = big(records(100));
    for cut in [1, 10, raw.len() / 3, raw.len() - 1] {
        let part = &raw[..cut];
        // The scan trusts the syntax check before it: on broken text it only has to end.
        let _ = scan(part, 100, 0, 0);
        let padded = format!("{part}{}", " ".repeat(MIN_TEXT));
        assert!(Elisions::default().parse(text(&padded), 100).unwrap().is_err(), "{cut}");
    }
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(scan(&deep, usize::MAX, 0, 0).is_ok_and(|s| s.arrays.is_empty()));
    let _ = scan(&deep[..100_000], usize::MAX, 0, 0);
    let err = Elisions::default().parse(text(&deep), 1000).unwrap().unwrap_err();
    assert!(err.contains("--max-depth"), "{err}");
}

#[test]
fn member_spans_are_read_from_tokens() {
    fn span<'a>(raw: &'a str, key: &str) -> Option<&'a str> {
        member_span(raw, key).map(|(a, b)| &raw[a..b])
    }
    let raw = r#"{"node": {"n": [1, {}]}, "a\"b": "x\u00e9", "n\u00e9": -1.5e3, "e": [], "node": 2}"#;
    assert_eq!(span(raw, "node"), Some("2"));
    assert_eq!(span(raw, "a\"b"), Some(r#""x\u00e9""#));
    assert_eq!(span(raw, "né"), Some("-1.5e3"));
    assert_eq!(span(raw, "e"), Some("[]"));
    assert_eq!(span(raw, "n"), None);
    assert_eq!(span(r#"{"k": {"x": {}}}"#, "k"), Some(r#"{"x": {}}"#));
    assert_eq!(span(r#"["node", 1]"#, "node"), None);
    // Broken text (never given: the elements come from a checked reply) reads without panic.
    let _ = span(r#"{"node": 1, "#, "node");
    let _ = span(r#"{"node": tru}"#, "node");
    let deep = format!(r#"{{"node": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(span(&deep, "node").map(str::len), Some(200_000));
}
