//! Readable listings of resources, resource templates and prompts: aligned columns, then each
//! item's title, description, arguments and any field the columns do not show. Every server
//! string is sanitized here.

use crate::error::Result;
use crate::mcp::{Descriptor, ItemKind, Listing};
use crate::sanitize;
use crate::schema::tree;

/// The widest a column grows; longer cells push the rest of their row right.
const MAX_COLUMN: usize = 48;

/// `1234 B`, `1.2 KiB`, `3.4 MiB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = UNITS[0];
    for u in &UNITS[1..] {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    format!("{v:.1} {unit}")
}

fn cell(s: &str) -> String {
    sanitize::line(s).into_owned()
}

/// The width of each column of `rows` (each at most [`MAX_COLUMN`]).
fn widths<'a>(rows: impl Iterator<Item = &'a [String]> + Clone) -> Vec<usize> {
    let columns = rows.clone().map(<[String]>::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for row in rows {
        for (c, s) in row.iter().enumerate() {
            widths[c] = widths[c].max(s.chars().count().min(MAX_COLUMN));
        }
    }
    widths
}

/// One row laid out in columns separated by two spaces (the last column is not padded).
fn table_line(row: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (c, s) in row.iter().enumerate() {
        line.push_str(s);
        if c + 1 < row.len() {
            let pad = widths[c].saturating_sub(s.chars().count()) + 2;
            line.push_str(&" ".repeat(pad));
        }
    }
    line.truncate(line.trim_end().len());
    line.push('\n');
    line
}

/// The listing's first line: how many, over how many pages. What went wrong is said on stderr
/// (`warn_list`), where a script reading the listing does not meet it.
fn header(list: &Listing) -> String {
    if let Some(why) = &list.not_offered {
        return format!("the server offers no {}: {}\n", list.kind.plural(), sanitize::line(why));
    }
    let n = list.items.len();
    let noun = if n == 1 { list.kind.noun() } else { list.kind.plural() };
    let pages = if list.pages == 1 { "1 page".to_string() } else { format!("{} pages", list.pages) };
    format!("{n} {noun} ({pages})\n")
}

/// The lines under an item's row: title, description, arguments or variables, the rest.
fn details(d: &Descriptor) -> String {
    let mut out = String::new();
    if let Some(problem) = d.problem() {
        out.push_str(&format!("    ! malformed: {}\n", sanitize::line(&problem)));
    }
    if let Some(title) = d.title()
        && d.kind != ItemKind::Prompt
    {
        out.push_str(&format!("    {}\n", sanitize::line(title)));
    }
    if let Some(desc) = d.description() {
        for line in sanitize::text(desc).lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    match d.kind {
        ItemKind::Template => {
            let vars = d.variables();
            let vars = if vars.is_empty() { "(none)".to_string() } else { cell(&vars.join(", ")) };
            out.push_str(&format!("    variables: {vars}\n"));
        }
        ItemKind::Prompt => out.push_str(&arguments(d)),
        ItemKind::Resource => {}
    }
    out.push_str(&other_members(d));
    out
}

/// Annotations, how many icons, and each member the columns do not show, each read alone.
fn other_members(d: &Descriptor) -> String {
    let mut out = String::new();
    let members = d.members();
    let compact = |raw: &serde_json::value::RawValue| {
        let v: serde_json::Value = crate::json_depth::parse(raw.get(), usize::MAX).unwrap_or_default();
        let text = tree::compact(&v);
        crate::deep::drop_value(v);
        text
    };
    let member = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v);
    if let Some(a) = member("annotations") {
        out.push_str(&format!("    annotations: {}\n", cell(&compact(a))));
    }
    let icons = member("icons").filter(|i| i.get().starts_with('['));
    let icons = icons.map_or(0, |i| {
        crate::json_depth::parse_borrowed::<Vec<&serde_json::value::RawValue>>(i.get()).map_or(0, |v| v.len())
    });
    if icons > 0 {
        out.push_str(&format!("    icons: {icons}\n"));
    }
    let known = d.kind.known_fields();
    // A repeated member counts once, in its first place with its last value (as a parsed
    // object keeps it).
    let last: std::collections::HashMap<&str, _> = members.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let mut seen = std::collections::HashSet::new();
    for (k, _) in &members {
        if !known.contains(&k.as_str()) && seen.insert(k.as_str()) {
            out.push_str(&format!("    {}: {}\n", cell(k), cell(&compact(last[k.as_str()]))));
        }
    }
    out
}

fn arguments(d: &Descriptor) -> String {
    let args = d.arguments();
    if args.is_empty() {
        return "    arguments: (none)\n".into();
    }
    let row = |a: &crate::mcp::PromptArgument| {
        let about = match (&a.title, &a.description) {
            (Some(t), Some(d)) => format!("{} — {}", cell(t), cell(d)),
            (Some(t), None) => cell(t),
            (None, Some(d)) => cell(d),
            (None, None) => String::new(),
        };
        vec![cell(&a.name), if a.required { "required".into() } else { "optional".into() }, about]
    };
    // Rows are made twice (measured, then written) rather than held: a prompt may take 100,000.
    let mut widths = vec![0; 3];
    for a in &args {
        for (w, c) in widths.iter_mut().zip(self::widths(std::iter::once(row(a).as_slice()))) {
            *w = (*w).max(c);
        }
    }
    let mut out = "    arguments:\n".to_string();
    for a in &args {
        out.push_str("      ");
        out.push_str(&table_line(&row(a), &widths));
    }
    out
}

/// One row of the item table.
fn row(d: &Descriptor) -> Vec<String> {
    let name = if d.name().is_empty() { "(no name)" } else { d.name() };
    let mime = d.mime_type().map(cell).unwrap_or_default();
    match d.kind {
        ItemKind::Resource => {
            vec![cell(d.uri().unwrap_or("(no uri)")), cell(name), mime, d.size().map(human_size).unwrap_or_default()]
        }
        ItemKind::Template => vec![cell(name), cell(d.uri().unwrap_or("(no uriTemplate)")), mime],
        ItemKind::Prompt => vec![match d.title() {
            Some(t) => format!("{} — {}", cell(name), cell(t)),
            None => cell(name),
        }],
    }
}

fn column_names(kind: ItemKind) -> Vec<String> {
    let names: &[&str] = match kind {
        ItemKind::Resource => &["URI", "NAME", "MIME TYPE", "SIZE"],
        ItemKind::Template => &["NAME", "URI TEMPLATE", "MIME TYPE"],
        ItemKind::Prompt => &["NAME"],
    };
    names.iter().map(|s| s.to_string()).collect()
}

/// The whole listing, readable.
pub fn listing(list: &Listing) -> String {
    let mut out = String::new();
    let _ = write_listing(list, &mut |chunk| {
        out.push_str(chunk);
        Ok(())
    });
    out
}

/// The listing, readable, handed to `emit` an item at a time: a listing of 200,000 items is
/// never held whole, nor its rows (they are made twice: once to measure the columns).
pub fn write_listing(list: &Listing, emit: &mut dyn FnMut(&str) -> Result<()>) -> Result<()> {
    emit(&header(list))?;
    if list.items.is_empty() {
        return Ok(());
    }
    emit("\n")?;
    let names = column_names(list.kind);
    let mut widths = widths(std::iter::once(names.as_slice()));
    for d in &list.items {
        let row = row(d);
        for (w, c) in widths.iter_mut().zip(super::items::widths(std::iter::once(row.as_slice()))) {
            *w = (*w).max(c);
        }
    }
    if list.kind != ItemKind::Prompt {
        emit(&table_line(&names, &widths))?;
    }
    for d in &list.items {
        let mut chunk = table_line(&row(d), &widths);
        chunk.push_str(&details(d));
        emit(&chunk)?;
    }
    Ok(())
}

/// The descriptors as one JSON array, each element byte for byte as the server sent it (only
/// characters that could act as terminal controls are written as `\u` escapes).
pub fn listing_json(list: &Listing) -> String {
    let mut s = String::from("[");
    for (i, d) in list.items.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&sanitize::json(d.raw.get()));
    }
    s.push_str("]\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    fn list(kind: ItemKind, items: &[&str]) -> Listing {
        let mut l = Listing::new(kind);
        l.pages = 2;
        for text in items {
            let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
            l.items.push(Descriptor::from_raw(kind, &raw, 100));
        }
        l
    }

    #[test]
    fn resources_are_aligned_and_safe() {
        let l = list(
            ItemKind::Resource,
            &[
                r#"{"uri":"a://one","name":"one","mimeType":"text/plain","size":2048,"description":"first\nsecond"}"#,
                r#"{"uri":"a://two-longer","name":"t\u001b[2Jwo","_meta":{"k":1}}"#,
            ],
        );
        let text = listing(&l);
        assert!(text.starts_with("2 resources (2 pages)\n\nURI             NAME"), "{text}");
        assert!(text.contains("a://one         one         text/plain  2.0 KiB\n"), "{text}");
        assert!(text.contains("2.0 KiB"), "{text}");
        assert!(text.contains("    first\n    second\n"), "{text}");
        assert!(text.contains("    _meta: {\"k\":1}"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert_eq!(listing_json(&l).matches("\\u001b").count(), 1);
    }

    #[test]
    fn prompts_show_their_arguments() {
        let l = list(
            ItemKind::Prompt,
            &[
                r#"{"name":"p","arguments":[{"name":"city","required":true,"description":"City"},{"name":"st"}]}"#,
                r#"{"x":1}"#,
            ],
        );
        let text = listing(&l);
        assert!(text.contains("      city  required  City\n      st    optional\n"), "{text}");
        assert!(text.contains("(no name)\n    ! malformed: prompt has no name"), "{text}");
    }

    #[test]
    fn sizes() {
        assert_eq!([human_size(10), human_size(1536), human_size(5 << 20)], ["10 B", "1.5 KiB", "5.0 MiB"]);
    }
}
