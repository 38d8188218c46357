//! Skills over MCP (SEP-2640, extension `io.modelcontextprotocol/skills`) as a host uses them:
//! the catalog from `skills/list` (or one entry from `skills/get`), and a skill's files read only
//! when asked for, each checked against the entry before it is used: its size, its SHA-256
//! digest, and for SKILL.md its frontmatter field by field. Nothing is fetched ahead of need.

pub mod entry;
pub mod frontmatter;

use std::collections::HashSet;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

pub use entry::{Files, Skill, SkillFile};

use crate::error::{LensError, Result};
use crate::mcp::log::LogKind;
use crate::mcp::{CallOptions, ResourceContent, RpcError, Session};

/// The extension's identifier in the server's `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Pages followed before the listing stops (a server that never ends its cursor chain).
const MAX_PAGES: usize = 1000;

/// Every skill the server lists.
#[derive(Debug, Clone, Default)]
pub struct SkillList {
    pub skills: Vec<Skill>,
    pub pages: usize,
    /// The first page's cache hint, as one line.
    pub cache: Option<String>,
    /// Where the listing or an entry breaks SEP-2640.
    pub warnings: Vec<String>,
}

/// Why a skill file was not used.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The content is not what the entry describes (size, digest, frontmatter), the file is not
    /// in the entry's manifest, or the entry cannot be loaded at all.
    Verification(String),
    /// The server answered the read with a JSON-RPC error.
    Server(RpcError),
}

impl Refusal {
    pub fn message(&self) -> String {
        match self {
            Refusal::Verification(why) => why.clone(),
            Refusal::Server(e) => format!("the server answered {}", e.summary()),
        }
    }
}

/// A skill file read and checked.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub uri: String,
    /// The content item as sent (text or blob, MIME type).
    pub content: ResourceContent,
    pub bytes: Vec<u8>,
    /// False for a skill whose resources are `"dynamic"`: nothing to check the bytes against.
    pub verified: bool,
    /// For a SKILL.md: its frontmatter (equal to the entry's).
    pub frontmatter: Option<Map<String, Value>>,
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn digest_of(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Checks bytes against their manifest entry: the size first (a size mismatch is a failure
/// whether or not the digest is computed), then the digest.
pub fn check_bytes(file: &SkillFile, bytes: &[u8]) -> std::result::Result<(), String> {
    if bytes.len() as u64 != file.size {
        return Err(format!(
            "size mismatch: {} is {} bytes, the skill's entry says {}",
            file.uri,
            bytes.len(),
            file.size
        ));
    }
    let got = digest_of(bytes);
    if !got.eq_ignore_ascii_case(&file.digest) {
        return Err(format!("digest mismatch: {} hashes to {got}, the skill's entry says {}", file.uri, file.digest));
    }
    Ok(())
}

impl Session {
    /// Whether the server declared the skills extension (a host calls `skills/*` only then).
    pub fn offers_skills(&self) -> bool {
        let caps = self.server.result.get("capabilities");
        caps.and_then(|c| c.get("extensions")).and_then(|e| e.get(EXTENSION)).is_some_and(Value::is_object)
    }

    /// `skills/list`, every page; nothing of any skill is read.
    pub async fn list_skills(&self) -> Result<SkillList> {
        let mut list = SkillList::default();
        let mut seen = HashSet::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = cursor.take().map(|c| json!({ "cursor": c }));
            let answer = self.ask("skills/list", params, &CallOptions::default()).await?;
            list.pages += 1;
            let what = format!("skills/list (page {})", list.pages);
            let mut result = answer
                .outcome
                .map_err(|e| LensError::connection(format!("{what}: the server answered {}", e.summary())))?;
            if list.pages == 1 {
                list.cache = crate::mcp::era::cache_hint(&result);
            }
            let Some(Value::Array(items)) = result.get_mut("skills").map(Value::take) else {
                return Err(LensError::connection(format!("{what}: the result has no \"skills\" array")));
            };
            for item in items {
                let skill = Skill::from_value(item);
                for p in skill.problems() {
                    list.warnings.push(format!("skill {}: {p}", crate::sanitize::line(&skill.uri)));
                }
                list.skills.push(skill);
            }
            cursor = match result.get("nextCursor") {
                Some(Value::String(c)) if !c.is_empty() => Some(Value::String(c.clone())),
                _ => None,
            };
            let Some(c) = cursor.as_ref() else { break };
            if !seen.insert(c.to_string()) || list.pages >= MAX_PAGES {
                list.warnings.push(format!("{what}: the cursor repeats or the pages go on; listing stopped"));
                break;
            }
        }
        for w in &list.warnings {
            self.log().push(LogKind::Warning, w);
        }
        Ok(list)
    }

    /// `skills/get`: one skill's entry by the URI of its SKILL.md.
    pub async fn get_skill(&self, uri: &str) -> Result<std::result::Result<Skill, RpcError>> {
        let answer = self.ask("skills/get", Some(json!({ "uri": uri })), &CallOptions::default()).await?;
        Ok(match answer.outcome {
            Ok(mut result) => match result.get_mut("skill").map(Value::take) {
                Some(v @ Value::Object(_)) => Ok(Skill::from_value(v)),
                _ => return Err(LensError::connection("skills/get: the result has no \"skill\" object")),
            },
            Err(e) => Err(e),
        })
    }

    /// Loads a skill: reads its SKILL.md and checks size, digest and frontmatter against the
    /// entry. The content is returned only when every check passes.
    pub async fn load_skill(&self, skill: &Skill) -> Result<std::result::Result<Fetched, Refusal>> {
        let mut fetched = match self.read_skill_file(skill, &skill.uri).await? {
            Ok(f) => f,
            Err(r) => return Ok(Err(r)),
        };
        let text = String::from_utf8_lossy(&fetched.bytes);
        let theirs = match frontmatter::parse(&text) {
            Ok(m) => m,
            Err(why) => return Ok(Err(self.refuse(&skill.uri, format!("frontmatter: {why}")))),
        };
        let diff = frontmatter::differences(&skill.frontmatter, &theirs);
        if !diff.is_empty() {
            let why = format!("frontmatter differs from the skill's entry: {}", diff.join("; "));
            return Ok(Err(self.refuse(&skill.uri, why)));
        }
        fetched.frontmatter = Some(theirs);
        Ok(Ok(fetched))
    }

    /// Reads one file of a skill, only if the entry lists it, and checks it against the entry.
    pub async fn read_skill_file(&self, skill: &Skill, uri: &str) -> Result<std::result::Result<Fetched, Refusal>> {
        if let Some(why) = skill.unloadable() {
            return Ok(Err(self.refuse(&skill.uri, format!("the skill's entry is invalid: {why}"))));
        }
        let listed = skill.file(uri);
        if listed.is_none() && skill.files != Files::Dynamic {
            let why = format!("{uri} is not listed in the skill's resources; not read");
            return Ok(Err(self.refuse(uri, why)));
        }
        let answer = self.read_resource(uri, &CallOptions::default()).await?;
        let contents = match answer.outcome {
            Ok(read) => read.contents,
            Err(e) => return Ok(Err(Refusal::Server(e))),
        };
        let Some(content) = pick(contents, uri) else {
            return Ok(Err(self.refuse(uri, "the read returned no single content for this URI".into())));
        };
        let bytes = match content.text() {
            Some(t) => t.as_bytes().to_vec(),
            None => match content.bytes() {
                Ok(b) => b,
                Err(why) => return Ok(Err(self.refuse(uri, why))),
            },
        };
        if let Some(file) = listed
            && let Err(why) = check_bytes(file, &bytes)
        {
            return Ok(Err(self.refuse(uri, why)));
        }
        let verified = listed.is_some();
        Ok(Ok(Fetched { uri: uri.to_string(), content, bytes, verified, frontmatter: None }))
    }

    /// A verification failure, said in the log too.
    fn refuse(&self, uri: &str, why: String) -> Refusal {
        let uri = crate::sanitize::line(uri);
        self.log().push(LogKind::Warning, &format!("skill file {uri} refused: {}", crate::sanitize::line(&why)));
        Refusal::Verification(why)
    }
}

/// The content for `uri`: the one with that URI, else the only one.
fn pick(contents: Vec<ResourceContent>, uri: &str) -> Option<ResourceContent> {
    if contents.len() == 1 {
        return contents.into_iter().next();
    }
    contents.into_iter().find(|c| c.uri() == Some(uri))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_checked_for_size_then_digest() {
        let body = b"---\nname: a\n---\n";
        let file = SkillFile { uri: "skill://a/SKILL.md".into(), digest: digest_of(body), size: body.len() as u64 };
        assert_eq!(check_bytes(&file, body), Ok(()));
        assert!(check_bytes(&file, b"---\nname: b\n---\n").unwrap_err().starts_with("digest mismatch"));
        assert!(check_bytes(&file, b"short").unwrap_err().starts_with("size mismatch"));
        assert_eq!(digest_of(b"abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
