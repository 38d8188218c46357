//! Server-sized lists held at a bounded multiple of their bytes: mcplens's peak memory stays
//! within 10 times what the server sent plus 50 MB (its own start-up included) on each surface:
//! completions, prompt messages, prompt arguments, resources, sampling requests, elicitation
//! schemas (headless and in the TUI, driven in tmux). The server is
//! tests/servers/hostile_sizes.py. Resources run at the full size of the budget's case (200,000
//! items, 23 MB); the others at half their case's size, to stay within the CI budget in a debug
//! build (the full sizes are within the budget too; see docs/security.md).

mod common;

use std::process::{Command, Output, Stdio};

use common::*;

const MIB: u64 = 1 << 20;

/// The bytes of the list `mode` sends with `count` items, as the server computes it.
fn input_bytes(mode: &str, count: usize) -> u64 {
    let o = Command::new("python3")
        .arg(script("hostile_sizes.py"))
        .args(["--size", mode, &count.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap_or_else(|_| panic!("no size for {mode}"))
}

/// mcplens with `args` against the server in `mode` with `count` items.
fn run(args: &[&str], mode: &str, count: usize) -> Output {
    Command::new(bin())
        .args(args)
        .arg("--")
        .arg("python3")
        .arg(script("hostile_sizes.py"))
        .arg(mode)
        .arg(count.to_string())
        .env("MCPLENS_REPORT_PEAK", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()))
}

/// mcplens's own peak resident memory, in bytes, as it reported it on stderr.
fn peak(o: &Output) -> u64 {
    let err = stderr(o);
    let kb = err
        .lines()
        .find_map(|l| l.strip_prefix("mcplens-peak-rss "))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse::<u64>().ok());
    kb.unwrap_or_else(|| panic!("no peak memory report (did it crash?): {err}")) * 1024
}

/// Runs the case and checks the exit code and the memory budget; returns the output.
fn within_budget(args: &[&str], mode: &str, count: usize, code: i32) -> Output {
    let input = input_bytes(mode, count);
    let o = run(args, mode, count);
    assert_eq!(o.status.code(), Some(code), "{mode} {count}: {}", stderr(&o));
    let (p, budget) = (peak(&o), 10 * input + 50 * MIB);
    assert!(p <= budget, "{mode} {count}: peak {} MiB over the budget of {} MiB", p / MIB, budget / MIB);
    o
}

#[test]
fn completion_values_by_the_half_million() {
    let o = within_budget(&["complete", "--prompt", "p", "--arg", "a000001="], "completion", 500_000, 0);
    assert!(stdout(&o).contains("v0499999"), "the last value is missing");
    assert!(stderr(&o).contains("500000 values, over the 100 MCP allows"), "{}", stderr(&o));
}

#[test]
fn a_prompt_of_100k_messages() {
    let o = within_budget(&["prompt", "p"], "prompt-messages", 100_000, 0);
    assert!(stdout(&o).contains("message number 99999"), "the last message is missing");
}

#[test]
fn a_prompt_with_50k_arguments() {
    let o = within_budget(&["prompts"], "prompt-args", 50_000, 0);
    assert!(stdout(&o).contains("a049999  optional  argument 49999"), "the last argument is missing");
}

#[test]
fn two_hundred_thousand_resources() {
    let o = within_budget(&["resources"], "resources", 200_000, 0);
    let out = stdout(&o);
    assert!(out.starts_with("200000 resources (1 page)"), "{}", &out[..out.len().min(200)]);
    assert!(out.contains("file:///data/r0199999.txt"), "the last resource is missing");
}

#[test]
fn a_sampling_request_of_100k_messages() {
    let o = within_budget(&["call", "t", "--sampling-answer", "decline"], "sampling", 100_000, 1);
    let err = stderr(&o);
    assert!(err.contains("a model's reply to 100000 messages"), "{err}");
    assert!(err.contains("… and 99900 more messages, not shown"), "{err}");
}

#[test]
fn an_elicitation_of_100k_properties_answered_headless() {
    let answer = r#"{"p099999": "last"}"#;
    let o = within_budget(&["call", "t", "--elicitation-answer", answer], "ask-props", 100_000, 0);
    assert!(stdout(&o).contains(r#""p099999": "last""#), "{}", stdout(&o));
    let o = within_budget(&["call", "t", "--elicitation", "decline"], "ask-props", 100_000, 0);
    assert!(stdout(&o).contains(r#""action": "decline""#), "{}", stdout(&o));
}

#[test]
fn an_elicitation_of_a_500k_value_enum_checked_headless() {
    // The last value is a choice; a value that is none is sent (the user said so) with a warning.
    let answer = r#"{"choice": "v0499999"}"#;
    let o = within_budget(&["call", "t", "--elicitation-answer", answer], "ask-enum", 500_000, 0);
    assert!(!stderr(&o).contains("breaks the requested schema"), "{}", stderr(&o));
    let o = within_budget(&["call", "t", "--elicitation-answer", r#"{"choice": "nope"}"#], "ask-enum", 500_000, 0);
    assert!(stderr(&o).contains(r#"/choice: "nope" is not one of the 500000 choices"#), "{}", stderr(&o));
}

/// The TUI in tmux (a tmux server of its own), against the server in `mode` with `count` items,
/// its own peak memory reported to a file when it exits.
struct Tui {
    tmux: Tmux,
    peak_file: std::path::PathBuf,
}

impl Tui {
    fn start(mode: &str, count: usize) -> Tui {
        Tui::start_with(mode, count, "")
    }

    /// As [`Tui::start`], the server given `env` (`NAME=value ...`).
    fn start_with(mode: &str, count: usize, env: &str) -> Tui {
        Tui::start_given(mode, count, env, "", "Tools (1)")
    }

    /// As [`Tui::start_with`], mcplens given `args` too; started once `ready` shows.
    fn start_given(mode: &str, count: usize, env: &str, args: &str, ready: &str) -> Tui {
        let with = if env.is_empty() && args.is_empty() { "" } else { "-with" };
        let name = format!("sizes-{}-{mode}{with}", std::process::id());
        let peak_file = std::env::temp_dir().join(format!("mcplens-{name}.peak"));
        let cmd = format!(
            "MCPLENS_REPORT_PEAK=1 {env} {} {args} -- python3 {} {mode} {count} 2>{}; echo EXITED=$?; sleep 30",
            bin(),
            script("hostile_sizes.py"),
            peak_file.display()
        );
        let tui = Tui { tmux: Tmux::start(&name, 120, 40, &cmd), peak_file };
        tui.wait_for(ready);
        tui
    }

    /// Keys one at a time, as typed.
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux.keys(&[k]);
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    }

    fn wait_for(&self, needle: &str) -> String {
        self.tmux.wait_for(needle, 90)
    }

    /// Runs the tool `t`, which asks first; the request's overlay shown.
    fn asked(&self) -> String {
        self.keys(&["Enter"]);
        self.wait_for("Form: t");
        self.keys(&["C-r"]);
        self.wait_for("The server asks")
    }

    /// Ctrl-C, and how long until the process was gone; then its peak memory in bytes.
    fn quit(&self) -> (std::time::Duration, u64) {
        let t0 = std::time::Instant::now();
        self.tmux.keys(&["C-c"]);
        let screen = self.tmux.wait_for("EXITED=", 30);
        let took = t0.elapsed();
        assert!(screen.contains("EXITED=0"), "{screen}");
        let err = std::fs::read_to_string(&self.peak_file).unwrap_or_default();
        let kb = err.lines().find_map(|l| l.strip_prefix("mcplens-peak-rss "));
        let kb = kb.and_then(|v| v.trim_end_matches(" kB").trim().parse::<u64>().ok());
        (took, kb.unwrap_or_else(|| panic!("no peak memory report: {err}")) * 1024)
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.peak_file);
    }
}

fn tui_within_budget(peak: u64, mode: &str, count: usize) {
    let budget = 10 * input_bytes(mode, count) + 50 * MIB;
    assert!(peak <= budget, "TUI {mode} {count}: peak {} MiB over the budget of {} MiB", peak / MIB, budget / MIB);
}

/// The TUI's form of a 1M-value enum is a picker over the text: filtered, picked, accepted.
#[test]
fn the_tui_picks_from_a_1m_value_enum_within_budget() {
    let tui = Tui::start("ask-enum", 1_000_000);
    tui.asked();
    // The dialog's first frame may come before its field's row, on a loaded machine.
    let screen = tui.wait_for("one of 1000000");
    assert!(screen.contains("choice*:"), "{screen}");
    tui.keys(&["Space"]);
    tui.wait_for("1000000 choices");
    tui.keys(&["v", "0", "7", "7", "7", "7", "7", "Down"]);
    tui.wait_for("v0777771");
    tui.keys(&["Enter"]);
    tui.wait_for("choice*: v0777771");
    tui.keys(&["C-r"]);
    tui.wait_for(r#""choice": "v0777771""#);
    let (_, peak) = tui.quit();
    tui_within_budget(peak, "ask-enum", 1_000_000);
}

/// A form of 100k fields is a window over them: paged through, one typed into, accepted.
#[test]
fn the_tui_fills_a_form_of_100k_fields_within_budget() {
    let tui = Tui::start("ask-props", 100_000);
    let screen = tui.asked();
    assert!(screen.contains("100000 fields") && screen.contains("p000000"), "{screen}");
    tui.keys(&["PageDown", "PageDown", "C-End"]);
    tui.wait_for("field 100000 of 100000");
    tui.keys(&["o", "k", "C-r"]);
    tui.wait_for(r#""p099999": "ok""#);
    let (_, peak) = tui.quit();
    tui_within_budget(peak, "ask-props", 100_000);
}

/// A sampling request of 200k messages in the TUI: its first messages shown, the rest counted.
#[test]
fn the_tui_shows_a_sampling_request_of_200k_messages_within_budget() {
    let tui = Tui::start("sampling", 200_000);
    let screen = tui.asked();
    assert!(screen.contains("message number 0"), "{screen}");
    let (_, peak) = tui.quit();
    tui_within_budget(peak, "sampling", 200_000);
}

/// Ctrl-C quits at once while the server floods 20,000 elicitation requests: keys come before
/// the server's messages, the requests past the queue are refused cheaply, and the server,
/// blocked writing its flood, is not waited on through the grace periods. The bound is loose
/// for a busy machine (it took 15 to 29 s; 0.3 to 0.6 s is usual now).
#[test]
fn ctrl_c_quits_at_once_under_a_burst_of_elicitations() {
    let tui = Tui::start("burst", 20_000);
    tui.asked();
    let (took, _) = tui.quit();
    assert!(took < std::time::Duration::from_secs(3), "Ctrl-C took {took:?}");
}

/// Opens the resources pane and the form of its one template, named `name`: the screen then.
fn open_the_template(tui: &Tui, name: &str) -> String {
    tui.keys(&["r"]);
    tui.wait_for("templates (1)");
    tui.keys(&["Down", "Enter"]);
    tui.wait_for(&format!("Template: {name}"))
}

/// Enter on a template of 50,000 variables (about 340 KB): the form holds the first 200, each
/// key is answered at once (the URI line reads only the expressions of the fields; the whole
/// template expanded on every key took seconds each), and Ctrl-R reads the URI the values make.
#[test]
fn a_template_of_50k_variables_is_filled_key_by_key() {
    let tui = Tui::start("template-vars", 50_000);
    let screen = open_the_template(&tui, "wide");
    assert!(screen.contains("the first 200 are here"), "{screen}");
    let mut typed = String::new();
    for k in ["a", "b", "c", "d"] {
        let t0 = std::time::Instant::now();
        tui.tmux.keys(&[k]);
        typed.push_str(k);
        tui.wait_for(&format!("v0*: {typed}"));
        let took = t0.elapsed();
        assert!(took < std::time::Duration::from_secs(3), "the key {k} took {took:?}");
    }
    tui.keys(&["C-v", "C-r"]);
    tui.wait_for("Resource: file:///abcd");
    let (took, _) = tui.quit();
    assert!(took < std::time::Duration::from_secs(3), "Ctrl-C took {took:?}");
}

/// A completion of 500,000 values in a template's form: the first suggestions shown, the
/// others counted, not held.
#[test]
fn the_tui_completes_from_500k_values_within_budget() {
    let tui = Tui::start("completion", 500_000);
    open_the_template(&tui, "one");
    tui.keys(&["v"]);
    tui.wait_for("500000 suggestions for v");
    tui.wait_for("v0000005");
    let (_, peak) = tui.quit();
    tui_within_budget(peak, "completion", 500_000);
}

/// Keys typed in a template's form while a completion is under way (the server answers after
/// 1 s; the template of 50,000 variables, 340 KB, goes with each request) make one request
/// when it answers, not one each: ten keys make at most four.
#[test]
fn keys_typed_while_a_completion_is_under_way_make_one_request() {
    let log = std::env::temp_dir().join(format!("mcplens-sizes-completions-{}", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let env = format!("SIZES_COMPLETE_DELAY=1 SIZES_COMPLETE_LOG={}", log.display());
    let tui = Tui::start_with("template-vars", 50_000, &env);
    open_the_template(&tui, "wide");
    tui.keys(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
    tui.wait_for("v0*: abcdefghij");
    // The last request answered: no more are asked.
    tui.wait_for("suggestions for v0: none");
    let asked = std::fs::read_to_string(&log).unwrap_or_default().lines().count();
    assert!((1..=4).contains(&asked), "{asked} requests for ten keys");
    let (took, _) = tui.quit();
    assert!(took < std::time::Duration::from_secs(3), "Ctrl-C took {took:?}");
    let _ = std::fs::remove_file(&log);
}

/// Two snapshots of the server in `mode` with `count` items, the second with SIZES_VARIANT set to
/// `variant` ("1": every description changed and one item dropped, every enum value changed;
/// "reversed": the enum written backwards); returns their paths and the larger size.
fn two_snapshots(mode: &str, count: usize, variant: &str) -> (std::path::PathBuf, std::path::PathBuf, u64) {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-diff-{mode}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    for (path, variant) in [(&old, "0"), (&new, variant)] {
        snapshot(path, mode, count, variant);
    }
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let larger = size(&old).max(size(&new));
    (old, new, larger)
}

/// With a snapshot of 20,000 tools to compare the tools with (a while, before the session is
/// shown), the resources and prompts listed meanwhile are shown when asked for: they reached the
/// screen before the session did, and were wiped by it ("listing…" for good).
#[test]
fn lists_read_while_20k_tools_are_compared_with_a_snapshot_are_shown() {
    // A file of its own: the diff tests write theirs beside each other while this one runs.
    let file = std::env::temp_dir().join(format!("mcplens-sizes-snapshot-{}.json", std::process::id()));
    snapshot(&file, "tools", 20_000, "0");
    let args = format!("--snapshot {}", file.display());
    let tui = Tui::start_given("tools", 20_000, "", &args, "Tools (20000) · as snapshot");
    tui.keys(&["r"]);
    tui.wait_for("Resource templates (0)");
    tui.keys(&["p"]);
    tui.wait_for("Prompts (1)");
    tui.quit();
    let _ = std::fs::remove_file(&file);
}

/// A snapshot of the server in `mode` with `count` items and SIZES_VARIANT `variant`, at `path`.
fn snapshot(path: &std::path::Path, mode: &str, count: usize, variant: &str) {
    let o = Command::new(bin())
        .args(["snapshot", "-o"])
        .arg(path)
        .args(["--", "python3", &script("hostile_sizes.py"), mode, &count.to_string()])
        .env("SIZES_VARIANT", variant)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()));
    assert_eq!(o.status.code(), Some(0), "snapshot {mode}: {}", stderr(&o));
}

/// `mcplens diff` of the two, held to 10 times the larger file plus 50 MB.
fn diff_within_budget(mode: &str, count: usize, variant: &str, code: i32) -> Output {
    let (old, new, larger) = two_snapshots(mode, count, variant);
    let o = Command::new(bin())
        .arg("diff")
        .args([&old, &new])
        .env("MCPLENS_REPORT_PEAK", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()));
    if let Some(dir) = old.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
    assert_eq!(o.status.code(), Some(code), "diff {mode}: {}", stderr(&o));
    let (p, budget) = (peak(&o), 10 * larger + 50 * MIB);
    assert!(p <= budget, "diff {mode} {count}: peak {} MiB over the budget of {} MiB", p / MIB, budget / MIB);
    o
}

/// Every tool's description changed and one tool removed: each changed pair is read alone.
#[test]
fn a_diff_of_20k_tools_all_changed() {
    let o = diff_within_budget("tools", 20_000, "1", 5);
    let out = stdout(&o);
    assert!(out.ends_with("1 breaking, 19999 compatible\n"), "{}", &out[out.len().saturating_sub(300)..]);
    assert!(out.contains("BREAKING    /tools/t019999  tool removed"), "the removed tool is missing");
}

/// One tool of 80k properties, one removed: the properties alike on both sides are not built.
#[test]
fn a_diff_of_one_tool_with_80k_properties() {
    let o = diff_within_budget("tool-props", 80_000, "1", 5);
    let out = stdout(&o);
    assert_eq!(
        out,
        "BREAKING    /tools/t/inputSchema/properties/p079999  property removed\n1 breaking, 0 compatible\n"
    );
}

/// An enum of 100,000 values, every one changed: each side's values held as hashes, the first 50
/// listed and the rest counted; the same enum written backwards is no change.
#[test]
fn a_diff_of_a_100k_value_enum_all_changed_or_reversed() {
    let o = diff_within_budget("tool-enum", 100_000, "1", 5);
    let out = stdout(&o);
    let path = "/tools/t/inputSchema/properties/choice/enum";
    let removed = format!("BREAKING    {path}  enum value removed: \"v0000000\", \"v0000001\", ");
    assert!(out.starts_with(&removed), "{}", &out[..out.len().min(300)]);
    assert!(out.contains("\"v0000049\" and 99950 more\n"), "{out}");
    assert!(out.contains("enum value added: \"w0000000\"") && out.contains("\"w0000049\" and 99950 more\n"), "{out}");
    assert!(out.ends_with("1 breaking, 1 compatible\n"), "{out}");
    let o = diff_within_budget("tool-enum", 100_000, "reversed", 0);
    assert_eq!(stdout(&o), "no changes\n");
}

/// A config file of 50,000 servers (5 MB): the one named is used, the others stay text; an
/// error that lists the servers names 20 and counts the rest.
#[test]
fn a_config_of_50k_servers() {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let path = dir.join("servers.json");
    let entry = |i: usize| {
        format!(
            r#""s{i:06}":{{"command":"python3","args":["{}","tools","{}"],"env":{{"N":"{i}"}}}}"#,
            script("hostile_sizes.py"),
            2 + i % 3
        )
    };
    let entries: Vec<String> = (0..50_000).map(entry).collect();
    let text = format!(r#"{{"mcpServers":{{{}}}}}"#, entries.join(","));
    std::fs::write(&path, &text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    let config = path.to_string_lossy().into_owned();
    let run = |server: &str| {
        Command::new(bin())
            .args(["tools", "--config", &config, "--server", server])
            .env("MCPLENS_REPORT_PEAK", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()))
    };
    let o = run("s049999");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // s049999 runs the server with 3 tools (2 + 49999 % 3).
    let out = stdout(&o);
    assert!(out.contains("t000002") && !out.contains("t000003"), "the last server's tools: {out}");
    let budget = 10 * text.len() as u64 + 50 * MIB;
    assert!(peak(&o) <= budget, "peak {} MiB over the budget of {} MiB", peak(&o) / MIB, budget / MIB);
    let o = run("nobody");
    let err = stderr(&o);
    assert!(err.contains("s000019, and 49980 more") && err.len() < 2000, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lint --snapshot` of one tool whose schema is `schema` (within the budget of 10 times the
/// snapshot plus 50 MB); the output and the exit code.
fn lint_one_tool(name: &str, schema: &str) -> (String, Option<i32>) {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-lint-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let path = dir.join("snapshot.json");
    let text = format!(
        "{{\"mcplensSnapshot\": 1,\n\"target\": {{\"command\":\"x\"}},\n\"server\": {{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"s\",\"version\":\"1\"}}}},\n\"tools\": [\n{{\"name\":\"t\",\"inputSchema\":{schema}}}\n],\n\"resources\": [],\n\"resourceTemplates\": [],\n\"prompts\": []\n}}\n"
    );
    std::fs::write(&path, &text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    let o = Command::new(bin())
        .args(["lint", "--snapshot"])
        .arg(&path)
        .env("MCPLENS_REPORT_PEAK", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()));
    let _ = std::fs::remove_dir_all(&dir);
    let budget = 10 * text.len() as u64 + 50 * MIB;
    assert!(peak(&o) <= budget, "{name}: peak {} MiB over the budget of {} MiB", peak(&o) / MIB, budget / MIB);
    (stdout(&o), o.status.code())
}

/// One tool of 200,000 bare string properties (5.6 MB), one of them of a type that does not
/// exist, and one of 100,000 properties each a `$ref` beside a wrong `additionalProperties`: each
/// schema read from its text a node at a time and checked against its meta-schema piece by
/// piece, the wrong node named.
#[test]
fn lint_of_one_tool_with_200k_properties() {
    let prop = |i: usize| format!(r#""p{i:06}":{{"type":"{}"}}"#, if i == 150_000 { "strin" } else { "string" });
    let props: Vec<String> = (0..200_000).map(prop).collect();
    let (out, code) = lint_one_tool("bare", &format!(r#"{{"type":"object","properties":{{{}}}}}"#, props.join(",")));
    assert_eq!(code, Some(8), "{out}");
    assert!(out.contains("/inputSchema/properties/p150000"), "{out}");
    assert!(out.contains("1 error(s), 0 warning(s), 0 info(s) in 1 tool(s)"), "{out}");
    let prop = |i: usize| format!(r##""p{i:06}":{{"$ref":"#/$defs/s"}}"##);
    let props: Vec<String> = (0..100_000).map(prop).collect();
    let schema = format!(
        r#"{{"type":"object","$defs":{{"s":{{"type":"string"}}}},"properties":{{{}}},"additionalProperties":7}}"#,
        props.join(",")
    );
    let (out, code) = lint_one_tool("refs", &schema);
    assert_eq!(code, Some(8), "{out}");
    assert!(out.contains("schema/invalid") && out.contains("host/gemini-cli/schema-stripped"), "{out}");
}
