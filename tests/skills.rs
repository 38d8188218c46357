//! `mcplens skills` (SEP-2640) against tests/servers/skills_server.py: a raw server whose
//! entries are computed from its files, as the stable specification describes them. The
//! conformance suite's four skills scenarios are in tests/conformance.rs.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{bin, python, script, stderr, stdout};

/// Runs `mcplens ARGS -- python skills_server.py EXTRA`; returns the output and the methods
/// (and URIs) the server was asked for.
fn run(args: &[&str], extra: &[&str]) -> (Output, Vec<String>) {
    let log = std::env::temp_dir().join(format!(
        "mcplens-skills-{}-{}.log",
        std::process::id(),
        args.join("_").replace(['/', ':'], "_")
    ));
    let _ = std::fs::remove_file(&log);
    let server = script("skills_server.py");
    let mut cmd = Command::new(bin());
    cmd.args(args).arg("--").arg(python()).arg(&server).args(extra);
    let out = cmd
        .env("SKILLS_SERVER_LOG", &log)
        .env("MCPLENS_STATE_DIR", std::env::temp_dir().join("mcplens-skills-state"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run mcplens: {e}"));
    let asked = std::fs::read_to_string(&log).unwrap_or_default().lines().map(str::to_string).collect();
    let _ = std::fs::remove_file(PathBuf::from(&log));
    (out, asked)
}

fn reads(asked: &[String]) -> Vec<&str> {
    asked.iter().filter_map(|l| l.strip_prefix("resources/read ")).collect()
}

#[test]
fn the_listing_shows_every_page_with_metadata_and_reads_nothing() {
    let (out, asked) = run(&["skills"], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.starts_with("5 skills\n"), "{text}");
    for want in [
        "git-workflow  skill://git-workflow/SKILL.md",
        "license: Apache-2.0",
        r#"metadata: {"version":2.1,"tags":["git","review"]}"#,
        "files: 3 (185 B): SKILL.md examples/email.md assets/logo.png",
        "files: dynamic",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    assert_eq!(asked.iter().filter(|m| *m == "skills/list").count(), 3, "{asked:?}");
    assert!(reads(&asked).is_empty(), "a listing read files: {asked:?}");
}

#[test]
fn the_json_listing_keeps_the_entries_as_sent() {
    let (out, _) = run(&["skills", "--json"], &[]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let all = v.as_array().cloned().unwrap_or_default();
    assert_eq!(all.len(), 5, "{}", stdout(&out));
    assert_eq!(all[3]["resources"], "dynamic");
    assert_eq!(all[0]["frontmatter"]["metadata"]["version"], 2.1);
}

#[test]
fn a_read_verifies_and_shows_the_skill_and_reads_only_its_skill_md() {
    let (out, asked) = run(&["skills", "read", "git-workflow"], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("verified: size, sha256, frontmatter"), "{text}");
    assert!(text.contains("Branch from main"), "{text}");
    assert_eq!(reads(&asked), ["skill://git-workflow/SKILL.md"]);
}

#[test]
fn a_supporting_file_is_read_verified_and_an_unlisted_one_is_not_read() {
    let (out, asked) = run(&["skills", "read", "acme/billing/refunds", "--file", "assets/logo.png"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("image/png  16 B  verified: size, sha256"), "{}", stdout(&out));
    assert_eq!(reads(&asked), ["skill://acme/billing/refunds/assets/logo.png"]);

    let (out, asked) = run(&["skills", "read", "acme/billing/refunds", "--file", "../../etc/passwd"], &[]);
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(stderr(&out).contains("is not listed in the skill's resources; not read"), "{}", stderr(&out));
    assert!(reads(&asked).is_empty(), "{asked:?}");
}

#[test]
fn a_stale_digest_is_refused_with_exit_6_and_the_content_is_not_shown() {
    let (out, _) = run(&["skills", "read", "stale"], &[]);
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(stderr(&out).contains("not loaded: digest mismatch"), "{}", stderr(&out));
    assert!(!stdout(&out).contains("body"), "{}", stdout(&out));
}

#[test]
fn names_that_collide_must_be_told_apart() {
    let (out, asked) = run(&["skills", "read", "refunds"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("2 skills are named \"refunds\""), "{err}");
    assert!(err.contains("skill://acme/support/refunds/SKILL.md"), "{err}");
    assert!(reads(&asked).is_empty());
    let (out, _) = run(&["skills", "read", "acme/support/refunds"], &[]);
    assert!(stdout(&out).contains("Be kind."), "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn an_unlisted_skill_is_loaded_by_its_uri_through_skills_get() {
    let (out, asked) = run(&["skills", "read", "skill://hidden/unlisted/SKILL.md"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("Found me."), "{}", stdout(&out));
    assert!(asked.iter().any(|m| m.starts_with("skills/get")), "{asked:?}");
}

#[test]
fn a_dynamic_skill_says_it_is_not_verified() {
    let (out, _) = run(&["skills", "read", "daily"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("size and digest NOT verified"), "{}", stdout(&out));
}

#[test]
fn a_server_without_the_extension_is_not_asked() {
    let (out, asked) = run(&["skills"], &["--no-extension"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("does not declare the skills extension"), "{}", stderr(&out));
    assert!(!asked.iter().any(|m| m.starts_with("skills/")), "{asked:?}");
    // The JSON listing is an empty list, as for prompts; a skill to read is no such skill (2).
    let (out, asked) = run(&["skills", "--json"], &["--no-extension"]);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "[]\n"), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not declare the skills extension"), "{}", stderr(&out));
    assert!(!asked.iter().any(|m| m.starts_with("skills/")), "{asked:?}");
    let (out, asked) = run(&["skills", "read", "daily"], &["--no-extension"]);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(2), ""), "{}", stderr(&out));
    assert!(stderr(&out).contains("no skill \"daily\" to read: the server does not declare"), "{}", stderr(&out));
    assert!(!asked.iter().any(|m| m.starts_with("skills/") || m.starts_with("resources/")), "{asked:?}");
}
