"""Records corpus cases from replicas: servers whose tool handlers and formatters were transcribed from
their public code (the repository, commit, file and lines are in each case's `source`), with their
database or API replaced by canned data, and run on the SDK version the server pins, so the result
wrapping is the SDK's own. Each `expect` is written here by hand.

The replicas themselves are not in this repository: their code belongs to those projects. They are
kept in $MCPLENS_REPLICAS (default /tmp/replica) by whoever records, one file per server (qdrant.py,
supabase.mjs...), each naming the commit it was transcribed from. Run by hand after `cargo build`:
  MCPLENS_REPLICAS=DIR FASTMCP3_PY=VENV/bin/python python3 tests/corpus/replicas/record_replicas.py [REPLICA]
Node replicas need `npm install @modelcontextprotocol/sdk@VERSION common-tags` in DIR."""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REPLICAS = os.environ.get("MCPLENS_REPLICAS", "/tmp/replica")
LENS = next(p for p in (ROOT + "/target/debug/mcplens", ROOT + "/target/release/mcplens") if os.path.exists(p))
OUT = ROOT + "/tests/corpus"
# The interpreter with the SDK the replica's server pins: FASTMCP3_PY (fastmcp==3.4.7) and so on.
PYTHON = {"fastmcp3": os.environ.get("FASTMCP3_PY", "python3"), "mcp1": os.environ.get("MCP1_PY", "python3")}


def call(server, tool, args):
    o = subprocess.run([LENS, "call", tool, "--raw", "--no-validate", "--args", json.dumps(args), "--"] + server,
                       capture_output=True, text=True)
    return json.loads(o.stdout)


def tools(server):
    o = subprocess.run([LENS, "tools", "--json", "--"] + server, capture_output=True, text=True)
    return {t["name"]: t for t in json.loads(o.stdout)}


def record(slug, name, server, tool, args, source, expect, split="holdout", note="", category="", sdk=""):
    desc = tools(server)[tool]
    case = {"server": slug, "category": category, "sdk": sdk, "source": source, "tool": tool, "arguments": args,
            "inputSchema": desc.get("inputSchema"), "note": note, "split": split, "result": call(server, tool, args),
            "expect": expect}
    os.makedirs(f"{OUT}/{slug}", exist_ok=True)
    with open(f"{OUT}/{slug}/{name}.json", "w") as f:
        json.dump(case, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("recorded", slug, name)


def qdrant():
    server = [PYTHON["fastmcp3"], REPLICAS + "/qdrant.py"]
    src = lambda lines: {"repo": "qdrant/mcp-server-qdrant", "commit": "399b8e1a1abc504d0a96371e4ea8e3a623c776c1",
        "file": "src/mcp_server_qdrant/mcp_server.py", "lines": lines,
        "recorded": "a replica (qdrant.py) on fastmcp==3.4.7 (the version pyproject.toml pins) on 2026-11-22",
        "wrapping": "FastMCP 3: a returned list[str] is one text block of compact JSON and structuredContent {result: [...]} (x-fastmcp-wrap-result); a str likewise as {result: str}; a raised exception is isError with 'Error calling tool ...'"}
    kw = dict(category="knowledge graphs and vector search", sdk="fastmcp 3")
    record("mcp-server-qdrant", "find", server, "qdrant-find", {"query": "ci tips", "collection_name": "notes"}, src("57-62 (format_entry), 117-155 (find)"),
        {"responseType": "list", "status": "success", "dataLength": 4, "dataFirst": "Results for the query 'ci tips'",
         "error": None, "pagination": None, "nextArguments": None},
        note="a list of strings: a heading, then <entry><content>..</content><metadata>JSON</metadata></entry> strings; kept as sent", **kw)
    record("mcp-server-qdrant", "find_nothing", server, "qdrant-find", {"query": "nothing", "collection_name": "notes"}, src("148-149"),
        {"status": "success", "error": None, "pagination": None},
        note="no hits: a one-string list that says so", **kw)
    record("mcp-server-qdrant", "store", server, "qdrant-store", {"information": "Deploys freeze on Fridays", "collection_name": "notes"}, src("69-115"),
        {"responseType": "action", "status": "success", "message": "Remembered: Deploys freeze on Fridays in collection notes", "error": None, "pagination": None},
        note="a confirmation str wrapped as {result: str}", **kw)
    record("mcp-server-qdrant", "store_bad_metadata", server, "qdrant-store", {"information": "x", "collection_name": "notes", "metadata": "{bad"}, src("97-104"),
        {"responseType": "error", "status": "error", "error": {"code": None, "message": "Error calling tool 'qdrant-store': Invalid JSON in metadata: {bad"}},
        note="a ValueError raised in the handler: isError with FastMCP's prefix", **kw)


def supabase():
    server = ["node", REPLICAS + "/supabase.mjs"]
    commit = "17fb90f8655ad1ce7ee320614d22eb68bb26e510"
    src = lambda file, lines: {"repo": "supabase-community/supabase-mcp", "commit": commit, "file": file, "lines": lines,
        "recorded": "a replica (supabase.mjs) on @modelcontextprotocol/sdk 1.25.2 (the catalog's version) and common-tags 1.8.2 on 2026-11-22",
        "wrapping": "packages/mcp-utils/src/server.ts 524-545: the tool's return value as JSON.stringify(result) in one text block; a thrown error as isError with JSON.stringify({error: {name, message}})"}
    ops = "packages/mcp-server-supabase/src/tools/database-operation-tools.ts"
    kw = dict(category="databases", sdk="typescript-sdk (low-level Server, own wrapping)")
    record("supabase-mcp", "list_tables", server, "list_tables", {"project_id": "abc"}, src(ops, "185-318; advisories/rls-disabled.ts 42-70"),
        {"responseType": "list", "status": "success", "dataLength": 2, "dataFirst": {"name": "public.profiles", "rows": 1204},
         "error": None, "pagination": None, "nextArguments": None},
        note="{tables, advisory}: the records beside a long advisory object with its own message", **kw)
    record("supabase-mcp", "execute_sql", server, "execute_sql", {"project_id": "abc", "query": "select id, email, created_at from profiles limit 2"},
        src(ops, "359-386"),
        {"responseType": "list", "status": "success", "dataLength": 2, "dataFirst": {"id": 17, "email": "ada@example.org"},
         "error": None, "pagination": None, "nextArguments": None},
        note="JSON rows inside <untrusted-data-UUID> tags inside prose, that prose a string in a JSON object in the text: JSON in tags, encoded twice", **kw)
    record("supabase-mcp", "execute_sql_error", server, "execute_sql", {"project_id": "abc", "query": "select * from nope"}, src(ops, "359-386"),
        {"responseType": "error", "status": "error", "error": {"message": "ERROR:  42P01: relation \"nope\" does not exist\nLINE 1: select * from nope\n                      ^\n"},
         "pagination": None},
        note="isError with {error: {name, message}} as JSON text", **kw)


def redis():
    server = [PYTHON["mcp1"], REPLICAS + "/redis.py"]
    src = lambda lines: {"repo": "redis/mcp-redis", "commit": "be581d3bef7afb192226fa94d27f1b84cab3a541", "file": "src/tools/misc.py", "lines": lines,
        "recorded": "a replica (redis.py) on mcp==1.26.0 (pyproject.toml: mcp[cli]>=1.26.0) on 2026-11-22",
        "wrapping": "mcp Python SDK FastMCP: a returned dict under a Dict/Union annotation is wrapped as structuredContent {result: dict}, its JSON (indent 2) as text"}
    kw = dict(category="databases", sdk="python-sdk (FastMCP)")
    record("mcp-redis", "scan_keys_first", server, "scan_keys", {"pattern": "user:*", "count": 3}, src("102-154 (scan_keys)"),
        {"responseType": "list", "status": "success", "data": ["user:1001", "user:1002", "user:1007"], "error": None,
         "pagination": {"hasMore": True, "nextOffset": 1536, "kind": "cursor"}, "nextArguments": {"pattern": "user:*", "count": 3, "cursor": 1536}},
        note="Redis SCAN: an integer cursor, 0 when done, beside scan_complete; the dict wrapped as {result: ...}", **kw)
    record("mcp-redis", "scan_keys_last", server, "scan_keys", {"pattern": "user:*", "count": 3, "cursor": 1536}, src("102-154 (scan_keys)"),
        {"responseType": "list", "status": "success", "dataLength": 2, "pagination": {"hasMore": False}, "nextArguments": None},
        note="the last batch: cursor 0 means complete, not 'start again'", **kw)
    record("mcp-redis", "rename_missing", server, "rename", {"old_key": "user:9", "new_key": "user:10"}, src("70-100 (rename)"),
        {"responseType": "error", "status": "error", "error": {"message": "Key 'user:9' does not exist."}},
        note="an {error: ...} dict without isError, wrapped as {result: {error}}", **kw)


def awsdocs():
    server = [PYTHON["mcp1"], REPLICAS + "/awsdocs.py"]
    d = "src/aws-documentation-mcp-server/awslabs/aws_documentation_mcp_server/"
    src = lambda lines: {"repo": "awslabs/mcp", "commit": "100b55b6d92f731bc8d23486ce9efd5bbf90c606", "file": d + "server_aws.py", "lines": lines,
        "recorded": "a replica (awsdocs.py) on mcp==1.26.0 (pyproject.toml: mcp[cli]>=1.23.0,<2.0.0) on 2026-11-22",
        "wrapping": "mcp Python SDK FastMCP: a returned str is the text and structuredContent {result: str}"}
    url = "https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html"
    kw = dict(category="cloud", sdk="python-sdk (FastMCP)")
    record("aws-documentation-mcp-server", "read_documentation_first", server, "read_documentation", {"url": url, "max_length": 400},
        src("118-195 (read_documentation); server_utils.py 67-110; util.py 189-223 (format_documentation_result)"),
        {"responseType": "single", "status": "success", "error": None,
         "pagination": {"hasMore": True, "nextOffset": 400, "kind": "offset"}, "nextArguments": {"url": url, "max_length": 400, "start_index": 400}},
        note="a markdown page (bullets and all) cut at max_length; the next start_index named in <e>...</e> after it; the text repeated as {result}", **kw)
    record("aws-documentation-mcp-server", "read_documentation_last", server, "read_documentation", {"url": url, "max_length": 400, "start_index": 400},
        src("118-195; util.py 189-223"),
        {"responseType": "single", "status": "success", "pagination": None, "nextArguments": None},
        note="the last slice: no continuation line", **kw)
    record("aws-documentation-mcp-server", "read_documentation_404", server, "read_documentation", {"url": "https://docs.aws.amazon.com/nope.html"},
        src("118-195; server_utils.py 102-106"),
        {"responseType": "error", "status": "error", "error": {"code": 404}, "data": None},
        note="a failed fetch returned as an ordinary string, no isError: 'Failed to fetch URL - status code 404'", **kw)


REPLICAS_BY_NAME = {"qdrant": qdrant, "supabase": supabase, "redis": redis, "awsdocs": awsdocs}

if __name__ == "__main__":
    for name in sys.argv[1:] or REPLICAS_BY_NAME:
        REPLICAS_BY_NAME[name]()
