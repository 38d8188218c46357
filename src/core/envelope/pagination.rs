//! Finding the next position in every common paging convention: offset/limit/nextOffset,
//! cursor/nextCursor/next_page_token, GraphQL pageInfo, before/after, page/totalPages, hasMore,
//! links.next; and totals (negative sentinels mean unknown). The names are data
//! (`conventions.toml`); what each role means is here.

use serde::Serialize;

use super::conventions::{self, Role};
use super::key_norm as norm;
use serde_json::{Map, Value};

/// How the next page is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// An offset (or start/skip) argument.
    Offset,
    /// An opaque next-page cursor or token.
    Cursor,
    /// A page number.
    Page,
    /// A `before` cursor (older items).
    Before,
    /// An `after` cursor (GraphQL endCursor and friends).
    After,
}

/// The envelope's `pagination`: the six fields of seed 000, plus how to get the next page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub offset: Option<u64>,
    pub limit: Option<u64>,
    pub has_more: Option<bool>,
    /// The next position: an offset, a cursor, or a page number, per `kind`.
    pub next_offset: Option<Value>,
    pub before: Option<String>,
    pub after: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<PageKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_pages: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_url: Option<String>,
    /// The input argument that takes the next position, when the answer (or a hint) names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
    /// The next position as the server wrote it, when `next_offset` is a number serde_json would
    /// write otherwise (`123456789012345678901`, `1e2`, `-0`): found by `Call::read` in the raw
    /// reply, and what the pager sends back. Without it such a position is not sent at all.
    #[serde(skip)]
    pub exact_position: Option<String>,
    /// The offset was a number no u64 holds exactly (beyond 2^53 as a float, or beyond u64):
    /// no next offset is computed from it.
    #[serde(skip)]
    pub inexact_offset: bool,
}

impl Pagination {
    /// Whether the next position is a number that may not be written back as the server wrote
    /// it (any float: `1e2`, `-0`, a number beyond 64 bits).
    pub fn position_is_inexact(&self) -> bool {
        matches!(&self.next_offset, Some(Value::Number(n)) if n.is_f64())
    }
}

/// What the scopes say, before it is turned into `Pagination`.
#[derive(Debug, Default)]
pub struct Found {
    pub has_more: Option<bool>,
    pub cursor: Option<String>,
    pub end_cursor: Option<String>,
    pub graphql: bool,
    pub offset: Option<u64>,
    pub limit: Option<u64>,
    pub next_offset: Option<u64>,
    pub page: Option<u64>,
    pub total_pages: Option<u64>,
    pub before: Option<String>,
    pub after: Option<String>,
    pub next_url: Option<String>,
    pub total: Option<u64>,
    /// A total was given but was a negative sentinel ("unknown").
    pub total_unknown: bool,
    /// The next cursor was sent as a number (Redis SCAN): it is passed on as one.
    pub cursor_is_number: bool,
    /// A next-cursor key was sent as null: no more pages.
    pub cursor_null: bool,
    /// A completion flag (`scan_complete`, `done`, `isLastPage`): true means no more. Read only
    /// beside a position, since a record may be `done` too.
    pub complete: Option<bool>,
    /// The next offset or numeric cursor as sent, when it is a float (`1e2`, a number beyond 64
    /// bits): passed on as that number, never as a saturated or reformatted one.
    pub float_position: Option<Value>,
    /// The offset was a float too big to add to exactly.
    pub inexact_offset: bool,
    /// A `count` beside the paging fields: the total when the list pages by page number
    /// (GitLab's wrappers fill it from the API's total header beside `current_page`).
    pub count: Option<u64>,
    /// Keys (as `key_norm` writes them) that the tool's output schema says count this page only
    /// (Todoist's `totalCount`: "The total number of tasks in this page"): never a total.
    pub page_counts: Vec<String>,
}

/// Whether a float holds an integer no larger than 2^53, which it holds exactly.
fn exact_in_float(f: f64) -> bool {
    f.abs() <= 9_007_199_254_740_992.0
}

fn as_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => {
            n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
        }
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_cursor(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn as_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" || s == "false" => Some(s == "true"),
        _ => None,
    }
}

impl Found {
    fn set_cursor(&mut self, v: &Value) {
        self.cursor_null |= v.is_null();
        if self.cursor.is_none() {
            self.cursor = as_cursor(v);
            self.cursor_is_number = v.is_number();
            self.note_float(v);
        }
    }

    /// Keeps a float position as sent (see `float_position`).
    fn note_float(&mut self, v: &Value) {
        if self.float_position.is_none() && v.as_number().is_some_and(serde_json::Number::is_f64) {
            self.float_position = Some(v.clone());
        }
    }

    /// Reads one scope; fields already found in an earlier (closer) scope are kept.
    pub fn scan(&mut self, scope: &Map<String, Value>) {
        self.scan_level(scope, 0);
    }

    fn scan_level(&mut self, scope: &Map<String, Value>, level: usize) {
        let table = conventions::table();
        for (key, v) in scope {
            let k = norm(key);
            if self.page_counts.contains(&k) {
                continue;
            }
            match table.answer_role(&k) {
                Some(role) => self.read(role, &k, v, level),
                // `total_tables`, `totalRows`: a total of the things listed, whatever their name.
                None if k.starts_with("total") && k.ends_with('s') && k.len() > 6 => self.read_total(v),
                None => {}
            }
            if level == 0
                && table.is(Role::Container, &k)
                && let Value::Object(inner) = v
            {
                self.scan_level(inner, 1);
            }
        }
    }

    /// Reads one member whose name plays `role`.
    fn read(&mut self, role: Role, k: &str, v: &Value, level: usize) {
        match role {
            Role::HasMore => self.has_more = self.has_more.or(as_bool(v)),
            Role::HasNextPage => {
                self.graphql = true;
                self.has_more = self.has_more.or(as_bool(v));
            }
            Role::EndCursor => {
                self.graphql = true;
                self.end_cursor = self.end_cursor.take().or(as_cursor(v));
            }
            // A bare `cursor` object at the top is a container, not a position.
            Role::Cursor if k != "cursor" || level > 0 || !v.is_object() => self.set_cursor(v),
            Role::Complete => self.complete = self.complete.or(as_bool(v)),
            Role::Offset => {
                if self.offset.is_none() {
                    self.inexact_offset = v.as_f64().is_some_and(|f| v.is_f64() && !exact_in_float(f));
                }
                self.offset = self.offset.or(as_u64(v))
            }
            Role::Limit => self.limit = self.limit.or(as_u64(v)),
            Role::NextOffset => self.read_next_offset(v),
            Role::Page if !v.is_object() => self.page = self.page.or(as_u64(v)),
            Role::TotalPages => self.total_pages = self.total_pages.or(as_u64(v)),
            Role::Before => self.before = self.before.take().or(as_cursor(v)),
            Role::After => self.after = self.after.take().or(as_cursor(v)),
            Role::NextLink => self.read_next_link(k, v),
            Role::Total => self.read_total(v),
            Role::Count if !v.is_object() => self.count = self.count.or(as_u64(v)),
            _ => {}
        }
    }

    fn read_next_offset(&mut self, v: &Value) {
        if self.next_offset.is_none() {
            self.note_float(v);
        }
        self.next_offset = self.next_offset.or(as_u64(v));
        if v.is_string() && as_u64(v).is_none() && self.cursor.is_none() {
            // Seed 000 allows "Offset/cursor for next page": a non-numeric one is a cursor.
            self.cursor = as_cursor(v);
        }
    }

    /// `next`: a URL, a `{href}` link, a next page's number, or a cursor.
    fn read_next_link(&mut self, k: &str, v: &Value) {
        match v {
            Value::String(s) if s.contains("://") || s.starts_with('/') || s.starts_with('?') => {
                self.next_url = self.next_url.take().or(Some(s.clone()));
            }
            Value::Object(o) => {
                if let Some(href) = o.get("href").and_then(Value::as_str) {
                    self.next_url = self.next_url.take().or(Some(href.to_string()));
                }
            }
            Value::Number(_) if k == "nextpage" => self.page = self.page.or(as_u64(v).map(|p| p.saturating_sub(1))),
            other => {
                if self.cursor.is_none() {
                    self.cursor = as_cursor(other);
                }
            }
        }
    }

    /// A total; `{"value": n}` (Elasticsearch) holds it; a negative one means unknown.
    fn read_total(&mut self, v: &Value) {
        let v = match v {
            Value::Object(o) => o.get("value").unwrap_or(v),
            _ => v,
        };
        if self.total.is_none() && !self.total_unknown {
            match v {
                Value::Number(n) if n.as_i64().is_some_and(|i| i < 0) => self.total_unknown = true,
                other => self.total = as_u64(other),
            }
        }
    }

    /// Reads what a `links.next`-style URL's query says (page, offset, cursor).
    fn read_next_url(&mut self) {
        let Some(url) = self.next_url.clone() else { return };
        let Some((_, query)) = url.split_once('?') else { return };
        let mut inner = Map::new();
        for pair in query.split('&') {
            if let Some((k, v)) = pair.split_once('=') {
                inner.insert(k.to_string(), Value::String(v.to_string()));
            }
        }
        let mut from = Found::default();
        from.scan(&inner);
        if self.cursor.is_none() && self.end_cursor.is_none() && self.next_offset.is_none() && self.page.is_none() {
            if let Some(p) = from.page {
                self.page = Some(p.saturating_sub(1));
                self.total_pages = self.total_pages.or(Some(p));
            } else if let Some(o) = from.offset {
                self.next_offset = Some(o);
            } else if let Some(c) = from.cursor.or(from.after) {
                self.cursor = Some(c);
            }
        }
    }

    /// The envelope's pagination (None when no paging convention was found) and the total.
    pub fn finish(mut self, returned: Option<u64>) -> (Option<Pagination>, Option<u64>) {
        self.read_next_url();
        let paged_by_number = self.page.is_some() || self.total_pages.is_some();
        // A count beside page numbers, or larger than this page (it cannot be the page's size),
        // is the total.
        let larger = |c: &u64| returned.is_some_and(|r| *c > r);
        let total = self.total.or(self.count.filter(|c| paged_by_number || larger(c)));
        let (p, total) = self.position(returned, total);
        // A total that equals this page while more pages remain counts this page only.
        let total = total.filter(|t| !(Some(*t) == returned && p.as_ref().and_then(|p| p.has_more) == Some(true)));
        (p, total)
    }

    fn cursor_position(&mut self, p: &mut Pagination, c: String) {
        p.kind = Some(PageKind::Cursor);
        let number = self.cursor_is_number.then(|| c.parse::<u64>().ok().map(Value::from)).flatten();
        // A float cursor goes back as the number it was, not as its text reformatted.
        let number = number.or(self.float_position.take().filter(|_| self.cursor_is_number));
        p.next_offset = Some(number.unwrap_or(Value::String(c.clone())));
        p.has_more = Some(self.has_more.or(self.complete.map(|c| !c)).unwrap_or(true));
        if p.has_more == Some(false) {
            p.next_offset = None;
        } else {
            // Seed 000 puts a forward cursor in `after`, whatever the server called it.
            p.after = p.after.take().or(Some(c));
        }
    }

    fn offset_position(&mut self, p: &mut Pagination, returned: Option<u64>, total: Option<u64>) {
        p.kind = Some(PageKind::Offset);
        let start = self.offset.unwrap_or(0);
        p.inexact_offset = self.inexact_offset;
        // The offset is the server's number: one near u64::MAX has no next page, not an
        // overflow; one a float holds only approximately gives no next page computed from it.
        let computed = returned.filter(|_| !self.inexact_offset).and_then(|r| start.checked_add(r));
        let next = match (self.next_offset, self.float_position.take()) {
            (Some(_), Some(float)) => Some(float),
            (Some(n), None) => Some(Value::from(n)),
            (None, _) => computed.map(Value::from),
        };
        let beyond = match (returned, total) {
            (Some(r), Some(t)) => Some(start.saturating_add(r) < t),
            _ => None,
        };
        p.has_more = self.has_more.or(self.complete.map(|c| !c)).or(self.next_offset.map(|_| true)).or(beyond);
        if p.has_more != Some(false) {
            p.next_offset = next;
        }
    }

    fn position(mut self, returned: Option<u64>, total: Option<u64>) -> (Option<Pagination>, Option<u64>) {
        let mut p = Pagination {
            offset: self.offset,
            limit: self.limit,
            before: self.before.clone(),
            after: self.after.clone(),
            page: self.page,
            total_pages: self.total_pages,
            next_url: self.next_url.clone(),
            ..Pagination::default()
        };
        if self.graphql {
            p.kind = Some(PageKind::After);
            p.has_more = self.has_more;
            if let Some(c) = self.end_cursor.or(self.cursor.clone()) {
                p.after = Some(c.clone());
                if p.has_more != Some(false) {
                    p.next_offset = Some(Value::String(c));
                }
            }
            p.has_more = p.has_more.or(Some(p.next_offset.is_some()));
        } else if let Some(c) = self.cursor.take() {
            self.cursor_position(&mut p, c);
        } else if self.next_offset.is_some() || self.offset.is_some() {
            self.offset_position(&mut p, returned, total);
        } else if let Some(page) = self.page {
            p.kind = Some(PageKind::Page);
            p.has_more = self.has_more.or(self.total_pages.map(|t| page < t)).or_else(|| {
                let size = self.limit?;
                Some(page.saturating_mul(size) < total?)
            });
            if p.has_more == Some(true) {
                p.next_offset = Some(Value::from(page + 1));
            }
        } else if let Some(b) = self.before.clone() {
            p.kind = Some(PageKind::Before);
            p.has_more = Some(self.has_more.unwrap_or(true));
            if p.has_more == Some(true) {
                p.next_offset = Some(Value::String(b));
            }
        } else if let Some(a) = self.after.clone() {
            p.kind = Some(PageKind::After);
            p.has_more = Some(self.has_more.unwrap_or(true));
            if p.has_more == Some(true) {
                p.next_offset = Some(Value::String(a));
            }
        } else if self.has_more.is_some() || self.next_url.is_some() {
            p.has_more = self.has_more.or(Some(true));
        } else if self.cursor_null {
            // `next_token: null`: the list pages by cursor, and this was its last page.
            p.kind = Some(PageKind::Cursor);
            p.has_more = Some(false);
        } else {
            return (None, total);
        }
        (Some(p), total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn detect(v: Value, returned: u64) -> (Option<Pagination>, Option<u64>) {
        let mut f = Found::default();
        if let Value::Object(m) = v {
            f.scan(&m);
        }
        f.finish(Some(returned))
    }

    #[test]
    fn seed_000_offset_paging() {
        let (p, total) = detect(
            json!({"pagination": {"offset": 0, "limit": 50, "hasMore": true, "nextOffset": 50}, "summary": {"total": 150, "returned": 50, "hasMore": true}}),
            50,
        );
        let p = p.unwrap_or_default();
        assert_eq!(
            (p.kind, p.offset, p.limit, p.has_more, p.next_offset),
            (Some(PageKind::Offset), Some(0), Some(50), Some(true), Some(json!(50)))
        );
        assert_eq!(total, Some(150));
    }

    #[test]
    fn totals_named_after_what_is_listed() {
        assert_eq!(detect(json!({"rows": [1], "total_rows": 9, "next_cursor": "c"}), 1).1, Some(9));
        assert_eq!(detect(json!({"rows": [1], "totalPages": 9, "next_cursor": "c"}), 1).1, None);
    }

    #[test]
    fn a_null_next_cursor_is_the_last_page() {
        let p = detect(json!({"files": [1, 2], "nextPageToken": null}), 2).0.unwrap_or_default();
        assert_eq!((p.kind, p.has_more), (Some(PageKind::Cursor), Some(false)));
        assert!(detect(json!({"files": [1, 2]}), 2).0.is_none());
    }

    #[test]
    fn a_numeric_cursor_stays_a_number_and_completion_flags_end_paging() {
        let p = detect(json!({"items": [1, 2], "next_cursor": 42, "done": false}), 2).0.unwrap_or_default();
        assert_eq!((p.kind, p.has_more, p.next_offset), (Some(PageKind::Cursor), Some(true), Some(json!(42))));
        let p = detect(json!({"items": [1], "cursor": "0", "finished": true}), 1).0.unwrap_or_default();
        assert_eq!((p.has_more, p.next_offset), (Some(false), None));
        let p = detect(json!({"offset": 20, "next_offset": 40, "isLastPage": true}), 20).0.unwrap_or_default();
        assert_eq!(p.has_more, Some(false));
    }

    #[test]
    fn cursors_in_their_many_spellings() {
        for v in [
            json!({"nextCursor": "abc"}),
            json!({"next_cursor": "abc", "has_more": true}),
            json!({"next_page_token": "abc"}),
            json!({"response_metadata": {"next_cursor": "abc"}}),
            json!({"meta": {"cursor": "abc"}}),
        ] {
            let p = detect(v.clone(), 3).0.unwrap_or_default();
            assert_eq!((p.kind, p.next_offset), (Some(PageKind::Cursor), Some(json!("abc"))), "{v}");
        }
        let p = detect(json!({"next_cursor": null, "has_more": false}), 3).0.unwrap_or_default();
        assert_eq!(p.has_more, Some(false));
    }

    #[test]
    fn graphql_page_info() {
        let p = detect(json!({"pageInfo": {"hasNextPage": true, "endCursor": "Y3Vy"}, "totalCount": 64}), 20)
            .0
            .unwrap_or_default();
        assert_eq!(
            (p.kind, p.after.as_deref(), p.next_offset),
            (Some(PageKind::After), Some("Y3Vy"), Some(json!("Y3Vy")))
        );
        let p = detect(json!({"pageInfo": {"hasNextPage": false, "endCursor": "Y3Vy"}}), 4).0.unwrap_or_default();
        assert_eq!((p.has_more, p.next_offset), (Some(false), None));
    }

    #[test]
    fn pages_and_links() {
        let p = detect(json!({"page": 2, "per_page": 10, "total_pages": 9}), 10).0.unwrap_or_default();
        assert_eq!((p.kind, p.next_offset, p.limit), (Some(PageKind::Page), Some(json!(3)), Some(10)));
        let p = detect(json!({"page": 9, "totalPages": 9}), 10).0.unwrap_or_default();
        assert_eq!(p.has_more, Some(false));
        let p = detect(json!({"links": {"next": "https://api.example.com/items?page=4&per_page=30"}}), 30)
            .0
            .unwrap_or_default();
        assert_eq!((p.kind, p.next_offset), (Some(PageKind::Page), Some(json!(4))));
    }

    #[test]
    fn before_cursor_and_totals() {
        let p = detect(json!({"hasMore": true, "before": "1200000000230000690"}), 50).0.unwrap_or_default();
        assert_eq!((p.kind, p.next_offset), (Some(PageKind::Before), Some(json!("1200000000230000690"))));
        let (_, total) = detect(json!({"total": -1, "offset": 0}), 5);
        assert_eq!(total, None);
        let (p, total) = detect(json!({"offset": 0, "total_count": 12}), 5);
        assert_eq!((p.unwrap_or_default().next_offset, total), (Some(json!(5)), Some(12)));
        assert!(detect(json!({"name": "x"}), 1).0.is_none());
    }

    #[test]
    fn start_at_is_an_offset() {
        // Jira's REST API and its wrappers say `startAt`; a last page ends at the total.
        let p = detect(json!({"startAt": 40, "maxResults": 20, "total": 45}), 5).0.unwrap_or_default();
        assert_eq!((p.kind, p.has_more), (Some(PageKind::Offset), Some(false)));
        let p = detect(json!({"start_at": 0, "total": 45}), 20).0.unwrap_or_default();
        assert_eq!(p.next_offset, Some(json!(20)));
    }

    #[test]
    fn a_count_beside_page_numbers_is_the_total() {
        // GitLab wrappers: `count` from the X-Total header, beside current_page/total_pages.
        let (p, total) = detect(json!({"count": 57, "current_page": 1, "total_pages": 3, "per_page": 20}), 20);
        assert_eq!((total, p.and_then(|p| p.next_offset)), (Some(57), Some(json!(2))));
        // Without page numbers a count is this page's size, unless it is larger than the page.
        assert_eq!(detect(json!({"count": 20, "next_cursor": "c"}), 20).1, None);
        assert_eq!(detect(json!({"count": 37}), 2).1, Some(37));
    }

    #[test]
    fn a_total_equal_to_the_page_while_more_remain_is_no_total() {
        let (p, total) = detect(json!({"totalCount": 10, "hasMore": true, "nextCursor": "c2"}), 10);
        assert_eq!((total, p.and_then(|p| p.has_more)), (None, Some(true)));
        assert_eq!(detect(json!({"totalCount": 7, "hasMore": false}), 7).1, Some(7));
        let mut f = Found { page_counts: vec!["totalcount".into()], ..Found::default() };
        if let Value::Object(m) = json!({"totalCount": 7, "hasMore": false}) {
            f.scan(&m);
        }
        assert_eq!(f.finish(Some(7)).1, None);
    }

    #[test]
    fn forward_cursors_are_after_and_backward_ones_before() {
        let p = detect(json!({"next_cursor": "n1", "prev_cursor": "p0"}), 3).0.unwrap_or_default();
        assert_eq!((p.after.as_deref(), p.before.as_deref()), (Some("n1"), Some("p0")));
        assert_eq!((p.kind, p.next_offset), (Some(PageKind::Cursor), Some(json!("n1"))));
        let p = detect(json!({"next_page_token": "t", "has_more": false}), 3).0.unwrap_or_default();
        assert_eq!(p.after, None);
    }

    #[test]
    fn offsets_near_the_top_of_u64_do_not_overflow() {
        // A fuzzed server sent `"offset": 4.43e185`; numbers that big read as u64::MAX.
        for offset in [json!(4.43e185), json!(u64::MAX), json!(u64::MAX - 1)] {
            let p = detect(json!({"offset": offset, "total": 10}), 5).0.unwrap_or_default();
            assert_eq!(p.kind, Some(PageKind::Offset));
            let p = detect(json!({"offset": offset}), 5).0.unwrap_or_default();
            assert!(p.next_offset.as_ref().is_none_or(|n| n.as_u64().is_some()), "{p:?}");
        }
    }
}
