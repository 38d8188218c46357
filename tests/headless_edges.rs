//! What a headless `mcplens call` says at the edges, against tests/servers/headless_edges.py (a
//! raw server that does what an SDK would not): a result that breaks its tool's outputSchema,
//! server log messages sent just before the reply (to `call`, `read`, `prompt`, `complete`), an
//! error message of several lines.

mod common;

use common::*;

/// `mcplens call TOOL EXTRA... -- python headless_edges.py`.
fn call(tool: &str, extra: &[&str]) -> std::process::Output {
    let py = python().to_string_lossy().into_owned();
    let server = script("headless_edges.py");
    let mut args = vec!["call", tool];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", &py, &server]);
    mcplens(&args)
}

/// The spec's MUST: structuredContent conforms to the outputSchema. A break is a warning on
/// stderr naming it, and the exit code still says how the call went.
#[test]
fn a_result_that_breaks_its_output_schema_is_warned_about() {
    for extra in [&[][..], &["--json"], &["--raw"]] {
        let o = call("bad_output", extra);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(
                "warning: structuredContent breaks the tool's outputSchema: /n: \"not-int\" is not of type \"integer\""
            ),
            "{extra:?}: {err}"
        );
    }
    let o = call("no_structured", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: the tool declares an outputSchema but the result has no structuredContent"),
        "{err}"
    );
    assert!(!stderr(&call("log_then_reply", &[])).contains("warning"));
}

/// `mcplens --log-level debug ARGS... -- python headless_edges.py` with stdout and stderr
/// written to one file, in the order a terminal would show them; its exit code and that text.
fn with_log(args: &[&str]) -> (Option<i32>, String) {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("mcplens-log-order-{}-{n}", std::process::id()));
    let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{e}"));
    let both = || std::process::Stdio::from(file.try_clone().unwrap_or_else(|e| panic!("{e}")));
    let py = python().to_string_lossy().into_owned();
    let status = std::process::Command::new(bin())
        .args(["--log-level", "debug"])
        .args(args)
        .args(["--", &py, &script("headless_edges.py")])
        .env("MCPLENS_STATE_DIR", std::env::temp_dir().join(format!("mcplens-test-state-{}", std::process::id())))
        .stdin(std::process::Stdio::null())
        .stdout(both())
        .stderr(both())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    (status.code(), text)
}

/// The server's log messages sent before its reply are printed before the answer, once each,
/// by every command that prints a reply.
#[test]
fn log_messages_sent_before_the_reply_come_before_the_answer() {
    let commands: [(&[&str], &str); 4] = [
        (&["call", "log_then_reply"], "replied"),
        (&["read", "edges://doc"], "read it"),
        (&["prompt", "any", "--no-validate"], "got it"),
        (&["complete", "--prompt", "any", "--arg", "a=b"], "completed"),
    ];
    for (args, answer) in commands {
        let (code, text) = with_log(args);
        assert_eq!(code, Some(0), "{args:?}: {text}");
        let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{args:?}: {needle} not in {text}"));
        assert!(at("server log [info] edges: step 2") < at(answer), "{args:?}: {text}");
        assert!(at("server log [info] edges: step 0") < at("server log [info] edges: step 1"), "{text}");
        assert_eq!(text.matches("edges: step 0").count(), 1, "{args:?}: printed once: {text}");
    }
}

/// An error message of several lines is printed as its lines on stdout, and as one line joined
/// with " · " on stderr: never with a literal `\n`.
#[test]
fn an_error_message_of_several_lines_is_printed_as_lines() {
    let o = call("error_lines", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("error -32000: it failed\n    at step two\n  see the log\n"), "{out}");
    assert!(err.contains("JSON-RPC error -32000: it failed · at step two · see the log"), "{err}");
    assert!(!out.contains("\\n") && !err.contains("\\n"), "{out}{err}");
}

/// A number beyond what a float holds, typed with --arg or in --args, reaches the server digit
/// for digit (the server answers the literal it read), and --print-message shows it so.
#[test]
fn a_typed_number_beyond_64_bits_goes_out_as_typed() {
    let big = "123456789012345678901234567890";
    let (n, x, free) = (format!("n={big}"), "x=1.10", format!("free=-{big}"));
    let args = format!(r#"{{"o": {{"ids": [{big}]}}}}"#);
    let o = call("echo_args", &["--arg", &n, "--arg", x, "--arg", &free, "--args", &args, "--raw"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The raw result: the server's text, a JSON string in JSON.
    let out = stdout(&o);
    for sent in [format!(r#"\"n\": \"{big}\""#), r#"\"x\": \"1.10\""#.into(), format!(r#"\"free\": \"-{big}\""#)] {
        assert!(out.contains(&sent), "{sent} not in {out}");
    }
    assert!(out.contains(big) && out.matches(big).count() == 3, "{out}");
    let o = call("echo_args", &["--arg", &n, "--print-message"]);
    assert!(stdout(&o).contains(&format!(r#""arguments":{{"n":{big}}}"#)), "{}", stdout(&o));
}
