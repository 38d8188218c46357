//! Where a page-numbered page of a list starts, in items, so that its `#` column, its header
//! and the pages after it count from where the call started: `page=3` of 20 a page holds items
//! 41–60, not 1–20. (An offset is its own start: `offset=20` holds items 21 on.)

use serde_json::{Map, Value};

use super::conventions::{self, Role};
use super::key_norm as norm;
use super::pager::position_argument;
use super::{Envelope, PageKind};

/// The items before a page of a page-numbered list: (N−1) × the page size.
///
/// N is the page the call asked for (its page argument), else the page the answer reports. The
/// size is the answer's (`pageSize`, `per_page`), else the page-size argument sent, else, when
/// more pages follow (so this one is full), the items it holds. Pages count from 1: `page=0` is
/// taken as the first. A gathered list (all pages read into one) reports its first page but
/// the size of the whole: there the size sent counts, else, when it was read to the end of a
/// list that says its total, the items before it are the total less those gathered. None when
/// nothing says.
pub fn page_start(e: &Envelope, args: &Map<String, Value>) -> Option<usize> {
    let p = e.pagination.as_ref()?;
    if p.kind != Some(PageKind::Page) {
        return None;
    }
    let returned = e.item_count() as u64;
    let asked = position_argument(None, PageKind::Page, args).and_then(|name| number(args.get(&name)?));
    let table = conventions::table();
    let size_arg = args.iter().find(|(k, _)| table.is(Role::PageSizeArgument, &norm(k))).and_then(|(_, v)| number(v));
    let start = if gathered(e) {
        let sized = asked.or(p.page).zip(size_arg.filter(|s| *s > 0)).map(|(n, s)| before(n, s));
        let total = e.summary.as_ref().and_then(|s| s.total).filter(|_| p.has_more == Some(false));
        sized.or_else(|| total?.checked_sub(returned))?
    } else {
        let full = (p.has_more == Some(true)).then_some(returned);
        before(asked.or(p.page)?, p.limit.or(size_arg).or(full).filter(|s| *s > 0)?)
    };
    usize::try_from(start).ok()
}

/// The items on the pages before page `n` (from 1) at `size` a page.
fn before(n: u64, size: u64) -> u64 {
    n.saturating_sub(1).saturating_mul(size)
}

fn gathered(e: &Envelope) -> bool {
    e.metadata.as_ref().is_some_and(|m| m.get("pager").is_some())
}

/// The number of the page that holds a page's first item, for its header: the page the answer
/// reports of a page-numbered list; for a list read by offset, the first item's page at the page
/// size (`offset=20` at 20 a page is page 2). None for a gathered list (all pages in one) and
/// where the size is unknown: the header then counts the pages read.
pub fn page_number(e: &Envelope, first_item: usize) -> Option<u64> {
    let p = e.pagination.as_ref()?;
    if gathered(e) {
        return None;
    }
    match p.kind {
        Some(PageKind::Page) => p.page.filter(|n| *n > 0),
        Some(PageKind::Offset) | None if p.offset.is_some() => {
            let full = (p.has_more == Some(true)).then_some(e.item_count() as u64);
            let size = p.limit.or(full).filter(|s| *s > 0)?;
            Some(first_item as u64 / size + 1)
        }
        _ => None,
    }
}

/// A page number or size as sent: a JSON number or a number written as a string.
fn number(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_u64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::Pagination;
    use serde_json::json;

    fn paged(page: Option<u64>, limit: Option<u64>, more: bool) -> Pagination {
        Pagination { kind: Some(PageKind::Page), page, limit, has_more: Some(more), ..Pagination::default() }
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    fn summed(mut e: Envelope, total: u64) -> Envelope {
        e.summary = Some(super::super::Summary { total: Some(total), ..Default::default() });
        e
    }

    #[test]
    fn a_page_starts_after_the_pages_before_it() {
        // The demo's shop search: page=3, pageSize=10 in the request and the answer.
        let e = list(10, paged(Some(3), Some(10), true), false);
        assert_eq!(page_start(&e, &args(json!({"page": 3, "pageSize": 10}))), Some(20));
        // GitHub style: page and per_page sent, the answer says neither.
        let e = list(30, paged(None, None, true), false);
        assert_eq!(page_start(&e, &args(json!({"page": "4", "per_page": 30}))), Some(90));
        // Only the answer knows the page, and more follow: this page is full.
        assert_eq!(page_start(&list(25, paged(Some(2), None, true), false), &Map::new()), Some(25));
        // The last page is not full: its size says nothing of the others.
        assert_eq!(page_start(&list(3, paged(Some(5), None, false), false), &Map::new()), None);
        assert_eq!(page_start(&list(25, paged(Some(1), None, true), false), &Map::new()), Some(0));
        assert_eq!(page_start(&list(10, paged(Some(0), Some(10), true), false), &Map::new()), Some(0));
    }

    #[test]
    fn a_gathered_list_counts_from_the_page_it_started_at() {
        // `A` from page=3 of the shop search: 67 items gathered of 87, "limit" 67 (the whole).
        let e = summed(list(67, paged(Some(3), Some(67), false), true), 87);
        assert_eq!(page_start(&e, &args(json!({"page": 3}))), Some(20));
        assert_eq!(page_start(&e, &args(json!({"page": 3, "pageSize": 10}))), Some(20));
        // Stopped before the end (the page limit): only the size sent says where it started.
        let e = summed(list(50, paged(Some(3), Some(50), true), true), 87);
        assert_eq!(page_start(&e, &args(json!({"page": 3}))), None);
        assert_eq!(page_start(&e, &args(json!({"page": 3, "per_page": 10}))), Some(20));
    }

    #[test]
    fn other_kinds_and_huge_numbers_give_nothing_wrong() {
        let offset = Pagination { kind: Some(PageKind::Offset), offset: Some(20), ..Pagination::default() };
        assert_eq!(page_start(&list(10, offset, false), &args(json!({"page": 3}))), None);
        let e = list(10, paged(Some(u64::MAX), Some(u64::MAX), true), false);
        assert!(page_start(&e, &Map::new()).is_some_and(|n| n > 0));
        let e = summed(list(67, paged(Some(3), Some(67), false), true), 5);
        assert_eq!(page_start(&e, &Map::new()), None);
    }

    fn list(items: usize, p: Pagination, gathered: bool) -> Envelope {
        Envelope {
            tool_name: "t".into(),
            response_type: super::super::ResponseType::List,
            data: super::super::Data::Value(Value::Array(vec![json!(1); items])),
            pagination: Some(p),
            summary: None,
            status: None,
            message: None,
            error: None,
            metadata: gathered.then(|| args(json!({"pager": {"pages": 3}}))),
            data_exact: None,
        }
    }

    #[test]
    fn a_header_names_the_page_that_holds_its_first_item() {
        assert_eq!(page_number(&list(10, paged(Some(3), Some(10), true), false), 20), Some(3));
        let by_offset = |offset, more| Pagination {
            kind: Some(PageKind::Offset),
            offset: Some(offset),
            has_more: Some(more),
            ..Pagination::default()
        };
        // offset=20, 20 a page (a full page: more follow) is page 2; offset=40 page 3.
        assert_eq!(page_number(&list(20, by_offset(20, true), false), 20), Some(2));
        assert_eq!(page_number(&list(20, by_offset(40, true), false), 40), Some(3));
        // The last page's size says nothing of the others; a gathered list is not one page.
        assert_eq!(page_number(&list(15, by_offset(80, false), false), 80), None);
        assert_eq!(page_number(&list(75, by_offset(20, false), true), 20), None);
        assert_eq!(page_number(&list(10, paged(Some(9), Some(10), false), true), 20), None);
    }
}
