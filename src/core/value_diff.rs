//! Where two JSON values differ, as JSON pointers: what only the left has, what only the right
//! has, and the leaves (or kinds) that changed. Used to compare two servers' answers to the same
//! call. Walks with its own stack, so a deep value costs memory, never the call stack; stops after
//! `limit` differences.

use serde_json::Value;

use crate::schema::diff::token;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Only the left value has this member or item.
    Left,
    /// Only the right value has it.
    Right,
    /// Both have it, with different values (scalars) or different kinds.
    Both,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub pointer: String,
    pub side: Side,
}

/// The differences from `left` to `right`, at most `limit`; `true` when more were left out. Each
/// level's own differences (members or items only one side has) come before those inside it.
pub fn differences(left: &Value, right: &Value, limit: usize) -> (Vec<Difference>, bool) {
    let mut out = vec![];
    // Children reversed on push, so that they are visited in the order they appear.
    let mut stack: Vec<(String, &Value, &Value)> = vec![(String::new(), left, right)];
    while let Some((at, l, r)) = stack.pop() {
        if out.len() >= limit {
            return (out, true);
        }
        let mut children = vec![];
        match (l, r) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, v) in a {
                    let p = format!("{at}/{}", token(k));
                    match b.get(k) {
                        Some(w) => children.push((p, v, w)),
                        None => out.push(Difference { pointer: p, side: Side::Left }),
                    }
                }
                for k in b.keys().filter(|k| !a.contains_key(*k)) {
                    out.push(Difference { pointer: format!("{at}/{}", token(k)), side: Side::Right });
                }
            }
            (Value::Array(a), Value::Array(b)) => {
                for (i, (v, w)) in a.iter().zip(b).enumerate() {
                    children.push((format!("{at}/{i}"), v, w));
                }
                let side = if a.len() > b.len() { Side::Left } else { Side::Right };
                for i in a.len().min(b.len())..a.len().max(b.len()) {
                    out.push(Difference { pointer: format!("{at}/{i}"), side });
                }
            }
            _ if crate::deep::equal(l, r) => {}
            _ => out.push(Difference { pointer: at, side: Side::Both }),
        }
        stack.extend(children.into_iter().rev());
    }
    let more = out.len() > limit;
    out.truncate(limit);
    (out, more)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pointers(l: Value, r: Value) -> Vec<(String, Side)> {
        differences(&l, &r, 100).0.into_iter().map(|d| (d.pointer, d.side)).collect()
    }

    #[test]
    fn equal_values_have_none() {
        assert!(pointers(json!({"a": [1, {"b": null}]}), json!({"a": [1, {"b": null}]})).is_empty());
    }

    #[test]
    fn members_items_and_leaves_are_named_by_pointer() {
        let got = pointers(
            json!({"a": 1, "gone": true, "list": [1, 2, 3], "x/y": "s"}),
            json!({"a": 2, "list": [1, 5], "x/y": "s", "new": {}}),
        );
        let want = [
            ("/gone", Side::Left),
            ("/new", Side::Right),
            ("/a", Side::Both),
            ("/list/2", Side::Left),
            ("/list/1", Side::Both),
        ];
        let want: Vec<(String, Side)> = want.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_changed_kind_is_one_difference_and_the_limit_holds() {
        assert_eq!(pointers(json!({"a": [1]}), json!({"a": {"0": 1}})), [("/a".to_string(), Side::Both)]);
        let many: Vec<Value> = (0..50).map(Value::from).collect();
        let (d, more) = differences(&Value::Array(many), &json!([]), 10);
        assert_eq!((d.len(), more), (10, true));
    }

    #[test]
    fn a_very_deep_value_does_not_overflow_the_stack() {
        let (mut l, mut r) = (json!(1), json!(2));
        for _ in 0..20_000 {
            l = Value::Array(vec![l]);
            r = Value::Array(vec![r]);
        }
        let (d, _) = differences(&l, &r, 10);
        assert_eq!(d.len(), 1);
        crate::deep::drop_value(l);
        crate::deep::drop_value(r);
    }
}
