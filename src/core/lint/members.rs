//! A JSON object read one level deep, in the order written, each member's value kept as text: a
//! schema of 200,000 properties costs a slice and a name (borrowed when it has no escape) a
//! member, where a `Value` costs 10 to 30 times its text.

use std::borrow::Cow;

use serde_json::value::RawValue;

/// An object's members in the order written; of a name written twice, the first place with the
/// last value (as a `Value` read with `preserve_order` holds them).
pub type Members<'a> = Vec<(Cow<'a, str>, &'a RawValue)>;

/// The members of `raw` when it is an object.
pub fn of(raw: &RawValue) -> Option<Members<'_>> {
    if !raw.get().trim_start().starts_with('{') {
        return None;
    }
    let list = crate::json_depth::parse_borrowed::<crate::raw_object::Listed>(raw.get()).ok()?.0;
    Some(once_each(list))
}

/// The value of `key` among `members`.
pub fn get<'a>(members: &Members<'a>, key: &str) -> Option<&'a RawValue> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// What kind of JSON `raw` is, from its first byte.
pub fn starts(raw: &RawValue) -> u8 {
    raw.get().trim_start().bytes().next().unwrap_or(b' ')
}

/// The string `raw` holds, if it is one.
pub fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    if starts(raw) != b'"' {
        return None;
    }
    serde_json::from_str::<Cow<str>>(raw.get()).ok()
}

/// Each name once, at its first place, with its last value: names sorted by index (n log n), and
/// nothing more held when no name repeats.
pub(super) fn once_each<'a, V: Copy>(mut list: Vec<(Cow<'a, str>, V)>) -> Vec<(Cow<'a, str>, V)> {
    let mut order: Vec<u32> = (0..list.len() as u32).collect();
    order.sort_by(|&a, &b| list[a as usize].0.cmp(&list[b as usize].0));
    let mut dropped: Vec<u32> = vec![];
    let mut moved: Vec<(u32, u32)> = vec![];
    for group in order.chunk_by(|&a, &b| list[a as usize].0 == list[b as usize].0) {
        if let [first, .., last] = group {
            moved.push((*first, *last));
            dropped.extend_from_slice(&group[1..]);
        }
    }
    if dropped.is_empty() {
        return list;
    }
    for (first, last) in moved {
        list[first as usize].1 = list[last as usize].1;
    }
    dropped.sort_unstable();
    let mut i = 0;
    let mut at = 0u32;
    list.retain(|_| {
        let keep = dropped.get(i) != Some(&at);
        if !keep {
            i += 1;
        }
        at += 1;
        keep
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, String)> {
        let raw: &RawValue = serde_json::from_str(text).unwrap();
        of(raw).unwrap().into_iter().map(|(k, v)| (k.into_owned(), v.get().to_string())).collect()
    }

    #[test]
    fn a_repeated_name_keeps_its_first_place_and_its_last_value() {
        let got = names(r#"{"b":1,"a":2,"b":3,"c\u0041":4,"a":5}"#);
        let want = [("b", "3"), ("a", "5"), ("cA", "4")];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(names(r#"{"x":[1,{"y":2}]}"#), [("x".to_string(), r#"[1,{"y":2}]"#.to_string())]);
    }
}
