//! The shell integration a user installs: completion scripts that load in bash and zsh and
//! complete the commands, the man page, `--version` with the commit, and the settings file.

use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mcplens")
}

fn shell(program: &str, script: &str) -> String {
    let out = Command::new(program).args(["-c", script]).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(out.status.success(), "{program}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bash_completes_commands_and_flags() {
    let words = shell(
        "bash",
        &format!(
            "source <({} completions bash); COMP_WORDS=(mcplens snap); COMP_CWORD=1; _mcplens mcplens snap mcplens; \
             echo \"${{COMPREPLY[@]}}\"; COMP_WORDS=(mcplens tools --time); COMP_CWORD=2; \
             _mcplens mcplens --time tools; echo \"${{COMPREPLY[@]}}\"",
            bin()
        ),
    );
    assert_eq!(words.lines().collect::<Vec<_>>(), ["snapshot", "--timeout"], "{words}");
}

#[test]
fn bash_completes_the_protocol_versions_not_file_names() {
    let words = shell(
        "bash",
        &format!(
            "cd /; source <({} completions bash); COMP_WORDS=(mcplens tools --protocol 2025); COMP_CWORD=3; \
             _mcplens mcplens 2025 --protocol; echo \"${{COMPREPLY[@]}}\"",
            bin()
        ),
    );
    assert_eq!(words.trim(), "2025-11-25 2025-06-18 2025-03-26", "{words}");
}

#[test]
fn zsh_loads_the_completion_function() {
    let script = format!(
        "autoload -U compinit && compinit -u && source <({} completions zsh) && print -- $_comps[mcplens]",
        bin()
    );
    assert_eq!(shell("zsh", &script).trim(), "_mcplens");
}

#[test]
fn the_version_names_the_commit_and_the_man_page_renders() {
    let out = Command::new(bin()).arg("--version").output().unwrap();
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(v.starts_with("mcplens ") && v.contains("(commit "), "{v}");
    let out = Command::new(bin()).arg("man").output().unwrap();
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && page.contains(".TH mcplens"), "{page:.300}");
    let dir = std::env::temp_dir().join(format!("mcplens-man-{}", std::process::id()));
    let out = Command::new(bin()).args(["man", "--dir"]).arg(&dir).output().unwrap();
    assert!(out.status.success() && dir.join("mcplens-tools.1").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_settings_file_gives_defaults_that_the_environment_and_flags_override() {
    let dir = std::env::temp_dir().join(format!("mcplens-settings-it-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "protocol = \"1999-01-01\"\ntimeout = 3\n").unwrap();
    // The demo server answers `info`; a bad protocol in the file is said and left out.
    let out = Command::new(bin()).args(["info", "--json"]).env("MCPLENS_CONFIG_DIR", &dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("protocol: expected one of"), "{err}");
    std::fs::write(dir.join("config.toml"), "protocol = \"2025-06-18\"\n").unwrap();
    let run = |env: &[(&str, &str)], args: &[&str]| {
        let mut c = Command::new(bin());
        c.args(["info", "--json"]).args(args).env("MCPLENS_CONFIG_DIR", &dir).env_remove("MCPLENS_PROTOCOL");
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["protocolVersion"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(run(&[], &[]), "2025-06-18");
    assert_eq!(run(&[("MCPLENS_PROTOCOL", "2025-11-25")], &[]), "2025-11-25");
    assert_eq!(run(&[("MCPLENS_PROTOCOL", "2025-11-25")], &["--protocol", "2025-03-26"]), "2025-03-26");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A timeout that passes names where it was set: the settings file, not a flag never given; one
/// too short for any server is left out when the file is read.
#[test]
fn a_timeout_from_the_settings_file_is_said_to_be_from_there() {
    let dir = std::env::temp_dir().join(format!("mcplens-settings-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |settings: &str| {
        std::fs::write(dir.join("config.toml"), settings).unwrap();
        let out = Command::new(bin())
            .args(["tools", "--", "sleep", "30"])
            .env("MCPLENS_CONFIG_DIR", &dir)
            .env_remove("MCPLENS_TIMEOUT")
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run("timeout = 0.5\n");
    let file = dir.join("config.toml");
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains(&format!("within 500ms (the timeout in {})", file.display())), "{err}");
    std::fs::write(dir.join("config.toml"), "timeout = 0.0001\n").unwrap();
    let out = Command::new(bin()).args(["info", "--json"]).env("MCPLENS_CONFIG_DIR", &dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("timeout: expected a number of seconds, at least 0.001; left out"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
