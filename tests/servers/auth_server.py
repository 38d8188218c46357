"""A Python SDK MCP server (MCPServer over streamable HTTP) behind its own OAuth authorization
server (the SDK's `mcp.server.auth` routes), on loopback. Logins are approved at once: the
authorize endpoint redirects straight back with a code, as a user clicking "allow" would.

Usage: auth_server.py --port P [--token-ttl SECS] [--no-refresh] [--scope S] [--no-registration]
                      [--client ID:SECRET:REDIRECT_URI] [--events FILE]

- --token-ttl: access token lifetime (a short one tests expiry and refresh);
- --no-refresh: no refresh tokens are issued;
- --scope: the scope every request needs (named in the 401 and in scopes_supported);
- --no-registration: no dynamic registration; only the --client given (pre-registered, with its
  one redirect URI, compared exactly as the SDK does) works;
- --events FILE: one line per grant (`authorization_code`, `refresh_token`), with a hash of the
  token, never the token itself, so a test can count logins and refreshes.

Refresh tokens rotate: each refresh issues a new one and the old one stops working.
The tool `whoami` answers with the client id and scopes of the token (never the token).
"""

import argparse
import hashlib
import secrets
import time

import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull


class ApproveAtOnce:
    """An in-memory authorization server that approves every login."""

    def __init__(self, ttl, refresh, events, clients):
        self.ttl = ttl
        self.refresh = refresh
        self.events = events
        self.clients = dict(clients)
        self.codes = {}
        self.access = {}
        self.refresh_tokens = {}

    def note(self, what, token):
        if self.events:
            digest = hashlib.sha256(token.encode()).hexdigest()[:12]
            with open(self.events, "a") as f:
                f.write(f"{what} {digest}\n")

    async def get_client(self, client_id):
        return self.clients.get(client_id)

    async def register_client(self, client_info):
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams):
        code = secrets.token_urlsafe(16)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client, code):
        return self.codes.get(code)

    def issue(self, client_id, scopes, resource):
        token = "acc-" + secrets.token_urlsafe(24)
        self.access[token] = AccessToken(
            token=token,
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + self.ttl,
            resource=resource,
        )
        out = {"access_token": token, "token_type": "Bearer", "expires_in": self.ttl, "scope": " ".join(scopes)}
        if self.refresh:
            rt = "ref-" + secrets.token_urlsafe(24)
            self.refresh_tokens[rt] = RefreshToken(token=rt, client_id=client_id, scopes=scopes, resource=resource)
            out["refresh_token"] = rt
        return out

    async def exchange_authorization_code(self, client, authorization_code):
        from mcp.shared.auth import OAuthToken

        self.codes.pop(authorization_code.code, None)
        out = self.issue(client.client_id, authorization_code.scopes, authorization_code.resource)
        self.note("authorization_code", out["access_token"])
        return OAuthToken(**out)

    async def load_refresh_token(self, client, refresh_token):
        return self.refresh_tokens.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        from mcp.shared.auth import OAuthToken

        if self.refresh_tokens.pop(refresh_token.token, None) is None:
            raise TokenError("invalid_grant", "refresh token already used")
        out = self.issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)
        self.note("refresh_token", out["access_token"])
        return OAuthToken(**out)

    async def load_access_token(self, token):
        t = self.access.get(token)
        if t is not None and t.expires_at is not None and t.expires_at < time.time():
            return None
        return t

    async def revoke_token(self, token):
        self.access.pop(getattr(token, "token", ""), None)
        self.refresh_tokens.pop(getattr(token, "token", ""), None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--token-ttl", type=int, default=3600)
    p.add_argument("--no-refresh", action="store_true")
    p.add_argument("--scope", default="mcp:use")
    p.add_argument("--no-registration", action="store_true")
    p.add_argument("--client", default=None)
    p.add_argument("--events", default=None)
    a = p.parse_args()
    base = f"http://127.0.0.1:{a.port}"
    clients = {}
    if a.client:
        cid, secret, redirect = a.client.split(":", 2)
        clients[cid] = OAuthClientInformationFull(
            client_id=cid,
            client_secret=secret,
            redirect_uris=[redirect],
            token_endpoint_auth_method="client_secret_post",
            grant_types=["authorization_code", "refresh_token"],
            scope=a.scope,
        )
    provider = ApproveAtOnce(a.token_ttl, not a.no_refresh, a.events, clients)
    server = MCPServer(
        "auth-server",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base,
            resource_server_url=f"{base}/mcp",
            validate_token_resource=True,
            required_scopes=[a.scope],
            client_registration_options=ClientRegistrationOptions(
                enabled=not a.no_registration, valid_scopes=[a.scope], default_scopes=[a.scope]
            ),
        ),
    )

    @server.tool()
    def whoami() -> str:
        """Who the token says the caller is (never the token)."""
        t = get_access_token()
        return f"client {t.client_id if t else '?'} scopes {' '.join(t.scopes) if t else '?'}"

    @server.tool()
    def echo(text: str) -> str:
        """Says the text back."""
        return text

    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=a.port, log_level="warning")


if __name__ == "__main__":
    main()
