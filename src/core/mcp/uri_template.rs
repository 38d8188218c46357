//! URI templates (RFC 6570, levels 1-4 with string values): a template's variables, for a form,
//! and its expansion into the URI to read.

use std::collections::HashMap;
use std::fmt::Write;

/// One `{...}` expression's operator behaviour (RFC 6570 appendix A).
struct Operator {
    first: &'static str,
    sep: &'static str,
    named: bool,
    if_empty: &'static str,
    reserved: bool,
}

fn operator(c: Option<char>) -> (Operator, bool) {
    let op = |first, sep, named, if_empty, reserved| Operator { first, sep, named, if_empty, reserved };
    match c {
        Some('+') => (op("", ",", false, "", true), true),
        Some('#') => (op("#", ",", false, "", true), true),
        Some('.') => (op(".", ".", false, "", false), true),
        Some('/') => (op("/", "/", false, "", false), true),
        Some(';') => (op(";", ";", true, "", false), true),
        Some('?') => (op("?", "&", true, "=", false), true),
        Some('&') => (op("&", "&", true, "=", false), true),
        _ => (op("", ",", false, "", false), false),
    }
}

/// A variable of an expression: its name and its prefix length (`{var:3}`), if any.
fn varspecs(body: &str) -> impl Iterator<Item = (&str, Option<usize>)> {
    body.split(',').filter_map(|spec| {
        let spec = spec.trim().trim_end_matches('*');
        let (name, prefix) = match spec.split_once(':') {
            Some((n, len)) => (n, len.parse().ok()),
            None => (spec, None),
        };
        (!name.is_empty()).then_some((name, prefix))
    })
}

/// The expressions of a template: each `{...}` body. An unclosed brace ends the scan.
fn expressions(template: &str) -> impl Iterator<Item = &str> {
    let mut rest = template;
    std::iter::from_fn(move || {
        let open = rest.find('{')?;
        let close = rest[open..].find('}')? + open;
        let body = &rest[open + 1..close];
        rest = &rest[close + 1..];
        Some(body)
    })
}

/// The variable names of `template`, each once, in order of appearance.
pub fn variables(template: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    // A set beside the list: a template of 200k variables took 37 s searched name by name.
    let mut seen = std::collections::HashSet::new();
    for body in expressions(template) {
        let (_, has_op) = operator(body.chars().next());
        let body = if has_op { &body[1..] } else { body };
        for (name, _) in varspecs(body) {
            if seen.insert(name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The first `max` variables of `template` (each once, in order of appearance), each with whether
/// it may be left out (it is in a `{?...}` or `{&...}` query part), and whether there are more.
/// The scan stops at the variable past `max`: a form or a line drawn every frame costs the
/// variables it shows, not the 200,000 a server may write.
pub fn first_variables(template: &str, max: usize) -> (Vec<(String, bool)>, bool) {
    let mut out: Vec<(String, bool)> = vec![];
    let mut seen = std::collections::HashSet::new();
    for body in expressions(template) {
        let first = body.chars().next();
        let (_, has_op) = operator(first);
        let optional = matches!(first, Some('?' | '&'));
        let body = if has_op { &body[1..] } else { body };
        for (name, _) in varspecs(body) {
            if seen.contains(name) {
                continue;
            }
            if out.len() == max {
                return (out, true);
            }
            seen.insert(name);
            out.push((name.to_string(), optional));
        }
    }
    (out, false)
}

fn encode(out: &mut String, s: &str, reserved: bool) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let keep = c.is_ascii_alphanumeric()
            || b"-._~".contains(&c)
            || (reserved && b":/?#[]@!$&'()*+,;=".contains(&c))
            || (reserved && c == b'%' && b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
        if keep {
            out.push(c as char);
        } else {
            let _ = write!(out, "%{c:02X}");
        }
        i += 1;
    }
}

/// `template` with its variables replaced by `values` (a variable without a value is left out,
/// as the RFC says for an undefined one).
pub fn expand(template: &str, values: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| c + open) else { break };
        out.push_str(&rest[..open]);
        expand_expression(&mut out, &rest[open + 1..close], values);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A template reduced to what can show in its URI once only some of its variables can have a
/// value (a form holds the first 200 of a template's 200,000): literal text, and the expressions
/// that name one of them, each cut to those. A line drawn on every key expands this, not the
/// megabytes of the template.
#[derive(Debug, Default)]
pub struct Plan {
    pieces: Vec<Piece>,
}

#[derive(Debug)]
enum Piece {
    Literal(String),
    /// An expression's body: its operator and the variables kept, as the template writes them.
    Expression(String),
}

impl Plan {
    /// `template` read once; only the variables `kept` says yes to can be given values.
    pub fn new(template: &str, kept: impl Fn(&str) -> bool) -> Plan {
        let mut plan = Plan::default();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| c + open) else { break };
            plan.literal(&rest[..open]);
            let body = &rest[open + 1..close];
            let (_, has_op) = operator(body.chars().next());
            let (op, specs) = if has_op { body.split_at(1) } else { ("", body) };
            let mut kept_specs = op.to_string();
            for (name, prefix) in varspecs(specs).filter(|(n, _)| kept(n)) {
                if kept_specs.len() > op.len() {
                    kept_specs.push(',');
                }
                kept_specs.push_str(name);
                if let Some(n) = prefix {
                    let _ = write!(kept_specs, ":{n}");
                }
            }
            if kept_specs.len() > op.len() {
                plan.pieces.push(Piece::Expression(kept_specs));
            }
            rest = &rest[close + 1..];
        }
        plan.literal(rest);
        plan
    }

    fn literal(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some(Piece::Literal(l)) => l.push_str(text),
            _ => self.pieces.push(Piece::Literal(text.to_string())),
        }
    }

    /// The URI [`expand`] makes of the template with `values`, cut once it is `max` bytes long or
    /// `max` pieces were read (then `true`: there is, or may be, more).
    pub fn expand_head(&self, values: &HashMap<String, String>, max: usize) -> (String, bool) {
        let mut out = String::new();
        for (i, piece) in self.pieces.iter().enumerate() {
            if out.len() >= max || i >= max {
                return (out, true);
            }
            match piece {
                Piece::Literal(l) if l.len() > max - out.len() => {
                    out.push_str(&l[..floor_char_boundary(l, max - out.len())]);
                    return (out, true);
                }
                Piece::Literal(l) => out.push_str(l),
                Piece::Expression(body) => expand_expression(&mut out, body, values),
            }
        }
        (out, false)
    }
}

/// The longest prefix of `s` of at most `n` bytes that ends on a character.
fn floor_char_boundary(s: &str, n: usize) -> usize {
    let mut n = n.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    n
}

fn expand_expression(out: &mut String, body: &str, values: &HashMap<String, String>) {
    let (op, has_op) = operator(body.chars().next());
    let body = if has_op { &body[1..] } else { body };
    let mut first = true;
    for (name, prefix) in varspecs(body) {
        let Some(value) = values.get(name) else { continue };
        out.push_str(if first { op.first } else { op.sep });
        first = false;
        let value = match prefix {
            Some(n) => value.char_indices().nth(n).map_or(value.as_str(), |(at, _)| &value[..at]),
            None => value.as_str(),
        };
        if op.named {
            encode(out, name, false);
            if value.is_empty() {
                out.push_str(op.if_empty);
                continue;
            }
            out.push('=');
        }
        encode(out, value, op.reserved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// 200k variables, each twice: a name search per variable would be 4·10^10 comparisons.
    #[test]
    fn many_variables_are_listed_once_each() {
        let names: Vec<String> = (0..200_000).map(|i| format!("v{i}")).collect();
        let template = format!("x://{{{}}}/{{{}}}", names.join(","), names.join(","));
        assert_eq!(variables(&template), names);
    }

    #[test]
    fn the_first_variables_say_which_may_be_left_out_and_whether_more_follow() {
        let t = "x://{a}/{+b}{?c,a,d*}{&e}";
        let v = |n: &str, o: bool| (n.to_string(), o);
        assert_eq!(
            first_variables(t, 9),
            (vec![v("a", false), v("b", false), v("c", true), v("d", true), v("e", true)], false)
        );
        assert_eq!(first_variables(t, 2), (vec![v("a", false), v("b", false)], true));
        assert!(!first_variables(t, 5).1);
        assert_eq!(first_variables("{a}{a}", 1), (vec![v("a", false)], false));
    }

    /// The plan of a template gives the URI `expand` gives, whatever variables are kept.
    #[test]
    fn a_plan_expands_as_the_template_does() {
        let v = vals(&[("var", "value"), ("path", "/foo/bar"), ("x", "1024"), ("empty", ""), ("hello", "Hi!")]);
        let templates = [
            "{var}",
            "{+path}/here{?x,y,empty}",
            "x://{a}/{+b}{?c,a,d*}{&e}{#path}{.var}",
            "{;x,empty,undef}{/var,x}/here",
            "map?{x,undef}&{var:3}é{hello}",
            "no vars {",
            "{undef}{undef2}tail",
        ];
        for t in templates {
            let whole = expand(t, &v);
            let plan = Plan::new(t, |n| v.contains_key(n));
            assert_eq!(plan.expand_head(&v, 1000), (whole.clone(), false), "{t}");
            let (head, cut) = plan.expand_head(&v, 3);
            assert!(whole.starts_with(&head) && (cut || head == whole), "{t}: {head}");
        }
    }

    /// A form of the first 200 of 200,000 variables: the plan is the expression of those 200.
    #[test]
    fn a_plan_of_a_wide_template_holds_the_kept_variables_only() {
        let names: Vec<String> = (0..200_000).map(|i| format!("v{i}")).collect();
        let template = format!("file:///{{{}}}/{{{}}}", names.join(","), names.join(","));
        let (first, _) = first_variables(&template, 200);
        let kept: std::collections::HashSet<String> = first.into_iter().map(|(n, _)| n).collect();
        let plan = Plan::new(&template, |n| kept.contains(n));
        assert_eq!(plan.pieces.len(), 4);
        let v = vals(&[("v0", "a"), ("v199", "b"), ("v200", "never")]);
        assert_eq!(plan.expand_head(&v, 400), ("file:///a,b/a,b".to_string(), false));
    }

    #[test]
    fn variables_in_order() {
        assert_eq!(variables("file:///{path}"), ["path"]);
        assert_eq!(variables("x://{a}/{+b}{?c,d*}{#a}{/e:3}"), ["a", "b", "c", "d", "e"]);
        assert_eq!(variables("no vars {"), Vec::<String>::new());
    }

    #[test]
    fn expansion_follows_the_rfc_examples() {
        let v = vals(&[
            ("var", "value"),
            ("hello", "Hello World!"),
            ("path", "/foo/bar"),
            ("x", "1024"),
            ("y", "768"),
            ("empty", ""),
        ]);
        assert_eq!(expand("{var}", &v), "value");
        assert_eq!(expand("{hello}", &v), "Hello%20World%21");
        assert_eq!(expand("{+path}/here", &v), "/foo/bar/here");
        assert_eq!(expand("{#path}", &v), "#/foo/bar");
        assert_eq!(expand("map?{x,y}", &v), "map?1024,768");
        assert_eq!(expand("{?x,y,empty}", &v), "?x=1024&y=768&empty=");
        assert_eq!(expand("{;x,y,empty}", &v), ";x=1024;y=768;empty");
        assert_eq!(expand("X{.var}", &v), "X.value");
        assert_eq!(expand("{/var,x}/here", &v), "/value/1024/here");
        assert_eq!(expand("{var:3}", &v), "val");
        assert_eq!(expand("{?undef}", &v), "");
        assert_eq!(expand("test://static/resource/{id}", &vals(&[("id", "1 é")])), "test://static/resource/1%20%C3%A9");
    }
}
