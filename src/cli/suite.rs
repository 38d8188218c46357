//! The results of `mcplens test` as CI reads them: readable lines, TAP version 13, JUnit XML.
//! Pure text from results; every name and message is made one safe line first.

use std::fmt::Write;
use std::time::Duration;

use crate::collection::Failure;
use crate::sanitize;

/// One saved call's result.
#[derive(Debug, Clone, Default)]
pub struct CaseResult {
    pub name: String,
    pub elapsed: Duration,
    pub failures: Vec<Failure>,
    /// With `--update`: what was rewritten.
    pub changes: Vec<String>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// `ok    name (12 ms)`, or `FAIL  name` and a line per failure.
pub fn text_case(r: &CaseResult) -> String {
    let mut s = String::new();
    for c in &r.changes {
        let _ = writeln!(s, "updated  {}: {}", sanitize::line(&r.name), sanitize::line(c));
    }
    let word = if r.passed() { "ok  " } else { "FAIL" };
    let _ = writeln!(s, "{word}  {} ({} ms)", sanitize::line(&r.name), ms(r.elapsed));
    for f in &r.failures {
        let _ = writeln!(s, "        {f}");
    }
    s
}

/// `3 calls: 2 passed, 1 failed (0.52 s)`
pub fn text_summary(results: &[CaseResult], elapsed: Duration) -> String {
    let failed = results.iter().filter(|r| !r.passed()).count();
    let n = results.len();
    format!(
        "{n} call{}: {} passed, {failed} failed ({:.2} s)\n",
        if n == 1 { "" } else { "s" },
        n - failed,
        elapsed.as_secs_f64()
    )
}

pub fn tap_header(count: usize) -> String {
    format!("TAP version 13\n1..{count}\n")
}

/// `ok 1 - name`, or `not ok 1 - name` with a YAML block of failures.
pub fn tap_case(number: usize, r: &CaseResult) -> String {
    let mut s = String::new();
    for c in &r.changes {
        let _ = writeln!(s, "# updated {}: {}", tap_text(&r.name), tap_text(c));
    }
    let word = if r.passed() { "ok" } else { "not ok" };
    let _ = writeln!(s, "{word} {number} - {}", tap_text(&r.name));
    if r.passed() {
        return s;
    }
    let _ = writeln!(s, "  ---\n  duration_ms: {}\n  failures:", ms(r.elapsed));
    for f in &r.failures {
        let _ = writeln!(s, "    - path: {}", yaml(&f.path));
        let _ = writeln!(s, "      expected: {}", yaml(&f.expected));
        let _ = writeln!(s, "      got: {}", yaml(&f.got));
    }
    s.push_str("  ...\n");
    s
}

/// A TAP description: one line, `#` escaped (it would start a directive).
fn tap_text(s: &str) -> String {
    sanitize::line(s).replace('\\', "\\\\").replace('#', "\\#")
}

/// A YAML double-quoted scalar (JSON's string syntax is one).
fn yaml(s: &str) -> String {
    serde_json::Value::String(sanitize::line(s).into_owned()).to_string()
}

/// The results as JUnit XML: one testsuite (the collection) of one testcase per call.
pub fn junit(suite: &str, results: &[CaseResult], elapsed: Duration) -> String {
    let failed = results.iter().filter(|r| !r.passed()).count();
    let (n, secs) = (results.len(), elapsed.as_secs_f64());
    let suite = xml(suite);
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"mcplens\" tests=\"{n}\" failures=\"{failed}\" errors=\"0\" time=\"{secs:.3}\">"
    );
    let _ = writeln!(
        s,
        "  <testsuite name=\"{suite}\" tests=\"{n}\" failures=\"{failed}\" errors=\"0\" skipped=\"0\" time=\"{secs:.3}\">"
    );
    for r in results {
        let time = r.elapsed.as_secs_f64();
        let head = format!("    <testcase name=\"{}\" classname=\"{suite}\" time=\"{time:.3}\"", xml(&r.name));
        if r.passed() {
            let _ = writeln!(s, "{head}/>");
            continue;
        }
        let first = r.failures.first().map(|f| f.to_string()).unwrap_or_default();
        let more = if r.failures.len() > 1 { format!(" (and {} more)", r.failures.len() - 1) } else { String::new() };
        let _ = writeln!(s, "{head}>");
        let _ = write!(s, "      <failure type=\"expectation\" message=\"{}{more}\">", xml(&first));
        // One failure a line: each is made one line by `xml`.
        for f in &r.failures {
            let _ = writeln!(s, "{}", xml(&f.to_string()));
        }
        s.push_str("</failure>\n    </testcase>\n");
    }
    s.push_str("  </testsuite>\n</testsuites>\n");
    s
}

/// Text as XML character data or an attribute value: one safe line (as the text output shows
/// it), markup escaped, and the characters XML 1.0 cannot hold (U+FFFE, U+FFFF) as `\u{..}`.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in sanitize::line(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing() -> CaseResult {
        CaseResult {
            name: "sum <&> \"#1\"\u{1b}[2J".into(),
            elapsed: Duration::from_millis(12),
            failures: vec![Failure { path: "/a".into(), expected: "equals 3".into(), got: "\"x\\n\"".into() }],
            changes: vec![],
        }
    }

    #[test]
    fn tap_escapes_directives_and_quotes_yaml() {
        let t = tap_case(2, &failing());
        assert!(t.starts_with("not ok 2 - sum <&> \"\\#1\"\\\\x1b[2J\n  ---\n"), "{t}");
        assert!(t.contains("      got: \"\\\"x\\\\n\\\"\"\n"), "{t}");
        assert!(!t.contains('\u{1b}') && t.ends_with("  ...\n"));
    }

    #[test]
    fn junit_escapes_markup_and_controls() {
        let x = junit("c.toml", &[failing(), CaseResult { name: "fine".into(), ..Default::default() }], Duration::ZERO);
        assert!(x.contains("<testcase name=\"sum &lt;&amp;&gt; &quot;#1&quot;\\x1b[2J\""), "{x}");
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("<testcase name=\"fine\" classname=\"c.toml\" time=\"0.000\"/>"), "{x}");
        assert!(!x.contains('\u{1b}'));
        assert_eq!(xml("a\u{0}b\u{ffff}\n"), "a\\x00b\\u{ffff}\\n");
    }
}
