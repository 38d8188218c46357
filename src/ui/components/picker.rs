//! A list to choose one entry from: the servers of a config file, before connecting.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

/// One row: a name, what it stands for, and what is true of it now.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub name: String,
    pub detail: String,
    pub state: State,
}

/// What is true of an entry, said before its detail.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// Nothing to say: every entry is alike (none started yet, or all of them connected).
    Plain,
    /// Not started yet: choosing it connects it.
    NotStarted,
    /// Started already, as server N of the strip (from 1), its connection in a word
    /// (connected, connecting, down): choosing it shows it.
    Started(usize, &'static str),
    /// Why it cannot start: it cannot be chosen.
    CannotStart(String),
}

impl Choice {
    /// A server of a config file: what it runs, or why it cannot start.
    pub fn server(c: crate::mcp::config::Choice) -> Choice {
        match c.what {
            Ok(what) => Choice { name: c.name, detail: what, state: State::Plain },
            Err(why) => {
                let why = why.strip_prefix("cannot start the server: ").map_or(why.clone(), str::to_string);
                Choice { name: c.name, detail: String::new(), state: State::CannotStart(why) }
            }
        }
    }

    /// What the row says after the name, and in which colour.
    fn said(&self) -> (String, Role) {
        match &self.state {
            State::Plain => (self.detail.clone(), Role::Dim),
            State::NotStarted => (format!("not started · {}", self.detail), Role::Dim),
            State::Started(n, conn) => {
                let role = match *conn {
                    "connected" => Role::Ok,
                    "down" => Role::Error,
                    _ => Role::Warning,
                };
                (format!("{conn} (server {n}) · {}", self.detail), role)
            }
            State::CannotStart(why) => (format!("cannot start: {why}"), Role::Error),
        }
    }
}

pub struct Picker {
    title: String,
    choices: Vec<Choice>,
    scroll: Scroll,
    /// The names' column width, measured once: a config file may list 100,000 servers, and a
    /// measure of every name on each frame made each key wait for it.
    name_w: usize,
    /// Why the entry last chosen cannot start, shown on the box's bottom edge: before the first
    /// connection nothing else on screen shows a notice.
    said: Option<String>,
    /// What `q` does here, said at the bottom: quits mcplens before the first connection,
    /// closes the picker over a running session.
    leave: &'static str,
    /// What Enter does with the entry chosen.
    verb: &'static str,
}

impl Picker {
    pub fn new(title: impl Into<String>, choices: Vec<Choice>) -> Picker {
        let scroll = Scroll::new(choices.len());
        let name_w = choices.iter().map(|c| sanitize::line(&c.name).chars().count()).max().unwrap_or(0).min(32);
        Picker { title: title.into(), choices, scroll, name_w, said: None, leave: "quit", verb: "connect" }
    }

    /// A picker over a running session: leaving it closes it, mcplens goes on.
    pub fn closing(self) -> Picker {
        Picker { leave: "close", ..self }
    }

    /// A picker whose Enter does something else than connecting (`verb` says what).
    pub fn choosing(self, verb: &'static str) -> Picker {
        Picker { verb, ..self }
    }

    /// The servers of a config file.
    pub fn servers(file: &str, list: Vec<crate::mcp::config::Choice>) -> Picker {
        let choices = list.into_iter().map(Choice::server).collect();
        Picker::new(format!("{file} lists several servers: pick one"), choices)
    }

    pub fn select(&mut self, i: usize) {
        self.scroll.select(i);
    }

    pub fn cursor(&self) -> usize {
        self.scroll.cursor
    }

    pub fn selected(&self) -> Option<&Choice> {
        self.choices.get(self.scroll.cursor)
    }

    /// The keys, or why the entry just chosen cannot start.
    fn bottom_line(&self, t: &Theme) -> Line<'static> {
        if let Some(said) = &self.said {
            return Line::from(format!(" {said} ")).style(t.paint(Role::Error));
        }
        let keys: Vec<String> = self.keys().into_iter().map(|(k, word)| format!("{k} {word}")).collect();
        Line::from(format!(" {} ", keys.join(" · "))).style(t.paint(Role::Dim))
    }

    /// Its keys: said at its bottom, and in the footer.
    fn keys(&self) -> Vec<(String, String)> {
        let choose = format!(
            "{}{}",
            keymap::key_last(Scope::Picker, Command::Up),
            keymap::key_last(Scope::Picker, Command::Down)
        );
        let mut keys = vec![(choose, "choose".to_string())];
        keys.extend(keymap::pairs(Scope::Picker, &[(Command::Open, self.verb), (Command::Quit, self.leave)]));
        keys
    }

    fn choose(&mut self, cx: &mut Ctx) {
        match self.selected() {
            Some(Choice { name, state: State::CannotStart(why), .. }) => {
                let said = format!("{} cannot start: {why}", sanitize::line(name));
                cx.notice(why.clone(), true);
                self.said = Some(said);
            }
            Some(_) => cx.action(Action::Connect(self.scroll.cursor)),
            None => {}
        }
    }
}

impl Component for Picker {
    fn scope(&self) -> Scope {
        Scope::Picker
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        self.scroll.height = self.scroll.height.max(1);
        match cmd {
            cmd if self.scroll.navigate(cmd) => self.said = None,
            Command::Open | Command::Activate | Command::Expand => self.choose(cx),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn hints(&self) -> Vec<(String, String)> {
        self.keys()
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let title = format!(" {} ", sanitize::line(&self.title));
        let block = crate::ui::component::overlay_block(t, title, focused).title_bottom(self.bottom_line(t));
        let inner = block.inner(area);
        let rows = inner.height as usize;
        let name_w = self.name_w;
        let lines: Vec<Line> = self
            .choices
            .iter()
            .enumerate()
            .skip(self.scroll.window(rows).start)
            .take(rows)
            .map(|(i, c)| {
                let name = sanitize::truncate(&sanitize::line(&c.name), 32).into_owned();
                let (detail, role) = c.said();
                let line = crate::ui::fit::fit(
                    Line::from(vec![
                        Span::styled(format!(" {name:<name_w$}  "), t.paint(Role::Text).add_modifier(Modifier::BOLD)),
                        Span::styled(sanitize::line(&detail).into_owned(), t.paint(role)),
                    ]),
                    inner.width as usize,
                );
                if i == self.scroll.cursor { line.style(t.selection()) } else { line }
            })
            .collect();
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        let h = (self.choices.len() as u16).saturating_add(2).max(5);
        (area.width.saturating_sub(4).min(110), h.min(area.height.saturating_sub(2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_is_said_as_what_it_does_here() {
        let t = Theme::default();
        assert!(picker().bottom_line(&t).to_string().contains("q quit"));
        let over_a_session = picker().closing().bottom_line(&t).to_string();
        assert!(over_a_session.contains("q close") && !over_a_session.contains("quit"), "{over_a_session}");
    }

    fn picker() -> Picker {
        Picker::new(
            "servers",
            vec![
                Choice { name: "a".into(), detail: "npx a".into(), state: State::Plain },
                Choice { name: "b".into(), detail: String::new(), state: State::CannotStart("no command".into()) },
                Choice { name: "c".into(), detail: "http://x/mcp".into(), state: State::Plain },
            ],
        )
    }

    #[test]
    fn each_row_says_what_is_true_of_its_entry() {
        let row = |state| Choice { name: "a".into(), detail: "npx a".into(), state }.said();
        assert_eq!(row(State::Plain), ("npx a".into(), Role::Dim));
        assert_eq!(row(State::NotStarted), ("not started · npx a".into(), Role::Dim));
        assert_eq!(row(State::Started(2, "connected")), ("connected (server 2) · npx a".into(), Role::Ok));
        assert_eq!(row(State::Started(1, "down")), ("down (server 1) · npx a".into(), Role::Error));
        assert_eq!(row(State::CannotStart("no command".into())), ("cannot start: no command".into(), Role::Error));
        let missing = crate::mcp::config::Choice {
            name: "m".into(),
            what: Err("cannot start the server: command \"x\" not found".into()),
        };
        assert_eq!(Choice::server(missing).state, State::CannotStart("command \"x\" not found".into()));
    }

    #[test]
    fn enter_connects_to_the_selected_server_only_when_it_can_start() {
        let theme = Theme::default();
        let mut p = picker();
        let mut cx = Ctx::new(&theme);
        let enter =
            crossterm::event::KeyEvent::new(crossterm::event::KeyCode::Enter, crossterm::event::KeyModifiers::NONE);
        let open = crate::ui::keymap::lookup(&enter, Scope::Picker);
        assert_eq!(open, Some(Command::Open));
        p.command(Command::Down, &mut cx);
        p.command(Command::Open, &mut cx);
        // Before the first connection nothing else shows a notice: the box's edge says why.
        assert_eq!(p.said.as_deref(), Some("b cannot start: no command"));
        p.command(Command::Down, &mut cx);
        assert_eq!(p.said, None);
        p.command(Command::Open, &mut cx);
        let acts: Vec<String> = cx
            .effects
            .iter()
            .map(|e| match e {
                crate::ui::component::Effect::App(a) => format!("{a:?}"),
                crate::ui::component::Effect::Notice(n, _) => n.clone(),
                _ => "other".into(),
            })
            .collect();
        assert_eq!(acts, vec!["no command".to_string(), "Connect(2)".to_string()]);
    }
}
