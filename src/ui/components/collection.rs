//! The collection's calls (`--collection FILE`, default mcplens-calls.toml), each with how its
//! last run went: pass, FAIL, running, not run, cancelled. A docked pane: `K` shows it in the schema's
//! place. Enter runs the selected call (on a failed one: shows its failures), `a` runs them all;
//! the runs go through the worker like any call (`Action::RunSaved`).

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::value::ValueOverlay;
use crate::call::CallStatus;
use crate::collection::{Collection, Failure, SavedCall};
use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Effect, Observed, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::saved::RunMsg;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("collection");

/// How a call's last run went.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    NotRun,
    /// Asked for, waiting for its turn or running.
    Running,
    Pass(Duration),
    Fail(Vec<Failure>, Duration),
    /// Stopped under way (Ctrl-K, or `R`), said as its result says it: "cancelled",
    /// "cancelled: reconnecting".
    Cancelled(String, Duration),
}

#[derive(Default)]
pub struct CollectionPane {
    file: String,
    calls: Vec<(SavedCall, State)>,
    /// Why the file could not be read, if it could not.
    problem: Option<String>,
    loaded: bool,
    scroll: Scroll,
}

impl CollectionPane {
    /// The calls read again; the runs of calls still there (same name, same call) are kept.
    fn set(&mut self, file: &str, loaded: &Result<Collection, String>) {
        self.file = file.to_string();
        self.loaded = true;
        match loaded {
            Ok(c) => {
                let old = std::mem::take(&mut self.calls);
                self.calls = c
                    .calls
                    .iter()
                    .map(|call| {
                        let state = old.iter().find(|(o, _)| o == call).map_or(State::NotRun, |(_, s)| s.clone());
                        (call.clone(), state)
                    })
                    .collect();
                self.problem = None;
            }
            Err(e) => self.problem = Some(e.clone()),
        }
        self.scroll.set_len(self.calls.len());
    }

    fn heard(&mut self, m: &RunMsg) {
        let (name, state) = match m {
            RunMsg::Started(name) => (name, State::Running),
            RunMsg::Done { name, failures, elapsed, .. } if failures.is_empty() => (name, State::Pass(*elapsed)),
            // Stopped by the user, not failed by the server: said as the call's result says it.
            RunMsg::Done { name, elapsed, entry, result, .. } if entry.status == CallStatus::Cancelled => {
                let why = result.error.clone().unwrap_or_else(|| "cancelled".into());
                (name, State::Cancelled(why, *elapsed))
            }
            RunMsg::Done { name, failures, elapsed, .. } => (name, State::Fail(failures.clone(), *elapsed)),
            RunMsg::Finished { not_run } => {
                for name in not_run {
                    self.set_state(name, State::NotRun);
                }
                return;
            }
        };
        self.set_state(name, state);
    }

    fn set_state(&mut self, name: &str, state: State) {
        if let Some((_, s)) = self.calls.iter_mut().find(|(c, _)| c.name == name) {
            *s = state;
        }
    }

    fn run(&mut self, which: Vec<usize>, cx: &mut Ctx) {
        if self.busy() {
            let stop = keymap::key(SCOPE, Command::CancelCall);
            cx.notice(format!("calls of the collection are running: {stop} stops them"), true);
            return;
        }
        let mut calls = vec![];
        for i in which {
            if let Some((call, state)) = self.calls.get_mut(i) {
                *state = State::Running;
                calls.push(call.clone());
            }
        }
        if calls.is_empty() {
            let save = keymap::key(Scope::Result, Command::SaveCall);
            cx.notice(format!("the collection has no call: {save} on a result saves one"), false);
            return;
        }
        cx.action(Action::RunSaved(calls));
    }

    fn failures(&self, i: usize) -> Option<ValueOverlay> {
        let (call, State::Fail(failures, _)) = self.calls.get(i)? else { return None };
        let text: Vec<String> = failures.iter().map(Failure::to_string).collect();
        Some(ValueOverlay::new(&format!("{}: {} failed", call.name, failures.len()), &text.join("\n")))
    }

    fn counts(&self) -> String {
        let n = |f: &dyn Fn(&State) -> bool| self.calls.iter().filter(|(_, s)| f(s)).count();
        let pass = n(&|s| matches!(s, State::Pass(_)));
        let fail = n(&|s| matches!(s, State::Fail(..)));
        let running = n(&|s| *s == State::Running);
        let cancelled = n(&|s| matches!(s, State::Cancelled(..)));
        let mut out = crate::ui::result::count(self.calls.len(), "call", "calls");
        for (k, word) in [(pass, "pass"), (fail, "FAIL"), (running, "running"), (cancelled, "cancelled")] {
            if k > 0 {
                out.push_str(&format!(" · {k} {word}"));
            }
        }
        out
    }

    /// The column the names start at: past the longest state word shown, 16 at least.
    fn name_column(&self) -> usize {
        self.calls.iter().map(|(_, s)| state_word(s).0.chars().count() + 1).max().unwrap_or(0).max(16)
    }

    fn row(&self, call: &SavedCall, state: &State, column: usize, t: &Theme) -> Line<'static> {
        let (word, role) = state_word(state);
        let bold = if matches!(state, State::Fail(..)) { Modifier::BOLD } else { Modifier::empty() };
        Line::from(vec![
            Span::styled(format!("{word:<column$}"), t.paint(role).add_modifier(bold)),
            Span::styled(
                sanitize::line_head(&call.name, 200).into_owned(),
                t.paint(Role::Text).add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("  {}", sanitize::line_head(&call.tool, 200)), t.paint(Role::Dim)),
        ])
    }
}

/// How a call's last run went, in a word or a few, and its colour.
fn state_word(state: &State) -> (String, Role) {
    match state {
        State::NotRun => ("not run".to_string(), Role::Dim),
        State::Running => ("running".to_string(), Role::Warning),
        State::Pass(d) => (format!("pass {} ms", d.as_millis()), Role::Ok),
        State::Fail(f, d) => (format!("FAIL {} ({} ms)", f.len(), d.as_millis()), Role::Error),
        State::Cancelled(why, d) => (format!("{} ({} ms)", sanitize::line_head(why, 80), d.as_millis()), Role::Warning),
    }
}

impl Component for CollectionPane {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn busy(&self) -> bool {
        self.calls.iter().any(|(_, s)| *s == State::Running)
    }

    fn title(&self) -> String {
        let (show, back) = (keymap::key(SCOPE, Command::Show), keymap::key(SCOPE, Command::Back));
        format!(" Collection {} ({show} or {back} hides it) ", crate::ui::saved::short_name(&self.file))
    }

    fn observe(&mut self, event: &Observed, _cx: &mut Ctx) {
        match event {
            Observed::Collection { file, loaded } => self.set(file, loaded),
            Observed::SavedRun(m) => self.heard(m),
            _ => {}
        }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let at = self.scroll.cursor;
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Activate => match self.failures(at) {
                Some(overlay) => cx.effects.push(Effect::Push(Box::new(overlay))),
                None => self.run(vec![at], cx),
            },
            Command::Run => self.run(vec![at], cx),
            Command::RunAll => self.run((0..self.calls.len()).collect(), cx),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        // The first two lines are the summary and a blank.
        self.scroll.set_height(area.height.saturating_sub(2) as usize);
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, _focused: bool) {
        let mut lines = vec![];
        if let Some(p) = &self.problem {
            lines
                .push(Line::styled(format!("cannot read the collection: {}", sanitize::line(p)), t.paint(Role::Error)));
        }
        if self.calls.is_empty() {
            let what = if self.loaded { "No saved calls yet" } else { "The collection is read when connected" };
            let save = keymap::key(Scope::Result, Command::SaveCall);
            lines.push(Line::styled(
                format!("{what}: {save} on a result saves the call on screen here."),
                t.paint(Role::Dim),
            ));
            f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }), area);
            return;
        }
        lines.push(Line::styled(
            format!(
                "{} — {} runs (on a FAIL: its failures), {} runs all",
                self.counts(),
                keymap::key(SCOPE, Command::Activate),
                keymap::key(SCOPE, Command::RunAll)
            ),
            t.paint(Role::Title),
        ));
        lines.push(Line::raw(""));
        let height = area.height.saturating_sub(lines.len() as u16) as usize;
        let column = self.name_column();
        for i in self.scroll.window(height) {
            let Some((call, state)) = self.calls.get(i) else { continue };
            let line = self.row(call, state, column, t);
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        let lines: Vec<Line> = lines.into_iter().map(|l| crate::ui::fit::fit(l, area.width as usize)).collect();
        f.render_widget(Paragraph::new(lines), area);
    }
}
