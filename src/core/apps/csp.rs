//! The Content-Security-Policy a view runs under: the specification's restrictive default with
//! the view's declared domains added, each list to its directive ("UI Resource Format › Host
//! Behavior", "Sandbox proxy" point 5). No loosening: an entry that could end a directive or add
//! a keyword (`;`, `,`, quotes, spaces, control characters) is dropped, and so is a wildcard
//! that stands for every origin.

use super::meta::Csp;

/// The policy for a view with this `csp` (None: the view declared none).
pub fn policy(csp: Option<&Csp>) -> String {
    let empty = Csp::default();
    let c = csp.unwrap_or(&empty);
    let with = |base: &str, extra: &[String]| {
        let extra = usable(extra);
        if extra.is_empty() { base.to_string() } else { format!("{base} {}", extra.join(" ")) }
    };
    let or_none = |list: &[String], none: &str| {
        let list = usable(list);
        if list.is_empty() { none.to_string() } else { list.join(" ") }
    };
    [
        "default-src 'none'".to_string(),
        format!("script-src {}", with("'self' 'unsafe-inline'", &c.resource)),
        format!("style-src {}", with("'self' 'unsafe-inline'", &c.resource)),
        format!("img-src {}", with("'self' data:", &c.resource)),
        format!("font-src {}", with("'self' data:", &c.resource)),
        format!("media-src {}", with("'self' data:", &c.resource)),
        format!("connect-src {}", or_none(&c.connect, "'none'")),
        format!("frame-src {}", or_none(&c.frame, "'none'")),
        format!("base-uri {}", or_none(&c.base_uri, "'self'")),
        "object-src 'none'".to_string(),
    ]
    .join("; ")
}

/// The entries that are one source expression each and no broader than one site.
pub fn usable(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).filter(|d| rejected(d).is_none()).collect()
}

/// Why an entry is not used (None: it is used).
pub fn rejected(entry: &str) -> Option<&'static str> {
    if entry.is_empty() {
        return Some("it is empty");
    }
    if entry.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | ',' | '\'' | '"')) {
        return Some("it holds a space, a quote, `;` or `,`, which would add sources or directives");
    }
    let bare = entry.split_once("://").map_or(entry, |(_, rest)| rest);
    if bare == "*" || bare.is_empty() || matches!(entry, "http:" | "https:" | "ws:" | "wss:" | "data:" | "blob:") {
        return Some("it allows every origin (or a whole scheme), not a declared domain");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_specifications() {
        let p = policy(None);
        assert!(p.starts_with("default-src 'none'; script-src 'self' 'unsafe-inline'"));
        assert!(p.contains("connect-src 'none'") && p.contains("frame-src 'none'") && p.contains("object-src 'none'"));
    }

    #[test]
    fn declared_domains_go_to_their_directives_and_tricks_are_dropped() {
        let c = Csp {
            connect: vec!["https://api.x.com".into(), "https://a.com; script-src *".into(), "*".into()],
            resource: vec!["https://*.cdn.com".into(), "'unsafe-eval'".into()],
            frame: vec![],
            base_uri: vec![],
        };
        let p = policy(Some(&c));
        assert!(p.contains("connect-src https://api.x.com;"));
        assert!(p.contains("script-src 'self' 'unsafe-inline' https://*.cdn.com;"));
        assert!(!p.contains("unsafe-eval") && !p.contains("script-src *"));
        assert!(p.contains("base-uri 'self'"));
    }
}
