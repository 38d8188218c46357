//! Property tests: everything that parses server data survives arbitrary JSON without panicking,
//! stays bounded, and the sanitizer never lets a control character through.
//!
//! `MCPLENS_PROPTEST_SCALE=50 cargo test --test properties` runs fifty times the cases each
//! property runs in CI: a longer hunt, for a change to the normalizer or the readers.

use std::sync::Arc;
use std::time::Duration;

use mcplens::envelope::{SCHEMA, normalize, normalize_owned, normalize_reply};
use mcplens::mcp::{Reply, ReplyBody};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// `n` cases, times `MCPLENS_PROPTEST_SCALE` when it is set.
fn scaled(n: u32) -> u32 {
    let scale = std::env::var("MCPLENS_PROPTEST_SCALE").ok().and_then(|s| s.parse::<u32>().ok());
    n.saturating_mul(scale.unwrap_or(1).max(1))
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        "[a-zA-Z_]{0,8}".prop_map(Value::String),
        // Keys and values the normalizer looks for.
        prop::sample::select(vec![
            "items",
            "data",
            "result",
            "error",
            "status",
            "success",
            "hasMore",
            "nextCursor",
            "offset",
            "page",
            "total",
            "pageInfo",
            "text",
            "content",
            "isError",
            "\u{1b}[2J",
            "Error: x",
            "{\"a\":1}",
            "[1,2]",
            "a,b\n1,2"
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "items",
                        "data",
                        "result",
                        "error",
                        "status",
                        "success",
                        "message",
                        "code",
                        "hasMore",
                        "nextCursor",
                        "next_cursor",
                        "offset",
                        "limit",
                        "page",
                        "totalPages",
                        "total",
                        "pageInfo",
                        "endCursor",
                        "hasNextPage",
                        "nodes",
                        "id",
                        "name",
                        "inputSchema",
                        "before",
                        "after",
                        "errors",
                        "x"
                    ]),
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<String, Value>>()
            )),
        ]
    })
}

fn arb_result() -> impl Strategy<Value = Value> {
    (arb_json(), arb_json(), any::<bool>(), prop::collection::vec(arb_json(), 0..3)).prop_map(
        |(sc, meta, is_error, texts)| {
            let content: Vec<Value> = texts.iter().map(|t| json!({"type": "text", "text": t.to_string()})).collect();
            json!({"content": content, "structuredContent": sc, "_meta": meta, "isError": is_error})
        },
    )
}

/// A long reply built around `v`: a long array of records holding it, in one of the places
/// servers put their lists, padded past the length at which replies are read as skeletons.
fn long_result(v: &Value, n: usize, place: u8) -> Value {
    // Each record long enough that a text holding the array is read as a skeleton too.
    let long: Vec<Value> = (0..n).map(|i| json!({"id": i, "v": v, "s": "y".repeat(1100)})).collect();
    let pad = json!({"pad": "x".repeat(70_000), "also": v});
    match place {
        0 => json!({"content": [], "structuredContent": {"items": long, "extra": v}, "_meta": pad}),
        1 => {
            json!({"content": [{"type": "text", "text": json!({"results": long, "next": v}).to_string()}], "_meta": pad})
        }
        2 => json!({"content": [{"type": "text", "text": Value::Array(long.clone()).to_string()}],
                    "structuredContent": {"result": long}, "_meta": pad}),
        _ => {
            json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {"v": v, "edges": long.iter().map(|n| json!({"node": n})).collect::<Vec<_>>()}, "_meta": pad})
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(48), ..ProptestConfig::default() })]

    /// The skeleton path (long arrays left in the reply's text) gives exactly the envelope the
    /// full tree gives, whatever the data around the long array.
    #[test]
    fn skeleton_path_agrees_with_the_full_tree(v in arb_json(), n in 65usize..300, place in 0u8..4, name in "[a-z_]{1,12}") {
        let result = long_result(&v, n, place);
        let raw = json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
        let reply = Reply::parse(Arc::from(raw), Duration::ZERO, 1000).map_err(|e| TestCaseError::fail(e.message))?;
        let fast = normalize_reply(&name, None, reply.body, reply.elisions);
        let full = normalize_owned(&name, None, ReplyBody::Result(result));
        prop_assert_eq!(mcplens::json_out::to_pretty_string(&fast), mcplens::json_out::to_pretty_string(&full));
        prop_assert!(fast == full);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(400), ..ProptestConfig::default() })]

    #[test]
    fn normalizer_never_panics_and_keeps_its_schema(result in prop_oneof![arb_json(), arb_result()], name in "[a-z_]{1,20}") {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap_or_default();
        let e = normalize(&name, None, &ReplyBody::Result(result.clone()));
        let v = mcplens::schema::validate::validate(&schema, &e.to_json()).unwrap_or_default();
        prop_assert!(v.is_empty(), "{:?}\n{}", v, e.to_json());
        let e = normalize(&name, None, &ReplyBody::Error(result));
        prop_assert_eq!(e.response_type.as_str(), "error");
    }

    #[test]
    fn schema_tree_is_bounded(schema in arb_json()) {
        let tree = mcplens::schema::tree::build(&schema);
        prop_assert!(tree.count() <= mcplens::schema::tree::MAX_NODES + 500);
        let _ = mcplens::schema::text::lines(&tree, 0);
    }

    #[test]
    fn form_model_survives_any_schema(schema in arb_json(), value in arb_json()) {
        let mut form = mcplens::schema::form::Form::new(&schema);
        let _ = form.arguments();
        let _ = form.load(&value);
        prop_assert!(form.arguments().is_object() || !form.arguments().is_null());
    }

    #[test]
    fn row_model_matches_the_document(value in arb_json()) {
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        let tree = mcplens::jsontree::JsonTree::build(std::sync::Arc::<str>::from(text.as_str()), "data");
        prop_assert!(tree.error.is_none(), "{:?}", tree.error);
        fn count(v: &Value) -> usize {
            1 + match v {
                Value::Array(a) => a.iter().map(count).sum(),
                Value::Object(m) => m.values().map(count).sum(),
                _ => 0,
            }
        }
        prop_assert_eq!(tree.len(), count(&value));
        // Every container's text is valid JSON equal to the value at its path.
        let root: Value = serde_json::from_str(tree.value(&tree.rows[0])).unwrap_or_default();
        prop_assert_eq!(root, value);
    }

    #[test]
    fn row_model_never_panics_on_any_text(text in ".{0,200}") {
        let tree = mcplens::jsontree::JsonTree::build(std::sync::Arc::<str>::from(text.as_str()), "data");
        let folds = mcplens::jsontree::Folds::initial(&tree);
        for i in 0..tree.len() {
            let _ = tree.path(i);
            let _ = folds.next(&tree, i);
            let _ = folds.prev(&tree, i);
        }
    }

    #[test]
    fn sanitizer_lets_no_control_through(s in any::<String>()) {
        let out = mcplens::sanitize::line(&s);
        let unsafe_char = |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        let leaked = out.chars().any(unsafe_char);
        prop_assert!(!leaked, "{:?}", out);
        let j = serde_json::to_string(&s).unwrap_or_default();
        let safe = mcplens::sanitize::json(&j);
        prop_assert!(!safe.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
        let back: String = serde_json::from_str(&safe).unwrap_or_default();
        prop_assert_eq!(back, s);
    }
}

/// Text the way servers write it: lines of prose, keys, tags, bullets, JSON and Python fragments.
fn arb_server_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\n".to_string()),
        Just("\n\n".to_string()),
        Just("Commit: abc\n".to_string()),
        Just("Author: Ada\n".to_string()),
        Just("[FILE] a.txt\n".to_string()),
        Just("- item\n".to_string()),
        Just("| a | b |\n|---|---|\n| 1 | 2 |\n".to_string()),
        Just("<tag-1>\n".to_string()),
        Just("</tag-1>".to_string()),
        Just("```json\n".to_string()),
        Just("```".to_string()),
        Just("[{'a': None, 'b': (1,)}]".to_string()),
        Just("start_index of 5000".to_string()),
        Just("cursor=\"x\"".to_string()),
        Just("Page 2 of 3".to_string()),
        "[\\[\\]{}\":, a-z0-9'\\\\]{0,30}",
        arb_json().prop_map(|v| v.to_string()),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(160), ..ProptestConfig::default() })]

    /// Whatever text a server sends, finding JSON or records in it never panics, and an
    /// envelope made of it keeps its schema; the paths agree.
    #[test]
    fn text_decoders_never_panic(text in arb_server_text(), name in "(list|get|search)_[a-z]{1,8}") {
        let _ = mcplens::envelope::decode::json_in_text(&text);
        let _ = mcplens::envelope::text::item_lines(&text, std::slice::from_ref(&name));
        let _ = mcplens::envelope::text::keyed_records(&text);
        let schema = json!({"properties": {"start_index": {"type": "integer"}, "cursor": {"type": "string"}, "page": {"type": "integer"}}});
        let _ = mcplens::envelope::position::in_prose(&text, Some(&schema));
        let result = json!({"content": [{"type": "text", "text": text}]});
        let descriptor = json!({"inputSchema": schema});
        let schema_doc: Value = serde_json::from_str(SCHEMA).unwrap_or_default();
        let e = normalize(&name, Some(&descriptor), &ReplyBody::Result(result));
        let v = mcplens::schema::validate::validate(&schema_doc, &e.to_json()).unwrap_or_default();
        prop_assert!(v.is_empty(), "{:?}\n{}", v, e.to_json());
    }
}

/// A document nested `levels` deep (each level an array or an object member, as `kinds` picks),
/// around `leaf`, cut to its first `keep` bytes when `keep` is short of its length.
fn nested(levels: usize, kinds: &[bool], leaf: &str, keep: usize) -> String {
    let array = |i: usize| kinds.get(i % kinds.len().max(1)).copied().unwrap_or(true);
    let mut s = String::with_capacity(levels * 7 + leaf.len());
    for i in 0..levels {
        s.push_str(if array(i) { "[" } else { "{\"k\\u00e9\":" });
    }
    s.push_str(leaf);
    for i in (0..levels).rev() {
        s.push(if array(i) { ']' } else { '}' });
    }
    let mut cut = keep.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s
}

// The checks of the fuzz target (src/core/fuzz, nightly) on stable: the tokenizer and every
// reader built on it never panic, agree with serde_json on what is JSON, and keep their spans
// inside the text and on character boundaries.
proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(1000), ..ProptestConfig::default() })]

    #[test]
    fn json_readers_survive_any_bytes(b in prop::collection::vec(any::<u8>(), 0..256)) {
        mcplens::json::fuzzing::check(&b);
    }

    #[test]
    fn json_readers_survive_any_string(s in any::<String>()) {
        mcplens::json::fuzzing::check(s.as_bytes());
    }

    #[test]
    fn json_readers_survive_near_json(s in "[\\[\\]{}\",: \t\r\n0-9.eE+\\-\\\\u/trfnals\u{1}é😀]{0,64}") {
        mcplens::json::fuzzing::check(s.as_bytes());
    }

    #[test]
    fn json_readers_agree_with_serde_json_on_documents(v in arb_json(), pretty in any::<bool>(), keep in any::<prop::sample::Index>()) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.unwrap_or_default();
        mcplens::json::fuzzing::check(text.as_bytes());
        // And every prefix of it is a fault the readers survive.
        mcplens::json::fuzzing::check(&text.as_bytes()[..keep.index(text.len() + 1)]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(24), ..ProptestConfig::default() })]

    #[test]
    fn json_readers_survive_deep_nesting(
        levels in prop_oneof![0usize..2000, Just(100_000usize)],
        kinds in prop::collection::vec(any::<bool>(), 1..8),
        leaf in prop::sample::select(vec!["1", "-0.5e+7", "\"x\\\"y\"", "[]", "{}", "tru", "", "\"é"]),
        cut in any::<prop::sample::Index>(),
        whole in any::<bool>(),
    ) {
        let full = nested(levels, &kinds, leaf, usize::MAX);
        let keep = if whole { full.len() } else { cut.index(full.len() + 1) };
        mcplens::json::fuzzing::check(nested(levels, &kinds, leaf, keep).as_bytes());
    }
}

/// The fuzz targets of the files a user points at (`src/core/fuzz`: config, theme, keymap), run
/// on stable for a bounded number of cases.
fn near_config() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"mcpServers\"",
        "\"servers\"",
        "\"command\"",
        "\"args\"",
        "\"env\"",
        "\"url\"",
        "\"cwd\"",
        "\"headers\"",
        "\"type\"",
        "\"x\"",
        "\"\"",
        "\"a\\u0000b\"",
        "// c\n",
        "/* c */",
        "\u{feff}",
        "1e400",
        "null",
        "true",
        "[]",
        "{}",
        "\"http://h\"",
        "\"\\ud800\"",
        "=",
        "\n",
        "[colors]",
        "text",
        "\"#zzzzzz\"",
        "\"lightblue\"",
        "name",
        "[keys]",
        "\"ctrl-k\"",
        "\"q\"",
        "'",
        "\"\\\"",
    ]);
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: scaled(256), ..ProptestConfig::default() })]

    #[test]
    fn config_theme_and_keymap_loaders_survive_any_bytes(b in prop::collection::vec(any::<u8>(), 0..256)) {
        mcplens::fuzzing::check_config(&b);
        mcplens::fuzzing::check_theme(&b);
        mcplens::fuzzing::check_keymap(&b);
    }

    #[test]
    fn config_theme_and_keymap_loaders_survive_near_files(s in near_config()) {
        mcplens::fuzzing::check_config(s.as_bytes());
        mcplens::fuzzing::check_theme(s.as_bytes());
        mcplens::fuzzing::check_keymap(s.as_bytes());
    }
}
