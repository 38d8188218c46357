"""A legacy-era server of the project's that runs tools as tasks the 2025-11-25 way: the
`tasks` capability, tools with `execution.taskSupport`, a `tools/call` with a `task` member
answered with a task at once, `tasks/get` polled, `tasks/result` holding the result (and, while
the task is `input_required`, asking the client with `elicitation/create` first), `tasks/list`
and `tasks/cancel`.

Raw JSON-RPC over stdio: the `mcp` package in .ci/venv (2.3.0) has the 2025-11-25 task types
but no task engine (FastMCP's is the separate `fastmcp-tasks` package), so the server speaks the
protocol itself. It answers only `initialize` (a legacy server: `server/discover` is "method not
found").

Usage: task_server.py [--paged-list | --looping-list | --no-task-methods]
  --paged-list       starts with 5 finished tasks; tasks/list gives them 2 a page (3 pages)
  --looping-list     starts with 5 finished tasks; tasks/list always says there is a next page
                     (the same cursor each time)
  --no-task-methods  declares the tasks capability but answers every tasks/* request with
                     "method not found"
"""

import json
import sys

TOOLS = [
    {"name": "brew", "description": "Brews for three polls (task required).",
     "inputSchema": {"type": "object", "properties": {"kind": {"type": "string", "default": "tea"}}},
     "execution": {"taskSupport": "required"}},
    {"name": "order", "description": "Asks which size before it finishes (task optional).",
     "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
    {"name": "quick", "description": "No task: answers at once.", "inputSchema": {"type": "object"}},
]

PAGED = "--paged-list" in sys.argv
LOOPING = "--looping-list" in sys.argv
NO_TASK_METHODS = "--no-task-methods" in sys.argv

tasks = {}
waiting = {}  # our elicitation id -> (task id, tasks/result request id)


def write(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def task(tid):
    t = tasks[tid]
    out = {"taskId": tid, "status": t["status"], "createdAt": "2025-11-25T00:00:00Z",
           "lastUpdatedAt": "2025-11-25T00:00:01Z", "ttl": 60000, "pollInterval": 100}
    if t.get("message"):
        out["statusMessage"] = t["message"]
    return out


def text(t):
    return {"content": [{"type": "text", "text": t}]}


def advance(tid):
    t = tasks[tid]
    t["polls"] += 1
    if t["status"] != "working":
        return
    if t["tool"] == "order" and t["polls"] >= 2:
        t["status"], t["message"] = "input_required", "which size?"
    elif t["tool"] == "brew" and t["polls"] >= 3:
        t["status"], t["message"] = "completed", None
        t["result"] = text("your %s is ready" % t["args"].get("kind", "tea"))
    else:
        t["message"] = "poll %d" % t["polls"]


def handle(msg):
    method, mid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if method is None and mid in waiting:  # the client's answer to our elicitation
        tid, result_id = waiting.pop(mid)
        answer = msg.get("result") or {}
        tasks[tid]["status"] = "completed"
        tasks[tid]["result"] = text("size: " + json.dumps(answer, sort_keys=True))
        write({"jsonrpc": "2.0", "id": result_id, "result": tasks[tid]["result"]})
        return
    if mid is None:
        return
    reply = lambda r: write({"jsonrpc": "2.0", "id": mid, "result": r})
    fail = lambda c, m: write({"jsonrpc": "2.0", "id": mid, "error": {"code": c, "message": m}})
    if method == "initialize":
        return reply({"protocolVersion": "2025-11-25",
                      "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {},
                                                            "requests": {"tools": {"call": {}}}}},
                      "serverInfo": {"name": "task-server", "version": "1.0"}})
    if method == "tools/list":
        return reply({"tools": TOOLS})
    if method == "tools/call":
        name = params.get("name")
        if name == "quick":
            return reply(text("quick answer"))
        if "task" not in params:
            return fail(-32602, "%s must run as a task" % name)
        tid = "t%d" % (len(tasks) + 1)
        tasks[tid] = {"tool": name, "args": params.get("arguments") or {}, "status": "working", "polls": 0}
        return reply({"task": task(tid)})
    tid = params.get("taskId")
    if NO_TASK_METHODS and method.startswith("tasks/"):
        return fail(-32601, "Method not found")
    if method == "tasks/list":
        if LOOPING:
            return reply({"tasks": [task(t) for t in tasks], "nextCursor": "again"})
        if PAGED:
            start = int(params.get("cursor") or 0)
            page = {"tasks": [task(t) for t in list(tasks)[start:start + 2]]}
            if start + 2 < len(tasks):
                page["nextCursor"] = str(start + 2)
            return reply(page)
        return reply({"tasks": [task(t) for t in tasks]})
    if tid not in tasks:
        return fail(-32602, "unknown task %s" % tid)
    if method == "tasks/get":
        advance(tid)
        return reply(task(tid))
    if method == "tasks/cancel":
        tasks[tid]["status"] = "cancelled"
        return reply(task(tid))
    if method == "tasks/result":
        t = tasks[tid]
        if t["status"] == "input_required":
            eid = "ask-" + tid
            waiting[eid] = (tid, mid)
            return write({"jsonrpc": "2.0", "id": eid, "method": "elicitation/create", "params": {
                "message": "Which size?", "_meta": {"io.modelcontextprotocol/related-task": {"taskId": tid}},
                "requestedSchema": {"type": "object", "properties": {
                    "size": {"type": "string", "enum": ["small", "large"], "default": "large"}}}}})
        if t["status"] == "completed":
            return reply(t["result"])
        return fail(-32602, "task %s is %s" % (tid, t["status"]))
    return fail(-32601, "Method not found: %s" % method)


if PAGED or LOOPING:
    for n in range(1, 6):
        tasks["t%d" % n] = {"tool": "brew", "args": {}, "status": "completed", "polls": 0,
                            "result": text("done")}

for line in sys.stdin:
    line = line.strip()
    if line:
        try:
            handle(json.loads(line))
        except ValueError:
            pass
