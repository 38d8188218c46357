use super::literal_holds;
use serde_json::Value;

/// The text as a JSON string literal, as a server's reply carries it.
fn lit(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn holds(text: &str, compact: &str) -> bool {
    literal_holds(&lit(text), &mut std::iter::once(compact.as_bytes()))
}

/// The structured side cut into one-byte slices: escapes and tokens split across slices.
fn holds_bytewise(text: &str, compact: &str) -> bool {
    literal_holds(&lit(text), &mut compact.as_bytes().chunks(1))
}

fn parsed(t: &str) -> Option<Value> {
    serde_json::from_str(t).ok()
}

#[test]
fn the_same_document_written_another_way_holds() {
    let cases = [
        // Python's json.dumps: `", "` and `": "`, non-ASCII as \u escapes (ensure_ascii).
        (
            r#"{"records": [{"id": 1, "name": "caf\u00e9", "tags": ["x"]}], "total": 1}"#,
            r#"{"records":[{"id":1,"name":"café","tags":["x"]}],"total":1}"#,
        ),
        (r#"[{"a": "\"quoted\" \\ back\/slash"}]"#, r#"[{"a":"\"quoted\" \\ back/slash"}]"#),
        ("[\"\\ud83d\\ude00\", \"\\n\\t\"]", "[\"😀\",\"\\n\\t\"]"),
        ("  {\n  \"a\": [\n    1.5e3,\n    null,\n    true\n  ]\n}\n", r#"{"a":[1.5e3,null,true]}"#),
        ("[\"\\u000a\"]", "[\"\\n\"]"),
    ];
    for (text, compact) in cases {
        assert_eq!(parsed(text), parsed(compact), "{text}");
        assert!(holds(text, compact), "{text} vs {compact}");
        assert!(holds_bytewise(text, compact), "{text} vs {compact}, a byte at a time");
    }
}

#[test]
fn a_difference_or_an_undecided_case_does_not_hold() {
    let cases = [
        (r#"{"a": 1, "b": 2}"#, r#"{"b":2,"a":1}"#), // equal as values: the caller parses
        ("[1.0]", "[1]"),
        (r#"["x"]"#, r#"["y"]"#),
        ("[1, 2]", "[1,2,3]"),
        ("[1, 2, 3]", "[1,2]"),
        ("[tr ue]", "[true]"),
        ("[1 2]", "[12]"),
        ("[- 1]", "[-1]"),
        ("[\"a\nb\"]", "[\"a\\nb\"]"),      // a raw newline in a string is no JSON
        (r#"["\ud800"]"#, r#"["\ud800"]"#), // a lone surrogate: the parser's business
        (r#"["\udc00x"]"#, r#"["\udc00x"]"#),
        ("[1] [1]", "[1]"),
        ("[1]x", "[1]"),
        (r#"["a"#, r#"["a"]"#),
        (r#"["\q"]"#, r#"["q"]"#),
        ("", "[]"),
        ("\u{b}[]", "[]"),
    ];
    for (text, compact) in cases {
        assert!(!holds(text, compact), "{text:?} vs {compact:?}");
        assert!(!holds_bytewise(text, compact), "{text:?} vs {compact:?}, a byte at a time");
    }
}

#[test]
fn what_holds_is_valid_and_equal_json() {
    // Every pair that holds parses to equal values (texts written from the cases above, cut
    // and changed a byte at a time).
    let compact = r#"{"records":[{"id":1,"name":"café \"x\"","ok":true,"n":null,"v":-1.5e-3}],"total":1}"#;
    let spaced =
        r#"{"records": [{"id": 1, "name": "caf\u00e9 \"x\"", "ok": true, "n": null, "v": -1.5e-3}], "total": 1}"#;
    for i in 0..spaced.len() {
        for with in ["", " ", "\"", "\\", "x", "1", "\n"] {
            let (Some(head), Some(tail)) = (spaced.get(..i), spaced.get(i + 1..)) else { continue };
            let text = format!("{head}{with}{tail}");
            if holds(&text, compact) {
                assert_eq!(parsed(&text), parsed(compact), "{text}");
            }
        }
    }
    assert!(holds(spaced, compact));
}

#[test]
fn long_texts_are_compared_across_chunks() {
    let records: Vec<Value> =
        (0..4_000).map(|i| serde_json::json!({"id": i, "name": format!("record \"{i}\" é"), "tags": ["x"]})).collect();
    let compact = serde_json::to_string(&records).unwrap_or_default();
    let spaced = compact.replace(",\"", ", \"").replace("\":", "\": ");
    assert!(spaced.len() > 3 * super::CHUNK);
    assert!(holds(&spaced, &compact));
    let parts: Vec<&[u8]> = compact.as_bytes().chunks(1000).collect();
    assert!(literal_holds(&lit(&spaced), &mut parts.into_iter()));
    let changed = spaced.replacen("record \\\"3999\\\"", "record \\\"3998\\\"", 1);
    assert!(!holds(&changed, &compact));
}

/// A text of megabytes is read on a second thread: the same answers, a difference at its very
/// end or a text cut short included.
#[test]
fn texts_read_on_a_second_thread_answer_the_same() {
    let records: Vec<Value> =
        (0..30_000).map(|i| serde_json::json!({"id": i, "name": format!("record \"{i}\" é"), "n": 1.5})).collect();
    let compact = serde_json::to_string(&records).unwrap_or_default();
    let spaced = compact.replace(",\"", ", \"").replace("\":", "\": ");
    assert!(lit(&spaced).len() > super::PIPELINED);
    let parts = || compact.as_bytes().chunks(4096);
    assert!(literal_holds(&lit(&spaced), &mut parts()));
    let last = spaced.replacen("record \\\"29999\\\"", "record \\\"29998\\\"", 1);
    assert_ne!(last, spaced);
    assert!(!literal_holds(&lit(&last), &mut parts()));
    let short = &spaced[..spaced.len() - 1];
    assert!(!literal_holds(&lit(short), &mut parts()));
    let longer = format!("{spaced} ");
    assert!(literal_holds(&lit(&longer), &mut parts()));
    let lone = spaced.replacen("record", "\u{fffd}", 1).replacen('\u{fffd}', "\\ud800", 1);
    assert!(!literal_holds(&lit(&lone), &mut parts()));
}

/// A literal's blocks, decoded a word at a time, join to what serde_json decodes it to, on
/// strings dense with escapes of every kind and blocks cut anywhere near their end.
#[test]
fn literal_blocks_decode_as_serde_json_decodes() {
    let pieces = ["\"", "\\", "\n", "é", "€", "😀", "\u{1}", "/", "a", "bcdefgh", "{\"id\": 12, ", "\u{2028}"];
    let mut mix = crate::json::fuzzing::Mix::new(0x9e37_79b9_7f4a_7c15u64);
    for round in 0..300 {
        // Some texts long enough to be decoded in several blocks.
        let s = mix.text(&pieces, if round % 10 == 0 { 80_000 } else { 80 });
        let lit = serde_json::to_string(&s).unwrap();
        let inner = &lit.as_bytes()[1..lit.len() - 1];
        let (mut at, mut decoded) = (0, Vec::new());
        while at < inner.len() {
            let mut block = Vec::new();
            at += super::decode_block(&inner[at..], &mut block).unwrap();
            decoded.extend_from_slice(&block);
        }
        assert_eq!(String::from_utf8(decoded).unwrap(), s);
    }
}

/// The runs the canonical reader copies at once end where a byte-at-a-time reading ends them,
/// from every start, on texts dense with quotes, backslashes, whitespace and controls.
#[test]
fn runs_end_where_a_byte_at_a_time_reading_ends_them() {
    let pieces = ["\"", "\\", " ", "\n", "\t", "\u{1}", "é", "abc", "12345678", ", ", "\": ", "\u{7f}"];
    let mut mix = crate::json::fuzzing::Mix::new(0x2545_f491_4f6c_dd1du64);
    for _ in 0..300 {
        let s = mix.text(&pieces, 60);
        let b = s.as_bytes();
        for i in 0..b.len() {
            let rest = &b[i..];
            let string = rest.iter().position(|&c| c == b'"' || c == b'\\').unwrap_or(rest.len());
            assert_eq!(super::string_run(rest), string, "{s:?} from {i}");
            let tokens = rest.iter().position(|&c| c <= b' ' || c == b'"').unwrap_or(rest.len());
            assert_eq!(super::token_run(rest), tokens, "{s:?} from {i}");
        }
    }
}
