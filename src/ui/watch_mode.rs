//! `mcplens watch PID --tui`: the log pane alone, attached to a running proxy (`mcplens proxy`):
//! the host's session from its start, then live, with the log's pairing, timing, filters, whole
//! entries and export, and breakpoints (`--break`, or `b`). Each message is logged again in a log of the watcher's own, with the time
//! and latency the proxy saw.

use std::io::IsTerminal;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossterm::event::{Event, EventStream, KeyEvent, KeyEventKind};
use futures::StreamExt;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use serde_json::Value;
use std::collections::VecDeque;
use tokio::io::AsyncWriteExt;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;

use super::component::{Component, Ctx, Effect, Used};
use super::components::help::Help;
use super::components::log::LogPane;
use super::keymap::{self, Command, Scope};
use super::msg::Cmd;
use super::theme::{Role, Theme};
use super::watch_breaks::{self, BreakList, Control, Held, HeldView, Prompt};
use crate::cli::output::err_line;
use crate::mcp::log::{LogKind, LogLimits, Redactor, SessionLog};
use crate::mcp::wire;
use crate::proxy::control;
use crate::sanitize;

/// The longest line read from the proxy (a log entry holding one message).
const MAX_LINE: u64 = 1 << 30;

/// What the proxy said, for the status line.
enum Said {
    Note(String),
    Ended,
    Held(Held),
    Released(u64),
    /// The breakpoints this watcher has now (the proxy says it when one is set or removed).
    Breaks(Vec<String>),
}

/// `mcplens watch PID --tui [--break METHOD|TOOL]...`; the exit code.
pub async fn run(pid: u32, breaks: &[String]) -> i32 {
    if !std::io::stdout().is_terminal() {
        err_line("mcplens: --tui needs a terminal; without it watch prints JSON Lines");
        return 2;
    }
    let Some(path) = control::socket_of(pid) else {
        err_line("mcplens: no state directory (set HOME or MCPLENS_STATE_DIR)");
        return 2;
    };
    if let Err(e) = control::check_socket(&path) {
        err_line(&format!("mcplens: not watching: {}", crate::sanitize::line(&e.to_string())));
        return 2;
    }
    let conn = match UnixStream::connect(&path).await {
        Ok(c) => c,
        Err(e) => {
            err_line(&format!(
                "mcplens: no proxy with pid {pid} answers ({e}); `mcplens watch` lists the running ones"
            ));
            return 3;
        }
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, _) = Theme::load(None, no_color);
    let log = SessionLog::new(LogLimits::default(), Redactor::default());
    let (tx, rx) = mpsc::unbounded_channel();
    let (read, write) = conn.into_split();
    let feeder = tokio::spawn(feed(read, log.clone(), tx));
    let (control, lines) = mpsc::unbounded_channel();
    // The breakpoints given on the command line are set first, as `b` sets one.
    for line in breaks.iter().filter_map(|b| watch_breaks::break_line(b)) {
        let _ = control.send(line);
    }
    let writer = tokio::spawn(write_control(write, lines));
    let mut screen = Screen {
        pane: LogPane::default(),
        overlays: Vec::new(),
        status: String::new(),
        theme,
        control,
        held: VecDeque::new(),
        showing: None,
        breaks: Vec::new(),
    };
    screen.pane.set_log(log);
    let code = screen.run(rx).await;
    feeder.abort();
    writer.abort();
    code
}

/// Writes the control lines the breakpoint overlays make, one a line, to the proxy.
async fn write_control(mut w: OwnedWriteHalf, mut lines: mpsc::UnboundedReceiver<Value>) {
    while let Some(line) = lines.recv().await {
        if w.write_all(format!("{line}\n").as_bytes()).await.is_err() {
            return;
        }
    }
}

struct Screen {
    pane: LogPane,
    overlays: Vec<Box<dyn Component>>,
    status: String,
    theme: Theme,
    control: Control,
    /// Messages held at a breakpoint and not yet released, oldest first.
    held: VecDeque<Held>,
    /// The hold the held view shows, while it is open.
    showing: Option<u64>,
    /// This watcher's breakpoints, as the proxy last listed them.
    breaks: Vec<String>,
}

impl Screen {
    async fn run(&mut self, mut said: mpsc::UnboundedReceiver<Said>) -> i32 {
        let mut terminal = super::start_terminal();
        let mut events = EventStream::new();
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        loop {
            if let Err(e) = terminal.draw(|f| self.draw(f)) {
                super::restore_terminal();
                err_line(&format!("mcplens: cannot draw: {e}"));
                return 3;
            }
            tokio::select! {
                ev = events.next() => match ev {
                    Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => {
                        if self.key(&k) {
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                    _ => break,
                },
                Some(s) = said.recv() => match s {
                    Said::Note(n) => self.status = n,
                    Said::Ended => self.status = "the proxy ended: the session is over (q quits)".into(),
                    Said::Held(h) => {
                        self.held.push_back(h);
                        self.show_held();
                    }
                    Said::Released(hold) => self.released(hold),
                    Said::Breaks(breaks) => self.breaks = breaks,
                },
                _ = tick.tick() => {
                    self.pane.sync();
                }
            }
        }
        super::restore_terminal();
        0
    }

    /// The oldest held message, unless one is shown already.
    fn show_held(&mut self) {
        let Some(first) = self.held.front() else {
            self.status = "nothing is held at a breakpoint".into();
            return;
        };
        if self.overlays.iter().any(|o| o.scope() == watch_breaks::HELD) {
            return;
        }
        self.showing = Some(first.hold);
        self.overlays.push(Box::new(HeldView::new(first.clone(), self.control.clone())));
    }

    /// A hold released (by this watcher, another, or a delay): its view, if open, closes, as it
    /// can no longer be acted on; the next held message opens.
    fn released(&mut self, hold: u64) {
        self.held.retain(|h| h.hold != hold);
        if self.showing == Some(hold) {
            self.showing = None;
            self.overlays.retain(|o| o.scope() != watch_breaks::HELD);
        }
        if !self.held.is_empty() {
            self.show_held();
        }
    }

    /// The watcher's own keys (breakpoints), when no overlay and no typing takes them.
    fn watch_key(&mut self, k: &KeyEvent) -> bool {
        if !self.overlays.is_empty() || self.pane.is_typing() {
            return false;
        }
        match keymap::lookup(k, watch_breaks::WATCH) {
            Some(Command::Break) => self.overlays.push(Box::new(Prompt::new_break(self.control.clone()))),
            Some(Command::Holds) => self.show_held(),
            Some(Command::Breaks) => {
                self.overlays.push(Box::new(BreakList::new(self.breaks.clone(), self.control.clone())));
            }
            Some(Command::Help) => self.overlays.push(Box::new(help())),
            _ => return false,
        }
        true
    }

    /// A key for the top overlay, else the pane; true to quit.
    fn key(&mut self, k: &KeyEvent) -> bool {
        self.status.clear();
        if keymap::lookup(k, Scope::Any) == Some(Command::ForceQuit) {
            return true;
        }
        if self.watch_key(k) {
            return false;
        }
        let mut cx = Ctx::new(&self.theme);
        let top: &mut dyn Component = match self.overlays.last_mut() {
            Some(o) => o.as_mut(),
            None => &mut self.pane,
        };
        if top.key(k, &mut cx) == Used::No
            && let Some(cmd) = keymap::lookup(k, top.scope())
        {
            let used = top.command(cmd, &mut cx);
            // The help closes itself on a key it does not take: that key closes nothing more.
            let closing = cx.effects.iter().any(|e| matches!(e, Effect::Close));
            match cmd {
                Command::Quit | Command::ForceQuit if self.overlays.is_empty() && !self.pane.is_typing() => {
                    return true;
                }
                Command::Back | Command::Quit if used == Used::No && !closing => {
                    self.overlays.pop();
                }
                // Over any view (F1 where letters type), the help opens on top of it.
                Command::Help if used == Used::No => cx.effects.push(Effect::Push(Box::new(help()))),
                _ => {}
            }
        }
        let effects = std::mem::take(&mut cx.effects);
        drop(cx);
        for e in effects {
            self.apply(e);
        }
        false
    }

    fn apply(&mut self, e: Effect) {
        match e {
            Effect::Push(c) => self.overlays.push(c),
            Effect::Close => {
                self.overlays.pop();
            }
            Effect::Notice(n, _) => self.status = n,
            Effect::Cmd(Cmd::Copy(text)) => super::terminal::osc52(&super::mask::text(&text)),
            Effect::Cmd(Cmd::Export { name, text }) => {
                self.status = match super::ops::write_export(&name, "jsonl", text.as_bytes()) {
                    Ok(p) => format!("exported to {}", p.display()),
                    Err(e) => e,
                };
            }
            // Nothing else applies without a session.
            Effect::Cmd(_) | Effect::App(_) => self.status = "not while watching a proxy".into(),
        }
    }

    fn draw(&mut self, f: &mut ratatui::Frame) {
        let area = f.area();
        let head = u16::from(!self.breaks.is_empty());
        let [top, main, foot] =
            Layout::vertical([Constraint::Length(head), Constraint::Min(1), Constraint::Length(1)]).areas(area);
        if head > 0 {
            f.render_widget(Paragraph::new(self.header(top)), top);
        }
        self.pane.set_layout(main.height.saturating_sub(2), (area.width, area.height));
        self.pane.draw(f, main, &self.theme, self.overlays.is_empty());
        if let Some(top) = self.overlays.last_mut() {
            let (w, h) = top.overlay_size(main);
            let r = super::view::centered(main, w, h);
            top.set_area(r);
            f.render_widget(Clear, r);
            top.draw(f, r, &self.theme, true);
        }
        f.render_widget(Paragraph::new(self.footer(foot)), foot);
    }

    /// The breakpoints set, while there are any, and the key that lists them to remove one.
    fn header(&self, area: Rect) -> Line<'static> {
        let list = keymap::key(watch_breaks::WATCH, Command::Breaks);
        let tail = format!("   {list} lists them, to remove one");
        let names = sanitize::line(&self.breaks.join(" · ")).into_owned();
        let room = (area.width as usize).saturating_sub(tail.chars().count() + 13);
        Line::from(vec![
            Span::styled(" breakpoints ", self.theme.paint(Role::Dim)),
            Span::styled(sanitize::line_head(&names, room).into_owned(), self.theme.key()),
            Span::styled(tail, self.theme.paint(Role::Dim)),
        ])
    }

    fn footer(&self, area: Rect) -> Line<'static> {
        if !self.status.is_empty() {
            return Line::from(sanitize::line_head(&self.status, area.width as usize).into_owned());
        }
        let mut spans = Vec::new();
        for (keys, word) in self.hints() {
            spans.push(Span::styled(keys, self.theme.key()));
            spans.push(Span::styled(format!(" {word}  "), self.theme.paint(Role::Dim)));
        }
        Line::from(spans)
    }

    /// The keys that work now, each once: those of what takes the keys.
    fn hints(&self) -> Vec<(String, String)> {
        match self.overlays.last() {
            // Over an overlay `q` closes it (as Esc does), and in a prompt it is a letter typed.
            Some(o) => own_keys(o.scope()),
            None if self.pane.is_typing() => self.pane.hints(),
            // The log's keys that work on a watched session (not the server's log level: the
            // watcher has no session of its own to ask), then help and quit.
            None => {
                let log = |c| works(Scope::Log, c) && !matches!(c, Command::Help | Command::Quit);
                let last = |c| matches!(c, Command::Help | Command::Quit);
                let mut hints = own_keys(watch_breaks::WATCH);
                hints.extend(keymap::overlay_footer_of(Scope::Log, log));
                hints.extend(keymap::overlay_footer_of(watch_breaks::WATCH, last));
                hints
            }
        }
    }
}

/// The help while watching: the keys of every view of the watcher, and of the keys that apply
/// everywhere only those that work here.
fn help() -> Help {
    use watch_breaks::{BREAKS, HELD, HELD_EDIT, PROMPT, WATCH};
    let sections = [WATCH, Scope::Log, Scope::LogEntry, BREAKS, HELD, HELD_EDIT, PROMPT, Scope::Help];
    Help::of(&sections, works, &["typing (filter)", "editing text"])
}

/// Whether the binding of `cmd` in `scope` does something while watching: not the server's log
/// level (the watcher has no session of its own to ask), and of the global keys only moving,
/// going back, help and quitting.
fn works(scope: Scope, cmd: Command) -> bool {
    use Command::*;
    match scope {
        Scope::Any => matches!(cmd, Up | Down | Top | Bottom | PageUp | PageDown | Back | Help | Quit | ForceQuit),
        _ => cmd != ServerLogLevel,
    }
}

/// The footer hints of `scope`'s own keys, none of the global ones.
fn own_keys(scope: Scope) -> Vec<(String, String)> {
    keymap::overlay_footer_of(scope, |c| !matches!(c, Command::Help | Command::Quit))
}

/// Reads the proxy's lines into `log` until it ends.
async fn feed(conn: OwnedReadHalf, log: SessionLog, said: mpsc::UnboundedSender<Said>) {
    let mut read = BufReader::new(conn);
    let mut line = Vec::new();
    let mut originals = Originals::default();
    loop {
        line.clear();
        if (&mut read).take(MAX_LINE).read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            let _ = said.send(Said::Ended);
            return;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&line) else { continue };
        match v.get("event").and_then(Value::as_str) {
            Some(event) => {
                match event {
                    "held" => {
                        if let Some(h) = Held::of(&v) {
                            let _ = said.send(Said::Held(h));
                        }
                    }
                    "released" => {
                        let _ = said.send(Said::Released(v.get("hold").and_then(Value::as_u64).unwrap_or(0)));
                    }
                    "ok" => {
                        if let Some(breaks) = breaks_of(&v) {
                            let _ = said.send(Said::Breaks(breaks));
                        }
                    }
                    _ => {}
                }
                if let Some(note) = note_of(event, &v) {
                    let _ = said.send(Said::Note(note));
                }
            }
            None => log_entry(&log, &v, &mut originals),
        }
    }
}

/// The breakpoints listed in an `ok` event (one answering a breakpoint set or removed).
fn breaks_of(v: &Value) -> Option<Vec<String>> {
    let list = v.get("breaks")?.as_array()?;
    Some(list.iter().filter_map(Value::as_str).map(str::to_string).collect())
}

fn note_of(event: &str, v: &Value) -> Option<String> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    Some(match event {
        "hello" if n("missed") > 0 => {
            format!("attached to {} ({} earliest messages no longer kept)", s("target"), n("missed"))
        }
        "hello" => format!("attached to {}", s("target")),
        "held" => format!("held {} ({}, matched {})", n("hold"), s("direction"), s("matched")),
        "released" => format!("released {}: {}", n("hold"), s("as")),
        "ok" => s("did"),
        "refused" => format!("refused: {}", s("why")),
        "detached" => "detached by the proxy: this watcher fell too far behind".into(),
        _ => return None,
    })
}

/// The last few entries the proxy marked as edited at a breakpoint: the proxy's seq and the
/// watcher's (the edit, which names the proxy's, follows at once).
#[derive(Default)]
struct Originals(VecDeque<(u64, u64)>);

impl Originals {
    const KEPT: usize = 16;

    fn add(&mut self, theirs: u64, ours: u64) {
        if self.0.len() >= Self::KEPT {
            self.0.pop_front();
        }
        self.0.push_back((theirs, ours));
    }

    fn ours(&self, theirs: u64) -> Option<u64> {
        self.0.iter().find(|(t, _)| *t == theirs).map(|(_, o)| *o)
    }
}

/// One entry of the proxy's log (the export's format) logged again, as it was, its edit marks
/// too (so the watcher's export replays as the proxy's recording does).
fn log_entry(log: &SessionLog, v: &Value, originals: &mut Originals) {
    let kind = match v.get("kind").and_then(Value::as_str) {
        Some("sent") => LogKind::Sent,
        Some("recv") => LogKind::Received,
        Some("stderr") => LogKind::Stderr,
        Some("warn") => LogKind::Warning,
        _ => LogKind::Info,
    };
    let text = match (v.get("raw").and_then(Value::as_str), v.get("message"), v.get("text").and_then(Value::as_str)) {
        (Some(raw), _, _) => raw.to_string(),
        (None, Some(m), _) => m.to_string(),
        (None, None, Some(t)) => t.to_string(),
        _ => return,
    };
    let seq = if matches!(kind, LogKind::Sent | LogKind::Received) {
        wire::log_line(log, kind, &text)
    } else {
        log.push(kind, &text);
        log.pushed().saturating_sub(1)
    };
    let at = v.get("time").and_then(Value::as_str).and_then(parse_time).unwrap_or_else(SystemTime::now);
    let latency = v.get("latency_ms").and_then(Value::as_f64).filter(|ms| ms.is_finite() && *ms >= 0.0);
    log.restamp(seq, at, latency.map(|ms| Duration::from_secs_f64(ms / 1000.0)));
    if v.get("edited").and_then(Value::as_bool) == Some(true) {
        log.mark_edited(seq);
        if let Some(theirs) = v.get("seq").and_then(Value::as_u64) {
            originals.add(theirs, seq);
        }
    }
    if let Some(original) = v.get("edit_of").and_then(Value::as_u64).and_then(|o| originals.ours(o)) {
        log.mark_edit_of(seq, original);
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` (the export's times) as a time; None for anything else.
fn parse_time(s: &str) -> Option<SystemTime> {
    let b = s.as_bytes();
    if b.len() != 24 || b[4] != b'-' || b[10] != b'T' || b[19] != b'.' || b[23] != b'Z' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss, ms) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
    // Days from the civil date (H. Hinnant's algorithm, the inverse of the export's).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let total_ms = ((days * 86_400 + hh * 3600 + mm * 60 + ss) * 1000).checked_add(ms)?;
    let ms = u64::try_from(total_ms).ok()?;
    UNIX_EPOCH.checked_add(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen() -> Screen {
        let (control, _) = mpsc::unbounded_channel();
        Screen {
            pane: LogPane::default(),
            overlays: Vec::new(),
            status: String::new(),
            theme: Theme::default(),
            control,
            held: VecDeque::new(),
            showing: None,
            breaks: Vec::new(),
        }
    }

    fn footer_text(s: &Screen) -> String {
        s.footer(Rect::new(0, 0, 400, 1)).to_string()
    }

    /// The screen drawn on a terminal of `width` × `height`, as text.
    fn drawn(s: &mut Screen, width: u16, height: u16) -> String {
        let mut term =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap_or_else(|e| panic!("{e}"));
        term.draw(|f| s.draw(f)).unwrap_or_else(|e| panic!("{e}"));
        crate::ui::headless::buffer_text(term.backend().buffer())
    }

    fn press(s: &mut Screen, code: crossterm::event::KeyCode) {
        s.key(&KeyEvent::new(code, crossterm::event::KeyModifiers::NONE));
    }

    /// `?` opens the help over the log: the keys of every view of the watcher, of the global ones
    /// those that work here; `q` closes the help alone.
    #[test]
    fn question_mark_opens_the_help_of_every_watch_view() {
        use crossterm::event::KeyCode;
        let mut s = screen();
        assert!(footer_text(&s).contains("e export  ? help  q quit"), "{}", footer_text(&s));
        press(&mut s, KeyCode::Char('?'));
        let first = drawn(&mut s, 120, 40);
        insta::with_settings!({snapshot_path => "../../tests/snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("watch_help", first);
        });
        let mut pages = first;
        for _ in 0..4 {
            press(&mut s, KeyCode::PageDown);
            pages.push_str(&drawn(&mut s, 120, 40));
        }
        let map = keymap::keymap();
        use watch_breaks::{BREAKS, HELD, HELD_EDIT, PROMPT, WATCH};
        let sections = [WATCH, Scope::Log, Scope::LogEntry, BREAKS, HELD, HELD_EDIT, PROMPT];
        let mut listed: Vec<(Scope, keymap::Binding)> =
            sections.iter().flat_map(|&scope| map.own(scope).map(move |b| (scope, b.clone()))).collect();
        listed.extend(map.global_in(WATCH).into_iter().map(|b| (Scope::Any, b)));
        for (_, b) in listed.iter().filter(|(scope, b)| works(*scope, b.command)) {
            let start: String = b.help.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            assert!(pages.contains(&b.label) && pages.contains(&start), "the help lacks {} ({start})", b.label);
        }
        // Nothing the watcher cannot do.
        for absent in ["logging/setLevel", "next result view", "reconnect", "zoom"] {
            assert!(!pages.contains(absent), "{absent} listed: {pages}");
        }
        press(&mut s, KeyCode::Char('q'));
        assert!(s.overlays.is_empty());
        // Over a view, the help opens on top of it, and closing it leaves the view.
        s.overlays.push(Box::new(BreakList::new(vec![">echo".into()], s.control.clone())));
        press(&mut s, KeyCode::F(1));
        assert_eq!(s.overlays.last().map(|o| o.scope()), Some(Scope::Help));
        press(&mut s, KeyCode::Char('q'));
        assert_eq!(s.overlays.iter().map(|o| o.scope()).collect::<Vec<_>>(), [watch_breaks::BREAKS]);
    }

    #[test]
    fn the_footer_offers_the_keys_of_what_takes_them_each_once() {
        let mut s = screen();
        let main = footer_text(&s);
        assert_eq!(main.matches("q quit").count(), 1, "{main}");
        assert!(main.contains("b break") && main.contains("/ method"), "{main}");
        // Keys that do nothing on a watched session are not offered.
        assert!(!main.contains("server level") && !main.contains("next page") && !main.contains("zoom"), "{main}");
        // In the breakpoint's prompt letters type: only Enter and Esc do something.
        s.overlays.push(Box::new(Prompt::new_break(s.control.clone())));
        let typing = footer_text(&s);
        assert!(typing.contains("Enter set") && typing.contains("Esc cancel"), "{typing}");
        assert!(!typing.contains("quit") && !typing.contains("help"), "{typing}");
    }

    #[test]
    fn every_breakpoint_set_is_named_in_the_header() {
        let mut s = screen();
        let said = serde_json::json!({"event": "ok", "did": "break <ping", "breaks": [">echo", "<ping"]});
        s.breaks = breaks_of(&said).unwrap_or_default();
        let mut term =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 8)).unwrap_or_else(|e| panic!("{e}"));
        term.draw(|f| s.draw(f)).unwrap_or_else(|e| panic!("{e}"));
        let text = crate::ui::headless::buffer_text(term.backend().buffer());
        let top = text.lines().next().unwrap_or_default();
        assert!(top.contains(">echo · <ping") && top.contains("B lists them"), "{text}");
        // A release's answer lists none: the list stays.
        assert_eq!(breaks_of(&serde_json::json!({"event": "ok", "did": "release 1"})), None);
        assert!(footer_text(&s).contains("B breakpoints"));
    }

    #[test]
    fn export_times_read_back() {
        let t = parse_time("2026-11-25T16:28:44.492Z").unwrap_or(UNIX_EPOCH);
        assert_eq!(t.duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0), 1_795_624_124_492);
        assert_eq!(parse_time("1970-01-01T00:00:00.000Z"), Some(UNIX_EPOCH));
        assert_eq!(parse_time("2026-11-25 16:28:44"), None);
    }

    #[test]
    fn an_edit_is_logged_again_with_its_marks_and_answers_the_request() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        let mut originals = Originals::default();
        let time = "2026-11-25T16:28:44.000Z";
        for entry in [
            serde_json::json!({"seq": 40, "time": time, "kind": "sent", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}),
            serde_json::json!({"seq": 41, "time": time, "kind": "recv", "edited": true, "message": {"jsonrpc": "2.0", "id": 1, "result": {"a": 1}}}),
            serde_json::json!({"seq": 42, "time": time, "kind": "info", "text": "the reply 1 was held at a breakpoint and edited"}),
            serde_json::json!({"seq": 43, "time": time, "kind": "recv", "edit_of": 41, "message": {"jsonrpc": "2.0", "id": 1, "result": {"a": 2}}}),
        ] {
            log_entry(&log, &entry, &mut originals);
        }
        let export = crate::mcp::log::to_json_lines(&log, &log.entries());
        let lines: Vec<Value> = export.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        assert_eq!(lines[1]["edited"], true, "{export}");
        assert_eq!((&lines[3]["edit_of"], &lines[3]["reply_to"]), (&Value::from(1), &Value::from(0)), "{export}");
    }

    #[test]
    fn an_entry_is_logged_again_with_its_pairing_and_latency() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        let sent = serde_json::json!({"seq": 0, "time": "2026-11-25T16:28:44.000Z", "kind": "sent", "id": "1",
            "method": "ping", "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}});
        let recv = serde_json::json!({"seq": 1, "time": "2026-11-25T16:28:44.250Z", "kind": "recv", "id": "1",
            "latency_ms": 250.0, "message": {"jsonrpc": "2.0", "id": 1, "result": {}}});
        log_entry(&log, &sent, &mut Originals::default());
        log_entry(&log, &recv, &mut Originals::default());
        let reply = log.get(1).and_then(|e| e.msg).unwrap_or_else(|| panic!("no reply logged"));
        assert_eq!(reply.reply_to, Some(0));
        assert_eq!(reply.method.as_deref(), Some("ping"));
        assert_eq!(reply.latency, Some(Duration::from_millis(250)));
    }
}
