//! Every file mcplens writes is opened without waiting on a FIFO that nobody reads (fresh
//! adversary, round four): `record -o`, `proxy -o` and `snapshot -o` given a FIFO with no reader
//! waited for ever (a host's proxy never started its server); now they exit 4 at once with one
//! line. A FIFO that has a reader, and a device, are written as before.

mod common;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{bin, stderr};

fn fifo(name: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("mcplens-r4-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join("out.fifo");
    Command::new("mkfifo").arg(&path).status().ok()?.success().then_some(path)
}

fn run(args: &[&str], state: &std::path::Path) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let o = Command::new(bin())
        .args(args)
        .env("MCPLENS_STATE_DIR", state)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (o, started.elapsed())
}

/// Budget: exit 4 within 10 s, "no process reads" said, for each command that writes a file.
#[test]
fn an_output_fifo_nobody_reads_is_refused_at_once() {
    let Some(path) = fifo("unread") else { return };
    let state = path.with_file_name("state");
    let p = path.to_string_lossy().into_owned();
    let demo = ["--", bin(), "demo-server"];
    let cases: Vec<Vec<&str>> = vec![
        [&["record", "-o", &p][..], &demo].concat(),
        [&["proxy", "-o", &p][..], &demo].concat(),
        vec!["snapshot", "-o", &p],
    ];
    for args in cases {
        let (o, took) = run(&args, &state);
        assert_eq!(o.status.code(), Some(4), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("no process reads"), "{args:?}: {}", stderr(&o));
        assert!(took < Duration::from_secs(10), "{args:?} took {took:?}");
    }
}

/// Budget: a FIFO with a reader gets the whole snapshot; /dev/null is written as a file is.
#[test]
fn a_fifo_with_a_reader_and_a_device_are_written() {
    let Some(path) = fifo("read") else { return };
    let state = path.with_file_name("state");
    let reader_path = path.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::fs::File::open(&reader_path).and_then(|mut f| f.read_to_string(&mut text));
        text
    });
    // The reader is waiting in its open before the snapshot opens the FIFO.
    std::thread::sleep(Duration::from_millis(300));
    let (o, _) = run(&["snapshot", "-o", &path.to_string_lossy()], &state);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = reader.join().unwrap_or_default();
    assert!(text.contains("\"mcplensSnapshot\""), "{}", &text[..text.len().min(200)]);
    let (o, _) = run(&["snapshot", "-o", "/dev/null"], &state);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
