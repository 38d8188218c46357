//! Which server the TUI connects to: the target the arguments name, or, for a config file
//! that lists several servers and no `--server`, the one picked on screen (an entry that cannot
//! start says why and the picker comes back).

use std::io::IsTerminal;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;

use super::terminal::{restore_terminal, start_terminal};
use super::theme::{self, Role};
use super::{component, components, keymap, view};
use crate::cli::TargetArgs;
use crate::mcp::{ConnectOptions, Target};

/// What the TUI connects to, and the terminal if the picker started it.
pub(crate) struct Chosen {
    pub args: TargetArgs,
    pub target: Target,
    pub options: ConnectOptions,
    pub terminal: Option<ratatui::DefaultTerminal>,
}

/// The target to connect to, or the exit code when there is none (the user quit the picker,
/// or the arguments name nothing that can start).
pub(crate) async fn chosen(mut args: TargetArgs, theme: &theme::Theme) -> Result<Chosen, i32> {
    let mut terminal = None;
    let picking = several_servers(&args);
    let mut problem = None;
    loop {
        if let Some(choices) = &picking {
            if !std::io::stdout().is_terminal() {
                crate::cli::output::err_line(
                    "mcplens: the config file has several servers; pick one with --server NAME",
                );
                return Err(2);
            }
            let term = terminal.get_or_insert_with(start_terminal);
            let last = args.server.take();
            match pick_server(term, theme, &args, choices.clone(), (last, problem.take())).await {
                Some(name) => args.server = Some(name),
                None => {
                    restore_terminal();
                    return Err(0);
                }
            }
        }
        match startable(&args) {
            Ok((target, options)) => return Ok(Chosen { args, target, options, terminal }),
            Err(e) if picking.is_some() => problem = Some(e.message),
            Err(e) => {
                restore_if(&terminal);
                crate::cli::output::err_line(&format!("mcplens: error: {}", crate::sanitize::text(&e.message)));
                return Err(e.exit_code());
            }
        }
    }
}

fn restore_if(terminal: &Option<ratatui::DefaultTerminal>) {
    if terminal.is_some() {
        restore_terminal();
    }
}

/// The servers of the `--config` file when it lists more than one and `--server` names none.
fn several_servers(args: &TargetArgs) -> Option<Vec<crate::mcp::config::Choice>> {
    let path = args.config.as_ref().filter(|_| args.server.is_none())?;
    crate::mcp::config::choices(path).ok().filter(|c| c.len() > 1)
}

/// The target and options `args` name, once its command is known to start.
pub(super) fn startable(args: &TargetArgs) -> crate::error::Result<(Target, crate::mcp::ConnectOptions)> {
    let (target, options) = (args.target()?, args.connect_options()?);
    if let Target::Stdio(s) = &target {
        crate::mcp::stdio::check_command(s)?;
    }
    Ok((target, options))
}

/// Shows the config's servers until one is chosen (its name) or the user quits (`None`);
/// `(last, problem)`: the entry picked before and why it could not start.
async fn pick_server(
    terminal: &mut ratatui::DefaultTerminal,
    theme: &theme::Theme,
    args: &TargetArgs,
    choices: Vec<crate::mcp::config::Choice>,
    (last, problem): (Option<String>, Option<String>),
) -> Option<String> {
    use component::{Action, Component, Ctx, Effect};
    let file = args.config.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let names: Vec<String> = choices.iter().map(|c| c.name.clone()).collect();
    let mut picker = components::picker::Picker::servers(&file, choices);
    if let Some(i) = last.and_then(|l| names.iter().position(|n| *n == l)) {
        picker.select(i);
    }
    let mut notice = problem.map(|p| {
        let name = names.get(picker.cursor()).map_or("", String::as_str);
        let why = p.strip_prefix("cannot start the server: ").unwrap_or(&p);
        crate::sanitize::line(&format!("{name} cannot start: {why}")).into_owned()
    });
    let mut events = EventStream::new();
    loop {
        let drawn = terminal.draw(|f| {
            let area = f.area();
            f.render_widget(ratatui::widgets::Block::default().style(theme.base()), area);
            let (w, h) = picker.overlay_size(area);
            let r = view::centered(area, w, h);
            picker.draw(f, r, theme, true);
            if let Some(n) = &notice {
                let line = ratatui::layout::Rect { y: area.bottom().saturating_sub(1), height: 1, ..area };
                f.render_widget(ratatui::widgets::Paragraph::new(n.as_str()).style(theme.paint(Role::Error)), line);
            }
        });
        if drawn.is_err() {
            return None;
        }
        let key = match events.next().await {
            Some(Ok(Event::Key(k))) if k.kind != crossterm::event::KeyEventKind::Release => k,
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        };
        let mut cx = Ctx::new(theme);
        let used = picker.key(&key, &mut cx).yes()
            || keymap::lookup(&key, picker.scope()).is_some_and(|c| picker.command(c, &mut cx).yes());
        if !used && matches!(keymap::lookup(&key, picker.scope()), Some(keymap::Command::Quit | keymap::Command::Back))
        {
            return None;
        }
        for e in cx.effects {
            match e {
                Effect::App(Action::Connect(i)) => return names.get(i).cloned(),
                Effect::Notice(n, _) => notice = Some(crate::sanitize::line(&n).into_owned()),
                _ => {}
            }
        }
    }
}
