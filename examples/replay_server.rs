//! A stdio MCP server that costs nothing, for scripts/bench-compare: it answers from the
//! recorded results scripts/bench-shapes.py wrote (see tests/perf_guard/replay.rs).
//!
//! Usage: replay_server DIR

#[path = "../tests/perf_guard/replay.rs"]
mod replay;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: replay_server DIR");
        std::process::exit(2);
    };
    replay::serve(std::path::Path::new(&dir));
}
