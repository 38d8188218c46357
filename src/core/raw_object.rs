//! A JSON object read one level deep: its members' names, each value kept as text (`&RawValue`)
//! until it is used. A `Value` of a whole server-sized document costs 10 to 30 times its bytes;
//! these cost a name and two words a member.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// An object's members as text, one level read, sorted by key (of a key written twice the last
/// counts, as in a `Value`); `None` for anything else.
pub fn members(raw: &RawValue) -> Option<Members<'_>> {
    if !raw.get().trim_start().starts_with('{') {
        return None;
    }
    let mut list: Vec<(String, &RawValue)> = owned(crate::json_depth::parse_borrowed::<Listed>(raw.get()).ok()?.0);
    // Stable: of equal keys the last written stays last, and is the one kept.
    list.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(String, &RawValue)> = Vec::with_capacity(list.len());
    for (k, v) in list {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 = v,
            _ => out.push((k, v)),
        }
    }
    Some(Members(out))
}

/// An object's members in key order (a `BTreeMap` costs several times as much a member).
pub struct Members<'a>(pub Vec<(String, &'a RawValue)>);

impl<'a> Members<'a> {
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| self.0[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// Members with their names owned.
fn owned<'a>(list: Vec<(Cow<'_, str>, &'a RawValue)>) -> Vec<(String, &'a RawValue)> {
    list.into_iter().map(|(k, v)| (k.into_owned(), v)).collect()
}

/// An object read as its members in order, each kept as text, a name borrowed from the text
/// when it holds no escape.
pub struct Listed<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

/// A member's name, borrowed from the text when it holds no escape.
struct Name<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Name<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Name<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a name")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(Visit(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Listed<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Listed<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Listed<'a>, M::Error> {
                let mut out = vec![];
                while let Some((k, v)) = map.next_entry::<Name<'de>, &'de RawValue>()? {
                    out.push((k.0, v));
                }
                Ok(Listed(out))
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// An object's members in the order written, each name once at its first place with its last
/// value (as a `Value` read with `preserve_order` holds them); `None` for anything else.
pub fn in_order(text: &str) -> Option<Vec<(String, &RawValue)>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let list = owned(crate::json_depth::parse_borrowed::<Listed>(text).ok()?.0);
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::with_capacity(list.len());
    let mut out: Vec<(String, &RawValue)> = Vec::with_capacity(list.len());
    for (k, v) in list {
        match at.get(&k) {
            Some(&i) => out[i].1 = v,
            None => {
                at.insert(k.clone(), out.len());
                out.push((k, v));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_written_twice_keeps_its_first_place_and_last_value() {
        let text = r#"{"b": 1, "a": {"x": [2]}, "b": 3}"#;
        let listed: Vec<(String, String)> =
            in_order(text).unwrap_or_default().into_iter().map(|(k, v)| (k, v.get().to_string())).collect();
        assert_eq!(listed, [("b".to_string(), "3".to_string()), ("a".to_string(), r#"{"x": [2]}"#.to_string())]);
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
        let m = members(&raw).map(|m| m.0.len());
        assert_eq!(m, Some(2));
        assert!(in_order("[1]").is_none() && in_order("{").is_none());
    }
}
