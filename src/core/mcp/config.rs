//! `mcpServers` config files (Claude Desktop, Cursor, `.mcp.json`) and VS Code's `servers` form.
//!
//! The file is the user's but still untrusted input: every shape problem is a clear error naming
//! the server and the field, never a panic. It is read with a cap (`capped_file::MAX_CONFIG`),
//! a UTF-8 byte order mark is dropped, and comments and trailing commas are allowed, as VS Code
//! allows them.

use std::path::Path;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::target::{HttpTarget, StdioTarget, Target};
use crate::error::{LensError, Result};

/// One server's entry of a config file, read once: its name, how to reach it, and the mcplens
/// keys other clients ignore.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub target: Target,
    /// `"protocol"`: the values of `--protocol`.
    pub protocol: Option<super::era::Protocol>,
    /// `"roots"`: paths, relative ones resolved from the file's directory.
    pub roots: Vec<String>,
    /// Each `${...}` left as written in a value the target uses.
    pub unexpanded: Vec<Unexpanded>,
    /// What the entry holds that is not used, one line each (`url` and `command` both given).
    pub notes: Vec<String>,
}

/// A `${...}` of a config entry left as written: its variable is not set, or it is a form
/// mcplens does not expand (VS Code's `${input:id}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Unexpanded {
    /// Where it is: `args[1]`, `env.TOKEN`, `headers.Authorization`, `url`, `oauth.clientSecret`.
    pub place: String,
    /// What is between `${` and `}`: `TOKEN`, `env:TOKEN`, `input:token`.
    pub reference: String,
}

impl Unexpanded {
    /// The header it is in, if it is in one.
    pub fn header(&self) -> Option<&str> {
        self.place.strip_prefix("headers.")
    }

    /// The environment variable of the server's it is in, if it is in one.
    pub fn env_key(&self) -> Option<&str> {
        self.place.strip_prefix("env.")
    }

    /// Whether it is in an `"oauth"` client id or secret: left out, and a login stops with
    /// [`Unexpanded::message`] (`OAuthConfig::unset`).
    pub fn in_client_setting(&self) -> bool {
        self.place.strip_prefix("oauth.").is_some_and(|k| CLIENT_SETTINGS.contains(&k))
    }

    /// What is wrong and how to give the value, naming the entry, the place and the variable
    /// (never a value).
    pub fn message(&self, server: &str) -> String {
        let Unexpanded { place, reference } = self;
        let give = match (self.header(), self.env_key(), place.as_str()) {
            (Some(h), _, _) => format!("give the header with -H \"{h}: ...\""),
            (_, Some(k), _) => format!("give it with -e {k}=..."),
            (_, _, "oauth.clientId") => "give it with --client-id".to_string(),
            (_, _, "oauth.clientSecret") => "give it with --client-secret or $MCPLENS_CLIENT_SECRET".to_string(),
            _ => "write ${VAR} there and set VAR in the environment".to_string(),
        };
        // The reference is named without its `${}`: a value given with -e or a header is masked
        // wherever it appears, and the value may be the reference alone.
        if let Some(id) = reference.strip_prefix("input:") {
            return format!(
                "server \"{server}\": {place} uses the VS Code input \"{id}\", which mcplens cannot prompt for: {give}"
            );
        }
        if is_name(var_of(reference)) {
            let give = if self.env_key().is_some()
                || self.header().is_some()
                || matches!(place.as_str(), "oauth.clientId" | "oauth.clientSecret")
            {
                format!(", or {give}")
            } else {
                String::new()
            };
            return format!(
                "server \"{server}\": {place} uses {}, which is not set in the environment (set it{give})",
                var_of(reference)
            );
        }
        format!(
            "server \"{server}\": {place} uses \"{reference}\", a form mcplens does not expand (only ${{VAR}}, \
             ${{env:VAR}} and ${{VAR:-default}}): {give}"
        )
    }
}

/// Reads `path` and picks `server` (or the only server in the file).
pub fn entry(path: &Path, server: Option<&str>) -> Result<Entry> {
    let text = read(path)?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let read_entry = || {
        let (name, entry) = pick(&text, server)?;
        let target = entry_target(&name, &entry, dir)?;
        Ok(Entry {
            unexpanded: unexpanded_in(&entry, &target),
            notes: notes_of(&name, &entry, &target),
            target,
            protocol: protocol_of(&name, &entry)?,
            roots: roots_of(&name, &entry, dir)?,
            name,
        })
    };
    read_entry().map_err(|e: LensError| LensError::usage(format!("config file {}: {}", path.display(), e.message)))
}

/// The name and target of `server`'s entry in the file at `path`.
pub fn load(path: &Path, server: Option<&str>) -> Result<(String, Target)> {
    entry(path, server).map(|e| (e.name, e.target))
}

fn read(path: &Path) -> Result<String> {
    crate::capped_file::read_text(path, crate::capped_file::MAX_CONFIG)
        .map_err(|e| LensError::usage(format!("cannot read config file {}: {e}", path.display())))
}

/// The servers of a config file (JSON with comments and trailing commas allowed), each entry kept
/// as text until it is used: a file of 100,000 servers read as one `Value` took 150 MB.
struct Servers {
    json: String,
    /// Each server's name and where its entry's text is in `json`, in the file's order.
    entries: Vec<(String, std::ops::Range<usize>)>,
}

/// The member `key` of an object's members.
fn member<'a>(list: &[(String, &'a RawValue)], key: &str) -> Option<&'a RawValue> {
    list.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// How many names an error lists before it counts the rest.
const NAMES_SHOWN: usize = 20;

impl Servers {
    fn read(text: &str) -> Result<Servers> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let json = crate::jsonc::to_json(text).map_err(|e| LensError::usage(format!("not valid JSON: {e}")))?;
        crate::json_depth::validate(&json).map_err(|e| LensError::usage(format!("not valid JSON: {e}")))?;
        let entries = {
            let top = crate::raw_object::in_order(&json).unwrap_or_default();
            let mcp = member(&top, "mcp").and_then(|m| crate::raw_object::in_order(m.get()));
            let found = member(&top, "mcpServers")
                .or_else(|| member(&top, "servers"))
                .or_else(|| mcp.as_deref().and_then(|m| member(m, "servers")))
                .ok_or_else(|| LensError::usage("no \"mcpServers\" (or VS Code \"servers\") object found"))?;
            let servers = crate::raw_object::in_order(found.get())
                .ok_or_else(|| LensError::usage("\"mcpServers\" must be an object mapping names to servers"))?;
            let start = json.as_ptr() as usize;
            servers
                .into_iter()
                .map(|(name, raw)| {
                    let at = raw.get().as_ptr() as usize - start;
                    (name, at..at + raw.get().len())
                })
                .collect()
        };
        Ok(Servers { json, entries })
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry named `name`, read.
    fn entry(&self, i: usize) -> Result<Map<String, Value>> {
        let (name, range) = &self.entries[i];
        match crate::json_depth::parse::<Value>(&self.json[range.clone()], crate::json_depth::DEFAULT_MAX_DEPTH) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(other) => {
                crate::deep::drop_value(other);
                Err(LensError::usage(format!("server \"{name}\" must be an object")))
            }
            Err(e) => Err(LensError::usage(format!("server \"{name}\": {e}"))),
        }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|(n, _)| n == name)
    }

    /// The servers' names for an error: the first [`NAMES_SHOWN`], the rest counted.
    fn names(&self) -> String {
        let mut shown: Vec<&str> = self.entries.iter().take(NAMES_SHOWN).map(|(n, _)| n.as_str()).collect();
        let more = self.len().saturating_sub(NAMES_SHOWN);
        let more = format!("and {more} more");
        if self.len() > NAMES_SHOWN {
            shown.push(&more);
        }
        shown.join(", ")
    }
}

/// Parses config text; `dir` is where relative `cwd` values are resolved from.
pub fn parse(text: &str, server: Option<&str>, dir: Option<&Path>) -> Result<(String, Target)> {
    let (name, entry) = pick(text, server)?;
    let target = entry_target(&name, &entry, dir)?;
    Ok((name, target))
}

/// The roots a config entry offers the server (`"roots": ["path", ...]`); relative paths are
/// resolved from the file's directory.
fn roots_of(name: &str, entry: &Map<String, Value>, dir: Option<&Path>) -> Result<Vec<String>> {
    let resolve = |s: &str| match dir {
        Some(d) if Path::new(s).is_relative() => d.join(s).to_string_lossy().into_owned(),
        _ => s.to_string(),
    };
    match entry.get("roots") {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().map(resolve))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| LensError::usage(format!("server \"{name}\": every root must be a path string"))),
        Some(_) => Err(LensError::usage(format!("server \"{name}\": \"roots\" must be an array of paths"))),
    }
}

/// The protocol a config entry asks for (`"protocol": "2025-11-25"`).
fn protocol_of(name: &str, entry: &Map<String, Value>) -> Result<Option<super::era::Protocol>> {
    match entry.get("protocol") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_str().and_then(super::era::Protocol::parse).map(Some).ok_or_else(|| {
            LensError::usage(format!(
                "server \"{name}\": \"protocol\" must be one of {}",
                super::era::Protocol::NAMES.join(", ")
            ))
        }),
    }
}

/// The entry of `server` (or of the only server) in config text.
fn pick(text: &str, server: Option<&str>) -> Result<(String, Map<String, Value>)> {
    let servers = Servers::read(text)?;
    let i = match server {
        Some(name) => servers.find(name).ok_or_else(|| {
            let has = if servers.len() == 0 { "no servers".to_string() } else { servers.names() };
            LensError::usage(format!("no server named \"{name}\"; the file has: {has}"))
        })?,
        None => match servers.len() {
            1 => 0,
            0 => return Err(LensError::usage("the file lists no servers")),
            _ => {
                return Err(LensError::usage(format!(
                    "the file has several servers; pick one with --server NAME: {}",
                    servers.names()
                )));
            }
        },
    };
    Ok((servers.entries[i].0.clone(), servers.entry(i)?))
}

/// A server of a config file, for a picker: its name and what it runs (or why it cannot).
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub name: String,
    pub what: std::result::Result<String, String>,
}

/// Every server `path` lists, in the file's order, each with its target's label or its error.
/// Entries are read one at a time.
pub fn choices(path: &Path) -> Result<Vec<Choice>> {
    let text = read(path)?;
    let in_file = |e: LensError| LensError::usage(format!("config file {}: {}", path.display(), e.message));
    let servers = Servers::read(&text).map_err(in_file)?;
    drop(text);
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let mut out = Vec::with_capacity(servers.len());
    let mut finder = super::on_path::Finder::default();
    for i in 0..servers.len() {
        let name = &servers.entries[i].0;
        let target = servers.entry(i).and_then(|e| entry_target(name, &e, dir));
        // A command that is not there is said beside its name, before it is picked.
        let what = target.map_err(|e| e.message).and_then(|t| match &t {
            Target::Stdio(s) => finder.check(s).map(|()| t.label()).map_err(|e| e.message),
            Target::Http(_) => Ok(t.label()),
        });
        out.push(Choice { name: name.clone(), what });
    }
    Ok(out)
}

/// The entry's `"oauth"` object (an mcplens key): `clientId`, `clientSecret` (with `${VAR}`
/// expanded, so the secret can stay in the environment), `clientMetadataUrl`, `grant`
/// (`authorization_code` or `client_credentials`), `scope`, `callbackPort`, `dpop` (true/false),
/// `assertionFile` (workload identity), `idToken` with `idp`, `idpClientId`, `idpClientSecret`
/// (enterprise-managed authorization).
fn oauth_of(name: &str, entry: &Map<String, Value>) -> Result<super::auth::OAuthConfig> {
    let mut out = super::auth::OAuthConfig::default();
    let Some(v) = entry.get("oauth").filter(|v| !v.is_null()) else { return Ok(out) };
    let o = v.as_object().ok_or_else(|| LensError::usage(format!("server \"{name}\": \"oauth\" must be an object")))?;
    let field =
        |k: &str| string_field(name, o, k).map_err(|e| LensError::usage(e.message.replace(k, &format!("oauth.{k}"))));
    out.client.client_id = client_setting(name, o, "clientId", &mut out.unset)?;
    out.client.client_secret = client_setting(name, o, "clientSecret", &mut out.unset)?;
    out.client.client_metadata_url = field("clientMetadataUrl")?;
    out.scope = field("scope")?;
    out.client_credentials = match field("grant")?.as_deref() {
        None | Some("authorization_code") => false,
        Some("client_credentials") => true,
        Some(other) => {
            return Err(LensError::usage(format!(
                "server \"{name}\": oauth.grant {other:?}: expected \"authorization_code\" or \"client_credentials\""
            )));
        }
    };
    out.dpop = match o.get("dpop") {
        None | Some(Value::Null) => super::auth::dpop::Mode::Auto,
        Some(Value::Bool(true)) => super::auth::dpop::Mode::Always,
        Some(Value::Bool(false)) => super::auth::dpop::Mode::Never,
        Some(_) => return Err(LensError::usage(format!("server \"{name}\": oauth.dpop must be true or false"))),
    };
    out.assertion = match (field("assertionFile")?, field("idToken")?, field("idp")?) {
        (Some(f), None, None) => Some(super::auth::assertion::Source::File(f.into())),
        (None, Some(t), Some(idp)) => {
            Some(super::auth::assertion::Source::Enterprise(super::auth::assertion::Enterprise {
                idp,
                id_token_file: t.into(),
                client_id: client_setting(name, o, "idpClientId", &mut out.unset)?,
                client_secret: client_setting(name, o, "idpClientSecret", &mut out.unset)?,
            }))
        }
        (None, None, None) => None,
        _ => {
            return Err(LensError::usage(format!(
                "server \"{name}\": oauth takes \"assertionFile\", or \"idToken\" with \"idp\""
            )));
        }
    };
    out.callback_port = match o.get("callbackPort") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_u64()
            .and_then(|p| u16::try_from(p).ok())
            .ok_or_else(|| LensError::usage(format!("server \"{name}\": oauth.callbackPort must be a port number")))?,
    };
    Ok(out)
}

/// The `"oauth"` client id or secret `key`, expanded; left out when a `${...}` of it is left as
/// written, and said in `unset`: a login stops with what to set.
fn client_setting(
    name: &str,
    oauth: &Map<String, Value>,
    key: &'static str,
    unset: &mut Vec<super::auth::UnsetSetting>,
) -> Result<Option<String>> {
    let value = string_field(name, oauth, key)
        .map_err(|e| LensError::usage(e.message.replace(key, &format!("oauth.{key}"))))?;
    let raw = oauth.get(key).and_then(Value::as_str).unwrap_or_default();
    let Some(reference) = unexpanded(raw).into_iter().next() else { return Ok(value) };
    let left = Unexpanded { place: format!("oauth.{key}"), reference };
    unset.push(super::auth::UnsetSetting { setting: key, message: left.message(name) });
    Ok(None)
}

fn string_field(name: &str, entry: &Map<String, Value>, key: &str) -> Result<Option<String>> {
    match entry.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(expand_env(s))),
        Some(_) => Err(LensError::usage(format!("server \"{name}\": \"{key}\" must be a string"))),
    }
}

fn string_map(name: &str, entry: &Map<String, Value>, key: &str) -> Result<Vec<(String, String)>> {
    match entry.get(key) {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), expand_env(s))),
                Value::Number(n) => Ok((k.clone(), n.to_string())),
                Value::Bool(b) => Ok((k.clone(), b.to_string())),
                _ => Err(LensError::usage(format!("server \"{name}\": \"{key}.{k}\" must be a string"))),
            })
            .collect(),
        Some(_) => Err(LensError::usage(format!("server \"{name}\": \"{key}\" must be an object of strings"))),
    }
}

fn entry_target(name: &str, entry: &Map<String, Value>, dir: Option<&Path>) -> Result<Target> {
    let kind = string_field(name, entry, "type")?;
    let url = string_field(name, entry, "url")?.or(string_field(name, entry, "serverUrl")?);
    if let Some(kind) = kind.as_deref()
        && kind.eq_ignore_ascii_case("sse")
    {
        return Err(LensError::usage(format!(
            "server \"{name}\" uses the legacy SSE transport, which mcplens does not speak; \
             most servers also serve streamable HTTP (often at /mcp): set \"type\": \"http\" and that URL"
        )));
    }
    if let Some(url) = url {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(LensError::usage(format!("server \"{name}\": url must start with http:// or https://")));
        }
        let headers = string_map(name, entry, "headers")?;
        if let Some((k, why)) = headers.iter().find_map(|(k, v)| Some((k, super::target::header_value_problem(v)?))) {
            return Err(LensError::usage(format!(
                "server \"{name}\": the value of header \"{k}\" {why} (check the ${{VAR}} it names, if any): \
                 an HTTP header value is one line of printable characters"
            )));
        }
        return Ok(Target::Http(HttpTarget { url, headers, oauth: oauth_of(name, entry)? }));
    }
    let command = string_field(name, entry, "command")?
        .ok_or_else(|| LensError::usage(format!("server \"{name}\" has neither \"command\" nor \"url\"")))?;
    let args = match entry.get("args") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(expand_env(s)),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(LensError::usage(format!("server \"{name}\": every entry of \"args\" must be a string"))),
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(LensError::usage(format!("server \"{name}\": \"args\" must be an array"))),
    };
    let env = string_map(name, entry, "env")?;
    let cwd = string_field(name, entry, "cwd")?.map(|c| {
        let p = std::path::PathBuf::from(c);
        match dir {
            Some(d) if p.is_relative() => d.join(p),
            _ => p,
        }
    });
    Ok(Target::Stdio(StdioTarget { command, args, env, cwd }))
}

/// Expands `${VAR}` and `${VAR:-default}` the way Claude Code's `.mcp.json` does, and VS Code's
/// `${env:VAR}` as `${VAR}`; anything else (an unset variable without a default, VS Code's
/// `${input:...}`) is left as written, and [`unexpanded`] names it.
pub fn expand_env(s: &str) -> String {
    replace_references(s, &mut resolve)
}

/// What is between the braces of each `${...}` of `s` that [`expand_env`] leaves as written.
pub fn unexpanded(s: &str) -> Vec<String> {
    let mut left = Vec::new();
    replace_references(s, &mut |inner| {
        let value = resolve(inner);
        if value.is_none() {
            left.push(inner.to_string());
        }
        value
    });
    left
}

/// `s` with each `${inner}` replaced by `value(inner)`, or left as written when that is None.
fn replace_references(s: &str, value: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = &after[..end];
        match value(inner) {
            Some(v) => out.push_str(&v),
            None => {
                out.push_str("${");
                out.push_str(inner);
                out.push('}');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The value of `VAR`, `env:VAR` or `VAR:-default`; None for an unset variable without a
/// default, or a form that is not one of these.
fn resolve(inner: &str) -> Option<String> {
    let default = inner.split_once(":-").map(|(_, d)| d);
    let var = var_of(inner);
    if !is_name(var) {
        return None;
    }
    std::env::var(var).ok().or_else(|| default.map(str::to_string))
}

/// The variable's name: VS Code writes `${env:VAR}` for what `.mcp.json` writes `${VAR}`.
fn var_of(inner: &str) -> &str {
    let var = inner.split_once(":-").map_or(inner, |(v, _)| v);
    var.strip_prefix("env:").unwrap_or(var)
}

fn is_name(var: &str) -> bool {
    !var.is_empty() && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Each `${...}` left as written in the values `target` was made of: the url, headers and
/// oauth settings of an HTTP server; the command, args, env and cwd of one started as a command.
fn unexpanded_in(entry: &Map<String, Value>, target: &Target) -> Vec<Unexpanded> {
    let keys: &[&str] = match target {
        Target::Http(_) => &["url", "serverUrl", "headers", "oauth"],
        Target::Stdio(_) => &["command", "args", "env", "cwd"],
    };
    let mut out = Vec::new();
    for key in keys {
        match entry.get(*key) {
            Some(Value::String(s)) => note_unexpanded(key, s, &mut out),
            Some(Value::Array(a)) => {
                for (i, v) in a.iter().enumerate() {
                    if let Value::String(s) = v {
                        note_unexpanded(&format!("{key}[{i}]"), s, &mut out);
                    }
                }
            }
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    if let Value::String(s) = v {
                        note_unexpanded(&format!("{key}.{k}"), s, &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn note_unexpanded(place: &str, s: &str, out: &mut Vec<Unexpanded>) {
    if s.contains("${") {
        out.extend(unexpanded(s).into_iter().map(|reference| Unexpanded { place: place.to_string(), reference }));
    }
}

/// The `"oauth"` settings that name the client: left as written, they are never sent.
const CLIENT_SETTINGS: [&str; 4] = ["clientId", "clientSecret", "idpClientId", "idpClientSecret"];

/// What the entry holds that its target does not use.
fn notes_of(name: &str, entry: &Map<String, Value>, target: &Target) -> Vec<String> {
    let has = |k: &str| entry.get(k).is_some_and(|v| !v.is_null());
    match target {
        Target::Http(_) if has("command") => {
            let url = if has("url") { "url" } else { "serverUrl" };
            vec![format!(
                "server \"{name}\" has both \"{url}\" and \"command\": the {url} is used, the command is not run"
            )]
        }
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_desktop_form() {
        let text = r#"{"mcpServers":{"fs":{"command":"npx","args":["-y","server-fs","/tmp"],"env":{"TOKEN":"abc"}}}}"#;
        let (name, t) = parse(text, None, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(name, "fs");
        match t {
            Target::Stdio(s) => {
                assert_eq!(s.command, "npx");
                assert_eq!(s.args, vec!["-y", "server-fs", "/tmp"]);
                assert_eq!(s.env, vec![("TOKEN".to_string(), "abc".to_string())]);
            }
            other => panic!("expected stdio, got {other:?}"),
        }
    }

    #[test]
    fn vscode_http_form() {
        let text = r#"{"servers":{"gh":{"type":"http","url":"https://x.example/mcp","headers":{"Authorization":"Bearer t"}}}}"#;
        let (_, t) = parse(text, Some("gh"), None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            t,
            Target::Http(HttpTarget::new("https://x.example/mcp", vec![("Authorization".into(), "Bearer t".into())]))
        );
    }

    #[test]
    fn several_servers_need_a_name() {
        let text = r#"{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"}}}"#;
        let err = parse(text, None, None).err().map(|e| e.message).unwrap_or_default();
        assert!(err.contains("--server") && err.contains("a, b"), "{err}");
        let err = parse(text, Some("c"), None).err().map(|e| e.message).unwrap_or_default();
        assert!(err.contains("no server named \"c\"") && err.contains("a, b"), "{err}");
    }

    #[test]
    fn bad_shapes_are_clear_errors() {
        for (text, want) in [
            ("[1,2", "not valid JSON"),
            ("{}", "no \"mcpServers\""),
            (r#"{"mcpServers":{"a":{"args":["x"]}}}"#, "neither \"command\" nor \"url\""),
            (r#"{"mcpServers":{"a":{"command":"x","args":"y"}}}"#, "\"args\" must be an array"),
            (r#"{"mcpServers":{"a":{"type":"sse","url":"http://h/sse"}}}"#, "legacy SSE"),
        ] {
            let err = parse(text, None, None).err().map(|e| e.message).unwrap_or_default();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    /// A header that `${VAR}` filled with a line break is refused, naming it, not quoting it.
    #[test]
    fn a_header_value_with_a_line_break_is_refused_unquoted() {
        let text =
            r#"{"servers":{"gh":{"url":"https://x.example/mcp","headers":{"Authorization":"Bearer sek\nret"}}}}"#;
        let e = parse(text, Some("gh"), None).err().map(|e| e.message).unwrap_or_default();
        assert!(e.starts_with("server \"gh\": the value of header \"Authorization\" holds a line break"), "{e}");
        assert!(!e.contains("sek"), "{e}");
    }

    #[test]
    fn expands_env_with_defaults() {
        assert_eq!(expand_env("${MCPLENS_SURELY_UNSET:-fallback}/x"), "fallback/x");
        assert_eq!(expand_env("${input:token}"), "${input:token}");
        assert_eq!(expand_env("plain"), "plain");
    }

    /// VS Code's spelling: `${env:VAR}` is `${VAR}`, and an unset one is named as `${VAR}` is.
    #[test]
    fn expands_vs_code_env_references() {
        let path = std::env::var("PATH").unwrap_or_default();
        assert_eq!(expand_env("${env:PATH}/x"), format!("{path}/x"));
        assert_eq!(expand_env("${env:MCPLENS_SURELY_UNSET}"), "${env:MCPLENS_SURELY_UNSET}");
        assert_eq!(expand_env("${env:}"), "${env:}");
        assert_eq!(unexpanded("${env:PATH} ${env:MCPLENS_SURELY_UNSET}"), ["env:MCPLENS_SURELY_UNSET"]);
        let text = r#"{"servers":{"s":{"url":"https://x.example/mcp","headers":{"H":"${env:MCPLENS_SURELY_UNSET}"}}}}"#;
        let (_, entry) = pick(text, None).unwrap_or_else(|e| panic!("{e}"));
        let target = entry_target("s", &entry, None).unwrap_or_else(|e| panic!("{e}"));
        let found = unexpanded_in(&entry, &target);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].header(), Some("H"));
        let said = found[0].message("s");
        assert!(said.contains("headers.H uses MCPLENS_SURELY_UNSET, which is not set in the environment"), "{said}");
    }

    #[test]
    fn what_is_left_as_written_is_named() {
        assert_eq!(unexpanded("${MCPLENS_SURELY_UNSET:-fallback}/${PATH}"), Vec::<String>::new());
        assert_eq!(unexpanded("a ${MCPLENS_SURELY_UNSET} ${input:tok} ${"), ["MCPLENS_SURELY_UNSET", "input:tok"]);
        let text = r#"{"mcpServers":{"s":{"command":"x","args":["${input:a}","${PATH}"],
            "env":{"K":"Bearer ${MCPLENS_SURELY_UNSET}"},"headers":{"H":"${MCPLENS_SURELY_UNSET}"}}}}"#;
        let (_, entry) = pick(text, None).unwrap_or_else(|e| panic!("{e}"));
        let target = entry_target("s", &entry, None).unwrap_or_else(|e| panic!("{e}"));
        let found = unexpanded_in(&entry, &target);
        let places: Vec<(&str, &str)> = found.iter().map(|u| (u.place.as_str(), u.reference.as_str())).collect();
        // The headers of a command's entry are not used: nothing said of them.
        assert_eq!(places, [("args[0]", "input:a"), ("env.K", "MCPLENS_SURELY_UNSET")]);
        let said = found[0].message("s");
        assert!(said.contains("args[0] uses the VS Code input \"a\", which mcplens cannot prompt"), "{said}");
        let said = found[1].message("s");
        assert!(
            said.contains("env.K uses MCPLENS_SURELY_UNSET, which is not set") && said.contains("-e K=..."),
            "{said}"
        );
    }

    /// An oauth client id or secret whose variable is not set is left out (never sent as
    /// written), with what to set; other settings are kept.
    #[test]
    fn an_unset_client_secret_is_left_out_with_what_to_set() {
        let text = r#"{"servers":{"s":{"url":"https://x.example/mcp","oauth":{"clientId":"${env:PATH}",
            "clientSecret":"${MCPLENS_SURELY_UNSET}","scope":"${MCPLENS_SURELY_UNSET}"}}}}"#;
        let (_, t) = parse(text, None, None).unwrap_or_else(|e| panic!("{e}"));
        let Target::Http(h) = t else { panic!("expected an HTTP target") };
        assert_eq!(h.oauth.client.client_id, std::env::var("PATH").ok());
        assert_eq!(h.oauth.client.client_secret, None);
        assert_eq!(h.oauth.scope.as_deref(), Some("${MCPLENS_SURELY_UNSET}"));
        let [unset] = h.oauth.unset.as_slice() else { panic!("{:?}", h.oauth.unset) };
        assert_eq!(unset.setting, "clientSecret");
        assert!(
            unset.message.contains("server \"s\": oauth.clientSecret uses MCPLENS_SURELY_UNSET, which is not set")
                && unset.message.contains("--client-secret"),
            "{}",
            unset.message
        );
        let (_, entry) = pick(text, None).unwrap_or_else(|e| panic!("{e}"));
        let target = entry_target("s", &entry, None).unwrap_or_else(|e| panic!("{e}"));
        let client: Vec<bool> = unexpanded_in(&entry, &target).iter().map(Unexpanded::in_client_setting).collect();
        assert_eq!(client, [true, false], "the secret is said by the login, the scope by a warning");
    }

    #[test]
    fn a_url_beside_a_command_is_said_to_win() {
        let text = r#"{"mcpServers":{"s":{"command":"x","url":"http://h/mcp"}}}"#;
        let (_, entry) = pick(text, None).unwrap_or_else(|e| panic!("{e}"));
        let target = entry_target("s", &entry, None).unwrap_or_else(|e| panic!("{e}"));
        let notes = notes_of("s", &entry, &target);
        assert_eq!(notes, ["server \"s\" has both \"url\" and \"command\": the url is used, the command is not run"]);
    }
}
