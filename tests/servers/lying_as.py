"""An MCP server on loopback whose authorization server breaks one of the login's safety rules,
for the tests of what mcplens refuses (tests/auth_rules.rs). Python's standard library only.

Usage: lying_as.py --port P --lie KIND --events FILE

The MCP endpoint /mcp answers 401 with `resource_metadata`; the protected resource metadata
names this origin as the authorization server; its metadata (RFC 8414) lies as KIND says:
- issuer:      `"issuer": "http://<other host>/evil"` (RFC 8414 3.3: must not be used);
- no-pkce:     no `code_challenge_methods_supported` (no S256 promised);
- plain-pkce:  `code_challenge_methods_supported: ["plain"]`;
- http-authorize: an `authorization_endpoint` on plain http to a host that is not loopback;
- http-token:  a `token_endpoint` on plain http to a host that is not loopback;
- none:        honest metadata (the control case: the login gets as far as registering).

Every request's method and path goes to the events file, one a line, so a test can say that
nothing past the metadata (registration, authorization, token) was asked for.
"""

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def metadata(base, lie):
    m = {
        "issuer": base,
        "authorization_endpoint": f"{base}/authorize",
        "token_endpoint": f"{base}/token",
        "registration_endpoint": f"{base}/register",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
    }
    if lie == "issuer":
        m["issuer"] = "http://other.example/evil"
    elif lie == "no-pkce":
        del m["code_challenge_methods_supported"]
    elif lie == "plain-pkce":
        m["code_challenge_methods_supported"] = ["plain"]
    elif lie == "http-authorize":
        m["authorization_endpoint"] = "http://login.example.net/authorize"
    elif lie == "http-token":
        m["token_endpoint"] = "http://10.20.30.40/token"
    return m


def handler(base, lie, events):
    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def note(self):
            with open(events, "a") as f:
                f.write(f"{self.command} {self.path}\n")

        def send(self, status, body, headers=()):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.note()
            if self.path == "/.well-known/oauth-protected-resource/mcp":
                self.send(200, {"resource": f"{base}/mcp", "authorization_servers": [base]})
            elif self.path == "/.well-known/oauth-authorization-server":
                self.send(200, metadata(base, lie))
            else:
                self.send(404, {"error": "not_found"})

        def do_POST(self):
            self.note()
            n = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(n)
            if self.path == "/mcp":
                challenge = f'Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"'
                self.send(401, {"error": "unauthorized"}, [("WWW-Authenticate", challenge)])
            elif self.path == "/register":
                self.send(400, {"error": "invalid_client_metadata", "error_description": "this test ends here"})
            else:
                self.send(404, {"error": "not_found"})

    return H


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--lie", required=True)
    p.add_argument("--events", required=True)
    a = p.parse_args()
    base = f"http://127.0.0.1:{a.port}"
    ThreadingHTTPServer(("127.0.0.1", a.port), handler(base, a.lie, a.events)).serve_forever()


if __name__ == "__main__":
    main()
