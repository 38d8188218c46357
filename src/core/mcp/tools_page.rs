//! A `tools/list` reply read in one walk of its tools. The reply's members are found by skimming
//! it, and each tool is read by the walk that judges the tool (its depth, its form, whether it
//! holds a literal a parse would approximate), which also finds where it ends: a tool's bytes are
//! walked once here, where a parse into its exact text and then the judging walked them twice.
//!
//! Only a plain page is read so. Anything else (an error, a member given twice, a member's name
//! written with escapes, a value of another type than the page's member has, a value too deep
//! for a plain parse) is left to the parse of the page, which reads it as before and says what
//! is wrong.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::tools::ToolDescriptor;
use crate::json::{Kind, Skim, Token};

/// One plain page: its tools and the members that say how the walk goes on.
pub(super) struct Page {
    pub tools: Vec<ToolDescriptor>,
    pub next_cursor: Option<Value>,
    pub ttl: Option<Value>,
    pub scope: Option<Value>,
}

/// One `tools/list` page parsed, each descriptor kept as its exact bytes: how a page that is
/// not plain is read (and what the one walk reads alike).
#[derive(Deserialize)]
pub(super) struct ToolsPage<'a> {
    #[serde(borrow, default)]
    pub tools: Option<Vec<&'a RawValue>>,
    #[serde(rename = "nextCursor", default)]
    pub next_cursor: Option<Value>,
    #[serde(rename = "ttlMs", default)]
    pub ttl: Option<Value>,
    #[serde(rename = "cacheScope", default)]
    pub scope: Option<Value>,
}

/// A `tools/list` reply: a page or an error.
#[derive(Deserialize)]
pub(super) struct ToolsMessage<'a> {
    #[serde(borrow, default)]
    pub result: Option<ToolsPage<'a>>,
    #[serde(default)]
    pub error: Option<Value>,
}

/// The page that `raw` (a whole reply, its syntax checked when it arrived) answers, or None when
/// it is anything but a plain page.
pub(super) fn read(page: &Arc<String>, max_depth: usize) -> Option<Page> {
    let raw = page.as_str();
    let mut skim = Skim::new(raw);
    if skim.next()?.kind != Kind::ObjectOpen {
        return None;
    }
    let mut found = None;
    loop {
        let tok = skim.next()?;
        match (tok.depth, tok.kind) {
            (0, Kind::ObjectClose) => return found,
            (1, Kind::Key) => {
                let key = plain_key(raw, &tok)?;
                let value = skim.next()?;
                match key {
                    "result" if found.is_none() && value.kind == Kind::ObjectOpen => {
                        found = Some(read_result(page, &mut skim, max_depth)?);
                    }
                    "result" | "error" => return None,
                    _ => skip(&mut skim, &value),
                }
            }
            _ => return None,
        }
    }
}

/// The next cursor of a page whose `result` (its text, `{...}`, its syntax checked) begins or
/// ends with `"nextCursor": "..."`, a string without escapes and not empty, as servers write a
/// page (the TypeScript SDK's servers build `{tools, nextCursor}`: last; the Python SDK's result
/// model declares `nextCursor` before `tools`: first): read from the result's edges, its tools
/// not walked. None for any other page (its reading then finds the cursor, wherever it is).
pub(super) fn edge_cursor(result: &str) -> Option<&str> {
    last_cursor(result).or_else(|| first_cursor(result))
}

/// The cursor of a result whose first member is `"nextCursor": "..."` (see [`edge_cursor`]).
fn first_cursor(result: &str) -> Option<&str> {
    let b = result.as_bytes();
    let past = |mut i: usize| {
        while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
            i += 1;
        }
        i
    };
    let key = past(1).min(b.len());
    if b.first() != Some(&b'{') || !b[key..].starts_with(b"\"nextCursor\"") {
        return None;
    }
    let colon = past(key + b"\"nextCursor\"".len());
    let open = past(colon + 1);
    if b.get(colon) != Some(&b':') || b.get(open) != Some(&b'"') {
        return None;
    }
    let len = b[open + 1..].iter().position(|&c| c == b'"' || c == b'\\')?;
    let close = open + 1 + len;
    // A quote ends it (no escape within), and a member or the result's close follows.
    let ends = b[close] == b'"' && matches!(b.get(past(close + 1)), Some(b',' | b'}'));
    (ends && len > 0).then(|| &result[open + 1..close])
}

/// The cursor of a result whose last member is `"nextCursor": "..."` (see [`edge_cursor`]).
fn last_cursor(result: &str) -> Option<&str> {
    let b = result.as_bytes();
    let back = |mut i: usize| {
        while i > 0 && matches!(b[i - 1], b' ' | b'\n' | b'\r' | b'\t') {
            i -= 1;
        }
        i
    };
    // The result's close, and the string before it: the last member's value.
    let close = back(b.len().checked_sub(1).filter(|&j| b[j] == b'}')?).checked_sub(1).filter(|&j| b[j] == b'"')?;
    let open = b[..close].iter().rposition(|&c| c == b'"')?;
    let cursor = &result[open + 1..close];
    // No escape in it: its opening quote is not an escaped one, nor a quote within it.
    if cursor.is_empty() || cursor.contains('\\') {
        return None;
    }
    let colon = back(open).checked_sub(1).filter(|&j| b[j] == b':')?;
    let key_end = back(colon);
    let key = key_end.checked_sub(b"\"nextCursor\"".len())?;
    // The key, a member of the result itself: after a comma or the result's opening brace.
    let member = b.get(key..key_end)? == b"\"nextCursor\""
        && back(key).checked_sub(1).is_some_and(|j| matches!(b[j], b',' | b'{'));
    member.then_some(cursor)
}

/// The members of the page's result, from its first member through its close.
fn read_result(page: &Arc<String>, skim: &mut Skim, max_depth: usize) -> Option<Page> {
    let raw = page.as_str();
    let (mut tools, mut next, mut ttl, mut scope) = (None, None, None, None);
    loop {
        let tok = skim.next()?;
        match (tok.depth, tok.kind) {
            (1, Kind::ObjectClose) => break,
            (2, Kind::Key) => {
                let key = plain_key(raw, &tok)?;
                let value = skim.next()?;
                match key {
                    "tools" if tools.is_none() && value.kind == Kind::ArrayOpen => {
                        tools = Some(read_tools(page, skim, value.end, max_depth)?);
                    }
                    "tools" => return None,
                    "nextCursor" => once(&mut next, member_value(raw, skim, &value)?)?,
                    "ttlMs" => once(&mut ttl, member_value(raw, skim, &value)?)?,
                    "cacheScope" => once(&mut scope, member_value(raw, skim, &value)?)?,
                    _ => skip(skim, &value),
                }
            }
            _ => return None,
        }
    }
    Some(Page { tools: tools?, next_cursor: next.flatten(), ttl: ttl.flatten(), scope: scope.flatten() })
}

/// The tools of the array whose contents start at `start`, through its close (which `skim`
/// then takes as read).
fn read_tools(page: &Arc<String>, skim: &mut Skim, start: usize, max_depth: usize) -> Option<Vec<ToolDescriptor>> {
    let raw = page.as_str();
    let b = raw.as_bytes();
    let mut tools = Vec::new();
    let mut at = past_spaces(b, start);
    if b.get(at) != Some(&b']') {
        loop {
            if !starts_value(*b.get(at)?) {
                return None;
            }
            let (tool, len) = ToolDescriptor::in_page(page, &raw[at..], max_depth);
            tools.push(tool);
            at = past_spaces(b, at + len);
            match b.get(at)? {
                b',' => at = past_spaces(b, at + 1),
                b']' => break,
                _ => return None,
            }
        }
    }
    skim.close_at(at);
    Some(tools)
}

fn starts_value(c: u8) -> bool {
    matches!(c, b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
}

fn past_spaces(b: &[u8], mut at: usize) -> usize {
    while b.get(at).is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    at
}

/// A member's name without its quotes, or None when it holds an escape (it may then name a
/// member this reading would not see, which the parse does).
fn plain_key<'a>(raw: &'a str, tok: &Token) -> Option<&'a str> {
    let inner = tok.text(raw).strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// A member's value parsed (None for `null`, as the parse reads it), or None when a plain parse
/// cannot read it.
fn member_value(raw: &str, skim: &mut Skim, value: &Token) -> Option<Option<Value>> {
    let end = if value.kind.is_open() { skim.finish_container().0 } else { value.end };
    match serde_json::from_str::<Value>(raw.get(value.start..end)?).ok()? {
        Value::Null => Some(None),
        v => Some(Some(v)),
    }
}

/// Keeps a member's value, or None when the member came before (the parse refuses that).
fn once(slot: &mut Option<Option<Value>>, value: Option<Value>) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(())
}

fn skip(skim: &mut Skim, value: &Token) {
    if value.kind.is_open() {
        skim.finish_container();
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::value::RawValue;
    use serde_json::{Value, json};

    use super::ToolsMessage;
    use crate::mcp::tools::ToolDescriptor;

    /// The page `raw` as [`super::read`] reads a reply's text.
    fn read(raw: &str, max_depth: usize) -> Option<super::Page> {
        super::read(&std::sync::Arc::new(raw.to_string()), max_depth)
    }

    /// Whatever the walk reads, the parse reads alike: the same tools, each judged the same.
    fn same_as_parse(raw: &str) -> bool {
        let Some(page) = read(raw, 64) else { return false };
        let parsed: ToolsMessage = serde_json::from_str(raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
        assert!(parsed.error.is_none(), "{raw}");
        let p = parsed.result.unwrap_or_else(|| panic!("no result: {raw}"));
        let tools = p.tools.unwrap_or_else(|| panic!("no tools: {raw}"));
        // The cursor read from the result's edges, when it is its first or last member, is the page's.
        if let Some(result) = crate::json::valid::members(raw)
            .and_then(|m| m.into_iter().find(|m| m.key == "\"result\""))
            .and_then(|m| super::edge_cursor(m.value))
        {
            assert_eq!(page.next_cursor.as_ref().and_then(Value::as_str), Some(result), "{raw}");
        }
        assert_eq!((page.next_cursor, page.ttl, page.scope), (p.next_cursor, p.ttl, p.scope), "{raw}");
        assert_eq!(page.tools.len(), tools.len(), "{raw}");
        for (walked, parsed) in page.tools.iter().zip(tools) {
            let parsed = ToolDescriptor::from_raw(parsed, 64);
            assert_eq!(format!("{walked:?}"), format!("{parsed:?}"), "{raw}");
            assert_eq!(walked.problem(), parsed.problem(), "{raw}");
        }
        true
    }

    /// Small random values with what trips a walk: brackets and quotes in strings, escapes,
    /// surrogates, deep and empty containers.
    fn value(seed: &mut u64, depth: usize) -> Value {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (*seed >> 33) as usize;
        let strings = ["", "a]b}c", "q\"uote", "back\\slash", "é😀", "\u{2028}", "{\"x\": [1]}", "\n\t"];
        match r % if depth > 5 { 4 } else { 7 } {
            0 => json!(strings[r / 7 % strings.len()]),
            1 => json!((r as i64 % 2001) - 1000),
            2 => [json!(true), json!(false), Value::Null][r / 7 % 3].clone(),
            3 => json!(r as f64 / 7.0),
            4 => Value::Array((0..r / 7 % 4).map(|_| value(seed, depth + 1)).collect()),
            _ => Value::Object(
                (0..r / 7 % 4).map(|i| (format!("{}{i}", strings[r % 8]), value(seed, depth + 1))).collect(),
            ),
        }
    }

    fn tool(seed: &mut u64, i: usize) -> Value {
        match i % 5 {
            0 => value(seed, 3),
            1 => json!({"name": format!("t{i}"), "inputSchema": value(seed, 0)}),
            2 => json!({"name": "", "inputSchema": {"type": "object"}}),
            _ => json!({"name": format!("t{i}"), "description": value(seed, 2),
                        "inputSchema": {"type": "object", "properties": {"p": value(seed, 1)}}}),
        }
    }

    /// The cursor is read from the result's end only where it is the result's own last member,
    /// a plain string; the page's reading finds any other.
    #[test]
    fn a_cursor_is_read_from_the_edges_only_where_it_is_the_first_or_last_member() {
        for (result, cursor) in [
            (r#"{"tools":[{"name":"a"}],"nextCursor":"c2"}"#, Some("c2")),
            ("{\n  \"tools\": [],\n  \"nextCursor\" : \"x y\"\n}", Some("x y")),
            (r#"{"nextCursor":"only"}"#, Some("only")),
            (r#"{"tools":[],"nextCursor":""}"#, None),
            (r#"{"tools":[],"nextCursor":"a\"b"}"#, None),
            (r#"{"tools":[],"nextCursor":"a\u0041"}"#, None),
            (r#"{"tools":[],"x":"\"nextCursor\":\"no"}"#, None),
            (r#"{"tools":[],"nextCursor":{"nextCursor":"no"}}"#, None),
            (r#"{"tools":[],"meta":{"nextCursor":"no"}}"#, None),
            (r#"{"tools":[],"nextCursor":"c","ttlMs":5}"#, None),
            (r#"{"nextCursor":"2","tools":[{"name":"a"}]}"#, Some("2")),
            ("{ \"nextCursor\" :\t\"p q\" , \"tools\": [] }", Some("p q")),
            (r#"{"nextCursor":"","tools":[]}"#, None),
            (r#"{"nextCursor":"a\"b","tools":[]}"#, None),
            (r#"{"nextCursor":"a\u0041","tools":[]}"#, None),
            (r#"{"nextCursor":null,"tools":[]}"#, None),
            (r#"{"nextCursor":{"nextCursor":"no"},"tools":[]}"#, None),
            (r#"{"x":1,"nextCursor":"c","tools":[]}"#, None),
            (r#"{"nextCursorX":"no","tools":[]}"#, None),
            (r#"{"tools":[],"notnextCursor":"no"}"#, None),
            (r#"{"tools":[],"nextCursor":7}"#, None),
            (r#"{"tools":[],"next\u0043ursor":"no"}"#, None),
        ] {
            assert!(crate::json::valid::is_json(result), "{result}");
            assert_eq!(super::edge_cursor(result), cursor, "{result}");
        }
        // Every page of the walk's tests whose cursor is its result's last member.
        let mut seed = 11;
        for n in 0..200 {
            let tools: Vec<Value> = (0..n % 5).map(|i| tool(&mut seed, i + n)).collect();
            let result = format!(r#"{{"tools":{},"nextCursor":"p{n}"}}"#, Value::Array(tools));
            let page = format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{result}}}"#);
            assert!(same_as_parse(&page), "{page}");
            assert_eq!(super::edge_cursor(&result), Some(format!("p{n}").as_str()), "{result}");
            // As the Python SDK writes a page: the cursor first.
            let first = format!(r#"{{"nextCursor":"p{n}","tools":{}}}"#, &result[9..result.rfind(',').unwrap_or(9)]);
            let page = format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{first}}}"#);
            assert!(same_as_parse(&page), "{page}");
            assert_eq!(super::edge_cursor(&first), Some(format!("p{n}").as_str()), "{first}");
        }
    }

    #[test]
    fn a_plain_page_reads_as_its_parse_in_every_spacing() {
        let mut seed = 7;
        for n in 0..300 {
            let tools: Vec<Value> = (0..n % 9).map(|i| tool(&mut seed, i + n)).collect();
            let cursor = [json!(null), json!("c2"), json!(3), json!({"k": [1]})][n % 4].clone();
            let result = json!({"tools": tools, "nextCursor": cursor, "ttlMs": n, "other": [{"tools": 1}]});
            let message = json!({"jsonrpc": "2.0", "id": n, "result": result});
            let compact = message.to_string();
            let pretty = serde_json::to_string_pretty(&message).unwrap_or_default();
            let spaced = compact.replace("\":", "\": ").replace(",\"", ", \"").replace('[', "[ ").replace(']', " ]");
            for text in [compact, pretty, spaced] {
                assert!(same_as_parse(&text), "not read: {text}");
            }
        }
    }

    #[test]
    fn literals_a_parse_would_approximate_and_deep_tools_are_judged_alike() {
        let pages = [
            r#"{"id":1,"result":{"tools":[{"name":"a","inputSchema":{"default":1e400}}]}}"#,
            r#"{"id":1,"result":{"tools":[{"name":"\ud800","inputSchema":{}}, {"name":"b","inputSchema":true}]}}"#,
            r#"{"id":1,"result":{"tools":[ 123456789012345678901234567890 , "x" , null ]}}"#,
            r#"{"id":1,"result":{"tools":[]}}"#,
            r#"{"id":1,"result":{"tools":[ ] , "nextCursor" : "n"}}"#,
        ];
        for page in pages {
            assert!(same_as_parse(page), "{page}");
        }
        let deep = format!(
            r#"{{"result":{{"tools":[{{"name":"d","inputSchema":{}1{}}}]}}}}"#,
            "[".repeat(100),
            "]".repeat(100)
        );
        assert!(same_as_parse(&deep));
        let page = read(&deep, 64).map(|p| p.tools.len());
        assert_eq!(page, Some(1));
    }

    /// The descriptors of real servers' snapshots (tests/ci/wild: each case names its server and
    /// source), as sent and laid out again, compact and pretty.
    #[test]
    fn real_servers_tools_read_as_their_parse() {
        #[derive(Deserialize)]
        struct Snapshot<'a> {
            #[serde(borrow)]
            tools: &'a RawValue,
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ci/wild");
        let Ok(cases) = std::fs::read_dir(&dir) else { panic!("no {}", dir.display()) };
        let mut read_pages = 0;
        for file in cases.flatten().flat_map(|c| std::fs::read_dir(c.path()).into_iter().flatten().flatten()) {
            let text = std::fs::read_to_string(file.path()).unwrap_or_default();
            let Ok(snapshot) = serde_json::from_str::<Snapshot>(&text) else { continue };
            let tools: Value = serde_json::from_str(snapshot.tools.get()).unwrap_or_default();
            let laid_out = [serde_json::to_string(&tools), serde_json::to_string_pretty(&tools)];
            for tools in [Ok(snapshot.tools.get().to_string())].into_iter().chain(laid_out).flatten() {
                let page = format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"tools": {tools} ,"nextCursor":null}}}}"#);
                assert!(same_as_parse(&page), "{}", file.path().display());
                read_pages += 1;
            }
        }
        assert!(read_pages >= 60, "{read_pages} pages");
    }

    /// The walk is only given replies whose syntax was checked, but any bytes leave it whole:
    /// every cut of a page, and every byte of it changed, reads or falls back without a panic.
    #[test]
    fn broken_pages_are_read_without_a_panic() {
        let page = r#"{"id":1,"result":{"tools":[{"name":"a\"]","inputSchema":{"p":[1e400,{"é":"\ud800"}]}}, 7],"nextCursor":{"k":[]}}}"#;
        assert!(same_as_parse(page));
        for cut in (0..=page.len()).filter(|&i| page.is_char_boundary(i)) {
            let _ = read(&page[..cut], 3);
            let _ = read(&page[cut..], 3);
        }
        for at in 0..page.len() {
            for b in [b'{', b'}', b'[', b']', b'"', b'\\', b',', b':', b' ', b'x'] {
                let mut bytes = page.as_bytes().to_vec();
                bytes[at] = b;
                if let Ok(text) = String::from_utf8(bytes) {
                    let _ = read(&text, 3);
                }
            }
        }
    }

    #[test]
    fn anything_but_a_plain_page_is_left_to_the_parse() {
        let deep_cursor =
            format!(r#"{{"result":{{"tools":[],"nextCursor":{}0{}}}}}"#, "[".repeat(200), "]".repeat(200));
        let pages = [
            r#"{"id":1,"error":{"code":-32601,"message":"no"}}"#.to_string(),
            r#"{"id":1,"result":{"tools":[]},"error":null}"#.into(),
            r#"{"id":1,"result":{"tools":[]},"result":{"tools":[]}}"#.into(),
            r#"{"id":1,"result":{"tools":[],"tools":[]}}"#.into(),
            r#"{"id":1,"result":{"tools":[],"nextCursor":"a","nextCursor":"b"}}"#.into(),
            r#"{"id":1,"res\u0075lt":{"tools":[]}}"#.into(),
            r#"{"id":1,"result":{"t\u006fols":[]}}"#.into(),
            r#"{"id":1,"result":{"tools":{}}}"#.into(),
            r#"{"id":1,"result":{"tools":null}}"#.into(),
            r#"{"id":1,"result":{}}"#.into(),
            r#"{"id":1,"result":[]}"#.into(),
            r#"{"id":1}"#.into(),
            "[]".into(),
            r#"{"result":{"tools":[1,]}}"#.into(),
            r#"{"result":{"tools":[1 2]}}"#.into(),
            deep_cursor,
        ];
        for page in pages {
            assert!(read(&page, 64).is_none(), "{page}");
        }
    }
}
