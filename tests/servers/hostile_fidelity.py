"""A raw stdio MCP server sending what JSON allows and serde_json refuses (tests/hostile_fidelity.rs):
numbers beyond a 64-bit float (1e400) and lone UTF-16 surrogates, in tool descriptors and results.

usage: hostile_fidelity.py [MODE]
  numbers     tools/call of `plain` answers structuredContent with 1e400, -1e999, big integers, -0
  surrogate   tools/call of `plain` answers a text with a lone surrogate
  exact       tools/call of `plain` answers a small reply of numbers no float writes back as sent
              (big integers, -0, 1.10, 1e5) in records, in structuredContent and in a JSON text block;
              `page` answers one record and a nextOffset of 123456789012345678901 (more pages)
  exact-big   the same records, 3000 of them (a reply over 64 KB)
  text-big    tools/call of `plain` answers one text block of 6 MB: the JSON Python's json.dumps
              writes of {"items": [60,000 records], "nextCursor": null}, with its escapes (`\u00e9`,
              `\"`, `\n`); text-big-exact, the same with one record's price written 1.10
  big-init    the initialize reply carries 20 MiB of instructions (over rmcp's own 16 MiB line cap)
  fetch-mcp   tools/call of `fetch_txt` answers the lines recorded in tests/wild/json/fetch-mcp-substring.jsonl
              (zcaceres/fetch-mcp paging a text by UTF-16 index), with the request's id: the first page,
              or the second with a start_index
Any other tool name is answered with `called <name as JSON>`, so a test sees the exact name that
arrived (a lone surrogate stays a lone surrogate in Python's json).
"""

import json
import os
import re
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "numbers"

TOOLS = (
    '[{"name":"big","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":1e400}}}},'
    '{"name":"sur\\ud800","inputSchema":{"type":"object"}},'
    '{"name":"plain","inputSchema":{"type":"object"}}]'
)
NUMBERS = (
    '{"content":[{"type":"text","text":"ok"}],"structuredContent":'
    '{"huge":1e400,"tiny":-1E999,"int":123456789012345678901234567890,"zero":-0,"items":[1,2,3]}}'
)
EXACT_ROW = '{"id":123456789012345678901234567890,"neg":-0,"price":1.10,"e":1e5,"tiny":1e-400}'
EXACT = (
    '{"content":[{"type":"text","text":"{\\"n\\":98765432109876543210,\\"z\\":-0.0}"}],'
    '"structuredContent":{"rows":[%s],"count":1.0,"big":-18446744073709551616}}'
)
PAGE = ('{"content":[{"type":"text","text":"[{\\"a\\":1}]"}],'
        '"structuredContent":{"items":[{"a":1}],"nextOffset":123456789012345678901}}')
FETCH_MCP_TOOLS = (
    '[{"name":"fetch_txt","inputSchema":{"type":"object","properties":{"url":{"type":"string"},'
    '"max_length":{"type":"number"},"start_index":{"type":"number"}},"required":["url"]}}]'
)
SURROGATE = '{"content":[{"type":"text","text":"a\\ud800b \\udfff"}]}'


def big_text(exact):
    """The text-big reply: one text block of json.dumps's JSON, as a Python server sends it."""
    items = [{"id": i, "name": "caf\u00e9 \"%d\"" % i, "note": "line\nnext", "score": i % 1000}
             for i in range(60000)]
    text = json.dumps({"items": items, "nextCursor": None})
    if exact:
        text = text.replace('"score": 7}', '"score": 7, "price": 1.10}', 1)
    return json.dumps({"content": [{"type": "text", "text": text}]})


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def replay_fetch_mcp(mid, args):
    path = os.path.join(os.path.dirname(__file__), "..", "wild", "json", "fetch-mcp-substring.jsonl")
    with open(path, encoding="utf-8") as f:
        pages = f.read().splitlines()
    line = pages[1 if args.get("start_index") else 0]
    send(re.sub(r'"id":\d+}$', '"id":%s}' % json.dumps(mid), line))


def reply(mid, result_text):
    send('{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), result_text))


for line in sys.stdin:
    m = json.loads(line)
    mid, method = m.get("id"), m.get("method")
    if mid is None:
        continue
    if method == "initialize" and MODE == "big-init":
        reply(mid, '{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},'
                   '"serverInfo":{"name":"hostile-fidelity","version":"1"},"instructions":"%s"}' % ("x" * (20 << 20)))
    elif method == "initialize":
        reply(mid, '{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},'
                   '"serverInfo":{"name":"hostile-fidelity","version":"1"}}')
    elif method == "tools/list":
        reply(mid, '{"tools":%s}' % (FETCH_MCP_TOOLS if MODE == "fetch-mcp" else TOOLS))
    elif method == "tools/call":
        name = m["params"]["name"]
        if name == "fetch_txt" and MODE == "fetch-mcp":
            replay_fetch_mcp(mid, m["params"].get("arguments") or {})
        elif name == "plain" and MODE.startswith("text-big"):
            reply(mid, big_text(MODE == "text-big-exact"))
        elif name == "plain" and MODE.startswith("exact"):
            reply(mid, EXACT % ",".join([EXACT_ROW] * (3000 if MODE == "exact-big" else 2)))
        elif name == "page":
            reply(mid, PAGE)
        elif name == "plain":
            reply(mid, SURROGATE if MODE == "surrogate" else NUMBERS)
        else:
            text = "called " + json.dumps(name)
            reply(mid, json.dumps({"content": [{"type": "text", "text": text}]}))
    else:
        reply(mid, "{}")
