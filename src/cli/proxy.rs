//! `mcplens proxy`: put in a host's config in place of a server. The host's session passes byte
//! for byte (as `record`'s does), optionally recorded, and is served live to watchers
//! (`mcplens watch`) through a control socket, where breakpoints can hold its messages.

use std::path::Path;

use super::record::{self, Recorder};
use super::{TargetArgs, err_line};
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
    // The host's session matters more than watching it: without a socket it still goes through.
    let socket = match control::open(hub.clone()) {
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
    };
    let rec = Recorder::new(file, Some(hub), secrets);
    let code = match t {
        Target::Stdio(server) => {
            if listen.is_some() {
                return Err(LensError::usage("--listen is for --url (a stdio server is proxied on stdio)"));
            }
            record::proxy_stdio(&server, rec, target.max_message_mb).await
        }
        Target::Http(server) => super::proxy_http::serve(&server, listen.unwrap_or("127.0.0.1:0"), rec).await,
    };
    drop(socket);
    code
}
