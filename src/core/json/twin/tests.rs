use super::literal_holds;
use serde_json::Value;

/// The text as a JSON string literal, as a server's reply carries it.
fn lit(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn holds(text: &str, compact: &str) -> bool {
    literal_holds(&lit(text), || std::iter::once(compact.as_bytes()))
}

/// The structured side cut into one-byte slices: escapes and tokens split across slices.
fn holds_bytewise(text: &str, compact: &str) -> bool {
    literal_holds(&lit(text), || compact.as_bytes().chunks(1))
}

fn parsed(t: &str) -> Option<Value> {
    serde_json::from_str(t).ok()
}

/// The usual spacings: Python's json.dumps (`", "` and `": "`, non-ASCII as \u escapes with
/// ensure_ascii) and a pretty printer's, each beside the compact text of the same document.
const SPACINGS: [(&str, &str); 2] = [
    (
        r#"{"records": [{"id": 1, "name": "caf\u00e9", "tags": ["x"]}], "total": 1}"#,
        r#"{"records":[{"id":1,"name":"café","tags":["x"]}],"total":1}"#,
    ),
    ("  {\n  \"a\": [\n    1.5e3,\n    null,\n    true\n  ]\n}\n", r#"{"a":[1.5e3,null,true]}"#),
];

#[test]
fn the_same_document_written_another_way_holds() {
    let cases = [
        (r#"[{"a": "\"quoted\" \\ back\/slash"}]"#, r#"[{"a":"\"quoted\" \\ back/slash"}]"#),
        ("[\"\\ud83d\\ude00\", \"\\n\\t\"]", "[\"😀\",\"\\n\\t\"]"),
        ("[\"\\u000a\"]", "[\"\\n\"]"),
    ];
    for (text, compact) in SPACINGS.into_iter().chain(cases) {
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
        (" \n[1]", r#"{"result":[1]}"#),
        (r#"{"a": 1}"#, "[1]"),
        (r#""a""#, "[1]"),
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
    assert!(literal_holds(&lit(&spaced), || parts.iter().copied()));
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
    assert!(literal_holds(&lit(&spaced), parts));
    let last = spaced.replacen("record \\\"29999\\\"", "record \\\"29998\\\"", 1);
    assert_ne!(last, spaced);
    assert!(!literal_holds(&lit(&last), parts));
    let short = &spaced[..spaced.len() - 1];
    assert!(!literal_holds(&lit(short), parts));
    let longer = format!("{spaced} ");
    assert!(literal_holds(&lit(&longer), parts));
    let lone = spaced.replacen("record", "\u{fffd}", 1).replacen('\u{fffd}', "\\ud800", 1);
    assert!(!literal_holds(&lit(&lone), parts));
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

fn in_step(text: &str, compact: &str) -> bool {
    let l = lit(text);
    super::in_step::same(&l.as_bytes()[1..l.len() - 1], compact.as_bytes().chunks(3))
}

/// The usual case is told by the reading in step alone, without canonical forms: the spacing of
/// Python's `json.dumps` and of pretty printers, `\u` escapes of non-ASCII against the raw
/// characters, and the strings' own escapes written alike on both sides.
#[test]
fn a_serializers_spacing_is_read_in_step() {
    let cases = [
        (r#"[{"a": "\"quoted\" \\ back/slash \n \u00e9"}]"#, r#"[{"a":"\"quoted\" \\ back/slash \n \u00e9"}]"#),
        (r#"["\ud83d\ude00"]"#, "[\"😀\"]"),
        (r#"{"a":1}"#, r#"{ "a" : 1 }"#),
    ];
    for (text, compact) in SPACINGS.into_iter().chain(cases) {
        assert_eq!(parsed(text), parsed(compact), "{text}");
        assert!(in_step(text, compact), "{text} vs {compact}");
    }
}

/// A JSON value of strings dense with what escapes differ on, numbers and nesting.
fn value(mix: &mut crate::json::fuzzing::Mix, depth: usize) -> Value {
    let strings = ["a", "é", "😀", "\"", "\\", "\n", "/", "\u{1}", "\u{2028}", " ", "\t", "k"];
    match mix.below(if depth == 0 { 4 } else { 6 }) {
        0 => Value::String(mix.text(&strings, 6)),
        1 => serde_json::json!(mix.below(2000) as i64 - 1000),
        2 => [Value::Bool(true), Value::Bool(false), Value::Null][mix.below(3)].clone(),
        3 => serde_json::json!(mix.below(100) as f64 / 8.0),
        4 => Value::Array((0..mix.below(4)).map(|_| value(mix, depth - 1)).collect()),
        _ => Value::Object((0..mix.below(4)).map(|_| (mix.text(&strings, 3), value(mix, depth - 1))).collect()),
    }
}

/// `v` written with Python's `json.dumps` spacing and, when `ascii`, every non-ASCII character
/// as a `\u` escape (its default, `ensure_ascii`).
fn dumps(v: &Value, ascii: bool) -> String {
    let spaced = serde_json::to_string(v).unwrap_or_default();
    // Re-spaced token by token: `, ` and `: ` outside strings.
    let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
    for c in spaced.chars() {
        match c {
            _ if in_string && escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ',' | ':' if !in_string => {
                out.push(c);
                out.push(' ');
                continue;
            }
            _ => {}
        }
        if ascii && !c.is_ascii() {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whatever the reading in step says holds parses to equal values and holds canonically too;
/// and the texts that only differ in spacing and in how strings are escaped all hold in step:
/// values written by `json.dumps` (both ways), pretty printed, and changed a byte at a time.
#[test]
fn what_holds_in_step_is_equal_json() {
    let pieces = ["", " ", "\"", "\\", "x", "1", "\n", ",", "]", "}", "\\u00e9", "\\ud800"];
    let mut mix = crate::json::fuzzing::Mix::new(0x5851_f42d_4c95_7f2du64);
    let mut held = 0;
    for round in 0..3_000 {
        let v = value(&mut mix, 4);
        let compact = serde_json::to_string(&v).unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
        for text in [dumps(&v, true), dumps(&v, false), pretty] {
            assert!(in_step(&text, &compact), "{text} vs {compact}");
            let at = mix.below(text.len() + 1);
            let Some((head, tail)) = text.get(..at).zip(text.get(at + round % 2..)) else { continue };
            let changed = format!("{head}{}{tail}", pieces[mix.below(pieces.len())]);
            if in_step(&changed, &compact) {
                held += 1;
                assert_eq!(parsed(&changed), Some(v.clone()), "{changed:?} vs {compact:?}");
                assert!(holds(&changed, &compact), "{changed:?} vs {compact:?}");
            }
        }
    }
    assert!(held > 500, "only {held} of the changed texts held");
}

/// How long the two readings take on 100k records written by `json.dumps` (run by hand:
/// `cargo test --release -p mcplens-core --lib twin_speed -- --ignored --nocapture`).
#[test]
#[ignore]
fn twin_speed() {
    let records: Vec<Value> = (0..100_000)
        .map(|i| serde_json::json!({"id": i, "name": format!("record number {i}"), "email": format!("u{i}@example.com"), "score": i, "active": i % 3 != 0, "tags": ["x"]}))
        .collect();
    let compact = serde_json::to_string(&serde_json::json!({"items": records})).unwrap_or_default();
    let text = dumps(&serde_json::from_str(&compact).unwrap_or_default(), true);
    let l = lit(&text);
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let same = super::in_step::same(&l.as_bytes()[1..l.len() - 1], std::iter::once(compact.as_bytes()));
        let a = t.elapsed();
        let t = std::time::Instant::now();
        let canon = holds(&text, &compact);
        eprintln!("{} MB: in step {same} {a:?}; both ways {canon} {:?}", l.len() >> 20, t.elapsed());
    }
}

/// A literal of megabytes is read in two halves on two cores, met at a record found near the
/// middle: records all alike (where the first guess may be the wrong record), records whose
/// strings hold what a record's start looks like, and a difference anywhere.
#[test]
fn texts_read_in_halves_answer_as_read_whole() {
    let alike: Vec<Value> = (0..40_000).map(|_| serde_json::json!({"a": [1, 2], "b": "x"})).collect();
    let decoys: Vec<Value> =
        (0..40_000).map(|i| serde_json::json!({"id": i, "s": format!("}}, {{\"id\": {i}")})).collect();
    for records in [alike, decoys] {
        let v = Value::Array(records);
        let compact = serde_json::to_string(&v).unwrap_or_default();
        let parts: Vec<&[u8]> = {
            // As the envelope gives it: brackets, commas and each record apart.
            let mut p = vec![&b"["[..]];
            let mut rest = &compact.as_bytes()[1..compact.len() - 1];
            while let Some(end) = next_record_end(rest) {
                p.push(&rest[..end]);
                rest = &rest[end..];
                if let Some(r) = rest.strip_prefix(b",") {
                    p.push(b",");
                    rest = r;
                }
            }
            p.push(b"]");
            p
        };
        // FastMCP's `{"result": [...]}` around the list: its halves meet, its first differs.
        let wrapped: Vec<&[u8]> =
            std::iter::once(&b"{\"result\":"[..]).chain(parts.iter().copied()).chain([&b"}"[..]]).collect();
        for text in [dumps(&v, true), serde_json::to_string_pretty(&v).unwrap_or_default()] {
            let l = lit(&text);
            let inner = &l.as_bytes()[1..l.len() - 1];
            assert!(inner.len() > super::in_step::HALVED);
            assert!(super::in_step::same(inner, parts.iter().copied()));
            assert!(!super::in_step::same(inner, wrapped.iter().copied()));
            for at in [inner.len() / 10, inner.len() / 2, inner.len() / 2 + 40, inner.len() - 20] {
                let Some(i) = (at..inner.len()).find(|&i| inner[i].is_ascii_digit() || inner[i] == b'x') else {
                    continue;
                };
                let mut changed = inner.to_vec();
                changed[i] = if changed[i] == b'3' { b'4' } else { b'3' };
                assert!(!super::in_step::same(&changed, parts.iter().copied()), "changed at {i} of {}", inner.len());
            }
        }
    }
}

/// Where the record `s` starts with ends (a top-level value of the array's inside).
fn next_record_end(s: &[u8]) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for (i, &c) in s.iter().enumerate() {
        match c {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'{' | b'[' if !in_string => depth += 1,
            b'}' | b']' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}
