//! What a user taught mcplens where its heuristics are wrong: per server and tool name pattern,
//! where the records are, where the next position is and which argument takes it, and the
//! responseType. Read from `hints.toml` in the user's config directory and from
//! `.mcplens-hints.toml` in the project (beside `.mcp.json`); the project's hints come first.
//!
//! The same files may hold `[[convention]]` entries: names laid over the built-in paging and
//! record conventions (`conventions.toml`).
//!
//! A path is a JSON pointer into the `tools/call` result (`/structuredContent/items`); a string
//! met on the way is read as the JSON it carries, so `/content/0/text/items` reaches into a text
//! block, and a path that ends on a text reads the records written in it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ResponseType;
use super::conventions::{self, Convention};

/// One hint, as written in the file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Hint {
    /// A glob on the server's name (its `serverInfo.name` or the config entry's); `*` when absent.
    #[serde(default = "any", skip_serializing_if = "is_any")]
    pub server: String,
    /// A glob on the tool's name.
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_type: Option<String>,
    /// Where the records are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<String>,
    /// Where the next position is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// A regular expression over the result's text whose first group is the next position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_pattern: Option<String>,
    /// The input argument that takes the next position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
}

fn any() -> String {
    "*".into()
}

fn is_any(s: &String) -> bool {
    s == "*"
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    hint: Vec<Hint>,
    /// Names laid over the built-in conventions (`conventions.toml`), same format.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    convention: Vec<Convention>,
}

/// Hints from every file, first match wins, and what was wrong with the files.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    pub hints: Vec<Hint>,
    pub problems: Vec<String>,
    /// Where a hint taught in the TUI is saved.
    pub save_to: Option<PathBuf>,
    /// Other names of the server in use (its config entry's), matched like its own.
    pub aliases: Vec<String>,
    /// The files' `[[convention]]` entries, laid over the built-in ones.
    pub conventions: Vec<Convention>,
}

/// Files larger than this are not hints files.
const MAX_FILE: u64 = 1 << 20;

impl Hint {
    pub fn response_type(&self) -> Option<ResponseType> {
        match self.response_type.as_deref()? {
            "list" => Some(ResponseType::List),
            "single" => Some(ResponseType::Single),
            "action" => Some(ResponseType::Action),
            "tool_catalog" => Some(ResponseType::ToolCatalog),
            "error" => Some(ResponseType::Error),
            _ => None,
        }
    }

    fn check(&self) -> Result<(), String> {
        if let Some(t) = &self.response_type
            && self.response_type().is_none()
        {
            return Err(format!("response_type {t:?} is not one of list, single, action, tool_catalog, error"));
        }
        for p in [&self.records, &self.next].into_iter().flatten() {
            if !(p.is_empty() || p.starts_with('/')) {
                return Err(format!("path {p:?} must start with / (a JSON pointer into the result)"));
            }
        }
        if let Some(re) = &self.next_pattern {
            let r = regex::Regex::new(re).map_err(|e| format!("next_pattern: {e}"))?;
            if r.captures_len() < 2 {
                return Err("next_pattern needs a group ( ) around the position".into());
            }
        }
        Ok(())
    }
}

impl Hints {
    /// The user's file and the project's, the project's first.
    pub fn load_default(project_dir: Option<&Path>) -> Hints {
        let mut files = vec![];
        if let Some(d) = project_dir {
            files.push(d.join(".mcplens-hints.toml"));
        }
        let user = user_file();
        files.extend(user.clone());
        let mut h = Hints::load(&files);
        h.save_to = files.iter().find(|f| f.is_file()).cloned().or(user);
        h
    }

    /// Hints from `files` in order; a file that does not exist is skipped, a bad one is named
    /// in `problems` and skipped.
    pub fn load(files: &[PathBuf]) -> Hints {
        let mut out = Hints::default();
        for f in files {
            match read_file(f) {
                Ok(Some(text)) => match parse_file(&text) {
                    Ok(mut file) => {
                        out.hints.append(&mut file.hint);
                        out.conventions.append(&mut file.convention);
                    }
                    Err(e) => out.problems.push(format!("{}: {e}", f.display())),
                },
                Ok(None) => {}
                Err(e) => out.problems.push(format!("{}: {e}", f.display())),
            }
        }
        if let Err(e) = conventions::overlay(&out.conventions) {
            out.problems.push(e);
        }
        out
    }

    /// The first hint for this server and tool.
    pub fn find(&self, servers: &[&str], tool: &str) -> Option<&Hint> {
        let names = || servers.iter().copied().chain(self.aliases.iter().map(String::as_str));
        self.hints.iter().find(|h| glob(&h.tool, tool) && names().any(|s| glob(&h.server, s)))
    }

    /// Adds `hint` (replacing one for the same server and tool) and writes the file.
    pub fn save(&mut self, hint: Hint) -> Result<PathBuf, String> {
        let path = self.save_to.clone().ok_or("no config directory (set HOME or XDG_CONFIG_HOME)")?;
        let mut file = match read_file(&path)? {
            Some(text) => toml::from_str::<File>(&text).map_err(|e| format!("{}: {e}", path.display()))?,
            None => File::default(),
        };
        let merged = match file.hint.iter_mut().find(|h| h.server == hint.server && h.tool == hint.tool) {
            Some(old) => {
                merge(old, &hint);
                old.clone()
            }
            None => {
                file.hint.push(hint.clone());
                hint
            }
        };
        let text = toml::to_string(&file).map_err(|e| e.to_string())?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        crate::dirs::write_file(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        match self.hints.iter_mut().find(|h| h.server == merged.server && h.tool == merged.tool) {
            Some(old) => *old = merged,
            None => self.hints.insert(0, merged),
        }
        Ok(path)
    }
}

/// Fields set in `new` replace those of `old`.
fn merge(old: &mut Hint, new: &Hint) {
    let take = |o: &mut Option<String>, n: &Option<String>| {
        if n.is_some() {
            o.clone_from(n);
        }
    };
    take(&mut old.response_type, &new.response_type);
    take(&mut old.records, &new.records);
    take(&mut old.next, &new.next);
    take(&mut old.next_pattern, &new.next_pattern);
    take(&mut old.argument, &new.argument);
}

fn user_file() -> Option<PathBuf> {
    crate::dirs::config_dir().map(|d| d.join("hints.toml"))
}

fn read_file(path: &Path) -> Result<Option<String>, String> {
    match crate::capped_file::read_text(path, MAX_FILE) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(crate::capped_file::ReadError::TooLarge { .. }) => {
            Err(format!("larger than {} KiB: not a hints file", MAX_FILE >> 10))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The hints of one file's text; an error names the line.
pub fn parse(text: &str) -> Result<Vec<Hint>, String> {
    parse_file(text).map(|f| f.hint)
}

/// The hints and conventions of one file's text; an error names the line.
fn parse_file(text: &str) -> Result<File, String> {
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        match line {
            Some(l) => format!("line {l}: {}", e.message()),
            None => e.message().to_string(),
        }
    })?;
    for (i, h) in file.hint.iter().enumerate() {
        h.check().map_err(|e| {
            let line = hint_line(text, i).map(|l| format!("line {l}: ")).unwrap_or_default();
            format!("{line}hint {} (tool {:?}): {e}", i + 1, h.tool)
        })?;
    }
    for (i, c) in file.convention.iter().enumerate() {
        conventions::check(c).map_err(|e| format!("convention {}: {e}", i + 1))?;
    }
    Ok(file)
}

/// The line of the `i`-th `[[hint]]` header.
fn hint_line(text: &str, i: usize) -> Option<usize> {
    text.lines().enumerate().filter(|(_, l)| l.trim() == "[[hint]]").nth(i).map(|(n, _)| n + 1)
}

/// `*` matches any run of characters, `?` one; everything else itself.
pub fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// The value at `path` in `result`; a string on the way is read as the JSON it carries (or, at
/// the end of the path, returned as it is). Returns the value and whether it is a text.
pub fn resolve(result: &Value, path: &str) -> Option<Value> {
    let mut cur = result.clone();
    for raw in path.split('/').skip(1) {
        let key = raw.replace("~1", "/").replace("~0", "~");
        if let Value::String(s) = &cur {
            cur = decoded(s)?;
        }
        cur = match cur {
            Value::Object(mut m) => m.shift_remove(&key)?,
            Value::Array(mut a) => {
                let i: usize = key.parse().ok()?;
                (i < a.len()).then(|| a.swap_remove(i))?
            }
            _ => return None,
        };
    }
    Some(cur)
}

/// The JSON a text carries, whole or in any of the ways `decode` knows.
pub fn decoded(s: &str) -> Option<Value> {
    let t = s.trim();
    if t.starts_with(['{', '['])
        && let Ok(v) = crate::json_depth::parse::<Value>(t, crate::json_depth::DEFAULT_MAX_DEPTH)
    {
        return Some(v);
    }
    super::decode::json_in_text(t).map(|f| f.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs() {
        assert!(glob("*", "anything"));
        assert!(glob("git_*", "git_log"));
        assert!(glob("*search*", "brave_web_search"));
        assert!(glob("get_?", "get_x"));
        assert!(!glob("git_*", "list_git"));
        assert!(glob("a*b*c", "aXXbYYc"));
    }

    #[test]
    fn a_bad_file_names_the_line() {
        let e = parse("[[hint]]\ntool = \"x\"\nrecords = \"items\"\n").err().unwrap_or_default();
        assert!(e.starts_with("line 1: hint 1"), "{e}");
        let e = parse("[[hint]]\ntool = \"x\"\nrecrds = \"/items\"\n").err().unwrap_or_default();
        assert!(e.starts_with("line ") && e.contains("recrds"), "{e}");
        let e = parse("[[hint]]\ntool = \"x\"\nnext_pattern = \"start (\"\n").err().unwrap_or_default();
        assert!(e.contains("next_pattern"), "{e}");
    }

    #[test]
    fn paths_reach_into_text_blocks() {
        let r = json!({"content": [{"type": "text", "text": "{\"page\": {\"rows\": [1, 2]}, \"next\": \"c2\"}"}]});
        assert_eq!(resolve(&r, "/content/0/text/page/rows"), Some(json!([1, 2])));
        assert_eq!(resolve(&r, "/content/0/text/next"), Some(json!("c2")));
        assert_eq!(resolve(&r, "/content/1/text"), None);
        assert_eq!(resolve(&r, ""), Some(r.clone()));
    }

    #[test]
    fn conventions_in_a_hints_file_are_laid_over_the_preset() {
        let dir = std::env::temp_dir().join(format!("mcplens-conventions-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("hints.toml");
        let text = "[[convention]]\nrole = \"cursor\"\nnames = [\"resume_after\"]\nsource = \"acme\"\n";
        let _ = std::fs::write(&path, text);
        let h = Hints::load(std::slice::from_ref(&path));
        assert!(h.problems.is_empty(), "{:?}", h.problems);
        assert_eq!(conventions::table().answer_role("resumeafter"), Some(conventions::Role::Cursor));
        let e = parse_file("[[convention]]\nrole = \"nope\"\nnames = [\"x\"]\n").err().unwrap_or_default();
        assert!(e.contains("nope"), "{e}");
        let _ = conventions::overlay(&[]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn saving_replaces_the_same_tools_hint() {
        let dir = std::env::temp_dir().join(format!("mcplens-hints-{}", std::process::id()));
        let path = dir.join("hints.toml");
        let mut h = Hints { save_to: Some(path.clone()), ..Hints::default() };
        let hint = Hint { server: "*".into(), tool: "t".into(), records: Some("/a".into()), ..Hint::default() };
        assert!(h.save(hint).is_ok());
        let next = Hint { server: "*".into(), tool: "t".into(), next: Some("/n".into()), ..Hint::default() };
        assert!(h.save(next).is_ok());
        let back = Hints::load(&[path]);
        assert_eq!(back.hints.len(), 1);
        assert_eq!((back.hints[0].records.as_deref(), back.hints[0].next.as_deref()), (Some("/a"), Some("/n")));
        let _ = std::fs::remove_dir_all(dir);
    }
}
