"""A stdio server listing the hand-built tools of tests/lint/bad_snapshot.json (each breaks one
lint rule), for `mcplens lint` on a live server and the TUI's lint marks."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = json.load(open(os.path.join(HERE, "..", "lint", "bad_snapshot.json")))["tools"]

for line in sys.stdin:
    msg = json.loads(line)
    mid, method = msg.get("id"), msg.get("method")
    if mid is None:
        continue
    if method == "initialize":
        out = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
               "serverInfo": {"name": "lint-tools", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "result": out}), flush=True)
    elif method == "tools/list":
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}}), flush=True)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}}),
              flush=True)
