//! The resources a result points at: `O` opens the one nearest the view's top.

use serde_json::Value;

/// A resource a result or a prompt points at: a link to read, or a resource it carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    Read(String),
    Embedded(Value),
}

/// The resource a content block names, if it names one (`resource_link`, `resource`).
pub fn link_of(block: &Value) -> Option<Link> {
    match block.get("type").and_then(Value::as_str)? {
        "resource_link" => block.get("uri").and_then(Value::as_str).map(|u| Link::Read(u.to_string())),
        "resource" => block.get("resource").filter(|r| r.is_object()).map(|r| Link::Embedded(r.clone())),
        _ => None,
    }
}

/// Which of `links` (each with the line its block starts at) `O` opens when `top` is the first
/// line shown: the first at or below it, else the last above it.
pub fn pick_link(links: &[(usize, Link)], top: usize) -> Option<Link> {
    links.iter().find(|(at, _)| *at >= top).or(links.last()).map(|(_, l)| l.clone())
}
