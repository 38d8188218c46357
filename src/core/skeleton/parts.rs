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

impl Elisions {
    /// `v` (a value of a skeleton of these elisions) as the slices of its JSON text. `None` when
    /// it cannot be written so: it holds a long text left in the reply, or an array that mixes
    /// parsed elements with left-out ones other than as a sample and its rest.
    pub fn json_parts<'a>(&'a self, v: &'a Value) -> Option<Vec<Cow<'a, [u8]>>> {
        let mut out: Vec<Cow<'a, [u8]>> = vec![];
        // Iterative: the nesting of server JSON is the server's to choose.
        let mut todo = vec![Step::Value(v)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Bytes(b) => out.push(Cow::Borrowed(b)),
                Step::Owned(b) => out.push(Cow::Owned(b)),
                Step::Value(Value::Array(a)) if has_sentinel(a) => self.elided_parts(a, &mut out)?,
                Step::Value(Value::Array(a)) => {
                    out.push(Cow::Borrowed(b"["));
                    todo.push(Step::Bytes(b"]"));
                    for (i, x) in a.iter().enumerate().rev() {
                        todo.push(Step::Value(x));
                        if i > 0 {
                            todo.push(Step::Bytes(b","));
                        }
                    }
                }
                Step::Value(Value::Object(m)) => {
                    out.push(Cow::Borrowed(b"{"));
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
                Step::Value(x) => out.push(Cow::Owned(serde_json::to_vec(x).ok()?)),
            }
        }
        Some(out)
    }

    /// An array that is a sample and a sentinel: its elements' text as sent, comma-separated.
    fn elided_parts<'a>(&'a self, a: &[Value], out: &mut Vec<Cow<'a, [u8]>>) -> Option<()> {
        let (last, sample) = a.split_last()?;
        let e = sentinel(last).and_then(|(id, _)| self.get(id))?;
        if has_sentinel(sample) || sample.len() != super::SAMPLE.min(e.len()) {
            return None;
        }
        out.push(Cow::Borrowed(b"["));
        for i in 0..e.len() {
            if i > 0 {
                out.push(Cow::Borrowed(b","));
            }
            out.push(Cow::Borrowed(e.raw(i)?.as_bytes()));
        }
        out.push(Cow::Borrowed(b"]"));
        Some(())
    }
}
