use super::*;
use crate::json::fuzzing::Mix;
use crate::json::{Kind, Tokenizer};

fn serde_says(text: &str) -> bool {
    crate::json::depth::validate_serde(text).is_ok()
}

#[test]
fn agrees_with_serde_json_on_shapes() {
    for text in [
        "",
        " ",
        "1",
        " -0 ",
        "-",
        "01",
        "1.",
        "1.5e",
        "1e+5",
        "1E-0",
        "-0.0e00",
        "2.",
        ".5",
        "+1",
        "1x",
        "true",
        "tru",
        "truex",
        "nul",
        "null null",
        "[]",
        "[ ]",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{}",
        "{ }",
        r#"{"a"}"#,
        r#"{"a":}"#,
        r#"{"a":1,}"#,
        r#"{"a" : 1 , "b":[{}]}"#,
        r#"{1:2}"#,
        r#"{"a":1]"#,
        "[}",
        r#""\u00e9""#,
        r#""\uD800""#,
        r#""\u12""#,
        r#""\uZZZZ""#,
        r#""\x""#,
        "\"\t\"",
        "\"\u{7f}\"",
        "\"é\"",
        "[\"a\\\"b\"]",
        "\"abc",
        "[1]]",
        "[[1]",
        "\u{feff}1",
        "1\u{a0}",
        " \t\r\n[1]\n",
    ] {
        assert_eq!(is_json(text), serde_says(text), "{text:?}");
    }
    let deep = format!("{}1{}", "[{\"a\":".repeat(50_000), "}]".repeat(50_000));
    assert!(is_json(&deep));
    assert!(!is_json(&deep[..deep.len() - 1]));
}

/// Strings of every length, with escapes, quotes and controls wherever the windows fall.
#[test]
fn agrees_with_serde_json_on_long_strings() {
    let pieces = [
        "\\\"",
        "\\\\",
        "\\/",
        "\\n",
        "\\u00e9",
        "\\uD83D",
        "\\u12",
        "\\uzzzz",
        "\\x",
        "\\",
        "\"",
        "a",
        "é",
        "\u{1}",
        "\u{7f}",
        "\t",
        "bcdefghijklmnopq",
        "{}[],:",
        "0123456789",
    ];
    let mut mix = Mix::new(0x9e37_79b9_7f4a_7c15);
    for n in 0..20_000 {
        let inner = mix.text(&pieces, 48);
        let text = match n % 3 {
            0 => format!("\"{inner}\""),
            1 => format!("{{\"key{}\": \"{inner}\", \"b\": [1]}}", "x".repeat(n % 17)),
            _ => format!("[\"{inner}\", \"{inner}\"]"),
        };
        assert_eq!(is_json(&text), serde_says(&text), "{text:?}");
    }
}

/// Documents of JSON's own pieces joined at random, nearly all broken somewhere.
#[test]
fn agrees_with_serde_json_on_random_pieces() {
    let pieces = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\n",
        "\"a\"",
        "\"k\":",
        "1",
        "-2.5e+3",
        "0",
        "01",
        "true",
        "null",
        "fals",
        "\"\\u00e9x\"",
        "\"\\q\"",
        "-",
        ".",
        "e",
    ];
    let mut mix = Mix::new(0x2545_f491_4f6c_dd1d);
    let mut valid = 0;
    for _ in 0..100_000 {
        let text = mix.text(&pieces, 14);
        let serde = serde_says(&text);
        valid += usize::from(serde);
        assert_eq!(is_json(&text), serde, "{text:?}");
    }
    assert!(valid > 2_000, "{valid} valid texts: the mix should make some");
}

/// The members are the top-level object's keys in order, each with its value's whole text.
#[test]
fn members_are_the_top_level_keys_and_values() {
    let text = r#" { "id" : 7, "result": {"a": [1, {"id": 2}], "b": "}"}, "e":[] ,"s":"x\"y", "n": null } "#;
    let got: Vec<(&str, &str)> = members(text).unwrap_or_default().iter().map(|m| (m.key, m.value)).collect();
    assert_eq!(
        got,
        [
            ("\"id\"", "7"),
            ("\"result\"", r#"{"a": [1, {"id": 2}], "b": "}"}"#),
            ("\"e\"", "[]"),
            ("\"s\"", r#""x\"y""#),
            ("\"n\"", "null")
        ]
    );
    assert_eq!(members("[1, 2]"), Some(vec![]));
    assert_eq!(members("{}"), Some(vec![]));
    assert_eq!(members(r#"{"a": 1"#), None);
    let mut mix = Mix::new(0x5851_f42d_4c95_7f2d);
    let pieces = ["{\"k\": ", "[", "1", "\"v\"", ", ", "]", "}", "{}", ", \"j\": "];
    for _ in 0..20_000 {
        let text = format!("{{\"a\": 0, {}", mix.text(&pieces, 12));
        let Some(got) = members(&text) else { continue };
        let keys: Vec<&str> = Tokenizer::new(&text)
            .flatten()
            .filter(|t| t.depth == 1 && t.kind == Kind::Key)
            .map(|t| t.text(&text))
            .collect();
        assert_eq!(got.iter().map(|m| m.key).collect::<Vec<_>>(), keys, "{text:?}");
        for m in &got {
            assert!(serde_says(m.value) && m.value.trim() == m.value, "{m:?} of {text:?}");
        }
    }
}

/// The marks of a word of eight (other processors) are those of the first eight bytes of a
/// window of sixteen.
#[cfg(target_arch = "x86_64")]
#[test]
fn word_marks_match_window_marks() {
    let mut mix = Mix::new(0x2545_f491_4f6c_dd1d);
    let pieces = ["\"", "\\", "a", "\u{1}", "\u{1f}", " ", "\u{7f}", "é", "\u{80}", "~"];
    for _ in 0..5_000 {
        let t = mix.text(&pieces, 24);
        let b = t.as_bytes();
        for i in 0..b.len() {
            let (Some(word), Some(window)) = (specials_in_word(b, i), specials_at(b, i)) else { continue };
            let low = |m: &Marks| [m.quotes & 0xff, m.backslashes & 0xff, m.controls & 0xff];
            assert_eq!(low(&word), low(&window), "{t:?} at {i}");
        }
    }
}

/// The walk that takes over a second thread's check of an array's rest says what one walk
/// says, wherever the other picked (an element, a member, inside a string or a number).
#[test]
fn a_walk_meeting_a_check_ahead_agrees_with_one_walk() {
    let mut texts: Vec<String> = vec![
        r#"{"items": [{"a": 1}, {"b": [2, 3]}, [4], {"c": "x, {y"}], "next": null}"#.into(),
        r#"[[1, 2], [3, [4, 5]], {"k": [6, {"z": 7}]}]"#.into(),
        r#"{"items": [{"a": 1}, {"b": 2}}, "next": null}"#.into(),
        r#"{"items": [{"a": 1}, {"b": 2 ], "next": null}"#.into(),
        r#"[{"a": 1} , {"b": "\\"} ,{"c": "\u00e9"}]  "#.into(),
        r#"[{"a": 1}, {"b": 2}] x"#.into(),
        r#"[{"a": 1}, {"b": 2}"#.into(),
        r#"[1, [2, [3, [4]]], 5]"#.into(),
    ];
    let mut mix = Mix::new(0x5eed_1234);
    // Arrays of valid elements (nested arrays among them), and JSON's pieces at random.
    let elements = [r#"{"a": 1}"#, "[1, {}]", r#"{"s": "}, {"}"#, "[]", r#"{"n": [{"m": [2]}, [3]]}"#, "7", r#""x""#];
    let pieces = ["{", "}", "[", "]", ", ", ",", ":", " ", "\"a\"", "\"k\": ", "1", "\"}, {\"", "null"];
    for n in 0..300 {
        let inner: Vec<&str> = (0..mix.below(8)).map(|_| elements[mix.below(elements.len())]).collect();
        let text = match n % 3 {
            0 => format!("[{}]", inner.join(", ")),
            1 => format!("{{\"items\": [{}], \"next\": [{}]}}", inner.join(", "), inner.join(",")),
            _ => format!("[{}]", mix.text(&pieces, 16)),
        };
        texts.push(text);
    }
    for text in &texts {
        let whole = is_json(text);
        for from in 0..=text.len() {
            let meet = Meet::default();
            meet.tell(meet.check_from(text.as_bytes(), from));
            assert_eq!(is_json_with(text, Some(&meet)), whole, "{text:?} from {from}");
        }
    }
}
