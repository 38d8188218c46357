//! A skill entry (`skills/list`, `skills/get`) as the server sent it, read into what a host
//! checks before it fetches anything: the SKILL.md URI, the frontmatter, and the manifest of
//! files with their digests and sizes.

use serde_json::{Map, Value};

/// Resources per skill every host must accept (SEP-2640, "Limits").
pub const MAX_FILES: usize = 512;
/// Total bytes per skill every host must accept.
pub const MAX_TOTAL: u64 = 16 * 1024 * 1024;

/// One file of a skill's manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFile {
    pub uri: String,
    /// `sha256:` and 64 lowercase hex digits, as sent (checked by `Skill::problems`).
    pub digest: String,
    pub size: u64,
}

/// A skill's `resources`.
#[derive(Debug, Clone, PartialEq)]
pub enum Files {
    Listed(Vec<SkillFile>),
    /// `"dynamic"`: generated content, no digests to verify against.
    Dynamic,
    /// Anything else (missing, another type, a malformed file entry): such a skill is not loaded.
    Invalid(String),
}

/// One skill entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The entry exactly as sent (for `--json`).
    pub raw: Value,
    /// The SKILL.md URI (empty when missing: then the entry cannot be loaded).
    pub uri: String,
    pub frontmatter: Map<String, Value>,
    pub files: Files,
}

impl Skill {
    pub fn from_value(raw: Value) -> Skill {
        let uri = raw.get("uri").and_then(Value::as_str).unwrap_or_default().to_string();
        let frontmatter = raw.get("frontmatter").and_then(Value::as_object).cloned().unwrap_or_default();
        let files = match raw.get("resources") {
            Some(Value::String(s)) if s == "dynamic" => Files::Dynamic,
            Some(Value::Array(items)) => read_files(items),
            Some(other) => Files::Invalid(format!("resources is neither an array nor \"dynamic\" ({other})")),
            None => Files::Invalid("the entry has no resources".into()),
        };
        Skill { raw, uri, frontmatter, files }
    }

    fn front_str(&self, key: &str) -> Option<&str> {
        self.frontmatter.get(key).and_then(Value::as_str)
    }

    /// The skill's name: its frontmatter's, else the final segment of its path.
    pub fn name(&self) -> &str {
        self.front_str("name").unwrap_or_else(|| self.path().rsplit('/').next().unwrap_or(""))
    }

    pub fn description(&self) -> &str {
        self.front_str("description").unwrap_or("")
    }

    /// The skill's root: the URI without `/SKILL.md`.
    pub fn root(&self) -> &str {
        self.uri.strip_suffix("/SKILL.md").unwrap_or(&self.uri)
    }

    /// The skill path: the root without its scheme (`acme/billing/refunds`).
    pub fn path(&self) -> &str {
        let root = self.root();
        root.split_once("://").map_or(root, |(_, p)| p)
    }

    /// The manifest's entry for `uri`.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        match &self.files {
            Files::Listed(files) => files.iter().find(|f| f.uri == uri),
            _ => None,
        }
    }

    /// The sum of the listed sizes.
    pub fn total_size(&self) -> Option<u64> {
        match &self.files {
            Files::Listed(files) => Some(files.iter().map(|f| f.size).fold(0u64, u64::saturating_add)),
            _ => None,
        }
    }

    /// Why this entry cannot be loaded at all (the spec's "hosts MUST NOT load it"), if it cannot.
    pub fn unloadable(&self) -> Option<String> {
        if !self.uri.ends_with("/SKILL.md") {
            return Some(format!("its uri {:?} does not name a SKILL.md", self.uri));
        }
        match &self.files {
            Files::Invalid(why) => Some(why.clone()),
            Files::Listed(_) if self.file(&self.uri).is_none() => {
                Some("its resources do not list its SKILL.md, so the manifest is incomplete".into())
            }
            _ => None,
        }
    }

    /// Where the entry breaks SEP-2640 (shown as warnings; `unloadable` says which are fatal).
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self.unloadable().into_iter().collect();
        for key in ["name", "description"] {
            if self.front_str(key).is_none() {
                out.push(format!("frontmatter has no string {key}"));
            }
        }
        if let Some(name) = self.front_str("name")
            && self.path().rsplit('/').next() != Some(name)
        {
            out.push(format!("the last segment of its path is not its name {name:?}"));
        }
        if let Files::Listed(files) = &self.files {
            out.extend(self.file_problems(files));
        }
        out
    }

    fn file_problems(&self, files: &[SkillFile]) -> Vec<String> {
        let mut out = vec![];
        let inside = format!("{}/", self.root());
        for f in files {
            if !valid_digest(&f.digest) {
                out.push(format!("{}: digest {:?} is not sha256: and 64 lowercase hex digits", f.uri, f.digest));
            }
            if !f.uri.starts_with(&inside) {
                out.push(format!("{}: not within the skill's directory", f.uri));
            }
        }
        if files.len() > MAX_FILES {
            out.push(format!("{} files: over the {MAX_FILES} every host must accept", files.len()));
        }
        if let Some(total) = self.total_size().filter(|t| *t > MAX_TOTAL) {
            out.push(format!("{total} bytes in all: over the 16 MiB every host must accept"));
        }
        out
    }
}

fn read_files(items: &[Value]) -> Files {
    let mut files = Vec::with_capacity(items.len().min(MAX_FILES * 2));
    for (i, item) in items.iter().enumerate() {
        let uri = item.get("uri").and_then(Value::as_str);
        let digest = item.get("digest").and_then(Value::as_str);
        let size = item.get("size").and_then(Value::as_u64);
        match (uri, digest, size) {
            (Some(uri), Some(digest), Some(size)) => {
                files.push(SkillFile { uri: uri.to_string(), digest: digest.to_string(), size })
            }
            _ => return Files::Invalid(format!("resources[{i}] lacks a string uri, a string digest or a size")),
        }
    }
    Files::Listed(files)
}

/// `sha256:` and 64 lowercase hex digits.
pub fn valid_digest(d: &str) -> bool {
    d.strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn digest() -> String {
        format!("sha256:{}", "a".repeat(64))
    }

    #[test]
    fn a_good_entry_has_no_problems() {
        let s = Skill::from_value(json!({
            "uri": "skill://acme/billing/refunds/SKILL.md",
            "frontmatter": {"name": "refunds", "description": "d"},
            "resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": digest(), "size": 3},
                          {"uri": "skill://acme/billing/refunds/x/y.md", "digest": digest(), "size": 4}]
        }));
        assert_eq!(s.problems(), Vec::<String>::new());
        assert_eq!((s.name(), s.path(), s.total_size()), ("refunds", "acme/billing/refunds", Some(7)));
    }

    #[test]
    fn broken_entries_say_why_and_cannot_be_loaded() {
        let none = Skill::from_value(json!({"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a"}}));
        assert!(none.unloadable().unwrap().contains("no resources"));
        let other = Skill::from_value(json!({"uri": "skill://a/SKILL.md", "resources": 3}));
        assert!(other.unloadable().is_some());
        let incomplete = Skill::from_value(json!({"uri": "skill://a/SKILL.md", "frontmatter": {"name": "b"},
            "resources": [{"uri": "skill://a/b.md", "digest": "md5:x", "size": 1}]}));
        let p = incomplete.problems();
        assert!(p.iter().any(|p| p.contains("do not list its SKILL.md")), "{p:?}");
        assert!(p.iter().any(|p| p.contains("not its name")), "{p:?}");
        assert!(p.iter().any(|p| p.contains("64 lowercase hex")), "{p:?}");
        let dynamic = Skill::from_value(json!({"uri": "skill://a/SKILL.md", "resources": "dynamic"}));
        assert_eq!((dynamic.unloadable(), dynamic.total_size()), (None, None));
    }
}
