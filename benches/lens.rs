//! Criterion benches: normalization, the JSON row model, the schema tree, and one rendered frame
//! of each result view, at 1k, 100k and 1M items; and the recorded replies of
//! scripts/bench-shapes.py read as a client reads them (lens/shapes.rs). `cargo bench` runs every
//! size; under `cargo test` (which runs benches once as a smoke test) only the smallest runs.

#[path = "lens/shapes.rs"]
mod shapes;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mcplens::envelope::{normalize_owned, normalize_reply};
use mcplens::jsontree::JsonTree;
use mcplens::mcp::{Reply, ReplyBody};
use mcplens::ui::app::CallResult;
use mcplens::ui::result::{Page, ResultState, View};
use mcplens::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde::Serialize;
use serde_json::{Value, json};

fn sizes() -> Vec<usize> {
    if std::env::args().any(|a| a == "--bench") { vec![1_000, 100_000, 1_000_000] } else { vec![1_000] }
}

/// A `tools/call` reply whose structuredContent holds `n` demo records, as the server sends it.
fn reply_text(n: usize) -> String {
    let records: Vec<Value> = (0..n as u64).map(mcplens::demo::data::record).collect();
    json!({"jsonrpc": "2.0", "id": 7, "result": {
        "content": [{"type": "text", "text": format!("{n} records")}],
        "structuredContent": {"records": records, "offset": 0, "total": n, "hasMore": false},
        "_meta": {"trace": "bench"}
    }})
    .to_string()
}

/// A reply as the session reads it (a skeleton when long) and its envelope, as the TUI keeps them.
fn call_result(n: usize) -> CallResult {
    let raw: Arc<String> = Arc::new(reply_text(n));
    let mut reply = Reply::parse(raw, Duration::ZERO, 1000).expect("the bench's own reply reads");
    let body = std::mem::replace(&mut reply.body, ReplyBody::Result(Value::Null));
    let env = normalize_reply("generate_records", None, body, std::mem::take(&mut reply.elisions));
    CallResult {
        tool: "generate_records".into(),
        arguments: json!({"count": n}),
        reply: Some(Arc::new(reply)),
        envelope: Some(Arc::new(env)),
        output_schema: None,
        error: None,
        elapsed: Duration::ZERO,
    }
}

/// From the reply's text to its envelope, as a call does it: read (a skeleton when long), then
/// normalize.
fn bench_normalize(c: &mut Criterion) {
    let mut g = c.benchmark_group("normalize");
    g.sample_size(10);
    for n in sizes() {
        let text: Arc<String> = Arc::new(reply_text(n));
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let reply = Reply::parse(text.clone(), Duration::ZERO, 1000).expect("reads");
                black_box(normalize_reply("generate_records", None, reply.body, reply.elisions))
            })
        });
    }
    g.finish();
}

/// A reply as a Python server sends it with an output schema: the records as `json.dumps` text
/// (`", "` and `": "` spacing) and again as compact structuredContent. Reading it compares the
/// two token by token; it must cost about one parse of the reply, not two documents.
fn twin_reply_text(n: usize) -> String {
    let records: Vec<Value> = (0..n as u64).map(mcplens::demo::data::record).collect();
    let data = json!({"records": records, "total": n});
    let mut spaced = Vec::new();
    let _ = data.serialize(&mut serde_json::Serializer::with_formatter(&mut spaced, DumpsSpacing));
    let spaced = String::from_utf8(spaced).unwrap_or_default();
    json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": spaced}], "structuredContent": data}})
        .to_string()
}

/// Python's `json.dumps` spacing: `", "` between items and members, `": "` after keys.
struct DumpsSpacing;

impl serde_json::ser::Formatter for DumpsSpacing {
    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}

fn bench_normalize_twin(c: &mut Criterion) {
    let mut g = c.benchmark_group("normalize_text_twin");
    g.sample_size(10);
    for n in sizes() {
        let text: Arc<String> = Arc::new(twin_reply_text(n));
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let reply = Reply::parse(text.clone(), Duration::ZERO, 1000).expect("reads");
                black_box(normalize_reply("generate_records", None, reply.body, reply.elisions))
            })
        });
    }
    g.finish();
}

/// The same from a fully parsed tree (the path before skeletons; still the path of short replies).
fn bench_normalize_tree(c: &mut Criterion) {
    let mut g = c.benchmark_group("normalize_tree");
    g.sample_size(10);
    for n in sizes() {
        let text = reply_text(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let result: Value = serde_json::from_str::<Value>(text).unwrap_or_default()["result"].take();
                black_box(normalize_owned("generate_records", None, ReplyBody::Result(result)))
            })
        });
    }
    g.finish();
}

fn bench_row_model(c: &mut Criterion) {
    let mut g = c.benchmark_group("row_model_build");
    g.sample_size(10);
    for n in sizes() {
        let text: Arc<str> = Arc::from(reply_text(n));
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
            b.iter(|| black_box(JsonTree::build(t.clone(), "reply").len()))
        });
    }
    g.finish();
}

fn bench_frames(c: &mut Criterion) {
    let theme = Theme::default();
    for view in [View::Envelope, View::Split, View::Content, View::Raw] {
        let mut g = c.benchmark_group(format!("frame_{view:?}").to_lowercase());
        g.sample_size(20);
        for n in sizes() {
            let mut state = ResultState::new(call_result(n), Page::default(), &theme);
            state.set_view(view);
            let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap_or_else(|e| match e {});
            // set_view built the view; the bench measures the frames.
            let _ = term.draw(|f| state.render(f, f.area(), &theme, true));
            g.bench_function(BenchmarkId::from_parameter(n), |b| {
                b.iter(|| {
                    let _ = term.draw(|f| state.render(f, f.area(), &theme, true));
                })
            });
            // Scrolling to the last row, then a frame.
            g.bench_function(BenchmarkId::new("to_last_row", n), |b| {
                b.iter(|| {
                    state.navigate(mcplens::ui::keymap::Command::Bottom);
                    let _ = term.draw(|f| state.render(f, f.area(), &theme, true));
                    state.navigate(mcplens::ui::keymap::Command::Top);
                })
            });
        }
        g.finish();
    }
}

/// One frame of the panes that show a server's long strings: a tool's 6 MB description, a 6 MB
/// line of instructions. A frame must cost what is on screen, not what the server sent.
fn bench_long_strings(c: &mut Criterion) {
    use mcplens::ui::component::{Component, Ctx, Observed};
    let theme = Theme::default();
    let long = "word ".repeat(6 << 20 >> 2);
    let mut g = c.benchmark_group("frame_long_string");
    g.sample_size(20);
    let text = serde_json::to_string(&json!({"name": "t", "description": long, "inputSchema": {"type": "object"}}))
        .unwrap_or_default();
    let raw = serde_json::value::RawValue::from_string(text).unwrap_or_else(|e| panic!("{e}"));
    let tool = mcplens::mcp::ToolDescriptor::from_raw(&raw, 1000);
    let schema = mcplens::ui::components::schema::SchemaPane::new(0, &tool);
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap_or_else(|e| match e {});
    g.bench_function("schema_description_6mb", |b| {
        b.iter(|| {
            let _ = term.draw(|f| schema.draw(f, f.area(), &theme, true));
        })
    });
    let init = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}, "instructions": long}});
    let info = mcplens::mcp::ServerInfo::from_raw_text(&init.to_string());
    let mut pane = mcplens::ui::components::info::InfoPane::default();
    pane.observe(&Observed::Server(&info), &mut Ctx::new(&theme));
    g.bench_function("info_instructions_6mb", |b| {
        b.iter(|| {
            let _ = term.draw(|f| pane.draw(f, f.area(), &theme, true));
        })
    });
    g.finish();
}

fn bench_schema_tree(c: &mut Criterion) {
    let seed = mcplens::demo::catalog::tools().into_iter().find(|t| t["name"] == "fg_findPersons").unwrap_or_default();
    let mut props = serde_json::Map::new();
    for i in 0..1000 {
        props.insert(format!("p{i}"), json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}, "b": {"$ref": "#/$defs/B"}}}));
    }
    let wide =
        json!({"type": "object", "properties": props, "$defs": {"B": {"type": "array", "items": {"type": "integer"}}}});
    let mut g = c.benchmark_group("schema_tree");
    g.bench_function("seed_003", |b| b.iter(|| black_box(mcplens::schema::tree::build(&seed["inputSchema"]).count())));
    g.bench_function("1000_properties", |b| b.iter(|| black_box(mcplens::schema::tree::build(&wide).count())));
    g.finish();
}

/// The JSON users of the tokenizer, one by one, on the 100k-record reply (8 MB) and on 20,000
/// tool descriptors.
fn bench_json(c: &mut Criterion) {
    let n = if sizes().len() > 1 { 100_000 } else { 1_000 };
    let text = reply_text(n);
    let mut g = c.benchmark_group("json");
    g.sample_size(10);
    g.bench_function("depth", |b| b.iter(|| black_box(mcplens::json_depth::depth(&text))));
    g.bench_function("validate", |b| b.iter(|| black_box(mcplens::json_depth::validate(&text).is_ok())));
    g.bench_function("pretty_lines", |b| b.iter(|| black_box(mcplens::json_pretty::lines(&text, 200_000).len())));
    let shared: Arc<str> = Arc::from(text.as_str());
    g.bench_function("row_model", |b| b.iter(|| black_box(JsonTree::build(shared.clone(), "reply").len())));
    g.bench_function("row_model_all", |b| {
        b.iter(|| {
            let mut t = JsonTree::build(shared.clone(), "reply");
            t.load_all();
            black_box(t.len())
        })
    });
    let owned: Arc<String> = Arc::new(text.clone());
    g.bench_function("skeleton_checked", |b| {
        b.iter(|| {
            let mut el = mcplens::skeleton::Elisions::default();
            black_box(el.parse_with(owned.clone().into(), 1000, mcplens::skeleton::Syntax::Checked).is_some())
        })
    });
    let tools: Vec<Box<serde_json::value::RawValue>> = (0..20_000)
        .map(|i| {
            let t = json!({"name": format!("tool_{i}"), "description": "Finds things by a query, with paging.",
                "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "page": {"type": "integer"}}}});
            serde_json::value::to_raw_value(&t).unwrap_or_default()
        })
        .collect();
    g.bench_function("descriptor_scan_20000", |b| {
        b.iter(|| {
            black_box(
                tools.iter().filter(|t| mcplens::mcp::ToolDescriptor::from_raw(t, 1000).problem().is_none()).count(),
            )
        })
    });
    // What the tool filter reads of each tool (name, title, description head), from the text.
    g.bench_function("descriptor_listed_20000", |b| {
        b.iter(|| {
            black_box(
                tools
                    .iter()
                    .map(|t| mcplens::mcp::ToolDescriptor::from_raw(t, 1000).listed().name.len())
                    .sum::<usize>(),
            )
        })
    });
    g.finish();
}

/// The shapes scripts/bench-compare serves, from the same recorded bytes.
fn bench_recorded(c: &mut Criterion) {
    shapes::bench_shapes(c, sizes().len() > 1);
}

criterion_group!(
    benches,
    bench_recorded,
    bench_normalize,
    bench_normalize_twin,
    bench_normalize_tree,
    bench_row_model,
    bench_frames,
    bench_long_strings,
    bench_schema_tree,
    bench_json
);
criterion_main!(benches);
