//! Listing resources, resource templates and prompts: every page, each descriptor as sent.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::descriptor::{Descriptor, ItemKind, Listing};
use super::log::LogKind;
use super::rpc::RpcError;
use super::session::{CallOptions, Session};
use crate::error::{LensError, Result};

/// One page of a list result; the items stay raw text until looked at. Each kind's array has its
/// own member; the one the kind names is taken.
#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow, default)]
    resources: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default, rename = "resourceTemplates")]
    templates: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    prompts: Option<Vec<&'a RawValue>>,
    #[serde(rename = "nextCursor", default)]
    next_cursor: Option<Value>,
    /// The 2026-07-28 era's cache hint.
    #[serde(rename = "ttlMs", default)]
    ttl: Option<Value>,
    #[serde(rename = "cacheScope", default)]
    scope: Option<Value>,
}

impl<'a> Page<'a> {
    /// The page's cache hint, as one line (see `era::cache_hint`).
    fn cache_hint(&self) -> Option<String> {
        let mut hint = serde_json::Map::new();
        for (key, value) in [("ttlMs", &self.ttl), ("cacheScope", &self.scope)] {
            if let Some(v) = value {
                hint.insert(key.into(), v.clone());
            }
        }
        super::era::cache_hint(&Value::Object(hint))
    }

    fn take_items(&mut self, kind: ItemKind) -> Option<Vec<&'a RawValue>> {
        match kind {
            ItemKind::Resource => self.resources.take(),
            ItemKind::Template => self.templates.take(),
            ItemKind::Prompt => self.prompts.take(),
        }
    }
}

impl Session {
    /// Every resource, following `nextCursor` to the end.
    pub async fn list_resources(&self) -> Result<Listing> {
        self.list_all(ItemKind::Resource).await
    }

    /// Every resource template, following `nextCursor` to the end.
    pub async fn list_resource_templates(&self) -> Result<Listing> {
        self.list_all(ItemKind::Template).await
    }

    /// Every prompt, following `nextCursor` to the end.
    pub async fn list_prompts(&self) -> Result<Listing> {
        self.list_all(ItemKind::Prompt).await
    }

    /// Every item of `kind`; a repeated cursor or the page limit stops the walk with a warning.
    /// A server that does not declare the kind's capability is not asked (the protocol: a client
    /// calls only the methods of the capabilities a server declares): it offers none.
    pub async fn list_all(&self, kind: ItemKind) -> Result<Listing> {
        let method = kind.method();
        let mut list = Listing::new(kind);
        if !self.server.declares(&[kind.capability()]) {
            list.not_offered = Some(format!("it declares no {} capability", kind.capability()));
            return Ok(list);
        }
        let mut seen = HashSet::new();
        // A cursor is sent back exactly as it came, whatever its JSON type.
        let mut cursor: Option<Value> = None;
        loop {
            let params = cursor.as_ref().map(|c| Value::Object(Map::from_iter([("cursor".to_string(), c.clone())])));
            let what = format!("{method} (page {})", list.pages + 1);
            let (raw, _) = self.send_raw(method, params, &what, &CallOptions::default()).await?;
            list.pages += 1;
            let mut page = match read_page(&raw, kind) {
                Ok(Ok(page)) => page,
                Ok(Err(err)) if list.pages == 1 && err.is_method_not_found() => {
                    // A server without resources or prompts says so with "method not found":
                    // that is none of them, not a broken connection.
                    // Said as a warning too: the server declared the capability.
                    list.not_offered = Some(format!("it answered {}", err.summary()));
                    self.note(&mut list, format!("the server does not offer {} ({})", kind.plural(), err.summary()));
                    return Ok(list);
                }
                Ok(Err(err)) => {
                    return Err(LensError::connection(format!("{what}: the server answered {}", err.summary())));
                }
                Err(e) => return Err(LensError::connection(format!("{what}: {e}"))),
            };
            if list.pages == 1 {
                list.cache = page.cache_hint();
            }
            let Some(items) = page.take_items(kind) else {
                return Err(LensError::connection(format!("{what}: the result has no \"{}\" array", kind.key())));
            };
            for raw in items {
                let item = Descriptor::from_raw(kind, raw, self.options().max_depth);
                if let Some(problem) = item.problem() {
                    let label = crate::sanitize::line(item.label()).into_owned();
                    let msg = format!("{} #{} ({label}): {problem}", kind.noun(), list.items.len() + 1);
                    self.note(&mut list, msg);
                }
                list.items.push(item);
            }
            cursor = match page.next_cursor {
                None | Some(Value::Null) => break,
                Some(Value::String(s)) if s.is_empty() => break,
                Some(c @ Value::String(_)) => Some(c),
                Some(other) => {
                    self.note(&mut list, format!("{what}: nextCursor is not a string ({other}); sent back as it came"));
                    Some(other)
                }
            };
            if let Some(c) = &cursor
                && !seen.insert(c.to_string())
            {
                let msg = format!("{method} repeated the cursor {c}; stopped after {} pages", list.pages);
                self.note(&mut list, msg);
                break;
            }
            if list.pages >= self.options().max_list_pages {
                let msg = format!("{method} stopped after {} pages (the page limit)", list.pages);
                self.note(&mut list, msg);
                break;
            }
        }
        Ok(list)
    }

    fn note(&self, list: &mut Listing, msg: String) {
        self.log().push(LogKind::Warning, &msg);
        list.warnings.push(msg);
    }
}

/// A list reply's page, or the server's error. One parse; each item keeps its exact bytes.
fn read_page(raw: &str, kind: ItemKind) -> std::result::Result<std::result::Result<Page<'_>, RpcError>, String> {
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
        #[serde(default)]
        error: Option<Value>,
    }
    let message: Message =
        crate::json_depth::parse_borrowed(raw).map_err(|e| format!("the reply cannot be read: {e}"))?;
    if let Some(err) = &message.error {
        return Ok(Err(RpcError::from_value(err)));
    }
    let Some(result) = message.result else {
        return Err("the server's reply has neither result nor error".into());
    };
    let page: Page = crate::json_depth::parse_borrowed(result.get())
        .map_err(|e| format!("the result is not a {} result: {e}", kind.method()))?;
    Ok(Ok(page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_read_by_kind() {
        let raw = r#"{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[{"name":"a", "uriTemplate":"x://{y}"}],"nextCursor":"2"}}"#;
        let Ok(Ok(mut page)) = read_page(raw, ItemKind::Template) else { panic!("not read") };
        assert_eq!(
            page.take_items(ItemKind::Template).map(|i| i[0].get().to_string()).as_deref(),
            Some(r#"{"name":"a", "uriTemplate":"x://{y}"}"#)
        );
        assert_eq!(page.next_cursor, Some(Value::String("2".into())));
        let Ok(Ok(mut page)) = read_page(raw, ItemKind::Prompt) else { panic!("not read") };
        assert!(page.take_items(ItemKind::Prompt).is_none());
        let err = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
        assert!(matches!(read_page(err, ItemKind::Prompt), Ok(Err(e)) if e.is_method_not_found()));
        assert!(read_page(r#"{"jsonrpc":"2.0","id":1,"result":{"prompts":{}}}"#, ItemKind::Prompt).is_err());
        // An escaped key is still the key.
        let raw = r#"{"jsonrpc":"2.0","id":1,"result":{"pro\u006dpts":[{"name":"p"}]}}"#;
        let Ok(Ok(mut page)) = read_page(raw, ItemKind::Prompt) else { panic!("not read") };
        assert_eq!(page.take_items(ItemKind::Prompt).map(|i| i.len()), Some(1));
    }
}
