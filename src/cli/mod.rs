//! The headless commands (`tools`, `call`, `resources`, `read`, `prompt`, `complete`, `ping`,
//! `schema`, `demo-server`...) on top of the core.

pub mod answer;
pub mod app;
mod app_bridge;
pub mod args;
pub mod as_command;
pub mod auth;
mod call_history;
mod card;
pub mod collection;
mod command_first;
pub mod connect;
pub mod diff;
pub mod doctor;
pub mod early;
mod http1;
pub mod info;
pub mod items;
pub mod lint;
pub mod login;
pub mod output;
pub mod prompts;
#[cfg(unix)]
pub mod proxy;
#[cfg(unix)]
pub mod proxy_http;
pub mod record;
pub mod render;
pub mod replay;
pub mod resources;
pub mod settings;
pub mod shell;
pub mod skills;
pub mod snapshot;
pub mod suite;
pub mod task;
#[cfg(unix)]
pub mod watch;

use std::io::IsTerminal;

use serde_json::Value;
use serde_json::value::RawValue;

pub use args::{CallArgs, Cli, Command, TargetArgs};

use crate::call::{Call, PageCount};
use crate::envelope::Envelope;
use crate::error::{ErrorKind, LensError, Result};
use crate::mcp::{CallOptions, Cancel, ItemKind, Progress, Reply, RpcError, Session, ToolDescriptor, ToolList};
use crate::sanitize;

pub(crate) use output::{err_line, out};

/// A JSON-RPC error reply to a request: said on stderr; exit code 1.
pub(crate) fn refused(e: &RpcError) -> i32 {
    let data = e.data.as_ref().map(|d| format!(" ({})", crate::schema::tree::compact(d))).unwrap_or_default();
    err_line(&format!("mcplens: the server answered {}{}", sanitize::joined(&e.summary()), sanitize::line(&data)));
    1
}

/// A listing's warnings (a repeated cursor, a malformed descriptor) on stderr.
pub(crate) fn warn_list(warnings: &[String]) {
    for w in warnings {
        err_line(&format!("warning: {}", sanitize::line(w)));
    }
}

/// Where a result breaks the MCP schema (it is still shown).
pub(crate) fn warn_schema(warnings: &[String]) {
    for w in warnings {
        err_line(&format!("warning: the result breaks the MCP schema: {}", sanitize::line(w)));
    }
}

/// `mcplens tools`
pub async fn tools(target: &TargetArgs, json: bool) -> Result<i32> {
    let opened = connect::open(target).await?;
    opened.run(async |o| o.last_answer(o.session.list_tools()).await.and_then(|list| print_tools(list, json))).await
}

/// The listing of `mcplens tools`, readable or as JSON.
fn print_tools(list: ToolList, json: bool) -> Result<i32> {
    // On stderr, readable or JSON: stdout holds the listing alone.
    warn_list(&list.warnings);
    if json {
        write_tools_json(&list)?;
    } else {
        let text =
            format!("{} tools ({} page{})\n", list.tools.len(), list.pages, if list.pages == 1 { "" } else { "s" });
        if let Some(hint) = &list.cache {
            err_line(&sanitize::line(hint));
        }
        out(&text)?;
        // One descriptor parsed, rendered and written at a time, then dropped: 20,000 tools
        // parsed at once (and their text gathered) cost several times the list's size.
        for t in &list.tools {
            let mut one = t.transient();
            let text = render::tool(&one);
            if let Some(v) = one.take_value() {
                crate::deep::drop_value(v);
            }
            out(&format!("\n{text}"))?;
        }
    }
    // The process exits next: freeing thousands of descriptors piece by piece only costs time.
    std::mem::forget(list);
    Ok(0)
}

/// The descriptors as one JSON array, each element byte for byte as the server sent it (only
/// characters that could act as terminal controls are written as `\u` escapes).
pub fn tools_json(list: &ToolList) -> String {
    // Sized once, not grown (and copied) step by step as it fills.
    let mut s = String::with_capacity(list.tools.iter().map(|t| t.raw.get().len() + 1).sum::<usize>() + 2);
    // One piece: it is never emitted before the end, and what is left at the end is `s` itself.
    let _ = tools_json_pieces(list, usize::MAX, &mut s, |_| Ok(()));
    s
}

/// [`tools_json`] on stdout, written in pieces of about 64 KiB as it is made, so that a long
/// listing is not gathered into one string (fresh memory as large as the listing) first. With
/// secrets to mask it is written whole: a secret could straddle two pieces.
fn write_tools_json(list: &ToolList) -> Result<()> {
    if output::has_secrets() {
        return out(&tools_json(list));
    }
    const PIECE: usize = 64 << 10;
    tools_json_pieces(list, PIECE, &mut String::with_capacity(PIECE + (16 << 10)), out)
}

/// The text of [`tools_json`], gathered in `piece` and handed to `emit` in pieces of at least
/// `len` bytes (and the rest); `piece` is cleared after each but the last.
fn tools_json_pieces(
    list: &ToolList,
    len: usize,
    piece: &mut String,
    mut emit: impl FnMut(&str) -> Result<()>,
) -> Result<()> {
    piece.push('[');
    for (i, t) in list.tools.iter().enumerate() {
        if i > 0 {
            piece.push(',');
        }
        piece.push_str(&sanitize::json(t.raw.get()));
        if piece.len() >= len {
            emit(piece)?;
            piece.clear();
        }
    }
    piece.push_str("]\n");
    emit(piece)
}

/// The `result` (or `error`) member of a reply, exactly as sent.
pub fn raw_member(reply: &Reply) -> String {
    // `"result": null` is a member too (it breaks the MCP schema, and is shown as sent).
    fn present<'de: 'a, 'a, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<&'a RawValue>, D::Error> {
        <&RawValue as serde::Deserialize>::deserialize(d).map(Some)
    }
    #[derive(serde::Deserialize)]
    struct Members<'a> {
        #[serde(borrow, default, deserialize_with = "present")]
        result: Option<&'a RawValue>,
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
    }
    match serde_json::from_str::<Members>(&reply.raw) {
        Ok(Members { error: Some(e), .. }) => sanitize::json(e.get()).into_owned(),
        Ok(Members { result: Some(r), .. }) => sanitize::json(r.get()).into_owned(),
        _ => sanitize::json(&reply.raw).into_owned(),
    }
}

fn suggest(list: &ToolList, name: &str) -> String {
    let names: Vec<&str> = list.tools.iter().map(|t| t.name()).filter(|n| !n.is_empty()).collect();
    let lower = name.to_lowercase();
    let close: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| {
            let n = n.to_lowercase();
            n.contains(&lower) || lower.contains(&n) || n.split('_').any(|p| p.len() > 2 && lower.contains(p))
        })
        .take(5)
        .collect();
    let mut said = match (close.is_empty(), names.len()) {
        (false, _) => format!("did you mean: {}", close.join(", ")),
        (true, 0) => "the server lists no tools".to_string(),
        (true, n) if n <= 10 => format!("the server has: {}", names.join(", ")),
        (true, n) => {
            format!("the server has: {}, and {} more (`mcplens tools` lists them)", names[..10].join(", "), n - 10)
        }
    };
    // A descriptor too broken to name may be the one asked for.
    let unread = list.tools.len() - names.len();
    if unread > 0 {
        let s = if unread == 1 { "" } else { "s" };
        let not_read = format!("{unread} tool descriptor{s} it listed could not be read (`mcplens tools` says why)");
        said = if names.is_empty() { not_read } else { format!("{said}; {not_read}") };
    }
    said
}

/// `call --print-command | --print-curl | --print-message`: the call as text to paste, not run.
fn print_call(
    session: &Session,
    a: &CallArgs,
    form: as_command::Form,
    name: &str,
    arguments: Option<&serde_json::Map<String, Value>>,
) -> Result<i32> {
    let spec = as_command::Spec {
        target: &a.target,
        tool: name,
        arguments,
        era: session.era(),
        version: session.server.protocol_version(),
    };
    let text = as_command::render(&spec, form, a.show_secrets, session.target.secrets()).map_err(LensError::usage)?;
    if a.show_secrets {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        output::stdout_result(stdout.write_all(sanitize::text(&text).as_bytes()).and_then(|()| stdout.flush()))?;
        return Ok(0);
    }
    out(&sanitize::text(&text))?;
    Ok(0)
}

/// `mcplens call`
pub async fn call(a: &CallArgs) -> Result<i32> {
    crate::envelope::conventions::read_preset_beside();
    let mut options = a.target.connect_options()?;
    options.asks = Some(answer::Policy::new(&a.answers)?.start());
    connect::open_with(&a.target, options).await?.run(async |o| call_in(o, a).await).await
}

async fn call_in(opened: &connect::Opened, a: &CallArgs) -> Result<i32> {
    let session = &opened.session;
    let list = session.list_tools().await?;
    let tool = list.find(&a.tool);
    let arguments = checked_arguments(&list, tool, a)?;
    if let Some(form) = a.print_form() {
        let name = tool.map_or(a.tool.as_str(), |t| t.name());
        return print_call(session, a, form, name, arguments.as_ref());
    }
    let mut hints = crate::envelope::hints::Hints::load_default(a.target.project_dir().as_deref());
    hints.aliases = a.target.server_names();
    let label = session.target.label();
    let hint = hints.find(&[session.server.name(), &label], &a.tool);
    // The name as the server listed it (typed `sur\ud800` finds a name with a lone surrogate).
    let name = tool.map_or(a.tool.as_str(), |t| t.name());
    let call = Call { tool: name, arguments: arguments.as_ref(), descriptor: tool.map(|t| t.value()), hint };
    let cancel = Cancel::new();
    let ctrl_c = cancel.clone();
    let watcher = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            ctrl_c.cancel();
        }
    });
    let tty = std::io::stderr().is_terminal();
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    if a.no_wait {
        watcher.abort();
        return task::start(opened, &a.tool, arguments.as_ref(), a.json, &opts).await;
    }
    let started = std::time::Instant::now();
    let reply = send_call(session, &call, a, &opts, tty).await;
    watcher.abort();
    clear_line(tty);
    // The server's log messages sent before its reply are printed before the answer.
    opened.caught_up();
    let purpose = if a.all_pages { crate::call::Purpose::AllPages } else { crate::call::Purpose::New };
    let status = match &reply {
        Ok(r) => crate::call::reply_status(r),
        Err(e) => crate::call::CallStatus::of_error(e, false),
    };
    call_history::record(session, name, arguments.as_ref(), started, (status, purpose));
    let reply = reply?;
    for w in &reply.warnings {
        err_line(&format!("warning: the result breaks the MCP schema: {}", sanitize::line(w)));
    }
    // A warning, not a failure: the exit code says how the call went (docs/headless.md).
    let output_schema = tool.and_then(|t| t.output_schema());
    let checked = output_schema.and_then(|s| crate::call::output_schema::check(s, &reply.raw, OUTPUT_CHECKED));
    if let Some(w) = checked.and_then(|c| c.warning()) {
        err_line(&format!("warning: {}", sanitize::line(&w)));
    }
    // `--json` of one page writes every number as sent (`json::exact`): only lone surrogates,
    // which no Rust string holds, are still shown approximated there.
    let exact_json = a.json && reply.elisions.approximated.surrogates == 0;
    if let Some(note) = reply.approximation_note().filter(|_| !a.raw && !exact_json) {
        err_line(&format!("warning: {note}"));
    }
    if a.raw {
        let code = crate::call::reply_status(&reply).exit_code();
        out(&(raw_member(&reply) + "\n"))?;
        // The process exits next: freeing a big parsed reply piece by piece only costs time.
        std::mem::forget(reply);
        return Ok(code);
    }
    for p in &hints.problems {
        err_line(&format!("warning: hints: {} (the built-in heuristics go on)", sanitize::line(p)));
    }
    written(session, &call, reply, a, (&opts, tty)).await
}

/// structuredContent up to this size is checked against the tool's outputSchema (its tree costs
/// ten times its text).
const OUTPUT_CHECKED: usize = 16 << 20;

/// The call's arguments from the command line, checked against the tool's input schema
/// (unless `--no-validate`): a tool not listed or arguments that break its schema are usage
/// errors.
fn checked_arguments(
    list: &ToolList,
    tool: Option<&ToolDescriptor>,
    a: &CallArgs,
) -> Result<Option<serde_json::Map<String, Value>>> {
    if tool.is_none() && !a.no_validate {
        return Err(LensError::usage(format!(
            "no tool named {:?} on this server; {} (--no-validate sends the call anyway)",
            sanitize::line(&a.tool).into_owned(),
            sanitize::line(&suggest(list, &a.tool))
        )));
    }
    let schema = tool.and_then(|t| t.input_schema());
    let arguments = crate::schema::args::build(schema, a.args.as_deref(), &a.arg)?;
    if !a.no_validate
        && let Some(schema) = schema
    {
        let instance = Value::Object(arguments.clone().unwrap_or_default());
        match crate::schema::validate::validate(schema, &instance) {
            Ok(v) if v.is_empty() => {}
            Ok(v) => {
                let mut msg = format!("the arguments break {}'s input schema:", sanitize::line(&a.tool));
                for x in v {
                    msg.push_str(&format!("\n  {x}"));
                }
                msg.push_str("\n(--no-validate sends them anyway)");
                return Err(LensError::usage(msg));
            }
            Err(e) => err_line(&format!("warning: not validated: {}", sanitize::line(&e))),
        }
    }
    Ok(arguments)
}

/// Sends the call, as a task when asked or when the tool requires one; progress on stderr.
async fn send_call(session: &Session, call: &Call<'_>, a: &CallArgs, opts: &CallOptions, tty: bool) -> Result<Reply> {
    let required = call.requires_task();
    if a.task || required {
        if required && !a.task {
            err_line(&format!("{} requires a task: run as one", sanitize::line(&a.tool)));
        }
        session.run_task(&a.tool, call.arguments, opts, &mut |t| task::show(t, tty)).await
    } else {
        call.send(session, opts, &mut |p| show_progress(p, tty)).await
    }
}

/// Reads the reply into an envelope (every page, with `--all-pages`) and writes it: as JSON
/// with `--json`, else rendered for a person; returns the exit code.
async fn written(
    session: &Session,
    call: &Call<'_>,
    reply: Reply,
    a: &CallArgs,
    (opts, tty): (&CallOptions, bool),
) -> Result<i32> {
    // Checked before the reply is read into an envelope: its text holds every string of it.
    let secret_in_reply = output::has_secrets() && (a.all_pages || output::holds_secret(&reply.raw));
    // The last request was this one, unless more pages are asked for: the server's input is
    // closed, and it exits while the answer is read and written.
    if !a.all_pages {
        session.end_input().await;
    }
    // One page written as JSON keeps every number as the server wrote it (see `json::exact`).
    let max_depth = session.options().max_depth;
    if a.json {
        // Nothing shows this reply whole again (the log printed here shows server log messages
        // and HTTP exchanges), so its long text may be decoded in the reply's own buffer.
        session.log().let_go(&reply.raw);
    }
    let (answer, mut guide) = call.read_with_guide(reply, a.json.then_some(max_depth));
    let mut envelope = answer.envelope;
    if a.all_pages && envelope.has_more() {
        let on_page = &mut |c: &PageCount| show_page(c, tty);
        if a.json {
            let known = vec![(envelope, guide)];
            (envelope, guide, _) = crate::call::all_pages_exact(session, call, known, a.max_pages, opts, on_page).await;
        } else {
            (envelope, _) = crate::call::all_pages(session, call, vec![envelope], a.max_pages, opts, on_page).await;
        }
        clear_line(tty);
    }
    if a.all_pages {
        session.end_input().await;
    }
    let code =
        if envelope.response_type == crate::envelope::ResponseType::Error { 1 } else { answer.status.exit_code() };
    if a.json {
        write_json(&mut envelope, guide.as_mut(), secret_in_reply)?;
    } else {
        out(&render::envelope(&envelope))?;
        if let Some(e) = &answer.rpc_error {
            err_line(&sanitize::joined(&Reply::error_summary(e)));
        }
    }
    // The process exits next: freeing a big envelope piece by piece only costs time.
    std::mem::forget(envelope);
    Ok(code)
}

/// The envelope as JSON on stdout: streamed, so a 100 MB envelope is never built as one string,
/// unless it holds a secret to mask, which needs the whole text.
fn write_json(envelope: &mut Envelope, guide: Option<&mut Envelope>, secret: bool) -> Result<()> {
    fn write<W: std::io::Write>(w: W, e: &mut Envelope, guide: Option<&mut Envelope>) -> std::io::Result<W> {
        match guide {
            Some(g) => crate::json_out::write_envelope_exact(w, e, g),
            None => crate::json_out::write_envelope(w, e),
        }
    }
    if secret {
        let text = output::stdout_result(write(Vec::new(), envelope, guide))?;
        return out(&String::from_utf8_lossy(&text));
    }
    let stdout = output::stdout_result(output::RawStdout::new())?;
    // The printer gathers what it writes itself (64 KB at a time, a long list's chunks in
    // aligned pieces): a buffer here would only copy it again, or cut the chunks apart.
    let written = write(stdout, envelope, guide).and_then(|mut w| std::io::Write::flush(&mut w));
    output::stdout_result(written)
}

/// A progress notification on stderr: one line rewritten on a terminal, a line each elsewhere.
fn show_progress(p: &Progress, tty: bool) {
    let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
    let msg = p.message.as_deref().map(|m| format!(" {}", sanitize::line(m))).unwrap_or_default();
    status_line(&format!("progress {}{total}{msg}", p.progress), tty);
}

/// The pages gathered so far, on stderr.
fn show_page(c: &PageCount, tty: bool) {
    let of = c.total.map(|t| format!(" of {t}")).unwrap_or_default();
    // A document read in slices has no items to count.
    let count = if c.items == 0 && c.total.is_none() { String::new() } else { format!(": {}{of} items", c.items) };
    status_line(&format!("page {}{count}", c.pages), tty);
}

pub(crate) fn status_line(text: &str, tty: bool) {
    if tty {
        output::err_raw(&format!("\r\x1b[2K{text}"));
    } else {
        err_line(text);
    }
}

fn clear_line(tty: bool) {
    if tty {
        output::err_raw("\r\x1b[2K");
    }
}

/// The server to start as soon as the command line is read, before the command sets up its
/// session (see `mcp::stdio::start_early`): that of a command whose first act is to connect to a
/// server run as a command (the listings, `call`, `info`, `ping`), when nothing the command
/// checks before connecting stops it first. None for any other command or target.
pub fn early_server(cli: &Cli) -> Option<crate::mcp::StdioTarget> {
    let target = match cli.command.as_ref()? {
        Command::Tools { target, .. }
        | Command::Info { target, .. }
        | Command::Resources { target, .. }
        | Command::Templates { target, .. }
        | Command::Prompts { target, .. }
        | Command::Ping { target, .. } => target,
        Command::Call(a) if answer::Policy::new(&a.answers).is_ok() => &a.target,
        _ => return None,
    };
    target.connect_options().ok()?;
    match target.target().ok()? {
        crate::mcp::Target::Stdio(s) => Some(s),
        crate::mcp::Target::Http(_) => None,
    }
}

/// Runs a parsed command line (not the TUI) and returns the process exit code.
pub async fn run(cli: Cli) -> i32 {
    if let Some(Ok(t)) = cli.command.as_ref().and_then(Command::target).map(TargetArgs::target) {
        output::set_redactor(crate::mcp::log::Redactor::new(t.secrets()));
    }
    for w in cli.command.as_ref().and_then(Command::target).map(TargetArgs::config_warnings).unwrap_or_default() {
        err_line(&format!("warning: {}", sanitize::line(&w)));
    }
    let result = match &cli.command {
        Some(Command::Tools { target, json }) => tools(target, *json).await,
        Some(Command::Call(a)) => call(a).await,
        Some(Command::Test(a)) => collection::test(a).await,
        Some(Command::Info { target, json }) => info::info(target, *json).await,
        Some(Command::Task(t)) => task::command(t).await,
        Some(Command::Resources { target, json }) => resources::list(target, ItemKind::Resource, *json).await,
        Some(Command::Templates { target, json }) => resources::list(target, ItemKind::Template, *json).await,
        Some(Command::Prompts { target, json }) => resources::list(target, ItemKind::Prompt, *json).await,
        Some(Command::Read(a)) => resources::read(a).await,
        Some(Command::Skills(a)) => skills::skills(a).await,
        Some(Command::App(a)) => app::app(a).await,
        Some(Command::Prompt(a)) => prompts::prompt(a).await,
        Some(Command::Complete(a)) => prompts::complete(a).await,
        Some(Command::Ping { target, count }) => prompts::ping(target, *count).await,
        Some(Command::Snapshot { target, output }) => snapshot::snapshot(target, output.as_deref()).await,
        Some(Command::Diff { old, new, json, target }) => {
            diff::diff(old, new.as_deref(), target, *json, target.max_depth).await
        }
        Some(Command::Auth { action, target }) => auth::command(*action, target).await,
        Some(Command::Record { output, target }) => record::record(output, target).await,
        #[cfg(unix)]
        Some(Command::Proxy { output, listen, target }) => {
            proxy::proxy(output.as_deref(), listen.as_deref(), target).await
        }
        #[cfg(unix)]
        Some(Command::Watch { pid: Some(pid), tui: true, breaks }) => {
            Ok(crate::ui::watch_mode::run(*pid, breaks).await)
        }
        #[cfg(unix)]
        Some(Command::Watch { pid, breaks, .. }) => watch::watch(*pid, breaks).await,
        Some(Command::Replay { file, http, max_depth }) => replay::replay(file, http.as_deref(), *max_depth).await,
        Some(Command::Doctor { target, json }) => doctor::doctor(target, *json).await,
        Some(Command::Lint { rules: true, .. }) => lint::rules(),
        Some(Command::Lint { target, json, card: Some(card), .. }) => card::lint_card(target, card, *json).await,
        Some(Command::Lint { target, json, server_json: Some(file), .. }) => {
            lint::server_json(target, file, *json).await
        }
        Some(Command::Lint { target, json, snapshot, recording, .. }) => {
            let from = lint::Source { snapshot: snapshot.as_deref(), recording: recording.as_deref() };
            lint::lint(target, from, *json).await
        }
        Some(Command::Schema { which: args::SchemaName::Envelope }) => out(crate::envelope::SCHEMA).map(|_| 0),
        Some(Command::Completions { shell }) => shell::completions(*shell),
        Some(Command::Man { dir }) => shell::man(dir.as_deref()),
        Some(Command::DemoServer) => match crate::demo::serve_stdio().await {
            Ok(()) => Ok(0),
            Err(e) => Err(LensError::connection(format!("demo server: {e}"))),
        },
        None => Err(LensError::usage("the TUI is started by main")),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            let prefix = match e.kind {
                ErrorKind::Usage => "error",
                ErrorKind::Connection => "connection failed",
                ErrorKind::Tool => "tool error",
                ErrorKind::Cancelled => "cancelled",
                // Said once by `output::exit_code`.
                ErrorKind::Output => {
                    output::lost(&sanitize::line(&e.message));
                    return output::exit_code(0);
                }
            };
            err_line(&format!("mcplens: {prefix}: {}", sanitize::text(&e.message)));
            e.exit_code()
        }
    };
    output::exit_code(code)
}
