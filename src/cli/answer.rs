//! Answering the server's requests during a headless `call`: by the policy of `--elicitation`,
//! `--elicitation-answer` and `--sampling-answer`, or by asking on the terminal. What was asked
//! and what was answered always goes to stderr, so a script's log shows it.

use std::io::{BufRead, IsTerminal};

use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use super::args::{AnswerArgs, Elicitation};
use crate::error::{LensError, Result};
use crate::mcp::asks::{self, Answer, AskDesk, AskKind, AskSchema, ServerAsk};
use crate::mcp::exact_numbers;
use crate::sanitize;

mod form;

/// The model name a typed sampling reply reports: a person wrote it.
const MODEL: &str = "mcplens (typed by the user)";

#[derive(Debug, Clone)]
pub struct Policy {
    elicitation: Elicitation,
    given: Option<Map<String, Value>>,
    sampling: Option<String>,
    terminal: bool,
}

impl Policy {
    pub fn new(a: &AnswerArgs) -> Result<Policy> {
        let given = match &a.elicitation_answer {
            None => None,
            // Numbers as given: one beyond 64 bits reaches the server whole.
            Some(text) => match exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH) {
                Ok(Value::Object(m)) => Some(m),
                Ok(_) => return Err(LensError::usage("--elicitation-answer must be a JSON object")),
                Err(e) => return Err(LensError::usage(format!("--elicitation-answer is not valid JSON: {e}"))),
            },
        };
        let elicitation = match (a.elicitation, &given) {
            (Some(e @ (Elicitation::Decline | Elicitation::Cancel)), Some(_)) => {
                return Err(LensError::usage(format!(
                    "--elicitation-answer accepts; it cannot go with --elicitation {}",
                    if e == Elicitation::Decline { "decline" } else { "cancel" }
                )));
            }
            (_, Some(_)) => Elicitation::Accept,
            (e, None) => e.unwrap_or(Elicitation::Ask),
        };
        let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        Ok(Policy { elicitation, given, sampling: a.sampling_answer.clone(), terminal })
    }

    /// A desk whose asks this policy answers, on a task of its own.
    pub fn start(self) -> AskDesk {
        let (desk, rx) = AskDesk::new();
        tokio::spawn(self.serve(rx));
        desk
    }

    async fn serve(self, mut rx: UnboundedReceiver<ServerAsk>) {
        while let Some(ask) = rx.recv().await {
            let policy = self.clone();
            // Reading the terminal blocks: off the runtime's threads.
            let answered = tokio::task::spawn_blocking(move || {
                let answer = policy.answer(&ask);
                ask.answer(answer);
            })
            .await;
            if answered.is_err() {
                say("could not answer the server's request; it was cancelled");
            }
        }
    }

    fn answer(&self, ask: &ServerAsk) -> Answer {
        say(&format!("\n{}", ask.summary()));
        let answer = match &ask.kind {
            AskKind::Form { schema, .. } => self.form(schema),
            AskKind::Url { url, .. } => self.url(url),
            AskKind::Sampling { params, messages } => self.sampling(params, *messages),
        };
        say(&format!("mcplens answered: {}", describe(&answer)));
        answer
    }

    fn form(&self, schema: &AskSchema) -> Answer {
        match self.elicitation {
            Elicitation::Decline => Answer::Decline,
            Elicitation::Cancel => Answer::Cancel,
            Elicitation::Accept => {
                let content = asks::with_defaults(schema, self.given.as_ref().unwrap_or(&Map::new()));
                for p in problems(schema, &content) {
                    say(&format!("warning: the answer breaks the requested schema: {p}"));
                }
                Answer::Accept(content)
            }
            Elicitation::Ask if self.terminal => form::ask(schema, &mut Terminal),
            Elicitation::Ask => {
                say(
                    "declined: there is no terminal to ask on (--elicitation accept|decline|cancel, --elicitation-answer JSON)",
                );
                Answer::Decline
            }
        }
    }

    fn url(&self, url: &str) -> Answer {
        match self.elicitation {
            Elicitation::Decline => Answer::Decline,
            Elicitation::Cancel => Answer::Cancel,
            Elicitation::Accept => Answer::Accept(Map::new()),
            Elicitation::Ask if self.terminal => {
                match prompt(
                    "open it in the browser (o), accept without opening (a), decline (d) or cancel (c)? [o/a/d/C] ",
                )
                .as_deref()
                .map(str::trim)
                {
                    Some("o") => match crate::opener::open_url(url) {
                        Ok(()) => Answer::Accept(Map::new()),
                        Err(e) => {
                            say(&format!("not opened: {e}"));
                            Answer::Decline
                        }
                    },
                    Some("a") => Answer::Accept(Map::new()),
                    Some("d") => Answer::Decline,
                    _ => Answer::Cancel,
                }
            }
            Elicitation::Ask => {
                say("declined: there is no terminal to ask on (--elicitation accept opens nothing and accepts)");
                Answer::Decline
            }
        }
    }

    fn sampling(&self, params: &Value, messages: usize) -> Answer {
        for line in asks::sampling_lines(params, messages) {
            say(&format!("  {}", sanitize::line(&line)));
        }
        match self.sampling.as_deref() {
            Some("decline") => Answer::Decline,
            Some(text) => Answer::Reply { text: text.to_string(), model: MODEL.into() },
            None if self.terminal => {
                say("type the model's reply; an empty line ends it (an empty reply declines):");
                let text = read_lines();
                if text.is_empty() { Answer::Decline } else { Answer::Reply { text, model: MODEL.into() } }
            }
            None => {
                say("declined: there is no terminal to ask on (--sampling-answer TEXT|decline)");
                Answer::Decline
            }
        }
    }
}

/// The person at the terminal: asked on stderr, answering on stdin.
struct Terminal;

impl form::Console for Terminal {
    fn ask(&mut self, q: &str) -> Option<String> {
        prompt(q)
    }

    fn say(&mut self, text: &str) {
        say(text);
    }
}

fn problems(schema: &AskSchema, content: &Map<String, Value>) -> Vec<String> {
    match schema.problems(content) {
        Ok(v) => v.iter().map(|x| sanitize::line(&x.to_string()).into_owned()).collect(),
        Err(e) => vec![sanitize::line(&e).into_owned()],
    }
}

fn describe(a: &Answer) -> String {
    match a {
        Answer::Accept(c) if c.is_empty() => "accept".into(),
        Answer::Accept(c) => format!("accept {}", sanitize::line(&exact_numbers::shown(&Value::Object(c.clone())))),
        Answer::Decline => "decline".into(),
        Answer::Cancel => "cancel".into(),
        Answer::Reply { text, .. } => format!("a reply of {} characters", text.chars().count()),
    }
}

/// A line on stderr, made safe for a terminal (it quotes the server); a closed stderr loses it
/// and nothing else.
fn say(text: &str) {
    super::output::err_line(&sanitize::text(text));
}

/// One answer from the terminal as typed, without its line end; None at end of input.
fn prompt(q: &str) -> Option<String> {
    super::output::err_raw(&sanitize::line(q));
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let typed = line.strip_suffix('\n').unwrap_or(&line);
            Some(typed.strip_suffix('\r').unwrap_or(typed).to_string())
        }
    }
}

/// Lines until an empty one or the end of input.
fn read_lines() -> String {
    let mut out = vec![];
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        match line {
            Ok(l) if l.is_empty() => break,
            Ok(l) => out.push(l),
            Err(_) => break,
        }
    }
    out.join("\n")
}
