//! The performance guard: instruction counts of the key scenarios under valgrind's callgrind,
//! compared with the committed baseline (tests/perf_guard/baseline.txt). A scenario that costs
//! more than 10% over its baseline fails the test. Instruction counts do not move with the
//! machine's load, so the guard holds on a busy CI machine where wall times do not.
//!
//! The scenarios run the debug `mcplens` as the test command builds it, against this binary
//! serving recorded replies (`perf_guard serve DIR`, see perf_guard/replay.rs) that
//! scripts/bench-shapes.py writes: the listing of 20,000 tools at full size, the call shapes at a
//! hundredth (their counts scale with the input), so that the whole guard stays within a couple
//! of minutes under valgrind, one of them again past a megabyte (a long reply's own path), and
//! the start-up of a command whose answer is small.
//!
//! Accepting a new baseline when a change is worth its cost:
//!     MCPLENS_PERF_ACCEPT=1 cargo test --test perf_guard
//! Without valgrind the guard says so and passes (scripts/install-peers installs it).

#[path = "perf_guard/replay.rs"]
mod replay;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How far over its baseline a scenario may go.
const TOLERANCE: f64 = 0.10;
/// The call shapes' record counts of scripts/bench-shapes.py, scaled: 1,000 records, 8,500 in the
/// JSON text. The listing runs at full size (20,000 tools over 20 pages): its cost per tool is
/// small, and a fixed cost (start-up) would hide a per-tool regression at a smaller count.
const CALL_SCALE: &str = "0.01";
const BASELINE: &str = "tests/perf_guard/baseline.txt";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("serve") => replay::serve(Path::new(args.get(1).map_or("", String::as_str))),
        Some("frame") => frame::run(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1_000_000)),
        // `cargo test --test perf_guard -- call_text tools` runs the scenarios whose names hold a filter.
        _ => guard(&args.iter().filter(|a| !a.starts_with('-')).cloned().collect::<Vec<_>>()),
    }
}

struct Scenario {
    name: &'static str,
    shape: &'static str,
    /// The record counts of scripts/bench-shapes.py times this.
    scale: &'static str,
    args: &'static [&'static str],
}

const CALL: &[&str] = &["call", "echo", "--json", "--arg", "mb=1"];

const SCENARIOS: &[Scenario] = &[
    // The fixed cost: start-up, the handshake and twelve one-tool pages, what every command pays
    // however small its answer (a regression there is lost in the large scenarios' counts).
    Scenario { name: "startup_tools_list_12", shape: "tools", scale: CALL_SCALE, args: &["tools", "--json"] },
    Scenario { name: "tools_list_20000", shape: "tools20k", scale: "1", args: &["tools", "--json"] },
    Scenario { name: "call_structured", shape: "structured", scale: CALL_SCALE, args: CALL },
    // The same records past a megabyte (12,000, 1.3 MB): a reply that long takes the long line's
    // own path (read straight into its buffer and checked as UTF-8 as it comes, scanned on a
    // second thread while it is parsed, its result members read from that scan).
    Scenario { name: "call_structured_long", shape: "structured", scale: "0.12", args: CALL },
    Scenario { name: "call_text_and_structured", shape: "both", scale: CALL_SCALE, args: CALL },
    Scenario { name: "call_text", shape: "text", scale: CALL_SCALE, args: CALL },
    Scenario { name: "call_fastmcp", shape: "fastmcp", scale: CALL_SCALE, args: CALL },
];

fn guard(filters: &[String]) {
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("perf_guard: SKIPPED: valgrind is not installed (scripts/install-peers installs it)");
        return;
    }
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perf-guard");
    let me = std::env::current_exe().unwrap_or_else(|e| panic!("this test's own path: {e}"));
    let mut counts = BTreeMap::new();
    for s in SCENARIOS.iter().filter(|s| wanted(s.name)) {
        let dir = write_shape(&work, s.shape, s.scale);
        let mut cmd = vec![env!("CARGO_BIN_EXE_mcplens").to_string()];
        cmd.extend(s.args.iter().map(|a| a.to_string()));
        cmd.extend(["--".into(), me.display().to_string(), "serve".into(), dir.display().to_string()]);
        // The fewest of three runs where a reply takes two threads, which share the work as
        // they come to it: a run may do a little more (a printer made afresh rather than
        // reused), and the fewest is the count that does not depend on that.
        let runs = if s.name == "call_structured_long" { 3 } else { 1 };
        let fewest = (0..runs).map(|_| callgrind(&work, &cmd, &[])).min().unwrap_or_default();
        counts.insert(s.name.to_string(), fewest);
    }
    let frame_name = format!("tui_frame_{}_rows", frame::ROWS);
    if wanted(&frame_name) {
        let frame = [me.display().to_string(), "frame".into(), frame::ROWS.to_string()];
        counts.insert(frame_name, callgrind(&work, &frame, &["--instr-atstart=no"]));
    }
    compare(&counts, filters.is_empty());
}

/// The recorded replies of one shape, written once per scale (the script's output depends on
/// nothing else).
fn write_shape(work: &Path, shape: &str, scale: &str) -> PathBuf {
    let root = work.join(format!("shapes-{scale}"));
    let done = root.join(format!(".done-{shape}"));
    if done.exists() {
        return root.join(shape);
    }
    let _ = std::fs::remove_dir_all(root.join(shape));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-shapes.py");
    let status = Command::new("python3").arg(&script).arg(&root).arg(scale).arg(shape).status();
    assert!(status.as_ref().is_ok_and(|s| s.success()), "python3 scripts/bench-shapes.py failed: {status:?}");
    let _ = std::fs::write(&done, "");
    root.join(shape)
}

/// The instructions `cmd` runs, as callgrind counts them.
fn callgrind(work: &Path, cmd: &[String], extra: &[&str]) -> u64 {
    // A new home each run: the history a call appends to would otherwise grow from run to run
    // (and be trimmed every so often), and the count with it.
    let home = work.join("home");
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::create_dir_all(&home);
    let out = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", work.join("callgrind.out").display()))
        .args(extra)
        .args(cmd)
        .current_dir(work)
        // A fixed environment: no user config, hints or history, the same on every machine.
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("valgrind: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{cmd:?} failed under valgrind:\n{stderr}");
    let collected = stderr.lines().find_map(|l| l.split_once("Collected :").map(|(_, n)| n.trim().to_string()));
    collected.and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("no instruction count from callgrind:\n{stderr}"))
}

fn read_baseline(path: &Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .filter_map(|(k, v)| Some((k.to_string(), v.trim().parse().ok()?)))
        .collect()
}

fn compare(counts: &BTreeMap<String, u64>, all: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASELINE);
    // Set and not empty: `MCPLENS_PERF_ACCEPT= cargo test` (a variable cleared on the command
    // line) checks, it does not accept.
    if std::env::var_os("MCPLENS_PERF_ACCEPT").is_some_and(|v| !v.is_empty() && v != "0") {
        // A filtered run keeps the other scenarios' figures.
        let mut counts = counts.clone();
        if !all {
            for (k, v) in read_baseline(&path) {
                counts.entry(k).or_insert(v);
            }
        }
        let mut text = String::from(
            "# Instructions per scenario (callgrind, test build), checked by tests/perf_guard.rs.\n\
             # Accept new figures: MCPLENS_PERF_ACCEPT=1 cargo test --test perf_guard\n",
        );
        for (k, v) in &counts {
            text.push_str(&format!("{k} {v}\n"));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("perf_guard: baseline written to {BASELINE}");
    }
    let baseline = read_baseline(&path);
    let mut over = Vec::new();
    println!("{:<28} {:>15} {:>15} {:>8}", "scenario", "baseline", "now", "change");
    for (k, &now) in counts {
        let Some(&base) = baseline.get(k) else {
            over.push(format!("{k}: not in {BASELINE}"));
            continue;
        };
        let change = now as f64 / base as f64 - 1.0;
        println!("{k:<28} {base:>15} {now:>15} {:>+7.1}%", change * 100.0);
        if change > TOLERANCE {
            over.push(format!("{k}: {now} instructions, {:+.1}% over the baseline {base}", change * 100.0));
        }
    }
    assert!(
        over.is_empty(),
        "over the performance baseline by more than {:.0}%:\n  {}\nIf the cost is worth it, accept it: \
         MCPLENS_PERF_ACCEPT=1 cargo test --test perf_guard (and commit {BASELINE})",
        TOLERANCE * 100.0,
        over.join("\n  ")
    );
}

/// One TUI frame of a result with a million rows: the table is built uncounted (callgrind starts
/// with instrumentation off), then instrumentation starts and one frame is drawn and counted.
mod frame {
    use std::sync::Arc;
    use std::time::Duration;

    use mcplens::envelope::normalize_reply;
    use mcplens::mcp::{Reply, ReplyBody};
    use mcplens::ui::app::CallResult;
    use mcplens::ui::result::{Page, ResultState, View};
    use mcplens::ui::theme::Theme;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use serde_json::{Value, json};

    pub const ROWS: usize = 1_000_000;

    /// A `tools/call` reply with `n` records in structuredContent, written as text directly (a
    /// million `Value`s would cost more than the frame by far).
    fn reply_text(n: usize) -> String {
        let mut s = String::with_capacity(n * 64);
        s.push_str(r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"records"}],"structuredContent":{"records":["#);
        for i in 0..n {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!(r#"{{"id":{i},"name":"record {i}","score":{},"ok":true}}"#, i % 1000));
        }
        s.push_str(&format!(r#"],"total":{n}}}}}}}"#));
        s
    }

    pub fn run(n: usize) {
        let theme = Theme::default();
        let raw: Arc<String> = Arc::new(reply_text(n));
        let mut reply = Reply::parse(raw, Duration::ZERO, 1000).unwrap_or_else(|e| panic!("the reply reads: {e}"));
        let body = std::mem::replace(&mut reply.body, ReplyBody::Result(Value::Null));
        let env = normalize_reply("records", None, body, std::mem::take(&mut reply.elisions));
        let result = CallResult {
            tool: "records".into(),
            arguments: json!({}),
            reply: Some(Arc::new(reply)),
            envelope: Some(Arc::new(env)),
            output_schema: None,
            error: None,
            elapsed: Duration::ZERO,
        };
        let mut state = ResultState::new(result, Page::default(), &theme);
        state.set_view(View::Envelope);
        let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap_or_else(|e| match e {});
        let _ = term.draw(|f| state.render(f, f.area(), &theme, true));
        start_instrumentation();
        let _ = term.draw(|f| state.render(f, f.area(), &theme, true));
    }

    /// CALLGRIND_START_INSTRUMENTATION (valgrind/callgrind.h): a no-op outside valgrind.
    #[cfg(target_arch = "x86_64")]
    fn start_instrumentation() {
        const START_INSTRUMENTATION: u64 = ((b'C' as u64) << 24 | (b'T' as u64) << 16) + 4;
        let args: [u64; 6] = [START_INSTRUMENTATION, 0, 0, 0, 0, 0];
        // SAFETY: valgrind's client request preamble: four rotations of rdi that add up to 128
        // bits (rdi unchanged) and `xchg rbx, rbx`, a no-op on a real CPU; valgrind reads the
        // request from the array rax points to and writes its answer to rdx.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") 0u64 => _,
                out("rdi") _,
                options(nostack),
            );
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn start_instrumentation() {}
}
