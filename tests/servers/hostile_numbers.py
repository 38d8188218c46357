"""A raw stdio MCP server whose page positions are numbers serde_json would rewrite
(tests/hostile_fidelity.rs): offsets beyond 64 bits and cursors like `1e2`, `-0`,
`1.0000000000000000001`. Each page checks the position it got in the request's raw text and answers
an error naming what arrived unless it is the very literal the previous page sent.

Tools:
  offsets   pages by `offset` (an integer argument): nextOffset 123456789012345678901, then ...903
  cursors   pages by `cursor` (no declared type): next_cursor 1e2, then -0, then 1.0000000000000000001
  records   pages by `cursor` (a string): items holding 123456789012345678901234567890 and -0

usage: hostile_numbers.py [big-list [COUNT]]
  big-list  tools/list answers COUNT (default 20000) tools of about 4.2 KB each in one reply
            (84 MB for 20,000): the memory budget of listing and filtering them
"""

import json
import re
import sys

OFFSETS = ["123456789012345678901", "123456789012345678903"]
CURSORS = ["1e2", "-0", "1.0000000000000000001"]
RECORD = '{"id":%d,"big":123456789012345678901234567890,"neg":-0,"price":1.10}'

TOOLS = json.dumps([
    {"name": "offsets", "inputSchema": {"type": "object", "properties": {"offset": {"type": "integer"}}}},
    {"name": "cursors", "inputSchema": {"type": "object", "properties": {"cursor": {}}}},
    {"name": "records", "inputSchema": {"type": "object", "properties": {"cursor": {"type": "string"}}}},
])


def big_list(count):
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ".split()
    prose = lambda n, seed: " ".join(words[(seed + i) % len(words)] for i in range(n))
    tools = []
    for i in range(count):
        props = ",".join('"p%d":{"type":"string","description":%s}' % (k, json.dumps(prose(24, i + k)))
                         for k in range(16))
        tools.append('{"name":"tool_%05d","title":"Tool %d","description":%s,"inputSchema":{"type":"object",'
                     '"properties":{%s},"required":["p0"]},"annotations":{"readOnlyHint":true}}'
                     % (i, i, json.dumps(prose(150, i)), props))
    return "[" + ",".join(tools) + "]"


MODE = sys.argv[1] if len(sys.argv) > 1 else ""
if MODE == "big-list":
    TOOLS = big_list(int(sys.argv[2]) if len(sys.argv) > 2 else 20000)


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def reply(mid, result_text):
    send('{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), result_text))


def sent_literal(line, name):
    """The literal of argument `name` as it arrived (None when absent)."""
    m = re.search(r'"%s"\s*:\s*("(?:[^"\\]|\\.)*"|[-+0-9.eE]+)' % name, line)
    return m.group(1) if m else None


def page(items, position_json):
    more = position_json is not None
    tail = ',"nextOffset":%s' % position_json if more else ""
    return ('{"content":[{"type":"text","text":"page"}],"structuredContent":{"items":[%s],"hasMore":%s%s}}'
            % (",".join(items), "true" if more else "false", tail))


def cursor_page(items, cursor_json):
    tail = ',"next_cursor":%s' % cursor_json if cursor_json is not None else ',"next_cursor":null'
    return '{"content":[{"type":"text","text":"page"}],"structuredContent":{"items":[%s]%s}}' % (
        ",".join(items), tail)


def wrong(mid, what):
    reply(mid, json.dumps({"isError": True, "content": [{"type": "text", "text": "wrong position: " + what}]}))


def call(mid, name, line):
    if name == "offsets":
        got = sent_literal(line, "offset")
        at = 0 if got is None else (OFFSETS.index(got) + 1 if got in OFFSETS else -1)
        if at < 0:
            return wrong(mid, got)
        nxt = OFFSETS[at] if at < len(OFFSETS) else None
        return reply(mid, page(['{"n":%d}' % (2 * at), '{"n":%d}' % (2 * at + 1)], nxt))
    if name in ("cursors", "records"):
        got = sent_literal(line, "cursor")
        keys = CURSORS if name == "cursors" else ['"p2"', '"p3"']
        at = 0 if got is None else (keys.index(got) + 1 if got in keys else -1)
        if at < 0:
            return wrong(mid, got)
        nxt = keys[at] if at < len(keys) else None
        if name == "cursors":
            items = ['{"n":%d}' % (2 * at), '{"n":%d}' % (2 * at + 1)]
        else:
            items = [RECORD % (2 * at), RECORD % (2 * at + 1)]
        return reply(mid, cursor_page(items, nxt))
    return wrong(mid, "no tool " + name)


for line in sys.stdin:
    m = json.loads(line)
    mid, method = m.get("id"), m.get("method")
    if mid is None:
        continue
    if method == "initialize":
        reply(mid, '{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},'
                   '"serverInfo":{"name":"hostile-numbers","version":"1"}}')
    elif method == "tools/list":
        reply(mid, '{"tools":%s}' % TOOLS)
    elif method == "tools/call":
        call(mid, m["params"]["name"], line)
    else:
        reply(mid, "{}")
