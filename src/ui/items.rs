//! The app's handling of what the server said about resources, prompts, completions, its log
//! level and pings: the panes and overlays hear of it, the status line says it.

use super::app::App;
use super::component::Observed;
use super::components::prompt_view::PromptView;
use super::components::read::ReadView;
use super::msg::{Cmd, SessionMsg};
use crate::sanitize;

impl App {
    pub(super) fn item_session(&mut self, s: SessionMsg) -> Vec<Cmd> {
        match s {
            SessionMsg::Listed { kind, list } => {
                if let Err(e) = &list {
                    self.notice = Some((format!("{} could not be listed: {e}", kind.plural()), true));
                }
                return self.observe(&Observed::Listed { kind, list: &list });
            }
            SessionMsg::ListChanged(what) => self.notice = Some((what, false)),
            SessionMsg::ResourceRead(done) if done.refresh => return self.observe(&Observed::Reread(&done)),
            SessionMsg::ResourceRead(done) => {
                self.notice = match &done.outcome {
                    Err(e) => Some((format!("resources/read {}: {e}", sanitize::line(&done.uri)), true)),
                    Ok(_) => None,
                };
                self.panes.overlays.push(Box::new(ReadView::from_read(&done, &self.theme)));
            }
            SessionMsg::Subscribed { uri, on, error } => {
                let uri_shown = sanitize::line(&uri).into_owned();
                if let Some(e) = error {
                    let verb = if on { "subscribe" } else { "unsubscribe" };
                    self.notice = Some((format!("resources/{verb} {uri_shown}: {e}"), true));
                    return vec![];
                }
                self.notice = Some((
                    if on {
                        format!("subscribed to {uri_shown}: its updates will show here")
                    } else {
                        format!("unsubscribed from {uri_shown}")
                    },
                    false,
                ));
                return self.observe(&Observed::Subscribed { uri: &uri, on });
            }
            SessionMsg::ResourceUpdated(uri) => {
                self.notice = Some((
                    format!("✱ the server updated {} (notifications/resources/updated)", sanitize::line(&uri)),
                    false,
                ));
                return self.observe(&Observed::Updated(&uri));
            }
            SessionMsg::Completed(done) => return self.observe(&Observed::Completed(&done)),
            SessionMsg::PromptGot(done) => {
                self.notice = match &done.outcome {
                    Err(e) => Some((format!("prompts/get {}: {e}", sanitize::line(&done.name)), true)),
                    Ok(_) => None,
                };
                self.panes.overlays.push(Box::new(PromptView::new(&done, &self.theme)));
            }
            SessionMsg::LevelSet { level, error } => {
                self.notice = Some(match error {
                    None => {
                        self.server_level = Some(level);
                        (
                            format!(
                                "the server now sends log messages at {} and above (logging/setLevel)",
                                level.label()
                            ),
                            false,
                        )
                    }
                    Some(e) => (format!("logging/setLevel {}: {e}", level.label()), true),
                });
            }
            SessionMsg::Answered { text, error } => self.notice = Some((text, error)),
            _ => {}
        }
        self.relayout();
        vec![]
    }

    /// A key's plain request to the server, when connected.
    pub(super) fn request(&mut self, command: super::keymap::Command) -> Vec<Cmd> {
        if !matches!(self.conn, super::app::Conn::Connected) {
            self.notice = Some((super::keymap::not_connected_note(), true));
            return vec![];
        }
        self.notice = Some((format!("{}…", command.name()), false));
        vec![Cmd::Request(command)]
    }

    /// `s` in the log: the level picker.
    pub(super) fn pick_server_level(&mut self) {
        let declared = self.server.as_ref().is_some_and(|s| s.declares(&["logging"]));
        let picker = super::components::level::LevelPicker::new(self.server_level, declared);
        self.panes.overlays.push(Box::new(picker));
    }
}
