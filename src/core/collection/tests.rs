use serde_json::json;

use super::expect::{PagesRead, expect_now};
use super::*;
use crate::call::CallStatus;
use crate::envelope::{Data, Envelope, RawItems, ResponseType};

const FILE: &str = r#"# mcplens collection
# the sum
[[call]]
name = "add small numbers"
tool = "add"
arguments = { a = 1, b = 2 }
[call.expect]
status = "ok"
response_type = "single"
time_ms = 2000
[[call.expect.at]]
path = "/structuredContent/sum"   # the sum as sent
equals = 3
[[call.expect.at]]
path = "envelope:/data/items"
length = 2
type = "array"

[[call]]
name = "nulls"
tool = "echo"
arguments_json = '{"a": null}'
all_pages = true
[call.expect]
complete = true
[[call.expect.at]]
path = "/content/0/text"
matches = "^hel+o"
contains = "ell"
"#;

fn raw(result: serde_json::Value) -> Option<std::sync::Arc<String>> {
    Some(std::sync::Arc::new(json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string()))
}

fn envelope(data: Data) -> Option<Envelope> {
    let mut e = crate::envelope::normalize("t", None, &crate::mcp::ReplyBody::Result(json!({})));
    e.response_type = ResponseType::Single;
    e.data = data;
    Some(e)
}

fn seen() -> Observed {
    Observed {
        status: CallStatus::Ok,
        response_type: Some(ResponseType::Single),
        elapsed: std::time::Duration::from_millis(5),
        error: None,
        raw: raw(json!({"structuredContent": {"sum": 3.0}, "content": [{"type": "text", "text": "hello"}]})),
        envelope: envelope(Data::Value(json!({"items": [1, 2]}))),
        output_schema: Some(json!({"type": "object", "properties": {"sum": {"type": "integer"}}})),
        pages: Some(PagesRead { pages: 1, complete: true, note: None }),
        max_depth: 100,
    }
}

fn load_ok(text: &str) -> Collection {
    parse(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_file_reads_into_calls_with_their_checks() {
    let c = load_ok(FILE);
    assert_eq!(c.calls.len(), 2);
    let add = &c.calls[0];
    assert_eq!((add.name.as_str(), add.tool.as_str(), add.line), ("add small numbers", "add", Some(4)));
    assert_eq!(add.arguments.as_ref().map(|a| json!(a)), Some(json!({"a": 1, "b": 2})));
    assert_eq!(add.expect.status, Some(CallStatus::Ok));
    assert_eq!(add.expect.at[1].source, Source::Envelope);
    assert_eq!(add.expect.at[1].checks, vec![Check::Length(2), Check::Type(JsonType::Array)]);
    let nulls = &c.calls[1];
    assert_eq!(nulls.arguments.as_ref().map(|a| json!(a)), Some(json!({"a": null})));
    assert!(nulls.all_pages && nulls.expect.complete);
}

#[test]
fn an_answer_that_fits_has_no_failures() {
    let c = load_ok(FILE);
    for call in &c.calls {
        assert_eq!(evaluate(&call.expect, &seen()), vec![], "{}", call.name);
    }
}

#[test]
fn each_kind_of_miss_says_path_expected_and_got() {
    let c = load_ok(FILE);
    let mut s = seen();
    s.status = CallStatus::ToolError;
    s.response_type = Some(ResponseType::Error);
    s.elapsed = std::time::Duration::from_millis(2500);
    s.raw = raw(json!({"structuredContent": {"sum": 4}, "content": [{"type": "text", "text": "bye"}]}));
    s.envelope = envelope(Data::Value(json!({"items": {"x": 1}})));
    s.pages = Some(PagesRead { pages: 3, complete: false, note: Some("stopped after 3 pages (--max-pages)".into()) });
    let lines: Vec<String> = c.calls.iter().flat_map(|k| evaluate(&k.expect, &s)).map(|f| f.to_string()).collect();
    assert_eq!(
        lines,
        [
            "status: expected ok, got tool error",
            "response_type: expected single, got error",
            "time_ms: expected at most 2000 ms, got 2500 ms",
            "/structuredContent/sum: expected equals 3, got 4",
            "envelope:/data/items: expected length 2, got length 1",
            "envelope:/data/items: expected type array, got object {\"x\":1}",
            "complete: expected every page read, got 3 pages, stopped after 3 pages (--max-pages)",
            "/content/0/text: expected contains \"ell\", got \"bye\"",
            "/content/0/text: expected matches /^hel+o/, got \"bye\"",
        ]
    );
}

#[test]
fn output_schema_and_missing_paths_and_no_answer() {
    let expect = Expect {
        output_schema: true,
        at: vec![At { source: Source::Result, pointer: "/nope".into(), checks: vec![Check::Exists(true)] }],
        ..Expect::default()
    };
    let mut s = seen();
    assert_eq!(evaluate(&expect, &s).len(), 1, "the path is missing");
    s.raw = raw(json!({"structuredContent": {"sum": "three"}}));
    let f = evaluate(&expect, &s);
    assert_eq!(f[0].path, "output_schema /structuredContent/sum", "{f:?}");
    let gone = Observed::failed(CallStatus::ServerGone, std::time::Duration::ZERO, "the server exited".into());
    let f = evaluate(&Expect { status: Some(CallStatus::Ok), ..expect }, &gone);
    assert_eq!(f[0].to_string(), "status: expected ok, got server gone (the server exited)");
    assert!(f.iter().all(|f| f.got.contains("server gone") || f.got.contains("no answer")), "{f:?}");
}

#[test]
fn a_call_without_an_answer_misses_unless_its_status_says_so() {
    let cancelled = Observed::failed(CallStatus::Cancelled, std::time::Duration::ZERO, "cancelled by the user".into());
    let f = evaluate(&Expect::default(), &cancelled);
    assert_eq!(
        f.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["answer: expected an answer, got no answer (cancelled: cancelled by the user)"]
    );
    let expected = Expect { status: Some(CallStatus::Cancelled), ..Expect::default() };
    assert_eq!(evaluate(&expected, &cancelled), vec![]);
    assert_eq!(evaluate(&Expect::default(), &seen()), vec![]);
}

#[test]
fn numbers_compare_by_value_and_objects_by_members() {
    use super::expect::same;
    assert!(same(&json!(3), &json!(3.0)));
    assert!(!same(&json!(3), &json!(4)));
    assert!(same(&json!({"a": 1, "b": [1, 2]}), &json!({"b": [1, 2], "a": 1})));
    assert!(!same(&json!([1, 2]), &json!([2, 1])));
    assert!(!same(&json!(u64::MAX), &json!(-1)));
}

#[test]
fn bad_files_say_what_and_where() {
    let cases = [
        ("[[call]]\nname = \"a\"\ntool = \"t\"\nbogus = 1\n", "unknown field `bogus`"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[call.expect]\nstatuss = \"ok\"\n", "unknown field `statuss`"),
        (
            "[[call]]\nname = \"a\"\ntool = \"t\"\n[call.expect]\nstatus = \"fine\"\n",
            "status \"fine\": expected one of",
        ),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/x\"\nmatches = \"(\"\n", "line 5"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"x\"\nequals = 1\n", "a JSON pointer"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/x\"\n", "nothing to check"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call]]\nname = \"a\"\ntool = \"u\"\n", "taken by the call on line 2"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\narguments_json = '[1]'\n", "not a JSON object"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[call.expect]\ncomplete = true\n", "needs all_pages"),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/x\"\ntype = \"list\"\n", "type \"list\""),
        ("[[call]]\nname = \"a\"\ntool = \"t\"\nx = [\n", "line 4"),
    ];
    for (text, want) in cases {
        let e = parse(text).err().unwrap_or_else(|| panic!("accepted: {text}"));
        assert!(e.contains(want), "{text}\n=> {e}\n(wanted {want})");
    }
}

#[test]
fn hostile_files_end_in_errors() {
    let deep = format!(
        "[[call]]\nname = \"a\"\ntool = \"t\"\narguments = {{ a = {}1{} }}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(parse(&deep).is_err());
    let deep_json = format!(
        "[[call]]\nname = \"a\"\ntool = \"t\"\narguments_json = '{{\"a\":{}1{}}}'\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(parse(&deep_json).is_err_and(|e| e.contains("arguments_json")));
    let huge = format!(
        "[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/x\"\nmatches = \"{}\"\n",
        "a{1000}{1000}".repeat(3)
    );
    assert!(parse(&huge).is_err_and(|e| e.contains("matches")), "{:?}", parse(&huge));
    let big_regex =
        "[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/x\"\nmatches = '\\w{1000}\\w{1000}'\n";
    assert!(parse(big_regex).is_err_and(|e| e.contains("matches")), "{:?}", parse(big_regex));
}

#[test]
fn upsert_appends_or_replaces_by_name_and_keeps_comments() {
    let c = load_ok(FILE);
    let mut changed = c.calls[0].clone();
    changed.arguments = Some(json!({"a": 5, "b": null}).as_object().cloned().unwrap_or_default());
    changed.expect.at.truncate(1);
    let text = upsert(FILE, &changed).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.starts_with("# mcplens collection\n# the sum\n[[call]]"), "{text}");
    assert!(
        text.contains("arguments_json = '{\"a\":5,\"b\":null}'") || text.contains("arguments_json = \"{"),
        "{text}"
    );
    let back = load_ok(&text);
    assert_eq!(back.calls.len(), 2);
    assert_eq!(back.calls[0].arguments, changed.arguments);
    assert_eq!(back.calls[0].expect, changed.expect);
    assert_eq!(back.calls[1], SavedCall { line: back.calls[1].line, ..c.calls[1].clone() });
    let mut new = SavedCall::new("third", "echo", None);
    new.expect = expect_now(&seen(), &["/structuredContent".into(), "envelope:/nope".into()]).unwrap_or_default();
    let text = upsert(&text, &new).unwrap_or_else(|e| panic!("{e}"));
    let back = load_ok(&text);
    assert_eq!(back.calls.len(), 3);
    assert_eq!(back.calls[2].expect.at[0].checks, vec![Check::Equals(json!({"sum": 3.0}))]);
    assert_eq!(back.calls[2].expect.at[1].checks, vec![Check::Exists(false)]);
    assert!(evaluate(&back.calls[2].expect, &seen()).is_empty());
    let fresh = upsert("", &new).unwrap_or_default();
    assert!(fresh.starts_with(save::HEADER) && load_ok(&fresh).calls.len() == 1, "{fresh}");
}

#[test]
fn update_rewrites_expectations_in_place() {
    let c = load_ok(FILE);
    let mut s = seen();
    s.status = CallStatus::ToolError;
    s.raw = raw(json!({"structuredContent": {"sum": null}, "content": [{"type": "text", "text": "hello"}]}));
    s.envelope = envelope(Data::Value(json!({"items": [1, 2, 3]})));
    let (new, changes) = observed_expect(&c.calls[0].expect, &s);
    assert_eq!(
        changes,
        [
            "status: ok -> tool error",
            "/structuredContent/sum: equals 3 -> equals null",
            "envelope:/data/items: length 2, type array -> length 3, type array",
        ]
    );
    let text = update_expectations(FILE, "add small numbers", &new).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.contains("path = \"/structuredContent/sum\"   # the sum as sent\nequals_json = \"null\""), "{text}");
    let back = load_ok(&text);
    assert!(evaluate(&back.calls[0].expect, &s).is_empty(), "{:?}", evaluate(&back.calls[0].expect, &s));
    assert_eq!(back.calls[0].expect.time_ms, Some(2000));
    assert_eq!(back.calls[1], SavedCall { line: back.calls[1].line, ..c.calls[1].clone() });
    // A contains that still holds is kept.
    let (kept, changes) = observed_expect(&c.calls[1].expect, &seen());
    assert_eq!(kept.at, c.calls[1].expect.at);
    assert_eq!(changes, ["status: (none) -> ok", "response_type: (none) -> single"]);
}

/// A `type` that still holds is kept: `number` is not narrowed to `integer` by a value that
/// happens to be whole (the next may be 22.5); one that no longer holds is rewritten.
#[test]
fn update_keeps_a_type_that_still_holds() {
    let file = "[[call]]\nname = \"a\"\ntool = \"t\"\n[call.expect]\nstatus = \"ok\"\n\
                [[call.expect.at]]\npath = \"/structuredContent/t\"\ntype = \"number\"\n\
                [[call.expect.at]]\npath = \"/structuredContent/s\"\ntype = \"integer\"\n";
    let c = load_ok(file);
    let mut s = seen();
    s.raw = raw(json!({"structuredContent": {"t": 22, "s": "x"}}));
    let (new, changes) = observed_expect(&c.calls[0].expect, &s);
    assert_eq!(new.at[0].checks, [Check::Type(JsonType::Number)]);
    assert_eq!(changes, ["response_type: (none) -> single", "/structuredContent/s: type integer -> type string"]);
}

#[test]
fn records_held_as_text_are_checked_without_building_the_list() {
    let records: Vec<serde_json::Value> = (0..1000).map(|i| json!({"id": i, "name": format!("n{i}")})).collect();
    let mut s = seen();
    s.envelope = envelope(Data::Items(RawItems::from_values(&records)));
    let check_in = |s: &Observed, text: &str| {
        let c = load_ok(&format!("[[call]]\nname = \"a\"\ntool = \"t\"\n{text}"));
        evaluate(&c.calls[0].expect, s).into_iter().map(|f| f.to_string()).collect::<Vec<_>>()
    };
    let checks = |text: &str| check_in(&s, text);
    let at = |path: &str, check: &str| format!("[[call.expect.at]]\npath = \"{path}\"\n{check}\n");
    assert!(checks(&at("envelope:/data", "length = 1000\ntype = \"array\"")).is_empty());
    assert!(checks(&at("envelope:/data", "contains = { id = 999, name = \"n999\" }")).is_empty());
    assert!(checks(&at("envelope:/data/998/name", "equals = \"n998\"")).is_empty());
    assert!(checks(&at("envelope:/toolName", "equals = \"t\"")).is_empty());
    assert_eq!(checks(&at("envelope:/data", "length = 2")), ["envelope:/data: expected length 2, got length 1000"]);
    assert_eq!(
        checks(&at("envelope:/data", "equals = 1")),
        ["envelope:/data: expected equals 1, got [{\"id\":0,\"name\":\"n0\"}, …] (1000 items)"]
    );
    assert_eq!(checks(&at("envelope:/data/1000", "exists = false")), Vec::<String>::new());
    // Paths into the reply's text: escaped keys, indexes, no leading zeros.
    s.raw = raw(json!({"a/b": {"~x": [10, 20]}}));
    assert!(check_in(&s, &at("/a~1b/~0x/1", "equals = 20")).is_empty());
    assert!(check_in(&s, &at("/a~1b/~0x/01", "exists = false")).is_empty());
    assert!(check_in(&s, &at("", "type = \"object\"")).is_empty());
}

#[test]
fn an_error_reply_is_read_at_its_error_member() {
    let mut s = seen();
    s.raw = Some(std::sync::Arc::new(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}"#.into()));
    let c = load_ok("[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/code\"\nequals = -32602\n");
    assert!(evaluate(&c.calls[0].expect, &s).is_empty());
}

#[test]
fn update_writes_deep_and_null_values_it_can_read_back() {
    let mut deep = json!(null);
    for _ in 0..900 {
        deep = json!([deep]);
    }
    let text =
        "# kept\n[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/structuredContent\"\nequals = 1\n";
    let c = load_ok(text);
    let mut s = seen();
    s.raw = raw(json!({"structuredContent": deep}));
    let (new, changes) = observed_expect(&c.calls[0].expect, &s);
    assert_eq!(changes.len(), 3, "{changes:?}");
    let written = update_expectations(text, "a", &new).unwrap_or_else(|e| panic!("{e}"));
    assert!(written.starts_with("# kept\n") && written.contains("equals_json = "), "{}", &written[..200]);
    let back = load_ok(&written);
    assert!(evaluate(&back.calls[0].expect, &s).is_empty());
    crate::deep::drop_value(deep);
}

/// Terminal controls and bidirectional overrides a server sent are written as `\u` escapes (a
/// `cat` or `git diff` of the file must not act on them), in strings and in keys, and read back
/// as the same values.
#[test]
fn update_writes_terminal_controls_escaped_and_reads_them_back() {
    let text = "[[call]]\nname = \"a\"\ntool = \"t\"\n[[call.expect.at]]\npath = \"/structuredContent/k\"\nequals = 1\n[[call.expect.at]]\npath = \"/structuredContent/o\"\nequals = 1\n";
    let c = load_ok(text);
    let hostile = "x\u{9b}31m\u{202e}\u{1b}[2J\"\\\u{85}\u{2066}";
    let mut s = seen();
    s.raw = raw(json!({"structuredContent": {"k": hostile, "o": {hostile: [hostile]}}}));
    let (new, _) = observed_expect(&c.calls[0].expect, &s);
    let written = update_expectations(text, "a", &new).unwrap_or_else(|e| panic!("{e}"));
    let unsafe_chars = ['\u{9b}', '\u{202e}', '\u{1b}', '\u{85}', '\u{2066}'];
    assert!(!written.contains(unsafe_chars), "{written}");
    let back = load_ok(&written);
    assert!(evaluate(&back.calls[0].expect, &s).is_empty(), "{written}");
}
