"""A raw stdio MCP server (no SDK) that keeps writing after its answer, and outlives its input:
what `mcplens record` must pass on whole when the host leaves (tests/record_stream.rs).

Tools:
  stream   answers at once, then sends `count` (default 20000) short notifications/message lines
           ({"i": N} as data, N from 0), as fast as the pipe takes them; with `forever` true it
           never stops sending

Its input closing does not end it: it goes on writing, then waits to be stopped (as some real
servers do).

Usage: stream_after_reply.py   (stdio, protocol 2025-11-25)
"""

import json
import sys
import threading
import time

lock = threading.Lock()


def send(m):
    with lock:
        sys.stdout.write(json.dumps(m, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def stream(count, forever):
    i = 0
    while forever or i < count:
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": {"i": i}}})
        i += 1


def main():
    writer = None
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            continue
        method, i, p = m.get("method"), m.get("id"), m.get("params") or {}
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "2025-11-25",
                  "serverInfo": {"name": "stream-after-reply", "version": "1"},
                  "capabilities": {"tools": {}, "logging": {}}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": i, "result": {"tools": [
                {"name": "stream", "inputSchema": {"type": "object", "properties": {
                    "count": {"type": "integer"}, "forever": {"type": "boolean"}}}}]}})
        elif method == "tools/call":
            args = p.get("arguments") or {}
            send({"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": "streaming"}]}})
            writer = threading.Thread(target=stream, args=(args.get("count", 20000), args.get("forever", False)))
            writer.start()
        elif i is not None:
            send({"jsonrpc": "2.0", "id": i, "result": {}})
    # The input closed: stay, as a server that ignores it does.
    if writer:
        writer.join()
    time.sleep(300)


main()
