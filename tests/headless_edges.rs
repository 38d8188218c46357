//! What a headless `mcplens call` says at the edges, against tests/servers/headless_edges.py (a
//! raw server that does what an SDK would not): a result that breaks its tool's outputSchema.

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
