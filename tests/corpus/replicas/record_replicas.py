"""Records corpus cases from replicas: servers whose tool handlers and formatters are transcribed from
their public code (the repository, commit, file and lines are in each case's `source`), with their
database or API replaced by canned data, and run on the SDK version the server pins, so the result
wrapping is the SDK's own. Each `expect` is written here by hand. Run by hand after `cargo build`:
  python3 tests/corpus/replicas/record_replicas.py [REPLICA]
The SDK each replica needs is named in REPLICAS (install it into a venv and set its python there)."""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
LENS = next(p for p in (ROOT + "/target/debug/mcplens", ROOT + "/target/release/mcplens") if os.path.exists(p))
OUT = ROOT + "/tests/corpus"
# The interpreter with the SDK the replica's server pins: FASTMCP3_PY (fastmcp==3.4.7) and so on.
PYTHON = {"fastmcp3": os.environ.get("FASTMCP3_PY", "python3")}


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
    server = [PYTHON["fastmcp3"], HERE + "/qdrant.py"]
    src = lambda lines: {"repo": "qdrant/mcp-server-qdrant", "commit": "399b8e1a1abc504d0a96371e4ea8e3a623c776c1",
        "file": "src/mcp_server_qdrant/mcp_server.py", "lines": lines,
        "recorded": "replica tests/corpus/replicas/qdrant.py on fastmcp==3.4.7 (the version pyproject.toml pins) on 2026-11-22",
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


REPLICAS = {"qdrant": qdrant}

if __name__ == "__main__":
    for name in sys.argv[1:] or REPLICAS:
        REPLICAS[name]()
