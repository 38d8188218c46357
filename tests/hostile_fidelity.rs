//! What JSON allows and serde_json refuses (issue 14, fidelity): numbers beyond a 64-bit float and
//! lone surrogates. A reply or descriptor holding one is read (approximated, and said so), kept
//! byte for byte where the raw text is shown, and a tool whose name holds a lone surrogate is
//! listed under its name, marked, and callable with the server's own bytes.
//! Server: tests/servers/hostile_fidelity.py.

mod common;

use common::*;

fn run(args: &[&str], mode: &str) -> std::process::Output {
    let script = script("hostile_fidelity.py");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", "python3", &script, mode]);
    mcplens(&all)
}

#[test]
fn descriptors_with_such_values_are_listed_by_name_and_marked() {
    let o = run(&["tools"], "numbers");
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("\nbig\n") && out.contains("\nplain\n"), "{out}");
    assert!(out.contains("sur\u{fffd}\n"), "{out}");
    assert!(out.contains("1 lone UTF-16 surrogate") && out.contains("1 number beyond a 64-bit float"), "{out}");
    assert!(!out.contains("(no name)"), "{out}");
    let o = run(&["tools", "--json"], "numbers");
    let out = stdout(&o);
    assert!(out.contains("1e400") && out.contains(r#""sur\ud800""#), "tools --json keeps the bytes: {out}");
}

#[test]
fn a_name_with_a_lone_surrogate_is_called_with_the_servers_own_bytes() {
    let o = run(&["call", r"sur\ud800", "--raw"], "numbers");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The server decoded the name it got and sent it back JSON-encoded, inside a JSON string.
    assert!(stdout(&o).contains(r#"called \"sur\\ud800\""#), "{}", stdout(&o));
    let o = run(&["call", "big", "--arg", "n=5"], "numbers");
    assert_eq!(o.status.code(), Some(0), "a schema holding 1e400 still validates: {}", stderr(&o));
}

#[test]
fn a_reply_beyond_64_bit_floats_is_read_and_said_approximated() {
    let o = run(&["call", "plain", "--json"], "numbers");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // --json writes them as sent (so serde_json cannot read it back, as it could not read the reply).
    let out = stdout(&o);
    assert!(out.contains(r#""huge": 1e400,"#) && out.contains(r#""tiny": -1E999,"#), "{out}");
    assert!(out.contains("\"data\": [\n    1,\n    2,\n    3\n  ]"), "{out}");
    assert!(!stderr(&o).contains("beyond a 64-bit float"), "--json approximates nothing: {}", stderr(&o));
    let o = run(&["call", "plain"], "numbers");
    assert!(stderr(&o).contains("2 numbers beyond a 64-bit float"), "the readable view says so: {}", stderr(&o));
    let o = run(&["call", "plain", "--raw"], "numbers");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(r#""huge":1e400,"tiny":-1E999"#), "--raw is as sent: {}", stdout(&o));
    assert!(!stderr(&o).contains("approximated"), "--raw shows nothing approximated");
}

#[test]
fn a_reply_with_lone_surrogates_is_read() {
    let o = run(&["call", "plain"], "surrogate");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("a\u{fffd}b \u{fffd}"), "{}", stdout(&o));
    assert!(stderr(&o).contains("2 lone UTF-16 surrogates"), "{}", stderr(&o));
    let o = run(&["call", "plain", "--raw"], "surrogate");
    assert!(stdout(&o).contains(r"a\ud800b \udfff"), "{}", stdout(&o));
}

#[test]
fn an_initialize_reply_within_the_limit_is_read_and_one_over_it_is_named() {
    let o = run(&["info", "--json"], "big-init");
    assert_eq!(o.status.code(), Some(0), "20 MiB is within the 512 MiB default: {}", stderr(&o));
    assert!(stdout(&o).len() > 20 << 20);
    let started = std::time::Instant::now();
    let o = run(&["info", "--max-message-mb", "10"], "big-init");
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("over the limit of 10485760 (raise --max-message-mb)"), "{}", stderr(&o));
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "named at once, not after the timeout");
}

#[test]
fn an_sse_stream_with_odd_events_still_answers_the_call() {
    for mode in ["unknown-id", "retry-negative", "retry-huge", "bad-utf8"] {
        let port = free_port();
        let server = std::process::Command::new("python3")
            .args([&script("hostile_sse.py"), &port.to_string(), mode])
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let _guard = Guard(server);
        wait_for_port(port);
        let url = format!("http://127.0.0.1:{port}/mcp");
        let o = mcplens(&["call", "t", "--url", &url, "--timeout", "20"]);
        assert_eq!(o.status.code(), Some(0), "{mode}: {}", stderr(&o));
        assert!(stdout(&o).contains("fine"), "{mode}: {}", stdout(&o));
    }
}

/// Every number of `call --json` is written as the server wrote it, on a small reply (one parse)
/// and a big one (records read from the text) alike: in records, structuredContent and a JSON
/// text block; and no stand-in of the exact reading shows anywhere.
#[test]
fn call_json_keeps_every_number_as_sent_on_small_and_big_replies() {
    for mode in ["exact", "exact-big"] {
        let o = run(&["call", "plain", "--json"], mode);
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{mode}: {err}");
        for literal in [
            r#""id": 123456789012345678901234567890,"#,
            r#""neg": -0,"#,
            r#""price": 1.10,"#,
            r#""e": 1e5,"#,
            r#""tiny": 1e-400"#,
            r#""n": 98765432109876543210,"#,
            r#""z": -0.0"#,
            r#""big": -18446744073709551616,"#,
            r#""count": 1.0,"#,
        ] {
            assert!(out.contains(literal), "{mode}: {literal} missing in {out}");
        }
        assert!(!out.contains("mcplens-number") && !err.contains("mcplens-number"), "{mode}: a stand-in leaked");
        assert!(!out.contains("e+29") && !out.contains("-0.0,"), "{mode}: an approximation: {out}");
        let v = json_out(&o);
        assert_eq!(v["data"].as_array().map(Vec::len), Some(if mode == "exact" { 2 } else { 3000 }), "{mode}");
    }
    // The readable output and --raw are untouched by the exact reading.
    let o = run(&["call", "plain"], "exact");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("mcplens-number"), "{}", stdout(&o));
    let o = run(&["call", "plain", "--raw"], "exact");
    assert!(stdout(&o).contains(r#""price":1.10"#), "{}", stdout(&o));
}

/// A next-page position beyond 64 bits is written as sent in the metadata; no stand-in reaches
/// the pagination the pager reads.
#[test]
fn call_json_pagination_holds_no_stand_in() {
    let o = run(&["call", "page", "--json", "--no-validate"], "exact");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains(r#""nextOffset": 123456789012345678901"#), "{out}");
    assert!(!out.contains("mcplens-number"), "{out}");
}

fn numbers(args: &[&str]) -> std::process::Output {
    let script = script("hostile_numbers.py");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", "python3", &script]);
    mcplens(&all)
}

/// Page positions serde_json would rewrite (offsets beyond 64 bits, cursors `1e2`, `-0`,
/// `1.0000000000000000001`) go back to the server as the very literals it sent: the server
/// answers an error for any other, so every page arriving proves each literal did.
#[test]
fn all_pages_sends_each_position_back_as_the_server_wrote_it() {
    for (tool, pages, items) in [("offsets", 3, 6), ("cursors", 4, 8)] {
        let o = numbers(&["call", tool, "--all-pages", "--json"]);
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{tool}: {err}");
        let v = json_out(&o);
        assert_eq!(v["metadata"]["pager"]["pages"], pages, "{tool}: {out}");
        assert_eq!(v["data"].as_array().map(Vec::len), Some(items), "{tool}: {out}");
        assert_eq!(v["status"], "success", "{tool}: {out}");
        assert!(!out.contains("wrong position") && !out.contains("mcplens-literal"), "{tool}: {out}");
    }
}

/// `call --all-pages --json` writes every number as its page sent it, in the items and in the
/// merged list's next position (a list cut short by --max-pages).
#[test]
fn all_pages_json_writes_every_number_as_sent() {
    let o = numbers(&["call", "records", "--all-pages", "--json"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(out.matches(r#""big": 123456789012345678901234567890,"#).count(), 6, "{out}");
    assert_eq!(out.matches(r#""neg": -0,"#).count(), 6, "{out}");
    assert_eq!(out.matches(r#""price": 1.10"#).count(), 6, "{out}");
    assert!(!out.contains("e+29") && !out.contains("-0.0") && !out.contains("mcplens-"), "{out}");
    assert!(!err.contains("approximated"), "{err}");
    let o = numbers(&["call", "offsets", "--all-pages", "--max-pages", "2", "--json"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains(r#""nextOffset": 123456789012345678903,"#), "{out}");
    assert!(out.contains("stopped after 2 pages"), "{out}");
}

/// The readable `tools` listing parses, renders and writes one descriptor at a time: its peak
/// memory is a small multiple of the list (it parsed every descriptor at once, and gathered the
/// whole text: 7× a 21 MB list, 6× an 84 MB one). Bounds are generous (a debug build, a busy
/// machine); mcplens reports its own peak (MCPLENS_REPORT_PEAK), without the server's.
#[test]
fn readable_tools_of_a_big_list_stay_within_a_small_multiple_of_it() {
    let o = std::process::Command::new(bin())
        .args(["tools", "--", "python3", &script("hostile_numbers.py"), "big-list", "5000"])
        .env("MCPLENS_REPORT_PEAK", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.starts_with("5000 tools (1 page)\n") && out.contains("\ntool_04999 — Tool 4999  [read-only]\n"));
    let peak_kb: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("mcplens-peak-rss "))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {err}"));
    // The list is 21 MB (about 4.2 KB a tool).
    let input_kb = 5000 * 42 / 10;
    assert!(peak_kb < 3 * input_kb + 48 * 1024, "peak {peak_kb} kB for a {input_kb} kB list");
}

/// A real case (tests/wild/SOURCE.md): zcaceres/fetch-mcp pages a text with `substring` by UTF-16
/// index, so a page can end in the high half of an emoji and the next begin with the low half; the
/// TypeScript SDK's stdio transport writes each half as a `\udXXX` escape.
#[test]
fn fetch_mcps_pages_split_inside_an_emoji_are_read_with_u_fffd_and_said() {
    let first = run(&["call", "fetch_txt", "--arg", "url=https://example.com/", "--arg", "max_length=15"], "fetch-mcp");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).contains("Release notes \u{fffd}\n"), "{}", stdout(&first));
    assert!(stderr(&first).contains("1 lone UTF-16 surrogate"), "{}", stderr(&first));
    let second =
        run(&["call", "fetch_txt", "--arg", "url=https://example.com/", "--arg", "start_index=15"], "fetch-mcp");
    assert!(stdout(&second).contains("\u{fffd} shipped"), "{}", stdout(&second));
    let raw = run(&["call", "fetch_txt", "--arg", "url=https://example.com/", "--raw"], "fetch-mcp");
    assert!(stdout(&raw).contains(r#""text":"Release notes \ud83d""#), "--raw is as sent: {}", stdout(&raw));
}

/// `call plain --json` against the server in `mode`, with mcplens's own peak resident memory
/// (MCPLENS_REPORT_PEAK), in bytes.
fn call_json_with_peak(mode: &str) -> (std::process::Output, u64) {
    let state = std::env::temp_dir().join(format!("mcplens-test-state-{}", std::process::id()));
    let o = std::process::Command::new(bin())
        .args(["call", "plain", "--json", "--", "python3", &script("hostile_fidelity.py"), mode])
        .env("MCPLENS_REPORT_PEAK", "1")
        .env("MCPLENS_STATE_DIR", state)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()));
    let kb = stderr(&o).lines().find_map(|l| l.strip_prefix("mcplens-peak-rss ")?.trim_end_matches(" kB").parse().ok());
    let kb: u64 = kb.unwrap_or_else(|| panic!("no peak reported: {}", stderr(&o)));
    (o, kb * 1024)
}

/// The bytes of the reply line the server in `mode` sends to `tools/call`.
fn reply_bytes(mode: &str) -> u64 {
    use std::io::Write;
    let mut server = std::process::Command::new("python3")
        .args([&script("hostile_fidelity.py"), mode])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3: {e}"));
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain"}}"#;
    if let Some(mut stdin) = server.stdin.take() {
        let _ = writeln!(stdin, "{call}");
    }
    let out = server.wait_with_output().unwrap_or_else(|e| panic!("python3: {e}"));
    out.stdout.len() as u64
}

/// A long text block of JSON (6 MB as json.dumps writes it, escapes and all) is decoded in the
/// reply's own buffer: `call --json` holds it about once, not the reply and a decoded copy at
/// once (its peak above a small call's stayed over twice the reply; it is now under 1.5 times),
/// and its records come out as sent. With a number in it that a parse would rewrite, the reply
/// is kept for the reading that writes numbers as sent, and the number is written as sent.
#[test]
fn a_long_json_text_is_decoded_in_place_and_written_as_sent() {
    let (_, small) = call_json_with_peak("exact");
    let (o, big) = call_json_with_peak("text-big");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(v["data"].as_array().map(Vec::len), Some(60_000));
    assert_eq!((&v["data"][5]["name"], &v["data"][5]["note"]), (&"caf\u{e9} \"5\"".into(), &"line\nnext".into()));
    let reply = reply_bytes("text-big");
    let over = big.saturating_sub(small);
    assert!(over < reply * 3 / 2, "peak {} MiB over a small call's for a {} MiB reply", over >> 20, reply >> 20);
    let (o, _) = call_json_with_peak("text-big-exact");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(r#""price": 1.10"#).count(), 1);
    assert_eq!(json_out(&o)["data"].as_array().map(Vec::len), Some(60_000));
}
