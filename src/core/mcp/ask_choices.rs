//! The choices of an elicitation field (`enum`, or `oneOf`/`anyOf` of titled `const`s) as places
//! in the request's text: eight bytes a choice, each read only when shown or picked. A 1M-value
//! enum held as `Value`s took about 80 bytes a value in each of its several copies.

use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

/// How a choice's text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// An `enum` member: the value itself.
    Plain,
    /// A `oneOf`/`anyOf` member: `{"const": value, "title": label}`.
    Titled,
}

#[derive(Debug, Clone)]
pub struct Choices {
    raw: Arc<String>,
    /// Start and length of each choice in `raw`.
    at: Vec<(u32, u32)>,
    shape: Shape,
}

/// Where `inner` (a slice of `outer`) starts in it; None when it is not a slice of it.
pub(crate) fn offset(outer: &str, inner: &str) -> Option<usize> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    (start + inner.len() <= outer.len()).then_some(start)
}

impl Choices {
    /// The members of the array `list` (a slice of `raw`): `enum` values, or with `titled`,
    /// `oneOf`/`anyOf` members each holding a `const`. None when it is not such an array.
    pub(crate) fn index(raw: &Arc<String>, list: &str, titled: bool) -> Option<Choices> {
        let members = crate::json_depth::parse_borrowed::<Vec<&RawValue>>(list).ok()?;
        let mut at = Vec::with_capacity(members.len());
        for m in members {
            let text = m.get();
            if titled && !text.contains("\"const\"") {
                return None;
            }
            let start = u32::try_from(offset(raw, text)?).ok()?;
            at.push((start, u32::try_from(text.len()).ok()?));
        }
        let shape = if titled { Shape::Titled } else { Shape::Plain };
        Some(Choices { raw: raw.clone(), at, shape })
    }

    pub fn len(&self) -> usize {
        self.at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// The text of choice `i` as sent.
    pub fn text(&self, i: usize) -> &str {
        let Some(&(start, len)) = self.at.get(i) else { return "" };
        let (start, len) = (start as usize, len as usize);
        self.raw.get(start..start + len).unwrap_or_default()
    }

    /// The value choice `i` sends.
    pub fn value(&self, i: usize) -> Value {
        let text = self.text(i);
        match self.shape {
            Shape::Plain => crate::json_depth::parse(text, crate::json_depth::DEFAULT_MAX_DEPTH).unwrap_or(Value::Null),
            Shape::Titled => member(text, "const").unwrap_or(Value::Null),
        }
    }

    /// What choice `i` is called on screen: its title, else its value (a string unquoted).
    pub fn label(&self, i: usize) -> String {
        let title = (self.shape == Shape::Titled).then(|| member(self.text(i), "title")).flatten();
        match title.unwrap_or_else(|| self.value(i)) {
            Value::String(s) => s,
            other => other.to_string(),
        }
    }

    /// The choice that sends `v`, if any. The text is compared first: a value is read only where
    /// its text could be written another way (escapes, numbers, containers).
    pub fn position(&self, v: &Value) -> Option<usize> {
        let want = v.to_string();
        (0..self.len()).find(|&i| {
            let text = match self.shape {
                Shape::Plain => self.text(i),
                Shape::Titled => return self.value(i) == *v,
            };
            text == want || ((!text.starts_with('"') || text.contains('\\')) && self.value(i) == *v)
        })
    }

    /// The choices whose text holds `needle` (ASCII case ignored), at most `max` of them from
    /// `from` on: a filter over the text, with nothing read.
    pub fn matching(&self, needle: &str, from: usize, max: usize) -> Vec<usize> {
        let needle = needle.as_bytes();
        let holds = |i: &usize| {
            let hay = self.text(*i).as_bytes();
            needle.is_empty() || hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
        };
        (from..self.len()).filter(holds).take(max).collect()
    }
}

/// One member of an object given as text, read; None when absent or not an object.
pub(crate) fn member(object: &str, key: &str) -> Option<Value> {
    let members = super::descriptor::object_members(object)?;
    let (_, v) = members.into_iter().find(|(k, _)| k == key)?;
    crate::json_depth::parse(v.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(list: &str, titled: bool) -> Choices {
        let raw = Arc::new(list.to_string());
        Choices::index(&raw, &raw.clone(), titled).unwrap_or_else(|| panic!("not indexed: {list}"))
    }

    #[test]
    fn plain_choices_are_read_when_asked_and_found_by_value() {
        let c = choices(r#"["red", "gr\u0065en", 3, {"a": 1}]"#, false);
        assert_eq!(c.len(), 4);
        assert_eq!((c.label(0), c.label(1), c.label(2)), ("red".into(), "green".into(), "3".into()));
        assert_eq!(c.position(&Value::from("green")), Some(1));
        assert_eq!(c.position(&serde_json::json!({"a": 1})), Some(3));
        assert_eq!(c.position(&Value::from("blue")), None);
        assert_eq!(c.matching("E", 0, 10), vec![0, 1]);
        assert_eq!(c.matching("", 1, 2), vec![1, 2]);
    }

    #[test]
    fn titled_choices_send_their_const_and_show_their_title() {
        let c = choices(r##"[{"const": "#f00", "title": "Red"}, {"const": "#0f0"}]"##, true);
        assert_eq!((c.label(0), c.label(1)), ("Red".into(), "#0f0".into()));
        assert_eq!(c.value(0), Value::from("#f00"));
        assert_eq!(c.position(&Value::from("#0f0")), Some(1));
        let raw = Arc::new(r#"[{"type": "string"}]"#.to_string());
        assert!(Choices::index(&raw, &raw.clone(), true).is_none(), "a oneOf without consts is no list of choices");
    }
}
