//! A URI that does not fit its column is cut in the middle, not at the end: the head says where
//! it lives (the scheme and host) and the tail what it is (the file, the id), and URIs listed
//! together usually share the head and differ in the tail, so cutting the end would show many
//! identical rows.

use ratatui::text::Span;

use crate::sanitize;

/// Columns the head (scheme and authority) may take at most, as a share of the width: the
/// tail, which tells URIs apart, keeps the rest.
const HEAD_SHARE: usize = 3;

fn columns(s: &str) -> usize {
    Span::raw(s).width()
}

/// Where a URI's head ends: after `scheme://authority` when it has one, else after `scheme:`.
fn head_end(uri: &str) -> usize {
    let Some(colon) = uri.find(':') else { return 0 };
    let after = &uri[colon + 1..];
    match after.strip_prefix("//") {
        Some(rest) => colon + 3 + rest.find(['/', '?', '#']).unwrap_or(rest.len()),
        None => colon + 1,
    }
}

/// `uri` (sanitized) in at most `width` columns: whole when it fits, else its head (scheme and
/// host, cut to a third of the width), `…`, and as much of its tail as fits.
pub fn middle(uri: &str, width: usize) -> String {
    let uri = sanitize::line(uri);
    if columns(&uri) <= width {
        return uri.into_owned();
    }
    if width < 4 {
        let head: String = take_columns(uri.chars(), width.saturating_sub(1)).into_iter().collect();
        return format!("{head}…");
    }
    let head = head(&uri, width / HEAD_SHARE);
    let tail_room = width - columns(&head) - 1;
    let mut tail = take_columns(uri.chars().rev(), tail_room);
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// The head kept in `room` columns: the scheme and authority whole, else the scheme and its
/// `://` or `:` (never half a host, which reads as another host), else as much as fits.
fn head(uri: &str, room: usize) -> String {
    let whole = &uri[..head_end(uri)];
    let scheme = uri.find(':').map_or("", |c| &uri[..=c]);
    let slashes = if whole.len() > scheme.len() + 1 { format!("{scheme}//") } else { scheme.to_string() };
    for candidate in [whole, slashes.as_str(), scheme] {
        if columns(candidate) <= room {
            return candidate.to_string();
        }
    }
    take_columns(whole.chars(), room).into_iter().collect()
}

/// The characters of `chars` that fit in `room` columns, in the order given.
fn take_columns(chars: impl Iterator<Item = char>, room: usize) -> Vec<char> {
    let mut used = 0;
    let mut out = vec![];
    for c in chars {
        let mut buf = [0u8; 4];
        let w = columns(c.encode_utf8(&mut buf));
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// `middle`, padded with spaces to `width` columns (a table's cell).
pub fn cell(uri: &str, width: usize) -> String {
    let s = middle(uri, width);
    let pad = width.saturating_sub(columns(&s));
    format!("{s}{}", " ".repeat(pad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_uri_keeps_its_scheme_host_and_tail() {
        // server-filesystem's resources are file:// URIs deep in the tree; two differ only at the end.
        let a = "file:///home/user/projects/mcplens/tests/corpus/filesystem/read_text_file.json";
        let b = "file:///home/user/projects/mcplens/tests/corpus/filesystem/list_directory.json";
        let (ca, cb) = (middle(a, 34), middle(b, 34));
        assert_eq!(columns(&ca), 34);
        assert!(ca.starts_with("file://…") && ca.ends_with("read_text_file.json"), "{ca}");
        assert_ne!(ca, cb);
        // An authority is the head.
        let h = middle("https://api.example.com/v2/repos/owner/name/issues/12345/comments", 40);
        assert!(h.starts_with("https://…") && h.ends_with("/12345/comments"), "{h}");
        assert_eq!(columns(&h), 40);
        let h = middle("https://api.x.io/v2/repos/owner/name/issues/12345/comments", 50);
        assert!(h.starts_with("https://api.x.io…") && h.ends_with("/12345/comments"), "{h}");
        // Without an authority the scheme alone is the head (server-everything's test:// ones too).
        assert_eq!(middle("test://static/resource/1", 40), "test://static/resource/1");
        let u = middle("urn:isbn:0451450523-and-a-very-long-suffix-1", 20);
        assert!(u.starts_with("urn:…") && u.ends_with("suffix-1"), "{u}");
    }

    #[test]
    fn short_uris_and_narrow_columns_never_overflow() {
        assert_eq!(middle("a:b", 10), "a:b");
        assert_eq!(cell("a:b", 5), "a:b  ");
        for w in 0..12 {
            let s = middle("https://名前.example/名前/名前/名前/名前", w);
            assert!(columns(&s) <= w.max(1), "{w}: {s}");
        }
        // Control characters never reach the screen.
        assert!(!middle("file:///\x1b[2Jx", 40).contains('\x1b'));
    }
}
