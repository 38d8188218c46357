//! What a server asks of mcplens during a headless `call`: elicitation (form and URL mode),
//! sampling and roots, against a Python SDK server of the project's (tests/servers/asks_server.py)
//! and server-everything over stdio and streamable HTTP.

mod common;

use common::*;
use serde_json::{Value, json};

/// `mcplens call TOOL EXTRA... -- python asks_server.py`; stdin is closed (no terminal).
/// The legacy era: the server's tools ask with requests of their own (`ctx.session.elicit_form`),
/// which its SDK refuses to send in 2026-07-28 (tests/era.rs asks in that era).
fn ask(tool: &str, extra: &[&str]) -> std::process::Output {
    let py = python().to_string_lossy().into_owned();
    let server = script("asks_server.py");
    let mut args = vec!["call", tool, "--json", "--protocol", "2025-11-25"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", &py, &server]);
    mcplens(&args)
}

/// What the server says it received: the JSON text of the result's first content block.
fn received(o: &std::process::Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    let env = json_out(o);
    let text = env["data"].as_str().map(str::to_string).unwrap_or_else(|| env["data"].to_string());
    serde_json::from_str(&text).unwrap_or(env["data"].clone())
}

#[test]
fn accept_sends_every_default_and_says_what_was_asked_and_answered() {
    let o = ask("ask_profile", &["--elicitation", "accept"]);
    assert_eq!(
        received(&o),
        json!({"action": "accept", "content": {"name": "Ada", "color": "green", "subscribe": false}})
    );
    let err = stderr(&o);
    assert!(err.contains("the server asks: Who are you?"), "{err}");
    // The required `age` has no default: accepted as the user said, with a warning.
    assert!(err.contains("\"age\" is a required property"), "{err}");
    assert!(err.contains("mcplens answered: accept"), "{err}");
}

#[test]
fn an_answer_given_as_json_is_laid_over_the_defaults() {
    let o = ask("ask_profile", &["--elicitation-answer", r#"{"age": 41, "color": "blue"}"#]);
    assert_eq!(
        received(&o),
        json!({"action": "accept", "content": {"name": "Ada", "age": 41, "color": "blue", "subscribe": false}})
    );
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let bad = ask("ask_profile", &["--elicitation-answer", "[1]"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("--elicitation-answer must be a JSON object"));
    let clash = ask("ask_profile", &["--elicitation-answer", "{}", "--elicitation", "decline"]);
    assert_eq!(clash.status.code(), Some(2), "{}", stderr(&clash));
}

#[test]
fn decline_cancel_and_no_terminal_each_reach_the_server() {
    assert_eq!(received(&ask("ask_profile", &["--elicitation", "decline"]))["action"], "decline");
    assert_eq!(received(&ask("ask_profile", &["--elicitation", "cancel"]))["action"], "cancel");
    // The default is to ask on the terminal; with none it declines and says how to answer.
    let o = ask("ask_profile", &[]);
    assert_eq!(received(&o)["action"], "decline");
    assert!(stderr(&o).contains("no terminal to ask on (--elicitation"), "{}", stderr(&o));
}

#[test]
fn url_mode_shows_the_url_and_accepts_without_opening_it_headless() {
    let o = ask("ask_login", &["--elicitation", "accept"]);
    assert_eq!(received(&o), json!({"action": "accept"}));
    assert!(
        stderr(&o).contains("open https://example.com/login?x=1 (opens host example.com): Log in to continue"),
        "{}",
        stderr(&o)
    );
    assert_eq!(received(&ask("ask_login", &[]))["action"], "decline");
}

/// `https://good.example@evil.example/` opens evil.example: the real host is said, and what
/// stands before the `@` is called user info, before anything is opened.
#[test]
fn url_mode_says_the_real_host_and_flags_user_info() {
    let o = ask("ask_login_disguised", &["--elicitation", "decline"]);
    let err = stderr(&o);
    let line = err.lines().find(|l| l.contains("asks you to open")).unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("opens host evil.example;"), "{line}");
    assert!(line.contains("\"good.example\" before the @ is user info, not the host"), "{line}");
    assert_eq!(received(&o)["action"], "decline");
}

#[test]
fn sampling_is_shown_whole_and_answered_or_declined() {
    let o = ask("summarize", &["--arg", "text=the tides", "--sampling-answer", "Water moves."]);
    assert_eq!(
        received(&o),
        json!({"model": "mcplens (typed by the user)", "role": "assistant", "text": "Water moves."})
    );
    let err = stderr(&o);
    for line in ["system: You write one short line.", "user: Summarize: the tides", "maxTokens 64"] {
        assert!(err.contains(line), "{line} missing from:\n{err}");
    }
    let declined = ask("summarize", &["--arg", "text=x", "--sampling-answer", "decline"]);
    assert_eq!(received(&declined)["result"], "sampling failed: the user declined the sampling request");
    let no_tty = ask("summarize", &["--arg", "text=x"]);
    assert!(stderr(&no_tty).contains("--sampling-answer TEXT|decline"), "{}", stderr(&no_tty));
}

#[test]
fn roots_come_from_flags_and_the_config_entry() {
    let dir = std::env::temp_dir().join(format!("mcplens-roots-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a b")).unwrap_or_else(|e| panic!("{e}"));
    let o = ask("show_roots", &["--root", &dir.join("a b").to_string_lossy()]);
    let uri = format!("file://{}/a%20b", dir.canonicalize().unwrap_or(dir.clone()).display());
    assert_eq!(received(&o), json!([{"uri": uri, "name": "a b"}]));
    let config = dir.join("mcp.json");
    let entry = json!({"mcpServers": {"asks": {
        "command": python(), "args": [script("asks_server.py")], "roots": ["a b", "/"], "protocol": "2025-11-25"}}});
    std::fs::write(&config, entry.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["call", "show_roots", "--json", "--config", &config.to_string_lossy(), "--root", "/tmp"]);
    let names: Vec<Value> = received(&o).as_array().into_iter().flatten().map(|r| r["uri"].clone()).collect();
    assert_eq!(names, [json!(uri), json!("file:///"), json!("file:///tmp")]);
    let bad = json!({"mcpServers": {"asks": {"command": "x", "roots": "a"}}});
    std::fs::write(&config, bad.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["tools", "--config", &config.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("\"roots\" must be an array of paths"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A root that is not a directory here is still offered (the server may see another
/// filesystem), with a warning naming it; a directory that exists is offered without a word.
#[test]
fn a_root_that_is_no_directory_here_is_offered_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("mcplens-roots-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let (missing, file) = (dir.join("gone"), dir.join("a-file"));
    std::fs::write(&file, "x").unwrap_or_else(|e| panic!("{e}"));
    let (missing, file) = (missing.to_string_lossy().into_owned(), file.to_string_lossy().into_owned());
    let o = ask("show_roots", &["--root", &missing, "--root", &file, "--root", "/tmp"]);
    let uris: Vec<Value> = received(&o).as_array().into_iter().flatten().map(|r| r["uri"].clone()).collect();
    assert_eq!(uris.len(), 3, "{uris:?}");
    let err = stderr(&o);
    assert!(err.contains(&format!("warning: --root {missing}: no such directory here")), "{err}");
    assert!(err.contains(&format!("warning: --root {file}: not a directory here")), "{err}");
    assert!(!err.contains("--root /tmp:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_schema_outside_the_spec_and_escapes_in_the_message_reach_the_user_safely() {
    let o = ask("ask_odd", &["--elicitation", "accept"]);
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains(r"\x1b[2Jclear"), "{err}");
    // The nested default rmcp's typed schema would refuse is sent as the server wrote it.
    assert!(err.contains(r#""nested":{"deep":"d"}"#), "{err}");
}

/// `mcplens call TOOL EXTRA... -- python headless_edges.py`.
fn edges(tool: &str, extra: &[&str]) -> std::process::Output {
    let py = python().to_string_lossy().into_owned();
    let server = script("headless_edges.py");
    let mut args = vec!["call", tool, "--raw"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", &py, &server]);
    mcplens(&args)
}

/// A default beyond 64 bits reaches the server as the server wrote it, and is said so; one
/// given with --elicitation-answer as given.
#[test]
fn a_number_beyond_64_bits_is_sent_whole() {
    let o = edges("elicit_big", &["--elicitation", "accept"]);
    // The server echoes what it received as JSON text: its own digits, not 1.2345678901234568e+22.
    let out = stdout(&o);
    assert!(out.contains(r#"{\"i\": 12345678901234567890123}"#), "{out}");
    let err = stderr(&o);
    assert!(err.contains(r#"mcplens answered: accept {"i":12345678901234567890123}"#), "{err}");
    let o = edges("elicit_big", &["--elicitation-answer", r#"{"i": 98765432109876543210987, "s": "x"}"#]);
    assert!(stdout(&o).contains(r#"\"i\": 98765432109876543210987"#), "{}", stdout(&o));
}

#[test]
fn server_everything_elicits_samples_and_lists_roots_over_stdio_and_http() {
    let se = server_everything().to_string_lossy().into_owned();
    let (_server, url) = server_everything_http();
    let stdio = ["--", "node", se.as_str(), "stdio"];
    let http = ["--url", url.as_str()];
    for target in [&stdio[..], &http[..]] {
        let run = |args: &[&str]| {
            let mut all = args.to_vec();
            all.extend_from_slice(target);
            mcplens(&all)
        };
        let o = run(&["call", "trigger-elicitation-request", "--elicitation-answer", r#"{"name": "Lin"}"#]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("\"name\": \"Lin\"") && stdout(&o).contains("\"integer\": 42"), "{}", stdout(&o));
        let o = run(&["call", "trigger-sampling-request", "--arg", "prompt=hi", "--sampling-answer", "hello back"]);
        assert!(stdout(&o).contains("hello back"), "{}{}", stdout(&o), stderr(&o));
        let o = run(&["call", "get-roots-list", "--root", "/tmp"]);
        assert!(stdout(&o).contains("URI: file:///tmp"), "{}{}", stdout(&o), stderr(&o));
    }
}

/// `--elicitation ask` on a terminal (a tmux pane) against server-everything's form of every
/// field kind: titles name choices, lists are typed `a,b`, a bad field is asked again alone,
/// spaces are kept, and editing again starts from the answers given.
#[test]
fn the_terminal_prompt_reads_titles_lists_and_asks_a_bad_field_again() {
    let dir = std::env::temp_dir().join(format!("mcplens-prompt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("out.json");
    let cmd = format!(
        "MCPLENS_STATE_DIR={state} {bin} call trigger-elicitation-request --raw -- node {se} stdio > {out}; echo EXITED $?; sleep 60",
        state = dir.join("state").display(),
        bin = bin(),
        se = server_everything().display(),
        out = out.display(),
    );
    let tmux = Tmux::start("prompt", 200, 60, &format!("bash -c '{cmd}'"));
    tmux.wait_for("name* (string", 30);
    let answers =
        ["  Ada ", "yes", "", "", "", "", "500", "7", "", "", "Piano, drums", "Green Lantern", "Salmon,tuna", "Dogs"];
    for a in answers {
        tmux.keys(&["-l", a]);
        tmux.keys(&["Enter"]);
    }
    let screen = tmux.wait_for("edit again (e)?", 30);
    assert!(screen.contains("✖ 500 is greater than the maximum of 100; again:"), "{screen}");
    assert!(screen.contains("one of Superman, Green Lantern, Wonder Woman; Enter for Superman"), "{screen}");
    assert!(screen.contains("one of Cats, Dogs, Birds, Fish, Reptiles"), "{screen}");
    // Edit again: each field offers the answer it was given; Enter keeps them all.
    tmux.keys(&["e", "Enter"]);
    tmux.wait_for("Enter keeps \"  Ada \"", 30);
    for _ in 0..13 {
        tmux.keys(&["Enter"]);
    }
    tmux.wait_for("Enter keeps Dogs", 30);
    tmux.keys(&["a", "Enter"]);
    let screen = tmux.wait_for("EXITED", 30);
    assert!(screen.contains("EXITED 0"), "{screen}");
    // The server's "Raw result:" block is what it received.
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap_or_default()).unwrap_or_default();
    let text = raw["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect::<String>();
    let got = text.split_once("Raw result: ").map(|(_, r)| r).unwrap_or_default();
    let got: Value = serde_json::from_str(got).unwrap_or_else(|e| panic!("{e}: {text}"));
    let c = &got["content"];
    assert_eq!((c["name"].clone(), c["check"].clone(), c["integer"].clone()), (json!("  Ada "), json!(true), json!(7)));
    assert_eq!(c["titledSingleSelectEnum"], "hero-2");
    assert_eq!(c["titledMultipleSelectEnum"], json!(["fish-2", "fish-1"]));
    assert_eq!(c["untitledMultipleSelectEnum"], json!(["Piano", "Drums"]));
    assert_eq!(c["legacyTitledEnum"], "pet-2");
    let _ = std::fs::remove_dir_all(&dir);
}
