"""A raw stdio MCP server (no SDK) for what a headless `mcplens call` must get right at the edges
(tests/asks.rs, tests/headless_edges.rs): each tool does one thing an SDK would not let it do.

Tools:
  elicit_big       elicits a form whose integer default is beyond 64 bits (12345678901234567890123)
                   and returns the content it received as JSON text (Python keeps every digit)
  bad_output       declares an outputSchema (n: integer) and returns structuredContent {"n": "not-int"}
  no_structured    declares an outputSchema and returns no structuredContent
  log_then_reply   sends three log messages (notifications/message), then its result at once
  error_lines      answers with a JSON-RPC error whose message has three lines
  echo_args        answers its arguments as JSON text with each number as the literal string that
                   arrived (`{"n": "123456789012345678901234567890"}`): what the client sent, digit for digit

resources/read, prompts/get and completion/complete (any URI, prompt or argument) send three log
messages as log_then_reply does, then their answer at once: text "read it", a user message "got it",
the completion "completed".

With the argument `tools-only` it declares tools and logging alone and answers `{}` to those three.

Usage: headless_edges.py [tools-only]   (stdio, protocol 2025-11-25)
"""

import json
import sys
import threading

lock = threading.Lock()
pending = {}
next_id = [1000]

OUT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
TOOLS = [
    {"name": "elicit_big", "inputSchema": {"type": "object"}},
    {"name": "bad_output", "inputSchema": {"type": "object"}, "outputSchema": OUT},
    {"name": "no_structured", "inputSchema": {"type": "object"}, "outputSchema": OUT},
    {"name": "log_then_reply", "inputSchema": {"type": "object"}},
    {"name": "error_lines", "inputSchema": {"type": "object"}},
    {"name": "echo_args", "inputSchema": {"type": "object", "properties": {
        "n": {"type": "integer"}, "x": {"type": "number"}, "o": {"type": "object"}}}},
]
BIG_FORM = (
    '{"type":"object","properties":{"i":{"type":"integer","default":12345678901234567890123},'
    '"s":{"type":"string"}}}'
)


def send(m):
    with lock:
        sys.stdout.write((m if isinstance(m, str) else json.dumps(m)) + "\n")
        sys.stdout.flush()


def result(i, text, **more):
    send({"jsonrpc": "2.0", "id": i, "result": dict({"content": [{"type": "text", "text": text}]}, **more)})


def ask(method, params_text):
    """Sends a request whose params are given as JSON text (numbers as written); waits for the reply."""
    next_id[0] += 1
    i = next_id[0]
    done = threading.Event()
    pending[i] = [done, None]
    send('{"jsonrpc":"2.0","id":%d,"method":"%s","params":%s}' % (i, method, params_text))
    done.wait(60)
    return pending.pop(i, [None, None])[1]


def log_steps():
    for k in range(3):
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": "info", "logger": "edges", "data": f"step {k}"}})


def logged_answer(i, method, p):
    """Log messages, then the answer to resources/read, prompts/get or completion/complete."""
    log_steps()
    if method == "resources/read":
        res = {"contents": [{"uri": p.get("uri", ""), "mimeType": "text/plain", "text": "read it"}]}
    elif method == "prompts/get":
        res = {"messages": [{"role": "user", "content": {"type": "text", "text": "got it"}}]}
    else:
        res = {"completion": {"values": ["completed"], "hasMore": False}}
    send({"jsonrpc": "2.0", "id": i, "result": res})


def call(i, name, line):
    if name == "echo_args":
        literal = json.loads(line, parse_int=str, parse_float=str)
        result(i, json.dumps(literal.get("params", {}).get("arguments", {})))
    elif name == "elicit_big":
        reply = ask("elicitation/create", '{"message":"A big default","requestedSchema":%s}' % BIG_FORM)
        result(i, json.dumps((reply or {}).get("result")))
    elif name == "bad_output":
        result(i, "bad", structuredContent={"n": "not-int"})
    elif name == "no_structured":
        result(i, "none")
    elif name == "log_then_reply":
        log_steps()
        result(i, "replied")
    elif name == "error_lines":
        send({"jsonrpc": "2.0", "id": i, "error": {"code": -32000, "message": "it failed\n  at step two\nsee the log"}})
    else:
        send({"jsonrpc": "2.0", "id": i, "error": {"code": -32602, "message": "unknown tool " + name}})


TOOLS_ONLY = sys.argv[1:] == ["tools-only"]
CAPABILITIES = {"tools": {}, "logging": {}} if TOOLS_ONLY else {
    "tools": {}, "logging": {}, "resources": {}, "prompts": {}, "completions": {}}


def main():
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if "method" not in m:
            if m.get("id") in pending:
                pending[m["id"]][1] = m
                pending[m["id"]][0].set()
            continue
        method, i, p = m["method"], m.get("id"), m.get("params") or {}
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "2025-11-25",
                  "serverInfo": {"name": "headless-edges", "version": "1"},
                  "capabilities": CAPABILITIES}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": i, "result": {"tools": TOOLS}})
        elif method in ("resources/read", "prompts/get", "completion/complete") and not TOOLS_ONLY:
            logged_answer(i, method, p)
        elif method == "tools/call":
            threading.Thread(target=call, args=(i, p.get("name", ""), line), daemon=True).start()
        elif i is not None:
            send({"jsonrpc": "2.0", "id": i, "result": {}})


main()
