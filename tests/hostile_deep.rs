//! Hostile nesting (issue 14): JSON nested 90,000 levels deep with `--max-depth` raised, schemas
//! whose validation used to take gigabytes, and replies whose readable output used to grow with
//! the square of their depth. Each case has a budget: the exit code, what must not appear, the
//! output's size and mcplens's own peak memory (MCPLENS_REPORT_PEAK, without the server's).
//! Bounds are generous (debug builds, a busy machine): they catch the blow-ups, not small drift.

mod common;

use std::process::{Command, Output, Stdio};

use common::*;

const DEEP: usize = 90_000;
const MIB: u64 = 1 << 20;

/// mcplens with `args`, against tests/servers/hostile_deep.py `mode` nesting `depth` levels.
fn run(args: &[&str], mode: &str, depth: usize) -> Output {
    Command::new(bin())
        .args(args)
        .arg("--")
        .arg("python3")
        .arg(script("hostile_deep.py"))
        .arg(mode)
        .arg(depth.to_string())
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

/// No crash: not a signal, not a panic, not a stack overflow.
fn assert_survived(o: &Output, what: &str) {
    let err = stderr(o);
    assert!(o.status.code().is_some(), "{what}: killed by a signal ({:?}):\n{err}", o.status);
    assert_ne!(o.status.code(), Some(101), "{what}: panicked:\n{err}");
    assert!(!err.contains("overflowed its stack") && !err.contains("panicked"), "{what}:\n{err}");
}

fn check(o: &Output, what: &str, code: i32, max_out: usize, max_peak: u64) {
    assert_survived(o, what);
    assert_eq!(o.status.code(), Some(code), "{what}:\n{}", stderr(o));
    assert!(o.stdout.len() <= max_out, "{what}: {} bytes out, over {max_out}", o.stdout.len());
    let p = peak(o);
    assert!(p <= max_peak, "{what}: peak {} MiB, over {} MiB", p / MIB, max_peak / MIB);
}

#[test]
fn replies_90k_levels_deep_are_printed_in_every_form() {
    let max_depth = (2 * DEEP).to_string();
    // The reply is about 180 KB (2 bytes a level); readable output indents 32 levels only.
    for mode in ["deep-reply", "deep-objects"] {
        for extra in [&[][..], &["--json"][..], &["--raw"][..]] {
            let mut args = vec!["call", "t", "--max-depth", &max_depth];
            args.extend_from_slice(extra);
            let o = run(&args, mode, DEEP);
            // Built and written on heap stacks: about 1 KB a level (serde's recursion took 3).
            check(&o, &format!("{mode} {extra:?}"), 0, 8 * 3 * DEEP + 4096, 384 * MIB);
            let out = stdout(&o);
            assert!(out.contains("1"), "{mode} {extra:?}: the leaf is missing");
        }
    }
    let o = run(&["call", "t", "--max-depth", &max_depth], "deep-error", DEEP);
    check(&o, "deep-error", 1, 8 * 2 * DEEP + 4096, 384 * MIB);
    assert!(stderr(&o).contains("deep error"), "{}", stderr(&o));
}

#[test]
fn tool_lists_90k_levels_deep_are_listed() {
    let max_depth = (5 * DEEP).to_string();
    for mode in ["deep-list", "deep-desc", "nested-anyof"] {
        let o = run(&["tools", "--max-depth", &max_depth], mode, DEEP);
        check(&o, mode, 0, 1 << 20, 512 * MIB);
        assert!(stdout(&o).starts_with("1 tools"), "{mode}: {}", stdout(&o));
        // Listing only: the depth is measured, not parsed, so memory stays small.
        let o = run(&["tools", "--json", "--max-depth", &max_depth], mode, DEEP);
        check(&o, &format!("{mode} --json"), 0, 64 << 20, 256 * MIB);
    }
}

#[test]
fn resources_and_prompts_90k_levels_deep_are_shown() {
    let max_depth = (2 * DEEP).to_string();
    for command in [&["resources"][..], &["templates"], &["prompts"], &["prompt", "p"], &["read", "a://x"]] {
        for extra in [&[][..], &["--json"][..]] {
            let mut args = command.to_vec();
            args.extend_from_slice(extra);
            args.extend_from_slice(&["--max-depth", &max_depth]);
            let o = run(&args, "deep-lists", DEEP);
            check(&o, &format!("{args:?}"), 0, 8 * 3 * DEEP + 4096, 384 * MIB);
        }
    }
}

#[test]
fn deep_schemas_are_validated_within_budget() {
    // Issue 14: 200 and 300 nested objects (2.7 and 5.5 GB), 300 nested anyOf (14 GB).
    for (mode, levels, code) in [("nested-schema", 200, 2), ("nested-schema", 300, 2), ("nested-anyof", 300, 0)] {
        // 300 anyOf levels are 1,200 JSON levels here (object, array, object, properties).
        let o = run(&["call", "t", "--max-depth", "2000", "--args", r#"{"root":{}}"#], mode, levels);
        check(&o, &format!("{mode} {levels}"), code, 1 << 20, 300 * MIB);
        if code == 2 {
            assert!(stderr(&o).contains("\"n\" is a required property"), "{}", stderr(&o));
        }
    }
    let o = run(&["call", "t", "--args", r#"{"root":[[1]]}"#], "nested-items", 300);
    check(&o, "nested-items 300", 2, 1 << 20, 300 * MIB);
    // Deeper than the validator takes: the call goes out unvalidated, and says so.
    for mode in ["nested-schema", "nested-anyof", "nested-items"] {
        let o = run(&["call", "t", "--max-depth", "1000000", "--args", r#"{"root":{}}"#], mode, 20_000);
        check(&o, &format!("{mode} 20000"), 0, 1 << 20, 1536 * MIB);
        assert!(stderr(&o).contains("warning: not validated: the schema nests"), "{}", stderr(&o));
    }
}

#[test]
fn a_thousand_arrays_990_deep_print_in_linear_space() {
    // Issue 14: 2 MB of reply took 4.1 GB and wrote 2 GB (indentation at every level).
    let input = 1000 * (2 * 990 + 1);
    for extra in [&[][..], &["--json"][..]] {
        let mut args = vec!["call", "t"];
        args.extend_from_slice(extra);
        for mode in ["many-deep", "many-deep-text"] {
            let o = run(&args, mode, 990);
            check(&o, &format!("{mode} {extra:?}"), 0, 4 * input, 768 * MIB);
        }
    }
}

/// The TUI in a real terminal: a 90k-deep reply in every view, and forms of schemas too deep to
/// validate; it quits with 0 and the terminal restored.
#[test]
fn the_tui_shows_deep_replies_and_forms_and_quits_cleanly() {
    for (mode, depth, expect) in [
        ("deep-reply", DEEP, "Result: t"),
        ("nested-schema", 20_000, "not validated"),
        ("nested-anyof", 300, "Form: t"),
    ] {
        let name = format!("mcplens-deep-{}-{mode}", std::process::id());
        let cmd = format!(
            "{} --max-depth 1000000 -- python3 {} {mode} {depth}; echo EXITED=$?; sleep 30",
            bin(),
            script("hostile_deep.py")
        );
        let t = common::Tmux::start(&name, 120, 40, &cmd);
        t.wait_for("Tools (1)", 60);
        t.keys(&["Enter"]);
        t.wait_for("Form: t", 60);
        t.keys(&["C-r"]);
        t.wait_for(expect, 60);
        for _ in 0..4 {
            // Every view of the result (Envelope, Split, Content, Raw), each drawn.
            t.keys(&["v"]);
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
        // Back to the tool list (apart: two ESC bytes at once read as Alt-Esc), then quit.
        for _ in 0..3 {
            t.keys(&["Escape"]);
            std::thread::sleep(std::time::Duration::from_millis(400));
        }
        t.keys(&["q"]);
        // Where the result's keys landed in a form that kept the focus (letters type there),
        // quitting asks first, and yes quits.
        std::thread::sleep(std::time::Duration::from_millis(600));
        if t.screen().contains("Quit?") {
            t.keys(&["y"]);
        }
        let screen = t.wait_for("EXITED=", 60);
        assert!(screen.contains("EXITED=0"), "{mode}: {screen}");
        assert!(!screen.contains("Tools ("), "{mode}: terminal not restored:\n{screen}");
    }
}

/// An elicitation whose schema nests 100 objects (203 JSON levels) is read and answered under the
/// default --max-depth (serde_json's own 128-level stop refused it with -32603 and nothing said),
/// and refused with the reason under a lower one.
#[test]
fn a_deep_elicitation_schema_is_read_under_max_depth() {
    let o = run(&["call", "t", "--elicitation", "accept"], "deep-ask", 100);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"action\": \"accept\""), "{}", stdout(&o));
    let o = run(&["call", "t", "--max-depth", "150"], "deep-ask", 100);
    assert!(
        stdout(&o).contains("it nests JSON 203 levels deep, over the limit of 150 (--max-depth)"),
        "{}",
        stdout(&o)
    );
}
