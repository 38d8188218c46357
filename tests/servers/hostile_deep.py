"""A server that nests everything as deep as it is asked, to break recursion and memory budgets.

Usage: hostile_deep.py MODE [DEPTH]     (stdio only; DEPTH defaults to 90000)

Modes:
  deep-reply      tools/call answers structuredContent nested DEPTH arrays deep
  deep-objects    the same with objects ({"a":{"a":...}})
  deep-text       a text block holding JSON nested DEPTH deep
  deep-list       tools/list holds a tool whose inputSchema nests DEPTH objects deep (properties)
  deep-desc       tools/list holds a tool whose description field is an array nested DEPTH deep
  deep-error      tools/call answers a JSON-RPC error whose data nests DEPTH deep
  nested-schema   one tool `t` whose inputSchema is DEPTH nested objects with properties (the
                  200- and 300-level schemas of issue 14), each level also `required`
  nested-anyof    one tool `t` whose inputSchema nests DEPTH `anyOf` levels
  nested-items    one tool `t` whose inputSchema nests DEPTH array `items` levels
  many-deep       tools/call answers COUNT (default 1000) arrays each nested DEPTH deep, as
                  structuredContent (issue 14: 1000 arrays 990 deep, 2 MB)
  many-deep-text  the same, as JSON in a text block
  deep-lists      resources/list, resources/templates/list and prompts/list each hold an item
                  whose _meta nests DEPTH arrays deep; prompts/get answers a message whose
                  content carries a member nested DEPTH objects deep; resources/read a content
                  whose _meta nests DEPTH deep
  deep-ask        tools/call first asks the client (elicitation/create) with a requestedSchema of
                  DEPTH nested objects (nested-schema's), then answers with what came back
Every tool call of the nested-* modes echoes its arguments.
"""

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "deep-reply"
DEPTH = int(sys.argv[2]) if len(sys.argv) > 2 else 90000
COUNT = int(os.environ.get("COUNT", "1000"))


def deep_arrays(depth, leaf="1"):
    return "[" * depth + leaf + "]" * depth


def deep_objects(depth, leaf="1"):
    return '{"a":' * depth + leaf + "}" * depth


def nested_schema(depth):
    # Built as prefix * depth + leaf + suffix * depth: repeated formatting would be quadratic.
    head = '{"type":"object","properties":{"n":'
    tail = ',"s":{"type":"integer"}},"required":["n"]}'
    return head * depth + '{"type":"string"}' + tail * depth


def nested_anyof(depth):
    return '{"anyOf":[{"type":"object","properties":{"x":' * depth + '{"type":"string"}' + '}},{"type":"null"}]}' * depth


def nested_items(depth):
    return '{"type":"array","items":' * depth + '{"type":"integer"}' + "}" * depth


def tools_list():
    schema_obj = '{"type":"object","properties":{"x":{"type":"string"}}}'
    if MODE == "deep-list":
        deep = '{"type":"object","properties":{"d":' * DEPTH + '{"type":"string"}' + "}}" * DEPTH
        return '{"tools":[{"name":"t","description":"deep","inputSchema":%s}]}' % deep
    if MODE == "deep-desc":
        return '{"tools":[{"name":"t","description":%s,"inputSchema":%s}]}' % (deep_arrays(DEPTH, '"d"'), schema_obj)
    if MODE == "nested-schema":
        schema = '{"type":"object","properties":{"root":%s}}' % nested_schema(DEPTH)
        return '{"tools":[{"name":"t","description":"nested objects","inputSchema":%s}]}' % schema
    if MODE == "nested-anyof":
        schema = '{"type":"object","properties":{"root":%s}}' % nested_anyof(DEPTH)
        return '{"tools":[{"name":"t","description":"nested anyOf","inputSchema":%s}]}' % schema
    if MODE == "nested-items":
        schema = '{"type":"object","properties":{"root":%s}}' % nested_items(DEPTH)
        return '{"tools":[{"name":"t","description":"nested items","inputSchema":%s}]}' % schema
    return '{"tools":[{"name":"t","description":"a tool","inputSchema":%s}]}' % schema_obj


def call_result(mid, params):
    """The whole reply line."""
    if MODE == "deep-reply":
        result = '{"content":[],"structuredContent":{"deep":%s}}' % deep_arrays(DEPTH)
    elif MODE == "deep-objects":
        result = '{"content":[],"structuredContent":%s}' % deep_objects(DEPTH)
    elif MODE == "deep-text":
        result = '{"content":[{"type":"text","text":%s}]}' % json.dumps(deep_arrays(DEPTH))
    elif MODE == "deep-error":
        err = '{"code":-32000,"message":"deep error","data":%s}' % deep_arrays(DEPTH)
        return '{"jsonrpc":"2.0","id":%s,"error":%s}' % (json.dumps(mid), err)
    elif MODE in ("many-deep", "many-deep-text"):
        doc = "[" + ",".join([deep_arrays(DEPTH)] * COUNT) + "]"
        if MODE == "many-deep":
            result = '{"content":[],"structuredContent":{"many":%s}}' % doc
        else:
            result = '{"content":[{"type":"text","text":%s}]}' % json.dumps(doc)
    else:
        args = (params or {}).get("arguments") or {}
        result = json.dumps({"content": [{"type": "text", "text": "ok %d bytes" % len(json.dumps(args))}]})
    return '{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), result)


DEEP_LISTS = {
    "resources/list": lambda: '{"resources":[{"uri":"a://x","name":"x","_meta":%s}]}' % deep_arrays(DEPTH),
    "resources/templates/list": lambda: '{"resourceTemplates":[{"uriTemplate":"a://{x}","name":"t","_meta":%s}]}'
    % deep_arrays(DEPTH),
    "prompts/list": lambda: '{"prompts":[{"name":"p","_meta":%s}]}' % deep_arrays(DEPTH),
    "prompts/get": lambda: '{"messages":[{"role":"user","content":{"type":"text","text":"x","x":%s}}]}'
    % deep_objects(DEPTH),
    "resources/read": lambda: '{"contents":[{"uri":"a://x","text":"x","_meta":%s}]}' % deep_arrays(DEPTH),
}


PENDING = {}


def ask_first(mid):
    """deep-ask: the elicitation request; the call is answered when its reply comes."""
    PENDING["ask-1"] = mid
    schema = nested_schema(DEPTH)
    return '{"jsonrpc":"2.0","id":"ask-1","method":"elicitation/create","params":{"message":"deep","requestedSchema":%s}}' % schema


def answered(msg):
    mid = PENDING.pop(msg.get("id"), None)
    if mid is None:
        return []
    got = msg.get("result") if "result" in msg else {"error": msg.get("error")}
    text = json.dumps({"content": [{"type": "text", "text": "answer: " + json.dumps(got, sort_keys=True)}]})
    return ['{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), text)]


def handle(msg):
    method = msg.get("method")
    mid = msg.get("id")
    if method is None:
        return answered(msg)
    if method == "tools/call" and MODE == "deep-ask":
        return [ask_first(mid)]
    if method == "initialize":
        caps = {"tools": {}, "resources": {}, "prompts": {}} if MODE == "deep-lists" else {"tools": {}}
        result = {"protocolVersion": "2025-06-18", "capabilities": caps, "serverInfo": {"name": "hostile-deep", "version": "0.0.1"}}
        return [json.dumps({"jsonrpc": "2.0", "id": mid, "result": result})]
    if mid is None:
        return []
    if method == "tools/list":
        return ['{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), tools_list())]
    if method == "tools/call":
        return [call_result(mid, msg.get("params"))]
    if method in DEEP_LISTS:
        return ['{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), DEEP_LISTS[method]())]
    if method == "ping":
        return [json.dumps({"jsonrpc": "2.0", "id": mid, "result": {}})]
    return [json.dumps({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no method %s" % method}})]


def main():
    sys.setrecursionlimit(10000)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        for out in handle(msg):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
