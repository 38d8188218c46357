//! mcplens as an MCP client: how it introduces itself, and how it answers what the server asks
//! (elicitation, sampling, roots) by handing each request to the user through an [`AskDesk`].

#![allow(deprecated)] // sampling and roots are deprecated in 2026-07-28 but live in most servers

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorCode, FormElicitationCapability, ListRootsResult,
    RequestId, Role, RootsCapabilities, SamplingCapability, SamplingMessage, UrlElicitationCapability,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient};
use serde_json::Value;

use super::asks::{Answer, AskDesk, Root, ServerAsk};
use super::era::Protocol;
use super::log::LogKind;
use super::wire::{ServerEvent, WireTap, id_key};

/// How mcplens introduces itself, and who answers the server's requests.
#[derive(Clone)]
pub struct LensClient {
    info: ClientConfig,
    tap: Arc<WireTap>,
    desk: Option<AskDesk>,
    /// Shared with the session, which can change them (`Session::set_roots`).
    roots: Arc<std::sync::RwLock<Vec<Root>>>,
    /// `--max-depth`, for reading the server's requests.
    max_depth: usize,
    waiting: Arc<Waiting>,
}

/// The most server requests (elicitation, sampling) waiting on the user at once. A person answers
/// one at a time; a burst of 20,000 queued would each be read, held and shown in turn, and keep
/// the session (and Ctrl-C) busy for many seconds. The excess is refused at once, and said.
pub const MAX_WAITING_ASKS: usize = 16;

/// How many requests wait on the user now, and how many were refused.
#[derive(Default)]
struct Waiting {
    now: AtomicUsize,
    refused: AtomicUsize,
}

/// A place in the queue, given back when the request is answered.
struct Place(Arc<Waiting>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Waiting {
    fn enter(self: &Arc<Self>) -> Option<Place> {
        let add = |n: usize| (n < MAX_WAITING_ASKS).then_some(n + 1);
        self.now.fetch_update(Ordering::SeqCst, Ordering::SeqCst, add).ok()?;
        Some(Place(self.clone()))
    }
}

impl LensClient {
    pub fn new(
        tap: Arc<WireTap>,
        desk: Option<AskDesk>,
        roots: Arc<std::sync::RwLock<Vec<Root>>>,
        protocol: Protocol,
        max_depth: usize,
    ) -> Self {
        let mut info = ClientConfig::default();
        info.client_info.name = "mcplens".into();
        info.client_info.version = env!("CARGO_PKG_VERSION").into();
        info.client_info.title = Some("mcplens".into());
        // The initialize handshake belongs to the legacy era: it offers the newest version that
        // still has one (2026-07-28 replaced it with per-request _meta), not rmcp's LATEST, or
        // the one `--protocol` names.
        info.protocol_version = match protocol {
            Protocol::Legacy(v) => super::era::legacy_version(v),
            _ => rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE,
        };
        let offered = !roots.read().unwrap_or_else(|e| e.into_inner()).is_empty();
        info.capabilities = capabilities(offered);
        LensClient { info, tap, desk, roots, max_depth, waiting: Arc::default() }
    }

    /// Hands the request `id` to the user and waits for the answer. No one to ask, or a
    /// request the server withdrew, is a decline.
    async fn ask(&self, id: &RequestId, cx: &RequestContext<RoleClient>) -> Result<Answer, ErrorData> {
        let key = id_key(&serde_json::to_string(id).unwrap_or_default());
        let raw = self.tap.take_ask(&key).ok_or_else(|| internal("the request was not captured on the wire"))?;
        let Some(_place) = self.waiting.enter() else {
            drop(raw);
            return Err(self.refuse());
        };
        let (ask, rx) = ServerAsk::new(key, raw, self.max_depth).map_err(|why| {
            let msg = format!("a request of the server's could not be read: {why}");
            self.tap.log().push(LogKind::Warning, &msg);
            internal(&msg)
        })?;
        let (log, method) = (self.tap.log(), ask.method());
        if !self.desk.as_ref().is_some_and(|desk| desk.send(ask)) {
            log.push(LogKind::Warning, &format!("{method}: declined (nothing here can answer it)"));
            return Ok(Answer::Decline);
        }
        self.tap.emit(ServerEvent::Asking(true));
        let answer = tokio::select! {
            a = rx => a.unwrap_or(Answer::Cancel),
            _ = cx.ct.cancelled() => {
                log.push(LogKind::Info, &format!("{method}: the server withdrew it"));
                Answer::Cancel
            }
        };
        self.tap.emit(ServerEvent::Asking(false));
        log.push(LogKind::Info, &format!("{method}: {}", answer_word(&answer)));
        Ok(answer)
    }
}

impl LensClient {
    /// The error for a request over [`MAX_WAITING_ASKS`]; the log says so at the 1st, 2nd, 4th,
    /// 8th... refusal (a flood is not echoed line for line).
    fn refuse(&self) -> ErrorData {
        let n = self.waiting.refused.fetch_add(1, Ordering::SeqCst) + 1;
        let why = format!("{MAX_WAITING_ASKS} requests already wait for the user's answer");
        if n.is_power_of_two() {
            let msg = format!("the server's requests: {n} refused so far ({why})");
            self.tap.log().push(LogKind::Warning, &msg);
        }
        internal(&format!("mcplens refused the request: {why}"))
    }
}

fn capabilities(roots: bool) -> ClientCapabilities {
    let mut c = ClientCapabilities::default();
    let mut elicitation = ElicitationCapability::default();
    elicitation.form = Some(FormElicitationCapability::default());
    elicitation.url = Some(UrlElicitationCapability::new());
    c.elicitation = Some(elicitation);
    c.sampling = Some(SamplingCapability::default());
    // The tasks extension (SEP-2663): a modern server makes a task only for a client that
    // declares it.
    let mut ext = rmcp::model::ExtensionCapabilities::new();
    ext.insert(rmcp::model::TASKS_EXTENSION_ID.to_string(), serde_json::Map::new());
    // MCP Apps (SEP-1865, Capability Negotiation): servers list their app tools and views only
    // to a client that declares it; `mcplens app` renders them.
    let mut ui = serde_json::Map::new();
    ui.insert("mimeTypes".into(), serde_json::json!([crate::apps::MIME]));
    ext.insert(crate::apps::EXTENSION.to_string(), ui);
    c.extensions = Some(ext);
    if roots {
        let mut r = RootsCapabilities::default();
        r.list_changed = Some(true);
        c.roots = Some(r);
    }
    c
}

fn internal(msg: &str) -> ErrorData {
    ErrorData::internal_error(msg.to_string(), None)
}

fn answer_word(a: &Answer) -> &'static str {
    match a {
        Answer::Accept(_) => "accepted",
        Answer::Decline => "declined",
        Answer::Cancel => "cancelled",
        Answer::Reply { .. } => "answered",
    }
}

impl ClientHandler for LensClient {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let url_mode = matches!(request, ElicitRequestParams::UrlElicitationParams { .. });
        Ok(match self.ask(&cx.id.clone(), &cx).await? {
            Answer::Accept(content) if url_mode && content.is_empty() => ElicitResult::new(ElicitationAction::Accept),
            Answer::Accept(content) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
            }
            Answer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
            Answer::Decline | Answer::Reply { .. } => ElicitResult::new(ElicitationAction::Decline),
        })
    }

    async fn create_message(
        &self,
        _request: CreateMessageRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match self.ask(&cx.id.clone(), &cx).await? {
            Answer::Reply { text, model } => {
                let mut r = CreateMessageResult::new(SamplingMessage::new(Role::Assistant, text_block(text)), model);
                r.stop_reason = Some("endTurn".into());
                Ok(r)
            }
            // The spec's code for a sampling request the user rejected.
            _ => Err(ErrorData::new(ErrorCode(-1), "the user declined the sampling request", None)),
        }
    }

    async fn list_roots(&self, _cx: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        let roots = self
            .roots
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|r| {
                let mut root = rmcp::model::Root::new(r.uri.clone());
                root.name = Some(r.name.clone());
                root
            })
            .collect();
        Ok(ListRootsResult::new(roots))
    }
}

fn text_block(text: String) -> rmcp::model::SamplingMessageContentBlock {
    rmcp::model::SamplingMessageContentBlock::text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_past_the_queue_bound_find_no_place_until_one_is_answered() {
        let waiting = Arc::new(Waiting::default());
        let mut places: Vec<Place> = (0..MAX_WAITING_ASKS).filter_map(|_| waiting.enter()).collect();
        assert_eq!(places.len(), MAX_WAITING_ASKS);
        assert!(waiting.enter().is_none());
        places.pop();
        let again = waiting.enter();
        assert!(again.is_some());
        assert!(waiting.enter().is_none());
    }
}
