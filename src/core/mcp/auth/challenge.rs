//! The `WWW-Authenticate: Bearer ...` (or `DPoP ...`) challenge of a 401 or 403 (RFC 6750,
//! RFC 9728 §5.1, RFC 9449 §7.1).

/// What a Bearer challenge says; every field is the server's and untrusted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `resource_metadata`: where the protected resource metadata is.
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs, space-separated.
    pub scope: Option<String>,
    /// `error`: e.g. `invalid_token`, `insufficient_scope`.
    pub error: Option<String>,
}

/// Longest header read: a challenge is a few hundred bytes; more is a server misbehaving.
const MAX_HEADER: usize = 8 << 10;

impl Challenge {
    /// Reads the Bearer challenge of a header (other schemes' parameters are ignored).
    pub fn parse(header: &str) -> Challenge {
        let header = crate::sanitize::truncate(header, MAX_HEADER);
        let mut out = Challenge::default();
        let mut in_bearer = false;
        for (scheme, key, value) in params(&header) {
            if let Some(s) = scheme {
                // A DPoP challenge (RFC 9449 §7.1) carries the same parameters.
                in_bearer = s.eq_ignore_ascii_case("bearer") || s.eq_ignore_ascii_case("dpop");
            }
            if !in_bearer {
                continue;
            }
            let slot = match key.to_ascii_lowercase().as_str() {
                "resource_metadata" => &mut out.resource_metadata,
                "scope" => &mut out.scope,
                "error" => &mut out.error,
                _ => continue,
            };
            if slot.is_none() && !value.trim().is_empty() {
                *slot = Some(value);
            }
        }
        out
    }

    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }

    /// The scopes asked for, split on spaces.
    pub fn scopes(&self) -> Vec<String> {
        self.scope.as_deref().map(split_scopes).unwrap_or_default()
    }
}

pub fn split_scopes(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// `(scheme that starts here, key, value)` for each `key=value` or `key="value"` parameter; a
/// bare token followed by a parameter starts a new scheme.
fn params(header: &str) -> Vec<(Option<String>, String, String)> {
    let mut out = vec![];
    let mut rest = header.trim();
    let mut scheme: Option<String> = None;
    while !rest.is_empty() {
        rest = rest.trim_start_matches([',', ' ', '\t']);
        let token_end = rest.find(|c: char| c == '=' || c == ',' || c.is_whitespace()).unwrap_or(rest.len());
        let token = &rest[..token_end];
        let after = rest[token_end..].trim_start_matches([' ', '\t']);
        if token.is_empty() {
            // A stray '=' or quote: skip one character so the loop always moves on.
            rest = rest.get(1..).unwrap_or("");
            continue;
        }
        if let Some(value_part) = after.strip_prefix('=') {
            let value_part = value_part.trim_start_matches([' ', '\t']);
            let (value, remaining) = read_value(value_part);
            out.push((scheme.take(), token.to_string(), value));
            rest = remaining;
        } else {
            scheme = Some(token.to_string());
            rest = after;
        }
    }
    out
}

/// A quoted string (with `\` escapes) or a token, and what follows it.
fn read_value(s: &str) -> (String, &str) {
    if let Some(quoted) = s.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return (value, &quoted[i + 1..]),
                '\\' => {
                    if let Some((_, n)) = chars.next() {
                        value.push(n);
                    }
                }
                _ => value.push(c),
            }
        }
        return (value, "");
    }
    let end = s.find(|c: char| c == ',' || c.is_whitespace()).unwrap_or(s.len());
    (s[..end].to_string(), &s[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_bearer_parameters() {
        let c = Challenge::parse(
            r#"Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp""#,
        );
        assert!(c.insufficient_scope());
        assert_eq!(c.scopes(), ["mcp:basic", "mcp:write"]);
        assert_eq!(c.resource_metadata.as_deref(), Some("http://x/.well-known/oauth-protected-resource/mcp"));
    }

    #[test]
    fn other_schemes_and_junk_are_ignored() {
        let c = Challenge::parse(r#"Basic realm="r", scope="nope", Bearer scope=a, error=invalid_token"#);
        assert_eq!(c.scope.as_deref(), Some("a"));
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        for junk in ["", "=", "\"", "Bearer =,=\"", "Bearer scope=\"unterminated", ",,,", "Bearer"] {
            let _ = Challenge::parse(junk);
        }
        assert_eq!(Challenge::parse(r#"Bearer scope="a\"b""#).scope.as_deref(), Some("a\"b"));
        let dpop = Challenge::parse(r#"DPoP error="use_dpop_nonce", resource_metadata="http://x/prm""#);
        assert_eq!(dpop.error.as_deref(), Some("use_dpop_nonce"));
        assert_eq!(dpop.resource_metadata.as_deref(), Some("http://x/prm"));
    }
}
