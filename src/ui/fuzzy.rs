//! Fuzzy matching for the tool filter: subsequence matches on name and title, substring matches on
//! the description; higher scores for consecutive runs and word starts.

/// The score of `query` as a subsequence of `text` (case-insensitive), if it is one.
pub fn subsequence(query: &str, text: &str) -> Option<i64> {
    if query.is_empty() {
        return Some(0);
    }
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let mut score = 0i64;
    let mut ti = 0usize;
    let mut prev: Option<usize> = None;
    for qc in query.chars().flat_map(char::to_lowercase) {
        let found = t[ti..].iter().position(|c| *c == qc)? + ti;
        score += 1;
        if prev.is_some_and(|p| p + 1 == found) {
            score += 5;
        }
        if found == 0 || !t[found - 1].is_alphanumeric() {
            score += 3;
        }
        prev = Some(found);
        ti = found + 1;
    }
    // Shorter texts with the same match rank first.
    Some(score * 100 - t.len() as i64)
}

/// The best score of `query` against a tool's name, title and description.
pub fn tool_score(query: &str, name: &str, title: Option<&str>, description: Option<&str>) -> Option<i64> {
    let q = query.trim();
    if q.is_empty() {
        return Some(0);
    }
    let by_name = subsequence(q, name).map(|s| s + 10_000);
    let by_title = title.and_then(|t| subsequence(q, t)).map(|s| s + 5_000);
    let by_desc = description.filter(|d| d.to_lowercase().contains(&q.to_lowercase())).map(|_| 1_000);
    [by_name, by_title, by_desc].into_iter().flatten().max()
}

/// Whether `hay` holds `needle_lower` (already lower case), ASCII case ignored: the searches'
/// test, byte-wise so a long value costs no allocation.
pub fn contains_ci(hay: &str, needle_lower: &str) -> bool {
    if needle_lower.is_empty() {
        return false;
    }
    let (h, n) = (hay.as_bytes(), needle_lower.as_bytes());
    h.len() >= n.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_names_then_titles_then_descriptions() {
        assert!(subsequence("dlc", "discord_list_channels").is_some());
        assert!(subsequence("xyz", "discord_list_channels").is_none());
        let exact = tool_score("list", "list_issues", None, None).unwrap_or(0);
        let scattered = tool_score("list", "l_i_s_t", None, None).unwrap_or(0);
        assert!(exact > scattered);
        let by_desc = tool_score("gradient", "get_image", None, Some("a PNG gradient"));
        assert_eq!(by_desc, Some(1_000));
        assert!(tool_score("weather", "get_weather", None, None) > by_desc);
    }
}
