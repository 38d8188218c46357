//! mcplens in CI: `mcplens test` runs a collection of saved calls and checks each answer, against
//! the demo server and the project's Python servers: passing, each kind of expectation failing
//! with a readable line, `--update`, TAP and JUnit output, exit codes, and hostile files.

mod common;

use common::*;
use std::process::Output;

/// A path of this test process's own under the temporary directory.
fn scratch(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mcplens-coll-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

fn write(name: &str, text: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn test(args: &[&str]) -> Output {
    let mut all = vec!["test"];
    all.extend(args);
    mcplens(&all)
}

fn with_server(args: &[&str], server: &[&str]) -> Output {
    let py = python().to_string_lossy().into_owned();
    let mut all = vec!["test"];
    all.extend(args);
    all.extend(["--protocol", "2025-11-25", "--", py.as_str()]);
    all.extend(server);
    mcplens(&all)
}

const DEMO: &str = r#"# mcplens collection for the demo server
[[call]]
name = "echo says hi"
tool = "echo"
arguments = { message = "hi" }
[call.expect]
status = "ok"
response_type = "single"
time_ms = 30000
[[call.expect.at]]
path = "/structuredContent/arguments/message"   # as the server sent it
equals = "hi"
[[call.expect.at]]
path = "/content/0/text"
matches = "^h"
contains = "i"
[[call.expect.at]]
path = "/structuredContent/arguments"
type = "object"
length = 1
[[call.expect.at]]
path = "/structuredContent/nothing"
exists = false

[[call]]
name = "every product"
tool = "shop_search_products"
arguments = { query = "a" }
all_pages = true
[call.expect]
response_type = "list"
complete = true
[[call.expect.at]]
path = "envelope:/data"
length = 87
[[call.expect.at]]
path = "envelope:/data/0/id"
type = "string"

[[call]]
name = "status fits its schema"
tool = "server_status"
[call.expect]
status = "ok"
output_schema = true

[[call]]
name = "null argument"
tool = "echo"
arguments_json = '{"message": "x", "extra": null}'
[call.expect]
status = "ok"
"#;

#[test]
fn a_demo_collection_passes() {
    let file = write("demo.toml", DEMO);
    let o = test(&[&file]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    for name in ["echo says hi", "every product", "status fits its schema", "null argument"] {
        assert!(text.lines().any(|l| l.starts_with("ok    ") && l.contains(name)), "{name}:\n{text}");
    }
    assert!(text.contains("4 calls: 4 passed, 0 failed"), "{text}");
    let only = test(&[&file, "--only", "null argument"]);
    assert_eq!(only.status.code(), Some(0), "{}", stderr(&only));
    assert!(stdout(&only).contains("1 call: 1 passed, 0 failed"), "{}", stdout(&only));
}

/// One call per kind of expectation, each set to fail.
const FAILING: &str = r#"# every kind of miss
[[call]]
name = "wrong status"
tool = "get_weather"
arguments = { city = "Atlantis" }
[call.expect]
status = "ok"

[[call]]
name = "values"
tool = "echo"
arguments = { message = "hello" }
[call.expect]
response_type = "list"
[[call.expect.at]]
path = "/structuredContent/arguments/message"
equals = "bye"
[[call.expect.at]]
path = "/content/0/text"
contains = "xyz"
[[call.expect.at]]
path = "/content/0/text"
matches = "^[0-9]+$"
[[call.expect.at]]
path = "/content"
length = 3
[[call.expect.at]]
path = "envelope:/toolName"
type = "integer"
[[call.expect.at]]
path = "/structuredContent/missing"
exists = true

[[call]]
name = "slow"
tool = "slow_task"
arguments = { steps = 3, delay_ms = 100 }
[call.expect]
time_ms = 1

[[call]]
name = "no output schema"
tool = "echo"
arguments = { message = "x" }
[call.expect]
output_schema = true

[[call]]
name = "pages cut short"
tool = "shop_search_products"
arguments = { query = "a" }
all_pages = true
[call.expect]
complete = true
"#;

#[test]
fn each_kind_of_expectation_fails_with_a_readable_line() {
    let file = write("failing.toml", FAILING);
    let o = test(&[&file, "--max-pages", "2"]);
    assert_eq!(o.status.code(), Some(6), "{}\n{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    for want in [
        "FAIL  wrong status",
        "        status: expected ok, got tool error",
        "        response_type: expected list, got single",
        "        /structuredContent/arguments/message: expected equals \"bye\", got \"hello\"",
        "        /content/0/text: expected contains \"xyz\", got \"hello\"",
        "        /content/0/text: expected matches /^[0-9]+$/, got \"hello\"",
        "        /content: expected length 3, got length 1",
        "        envelope:/toolName: expected type integer, got string \"echo\"",
        "        /structuredContent/missing: expected a value here, got nothing at this path",
        "        time_ms: expected at most 1 ms, got ",
        "        output_schema: expected structuredContent fitting the tool's outputSchema, got the tool has no outputSchema",
        "        complete: expected every page read, got 2 pages, stopped after 2 pages (--max-pages)",
        "5 calls: 0 passed, 5 failed",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

#[test]
fn update_rewrites_expectations_and_then_the_run_passes() {
    let file = write(
        "update.toml",
        DEMO.replace("equals = \"hi\"", "equals = \"bye\"").replace("length = 87", "length = 3").as_str(),
    );
    let before = test(&[&file]);
    assert_eq!(before.status.code(), Some(6), "{}", stdout(&before));
    let o = test(&[&file, "--update"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("updated  echo says hi: /structuredContent/arguments/message: equals \"bye\" -> equals \"hi\""),
        "{text}"
    );
    assert!(text.contains("updated  every product: envelope:/data: length 3 -> length 87"), "{text}");
    assert!(stderr(&o).contains("updated the expectations of"), "{}", stderr(&o));
    let now = std::fs::read_to_string(&file).unwrap();
    assert!(now.starts_with("# mcplens collection for the demo server\n"), "{now}");
    assert!(
        now.contains("path = \"/structuredContent/arguments/message\"   # as the server sent it\nequals = \"hi\""),
        "{now}"
    );
    let after = test(&[&file]);
    assert_eq!(after.status.code(), Some(0), "{}", stdout(&after));
    // Nothing left to change: the file stays as it is.
    let again = test(&[&file, "--update"]);
    assert!(stderr(&again).contains("no expectation changed"), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), now);
}

/// `--update` through a symlink rewrites the file it points to (the link stays a link) and
/// keeps that file's permissions.
#[cfg(unix)]
#[test]
fn update_keeps_a_symlink_and_the_file_mode() {
    use std::os::unix::fs::PermissionsExt;
    let file = write("linked.toml", DEMO.replace("equals = \"hi\"", "equals = \"bye\"").as_str());
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = scratch("link.toml");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let o = test(&[&link, "--update"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&file).unwrap().contains("equals = \"hi\""));
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
}

/// A small well-formedness check of XML: tags nest and close, attributes are quoted, `&` starts
/// an entity, and no character XML 1.0 forbids appears. Returns the element names in order.
fn xml_elements(x: &str) -> Vec<String> {
    assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert!(!x.chars().any(|c| (c as u32) < 0x20 && c != '\n' && c != '\t'), "a control character in the XML");
    for (i, _) in x.match_indices('&') {
        let rest = &x[i..];
        assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|e| rest.starts_with(e)), "bare & at {i}");
    }
    let body = &x[x.find("?>").unwrap() + 2..];
    let (mut stack, mut seen) = (Vec::<String>::new(), Vec::new());
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        assert!(!rest[..start].contains('>'), "a stray > in text");
        let end = rest[start..].find('>').unwrap() + start;
        let tag = &rest[start + 1..end];
        assert!(!tag.contains('<'), "< inside a tag: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched close");
        } else {
            let self_closing = tag.ends_with('/');
            let name = tag.trim_end_matches('/').split_whitespace().next().unwrap().to_string();
            assert_eq!(tag.matches('"').count() % 2, 0, "unquoted attribute in {tag}");
            seen.push(name.clone());
            if !self_closing {
                stack.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    seen
}

#[test]
fn tap_and_junit_are_well_formed() {
    let hostile = r#"
[[call]]
name = "a <name> & \"quotes\" # not a directive \u001b[2J"
tool = "echo"
arguments = { message = "<b>&</b>\u001b]0;pwned\u0007" }
[[call.expect.at]]
path = "/content/0/text"
equals = "no"
"#;
    let file = write("report.toml", &format!("{DEMO}{hostile}"));
    let junit = scratch("junit.xml");
    let o = test(&[&file, "--format", "tap", "--junit", &junit]);
    assert_eq!(o.status.code(), Some(6), "{}\n{}", stdout(&o), stderr(&o));
    let tap = stdout(&o);
    assert!(!tap.contains('\u{1b}') && !tap.contains('\u{7}'), "{tap}");
    let lines: Vec<&str> = tap.lines().collect();
    assert_eq!(&lines[..2], ["TAP version 13", "1..5"]);
    let tests: Vec<&&str> = lines.iter().filter(|l| l.starts_with("ok ") || l.starts_with("not ok ")).collect();
    assert_eq!(tests.len(), 5, "{tap}");
    for (i, l) in tests.iter().enumerate() {
        let number = l.trim_start_matches("not ").trim_start_matches("ok ").split(' ').next().unwrap();
        assert_eq!(number, (i + 1).to_string(), "{l}");
    }
    assert!(tests[4].starts_with("not ok 5 - a <name> & \"quotes\" \\# not a directive"), "{}", tests[4]);
    let yaml = tap.split("not ok 5").nth(1).unwrap();
    assert!(yaml.contains("\n  ---\n") && yaml.contains("\n  ...\n"), "{yaml}");
    assert!(
        yaml.contains("    - path: \"/content/0/text\"\n      expected: \"equals \\\"no\\\"\"\n      got: "),
        "{yaml}"
    );
    assert!(tap.lines().last().unwrap().starts_with("# 5 calls: 4 passed, 1 failed"), "{tap}");

    let xml = std::fs::read_to_string(&junit).unwrap();
    let elements = xml_elements(&xml);
    assert_eq!(elements.iter().filter(|e| *e == "testcase").count(), 5, "{xml}");
    assert_eq!(elements.iter().filter(|e| *e == "failure").count(), 1, "{xml}");
    assert!(xml.contains("<testsuite name=\"report.toml\" tests=\"5\" failures=\"1\""), "{xml}");
    assert!(xml.contains("<testcase name=\"a &lt;name&gt; &amp; &quot;quotes&quot; # not a directive"), "{xml}");
    assert!(
        xml.contains("<failure type=\"expectation\" message=\"/content/0/text: expected equals &quot;no&quot;, got"),
        "{xml}"
    );
}

#[test]
fn python_servers_answer_as_the_collection_says() {
    let file = write(
        "fastmcp.toml",
        r#"
[[call]]
name = "add small numbers"
tool = "add"
arguments = { a = 1, b = 2 }
[call.expect]
status = "ok"
output_schema = true
[[call.expect.at]]
path = "/structuredContent/result"
equals = 3

[[call]]
name = "every user"
tool = "list_users"
all_pages = true
[call.expect]
complete = true
[[call.expect.at]]
path = "envelope:/data"
length = 57

[[call]]
name = "a failure is expected"
tool = "fail"
arguments = { code = "E42" }
[call.expect]
status = "tool error"
response_type = "error"
[[call.expect.at]]
path = "envelope:/error/code"
equals = "E42"
"#,
    );
    let o = with_server(&[&file], &[&script("fastmcp_tools.py")]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("3 calls: 3 passed, 0 failed"), "{}", stdout(&o));
}

#[test]
fn a_server_lost_mid_run_fails_its_call_and_the_run_goes_on() {
    let file = write(
        "crash.toml",
        "[[call]]\nname = \"first\"\ntool = \"echo\"\n[call.expect]\nstatus = \"ok\"\n\n\
         [[call]]\nname = \"second\"\ntool = \"echo\"\n[call.expect]\nstatus = \"server gone\"\n",
    );
    let o = with_server(&[&file], &[&script("misbehave.py"), "crash-call"]);
    assert_eq!(o.status.code(), Some(6), "{}\n{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("FAIL  first") && text.contains("status: expected ok, got server gone"), "{text}");
    assert!(text.contains("ok    second"), "{text}");
    assert!(stderr(&o).contains("connecting again"), "{}", stderr(&o));
    // A target that cannot be reached at all: exit 3 before any call.
    let o = with_server(&[&file], &[&script("misbehave.py"), "crash-start"]);
    assert_eq!(o.status.code(), Some(3), "{}\n{}", stdout(&o), stderr(&o));
}

#[test]
fn bad_and_hostile_collection_files_exit_2_with_a_message() {
    let call = "[[call]]\nname = \"a\"\ntool = \"echo\"\n";
    let deep = format!("{call}arguments = {{ a = {}1{} }}\n", "[".repeat(50_000), "]".repeat(50_000));
    let deep_json = format!("{call}arguments_json = '{}1{}'\n", "[".repeat(50_000), "]".repeat(50_000));
    let huge = format!("{call}# {}\n", "x".repeat(5 << 20));
    let cases: Vec<(&str, String, &str)> = vec![
        ("unknown.toml", format!("{call}bogus = 1\n"), "unknown field `bogus`"),
        ("regex.toml", format!("{call}[[call.expect.at]]\npath = \"/x\"\nmatches = \"(unclosed\"\n"), "line 5"),
        (
            "bigregex.toml",
            format!("{call}[[call.expect.at]]\npath = \"/x\"\nmatches = '\\w{{2000}}\\w{{2000}}'\n"),
            "not a usable regular expression",
        ),
        ("deep.toml", deep, "line 4"),
        ("deepjson.toml", deep_json, "arguments_json: not JSON"),
        ("huge.toml", huge, "larger than 4 MiB"),
        ("syntax.toml", format!("{call}x = \n"), "line 4"),
        ("empty.toml", "# nothing\n".into(), "no [[call]]"),
        ("escape.toml", "[[call]]\nname = \"\u{1b}[2J\"\ntool = \"t\"\nnope = 1\n".into(), "line 2, column 9"),
    ];
    for (name, text, want) in cases {
        let file = write(name, &text);
        let o = test(&[&file]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(want), "{name}: wanted {want:?} in\n{err}");
        assert!(!err.contains('\u{1b}'), "{name}: a control character reached stderr");
        assert!(o.stdout.is_empty(), "{name}");
    }
    let o = test(&["/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = test(&[&scratch("no-such-file.toml")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let file = write("only.toml", DEMO);
    let o = test(&[&file, "--only", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no call of that name") && stderr(&o).contains("\"echo says hi\""), "{}", stderr(&o));
}

#[test]
fn secrets_the_server_echoes_are_masked_on_stdout_and_in_junit() {
    let file = write(
        "secrets.toml",
        "[[call]]\nname = \"token\"\ntool = \"echo\"\n[[call.expect.at]]\npath = \"/structuredContent/token\"\nequals = \"x\"\n",
    );
    let junit = scratch("secrets.xml");
    let o = with_server(
        &[&file, "--junit", &junit, "--format", "tap", "-e", "API_TOKEN=sk-live-0123456789"],
        &[&script("misbehave.py"), "secrets"],
    );
    assert_eq!(o.status.code(), Some(6), "{}\n{}", stdout(&o), stderr(&o));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(stdout(&o).contains("got: ") && xml.contains("<failure"), "{}\n{xml}", stdout(&o));
    for text in [stdout(&o), stderr(&o), xml] {
        assert!(!text.contains("sk-live-0123456789"), "a secret was written:\n{text}");
    }
}
