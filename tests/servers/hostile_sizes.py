"""A server whose lists, schemas, enums and message lists are as long as it is asked, to hold
mcplens to its memory budget (10x the input bytes + 50 MB) on every surface.

Usage: hostile_sizes.py MODE [COUNT]          (stdio only)
       hostile_sizes.py --size MODE [COUNT]   prints the bytes of the item list MODE sends

Modes (COUNT items; the default sizes are those of the budget's cases):
  ask-props       tools/call `t` first asks (elicitation/create) with COUNT properties (100k: 4.6 MB)
  ask-enum        the same with one property whose enum has COUNT values (1M: 10.9 MB)
  sampling        tools/call `t` first asks sampling/createMessage with COUNT messages (200k: 13 MB)
  prompt-messages prompts/get `p` answers COUNT messages (200k: 13 MB)
  prompt-args     prompts/list holds one prompt `p` with COUNT arguments (100k: 5.8 MB)
  resources       resources/list holds COUNT resources (200k: 27 MB)
  completion      completion/complete answers COUNT values (1M: 10.9 MB) for the variable of
                  the template file:///{v}
  tools           tools/list holds COUNT tools (50k: 10 MB)
  tool-props      tools/list holds one tool `t` with COUNT properties (200k: 14 MB)
  burst           tools/call `t` sends COUNT elicitation requests at once, then waits for answers
  template-vars   resources/templates/list holds a template with COUNT variables
                  (completion/complete answers after SIZES_COMPLETE_DELAY seconds, and appends
                  a line to the file SIZES_COMPLETE_LOG for each request, when they are set)
  tool-enum       tools/list holds one tool `t` whose property has an enum of COUNT values
SIZES_VARIANT=1 changes every tool's description and drops one item in tools/tool-props, and
every enum value in tool-enum; SIZES_VARIANT=reversed writes the enum backwards (a second
snapshot to diff against the first).
"""

import json
import os
import sys
import time

SIZE_ONLY = len(sys.argv) > 1 and sys.argv[1] == "--size"
if SIZE_ONLY:
    sys.argv.pop(1)
MODE = sys.argv[1] if len(sys.argv) > 1 else "ask-props"
DEFAULTS = {
    "ask-props": 100_000,
    "ask-enum": 1_000_000,
    "sampling": 200_000,
    "prompt-messages": 200_000,
    "prompt-args": 100_000,
    "resources": 200_000,
    "completion": 1_000_000,
    "tools": 50_000,
    "tool-props": 200_000,
    "burst": 20_000,
    "template-vars": 50_000,
    "tool-enum": 200_000,
}
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULTS.get(MODE, 1000)
VARIANT = os.environ.get("SIZES_VARIANT") == "1"


def ask_props(n):
    props = ",".join('"p%06d":{"type":"string","title":"Field %d"}' % (i, i) for i in range(n))
    return '{"type":"object","properties":{%s}}' % props


def ask_enum(n):
    values = ",".join('"v%07d"' % i for i in range(n))
    return '{"type":"object","properties":{"choice":{"type":"string","enum":[%s]}},"required":["choice"]}' % values


def messages(n):
    one = '{"role":"%s","content":{"type":"text","text":"message number %d"}}'
    return "[" + ",".join(one % ("user" if i % 2 == 0 else "assistant", i) for i in range(n)) + "]"


def prompt_args(n):
    one = '{"name":"a%06d","description":"argument %d","required":false}'
    return "[" + ",".join(one % (i, i) for i in range(n)) + "]"


def resources(n):
    one = '{"uri":"file:///data/r%07d.txt","name":"r%07d","description":"resource number %d","mimeType":"text/plain"}'
    return "[" + ",".join(one % (i, i, i) for i in range(n)) + "]"


def completion(n):
    return "[" + ",".join('"v%07d"' % i for i in range(n)) + "]"


def tools(n):
    desc = "changed" if VARIANT else "a tool"
    one = '{"name":"t%06d","description":"%s %d","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"n":{"type":"integer"}},"required":["x"]}}'
    return "[" + ",".join(one % (i, desc, i) for i in range(n - 1 if VARIANT else n)) + "]"


def tool_props(n):
    m = n - 1 if VARIANT else n
    props = ",".join('"p%06d":{"type":"string","description":"d"}' % i for i in range(m))
    schema = '{"type":"object","properties":{%s}}' % props
    return '[{"name":"t","description":"many properties","inputSchema":%s}]' % schema


def tool_enum(n):
    variant = os.environ.get("SIZES_VARIANT", "")
    ids = range(n - 1, -1, -1) if variant == "reversed" else range(n)
    one = '"w%07d"' if variant == "1" else '"v%07d"'
    values = ",".join(one % i for i in ids)
    schema = '{"type":"object","properties":{"choice":{"type":"string","enum":[%s]}}}' % values
    return '[{"name":"t","description":"one enum","inputSchema":%s}]' % schema


def template_vars(n):
    template = "file:///{" + ",".join("v%d" % i for i in range(n)) + "}"
    return '{"resourceTemplates":[{"uriTemplate":%s,"name":"wide"}]}' % json.dumps(template)


def completion_asked():
    """The completion's value noted, and the answer held back, when the environment asks it."""
    log = os.environ.get("SIZES_COMPLETE_LOG")
    if log:
        with open(log, "a") as f:
            f.write("asked\n")
    delay = float(os.environ.get("SIZES_COMPLETE_DELAY", "0"))
    if delay:
        time.sleep(delay)


def reply(mid, result):
    return '{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(mid), result)


PENDING = {}


def ask(mid):
    """The server's request(s) of the ask modes; the call is answered when the first reply comes."""
    if MODE == "burst":
        PENDING["ask-0"] = mid
        one = '{"jsonrpc":"2.0","id":"ask-%d","method":"elicitation/create","params":{"message":"burst %d","requestedSchema":{"type":"object","properties":{"x":{"type":"string"}}}}}'
        return [one % (i, i) for i in range(COUNT)]
    PENDING["ask-1"] = mid
    if MODE == "sampling":
        params = '{"messages":%s,"maxTokens":10}' % messages(COUNT)
        return ['{"jsonrpc":"2.0","id":"ask-1","method":"sampling/createMessage","params":%s}' % params]
    schema = ask_props(COUNT) if MODE == "ask-props" else ask_enum(COUNT)
    params = '{"message":"big form","requestedSchema":%s}' % schema
    return ['{"jsonrpc":"2.0","id":"ask-1","method":"elicitation/create","params":%s}' % params]


def answered(msg):
    mid = PENDING.pop(msg.get("id"), None)
    if mid is None:
        return []
    got = msg.get("result") if "result" in msg else {"error": msg.get("error")}
    text = json.dumps({"content": [{"type": "text", "text": "answer: " + json.dumps(got, sort_keys=True)[:200]}]})
    return [reply(mid, text)]


def listing(method):
    if method == "tools/list":
        if MODE == "tools":
            return '{"tools":%s}' % tools(COUNT)
        if MODE == "tool-props":
            return '{"tools":%s}' % tool_props(COUNT)
        if MODE == "tool-enum":
            return '{"tools":%s}' % tool_enum(COUNT)
        return '{"tools":[{"name":"t","description":"asks","inputSchema":{"type":"object","properties":{}}}]}'
    if method == "resources/list":
        return '{"resources":%s}' % (resources(COUNT) if MODE == "resources" else "[]")
    if method == "resources/templates/list":
        if MODE == "completion":
            return '{"resourceTemplates":[{"uriTemplate":"file:///{v}","name":"one"}]}'
        return template_vars(COUNT) if MODE == "template-vars" else '{"resourceTemplates":[]}'
    if method == "prompts/list":
        args = prompt_args(COUNT) if MODE == "prompt-args" else "[]"
        return '{"prompts":[{"name":"p","description":"a prompt","arguments":%s}]}' % args
    if method == "prompts/get":
        return '{"messages":%s}' % (messages(COUNT) if MODE == "prompt-messages" else "[]")
    if method == "completion/complete":
        completion_asked()
        values = completion(COUNT) if MODE == "completion" else "[]"
        return '{"completion":{"values":%s,"total":%d,"hasMore":false}}' % (values, COUNT)
    if method == "resources/read":
        return '{"contents":[{"uri":"file:///x","text":"x"}]}'
    return None


def handle(msg):
    method = msg.get("method")
    mid = msg.get("id")
    if method is None:
        return answered(msg)
    if method == "initialize":
        caps = {"tools": {}, "resources": {}, "prompts": {}, "completions": {}}
        info = {"name": "hostile-sizes", "version": "0.0.1"}
        return [json.dumps({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": "2025-06-18", "capabilities": caps, "serverInfo": info}})]
    if mid is None:
        return []
    if method == "tools/call" and MODE in ("ask-props", "ask-enum", "sampling", "burst"):
        return ask(mid)
    if method == "tools/call":
        return [reply(mid, '{"content":[{"type":"text","text":"ok"}]}')]
    result = listing(method)
    if result is not None:
        return [reply(mid, result)]
    if method == "ping":
        return [reply(mid, "{}")]
    return [json.dumps({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no method %s" % method}})]


def main():
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


PAYLOADS = {
    "ask-props": ask_props,
    "ask-enum": ask_enum,
    "sampling": messages,
    "prompt-messages": messages,
    "prompt-args": prompt_args,
    "resources": resources,
    "completion": completion,
    "tools": tools,
    "tool-props": tool_props,
    "tool-enum": tool_enum,
}

if __name__ == "__main__":
    if SIZE_ONLY:
        print(len(PAYLOADS[MODE](COUNT)))
    else:
        main()
