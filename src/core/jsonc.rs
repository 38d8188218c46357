//! JSON with comments, as VS Code writes its settings and `mcp.json`: `//` and `/* */` comments
//! and trailing commas, turned into plain JSON for serde. Comments become spaces (newlines kept),
//! so an error's line and column still point into the file as written. One pass, no recursion.

/// `text` as plain JSON, or why it cannot be (an unclosed comment).
pub fn to_json(text: &str) -> Result<String, String> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut in_string = false;
    // A comma seen since the last value: dropped if a `}` or `]` comes next.
    let mut comma: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (c, b.get(i + 1)) {
            (b'/', Some(b'/')) => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                blank(&mut out[i..end]);
                i = end;
                continue;
            }
            (b'/', Some(b'*')) => {
                let Some(n) = memchr::memmem::find(&b[i + 2..], b"*/") else {
                    let line = text[..i].matches('\n').count() + 1;
                    return Err(format!("line {line}: a /* comment is not closed"));
                };
                let end = i + 2 + n + 2;
                blank(&mut out[i..end]);
                i = end;
                continue;
            }
            (b',', _) => comma = Some(i),
            (b'}' | b']', _) => {
                if let Some(at) = comma.take() {
                    out[at] = b' ';
                }
            }
            (b' ' | b'\t' | b'\r' | b'\n', _) => {}
            (b'"', _) => {
                in_string = true;
                comma = None;
            }
            _ => comma = None,
        }
        i += 1;
    }
    // Only ASCII bytes outside strings were replaced by spaces: still UTF-8.
    String::from_utf8(out).map_err(|_| "not UTF-8 text".to_string())
}

/// Spaces in place of a comment, keeping its line breaks.
fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> serde_json::Value {
        let json = to_json(text).unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    #[test]
    fn comments_and_trailing_commas() {
        let text = "{\n  // the servers\n  \"servers\": { /* one */ \"a\": {\"args\": [\"x\", \"//not\", \"/*no*/\",],},\n  },\n}";
        let v = value(text);
        assert_eq!(v["servers"]["a"]["args"], serde_json::json!(["x", "//not", "/*no*/"]));
        assert_eq!(value(r#"{"a": "q\"//x", /* c */ "b": [1, 2 /* , */ ,]}"#)["a"], "q\"//x");
    }

    #[test]
    fn errors_keep_their_lines() {
        assert_eq!(to_json("{\n/* open").err().as_deref(), Some("line 2: a /* comment is not closed"));
        let json = to_json("{ // c\n \"a\": }").unwrap_or_default();
        let err = serde_json::from_str::<serde_json::Value>(&json).err().map(|e| e.line());
        assert_eq!(err, Some(2));
        // A comma between values stays, so `[1,,2]` is still an error.
        assert!(serde_json::from_str::<serde_json::Value>(&to_json("[1,,2]").unwrap_or_default()).is_err());
    }
}
