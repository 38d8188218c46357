//! Breakpoints from the TUI watcher (`mcplens watch PID --tui`): `b` sets one (a method or a
//! tool; `>` to the server only, `<` to the host only), a held message opens whole, and it is
//! sent as it came, edited (its JSON checked before it goes), dropped, answered with an error,
//! or delayed. Each choice is one line of the proxy's control protocol (docs/proxy.md), written
//! by the watcher's connection.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use super::component::{Component, Ctx, Effect, Used};
use super::keymap::{self, Command, Scope};
use super::line_input::{Edit, LineInput};
use super::textarea::TextArea;
use super::theme::{Role, Theme};
use crate::sanitize;

pub const WATCH: Scope = Scope("watch");
pub const HELD: Scope = Scope("held");
pub const HELD_EDIT: Scope = Scope("held_edit");
pub const PROMPT: Scope = Scope("watch_prompt");
pub const BREAKS: Scope = Scope("watch_breaks");

/// Where control lines go (the watcher's connection to the proxy).
pub type Control = UnboundedSender<Value>;

/// A message a breakpoint holds, as the proxy announced it.
#[derive(Debug, Clone)]
pub struct Held {
    pub hold: u64,
    pub direction: String,
    pub matched: String,
    /// The message as one line (secrets masked by the proxy).
    pub line: String,
}

impl Held {
    /// From the proxy's `held` event.
    pub fn of(v: &Value) -> Option<Held> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        Some(Held { hold: v.get("hold")?.as_u64()?, direction: s("direction"), matched: s("matched"), line: s("line") })
    }

    fn pretty(&self) -> String {
        serde_json::from_str::<Value>(&self.line)
            .ok()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .unwrap_or_else(|| self.line.clone())
    }
}

/// The control line for a breakpoint typed as `[>|<]PATTERN`.
pub fn break_line(typed: &str) -> Option<Value> {
    let typed = typed.trim();
    let (direction, pattern) = match typed.chars().next()? {
        '>' => ("to_server", &typed[1..]),
        '<' => ("to_host", &typed[1..]),
        _ => ("both", typed),
    };
    let pattern = pattern.trim();
    (!pattern.is_empty()).then(|| json!({"break": pattern, "direction": direction}))
}

/// The control line that removes the breakpoint written `shown` (`>echo`), that one only: not
/// the same name set another way.
pub fn unbreak_line(shown: &str) -> Option<Value> {
    let set = break_line(shown)?;
    Some(json!({"unbreak": set.get("break")?, "direction": set.get("direction")?}))
}

/// The breakpoints this watcher set, one a row, to remove one.
pub struct BreakList {
    breaks: Vec<String>,
    cursor: usize,
    control: Control,
}

impl BreakList {
    pub fn new(breaks: Vec<String>, control: Control) -> BreakList {
        BreakList { breaks, cursor: 0, control }
    }

    /// Removes the chosen breakpoint (the proxy confirms it, and the header follows).
    fn remove(&mut self) {
        if self.cursor >= self.breaks.len() {
            return;
        }
        let shown = self.breaks.remove(self.cursor);
        if let Some(line) = unbreak_line(&shown) {
            let _ = self.control.send(line);
        }
        self.cursor = self.cursor.min(self.breaks.len().saturating_sub(1));
    }
}

/// What a breakpoint written `shown` holds, in words.
fn which_way(shown: &str) -> &'static str {
    match shown.chars().next() {
        Some('>') => "messages to the server",
        Some('<') => "messages to the host",
        _ => "messages both ways",
    }
}

impl Component for BreakList {
    fn scope(&self) -> Scope {
        BREAKS
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Down => self.cursor = (self.cursor + 1).min(self.breaks.len().saturating_sub(1)),
            Command::Up => self.cursor = self.cursor.saturating_sub(1),
            Command::Unbreak => self.remove(),
            Command::Back => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        let rows = u16::try_from(self.breaks.len()).unwrap_or(u16::MAX).max(1);
        (area.width.saturating_sub(4).min(80), rows.saturating_add(2).min(area.height))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(BREAKS, &[(Command::Unbreak, "remove"), (Command::Back, "close")]);
        let block = super::component::overlay_block(t, format!(" Breakpoints · {keys} "), focused);
        let lines: Vec<Line> = if self.breaks.is_empty() {
            let set = keymap::key(WATCH, Command::Break);
            vec![Line::styled(format!("no breakpoints ({set} sets one)"), t.paint(Role::Dim))]
        } else {
            let skip = self.cursor.saturating_sub(area.height.saturating_sub(3) as usize);
            let names: Vec<String> = self.breaks.iter().map(|b| sanitize::line(b).into_owned()).collect();
            let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).min(40);
            names
                .iter()
                .enumerate()
                .skip(skip)
                .map(|(i, b)| {
                    let line = Line::from(vec![
                        Span::styled(format!(" {b:<w$}"), t.paint(Role::Text)),
                        Span::styled(format!("  {}", which_way(b)), t.paint(Role::Dim)),
                    ]);
                    if i == self.cursor { line.style(t.selection()) } else { line }
                })
                .collect()
        };
        f.render_widget(Paragraph::new(lines).block(block), area);
    }
}

/// What a one-line prompt is for.
enum Purpose {
    Break,
    Error(u64),
    Delay(u64),
}

/// One line typed for a breakpoint, an error answer (`CODE TEXT`) or a delay (ms).
pub struct Prompt {
    purpose: Purpose,
    input: LineInput,
    control: Control,
    problem: Option<String>,
}

impl Prompt {
    pub fn new_break(control: Control) -> Prompt {
        Prompt { purpose: Purpose::Break, input: LineInput::new(500), control, problem: None }
    }

    fn with(purpose: Purpose, text: &str, control: Control) -> Prompt {
        let mut input = LineInput::new(500);
        input.set(text);
        Prompt { purpose, input, control, problem: None }
    }

    /// The control line the typed text makes, or why it does not make one.
    fn line(&self) -> Result<Value, String> {
        let typed = self.input.text().trim();
        match self.purpose {
            Purpose::Break => break_line(typed).ok_or_else(|| "type a method or a tool name".to_string()),
            Purpose::Error(hold) => {
                let (code, text) = typed.split_once(' ').unwrap_or((typed, ""));
                let code: i64 = code.parse().map_err(|_| format!("{code:?} is not an error code (e.g. -32000)"))?;
                let text = if text.trim().is_empty() { "refused at a breakpoint" } else { text.trim() };
                Ok(json!({"release": hold, "action": "error", "code": code, "text": text}))
            }
            Purpose::Delay(hold) => {
                let ms: u64 = typed.parse().map_err(|_| format!("{typed:?} is not a number of milliseconds"))?;
                Ok(json!({"release": hold, "action": "delay", "ms": ms}))
            }
        }
    }

    fn title(&self) -> String {
        match self.purpose {
            Purpose::Break => "Break on a method or a tool (> to the server only, < to the host only)".into(),
            Purpose::Error(h) => format!("Answer hold {h} with an error: CODE TEXT"),
            Purpose::Delay(h) => format!("Send hold {h} after this many milliseconds"),
        }
    }
}

impl Component for Prompt {
    fn scope(&self) -> Scope {
        PROMPT
    }

    fn typing(&self) -> bool {
        true
    }

    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.input.key(key) == Edit::NotMine { Used::No } else { Used::Yes }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Activate | Command::Open => match self.line() {
                Ok(line) => {
                    let _ = self.control.send(line);
                    cx.effects.push(Effect::Close);
                }
                Err(why) => self.problem = Some(why),
            },
            Command::Back => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(90), 5)
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(PROMPT, &[(Command::Activate, "set"), (Command::Back, "cancel")]);
        let block = super::component::overlay_block(t, format!(" {} · {keys} ", self.title()), focused);
        let width = area.width.saturating_sub(2) as usize;
        let mut lines = vec![Line::from(self.input.span(width, true, t.paint(Role::Text)))];
        if let Some(p) = &self.problem {
            lines.push(Line::styled(sanitize::line(p).into_owned(), t.paint(Role::Error)));
        }
        f.render_widget(Paragraph::new(lines).block(block), area);
    }
}

/// A held message shown whole, with what can become of it.
pub struct HeldView {
    held: Held,
    control: Control,
    scroll: u16,
}

impl HeldView {
    pub fn new(held: Held, control: Control) -> HeldView {
        HeldView { held, control, scroll: 0 }
    }

    fn release(&self, action: &str, cx: &mut Ctx) {
        let _ = self.control.send(json!({"release": self.held.hold, "action": action}));
        cx.effects.push(Effect::Close);
    }
}

impl Component for HeldView {
    fn scope(&self) -> Scope {
        HELD
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let (hold, control) = (self.held.hold, self.control.clone());
        match cmd {
            Command::HoldSend => self.release("send", cx),
            Command::HoldDrop => self.release("drop", cx),
            Command::HoldEdit => {
                cx.effects.push(Effect::Close);
                cx.effects.push(Effect::Push(Box::new(HeldEdit::new(&self.held, control))));
            }
            Command::HoldError => {
                cx.effects.push(Effect::Close);
                let prompt = Prompt::with(Purpose::Error(hold), "-32000 refused at a breakpoint", control);
                cx.effects.push(Effect::Push(Box::new(prompt)));
            }
            Command::HoldDelay => {
                cx.effects.push(Effect::Close);
                cx.effects.push(Effect::Push(Box::new(Prompt::with(Purpose::Delay(hold), "5000", control))));
            }
            Command::Down => self.scroll = self.scroll.saturating_add(1),
            Command::Up => self.scroll = self.scroll.saturating_sub(1),
            Command::Back => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let h = &self.held;
        let title =
            format!(" Held {} ({}, matched {}) ", h.hold, sanitize::line(&h.direction), sanitize::line(&h.matched));
        let block = super::component::overlay_block(t, title, focused);
        let text: Vec<Line> =
            sanitize::text(&h.pretty()).lines().map(|l| Line::styled(l.to_string(), t.paint(Role::Text))).collect();
        f.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }).scroll((self.scroll, 0)), area);
    }
}

/// A held message edited as JSON; it goes only once it parses.
pub struct HeldEdit {
    hold: u64,
    area: TextArea,
    control: Control,
    problem: Option<String>,
}

impl HeldEdit {
    fn new(held: &Held, control: Control) -> HeldEdit {
        HeldEdit { hold: held.hold, area: TextArea::new(&held.pretty()), control, problem: None }
    }
}

impl Component for HeldEdit {
    fn scope(&self) -> Scope {
        HELD_EDIT
    }

    fn typing(&self) -> bool {
        true
    }

    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.area.key(key) { Used::Yes } else { Used::No }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Run => match serde_json::from_str::<Value>(&self.area.text()) {
                Ok(message) if message.is_object() || message.is_array() => {
                    let _ = self.control.send(json!({"release": self.hold, "action": "edit", "message": message}));
                    cx.effects.push(Effect::Close);
                }
                Ok(_) => self.problem = Some("a message is a JSON object (or a batch array)".into()),
                Err(e) => self.problem = Some(format!("not JSON: {e}")),
            },
            Command::Back => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(HELD_EDIT, &[(Command::Run, "send edited"), (Command::Back, "cancel")]);
        let block = super::component::overlay_block(t, format!(" Edit hold {} · {keys} ", self.hold), focused);
        let mut lines: Vec<Line> = Vec::new();
        if let Some(p) = &self.problem {
            lines.push(Line::styled(sanitize::line(p).into_owned(), t.paint(Role::Error)));
        }
        for (i, l) in self.area.lines.iter().enumerate() {
            let mut text = sanitize::line(l).into_owned();
            if i == self.area.row {
                let at = text.char_indices().nth(self.area.col).map_or(text.len(), |(b, _)| b);
                text.insert(at, '▏');
            }
            lines.push(Line::styled(text, t.paint(Role::Text)));
        }
        let top = self.area.row.saturating_sub(area.height.saturating_sub(4) as usize) as u16;
        f.render_widget(Paragraph::new(lines).block(block).scroll((top, 0)), area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_breakpoint_names_its_direction() {
        assert_eq!(break_line(">echo"), Some(json!({"break": "echo", "direction": "to_server"})));
        assert_eq!(
            break_line(" < sampling/createMessage"),
            Some(json!({"break": "sampling/createMessage", "direction": "to_host"}))
        );
        assert_eq!(break_line("tools/call"), Some(json!({"break": "tools/call", "direction": "both"})));
        assert_eq!(break_line(">"), None);
    }

    #[test]
    fn a_breakpoint_is_removed_that_way_only() {
        assert_eq!(unbreak_line(">echo"), Some(json!({"unbreak": "echo", "direction": "to_server"})));
        assert_eq!(unbreak_line("<ping"), Some(json!({"unbreak": "ping", "direction": "to_host"})));
        assert_eq!(unbreak_line("tools/call"), Some(json!({"unbreak": "tools/call", "direction": "both"})));
        let theme = Theme::default();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut cx = Ctx::new(&theme);
        let mut list = BreakList::new(vec![">echo".into(), "<ping".into()], tx);
        list.command(Command::Down, &mut cx);
        list.command(Command::Unbreak, &mut cx);
        assert_eq!(rx.try_recv().ok(), Some(json!({"unbreak": "ping", "direction": "to_host"})));
        assert_eq!((list.breaks.as_slice(), list.cursor), ([">echo".to_string()].as_slice(), 0));
        list.command(Command::Unbreak, &mut cx);
        list.command(Command::Unbreak, &mut cx);
        assert_eq!(rx.try_recv().ok(), Some(json!({"unbreak": "echo", "direction": "to_server"})));
        assert!(rx.try_recv().is_err() && list.breaks.is_empty());
    }

    fn held() -> Held {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#.to_string();
        Held { hold: 3, direction: "to_server".into(), matched: "echo".into(), line }
    }

    #[test]
    fn each_choice_is_one_control_line() {
        let theme = Theme::default();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut cx = Ctx::new(&theme);
        HeldView::new(held(), tx.clone()).command(Command::HoldSend, &mut cx);
        assert_eq!(rx.try_recv().ok(), Some(json!({"release": 3, "action": "send"})));
        HeldView::new(held(), tx.clone()).command(Command::HoldDrop, &mut cx);
        assert_eq!(rx.try_recv().ok(), Some(json!({"release": 3, "action": "drop"})));
        let mut error = Prompt::with(Purpose::Error(3), "-32001 too slow", tx.clone());
        error.command(Command::Activate, &mut cx);
        assert_eq!(
            rx.try_recv().ok(),
            Some(json!({"release": 3, "action": "error", "code": -32001, "text": "too slow"}))
        );
        let mut delay = Prompt::with(Purpose::Delay(3), "soon", tx.clone());
        delay.command(Command::Activate, &mut cx);
        assert!(rx.try_recv().is_err() && delay.problem.is_some(), "a delay must be a number");
    }

    #[test]
    fn an_edit_goes_only_once_it_is_json() {
        let theme = Theme::default();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut cx = Ctx::new(&theme);
        let mut edit = HeldEdit::new(&held(), tx);
        edit.area = TextArea::new("{\"jsonrpc\": \"2.0\",");
        edit.command(Command::Run, &mut cx);
        assert!(rx.try_recv().is_err() && edit.problem.as_deref().is_some_and(|p| p.starts_with("not JSON")));
        edit.area = TextArea::new(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other"}}"#);
        edit.command(Command::Run, &mut cx);
        let sent = rx.try_recv().unwrap_or_default();
        assert_eq!(sent["action"], "edit");
        assert_eq!(sent["message"]["params"]["name"], "other");
    }
}
