"""A raw MCP server of the project's (no SDK) that speaks the modern era, protocol 2026-07-28:
`server/discover` instead of `initialize`, `_meta` checked on every request, results with a
`resultType`, questions asked through `input_required` results and answered with `requestState`,
`subscriptions/listen`, cache hints, SEP-2663 tasks (`resultType: "task"`, `tasks/get` with the
result inline, `tasks/update`, `tasks/cancel`) and the era's error codes.

Usage: modern_server.py [--dual] [--silent-discover] [--http PORT]
  --dual       also answer `initialize` (legacy era, 2025-11-25); without it `initialize` is
               "method not found", as in a modern-only server
  --silent-discover  a legacy server that says nothing at all to `server/discover` (implies
               --dual)
  --slow-start SECS  read nothing for SECS seconds first (a server slow to start)
  --bad-cache  a cache hint out of spec (ttlMs -1, cacheScope "shared")
  --http PORT  serve streamable HTTP on 127.0.0.1:PORT (every POST must carry Mcp-Method, and
               Mcp-Name where the spec wants one) instead of stdio
"""

import json
import sys
import threading

MODERN = "2026-07-28"
SILENT = "--silent-discover" in sys.argv
DUAL = "--dual" in sys.argv or SILENT
META_KEYS = ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo",
             "io.modelcontextprotocol/clientCapabilities"]
CACHE = {"ttlMs": 60000, "cacheScope": "public"}
if "--bad-cache" in sys.argv:
    # Out of spec: a negative ttlMs and a scope that is neither public nor private.
    CACHE = {"ttlMs": -1, "cacheScope": "shared"}

TOOLS = [
    {"name": "echo", "description": "Echoes its text.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "ask_name", "description": "Asks the user's name (input_required, elicitation).",
     "inputSchema": {"type": "object"}},
    {"name": "summarize", "description": "Asks the client's model (input_required, sampling).",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "show_roots", "description": "Asks for the client's roots (input_required, roots/list).",
     "inputSchema": {"type": "object"}},
    {"name": "meta_seen", "description": "Returns the _meta of this request.",
     "inputSchema": {"type": "object"}},
    {"name": "headers_seen", "description": "Returns the Mcp-* HTTP headers of this request.",
     "inputSchema": {"type": "object"}},
    {"name": "slow_job", "description": "Runs as a task (SEP-2663) that ends after two polls.",
     "inputSchema": {"type": "object"}},
    {"name": "confirm_job", "description": "Runs as a task that needs the user's confirmation.",
     "inputSchema": {"type": "object"}},
    {"name": "nag_job", "description": "Hostile: a task that asks a new question on every poll.",
     "inputSchema": {"type": "object"}},
    {"name": "long_job", "description": "Runs as a task that works until it is cancelled.",
     "inputSchema": {"type": "object"}},
    {"name": "loop_ask", "description": "Hostile: input_required for ever, a new state each round.",
     "inputSchema": {"type": "object"}},
    {"name": "odd_ask", "description": "Hostile: inputRequests that are not an object of requests,"
     " a question with terminal escapes, a method no client answers, a state that is not a string.",
     "inputSchema": {"type": "object"}},
    {"name": "needs_cap", "description": "Fails with -32021 (missing required client capability).",
     "inputSchema": {"type": "object"}},
    {"name": "touch", "description": "Says the tool list changed, on the open subscriptions/listen.",
     "inputSchema": {"type": "object"}},
]

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}, "required": ["name"]}

tasks = {}
listens = {}  # id (json text) -> filter
lock = threading.Lock()
send = None  # set by the transport: writes one message to the client


def text(t):
    return {"resultType": "complete", "content": [{"type": "text", "text": t}]}


def error(code, message, data=None):
    e = {"code": code, "message": message}
    if data is not None:
        e["data"] = data
    return ("error", e)


def asked(params, key, request, state):
    """The answer to `key`, or an input_required result asking it."""
    answers = params.get("inputResponses") or {}
    if key in answers:
        if params.get("requestState") != state:
            return None, error(-32602, "requestState was not echoed back")
        return answers[key], None
    return None, {"resultType": "input_required", "inputRequests": {key: request}, "requestState": state}


def task(tid, status, **extra):
    t = {"taskId": tid, "status": status, "createdAt": "2026-07-28T00:00:00Z",
         "lastUpdatedAt": "2026-07-28T00:00:01Z", "ttlMs": 60000, "pollIntervalMs": 100}
    t.update(extra)
    return t


def call_tool(params, meta, headers):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "echo":
        return text(args.get("text", ""))
    if name == "ask_name":
        req = {"method": "elicitation/create",
               "params": {"mode": "form", "message": "Your name?", "requestedSchema": NAME_SCHEMA}}
        got, ask = asked(params, "name", req, "st-name-1")
        if ask:
            return ask
        return text(json.dumps({"action": got.get("action"), "content": got.get("content")}, sort_keys=True))
    if name == "summarize":
        req = {"method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize: " + args.get("text", "")}}],
            "maxTokens": 64, "systemPrompt": "One line."}}
        got, ask = asked(params, "llm", req, "st-llm-1")
        if ask:
            return ask
        return text(json.dumps({"model": got.get("model"), "text": got.get("content", {}).get("text")}, sort_keys=True))
    if name == "show_roots":
        got, ask = asked(params, "roots", {"method": "roots/list"}, "st-roots-1")
        if ask:
            return ask
        return text(json.dumps(got.get("roots", [])))
    if name == "meta_seen":
        return text(json.dumps(meta, sort_keys=True))
    if name == "headers_seen":
        return text(json.dumps(headers, sort_keys=True))
    if name in ("slow_job", "confirm_job", "long_job", "nag_job"):
        with lock:
            tid = "task-%d" % (len(tasks) + 1)
            tasks[tid] = {"kind": name, "polls": 0, "status": "working", "answer": None}
        return dict(resultType="task", **task(tid, "working"))
    if name == "loop_ask":
        n = len(params.get("inputResponses") or {}) + int(str(params.get("requestState") or "0").split("-")[-1] or 0)
        return {"resultType": "input_required", "requestState": "loop-%d" % (n + 1),
                "inputRequests": {"again": {"method": "elicitation/create", "params": {
                    "message": "again?", "requestedSchema": {"type": "object", "properties": {}}}}}}
    if name == "odd_ask":
        answers = params.get("inputResponses")
        if answers is not None:
            return text(json.dumps({"answers": answers, "state": params.get("requestState")}, sort_keys=True))
        return {"resultType": "input_required", "requestState": {"not": ["a", "string"]},
                "inputRequests": {"esc": {"method": "elicitation/create", "params": {
                    "message": "\x1b[2Jwho\x07?", "requestedSchema": {"type": "object", "properties": {
                        "n": {"type": "string", "default": "\x1b[31mred"}}}}},
                    "weird": {"method": "ping"}, "junk": 42}}
    if name == "needs_cap":
        return error(-32021, "this tool needs the client's tasks capability",
                     {"requiredCapabilities": {"extensions": {"x": {}}}})
    if name == "touch":
        for lid, flt in list(listens.items()):
            if flt.get("toolsListChanged"):
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                      "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": json.loads(lid)}}})
        return text("touched")
    return error(-32602, "unknown tool %r" % name)


def get_task(params):
    t = tasks.get(params.get("taskId"))
    if t is None:
        return error(-32602, "no such task")
    tid = params["taskId"]
    t["polls"] += 1
    if t["status"] == "cancelled":
        return dict(resultType="complete", **task(tid, "cancelled"))
    if t["kind"] == "long_job":
        return dict(resultType="complete", **task(tid, "working"))
    if t["kind"] == "nag_job":
        req = {"method": "elicitation/create", "params": {"mode": "form", "message": "Again %d?" % t["polls"],
               "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean", "default": True}}}}}
        return dict(resultType="complete", inputRequests={"q%d" % t["polls"]: req}, **task(tid, "input_required"))
    if t["kind"] == "confirm_job" and t["answer"] is None:
        if t["polls"] < 2:
            return dict(resultType="complete", **task(tid, "working"))
        req = {"method": "elicitation/create", "params": {"mode": "form", "message": "Go ahead?",
               "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean", "default": True}}}}}
        return dict(resultType="complete", inputRequests={"go": req}, **task(tid, "input_required"))
    if t["polls"] < 3:
        return dict(resultType="complete", statusMessage="step %d" % t["polls"], **task(tid, "working"))
    done = "job done" if t["answer"] is None else "confirmed: " + json.dumps(t["answer"], sort_keys=True)
    return dict(resultType="complete", result={"content": [{"type": "text", "text": done}], "isError": False},
                **task(tid, "completed"))


def handle(msg, headers=None):
    """The reply to one message (None for a notification)."""
    method, mid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if mid is None:
        if method == "notifications/cancelled":
            listens.pop(json.dumps(params.get("requestId")), None)
        return None
    meta = params.get("_meta") or {}
    out = dispatch(method, mid, params, meta, headers or {})
    if out is None:
        return None
    if isinstance(out, tuple):
        return {"jsonrpc": "2.0", "id": mid, "error": out[1]}
    return {"jsonrpc": "2.0", "id": mid, "result": out}


legacy = []  # set once `initialize` was answered: requests then carry no _meta


def dispatch(method, mid, params, meta, headers):
    if method == "initialize":
        legacy.append(True)
        if not DUAL:
            return error(-32601, "Method not found: initialize (this server speaks 2026-07-28 only)")
        offered = params.get("protocolVersion")
        version = offered if offered in ("2025-11-25", "2025-06-18", "2025-03-26") else "2025-11-25"
        return {"protocolVersion": version, "capabilities": {"tools": {}},
                "serverInfo": {"name": "modern-server", "version": "1.0"}}
    if method == "notifications/initialized":
        return None
    missing = [k for k in META_KEYS if k not in meta]
    if missing and not legacy and method not in ("ping",):
        return error(-32602, "missing _meta: " + ", ".join(missing))
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if version and version != MODERN and not DUAL:
        return error(-32022, "unsupported protocol version %s" % version, {"supported": [MODERN], "requested": version})
    if method == "server/discover" and SILENT:
        return None
    if method == "server/discover":
        return {"resultType": "complete", "supportedVersions": [MODERN],
                "capabilities": {"tools": {"listChanged": True}, "resources": {"subscribe": True},
                                 "extensions": {"io.modelcontextprotocol/tasks": {}}},
                "instructions": "A modern-era test server.",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-server", "version": "1.0"}},
                **CACHE}
    if method == "tools/list":
        return dict(resultType="complete", tools=TOOLS, **CACHE)
    if method == "tools/call":
        return call_tool(params, meta, headers)
    if method == "tasks/get":
        return get_task(params)
    if method == "tasks/update":
        t = tasks.get(params.get("taskId"))
        if t is None:
            return error(-32602, "no such task")
        t["answer"] = (params.get("inputResponses") or {}).get("go")
        return {"resultType": "complete"}
    if method == "tasks/cancel":
        t = tasks.get(params.get("taskId"))
        if t is None:
            return error(-32602, "no such task")
        t["status"] = "cancelled"
        return {"resultType": "complete"}
    if method == "resources/list":
        return dict(resultType="complete", resources=[{"uri": "mem://note", "name": "note", "mimeType": "text/plain"}],
                    **CACHE)
    if method == "resources/read":
        return dict(resultType="complete", contents=[{"uri": params.get("uri"), "mimeType": "text/plain",
                                                       "text": "a note"}], **CACHE)
    if method == "subscriptions/listen":
        flt = params.get("notifications") or {}
        listens[json.dumps(mid)] = flt
        send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
              "params": {"notifications": flt, "_meta": {"io.modelcontextprotocol/subscriptionId": mid}}})
        return None  # held open: answered when cancelled
    return error(-32601, "Method not found: %s" % method)


def serve_stdio():
    global send
    out_lock = threading.Lock()

    def write(msg):
        with out_lock:
            sys.stdout.write(json.dumps(msg) + "\n")
            sys.stdout.flush()

    send = write
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        reply = handle(msg)
        if reply is not None:
            write(reply)


def serve_http(port):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import queue

    streams = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            self.send_response(405)
            self.end_headers()

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                msg = json.loads(body)
            except ValueError:
                self.send_response(400)
                self.end_headers()
                return
            seen = {k: v for k, v in self.headers.items() if k.lower().startswith("mcp-")}
            method = msg.get("method")
            if msg.get("id") is not None and method and self.headers.get("Mcp-Method") != method:
                reply = {"jsonrpc": "2.0", "id": msg.get("id"),
                         "error": {"code": -32020, "message": "Mcp-Method header %r does not match %r"
                                   % (self.headers.get("Mcp-Method"), method)}}
                return self.json(400, reply)
            if method == "subscriptions/listen":
                return self.listen(msg)
            reply = handle(msg, seen)
            if reply is None:
                self.send_response(202)
                self.end_headers()
                return
            self.json(200, reply)

        def json(self, status, reply):
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def listen(self, msg):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            q = queue.Queue()
            streams.put(q)
            global send

            def push(m):
                q.put(m)

            send = push
            handle(msg)
            try:
                while True:
                    m = q.get()
                    self.wfile.write(("data: " + json.dumps(m) + "\n\n").encode())
                    self.wfile.flush()
            except OSError:
                pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if "--slow-start" in sys.argv:
        import time
        time.sleep(float(sys.argv[sys.argv.index("--slow-start") + 1]))
    if "--http" in sys.argv:
        serve_http(int(sys.argv[sys.argv.index("--http") + 1]))
    else:
        serve_stdio()
