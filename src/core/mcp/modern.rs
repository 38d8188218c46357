//! What a session does differently in the modern era (2026-07-28), and the one thing roots do in
//! both:
//! - the log level is not set once (`logging/setLevel` is gone) but asked for on every request
//!   (`_meta["io.modelcontextprotocol/logLevel"]`);
//! - change notifications (tools, prompts, resources listed, a resource updated) come only on a
//!   `subscriptions/listen` request the client keeps open: one is opened at connect for what the
//!   server says can change, and opened again with a resource URI added when the user subscribes
//!   (`resources/subscribe` is gone too);
//! - the roots offered can change; the legacy era tells the server with
//!   `notifications/roots/list_changed`, the modern era's servers ask for them again in their
//!   next `input_required`.
//!
//! rmcp adds the protocol version, client info and capabilities to every request's `_meta`, and
//! the `Mcp-Method` / `Mcp-Name` headers over HTTP.

#![allow(deprecated)] // logging is deprecated in 2026-07-28 (SEP-2577) but its _meta level is live

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use rmcp::model::{
    ClientNotification, LoggingLevel, RequestMetaObject, RootsListChangedNotification, SubscriptionFilter,
};
use rmcp::service::PeerRequestOptions;
use serde_json::Value;

use super::asks::Root;
use super::era::Era;
use super::log::{Level, LogKind};
use super::session::Session;

/// The modern era's per-session state.
#[derive(Default)]
pub struct ModernState {
    log_level: Mutex<Option<Level>>,
    listening: Mutex<Option<Listening>>,
}

/// The open `subscriptions/listen`: what it asked for, and the task that holds it open (its
/// notifications reach the user through the wire tap's events).
struct Listening {
    lists: Lists,
    uris: BTreeSet<String>,
    holder: tokio::task::JoinHandle<()>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        // Dropping rmcp's subscription cancels the request on the wire.
        self.holder.abort();
    }
}

/// Which list changes to hear of.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Lists {
    tools: bool,
    prompts: bool,
    resources: bool,
}

/// How long to wait for a server to acknowledge `subscriptions/listen`.
const ACK_WAIT: Duration = Duration::from_secs(10);

impl Session {
    /// The options every request goes out with: in the modern era the log level the user asked
    /// for, in `_meta`.
    pub(crate) fn request_options(&self) -> PeerRequestOptions {
        let mut opts = PeerRequestOptions::no_options();
        if self.era() != Era::Modern {
            return opts;
        }
        let level = *self.modern.log_level.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(level) = level.and_then(|l| serde_json::from_value::<LoggingLevel>(Value::from(l.label())).ok()) {
            let mut meta = RequestMetaObject::default();
            meta.set_log_level(level);
            opts.meta = Some(meta);
        }
        opts
    }

    /// The modern era's `--log-level`: kept and sent with every request from now on.
    pub(crate) fn set_modern_log_level(&self, level: Level) {
        *self.modern.log_level.lock().unwrap_or_else(|e| e.into_inner()) = Some(level);
        self.log().push(
            LogKind::Info,
            &format!("log level {}: sent in each request's _meta (2026-07-28 has no logging/setLevel)", level.label()),
        );
    }

    /// Opens `subscriptions/listen` for the lists the server says can change. A server that
    /// refuses it, or never acknowledges it, leaves a warning, not a failed connection.
    pub(crate) async fn listen_at_start(&mut self) {
        let caps = self.server.result.get("capabilities");
        let changes = |k: &str| {
            caps.and_then(|c| c.get(k)).and_then(|c| c.get("listChanged")).and_then(Value::as_bool) == Some(true)
        };
        let lists = Lists { tools: changes("tools"), prompts: changes("prompts"), resources: changes("resources") };
        if lists == Lists::default() {
            return;
        }
        if let Err(why) = self.listen(lists, BTreeSet::new()).await {
            let msg = format!("subscriptions/listen: {why}; list changes will not be heard of");
            self.log().push(LogKind::Warning, &msg);
            self.setup_warnings.push(msg);
        }
    }

    /// (Re)opens the one `subscriptions/listen` with these lists and resource URIs; the old one
    /// is cancelled once the new one is acknowledged.
    async fn listen(&self, lists: Lists, uris: BTreeSet<String>) -> std::result::Result<(), String> {
        let mut filter = SubscriptionFilter::new();
        filter.tools_list_changed = lists.tools.then_some(true);
        filter.prompts_list_changed = lists.prompts.then_some(true);
        filter.resources_list_changed = lists.resources.then_some(true);
        if !uris.is_empty() {
            filter.resource_subscriptions = Some(uris.iter().cloned().collect());
        }
        let peer = self.service.peer().clone();
        let mut subscription = match tokio::time::timeout(ACK_WAIT, peer.listen(filter)).await {
            Err(_) => return Err(format!("not acknowledged within {}s", ACK_WAIT.as_secs())),
            Ok(Err(e)) => return Err(self.log().redactor().redact(&e.to_string()).into_owned()),
            Ok(Ok(s)) => s,
        };
        let log = self.log().clone();
        let holder = tokio::spawn(async move {
            // Drained so rmcp's buffer never fills; the tap has already shown each one.
            while let Ok(Some(_)) = subscription.next().await {}
            if let Some(end) = subscription.end() {
                log.push(LogKind::Info, &format!("subscriptions/listen ended: {end:?}"));
            }
        });
        let old =
            self.modern.listening.lock().unwrap_or_else(|e| e.into_inner()).replace(Listening { lists, uris, holder });
        drop(old);
        Ok(())
    }

    /// The modern era's resource subscription: the URI added to (or taken from) the listen.
    pub(crate) async fn listen_resource(&self, uri: &str, on: bool) -> std::result::Result<(), String> {
        let (lists, mut uris) = {
            let l = self.modern.listening.lock().unwrap_or_else(|e| e.into_inner());
            l.as_ref().map(|l| (l.lists, l.uris.clone())).unwrap_or_default()
        };
        let changed = if on { uris.insert(uri.to_string()) } else { uris.remove(uri) };
        if !changed {
            return Ok(());
        }
        if lists == Lists::default() && uris.is_empty() {
            self.modern.listening.lock().unwrap_or_else(|e| e.into_inner()).take();
            return Ok(());
        }
        self.listen(lists, uris).await
    }

    /// Changes the roots offered. The legacy era's server is told
    /// (`notifications/roots/list_changed`) when it was offered roots at connect; the modern
    /// era's asks for them in its next `input_required`.
    pub async fn set_roots(&self, roots: Vec<Root>) -> std::result::Result<(), String> {
        let offered = !self.options().roots.is_empty();
        *self.roots.write().unwrap_or_else(|e| e.into_inner()) = roots;
        if self.era() == Era::Modern {
            self.log().push(LogKind::Info, "roots changed: the server reads them when it next asks");
            return Ok(());
        }
        if !offered {
            return Err("the server was not offered roots when it connected (--root): it will not ask".into());
        }
        let note = ClientNotification::RootsListChangedNotification(RootsListChangedNotification {
            method: Default::default(),
            extensions: Default::default(),
        });
        self.service.peer().send_notification(note).await.map_err(|e| e.to_string())
    }
}
