//! `mcplens skills`: the skills a server serves (SEP-2640), and one read on request, verified.

use serde_json::{Value, json};

use super::args::SkillsArgs;
use super::connect::{Opened, open};
use super::items::human_size;
use super::{err_line, out, warn_list};
use crate::error::{LensError, Result};
use crate::sanitize;
use crate::skills::{EXTENSION, Fetched, Files, Refusal, Skill, SkillList};

/// The exit code when a skill file fails verification.
pub const VERIFY_FAILED: i32 = 6;

/// `mcplens skills [read NAME [--file PATH]]`
pub async fn skills(a: &SkillsArgs) -> Result<i32> {
    open(&a.target).await?.run(async |o| run(o, a).await).await
}

async fn run(opened: &Opened, a: &SkillsArgs) -> Result<i32> {
    let session = &opened.session;
    if !session.offers_skills() {
        let why = format!("the server does not declare the skills extension ({EXTENSION})");
        if let Some(name) = a.read_name()? {
            return Err(LensError::usage(format!("no skill {:?} to read: {why}", sanitize::line(name).into_owned())));
        }
        err_line(&format!("mcplens: {why}; no skills"));
        // An empty list, as `prompts --json` prints for a server without prompts: a script
        // reading the output finds JSON either way.
        return if a.json { out("[]\n").map(|_| 0) } else { Ok(0) };
    }
    let list = opened.answer(session.list_skills()).await?;
    if let Some(hint) = &list.cache {
        err_line(&sanitize::line(hint));
    }
    warn_list(&list.warnings);
    let Some(name) = a.read_name()? else {
        return out(&if a.json { list_json(&list) } else { listing(&list) }).map(|_| 0);
    };
    let skill = match find(&list, name)? {
        Some(s) => s.clone(),
        None => fetch_entry(opened, name).await?,
    };
    let fetched = match &a.file {
        None => opened.answer(session.load_skill(&skill)).await?,
        Some(path) => {
            let uri = format!("{}/{}", skill.root(), path.trim_start_matches('/'));
            opened.answer(session.read_skill_file(&skill, &uri)).await?
        }
    };
    match fetched {
        Ok(f) => out(&if a.json { read_json(&skill, &f) } else { readable(&f) }).map(|_| 0),
        Err(r) => Ok(refusal(&skill, &r, a.json)),
    }
}

/// A skill by name, path or URI among the listed ones. Names need not be unique: several
/// matches are an error that names them all.
fn find<'a>(list: &'a SkillList, name: &str) -> Result<Option<&'a Skill>> {
    let by_uri = |s: &&Skill| s.uri == name || s.root() == name;
    let by_name = |s: &&Skill| s.name() == name || s.path() == name;
    if let Some(s) = list.skills.iter().find(by_uri) {
        return Ok(Some(s));
    }
    let found: Vec<&Skill> = list.skills.iter().filter(by_name).collect();
    match found.as_slice() {
        [one] => Ok(Some(one)),
        [] if name.contains("://") => Ok(None),
        [] => {
            let names: Vec<&str> = list.skills.iter().map(Skill::name).take(20).collect();
            let names = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            Err(LensError::usage(format!(
                "no skill named {:?} is listed; the server lists: {} (a skill's SKILL.md URI is asked for with skills/get)",
                sanitize::line(name).into_owned(),
                sanitize::line(&names)
            )))
        }
        many => {
            let uris: Vec<&str> = many.iter().map(|s| s.uri.as_str()).collect();
            Err(LensError::usage(format!(
                "{} skills are named {:?}: {}; give the path or the URI",
                many.len(),
                sanitize::line(name).into_owned(),
                sanitize::line(&uris.join(", "))
            )))
        }
    }
}

/// An unlisted skill, by the URI of its SKILL.md (a listing may be partial).
async fn fetch_entry(opened: &Opened, uri: &str) -> Result<Skill> {
    let uri = if uri.ends_with("/SKILL.md") { uri.to_string() } else { format!("{uri}/SKILL.md") };
    match opened.session.get_skill(&uri).await? {
        Ok(skill) => {
            warn_list(&skill.problems().iter().map(|p| format!("skill {}: {p}", skill.uri)).collect::<Vec<_>>());
            Ok(skill)
        }
        Err(e) => Err(LensError::usage(format!(
            "{} is not listed, and skills/get says {}",
            sanitize::line(&uri),
            sanitize::joined(&e.summary())
        ))),
    }
}

fn listing(list: &SkillList) -> String {
    let mut s = format!("{} skill{}\n", list.skills.len(), if list.skills.len() == 1 { "" } else { "s" });
    for skill in &list.skills {
        s.push_str(&format!("\n{}  {}\n", sanitize::line(skill.name()), sanitize::line(&skill.uri)));
        if !skill.description().is_empty() {
            s.push_str(&format!("  {}\n", sanitize::line(skill.description())));
        }
        for (k, v) in skill.frontmatter.iter().filter(|(k, _)| *k != "name" && *k != "description") {
            let v = match v {
                Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            s.push_str(&format!("  {}: {}\n", sanitize::line(k), sanitize::line(&sanitize::truncate(&v, 200))));
        }
        s.push_str(&format!("  {}\n", files_line(skill)));
    }
    s
}

fn files_line(skill: &Skill) -> String {
    match &skill.files {
        Files::Listed(files) => {
            let total = human_size(skill.total_size().unwrap_or(0));
            let names: Vec<&str> = files
                .iter()
                .map(|f| f.uri.strip_prefix(skill.root()).and_then(|p| p.strip_prefix('/')).unwrap_or(&f.uri))
                .collect();
            let names = sanitize::truncate(&names.join(" "), 300).into_owned();
            format!("files: {} ({total}): {}", files.len(), sanitize::line(&names))
        }
        Files::Dynamic => "files: dynamic (generated; no digests to verify against)".into(),
        Files::Invalid(why) => format!("files: invalid ({}); cannot be loaded", sanitize::line(why)),
    }
}

fn list_json(list: &SkillList) -> String {
    let all: Vec<&Value> = list.skills.iter().map(|s| &s.raw).collect();
    let text = serde_json::to_string_pretty(&all).unwrap_or_else(|_| "[]".into());
    format!("{}\n", sanitize::json(&text))
}

fn readable(f: &Fetched) -> String {
    let mime = f.content.mime_type().unwrap_or("(no mimeType)");
    let check = match (f.verified, f.frontmatter.is_some()) {
        (true, true) => "verified: size, sha256, frontmatter",
        (true, false) => "verified: size, sha256",
        (false, true) => "frontmatter checked; size and digest NOT verified (the skill's resources are dynamic)",
        (false, false) => "NOT verified (the skill's resources are dynamic)",
    };
    let mut s = format!(
        "{}  {}  {}  {}\n\n",
        sanitize::line(&f.uri),
        sanitize::line(mime),
        human_size(f.bytes.len() as u64),
        check
    );
    match f.content.text() {
        Some(t) => s.push_str(&sanitize::text(t)),
        None => s.push_str(&format!("(binary, {} bytes; `mcplens read` saves it with -o)\n", f.bytes.len())),
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

fn read_json(skill: &Skill, f: &Fetched) -> String {
    let v = json!({
        "skill": skill.uri,
        "uri": f.uri,
        "verified": f.verified,
        "size": f.bytes.len(),
        "digest": crate::skills::digest_of(&f.bytes),
        "frontmatter": f.frontmatter,
        "content": f.content.value,
    });
    format!("{}\n", sanitize::json(&serde_json::to_string_pretty(&v).unwrap_or_default()))
}

/// Says why the content was not used; exit 6 for a verification failure, 1 for a server error.
fn refusal(skill: &Skill, r: &Refusal, json: bool) -> i32 {
    let code = match r {
        Refusal::Verification(_) => VERIFY_FAILED,
        Refusal::Server(_) => 1,
    };
    if json {
        let v = json!({ "skill": skill.uri, "refused": r.message() });
        let _ = out(&format!("{}\n", sanitize::json(&v.to_string())));
    }
    err_line(&format!("mcplens: skill {} not loaded: {}", sanitize::line(&skill.uri), sanitize::line(&r.message())));
    code
}
