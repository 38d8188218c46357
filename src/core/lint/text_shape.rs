//! How many values a JSON text holds and how deep it nests, read from its bytes without building
//! anything (the text is known to be JSON).

/// The values of `text` (counted as its members and elements plus one; an empty container
/// counts once too many) and its deepest nesting of arrays and objects.
pub fn of(text: &str) -> (usize, usize) {
    let (mut values, mut depth, mut deepest) = (1usize, 0usize, 0usize);
    for (_, b) in structural(text) {
        match b {
            b'{' | b'[' => {
                values += 1;
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => {}
        }
    }
    (values, deepest)
}

/// The bytes of `text` outside its strings (quotes included in neither), with their offsets.
pub fn structural(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.bytes().enumerate().filter(move |&(_, b)| {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            return false;
        }
        in_string = b == b'"';
        !in_string
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn values_and_depth_are_read_from_the_bytes() {
        assert_eq!(super::of("1"), (1, 0));
        assert_eq!(super::of(r#"{"a":[1,2,{"b":"},[{"}]}"#), (6, 3));
    }
}
