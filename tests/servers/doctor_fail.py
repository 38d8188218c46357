"""Servers built to fail at one connection step each, for `mcplens doctor`.

Usage:
  doctor_fail.py --http PORT     serves, by path:
      /mcp              a working legacy server (JSON answers)
      /html             an HTML page (200, text/html), as a web app's catch-all route does
      /badversion       initialize answered with protocolVersion "1999-01-01"
      /moved            302 to /mcp (a POST turned into a GET by clients)
      /auth/mcp         401 with a Bearer challenge; its protected resource metadata names an
                        authorization server whose RFC 8414 metadata has no token_endpoint,
                        no S256 PKCE method and an issuer that is not its URL
      anything else     404
  doctor_fail.py --stdio-badversion   a stdio server answering initialize with "1999-01-01"
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def answer_initialize(msg, version):
    return {"jsonrpc": "2.0", "id": msg.get("id"),
            "result": {"protocolVersion": version, "capabilities": {"tools": {}},
                       "serverInfo": {"name": "doctor-fail", "version": "0.1"}}}


def rpc(msg, version):
    method = msg.get("method")
    if method == "initialize":
        return answer_initialize(msg, version)
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": msg.get("id"), "result": {"tools": []}}
    if "id" in msg:
        return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
    return None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, ctype, body, headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def base(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def do_GET(self):
        if self.path == "/.well-known/oauth-protected-resource/auth/mcp":
            return self.send(200, "application/json", json.dumps(
                {"resource": self.base() + "/auth/mcp", "authorization_servers": [self.base() + "/as"]}))
        if self.path == "/.well-known/oauth-authorization-server/as":
            return self.send(200, "application/json", json.dumps(
                {"issuer": "https://login.example.com", "authorization_endpoint": self.base() + "/as/authorize",
                 "registration_endpoint": self.base() + "/as/register",
                 "code_challenge_methods_supported": ["plain"]}))
        if self.path == "/html":
            return self.send(200, "text/html; charset=utf-8", "<!doctype html><title>App</title><h1>Welcome</h1>")
        self.send(404, "text/plain", "not found")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.path == "/html":
            return self.send(200, "text/html; charset=utf-8", "<!doctype html><title>App</title><h1>Welcome</h1>")
        if self.path == "/moved":
            return self.send(302, "text/plain", "moved", [("Location", "/mcp")])
        if self.path == "/auth/mcp":
            challenge = 'Bearer resource_metadata="%s/.well-known/oauth-protected-resource/auth/mcp"' % self.base()
            return self.send(401, "application/json", '{"error":"invalid_token"}', [("WWW-Authenticate", challenge)])
        if self.path not in ("/mcp", "/badversion"):
            return self.send(404, "text/plain", "not found")
        msg = json.loads(body or b"{}")
        out = rpc(msg, "1999-01-01" if self.path == "/badversion" else "2025-06-18")
        if out is None:
            return self.send(202, "application/json", "")
        self.send(200, "application/json", json.dumps(out))


def stdio_badversion():
    for line in sys.stdin:
        out = rpc(json.loads(line), "1999-01-01")
        if out is not None:
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    if "--stdio-badversion" in sys.argv:
        stdio_badversion()
    else:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
