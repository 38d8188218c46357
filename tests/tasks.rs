//! Tools run as tasks (protocol 2025-11-25) against server-everything over stdio and HTTP:
//! polled to the end, input asked for while the task waits, started without waiting, and the
//! `task` command.

mod common;

use common::*;

fn targets(se: &str, url: &str) -> Vec<Vec<String>> {
    vec![vec!["--".into(), "node".into(), se.into(), "stdio".into()], vec!["--url".into(), url.into()]]
}

fn run(args: &[&str], target: &[String]) -> std::process::Output {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(target.iter().map(String::as_str));
    mcplens(&all)
}

#[test]
fn a_tool_that_requires_a_task_runs_as_one_and_its_result_is_printed() {
    let se = server_everything().to_string_lossy().into_owned();
    let (_server, url) = server_everything_http();
    for target in targets(&se, &url) {
        let o = run(&["call", "simulate-research-query", "--arg", "topic=tides"], &target);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("# Research Report: tides"), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains("requires a task: run as one") && err.contains("completed"), "{err}");
        // The task waits for input: the elicitation is answered and the task goes on.
        let o = run(
            &[
                "call",
                "simulate-research-query",
                "--arg",
                "topic=rust",
                "--arg",
                "ambiguous=true",
                "--elicitation",
                "decline",
            ],
            &target,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).contains("input_required"), "{}", stderr(&o));
        assert!(stdout(&o).contains("User declined"), "{}", stdout(&o));
    }
}

#[test]
fn no_wait_prints_the_task_and_task_get_names_an_unknown_one() {
    let se = server_everything().to_string_lossy().into_owned();
    let target = vec!["--".into(), "node".into(), se, "stdio".into()];
    let o = run(&["call", "simulate-research-query", "--arg", "topic=x", "--task", "--no-wait"], &target);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o);
    assert!(line.starts_with("task ") && line.contains(" working"), "{line}");
    let o = run(&["call", "simulate-research-query", "--arg", "topic=x", "--task", "--no-wait", "--json"], &target);
    assert!(json_out(&o)["task"]["taskId"].is_string(), "{}", stdout(&o));
    let o = run(&["task", "get", "no-such-task"], &target);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("a task lives in the session that made it"), "{}", stderr(&o));
    let o = run(&["task", "list"], &target);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "no tasks\n"), "{}", stderr(&o));
    let o = run(&["task", "get"], &target);
    assert_eq!(o.status.code(), Some(2), "an id is required: {}", stderr(&o));
}

/// Over HTTP the command that started a task ends its session; server-everything keeps tasks
/// per session, so another command's `task get` is told that, not the stdio reason. `--no-wait`
/// alone runs the tool as a task.
#[test]
fn over_http_an_unknown_task_is_said_to_live_in_the_session_that_ended() {
    let (_server, url) = server_everything_http();
    let target = vec!["--url".to_string(), url];
    let o = run(&["call", "simulate-research-query", "--arg", "topic=moon", "--no-wait"], &target);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o);
    let id = line.strip_prefix("task ").and_then(|l| l.split_whitespace().next()).unwrap_or_default();
    assert!(!id.is_empty() && line.contains(" working"), "{line}");
    let o = run(&["task", "get", id], &target);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("the command that started it ended its HTTP session"), "{err}");
    assert!(!err.contains("stdio"), "{err}");
}

/// `task list` follows `nextCursor` to the last page, and says when a server's cursor repeats.
#[test]
fn task_list_follows_every_page_and_stops_on_a_repeated_cursor() {
    let py = python().to_string_lossy().into_owned();
    let server = |flag: &str| vec!["--".to_string(), py.clone(), script("task_server.py"), flag.to_string()];
    let o = run(&["task", "list"], &server("--paged-list"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ids: Vec<String> = stdout(&o).lines().filter_map(|l| l.split_whitespace().nth(1).map(str::to_string)).collect();
    assert_eq!(ids, ["t1", "t2", "t3", "t4", "t5"], "{}", stdout(&o));
    let o = run(&["task", "list", "--json"], &server("--paged-list"));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    let o = run(&["task", "list"], &server("--looping-list"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("tasks/list repeated the cursor \"again\"; stopped after 2 pages"), "{}", stderr(&o));
}

/// A server without tasks says so plainly: the memory server declares none (nothing is asked), a
/// server declaring them answers "method not found". `task list` has none to show (exit 0, as
/// `prompts` on a server without prompts); `task get` names no task (exit 1).
#[test]
fn a_server_without_tasks_says_so() {
    let memory = root().join("tests/peers/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    let file = std::env::temp_dir().join(format!("mcplens-tasks-memory-{}.json", std::process::id()));
    let env = format!("MEMORY_FILE_PATH={}", file.display());
    let memory = vec!["-e".into(), env, "--".into(), "node".into(), memory.to_string_lossy().into_owned()];
    let py = python().to_string_lossy().into_owned();
    let refusing = vec!["--".into(), py, script("task_server.py"), "--no-task-methods".into()];
    for (target, why) in [(memory, "(no tasks capability)"), (refusing, "(JSON-RPC error -32601: Method not found)")] {
        let o = run(&["task", "list"], &target);
        assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "no tasks\n"), "{}", stderr(&o));
        assert_eq!(stderr(&o), format!("warning: the server does not offer tasks {why}\n"));
        let o = run(&["task", "list", "--json"], &target);
        assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "{\"tasks\":[]}\n"), "{}", stderr(&o));
        let o = run(&["task", "get", "t1"], &target);
        assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""), "{}", stderr(&o));
        assert_eq!(stderr(&o), format!("mcplens: the server does not offer tasks {why}\n"));
    }
}
