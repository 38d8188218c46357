//! Server-sized lists held at a bounded multiple of their bytes: mcplens's peak memory stays
//! within 10 times what the server sent plus 50 MB (its own start-up included) on each surface:
//! completions, prompt messages, prompt arguments, resources, sampling requests. The server is
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

/// Two snapshots of the server in `mode` with `count` items, the second with SIZES_VARIANT=1
/// (every description changed and one item dropped); returns their paths and the larger size.
fn two_snapshots(mode: &str, count: usize) -> (std::path::PathBuf, std::path::PathBuf, u64) {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-diff-{mode}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    for (path, variant) in [(&old, "0"), (&new, "1")] {
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
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let larger = size(&old).max(size(&new));
    (old, new, larger)
}

/// `mcplens diff` of the two, held to 10 times the larger file plus 50 MB.
fn diff_within_budget(mode: &str, count: usize) -> Output {
    let (old, new, larger) = two_snapshots(mode, count);
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
    assert_eq!(o.status.code(), Some(5), "diff {mode}: {}", stderr(&o));
    let (p, budget) = (peak(&o), 10 * larger + 50 * MIB);
    assert!(p <= budget, "diff {mode} {count}: peak {} MiB over the budget of {} MiB", p / MIB, budget / MIB);
    o
}

/// Every tool's description changed and one tool removed: each changed pair is read alone.
#[test]
fn a_diff_of_20k_tools_all_changed() {
    let o = diff_within_budget("tools", 20_000);
    let out = stdout(&o);
    assert!(out.ends_with("1 breaking, 19999 compatible\n"), "{}", &out[out.len().saturating_sub(300)..]);
    assert!(out.contains("BREAKING    /tools/t019999  tool removed"), "the removed tool is missing");
}

/// One tool of 80k properties, one removed: the properties alike on both sides are not built.
#[test]
fn a_diff_of_one_tool_with_80k_properties() {
    let o = diff_within_budget("tool-props", 80_000);
    let out = stdout(&o);
    assert_eq!(
        out,
        "BREAKING    /tools/t/inputSchema/properties/p079999  property removed\n1 breaking, 0 compatible\n"
    );
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
