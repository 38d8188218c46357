//! The envelope's `data`: a JSON value, or a long list's records read straight from the text
//! they arrived in (see `crate::skeleton`), so a 100k-record list is not held as a tree.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::skeleton::{Elided, SharedText};

/// A list's records as byte spans of the texts they came in; pages appended stay separate parts.
#[derive(Clone, Default)]
pub struct RawItems {
    parts: Vec<Elided>,
    /// Items before each part.
    starts: Vec<usize>,
    len: usize,
}

impl std::fmt::Debug for RawItems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RawItems({} items in {} parts)", self.len, self.parts.len())
    }
}

impl RawItems {
    pub fn from_elided(e: Elided) -> RawItems {
        let mut items = RawItems::default();
        items.push(e);
        items
    }

    /// Parsed records as one more part (each written out once as compact JSON).
    pub fn from_values(values: &[Value]) -> RawItems {
        RawItems::from_guided(values, &[])
    }

    /// As [`Self::from_values`], each number for which `guides` (the same records read with
    /// stand-ins, see `crate::json::exact`) holds a literal written as the server wrote it.
    pub fn from_guided(values: &[Value], guides: &[Value]) -> RawItems {
        use crate::json::exact::Guided;
        let mut text = Vec::new();
        let mut spans = Vec::with_capacity(values.len());
        for (i, value) in values.iter().enumerate() {
            let start = text.len() as u32;
            if serde_json::to_writer(&mut text, &Guided { value, guide: guides.get(i) }).is_err() {
                text.truncate(start as usize);
                text.extend_from_slice(b"null");
            }
            spans.push([start, text.len() as u32]);
        }
        // JSON written by serde_json is UTF-8; the lossy reading never replaces anything.
        let text = String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        RawItems::from_elided(Elided { text: SharedText::String(Arc::new(text)), spans: Arc::new(spans) })
    }

    fn push(&mut self, e: Elided) {
        self.starts.push(self.len);
        self.len += e.len();
        self.parts.push(e);
    }

    pub fn append(&mut self, other: RawItems) {
        for p in other.parts {
            self.push(p);
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn locate(&self, i: usize) -> Option<(&Elided, usize)> {
        if i >= self.len {
            return None;
        }
        let part = self.starts.partition_point(|s| *s <= i).checked_sub(1)?;
        Some((&self.parts[part], i - self.starts[part]))
    }

    /// The items for which `keep(index)` holds.
    pub fn retain(&self, keep: impl Fn(usize) -> bool) -> RawItems {
        let mut out = RawItems::default();
        for (part, start) in self.parts.iter().zip(&self.starts) {
            let spans: Vec<[u32; 2]> =
                part.spans.iter().enumerate().filter(|(j, _)| keep(start + j)).map(|(_, s)| *s).collect();
            out.push(Elided { text: part.text.clone(), spans: Arc::new(spans) });
        }
        out
    }

    /// Item `i`'s JSON text, as the server sent it.
    pub fn raw(&self, i: usize) -> Option<&str> {
        self.locate(i).and_then(|(p, j)| p.raw(j))
    }

    /// Item `i`, parsed (null if it cannot be: the text was checked when it arrived).
    pub fn value(&self, i: usize) -> Option<Value> {
        self.locate(i).map(|(p, j)| p.value(j).unwrap_or_default())
    }

    /// Items `range` as few runs of text as they can be, each run to `write` in order: items
    /// of one part that the text separates by a comma alone (spacing aside) come as one run,
    /// their commas with them; between two runs a comma is owed. A writer then takes a long
    /// list in long pieces, not item by item.
    pub fn write_runs<E>(
        &self,
        range: std::ops::Range<usize>,
        mut write: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut i = range.start;
        while i < range.end {
            let Some((part, j)) = self.locate(i) else { break };
            let in_part = (part.len() - j).min(range.end - i);
            let spans = &part.spans[j..j + in_part];
            let mut start = 0;
            for k in 1..=spans.len() {
                let joined = spans.get(k).is_some_and(|next| {
                    let gap = part.text.get(spans[k - 1][1] as usize..next[0] as usize).unwrap_or_default();
                    gap.trim_ascii() == ","
                });
                if !joined {
                    let (a, b) = (spans[start][0] as usize, spans[k - 1][1] as usize);
                    write(part.text.get(a..b).unwrap_or("null"))?;
                    start = k;
                }
            }
            i += in_part;
        }
        Ok(())
    }

    /// Each item's length in bytes, in order: what a pass that splits a long list by size needs,
    /// without slicing each item's text.
    pub fn lens(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().flat_map(|p| p.spans.iter().map(|[a, b]| b.saturating_sub(*a) as usize))
    }
}

/// `data` of an envelope.
#[derive(Debug, Clone)]
pub enum Data {
    Value(Value),
    Items(RawItems),
}

impl Default for Data {
    fn default() -> Data {
        Data::Value(Value::Null)
    }
}

static NULL: Value = Value::Null;

impl Data {
    /// The value, when `data` is one (null for records read from text: use `item`).
    pub fn json(&self) -> &Value {
        match self {
            Data::Value(v) => v,
            Data::Items(_) => &NULL,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Data::Value(Value::Null))
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Data::Items(_) | Data::Value(Value::Array(_)))
    }

    /// Number of records (0 unless `data` is a list).
    pub fn item_count(&self) -> usize {
        match self {
            Data::Items(r) => r.len(),
            Data::Value(Value::Array(a)) => a.len(),
            Data::Value(_) => 0,
        }
    }

    pub fn item(&self, i: usize) -> Option<Cow<'_, Value>> {
        match self {
            Data::Items(r) => r.value(i).map(Cow::Owned),
            Data::Value(Value::Array(a)) => a.get(i).map(Cow::Borrowed),
            Data::Value(_) => None,
        }
    }

    /// Record `i` as compact JSON text (as sent, for records read from text).
    pub fn item_text(&self, i: usize) -> Option<Cow<'_, str>> {
        match self {
            Data::Items(r) => r.raw(i).map(Cow::Borrowed),
            Data::Value(Value::Array(a)) => a.get(i).map(|v| Cow::Owned(v.to_string())),
            Data::Value(_) => None,
        }
    }

    /// The records for which `keep(index)` holds.
    pub fn retain(self, keep: impl Fn(usize) -> bool) -> Data {
        match self {
            Data::Items(r) => Data::Items(r.retain(keep)),
            Data::Value(Value::Array(a)) => {
                Data::Value(Value::Array(a.into_iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, v)| v).collect()))
            }
            other => other,
        }
    }

    /// The records as raw items, whatever form they are in (for merging pages).
    pub fn into_raw_items(self) -> RawItems {
        match self {
            Data::Items(r) => r,
            Data::Value(Value::Array(a)) => RawItems::from_values(&a),
            Data::Value(_) => RawItems::default(),
        }
    }
}

impl Serialize for Data {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Data::Value(v) => crate::deep::Deep(v).serialize(s),
            Data::Items(r) => s.collect_seq((0..r.len()).map(|i| {
                // Checked when the reply arrived; a record that no longer reads is written as null.
                r.raw(i).and_then(|t| crate::json_depth::parse_borrowed::<&RawValue>(t).ok())
            })),
        }
    }
}

impl PartialEq for Data {
    fn eq(&self, other: &Data) -> bool {
        match (self, other) {
            (Data::Value(a), Data::Value(b)) => a == b,
            _ => {
                self.is_array() == other.is_array()
                    && self.item_count() == other.item_count()
                    && (0..self.item_count()).all(|i| self.item(i) == other.item(i))
            }
        }
    }
}

impl PartialEq<Value> for Data {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Data::Value(a), b) => a == b,
            (Data::Items(r), Value::Array(b)) => {
                r.len() == b.len() && b.iter().enumerate().all(|(i, v)| r.value(i).as_ref() == Some(v))
            }
            _ => false,
        }
    }
}

impl<I: serde_json::value::Index> std::ops::Index<I> for Data {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        &self.json()[index]
    }
}

impl From<Value> for Data {
    fn from(v: Value) -> Data {
        Data::Value(v)
    }
}
