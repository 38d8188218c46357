//! Reaching another server: connecting one more of the config file's, choosing which other one
//! a call runs on or whose tools are compared, and the keys of what is shown over the servers.

use crossterm::event::KeyEvent;

use super::{Intent, Overlay, Pending, Servers, compare};
use crate::ui::component::{Action, Component, Ctx, Effect};
use crate::ui::components::picker::{Choice, Picker, State};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::started::{Started, carry_out};
use crate::ui::theme::Theme;

/// The comparison's keys: its own section, then the global moves.
pub(super) const COMPARE_SCOPE: Scope = Scope("server_compare");

impl Servers {
    /// The picker of the config file's servers, each saying whether it is started (choosing it
    /// shows it), not started (choosing it connects it) or cannot start, and why.
    pub(super) fn open_connect(&mut self) {
        let Some(path) = self.args.config.clone() else {
            let text = "only the servers of a config file connect side by side: start with --config FILE";
            return self.notice(text.into(), true);
        };
        let list = match crate::mcp::config::choices(&path) {
            Ok(list) => list,
            Err(e) => return self.notice(e.message, true),
        };
        let names: Vec<String> = list.iter().map(|c| c.name.clone()).collect();
        let choices = list
            .into_iter()
            .map(|c| {
                let mut choice = Choice::server(c);
                if let Some(n) = self.slots.iter().position(|s| s.name == choice.name) {
                    choice.state = State::Started(n + 1, conn_word(&self.slots[n].app.conn));
                } else if choice.state == State::Plain {
                    choice.state = State::NotStarted;
                }
                choice
            })
            .collect();
        let file = path.display().to_string();
        self.overlay =
            Some(Overlay::Connect(Picker::new(format!("Connect another server of {file}"), choices).closing(), names));
    }

    /// Connects the config entry `name` beside the others and shows it; shows it when it is
    /// started already.
    fn connect(&mut self, name: String) {
        if let Some(i) = self.slots.iter().position(|s| s.name == name) {
            return self.show(i);
        }
        let mut args = self.args.clone();
        args.server = Some(name.clone());
        match crate::ui::pick::startable(&args) {
            Ok((target, options)) => {
                let started = Started::new((self.theme.clone(), None), (&args, target, options), &self.ui);
                self.add(started, name);
                self.active = self.slots.len() - 1;
                self.resize(self.size);
            }
            Err(e) => {
                let why = e.message.strip_prefix("cannot start the server: ").unwrap_or(&e.message).to_string();
                self.notice(format!("{} cannot start: {why}", crate::sanitize::line(&name)), true);
            }
        }
    }

    /// The other server to run the call on or compare tools with: the only other one, or a
    /// picker of them.
    pub(super) fn choose_other(&mut self, intent: Intent) {
        if intent == Intent::RunCall && self.slots[self.active].last.is_none() {
            let run = keymap::key(SCOPE_OF_FORM, Command::Run);
            return self.notice(format!("no call on this server yet: run one first ({run} in a form)"), false);
        }
        let others: Vec<(u64, String, String)> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != self.active)
            .map(|(_, s)| (s.id, s.name.clone(), s.app.target_label.clone()))
            .collect();
        match others.as_slice() {
            [] => {
                let connect = keymap::key(super::SCOPE, Command::ConnectServer);
                self.notice(format!("only one server is connected: {connect} connects another"), false)
            }
            [(id, _, _)] => self.on_other(*id, intent),
            _ => {
                let ids = others.iter().map(|o| o.0).collect();
                let choices =
                    others.into_iter().map(|(_, name, detail)| Choice { name, detail, state: State::Plain }).collect();
                let (title, verb) = match intent {
                    Intent::RunCall => ("Run the same call on", "run it there"),
                    Intent::CompareTools => ("Compare the tools with", "compare"),
                };
                let picker = Picker::new(title, choices).closing().choosing(verb);
                self.overlay = Some(Overlay::Other(picker, ids, intent));
            }
        }
    }

    fn on_other(&mut self, id: u64, intent: Intent) {
        let Some(j) = self.slots.iter().position(|s| s.id == id) else { return };
        match intent {
            Intent::RunCall => self.run_on(j),
            Intent::CompareTools => {
                let (a, b) = (&self.slots[self.active], &self.slots[j]);
                let down = [a, b].into_iter().find(|s| !matches!(s.app.conn, crate::ui::app::Conn::Connected));
                if let Some(s) = down {
                    let name = crate::sanitize::line(&s.name).into_owned();
                    return self.notice(format!("{name} is not connected: its tools are not listed"), true);
                }
                let view =
                    compare::View::tools((&a.name, &a.app.panes.tools.tools), (&b.name, &b.app.panes.tools.tools));
                self.overlay = Some(Overlay::Compare(view));
            }
        }
    }

    /// Runs the shown server's last call on server `j`; the two are compared when it answers.
    fn run_on(&mut self, j: usize) {
        let Some(first) = self.slots[self.active].last.clone() else { return };
        let from_name = self.slots[self.active].name.clone();
        let to = &mut self.slots[j];
        if matches!(to.app.conn, crate::ui::app::Conn::Connecting { .. }) {
            let name = crate::sanitize::line(&to.name).into_owned();
            return self.notice(format!("{name} is still connecting: try again when the strip shows it ●"), false);
        }
        let listed = to.app.panes.tools.find(&first.tool).is_some();
        let cmds = to.app.start_call(first.tool.clone(), first.arguments.clone());
        let (name, tool) =
            (crate::sanitize::line(&to.name).into_owned(), crate::sanitize::line(&first.tool).into_owned());
        if cmds.is_empty() {
            let why = to.app.notice.as_ref().map_or_else(String::new, |(n, _)| format!(": {n}"));
            return self.notice(format!("{tool} not run on {name}{why}"), true);
        }
        carry_out(&mut to.app, cmds, &to.cmd_tx);
        self.pending = Some(Pending { to: to.id, from_name, first });
        let unlisted = if listed { "" } else { " (it does not list this tool)" };
        self.notice(
            format!("{tool} runs on {name}{unlisted}: the two results show side by side when it answers"),
            false,
        );
    }

    /// A key for the overlay; false for the keys that still reach the model (Ctrl-C quits).
    pub(super) fn overlay_key(&mut self, k: &KeyEvent) -> bool {
        if keymap::lookup(k, Scope::Any) == Some(Command::ForceQuit) {
            self.overlay = None;
            return false;
        }
        let Some(overlay) = self.overlay.take() else { return false };
        let mut note = None;
        self.overlay = match overlay {
            Overlay::Compare(mut v) => match keymap::lookup(k, COMPARE_SCOPE) {
                Some(Command::Back | Command::Quit) => None,
                Some(c) => {
                    v.command(c, self.app_area().height.saturating_sub(2) as usize);
                    Some(Overlay::Compare(v))
                }
                None => Some(Overlay::Compare(v)),
            },
            Overlay::Connect(mut p, names) => match picked(&mut p, k, &self.theme, &mut note) {
                Picked::Chose(i) => return names.get(i).cloned().map(|n| self.connect(n)).is_some(),
                Picked::Closed => None,
                Picked::Stay => Some(Overlay::Connect(p, names)),
            },
            Overlay::Other(mut p, ids, intent) => match picked(&mut p, k, &self.theme, &mut note) {
                Picked::Chose(i) => return ids.get(i).map(|id| self.on_other(*id, intent)).is_some(),
                Picked::Closed => None,
                Picked::Stay => Some(Overlay::Other(p, ids, intent)),
            },
        };
        if let Some((text, error)) = note {
            self.notice(text, error);
        }
        true
    }
}

const SCOPE_OF_FORM: Scope = Scope::Form;

/// A started server's connection in a word, as the picker says it.
fn conn_word(conn: &crate::ui::app::Conn) -> &'static str {
    match conn {
        crate::ui::app::Conn::Connected => "connected",
        crate::ui::app::Conn::Connecting { .. } => "connecting",
        crate::ui::app::Conn::Down(_) => "down",
    }
}

enum Picked {
    Chose(usize),
    Closed,
    Stay,
}

/// A key in a picker: the entry chosen, the picker closed, or neither (its notice in `notice`).
fn picked(p: &mut Picker, k: &KeyEvent, theme: &Theme, notice: &mut Option<(String, bool)>) -> Picked {
    let mut cx = Ctx::new(theme);
    let used = p.key(k, &mut cx).yes() || keymap::lookup(k, p.scope()).is_some_and(|c| p.command(c, &mut cx).yes());
    if !used && matches!(keymap::lookup(k, p.scope()), Some(Command::Quit | Command::Back)) {
        return Picked::Closed;
    }
    for e in cx.effects {
        match e {
            Effect::App(Action::Connect(i)) => return Picked::Chose(i),
            Effect::Notice(n, error) => *notice = Some((n, error)),
            _ => {}
        }
    }
    Picked::Stay
}
