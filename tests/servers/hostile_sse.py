"""A streamable HTTP MCP server whose tools/call answers on an SSE stream that starts with what a
strict SSE parser ends the stream on (tests/hostile_fidelity.rs), then the real reply.

usage: hostile_sse.py PORT MODE
  unknown-id      a reply to an id no request has
  retry-negative  `retry: -5` on an event
  retry-huge      a retry beyond 64 bits
  bad-utf8        invalid UTF-8 in an event's data
"""
import sys, json
from http.server import BaseHTTPRequestHandler, HTTPServer
PORT = int(sys.argv[1]); MODE = sys.argv[2]
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(405); self.end_headers()
    def do_DELETE(self):
        self.send_response(200); self.end_headers()
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        mid = body.get("id"); meth = body.get("method")
        if mid is None:
            self.send_response(202); self.end_headers(); return
        if meth == "initialize":
            res = {"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sse","version":"1"}}
        elif meth == "tools/list":
            res = {"tools":[{"name":"t","inputSchema":{"type":"object"}}]}
        elif meth == "tools/call":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            good = json.dumps({"jsonrpc":"2.0","id":mid,"result":{"content":[{"type":"text","text":"fine"}]}}).encode()
            bad = {
              "unknown-id": b'data: {"jsonrpc":"2.0","id":999,"result":{}}\n\n',
              "retry-negative": b'retry: -5\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n',
              "retry-huge": b'retry: 99999999999999999999999\n\n',
              "bad-utf8": b'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"\xff\xfe"}}\n\n',
            }[MODE]
            self.wfile.write(bad + b"data: " + good + b"\n\n"); self.wfile.flush(); return
        else:
            res = {}
        out = json.dumps({"jsonrpc":"2.0","id":mid,"result":res}).encode()
        self.send_response(200); self.send_header("Content-Type","application/json"); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
HTTPServer(("127.0.0.1", PORT), H).serve_forever()
