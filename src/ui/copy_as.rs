//! The App's side of `Y`: the forms of a call built from the target the TUI was started on, for
//! the overlay in `components::copy_as`.

use serde_json::Value;

use super::app::App;
use super::components::copy_as::{Choice, CopyAs};
use crate::cli::as_command::{self, Form, Spec};

pub use crate::cli::as_command::CopySource;

impl App {
    /// Opens the overlay for `tool` called with `arguments`.
    pub(super) fn copy_as(&mut self, tool: &str, arguments: &Value) {
        let (Some(source), Some(server)) = (&self.copy_source, &self.server) else {
            self.notice = Some(("not connected yet: nothing to copy a call against".into(), false));
            return;
        };
        let spec = Spec {
            target: &source.args,
            tool,
            arguments: arguments.as_object(),
            era: server.era,
            version: server.protocol_version(),
        };
        let forms = [
            ("an mcplens call command", Form::Command),
            ("a curl request", Form::Curl),
            ("the JSON-RPC message", Form::Message),
        ];
        // A curl request needs a URL: a server started as a command is not offered one.
        let http = source.args.url.is_some();
        let choices = forms
            .into_iter()
            .filter(|(_, form)| http || !matches!(form, Form::Curl))
            .map(|(name, form)| Choice { name, text: as_command::render(&spec, form, false, source.secrets.clone()) })
            .collect();
        self.panes.overlays.push(Box::new(CopyAs::new(tool.to_string(), choices)));
    }

    /// `Y` on the result pane: the call on screen.
    pub(super) fn copy_shown_call(&mut self) {
        let Some((tool, arguments)) = self.result().map(|r| (r.call.tool.clone(), r.call.arguments.clone())) else {
            self.notice = Some(("no result yet: run a tool first".into(), false));
            return;
        };
        self.copy_as(&tool, &arguments);
    }
}
