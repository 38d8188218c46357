//! A call as something to paste: the `mcplens call` command line (the target and its flags, the
//! arguments, the protocol), a `curl` request for an HTTP server (one request in the 2026-07-28
//! era; the initialize handshake first in the legacy era), or the JSON-RPC message itself. The
//! target's secrets (env values, header values, a client secret) are masked unless asked for.

use serde_json::{Map, Value, json};

use super::args::{DEFAULT_MAX_MESSAGE_MB, DEFAULT_TIMEOUT, OAuthArgs, TargetArgs};
use crate::mcp::era::Era;
use crate::mcp::log::Redactor;

pub use super::args::Form;

/// What a call is copied against: the target as given, and its secrets (masked in the text).
pub struct CopySource {
    pub args: TargetArgs,
    pub secrets: Vec<String>,
}

/// The call of `tool` with `arguments` on the target, in the protocol `version` of `era`.
pub struct Spec<'a> {
    pub target: &'a TargetArgs,
    pub tool: &'a str,
    pub arguments: Option<&'a Map<String, Value>>,
    pub era: Era,
    pub version: &'a str,
}

/// The text to print (secrets masked unless `show_secrets`), or why this form does not apply.
pub fn render(spec: &Spec, form: Form, show_secrets: bool, secrets: Vec<String>) -> Result<String, String> {
    let redactor = (!show_secrets).then(|| Redactor::new(secrets));
    let w = Words(redactor.as_ref());
    let text = match form {
        Form::Command => command(spec, w),
        Form::Message => format!("{}\n", message(spec, 1, MCPLENS)),
        Form::Curl => curl(spec, w)?,
    };
    Ok(match &redactor {
        Some(r) => r.redact(&text).into_owned(),
        None => text,
    })
}

/// How values become shell words: each masked (unless the secrets are shown) before it is
/// quoted, since a secret quoted for the shell (`'` written `'\''`) is no longer found whole in
/// the text.
#[derive(Clone, Copy)]
struct Words<'r>(Option<&'r Redactor>);

impl Words<'_> {
    fn word(self, s: &str) -> String {
        match self.0 {
            Some(r) => quote(&r.redact(s)),
            None => quote(s),
        }
    }

    fn shows_secrets(self) -> bool {
        self.0.is_none()
    }
}

/// Who sends the message, as its `clientInfo` says: curl for the curl form, else mcplens.
type Client = (&'static str, &'static str);
const CURL: Client = ("curl", "1");
const MCPLENS: Client = ("mcplens", env!("CARGO_PKG_VERSION"));

/// The JSON-RPC request, one line: in the modern era with the `_meta` every request carries.
pub fn message(spec: &Spec, id: u64, (client, client_version): Client) -> String {
    let mut params = Map::new();
    params.insert("name".into(), spec.tool.into());
    if let Some(a) = spec.arguments {
        params.insert("arguments".into(), Value::Object(a.clone()));
    }
    if spec.era == Era::Modern {
        params.insert(
            "_meta".into(),
            json!({
                "io.modelcontextprotocol/protocolVersion": spec.version,
                "io.modelcontextprotocol/clientInfo": {"name": client, "version": client_version},
                "io.modelcontextprotocol/clientCapabilities": {},
            }),
        );
    }
    let text = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string();
    // Characters that could act as terminal controls written as `\u` escapes: the same JSON.
    crate::sanitize::json(&as_sent(&text)).into_owned()
}

/// JSON text with each number kept as typed (and each name kept as the server wrote it) in the
/// literal that goes out on the wire (see `mcp::wire::exact_literal`).
fn as_sent(json: &str) -> std::borrow::Cow<'_, str> {
    crate::mcp::wire::with_exact_literals(json)
}

fn command(spec: &Spec, w: Words) -> String {
    let t = spec.target;
    let mut words = vec!["mcplens".to_string(), "call".into(), w.word(spec.tool)];
    if let Some(a) = spec.arguments.filter(|a| !a.is_empty()) {
        let json = Value::Object(a.clone()).to_string();
        words.extend(["--args".into(), w.word(&crate::sanitize::json(&as_sent(&json)))]);
    }
    if !spec.version.is_empty() {
        words.extend(["--protocol".into(), w.word(spec.version)]);
    }
    words.extend(target_words(t, w));
    words.extend(oauth_words(&t.oauth, w));
    if !t.command.is_empty() {
        words.push("--".into());
        words.extend(t.command.iter().map(|word| w.word(word)));
    }
    format!("{}\n", words.join(" "))
}

/// The target's flags that differ from their defaults, so that the command reaches the same
/// server the same way (OAuth apart: [`oauth_words`]).
fn target_words(t: &TargetArgs, w: Words) -> Vec<String> {
    let mut words = vec![];
    let mut flag = |name: &str, value: String| words.extend([name.to_string(), w.word(&value)]);
    let path = |p: &std::path::Path| p.to_string_lossy().into_owned();
    t.url.iter().for_each(|u| flag("--url", u.clone()));
    t.headers.iter().for_each(|h| flag("-H", h.clone()));
    t.config.iter().for_each(|c| flag("--config", path(c)));
    t.server.iter().for_each(|s| flag("--server", s.clone()));
    t.env.iter().for_each(|e| flag("-e", e.clone()));
    t.cwd.iter().for_each(|c| flag("--cwd", path(c)));
    t.roots.iter().for_each(|r| flag("--root", path(r)));
    if t.timeout != DEFAULT_TIMEOUT {
        flag("--timeout", t.timeout.to_string());
    }
    if t.max_message_mb != DEFAULT_MAX_MESSAGE_MB {
        flag("--max-message-mb", t.max_message_mb.to_string());
    }
    if t.max_depth != crate::json_depth::DEFAULT_MAX_DEPTH {
        flag("--max-depth", t.max_depth.to_string());
    }
    t.log_level.iter().for_each(|l| flag("--log-level", l.label().to_string()));
    if t.show_http {
        words.push("--show-http".into());
    }
    words
}

/// The login flags. A client secret is written as the environment variable mcplens also reads it
/// from (kept off the process list), unless the secrets are asked for.
fn oauth_words(o: &OAuthArgs, w: Words) -> Vec<String> {
    let plain = |v: &Option<String>| v.as_deref().map(|s| w.word(s));
    let path = |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| w.word(&p.to_string_lossy()));
    let secret = |v: &Option<String>, var: &str| {
        v.as_deref().map(|s| if w.shows_secrets() { quote(s) } else { format!("\"${var}\"") })
    };
    let valued = [
        ("--client-id", plain(&o.client_id)),
        ("--client-secret", secret(&o.client_secret, "MCPLENS_CLIENT_SECRET")),
        ("--client-metadata-url", plain(&o.client_metadata_url)),
        ("--client-key", path(&o.client_key)),
        ("--scope", plain(&o.scope)),
        ("--callback-port", o.callback_port.map(|p| p.to_string())),
        ("--assertion-file", path(&o.assertion_file)),
        ("--id-token", path(&o.id_token)),
        ("--idp", plain(&o.idp)),
        ("--idp-client-id", plain(&o.idp_client_id)),
        ("--idp-client-secret", secret(&o.idp_client_secret, "MCPLENS_IDP_CLIENT_SECRET")),
    ];
    let switches = [
        (o.client_credentials, "--client-credentials"),
        (o.no_browser, "--no-browser"),
        (o.auth, "--auth"),
        (o.dpop, "--dpop"),
        (o.no_dpop, "--no-dpop"),
    ];
    let mut words: Vec<String> =
        valued.into_iter().filter_map(|(name, value)| Some([name.to_string(), value?])).flatten().collect();
    words.extend(switches.iter().filter(|(on, _)| *on).map(|(_, name)| name.to_string()));
    words
}

fn curl(spec: &Spec, w: Words) -> Result<String, String> {
    let Some(url) = &spec.target.url else {
        return Err("--print-curl is for an HTTP server (--url)".into());
    };
    let mut base = vec!["curl".to_string(), "-sS".into(), w.word(url)];
    for h in ["Content-Type: application/json", "Accept: application/json, text/event-stream"] {
        base.extend(["-H".into(), quote(h)]);
    }
    for h in &spec.target.headers {
        base.extend(["-H".into(), w.word(h)]);
    }
    let base = base.join(" ");
    let version = w.word(&format!("MCP-Protocol-Version: {}", spec.version));
    if spec.era == Era::Modern {
        let named = format!("-H 'Mcp-Method: tools/call' -H {}", w.word(&format!("Mcp-Name: {}", spec.tool)));
        return Ok(format!("{base} -H {version} {named} --data-raw {}\n", w.word(&message(spec, 1, CURL))));
    }
    // The legacy era: initialize, keep the session id the server gives, say initialized, call.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": spec.version, "capabilities": {}, "clientInfo": {"name": CURL.0, "version": CURL.1}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    Ok(format!(
        "SID=$({base} -D - -o /dev/null --data-raw {} | sed -n 's/^[Mm][Cc][Pp]-[Ss]ession-[Ii][Dd]: *//p' | tr -d '\\r')\n\
         {base} -H \"Mcp-Session-Id: $SID\" -H {version} --data-raw {}\n\
         {base} -H \"Mcp-Session-Id: $SID\" -H {version} --data-raw {}\n",
        w.word(&init.to_string()),
        w.word(&initialized.to_string()),
        w.word(&message(spec, 1, CURL)),
    ))
}

/// `s` as one shell word (POSIX sh): as it is when nothing in it is special, else single-quoted.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-./:=@%+,".contains(&b));
    if plain { s.to_string() } else { format!("'{}'", s.replace('\'', "'\\''")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn target(args: &[&str]) -> TargetArgs {
        let mut all = vec!["mcplens", "tools"];
        all.extend(args);
        match super::super::Cli::try_parse_from(all).map(|c| c.command) {
            Ok(Some(super::super::Command::Tools { target, .. })) => target,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn words_are_quoted_for_a_shell() {
        assert_eq!(quote("echo"), "echo");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("{\"a\":1}"), "'{\"a\":1}'");
    }

    #[test]
    fn a_command_masks_the_target_secrets_unless_asked() {
        let t = target(&["--url", "http://h/mcp", "-H", "Authorization: Bearer s3cr3t"]);
        let args = json!({"text": "hi"});
        let spec =
            Spec { target: &t, tool: "echo", arguments: args.as_object(), era: Era::Legacy, version: "2025-11-25" };
        let secrets = vec!["Bearer s3cr3t".to_string(), "s3cr3t".to_string()];
        let masked = render(&spec, Form::Command, false, secrets.clone()).unwrap_or_default();
        assert!(
            !masked.contains("s3cr3t") && masked.starts_with("mcplens call echo --args '{\"text\":\"hi\"}'"),
            "{masked}"
        );
        let shown = render(&spec, Form::Command, true, secrets).unwrap_or_default();
        assert!(shown.contains("-H 'Authorization: Bearer s3cr3t'"), "{shown}");
    }

    /// A number kept as typed is written as its digits in every form, as it goes out.
    #[test]
    fn a_number_kept_as_typed_is_written_as_typed() {
        let t = target(&["--url", "http://h/mcp"]);
        let big = "123456789012345678901234567890";
        let args = json!({"n": crate::mcp::exact_numbers::number(big), "s": "x"});
        let spec =
            Spec { target: &t, tool: "echo", arguments: args.as_object(), era: Era::Legacy, version: "2025-11-25" };
        for form in [Form::Command, Form::Curl, Form::Message] {
            let text = render(&spec, form, false, vec![]).unwrap_or_default();
            assert!(text.contains(&format!(r#"{{"n":{big},"s":"x"}}"#)), "{form:?}: {text}");
        }
    }

    /// A secret is masked before it is quoted: one holding a quote, a backslash, a space or a `$`
    /// is quoted differently, so masking the printed text would not find it.
    #[test]
    fn secrets_the_shell_would_quote_are_masked_too() {
        for secret in ["ab'cdzq7x9", "ab\\cdzq7x9", "ab cdzq7x9", "ab$cdzq7x9", "ab\"cdzq7x9", "'\\ $\"zq7x9"] {
            let (header, env) = (format!("X-Api-Key: {secret}"), format!("K={secret}"));
            let t = target(&["--url", "http://h/mcp", "-H", &header, "-e", &env, "--", "node", "s.js", secret]);
            let args = json!({"message": format!("see {secret}")});
            for era in [Era::Legacy, Era::Modern] {
                let spec = Spec { target: &t, tool: "echo", arguments: args.as_object(), era, version: "2025-11-25" };
                for form in [Form::Command, Form::Curl, Form::Message] {
                    let masked = render(&spec, form, false, vec![secret.to_string()]).unwrap_or_default();
                    assert!(!masked.contains("zq7x9") && masked.contains(crate::mcp::log::MASK), "{secret}: {masked}");
                }
                let shown = render(&spec, Form::Command, true, vec![secret.to_string()]).unwrap_or_default();
                assert!(shown.contains(&quote(&header)) && shown.contains(&quote(&env)), "{shown}");
            }
        }
    }

    #[test]
    fn a_command_keeps_every_target_flag_that_is_not_a_default() {
        let t = target(&[
            "--url",
            "https://h/mcp",
            "--timeout",
            "5",
            "--max-depth",
            "64",
            "--log-level",
            "debug",
            "--show-http",
            "--client-id",
            "cli",
            "--client-secret",
            "shh",
            "--scope",
            "a b",
            "--client-credentials",
            "--no-browser",
        ]);
        let spec = Spec { target: &t, tool: "echo", arguments: None, era: Era::Legacy, version: "2025-11-25" };
        let c = render(&spec, Form::Command, false, vec!["shh".into()]).unwrap_or_default();
        for part in [
            "--url https://h/mcp",
            "--timeout 5",
            "--max-depth 64",
            "--log-level debug",
            "--show-http",
            "--client-id cli",
            "--client-secret \"$MCPLENS_CLIENT_SECRET\"",
            "--scope 'a b'",
            "--client-credentials",
            "--no-browser",
        ] {
            assert!(c.contains(part), "{part} missing: {c}");
        }
        assert!(!c.contains("shh") && !c.contains("--max-message-mb"), "{c}");
        let shown = render(&spec, Form::Command, true, vec!["shh".into()]).unwrap_or_default();
        assert!(shown.contains("--client-secret shh"), "{shown}");
    }

    #[test]
    fn the_message_names_mcplens_and_curl_names_curl() {
        let t = target(&["--url", "http://h/mcp"]);
        let spec = Spec { target: &t, tool: "echo", arguments: None, era: Era::Modern, version: "2026-07-28" };
        let m = render(&spec, Form::Message, false, vec![]).unwrap_or_default();
        assert!(m.contains(r#""name":"mcplens""#) && !m.contains("curl"), "{m}");
        let c = render(&spec, Form::Curl, false, vec![]).unwrap_or_default();
        assert!(c.contains(r#""name":"curl""#), "{c}");
    }

    #[test]
    fn curl_is_one_request_in_the_modern_era() {
        let t = target(&["--url", "http://h/mcp"]);
        let spec = Spec { target: &t, tool: "echo", arguments: None, era: Era::Modern, version: "2026-07-28" };
        let c = render(&spec, Form::Curl, false, vec![]).unwrap_or_default();
        assert_eq!(c.lines().count(), 1, "{c}");
        assert!(c.contains("-H 'Mcp-Name: echo'") && c.contains("io.modelcontextprotocol/protocolVersion"), "{c}");
        let stdio = target(&["--", "node", "s.js"]);
        let spec = Spec { target: &stdio, tool: "echo", arguments: None, era: Era::Legacy, version: "" };
        assert!(render(&spec, Form::Curl, false, vec![]).is_err());
    }
}
