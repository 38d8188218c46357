//! Finding JSON values among many in logarithmic time: `serde_json::Value` has no `Hash`, and a
//! `contains` over a list for each member of another is quadratic (a 200k-value enum reversed
//! took minutes to compare). Values are hashed the way they compare: an object's key order does
//! not count, so its members' hashes are combined without order; equal hashes are then compared
//! with `==`, so the answer is exact.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

/// A hash of `v` that agrees with `==`: equal values hash alike.
pub fn hash(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    match v {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        // Number's own equality tells 1 from 1.0 but not 0.0 from -0.0.
        Value::Number(n) => match n.as_f64().filter(|_| n.is_f64()) {
            Some(f) => (2u8, (f + 0.0).to_bits()).hash(&mut h),
            None => (6u8, n.to_string()).hash(&mut h),
        },
        Value::String(s) => return hash_str(s),
        Value::Array(a) => {
            (4u8, a.len()).hash(&mut h);
            for x in a {
                crate::deep::grow(|| hash(x)).hash(&mut h);
            }
        }
        Value::Object(m) => {
            // Wrapping sum: the same members in any order give the same total.
            let members = m.iter().fold(0u64, |sum, (k, x)| {
                let mut one = DefaultHasher::new();
                (k, crate::deep::grow(|| hash(x))).hash(&mut one);
                sum.wrapping_add(one.finish())
            });
            (5u8, m.len(), members).hash(&mut h);
        }
    }
    h.finish()
}

/// [`hash`] of a JSON string, from the string: what a list held as text hashes without building
/// a `Value` for each of its strings.
pub fn hash_str(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    (3u8, s).hash(&mut h);
    h.finish()
}

/// The positions of values in one list, by value: the first position of each. Held as a list of
/// (hash, position) sorted, 16 bytes a value: a map of hashes to lists of positions cost 80, more
/// than the 200,000 short strings of an enum it indexed.
pub struct ValueIndex<'a> {
    items: Vec<&'a Value>,
    by_hash: Vec<(u64, usize)>,
}

impl<'a> ValueIndex<'a> {
    pub fn new(items: impl IntoIterator<Item = &'a Value>) -> Self {
        let items: Vec<&'a Value> = items.into_iter().collect();
        let mut by_hash: Vec<(u64, usize)> = items.iter().enumerate().map(|(i, v)| (hash(v), i)).collect();
        by_hash.sort_unstable();
        ValueIndex { items, by_hash }
    }

    /// The first position of a value equal to `v`.
    pub fn position(&self, v: &Value) -> Option<usize> {
        let h = hash(v);
        let start = self.by_hash.partition_point(|(x, _)| *x < h);
        self.by_hash[start..].iter().take_while(|(x, _)| *x == h).map(|(_, i)| *i).find(|&i| self.items[i] == v)
    }

    pub fn contains(&self, v: &Value) -> bool {
        self.position(v).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_values_are_found_whatever_their_key_order() {
        let a: Value = serde_json::from_str(r#"{"x": 1, "y": [true, null, "s"]}"#).unwrap_or_default();
        let b: Value = serde_json::from_str(r#"{"y": [true, null, "s"], "x": 1}"#).unwrap_or_default();
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        let list = [json!(1), json!(1.0), json!("1"), a.clone(), json!([1, 2])];
        let index = ValueIndex::new(&list);
        assert_eq!(index.position(&b), Some(3));
        assert_eq!(index.position(&json!(1.0)), Some(1));
        assert_eq!(index.position(&json!(1)), Some(0));
        assert!(!index.contains(&json!([2, 1])));
        assert!(!index.contains(&json!({"x": 1})));
        assert_eq!(ValueIndex::new(&[json!(0.0)]).position(&json!(-0.0)), Some(0));
    }

    #[test]
    fn a_large_list_reversed_is_found_member_by_member() {
        let list: Vec<Value> = (0..50_000).map(|i| json!(format!("v{i}"))).collect();
        let index = ValueIndex::new(&list);
        assert!(list.iter().rev().all(|v| index.contains(v)));
    }
}
