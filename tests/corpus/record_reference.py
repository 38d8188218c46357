"""Records real answers of the registries' reference servers (installed by scripts/install-peers)
into corpus cases: each result is what the server really sent (`mcplens call --raw`), each `expect`
is written here by hand. Run by hand after `cargo build`: python3 tests/corpus/record_reference.py
It makes its fixtures (a file tree, a git repository, a web page on 127.0.0.1:18766) under $TMPDIR."""
import json, os, shutil, subprocess, sys, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = os.path.join(os.environ.get("TMPDIR", "/tmp"), "mcplens-record")
LENS = ROOT + "/target/debug/mcplens"
OUT = ROOT + "/tests/corpus"
NPM = ROOT + "/tests/peers/node_modules/@modelcontextprotocol/"
PY = ROOT + "/.ci/venv/bin/python"
COMMITS = {"filesystem": "2e8143dd1b82fa50119d8b8c83c457cae1a5ab3b", "git": "0018339da5e4491ad4edde2bdf2e4d76ad308507",
           "fetch": "4cfa0917aa8aef589218201ff2a67b7990565aea"}

def tools(server, env=None):
    o = subprocess.run([LENS, "tools", "--json", "--"] + server, capture_output=True, text=True, env=env)
    return {t["name"]: t for t in json.loads(o.stdout)}

def record(slug, name, server, tool, args, source, expect, env=None, split="train", note="", category="", sdk=""):
    o = subprocess.run([LENS, "call", tool, "--raw", "--no-validate", "--args", json.dumps(args), "--"] + server,
                       capture_output=True, text=True, env=env)
    result = json.loads(o.stdout)
    desc = tools(server, env)[tool]
    case = {"server": slug, "category": category, "sdk": sdk, "source": source, "tool": tool, "arguments": args,
            "inputSchema": desc.get("inputSchema"), "note": note, "split": split, "result": result, "expect": expect}
    if "annotations" in desc:
        case["annotations"] = desc["annotations"]
    os.makedirs(f"{OUT}/{slug}", exist_ok=True)
    with open(f"{OUT}/{slug}/{name}.json", "w") as f:
        json.dump(case, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("recorded", slug, name)


# --- filesystem, on a small tree
D = TMP + "/fs"
shutil.rmtree(D, ignore_errors=True)
os.makedirs(D + "/src/sub"); os.makedirs(D + "/docs")
open(D + "/README.md", "w").write("# Demo\n\nA small tree.\n")
open(D + "/src/main.rs", "w").write("fn main() {}\n")
open(D + "/src/sub/util.rs", "w").write("pub fn f() {}\n")
open(D + "/docs/guide.md", "w").write("guide\n")
FS = ["node", NPM + "server-filesystem/dist/index.js", D]
fs_src = lambda lines: {"repo": "modelcontextprotocol/servers", "commit": COMMITS["filesystem"], "file": "src/filesystem/index.ts",
    "lines": lines, "recorded": "@modelcontextprotocol/server-filesystem@2026.8.31 (npm) on 2026-11-22; lines in its dist/index.js",
    "wrapping": "TypeScript SDK registerTool: content [{type: text}] plus structuredContent {content: text} per the tool's outputSchema"}
kw = dict(category="file systems", sdk="typescript-sdk")
record("server-filesystem", "list_directory", FS, "list_directory", {"path": D}, fs_src("354-375"),
  {"responseType": "list", "status": "success", "data": ["[FILE] README.md", "[DIR] docs", "[DIR] src"], "error": None, "pagination": None, "nextArguments": None},
  note="entries one a line as [FILE]/[DIR] tags; structuredContent repeats the text as {content}", **kw)
record("server-filesystem", "list_directory_with_sizes", FS, "list_directory_with_sizes", {"path": D + "/src", "sortBy": "name"}, fs_src("376-437"),
  {"responseType": "list", "status": "success", "dataLength": 2, "error": None, "pagination": None},
  note="tagged lines padded to columns, then a blank line and a Total: summary", split="holdout", **kw)
record("server-filesystem", "directory_tree", FS, "directory_tree", {"path": D}, fs_src("438-512"),
  {"responseType": "list", "status": "success", "dataLength": 3, "dataFirst": {"name": "README.md", "type": "file"}, "pagination": None},
  note="a JSON array as the text, repeated as an escaped string in structuredContent.content", **kw)
record("server-filesystem", "search_files", FS, "search_files", {"path": D, "pattern": "**/*.rs"}, fs_src("513-535"),
  {"responseType": "list", "status": "success", "dataLength": 2, "error": None},
  note="matching paths one a line", **kw)
record("server-filesystem", "get_file_info", FS, "get_file_info", {"path": D + "/README.md"}, fs_src("536-557"),
  {"responseType": "single", "status": "success", "error": None, "pagination": None},
  note="key: value lines of one file's metadata", **kw)
record("server-filesystem", "read_text_file", FS, "read_text_file", {"path": D + "/README.md"}, fs_src("180-230"),
  {"responseType": "single", "status": "success", "message": "# Demo\n\nA small tree.", "error": None, "pagination": None},
  note="a document: the file's text (markdown with a bullet-free heading)", split="holdout", **kw)
record("server-filesystem", "write_file", FS, "write_file", {"path": D + "/docs/new.md", "content": "new"}, fs_src("291-320"),
  {"responseType": "action", "status": "success", "error": None},
  note="a one-line confirmation of a write", **kw)
record("server-filesystem", "access_denied", FS, "read_text_file", {"path": "/etc/hostname"}, fs_src("180-230"),
  {"responseType": "error", "status": "error", "error": {"code": None}},
  note="isError with the reason in the text", **kw)
record("server-filesystem", "list_allowed_directories", FS, "list_allowed_directories", {}, fs_src("558-575"),
  {"responseType": "list", "status": "success", "dataLength": 1, "error": None},
  note="a header line then one path a line", split="holdout", **kw)

# --- git, on a repo of four commits
G = TMP + "/repo"
shutil.rmtree(G, ignore_errors=True); os.makedirs(G)
def git(*a): subprocess.run(["git", "-C", G, "-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.org", *a], check=True, capture_output=True)
git("init", "-q", "-b", "main")
for i, msg in enumerate(["Initial commit", "Add parser\n\nThe parser reads the notes.", "Fix off-by-one in pager", "Docs: usage"]):
    open(f"{G}/f{i}.txt", "w").write(f"{i}\n"); git("add", "."); git("commit", "-qm", msg)
git("branch", "feature/tree"); git("branch", "fix/typo")
open(f"{G}/f0.txt", "w").write("changed\n")
GIT = [PY, "-m", "mcp_server_git"]
git_src = lambda lines: {"repo": "modelcontextprotocol/servers", "commit": COMMITS["git"], "file": "src/git/src/mcp_server_git/server.py",
    "lines": lines, "recorded": "mcp-server-git==2026.10.19 (PyPI) on 2026-11-22; lines in the installed server.py",
    "wrapping": "mcp Python SDK low-level Server.call_tool: the returned [TextContent] is the content"}
kw = dict(category="git", sdk="python-sdk (low-level Server)")
record("mcp-server-git", "git_log", GIT, "git_log", {"repo_path": G, "max_count": 3}, git_src("214-260, 620-632"),
  {"responseType": "list", "status": "success", "dataLength": 3, "dataFirst": {"Author": "Ada Lovelace", "Message": "Docs: usage"}, "message": "Commit history:", "pagination": None, "error": None},
  note="Commit:/Author:/Date:/Message: blocks, messages over several lines, under a header", **kw)
record("mcp-server-git", "git_log_all", GIT, "git_log", {"repo_path": G}, git_src("214-260, 620-632"),
  {"responseType": "list", "status": "success", "dataLength": 4, "error": None},
  note="the same, with a multi-line message in the middle", split="holdout", **kw)
record("mcp-server-git", "git_status", GIT, "git_status", {"repo_path": G}, git_src("100-110"),
  {"responseType": "single", "status": "success", "data": None, "error": None, "pagination": None},
  note="git's own prose under a header", **kw)
record("mcp-server-git", "git_branch", GIT, "git_branch", {"repo_path": G, "branch_type": "local"}, git_src("372-400"),
  {"responseType": "list", "status": "success", "dataLength": 3, "error": None},
  note="git branch's output: names one a line, the current one starred", **kw)
git("add", "f0.txt")
record("mcp-server-git", "git_commit", GIT, "git_commit", {"repo_path": G, "message": "Change f0"}, git_src("115-118"),
  {"responseType": "action", "status": "success", "error": None},
  note="a one-line confirmation with the new hash", **kw)
record("mcp-server-git", "bad_repo", GIT, "git_log", {"repo_path": TMP + "/no-such-repo"}, git_src("600-640"),
  {"responseType": "error", "status": "error", "data": None},
  note="an exception turned into isError by the SDK", split="holdout", **kw)

# --- fetch, against a page served on loopback
W = TMP + "/web"
shutil.rmtree(W, ignore_errors=True); os.makedirs(W)
paras = "".join(f"<p>Section {i}: " + " ".join(f"term{j}" for j in range(30)) + "</p>" for i in range(20))
open(W + "/article.html", "w").write(f"<html><head><title>Article</title></head><body><h1>An article</h1>{paras}</body></html>")
web = subprocess.Popen(["python3", "-m", "http.server", "18766", "--bind", "127.0.0.1", "--directory", W], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
FETCH = [PY, "-m", "mcp_server_fetch", "--ignore-robots-txt", "--allow-private-ips"]
fetch_src = lambda lines: {"repo": "modelcontextprotocol/servers", "commit": COMMITS["fetch"], "file": "src/fetch/src/mcp_server_fetch/server.py",
    "lines": lines, "recorded": "mcp-server-fetch==2026.10.24 (PyPI) on 2026-11-22; lines in the installed server.py",
    "wrapping": "mcp Python SDK low-level Server.call_tool: [TextContent]; McpError for failures"}
kw = dict(category="web fetch", sdk="python-sdk (low-level Server)")
URL = "http://127.0.0.1:18766/article.html"
record("mcp-server-fetch", "fetch_first_slice", FETCH, "fetch", {"url": URL, "max_length": 1500}, fetch_src("495-515"),
  {"responseType": "single", "status": "success", "data": None, "pagination": {"hasMore": True, "nextOffset": 1500, "kind": "offset"},
   "nextArguments": {"url": URL, "max_length": 1500, "start_index": 1500}, "error": None},
  note="the next position named only in prose: 'Call the fetch tool with a start_index of N'", **kw)
record("mcp-server-fetch", "fetch_middle_slice", FETCH, "fetch", {"url": URL, "max_length": 1500, "start_index": 1500}, fetch_src("495-515"),
  {"responseType": "single", "status": "success", "pagination": {"hasMore": True, "nextOffset": 3000},
   "nextArguments": {"url": URL, "max_length": 1500, "start_index": 3000}},
  note="a middle slice: the position moves on", split="holdout", **kw)
record("mcp-server-fetch", "fetch_last_slice", FETCH, "fetch", {"url": URL, "max_length": 1500, "start_index": 6000}, fetch_src("495-515"),
  {"responseType": "single", "status": "success", "pagination": None, "nextArguments": None},
  note="the last slice: no notice, no next page", **kw)
record("mcp-server-fetch", "fetch_404", FETCH, "fetch", {"url": "http://127.0.0.1:18766/missing.html"}, fetch_src("150-170"),
  {"responseType": "error", "status": "error", "data": None},
  note="an HTTP 404 reported as a protocol error or isError text", **kw)
web.kill()

# --- memory (knowledge graph)
MEM_ENV = dict(os.environ, MEMORY_FILE_PATH=TMP + "/memory.jsonl")
if os.path.exists(TMP + "/memory.jsonl"): os.remove(TMP + "/memory.jsonl")
MEM = ["node", NPM + "server-memory/dist/index.js"]
mem_src = lambda lines: {"repo": "modelcontextprotocol/servers", "commit": COMMITS["filesystem"], "file": "src/memory/index.ts",
    "lines": lines, "recorded": "@modelcontextprotocol/server-memory@2026.8.31 (npm) on 2026-11-22; lines in its dist/index.js",
    "wrapping": "TypeScript SDK registerTool with an outputSchema: JSON text plus structuredContent"}
kw = dict(category="knowledge graphs", sdk="typescript-sdk", env=MEM_ENV)
record("server-memory", "create_entities", MEM, "create_entities", {"entities": [
    {"name": "Ada Lovelace", "entityType": "person", "observations": ["wrote the first program"]},
    {"name": "Analytical Engine", "entityType": "machine", "observations": ["designed by Babbage"]}]}, mem_src("238-261"),
  {"responseType": "list", "status": "success", "dataLength": 2, "dataFirst": {"name": "Ada Lovelace"}, "error": None},
  note="structuredContent {entities: [...]} beside a text of just the array", **kw)
subprocess.run([LENS, "call", "create_relations", "--args", json.dumps({"relations": [{"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"}]}), "--"] + MEM, env=MEM_ENV, capture_output=True)
record("server-memory", "read_graph", MEM, "read_graph", {}, mem_src("394-415"),
  {"responseType": "list", "status": "success", "dataLength": 2, "error": None, "pagination": None},
  note="a graph: entities and relations side by side", split="holdout", **kw)
record("server-memory", "search_nodes", MEM, "search_nodes", {"query": "Babbage"}, mem_src("416-439"),
  {"responseType": "list", "status": "success", "dataLength": 1, "dataFirst": {"name": "Analytical Engine"}},
  note="a search with one hit is still a list", **kw)

# --- sequential thinking
ST = ["node", NPM + "server-sequential-thinking/dist/index.js"]
st_src = {"repo": "modelcontextprotocol/servers", "commit": COMMITS["filesystem"], "file": "src/sequentialthinking/index.ts",
    "lines": "24-60", "recorded": "@modelcontextprotocol/server-sequential-thinking@2026.8.31 (npm) on 2026-11-22; lines in its dist/index.js",
    "wrapping": "TypeScript SDK registerTool with an outputSchema"}
record("server-sequential-thinking", "first_thought", ST, "sequentialthinking",
  {"thought": "Split the problem in two.", "thoughtNumber": 1, "totalThoughts": 3, "nextThoughtNeeded": True}, st_src,
  {"responseType": "single", "status": "success", "pagination": None, "error": None},
  note="state with an empty branches array: one object, not a list", category="reasoning", sdk="typescript-sdk")

# --- time
TIME = [PY, "-m", "mcp_server_time"]
time_src = lambda lines: {"repo": "modelcontextprotocol/servers", "commit": COMMITS["fetch"], "file": "src/time/src/mcp_server_time/server.py",
    "lines": lines, "recorded": "mcp-server-time==2026.10.19 (PyPI) on 2026-11-22; lines in the installed server.py",
    "wrapping": "FastMCP-style structured output of a pydantic model: structuredContent plus its JSON as text"}
kw = dict(category="time", sdk="python-sdk")
record("mcp-server-time", "get_current_time", TIME, "get_current_time", {"timezone": "Asia/Tokyo"}, time_src("106-117, 229-244"),
  {"responseType": "single", "status": "success", "error": None, "pagination": None},
  note="a pydantic model as structuredContent and as text", **kw)
record("mcp-server-time", "convert_time", TIME, "convert_time", {"source_timezone": "Europe/London", "time": "14:30", "target_timezone": "America/New_York"}, time_src("118-160, 245-260"),
  {"responseType": "single", "status": "success", "error": None},
  note="nested source/target objects and a difference string", split="holdout", **kw)
record("mcp-server-time", "bad_timezone", TIME, "get_current_time", {"timezone": "Mars/Olympus"}, time_src("95-104"),
  {"responseType": "error", "status": "error", "data": None},
  note="a ToolError: isError with the reason as text", **kw)

# --- the project's FastMCP server (tests/servers/fastmcp_tools.py, fastmcp 4.1.0)
FM = [PY, ROOT + "/tests/servers/fastmcp_tools.py"]
fm_src = lambda lines: {"repo": "PrefectHQ/fastmcp", "commit": "4bc415b73bd8ba5f70d5732ff7215cf68e89b7c7",
    "file": "src/fastmcp/tools/base.py 420-432 (the result wrapping, as installed); the tools: tests/servers/fastmcp_tools.py",
    "lines": lines, "recorded": "fastmcp==4.1.0 (PyPI) on 2026-11-22",
    "wrapping": "FastMCP ToolResult: a scalar or list as structuredContent {result: x} with _meta.fastmcp.wrap_result and the JSON as text; a dict as structuredContent; a str as text"}
kw = dict(category="FastMCP", sdk="fastmcp 4")
record("fastmcp-tools", "add_scalar", FM, "add", {"a": 2, "b": 40}, fm_src("fastmcp_tools.py 21-24"),
  {"status": "success", "data": {"result": 42}, "error": None, "pagination": None},
  note="a scalar wrapped as {result: 42}: kept as sent, no invented key", **kw)
record("fastmcp-tools", "list_users_offset", FM, "list_users", {"offset": 0, "limit": 10}, fm_src("fastmcp_tools.py 27-32"),
  {"responseType": "list", "status": "success", "dataLength": 10, "summary": {"total": 57},
   "pagination": {"hasMore": True, "nextOffset": 10, "kind": "offset"}, "nextArguments": {"offset": 10, "limit": 10}},
  note="a dict with users, total, offset, next_offset: as structuredContent and compact JSON text", **kw)
record("fastmcp-tools", "list_users_last", FM, "list_users", {"offset": 50, "limit": 10}, fm_src("fastmcp_tools.py 27-32"),
  {"responseType": "list", "dataLength": 7, "pagination": {"hasMore": False}, "nextArguments": None},
  note="the last page: next_offset null", split="holdout", **kw)
record("fastmcp-tools", "search_items_cursor", FM, "search_items", {"query": "item"}, fm_src("fastmcp_tools.py 35-41"),
  {"responseType": "list", "dataLength": 3, "pagination": {"hasMore": True, "nextOffset": "c3", "kind": "cursor"},
   "nextArguments": {"query": "item", "cursor": "c3"}},
  note="next_cursor and has_more beside the items", **kw)
record("fastmcp-tools", "get_user", FM, "get_user", {"id": 7}, fm_src("fastmcp_tools.py 44-50"),
  {"responseType": "single", "status": "success", "data": {"id": 7, "name": "user 7", "email": "user7@example.org"}, "pagination": None},
  note="a dict: one entity", split="holdout", **kw)
record("fastmcp-tools", "delete_user", FM, "delete_user", {"id": 3}, fm_src("fastmcp_tools.py 53-56"),
  {"responseType": "action", "status": "success", "message": "User 3 deleted.", "error": None},
  note="a str with an output schema: wrapped as {result: text}", **kw)
record("fastmcp-tools", "tags_list", FM, "tags", {}, fm_src("fastmcp_tools.py 59-62"),
  {"responseType": "list", "status": "success", "data": ["alpha", "beta", "gamma"]},
  note="a list of strings wrapped as {result: [...]}", **kw)
record("fastmcp-tools", "fail_json_body", FM, "fail", {"code": "PERMISSION_DENIED"}, fm_src("fastmcp_tools.py 65-68"),
  {"responseType": "error", "status": "error", "error": {"code": "PERMISSION_DENIED", "message": "the operation failed"}},
  note="a ToolError whose text is a JSON {code, message} body under isError", **kw)
record("fastmcp-tools", "notes_prose_page", FM, "notes", {"page": 1}, fm_src("fastmcp_tools.py 71-78"),
  {"responseType": "list", "status": "success", "data": ["Buy milk", "Call Ada"],
   "pagination": {"hasMore": True, "nextOffset": 2, "kind": "page"}, "nextArguments": {"page": 2}},
  note="markdown bullets, the next page named in prose ('Page 1 of 3. Call again with page=2.')", **kw)

# --- server-everything
SE = ["node", NPM + "server-everything/dist/index.js", "stdio"]
se_src = lambda name: {"repo": "modelcontextprotocol/servers", "commit": "16534adc67996d29d5f551ea7a881c548ef3f07d",
    "file": f"src/everything/tools/{name}.ts", "lines": "whole file (its handler)",
    "recorded": "@modelcontextprotocol/server-everything@2026.8.31 (npm) on 2026-11-22",
    "wrapping": "TypeScript SDK registerTool: the handler returns the CallToolResult itself"}
kw = dict(category="reference", sdk="typescript-sdk")
record("server-everything", "get-sum", SE, "get-sum", {"a": 2, "b": 40}, se_src("get-sum"),
  {"responseType": "single", "status": "success", "data": None, "message": "The sum of 2 and 40 is 42.", "error": None, "pagination": None},
  note="a sentence that answers: a prose single", **kw)
record("server-everything", "get-structured-content", SE, "get-structured-content", {"location": "Chicago"}, se_src("get-structured-content"),
  {"responseType": "single", "status": "success", "error": None, "pagination": None},
  note="structuredContent with an outputSchema, and the same JSON as text", **kw)
record("server-everything", "get-resource-links", SE, "get-resource-links", {"count": 3}, se_src("get-resource-links"),
  {"responseType": "list", "status": "success", "dataLength": 3, "dataFirst": {"type": "resource_link"},
   "message": "Here are 3 resource links to resources available in this server:"},
  note="resource_link content items after a line of prose", **kw)
record("server-everything", "get-tiny-image", SE, "get-tiny-image", {}, se_src("get-tiny-image"),
  {"responseType": "single", "status": "success", "error": None},
  note="text, an image, text: the image is the data", split="holdout", **kw)
record("server-everything", "echo", SE, "echo", {"message": "hello there"}, se_src("echo"),
  {"responseType": "single", "status": "success", "message": "Echo: hello there", "data": None},
  note="one line of text", **kw)
