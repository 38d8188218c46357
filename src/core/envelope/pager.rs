//! The pager's rules: finds the input argument that carries the position, the arguments of the
//! next page, and merges pages into one envelope (the calls themselves are `crate::call`'s).

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::conventions::{self, Role};
use super::key_norm as norm;
use super::pagination::PageKind;
use super::{Data, Envelope, RawItems, ResponseType, Status, Summary};
use crate::schema::args::property_schema;

/// Argument names that carry each kind of position, best first (`conventions.toml`'s
/// `*_argument` entries), normalized.
pub(crate) fn candidates(kind: PageKind) -> Vec<String> {
    conventions::table().names(Role::Argument(kind)).to_vec()
}

/// The input argument that carries a position of `kind`, per the tool's input schema.
pub fn position_argument(schema: Option<&Value>, kind: PageKind, current: &Map<String, Value>) -> Option<String> {
    let props: Vec<String> = schema
        .and_then(|s| {
            let mut s = s;
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                s = crate::schema::resolve::resolve(s, r)?;
            }
            s.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect())
        })
        .unwrap_or_else(|| current.keys().cloned().collect());
    let fits = |name: &str| {
        let ty = schema.and_then(|s| property_schema(s, name)).and_then(|p| p.get("type")).and_then(Value::as_str);
        match ty {
            Some("object" | "array" | "boolean") => false,
            // `index` and `position` name many things (an Elasticsearch index, a list position);
            // as a page's position they are numbers.
            Some("string") => !AMBIGUOUS.contains(&norm(name).as_str()),
            _ => true,
        }
    };
    candidates(kind).iter().find_map(|c| props.iter().find(|p| norm(p) == *c && fits(p)).cloned())
}

/// Position names that are only positions when they are numbers.
const AMBIGUOUS: &[&str] = &["index", "position", "p", "token", "next"];

/// An answer that pages by page number to a tool that takes an offset (YOURLS's `list_urls`
/// answers `page` and `perpage`, and takes `offset`): the next page's first item is the offset.
fn page_as_offset(
    schema: Option<&Value>,
    args: &Map<String, Value>,
    p: &super::Pagination,
    position: &Value,
) -> Option<NextPage> {
    let (PageKind::Page, Some(size)) = (p.kind?, p.limit) else { return None };
    let page = position.as_u64()?;
    let arg = position_argument(schema, PageKind::Offset, args)?;
    let offset = json!(page.checked_sub(1)?.checked_mul(size)?);
    let mut next = args.clone();
    next.insert(arg.clone(), shaped(schema, &arg, &offset));
    Some((next, offset))
}

/// The value to send, shaped to the argument's declared type.
fn shaped(schema: Option<&Value>, arg: &str, v: &Value) -> Value {
    let ty = schema.and_then(|s| property_schema(s, arg)).and_then(|p| p.get("type")).and_then(Value::as_str);
    match (ty, v) {
        (Some("integer" | "number"), Value::String(s)) => {
            s.parse::<u64>().map(Value::from).unwrap_or_else(|_| v.clone())
        }
        (Some("string"), Value::Number(n)) => Value::String(n.to_string()),
        // An exact number literal taken as a string argument: its digits, as sent.
        (Some("string"), Value::String(s)) => {
            crate::mcp::wire::literal_of(s).map(Value::String).unwrap_or_else(|| v.clone())
        }
        _ => v.clone(),
    }
}

/// The value of `arg` as sent, else the schema's default.
fn sent_or_default(schema: Option<&Value>, args: &Map<String, Value>, arg: &str) -> Option<u64> {
    args.get(arg)
        .or_else(|| schema.and_then(|s| property_schema(s, arg)).and_then(|p| p.get("default")))
        .and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok())))
}

/// A list that states its total but no position (GitHub's search: `total_count` and `items`):
/// the request's own page or offset says where it is, so the next page is found from it.
pub fn infer_from_request(env: &mut Envelope, schema: Option<&Value>, args: &Map<String, Value>) {
    mark_sql_write(env, args);
    if !env.data.is_array() {
        return;
    }
    // `hasMore: true` and nothing else (Grafana's list_datasources): the request says where.
    let more_without_position = env
        .pagination
        .as_ref()
        .is_some_and(|p| p.has_more == Some(true) && p.kind.is_none() && p.next_offset.is_none());
    if env.pagination.is_some() && !more_without_position {
        return;
    }
    let returned = env.item_count() as u64;
    let total = match env.summary.as_ref().and_then(|s| s.total) {
        // When the answer says there is more, its total may be a page's own count: it says nothing.
        Some(t) if !more_without_position => t,
        _ if more_without_position => u64::MAX,
        _ => return,
    };
    let Some(p) =
        page_from_request(schema, args, returned, total).or_else(|| offset_from_request(schema, args, returned, total))
    else {
        return;
    };
    if let Some(s) = &mut env.summary {
        s.has_more = p.has_more;
    }
    env.pagination = Some(p);
}

/// An offset sent inside an object argument, as a JSON pointer to it and its value: the query
/// DSL's `{"query_body": {"from": 0, "size": 20}}` (Elasticsearch, OpenSearch) and other
/// options objects. Only an offset that was sent counts: a size alone does not say the name.
fn nested_offset(args: &Map<String, Value>) -> Option<(String, u64)> {
    args.iter().find_map(|(outer, v)| {
        let inner = v.as_object()?;
        let key = candidates(PageKind::Offset).iter().find_map(|c| inner.keys().find(|k| norm(k) == *c))?;
        let offset = inner.get(key)?.as_u64()?;
        Some((format!("/{}/{}", pointer_token(outer), pointer_token(key)), offset))
    })
}

fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Sets the member a JSON pointer names inside `args` (an argument nested in an object), if the
/// objects on its way exist.
fn set_pointer(args: &mut Map<String, Value>, pointer: &str, value: Value) -> bool {
    let mut tokens = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~"));
    let Some(first) = tokens.next() else { return false };
    let mut at = match args.get_mut(&first) {
        Some(v) => v,
        None => return false,
    };
    let rest: Vec<String> = tokens.collect();
    let Some((last, path)) = rest.split_last() else { return false };
    for t in path {
        match at.get_mut(t) {
            Some(v) => at = v,
            None => return false,
        }
    }
    match at.as_object_mut() {
        Some(m) => {
            m.insert(last.clone(), value);
            true
        }
        None => false,
    }
}

/// A SQL write sent as an argument (`UPDATE ... SET`) answered by prose ("No results") is an
/// action, whatever the tool's generic name (`execute_sql`).
fn mark_sql_write(env: &mut Envelope, args: &Map<String, Value>) {
    if env.response_type == ResponseType::Single && env.data.is_null() && args.values().any(is_sql_write) {
        env.response_type = ResponseType::Action;
    }
}

/// The page after the one the request asked for (`page`, and its size argument if any).
fn page_from_request(
    schema: Option<&Value>,
    args: &Map<String, Value>,
    returned: u64,
    total: u64,
) -> Option<super::Pagination> {
    let arg = position_argument(schema, PageKind::Page, args).filter(|_| schema.is_some())?;
    let page = sent_or_default(schema, args, &arg).unwrap_or(1).max(1);
    let props: Vec<String> = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let table = conventions::table();
    let size_arg = props.iter().find(|k| table.is(Role::PageSizeArgument, &norm(k)));
    let size = size_arg.and_then(|a| sent_or_default(schema, args, a)).unwrap_or(returned.max(1));
    let more = returned > 0 && page.saturating_mul(size) < total;
    Some(super::Pagination {
        kind: Some(PageKind::Page),
        page: Some(page),
        limit: Some(size),
        has_more: Some(more),
        next_offset: more.then(|| json!(page + 1)),
        argument: Some(arg),
        ..super::Pagination::default()
    })
}

/// The offset after the request's: its offset argument, or one sent inside an object argument.
fn offset_from_request(
    schema: Option<&Value>,
    args: &Map<String, Value>,
    returned: u64,
    total: u64,
) -> Option<super::Pagination> {
    let (arg, offset) = match position_argument(schema, PageKind::Offset, args).filter(|_| schema.is_some()) {
        Some(arg) => {
            let offset = sent_or_default(schema, args, &arg).unwrap_or(0);
            (arg, offset)
        }
        None => nested_offset(args)?,
    };
    let next = offset.checked_add(returned);
    let more = returned > 0 && next.is_some_and(|n| n < total);
    Some(super::Pagination {
        kind: Some(PageKind::Offset),
        offset: Some(offset),
        has_more: Some(more),
        next_offset: next.filter(|_| more).map(|n| json!(n)),
        argument: Some(arg),
        ..super::Pagination::default()
    })
}

/// A string that is a SQL statement that writes (data or schema).
fn is_sql_write(v: &Value) -> bool {
    static WRITE: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let re = WRITE.get_or_init(|| {
        regex::Regex::new(
            r"(?is)^\s*(insert\s+into|update\s+\S+\s+set\b|delete\s+from|merge\s+into|truncate\b|alter\s+table|(create(\s+or\s+replace)?|drop)\s+(table|index|view|schema|database|function|trigger|sequence|type|extension)\b)",
        )
        .ok()
    });
    v.as_str().is_some_and(|s| re.as_ref().is_some_and(|re| re.is_match(s)))
}

/// The arguments for the next page, and the position they carry.
pub type NextPage = (Map<String, Value>, Value);

/// The arguments for the page after `env`, or why there is none.
pub fn next_arguments(
    schema: Option<&Value>,
    args: &Map<String, Value>,
    env: &Envelope,
) -> Result<Option<NextPage>, String> {
    let Some(p) = env.pagination.as_ref().filter(|p| p.has_more == Some(true)) else { return Ok(None) };
    let Some(kind) = p.kind else {
        return Err("the result says there is more, but not how to ask for it (no offset, cursor or page)".into());
    };
    let position = match (&p.next_offset, kind) {
        (Some(v), _) if p.position_is_inexact() => exact_position(p, v)?,
        (Some(v), _) => v.clone(),
        (None, PageKind::Offset) if p.inexact_offset => {
            return Err("the result's offset is a number mcplens cannot add to exactly; stopped".into());
        }
        (None, PageKind::Offset) => match p.offset.unwrap_or(0).checked_add(env.item_count() as u64) {
            Some(n) => json!(n),
            None => return Err("the next offset would be beyond 64 bits; stopped".into()),
        },
        (None, _) => return Err("the result says there is more, but gives no next position".into()),
    };
    if let Some(pointer) = p.argument.as_deref().filter(|a| a.starts_with('/')) {
        let mut next = args.clone();
        if !set_pointer(&mut next, pointer, position.clone()) {
            return Err(format!("the position goes at {pointer} in the arguments, which the first call did not send"));
        }
        return Ok(Some((next, position)));
    }
    let named = p.argument.clone().filter(|a| {
        schema.and_then(|s| s.get("properties")).and_then(Value::as_object).is_none_or(|props| props.contains_key(a))
    });
    if named.is_none()
        && position_argument(schema, kind, args).is_none()
        && let Some(next) = page_as_offset(schema, args, p, &position)
    {
        return Ok(Some(next));
    }
    let Some(arg) = named.or_else(|| position_argument(schema, kind, args)) else {
        let kind_name =
            serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        return Err(format!(
            "the result pages by {kind_name}, but the tool has no input argument for it (looked for: {})",
            candidates(kind).join(", ")
        ));
    };
    let mut next = args.clone();
    next.insert(arg.clone(), shaped(schema, &arg, &position));
    Ok(Some((next, position)))
}

/// A next position serde_json would rewrite, as the server wrote it: the wire stand-in of its
/// literal (`wire::exact_literal`), which goes out as those very bytes. Never the approximation.
fn exact_position(p: &super::Pagination, approximation: &Value) -> Result<Value, String> {
    match &p.exact_position {
        Some(literal) => Ok(Value::String(crate::mcp::wire::exact_literal(literal))),
        None => Err(format!(
            "the next position is a number mcplens cannot send back exactly as the server wrote it \
             (read as {approximation}); stopped"
        )),
    }
}

/// A position as the user reads it: a stand-in as the literal it stands for.
pub fn shown_position(position: &Value) -> String {
    match position.as_str().and_then(crate::mcp::wire::literal_of) {
        Some(literal) => literal,
        None => position.to_string(),
    }
}

/// Arguments to keep beyond this process (the history, a form filled from it): a stand-in (a
/// position sent as the server wrote it, `exact_position`, or a number kept as the user typed it)
/// becomes its literal as a string, since the stand-in means nothing to another process.
pub fn without_stand_ins(args: &Value) -> Value {
    crate::deep::grow(|| match args {
        Value::String(s) => crate::mcp::wire::literal_of(s).map_or_else(|| args.clone(), Value::String),
        Value::Array(items) => Value::Array(items.iter().map(without_stand_ins).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), without_stand_ins(v))).collect()),
        other => other.clone(),
    })
}

/// A stable identity for an item, to keep each exactly once across pages.
fn identity(item: &Value, by_id: bool) -> String {
    match (by_id, item.get("id")) {
        (true, Some(id)) => format!("id:{id}"),
        _ => item.to_string(),
    }
}

/// One envelope from several pages of the same list.
pub fn merge(pages: Vec<Envelope>, notes: Vec<String>, complete: bool) -> Envelope {
    merge_keeping(pages, notes, complete, None).0
}

/// [`merge`] of the pages and of their guides (each page read with stand-ins for the numbers
/// serde_json would rewrite, see `json::exact`; a page without one is its own guide): the merged
/// envelope and the merged guide that `json_out::write_envelope_exact` writes its digits from.
/// Duplicates are found in the guides, whose numbers are exact, and the same items dropped from
/// both, so the two stay aligned item for item.
pub fn merge_exact(
    pages: Vec<Envelope>,
    guides: Vec<Envelope>,
    notes: Vec<String>,
    complete: bool,
) -> (Envelope, Envelope) {
    let (guide, keep) = merge_keeping(guides, notes.clone(), complete, None);
    let (merged, _) = merge_keeping(pages, notes, complete, Some(keep));
    (merged, guide)
}

/// [`merge`], dropping the items `keep` says (when it counts as many items as the pages hold;
/// else duplicates are found here); returns which items were kept.
fn merge_keeping(
    pages: Vec<Envelope>,
    notes: Vec<String>,
    complete: bool,
    keep: Option<Vec<bool>>,
) -> (Envelope, Vec<bool>) {
    let page_count = pages.len();
    let mut iter = pages.into_iter();
    let Some(mut out) = iter.next() else {
        let empty = Envelope {
            tool_name: String::new(),
            response_type: ResponseType::List,
            data: Data::Value(json!([])),
            pagination: None,
            summary: None,
            status: None,
            message: None,
            error: None,
            metadata: None,
            data_exact: None,
        };
        return (empty, vec![]);
    };
    let mut datas = vec![std::mem::take(&mut out.data)];
    let mut last_pagination = out.pagination.clone();
    let mut totals = vec![out.summary.as_ref().and_then(|s| s.total)];
    let mut messages: Vec<String> = vec![slice_text(&out)];
    for p in iter {
        messages.push(slice_text(&p));
        datas.push(p.data);
        last_pagination = p.pagination.clone();
        totals.push(p.summary.as_ref().and_then(|s| s.total));
    }
    if !datas[0].is_array() {
        // Pages of one document (a long text read in slices): the slices in order.
        return (merge_document(out, messages, page_count, notes, complete, last_pagination), vec![]);
    }
    // Each page's own words ("Page 1 of 3") describe that page, not the whole list.
    let page_messages: Vec<Value> = messages.iter().filter(|m| !m.is_empty()).cloned().map(Value::String).collect();
    if page_messages.iter().any(|m| Some(m) != page_messages.first()) {
        out.message = None;
    }
    let items = concatenate(datas);
    let n = items.item_count();
    let keep = keep.filter(|k| k.len() == n).unwrap_or_else(|| first_of_each(&items));
    let dropped = keep.iter().filter(|k| !**k).count();
    let items = if dropped > 0 { items.retain(|i| keep[i]) } else { items };
    let has_more = last_pagination.as_ref().and_then(|p| p.has_more).unwrap_or(false) && !complete;
    if let Some(p) = &mut out.pagination {
        p.has_more = Some(has_more);
        take_next_position(p, last_pagination.filter(|_| has_more));
        p.limit = p.limit.map(|_| items.item_count() as u64);
    }
    let total = merged_total(&totals, items.item_count() as u64, complete);
    out.summary = Some(Summary { total, returned: Some(items.item_count() as u64), has_more: Some(has_more) });
    if !complete {
        out.status = Some(Status::Partial);
    }
    out.data = items;
    let meta = out.metadata.get_or_insert_with(Map::new);
    if complete {
        forget_first_page_position(meta);
    }
    let mut pager = json!({"pages": page_count, "complete": complete});
    if out.message.is_none() && !page_messages.is_empty() {
        pager["pageMessages"] = Value::Array(page_messages);
    }
    if dropped > 0 {
        pager["duplicatesDropped"] = json!(dropped);
    }
    if !notes.is_empty() {
        pager["notes"] = json!(notes);
    }
    meta.insert("pager".into(), pager);
    (out, keep)
}

/// The pages' items in order: pages of records read from text stay text; parsed pages stay parsed.
fn concatenate(datas: Vec<Data>) -> Data {
    if datas.iter().any(|d| matches!(d, Data::Items(_))) {
        let mut all = RawItems::default();
        for d in datas {
            all.append(d.into_raw_items());
        }
        return Data::Items(all);
    }
    let items = datas.into_iter().flat_map(|d| match d {
        Data::Value(Value::Array(a)) => a,
        _ => vec![],
    });
    Data::Value(Value::Array(items.collect()))
}

/// The whole list's total: the total the pages state, when they all state the same one and it
/// is no smaller than what was read (a page's own count, like the last page's `totalCount` of 7
/// beside 27 items read, is no total); else, when every page to the end was read, the count.
/// A stated total comes first: pages read from `offset=20` to the end hold 130 of 150 items.
fn merged_total(totals: &[Option<u64>], read: u64, complete: bool) -> Option<u64> {
    let stated: Vec<u64> = totals.iter().flatten().copied().collect();
    match stated.first() {
        Some(&first) if stated.iter().all(|t| *t == first) && first >= read => Some(first),
        _ => complete.then_some(read),
    }
}

/// Which items to keep: the first of each identity.
fn first_of_each(items: &Data) -> Vec<bool> {
    let n = items.item_count();
    let by_id = (0..n).all(|i| items.item(i).is_some_and(|v| v.get("id").is_some_and(|x| !x.is_null())));
    let mut seen = HashSet::new();
    (0..n).map(|i| items.item(i).is_none_or(|v| seen.insert(identity(&v, by_id)))).collect()
}

/// The merged list's next position is its last page's, with the literal it was written as.
fn take_next_position(p: &mut super::Pagination, last: Option<super::Pagination>) {
    let last = last.unwrap_or_default();
    // A forward cursor of the first page is no cursor of the whole list.
    p.after = last.after;
    p.next_offset = last.next_offset;
    p.exact_position = last.exact_position;
    p.inexact_offset = last.inexact_offset;
}

/// The first page's own paging fields, copied into metadata, described that page only.
fn forget_first_page_position(meta: &mut Map<String, Value>) {
    meta.retain(|k, _| {
        !matches!(
            norm(k).as_str(),
            "hasmore" | "hasnextpage" | "nextcursor" | "nextoffset" | "nextpagetoken" | "cursor" | "pageinfo" | "next"
        )
    });
}

/// A page's text without the line that told where the next slice starts.
fn slice_text(page: &Envelope) -> String {
    let Some(m) = &page.message else { return String::new() };
    let Some(p) = &page.pagination else { return m.clone() };
    let (Some(arg), Some(pos)) = (&p.argument, &p.next_offset) else { return m.clone() };
    let pos = match pos {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut kept: Vec<&str> =
        m.split_inclusive('\n').filter(|l| !(l.contains(arg.as_str()) && l.contains(&pos))).collect();
    if kept.len() == m.split_inclusive('\n').count() {
        return m.clone();
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    // The notice was set off from the slice by line breaks of its own.
    kept.concat().trim_end_matches('\n').to_string()
}

/// One envelope from the slices of one document: their messages joined, in order.
fn merge_document(
    mut out: Envelope,
    mut messages: Vec<String>,
    page_count: usize,
    notes: Vec<String>,
    complete: bool,
    last: Option<super::Pagination>,
) -> Envelope {
    let has_more = last.as_ref().and_then(|p| p.has_more).unwrap_or(false) && !complete;
    if let Some(p) = &mut out.pagination {
        p.has_more = Some(has_more);
        take_next_position(p, last.filter(|_| has_more));
    }
    // A first line every slice repeats ("Contents of https://...:") is said once.
    let first_line = |m: &String| m.split_once('\n').map(|(l, _)| l.to_string());
    if messages.len() > 1
        && let Some(head) = messages.first().and_then(first_line)
        && messages.iter().all(|m| first_line(m).as_deref() == Some(head.as_str()))
    {
        for m in messages.iter_mut().skip(1) {
            *m = m[head.len() + 1..].to_string();
        }
    }
    out.message = Some(messages.concat());
    out.summary = Some(Summary { total: None, returned: None, has_more: Some(has_more) });
    if !complete {
        out.status = Some(Status::Partial);
    }
    let meta = out.metadata.get_or_insert_with(Map::new);
    if complete {
        forget_first_page_position(meta);
    }
    let mut pager = json!({"pages": page_count, "complete": complete});
    if !notes.is_empty() {
        pager["notes"] = json!(notes);
    }
    meta.insert("pager".into(), pager);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::normalize;
    use crate::mcp::ReplyBody;

    fn env(result: Value) -> Envelope {
        normalize("t", None, &ReplyBody::Result(result))
    }

    #[test]
    fn a_sql_write_answered_in_prose_is_an_action() {
        let args = |sql: &str| json!({"sql": sql}).as_object().cloned().unwrap_or_default();
        let mut e = env(json!({"content": [{"type": "text", "text": "OK"}]}));
        infer_from_request(&mut e, None, &args("delete from users where id = 3"));
        assert_eq!(e.response_type, ResponseType::Action);
        let mut e = env(json!({"content": [{"type": "text", "text": "Nothing found"}]}));
        infer_from_request(&mut e, None, &args("update policy for travel"));
        assert_eq!(e.response_type, ResponseType::Single);
    }

    #[test]
    fn more_without_a_position_is_placed_by_the_request() {
        let schema = json!({"properties": {"q": {"type": "string"}, "page": {"type": "integer"}, "per_page": {"type": "integer"}}});
        let args = json!({"q": "x", "per_page": 2}).as_object().cloned().unwrap_or_default();
        let mut first = env(json!({"structuredContent": {"items": [{"id": 1}, {"id": 2}], "more": true}}));
        infer_from_request(&mut first, Some(&schema), &args);
        let (next, _) = next_arguments(Some(&schema), &args, &first).ok().flatten().unwrap_or_default();
        assert_eq!(Value::Object(next), json!({"q": "x", "per_page": 2, "page": 2}));
    }

    #[test]
    fn an_offset_inside_an_object_argument_pages_it() {
        // OpenSearch-style: an options object with offset and limit, the total in structuredContent.
        let schema = json!({"properties": {"index": {"type": "string"}, "options": {"type": "object"}}});
        let args = json!({"index": "books", "options": {"skip": 0, "limit": 2, "sort": "title"}});
        let args = args.as_object().cloned().unwrap_or_default();
        let mut first = env(json!({"structuredContent": {"books": [{"id": 1}, {"id": 2}], "total": 5}}));
        infer_from_request(&mut first, Some(&schema), &args);
        let p = first.pagination.clone().unwrap_or_default();
        assert_eq!((p.argument.as_deref(), p.has_more), (Some("/options/skip"), Some(true)));
        let (next, _) = next_arguments(Some(&schema), &args, &first).ok().flatten().unwrap_or_default();
        assert_eq!(Value::Object(next), json!({"index": "books", "options": {"skip": 2, "limit": 2, "sort": "title"}}));
        // A string `index` is a name, not a position.
        assert_eq!(position_argument(Some(&schema), PageKind::Offset, &args), None);
    }

    #[test]
    fn finds_the_position_argument_by_name_and_type() {
        let schema = json!({"properties": {"channel_id": {"type": "string"}, "offset": {"type": "integer"}, "limit": {"type": "integer"}}});
        let first = env(
            json!({"structuredContent": {"items": [{"id": 1}, {"id": 2}], "offset": 0, "nextOffset": "2", "hasMore": true}}),
        );
        let args = json!({"channel_id": "c", "limit": 2}).as_object().cloned().unwrap_or_default();
        let (next, _) = next_arguments(Some(&schema), &args, &first).ok().flatten().unwrap_or_default();
        assert_eq!(Value::Object(next), json!({"channel_id": "c", "limit": 2, "offset": 2}));

        let schema = json!({"properties": {"after": {"type": "string"}, "first": {"type": "integer"}}});
        let first = env(
            json!({"structuredContent": {"nodes": [{"id": 1}], "pageInfo": {"hasNextPage": true, "endCursor": "X"}}}),
        );
        let (next, _) = next_arguments(Some(&schema), &Map::new(), &first).ok().flatten().unwrap_or_default();
        assert_eq!(Value::Object(next), json!({"after": "X"}));

        let schema = json!({"properties": {"q": {"type": "string"}}});
        assert!(next_arguments(Some(&schema), &Map::new(), &first).is_err());
    }

    #[test]
    fn stand_ins_are_not_kept_beyond_the_process() {
        let stand_in = crate::mcp::wire::exact_literal("123456789012345678901");
        let args = json!({"offset": stand_in, "q": "x", "opts": {"from": stand_in, "ids": [[stand_in]]}});
        let kept = without_stand_ins(&args);
        let literal = "123456789012345678901";
        assert_eq!(kept, json!({"offset": literal, "q": "x", "opts": {"from": literal, "ids": [[literal]]}}));
    }

    #[test]
    fn a_page_number_goes_to_a_tool_that_takes_an_offset() {
        let body = json!({"status": "success", "total": 5, "page": 1, "perpage": 2, "links": {"k0": {"shorturl": "https://s/k0"}, "k1": {"shorturl": "https://s/k1"}}, "results": []});
        let e = env(json!({"content": [{"type": "text", "text": body.to_string()}]}));
        let schema = json!({"properties": {"offset": {"type": "number"}, "perpage": {"type": "number"}}});
        let args: Map<String, Value> = [("perpage".to_string(), json!(2))].into_iter().collect();
        let next = next_arguments(Some(&schema), &args, &e).ok().flatten().map(|(a, _)| Value::Object(a));
        assert_eq!(next, Some(json!({"perpage": 2, "offset": 2})));
    }

    #[test]
    fn a_merged_total_is_never_one_pages_count() {
        assert_eq!(merged_total(&[None, Some(7)], 27, true), Some(27));
        assert_eq!(merged_total(&[Some(10), Some(7)], 17, false), None);
        assert_eq!(merged_total(&[Some(90), Some(90)], 40, false), Some(90));
        assert_eq!(merged_total(&[None, None], 40, false), None);
        // Read from an offset to the end: the stated total, not the count from there.
        assert_eq!(merged_total(&[Some(150), Some(150)], 130, true), Some(150));
    }

    #[test]
    fn merge_keeps_every_item_once() {
        let a = env(
            json!({"structuredContent": {"items": [{"id": 1}, {"id": 2}], "offset": 0, "hasMore": true, "total": 3}}),
        );
        let b = env(
            json!({"structuredContent": {"items": [{"id": 2}, {"id": 3}], "offset": 2, "hasMore": false, "total": 3}}),
        );
        let m = merge(vec![a, b], vec![], true);
        assert_eq!(m.data, json!([{"id": 1}, {"id": 2}, {"id": 3}]));
        assert_eq!(m.summary.map(|s| (s.returned, s.total, s.has_more)), Some((Some(3), Some(3), Some(false))));
        assert_eq!(m.metadata.map(|x| x["pager"]["duplicatesDropped"].clone()), Some(json!(1)));
    }

    /// yoda-digital/mcp-gitlab-server's list_issues: "Found N issues" (the API's X-Total) in one
    /// block, this page's issues as JSON in the next; paged by `page`/`per_page` to the end.
    #[test]
    fn found_n_beside_a_page_pages_to_the_end_with_its_total() {
        let all: Vec<u64> = (1..=5).rev().collect();
        let page_of = |args: &Map<String, Value>| {
            let page = args.get("page").and_then(Value::as_u64).unwrap_or(1) as usize;
            let items: Vec<Value> = all.iter().skip((page - 1) * 2).take(2).map(|i| json!({"iid": i})).collect();
            let blocks = json!([{"type": "text", "text": "Found 5 issues"}, {"type": "text", "text": Value::Array(items).to_string()}]);
            normalize("list_issues", None, &ReplyBody::Result(json!({"content": blocks})))
        };
        let schema = json!({"properties": {"project_id": {"type": "string"}, "page": {"type": "number"}, "per_page": {"type": "number"}}});
        let mut args = json!({"project_id": "acme/w", "per_page": 2}).as_object().cloned().unwrap_or_default();
        let mut pages = vec![];
        for _ in 0..10 {
            let mut e = page_of(&args);
            infer_from_request(&mut e, Some(&schema), &args);
            let next = next_arguments(Some(&schema), &args, &e).ok().flatten();
            pages.push(e);
            match next {
                Some((n, _)) => args = n,
                None => break,
            }
        }
        assert_eq!(pages.len(), 3);
        let m = merge(pages, vec![], true);
        let ids: Vec<u64> = (0..m.data.item_count()).filter_map(|i| m.data.item(i)?["iid"].as_u64()).collect();
        assert_eq!(ids, all, "every issue exactly once");
        assert_eq!(m.summary.map(|s| (s.returned, s.total, s.has_more)), Some((Some(5), Some(5), Some(false))));
    }
}
