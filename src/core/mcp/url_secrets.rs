//! Credentials carried by a URL the user gave: the password of its userinfo (or the user name
//! alone, a token written as `https://TOKEN@host`), and the values of query parameters named as
//! credentials (`?access_token=`, `?api_key=`, `?sig=`). They are secrets like `-H` values:
//! masked wherever the URL or what a server sends back is shown, copied or saved.

use std::borrow::Cow;

use super::log::Redactor;

/// Query parameter names that carry a credential: a name holding any of these (case and `-`/`_`
/// ignored) has its value masked.
const CREDENTIAL_NAMES: &[&str] =
    &["token", "key", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "jwt"];

/// The credentials in `url`, each as written and percent-decoded (a server may echo either).
pub fn credentials(url: &str) -> Vec<String> {
    let Ok(parsed) = url::Url::parse(url) else { return Vec::new() };
    let mut raw: Vec<String> = Vec::new();
    match parsed.password() {
        Some(p) => raw.push(p.to_string()),
        None if !parsed.username().is_empty() => raw.push(parsed.username().to_string()),
        None => {}
    }
    for pair in parsed.query().unwrap_or("").split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if names_a_credential(&decode(name)) && !value.is_empty() {
            raw.push(value.to_string());
        }
    }
    let mut out: Vec<String> = raw.iter().flat_map(|v| [v.clone(), decode(v).into_owned()]).collect();
    out.sort();
    out.dedup();
    out
}

/// `url` as it may be shown: its credentials masked.
pub fn shown(url: &str) -> String {
    let secrets = credentials(url);
    if secrets.is_empty() {
        return url.to_string();
    }
    Redactor::new(secrets).redact(url).into_owned()
}

fn names_a_credential(name: &str) -> bool {
    let bare: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    CREDENTIAL_NAMES.iter().any(|c| bare.contains(c))
}

fn decode(s: &str) -> Cow<'_, str> {
    let plus_as_space = s.replace('+', " ");
    match percent_decode(&plus_as_space) {
        Some(d) if d != s => Cow::Owned(d),
        _ => Cow::Borrowed(s),
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_userinfo_and_credential_parameters_are_secrets() {
        let url = "https://me:p%40ssw0rd@example.com/mcp?access_token=tok-123456&page=2&X-Amz-Signature=abcdef12";
        let found = credentials(url);
        for s in ["p%40ssw0rd", "p@ssw0rd", "tok-123456", "abcdef12"] {
            assert!(found.contains(&s.to_string()), "{s} in {found:?}");
        }
        assert!(!found.iter().any(|s| s == "2" || s == "me"), "{found:?}");
        let shown = shown(url);
        assert!(!shown.contains("ssw0rd") && !shown.contains("tok-123456") && shown.contains("page=2"), "{shown}");
    }

    #[test]
    fn a_token_written_as_the_user_name_is_a_secret() {
        assert_eq!(credentials("https://ghp_abcdef123456@example.com/mcp"), vec!["ghp_abcdef123456".to_string()]);
        assert!(credentials("http://127.0.0.1:3000/mcp").is_empty());
        assert!(credentials("not a url").is_empty());
    }
}
