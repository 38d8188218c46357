//! A skeleton written back as the compact JSON it stands for, as slices: the skeleton's own
//! values serialized, each left-out array as its elements' text in the reply. Nothing of the
//! long arrays is copied or parsed, so a reader can walk a 10 MB structuredContent once.

use std::borrow::Cow;

use serde_json::Value;

use super::{Elisions, has_sentinel, sentinel};

/// What is still to be written, last first.
enum Step<'v> {
    Value(&'v Value),
    Bytes(&'static [u8]),
    /// A key with its `:` (and the `,` before it).
    Owned(Vec<u8>),
}

/// A piece of a skeleton's JSON text: bytes, or a whole left-out array (its elements' text as
/// sent, comma-separated, in brackets), one piece however long the array: a list of a slice
/// per element cost more than the elements' own spans.
pub enum Part<'a> {
    Bytes(Cow<'a, [u8]>),
    Array(&'a super::Elided),
}

impl Part<'_> {
    /// The piece as slices of JSON text.
    pub fn slices(&self) -> impl Iterator<Item = &[u8]> {
        let (bytes, array) = match self {
            Part::Bytes(b) => (Some(b.as_ref()), None),
            Part::Array(e) => (None, Some(*e)),
        };
        let elements = array.into_iter().flat_map(|e| {
            let items = (0..e.len()).flat_map(move |i| {
                let comma = (i > 0).then_some(&b","[..]);
                // Every element's span was checked when the part was made.
                comma.into_iter().chain(std::iter::once(e.raw(i).unwrap_or_default().as_bytes()))
            });
            std::iter::once(&b"["[..]).chain(items).chain(std::iter::once(&b"]"[..]))
        });
        bytes.into_iter().chain(elements)
    }
}

impl Elisions {
    /// `v` (a value of a skeleton of these elisions) as the pieces of its JSON text. `None` when
    /// it cannot be written so: it holds a long text left in the reply, or an array that mixes
    /// parsed elements with left-out ones other than as a sample and its rest.
    pub fn json_parts<'a>(&'a self, v: &'a Value) -> Option<Vec<Part<'a>>> {
        let mut out: Vec<Part<'a>> = vec![];
        // Iterative: the nesting of server JSON is the server's to choose.
        let mut todo = vec![Step::Value(v)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Bytes(b) => out.push(Part::Bytes(Cow::Borrowed(b))),
                Step::Owned(b) => out.push(Part::Bytes(Cow::Owned(b))),
                Step::Value(Value::Array(a)) if has_sentinel(a) => self.elided_parts(a, &mut out)?,
                Step::Value(Value::Array(a)) => {
                    out.push(Part::Bytes(Cow::Borrowed(b"[")));
                    todo.push(Step::Bytes(b"]"));
                    for (i, x) in a.iter().enumerate().rev() {
                        todo.push(Step::Value(x));
                        if i > 0 {
                            todo.push(Step::Bytes(b","));
                        }
                    }
                }
                Step::Value(Value::Object(m)) => {
                    out.push(Part::Bytes(Cow::Borrowed(b"{")));
                    todo.push(Step::Bytes(b"}"));
                    for (i, (k, x)) in m.iter().enumerate().rev() {
                        todo.push(Step::Value(x));
                        let mut key = serde_json::to_vec(k).ok()?;
                        key.push(b':');
                        if i > 0 {
                            key.insert(0, b',');
                        }
                        todo.push(Step::Owned(key));
                    }
                }
                Step::Value(x @ Value::String(_)) if self.text_literal(x).is_some() => return None,
                Step::Value(x) => out.push(Part::Bytes(Cow::Owned(serde_json::to_vec(x).ok()?))),
            }
        }
        Some(out)
    }

    /// An array that is a sample and a sentinel: one piece, its elements' text as sent.
    fn elided_parts<'a>(&'a self, a: &[Value], out: &mut Vec<Part<'a>>) -> Option<()> {
        let (last, sample) = a.split_last()?;
        let e = sentinel(last).and_then(|(id, _)| self.get(id))?;
        if has_sentinel(sample)
            || sample.len() != super::SAMPLE.min(e.len())
            || (0..e.len()).any(|i| e.raw(i).is_none())
        {
            return None;
        }
        out.push(Part::Array(e));
        Some(())
    }
}
