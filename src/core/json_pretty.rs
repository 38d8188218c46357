//! Pretty-prints JSON text as it was sent: it re-indents the text's own tokens instead of parsing
//! into a value and serializing again, so numbers, escapes and key order stay byte for byte.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Key,
    String,
    Number,
    Bool,
    Null,
    Punct,
    Space,
}

/// One output line: `(token kind, text)` pieces.
pub type Line = Vec<(Token, String)>;

/// Pretty-printed lines of `raw`. Malformed input is still laid out as well as it can be; the
/// output is bounded by `max_lines` (a last line says how much was left out).
pub fn lines(raw: &str, max_lines: usize) -> Vec<Line> {
    let mut out: Vec<Line> = vec![];
    let mut cur: Line = vec![];
    let mut depth = 0usize;
    let mut chars = raw.char_indices().peekable();
    // Whether the next string is an object key: after `{` or after `,` inside an object.
    let mut stack: Vec<char> = vec![];
    let mut expect_key = false;
    let push_line = |out: &mut Vec<Line>, cur: &mut Line, depth: usize| {
        out.push(std::mem::take(cur));
        cur.push((Token::Space, "  ".repeat(depth.min(64))));
    };
    while let Some((i, c)) = chars.next() {
        if out.len() >= max_lines {
            out.push(vec![(Token::Punct, format!("… ({} more bytes not shown)", raw.len() - i))]);
            return out;
        }
        match c {
            ' ' | '\n' | '\r' | '\t' => {}
            '{' | '[' => {
                let empty = matches!(chars.clone().find(|(_, c)| !c.is_whitespace()), Some((_, '}' | ']')));
                cur.push((Token::Punct, c.to_string()));
                stack.push(c);
                depth += 1;
                expect_key = c == '{';
                if !empty {
                    push_line(&mut out, &mut cur, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                stack.pop();
                let only_indent = cur.iter().all(|(t, _)| *t == Token::Space);
                let prev_open = out.last().is_none() && cur.is_empty()
                    || cur.last().is_some_and(|(t, s)| *t == Token::Punct && (s == "{" || s == "["));
                if !prev_open {
                    if only_indent {
                        cur.clear();
                        cur.push((Token::Space, "  ".repeat(depth.min(64))));
                    } else {
                        push_line(&mut out, &mut cur, depth);
                    }
                }
                cur.push((Token::Punct, c.to_string()));
            }
            ',' => {
                cur.push((Token::Punct, ",".into()));
                expect_key = stack.last() == Some(&'{');
                push_line(&mut out, &mut cur, depth);
            }
            ':' => {
                cur.push((Token::Punct, ": ".into()));
                expect_key = false;
            }
            '"' => {
                let start = i;
                let mut end = raw.len();
                let mut escaped = false;
                for (j, d) in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == '"' {
                        end = j + 1;
                        break;
                    }
                }
                let kind = if expect_key { Token::Key } else { Token::String };
                cur.push((kind, raw[start..end].to_string()));
            }
            _ => {
                let start = i;
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.peek().copied() {
                    if matches!(d, ',' | '}' | ']' | ':' | ' ' | '\n' | '\r' | '\t' | '"') {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                let word = &raw[start..end];
                let kind = match word {
                    "true" | "false" => Token::Bool,
                    "null" => Token::Null,
                    _ => Token::Number,
                };
                cur.push((kind, word.to_string()));
            }
        }
    }
    if !cur.iter().all(|(t, _)| *t == Token::Space) {
        out.push(cur);
    }
    out
}

/// The lines as plain text (for tests and exports).
pub fn to_string(lines: &[Line]) -> String {
    lines.iter().map(|l| l.iter().map(|(_, s)| s.as_str()).collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bytes_and_lays_out() {
        let raw = r#"{"b":1.50,"a":[9007199254740993,true,null,"x\"y"],"e":{},"f":[]}"#;
        let text = to_string(&lines(raw, 1000));
        assert_eq!(
            text,
            "{\n  \"b\": 1.50,\n  \"a\": [\n    9007199254740993,\n    true,\n    null,\n    \"x\\\"y\"\n  ],\n  \"e\": {},\n  \"f\": []\n}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(v["a"][0].to_string(), "9007199254740993");
    }

    #[test]
    fn marks_keys_and_bounds_output() {
        let l = lines(r#"{"k":"v"}"#, 100);
        assert!(l[1].iter().any(|(t, s)| *t == Token::Key && s == "\"k\""));
        assert!(l[1].iter().any(|(t, s)| *t == Token::String && s == "\"v\""));
        let big = format!("[{}]", vec!["1"; 1000].join(","));
        let l = lines(&big, 10);
        assert_eq!(l.len(), 11);
        assert!(to_string(&l).contains("more bytes not shown"));
        let _ = lines("{{{{]]]]\"unterminated", 100);
    }
}
