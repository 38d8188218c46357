//! A schema's text indexed once: where each object and array ends. A node's members (or elements)
//! are then listed by reading only its own level, jumping over each nested container, so walking
//! a schema of any depth reads each byte a bounded number of times (a listing that re-read each
//! subtree would cost its bytes times its depth).

use std::borrow::Cow;

/// A value of the document: its text, and where that text starts in the document.
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    pub text: &'a str,
    at: usize,
}

/// An object's members in the order written; of a name written twice, the first place with the
/// last value (see [`super::members::once_each`]).
pub type Members<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

/// A JSON text (known valid) and the end of each of its containers, by start.
pub struct Doc<'a> {
    text: &'a str,
    /// Containers' start offsets, in order, and their ends (past the closing byte).
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Bytes read by the listers, for the test that the walk reads each byte a bounded number of times.
    #[cfg(test)]
    pub read: std::cell::Cell<usize>,
}

impl<'a> Doc<'a> {
    /// `text` indexed in one scan (a text past 4 GiB is not indexed: its nodes list as empty).
    pub fn new(text: &'a str) -> Doc<'a> {
        let (starts, ends) = if u32::try_from(text.len()).is_ok() { index(text) } else { (vec![], vec![]) };
        Doc {
            text,
            starts,
            ends,
            #[cfg(test)]
            read: std::cell::Cell::new(0),
        }
    }

    /// The whole document as a node.
    pub fn root(&self) -> Node<'a> {
        Node { text: self.text, at: 0 }
    }

    /// The members of `node` when it is an object.
    pub fn members(&self, node: Node<'a>) -> Option<Members<'a>> {
        let mut r = self.reader(node, b'{')?;
        let mut out = vec![];
        while let Some(name) = r.next_value(self) {
            let name = name_of(name.text)?;
            r.expect(b':')?;
            let value = r.next_value(self)?;
            out.push((name, value));
            if !r.separator()? {
                break;
            }
        }
        Some(super::members::once_each(out))
    }

    /// The elements of `node` when it is an array.
    pub fn elements(&self, node: Node<'a>) -> Option<Vec<Node<'a>>> {
        let mut r = self.reader(node, b'[')?;
        let mut out = vec![];
        while let Some(value) = r.next_value(self) {
            out.push(value);
            if !r.separator()? {
                break;
            }
        }
        Some(out)
    }

    /// A reader past the opening `open` of `node`.
    fn reader(&self, node: Node<'a>, open: u8) -> Option<Reader<'a>> {
        let lead = node.text.len() - node.text.trim_start().len();
        let at = node.at + lead;
        (self.text.as_bytes().get(at) == Some(&open)).then_some(Reader { text: self.text, at: at + 1 })
    }

    /// Where the container starting at `at` ends.
    fn end_of(&self, at: usize) -> Option<usize> {
        let i = self.starts.binary_search(&u32::try_from(at).ok()?).ok()?;
        self.ends.get(i).map(|&e| e as usize)
    }
}

/// A cursor over one container's level.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        let b = self.text.as_bytes();
        while b.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn expect(&mut self, want: u8) -> Option<()> {
        self.skip_space();
        (self.text.as_bytes().get(self.at) == Some(&want)).then(|| self.at += 1)
    }

    /// After a value: `true` on `,`, `false` on the container's close.
    fn separator(&mut self) -> Option<bool> {
        self.skip_space();
        let b = *self.text.as_bytes().get(self.at)?;
        self.at += 1;
        match b {
            b',' => Some(true),
            b'}' | b']' => Some(false),
            _ => None,
        }
    }

    /// The next value at this level (a nested container jumped over); `None` at the close.
    fn next_value(&mut self, doc: &Doc<'a>) -> Option<Node<'a>> {
        self.skip_space();
        let b = self.text.as_bytes();
        let start = self.at;
        let end = match *b.get(start)? {
            b'}' | b']' => return None,
            b'{' | b'[' => doc.end_of(start)?,
            b'"' => string_end(b, start)?,
            _ => start + b[start..].iter().take_while(|c| !b",}] \t\r\n".contains(c)).count(),
        };
        #[cfg(test)]
        doc.read.set(doc.read.get() + if matches!(b[start], b'{' | b'[') { 1 } else { end - start });
        self.at = end;
        Some(Node { text: self.text.get(start..end)?, at: start })
    }
}

/// The value of `key` among `members`.
pub fn get<'a>(members: &Members<'a>, key: &str) -> Option<Node<'a>> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// The string `node` holds, if it is one.
pub fn string(node: Node<'_>) -> Option<Cow<'_, str>> {
    if !node.text.trim_start().starts_with('"') {
        return None;
    }
    serde_json::from_str::<Cow<str>>(node.text).ok()
}

/// Past the closing quote of the string opening at `start`.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// A member's name, borrowed when it holds no escape.
fn name_of(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(text).ok().map(Cow::Owned)
}

/// Each container's start and end, ordered by start, in one scan.
fn index(text: &str) -> (Vec<u32>, Vec<u32>) {
    let (mut starts, mut ends, mut open) = (vec![], vec![], vec![]);
    for (i, b) in super::text_shape::structural(text) {
        match b {
            b'{' | b'[' => {
                open.push(starts.len());
                starts.push(i as u32);
                ends.push(0);
            }
            b'}' | b']' => {
                if let Some(k) = open.pop() {
                    ends[k] = i as u32 + 1;
                }
            }
            _ => {}
        }
    }
    (starts, ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(text: &str) -> Vec<(String, String)> {
        let doc = Doc::new(text);
        let m = doc.members(doc.root()).unwrap();
        m.into_iter().map(|(k, v)| (k.into_owned(), v.text.to_string())).collect()
    }

    #[test]
    fn members_and_elements_are_read_a_level_at_a_time() {
        let got = listed(r#" { "b" : 1 ,"a":"x}\"","b":[3,{"c":"]"}],"c\u0041":{} , "n":null}"#);
        let want = [("b", r#"[3,{"c":"]"}]"#), ("a", r#""x}\"""#), ("cA", "{}"), ("n", "null")];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v.to_string())));
        let doc = Doc::new("[ 1, {\"a\":[]} ,\"s\" ]");
        let items: Vec<&str> = doc.elements(doc.root()).unwrap().iter().map(|n| n.text).collect();
        assert_eq!(items, ["1", "{\"a\":[]}", "\"s\""]);
        assert!(doc.members(doc.root()).is_none());
        assert_eq!(listed("{}"), vec![]);
        let empty = Doc::new("[]");
        assert_eq!(empty.elements(empty.root()).map(|v| v.len()), Some(0));
    }
}
