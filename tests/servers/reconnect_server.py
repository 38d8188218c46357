"""A raw stdio MCP server whose calls wait on the client, to see what a reconnect does to them.

Usage: reconnect_server.py LOG

Tools:
  slow   never answers on its own: it waits for notifications/cancelled
  ask    asks the client (elicitation/create, URL mode) and answers once the client does
Every notifications/cancelled is appended to the file LOG as one line of JSON (its params).
"""

import json
import sys
import threading

LOG = sys.argv[1] if len(sys.argv) > 1 else "/dev/null"
lock = threading.Lock()
next_id = [1000]


def send(m):
    with lock:
        sys.stdout.write(json.dumps(m) + "\n")
        sys.stdout.flush()


def tool(name, desc):
    return {"name": name, "description": desc, "inputSchema": {"type": "object", "properties": {}}}


TOOLS = [tool("slow", "waits until cancelled"), tool("ask", "asks the client first")]


def call(i, params):
    if params.get("name") == "ask":
        next_id[0] += 1
        send({"jsonrpc": "2.0", "id": next_id[0], "method": "elicitation/create", "params": {
            "mode": "url", "message": "Open the page to go on", "url": "https://example.com/consent",
            "elicitationId": "e1"}})
    # slow: no reply; ask: the reply waits for the client's answer, which never comes here.


def main():
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            continue
        method, i, params = m.get("method"), m.get("id"), m.get("params") or {}
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "2025-11-25",
                  "serverInfo": {"name": "reconnect", "version": "1"}, "capabilities": {"tools": {}}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": i, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            call(i, params)
        elif method == "notifications/cancelled":
            with open(LOG, "a") as f:
                f.write(json.dumps(params) + "\n")
        elif method is not None and i is not None:
            send({"jsonrpc": "2.0", "id": i, "result": {}})


main()
