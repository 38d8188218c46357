//! `mcplens proxy`: put in a host's config in place of a server. The host's session passes byte
//! for byte (as `record`'s does), optionally recorded, and is served live to watchers
//! (`mcplens watch`) through a control socket, where breakpoints can hold its messages.

use std::path::Path;
use std::sync::Arc;

use super::record::{self, Recorder};
use super::{TargetArgs, err_line, proxy_http};
use crate::error::{LensError, Result};
use crate::mcp::Target;
use crate::mcp::log::Redactor;
use crate::proxy::{Hub, control};
use crate::sanitize;

/// `mcplens proxy [-o FILE] -- <server>` or `mcplens proxy --url URL [--listen ADDR]`
pub async fn proxy(output: Option<&Path>, listen: Option<&str>, target: &TargetArgs) -> Result<i32> {
    let t = target.target()?;
    let secrets = t.secrets();
    let file = output.map(record::create).transpose()?;
    let hub = Hub::new(t.label(), Redactor::new(secrets.clone()));
    let rec = Recorder::new(file, Some(hub.clone()), secrets);
    // The server is started (or the host's port bound) before the proxy says how to watch it:
    // one that cannot be is said alone, as other commands say it.
    match t {
        Target::Stdio(server) => {
            if listen.is_some() {
                return Err(LensError::usage("--listen is for --url (a stdio server is proxied on stdio)"));
            }
            let child = record::start(&server)?;
            let _socket = watchable(hub);
            record::proxy_stdio(child, rec, target.max_message_mb).await
        }
        Target::Http(server) => {
            let bound = proxy_http::bind(&server, listen.unwrap_or("127.0.0.1:0")).await?;
            let _socket = watchable(hub);
            proxy_http::serve(bound, &server, rec).await
        }
    }
}

/// Opens the control socket and says how to watch; its file goes when the socket is dropped.
/// The host's session matters more than watching it: without a socket it still goes through.
fn watchable(hub: Arc<Hub>) -> Option<control::Socket> {
    match control::open(hub) {
        Ok(s) => {
            err_line(&format!("mcplens proxy: watch it with `mcplens watch {}`", std::process::id()));
            Some(s)
        }
        Err(e) => {
            err_line(&format!(
                "mcplens proxy: no control socket, nobody can watch: {}",
                sanitize::line(&e.to_string())
            ));
            None
        }
    }
}
