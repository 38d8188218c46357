"""A raw MCP server of the project's (no SDK, stdio, protocol 2025-11-25) that serves skills
(SEP-2640, extension io.modelcontextprotocol/skills) the way the stable specification's
examples do: entries with verbatim frontmatter and a complete manifest of sha256 digests and
sizes, computed here from the files themselves, served two per `skills/list` page.

Skills: git-workflow (SKILL.md only; license, nested metadata, a number); acme/billing/refunds
(a supporting markdown file and a binary one served as a blob); acme/support/refunds (the same
name as the one before: hosts must not assume names are unique); reports/daily (resources
"dynamic"); broken/stale (its SKILL.md changed after the entry was made: a digest mismatch);
and hidden/unlisted, served by skills/get and resources/read but not listed.

Usage: skills_server.py [--no-extension]
  --no-extension  declare resources but not the skills extension
Environment: SKILLS_SERVER_LOG=FILE appends each request's method (and uri) to FILE, so a test
can tell what a client fetched.
"""

import base64
import hashlib
import json
import os
import sys

EXT = "io.modelcontextprotocol/skills"
PAGE = 2


def skill_md(front, body):
    return "---\n" + front + "---\n\n" + body


FILES = {
    "skill://git-workflow/SKILL.md": skill_md(
        "name: git-workflow\ndescription: Follow this team's Git conventions for branching and commits\n"
        "license: Apache-2.0\nmetadata:\n  version: 2.1\n  tags: [git, review]\n",
        "# Git workflow\n\nBranch from main; one topic per branch.\n"),
    "skill://acme/billing/refunds/SKILL.md": skill_md(
        "name: refunds\ndescription: \"Process customer refund requests per company policy\"\n",
        "Use examples/email.md as the reply.\n"),
    "skill://acme/billing/refunds/examples/email.md": "Dear customer,\n\nYour refund is on its way.\n",
    "skill://acme/billing/refunds/assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "skill://acme/support/refunds/SKILL.md": skill_md(
        "name: refunds\ndescription: Answer questions about refunds (support)\n", "Be kind.\n"),
    "skill://reports/daily/SKILL.md": skill_md(
        "name: daily\ndescription: Assemble today's operational report\n", "Generated now.\n"),
    "skill://broken/stale/SKILL.md": skill_md(
        "name: stale\ndescription: Listed before its file changed\n", "The old body.\n"),
    "skill://hidden/unlisted/SKILL.md": skill_md(
        "name: unlisted\ndescription: Reachable by its URI only\n", "Found me.\n"),
}
FRONT = {
    "skill://git-workflow/SKILL.md": {
        "name": "git-workflow", "description": "Follow this team's Git conventions for branching and commits",
        "license": "Apache-2.0", "metadata": {"version": 2.1, "tags": ["git", "review"]}},
    "skill://acme/billing/refunds/SKILL.md": {
        "name": "refunds", "description": "Process customer refund requests per company policy"},
    "skill://acme/support/refunds/SKILL.md": {
        "name": "refunds", "description": "Answer questions about refunds (support)"},
    "skill://reports/daily/SKILL.md": {"name": "daily", "description": "Assemble today's operational report"},
    "skill://broken/stale/SKILL.md": {"name": "stale", "description": "Listed before its file changed"},
    "skill://hidden/unlisted/SKILL.md": {"name": "unlisted", "description": "Reachable by its URI only"},
}
LISTED = [u for u in FRONT if not u.startswith("skill://hidden/")]


def raw(uri):
    v = FILES[uri]
    return v if isinstance(v, bytes) else v.encode()


def entry(uri):
    if uri.startswith("skill://reports/"):
        return {"uri": uri, "frontmatter": FRONT[uri], "resources": "dynamic"}
    root = uri[: -len("SKILL.md")]
    files = []
    for u in FILES:
        if u.startswith(root):
            data = raw(u)
            files.append({"uri": u, "digest": "sha256:" + hashlib.sha256(data).hexdigest(), "size": len(data)})
    return {"uri": uri, "frontmatter": FRONT[uri], "resources": files}


# The stale skill's file changes after its entry was made.
ENTRIES = {u: entry(u) for u in FRONT}
FILES["skill://broken/stale/SKILL.md"] = FILES["skill://broken/stale/SKILL.md"].replace("old", "new")


def content(uri):
    v = FILES[uri]
    if isinstance(v, bytes):
        return {"uri": uri, "mimeType": "image/png", "blob": base64.b64encode(v).decode()}
    return {"uri": uri, "mimeType": "text/markdown", "text": v}


def handle(method, params):
    if method == "initialize":
        caps = {"resources": {}}
        if "--no-extension" not in sys.argv:
            caps["extensions"] = {EXT: {}}
        return {"protocolVersion": "2025-11-25", "capabilities": caps,
                "serverInfo": {"name": "skills-server", "version": "1.0.0"}}
    if method == "skills/list":
        start = int(params.get("cursor") or 0)
        page = LISTED[start:start + PAGE]
        result = {"skills": [ENTRIES[u] for u in page], "ttlMs": 0, "cacheScope": "private"}
        if start + PAGE < len(LISTED):
            result["nextCursor"] = str(start + PAGE)
        return result
    if method == "skills/get":
        uri = params.get("uri")
        if uri not in ENTRIES:
            raise KeyError(uri)
        return {"skill": ENTRIES[uri], "ttlMs": 0, "cacheScope": "private"}
    if method == "resources/read":
        uri = params.get("uri")
        if uri not in FILES:
            raise KeyError(uri)
        return {"contents": [content(uri)]}
    if method == "resources/list":
        return {"resources": []}
    if method in ("ping", "tools/list", "prompts/list"):
        return {"tools": []} if method == "tools/list" else ({"prompts": []} if method == "prompts/list" else {})
    return None


def note(method, params):
    path = os.environ.get("SKILLS_SERVER_LOG")
    if path:
        with open(path, "a") as f:
            f.write(f"{method} {params.get('uri', '')}".rstrip() + "\n")


def main():
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "id" not in msg or "method" not in msg:
            continue
        method, params = msg["method"], msg.get("params") or {}
        note(method, params)
        try:
            result = handle(method, params)
            if result is None:
                reply = {"error": {"code": -32601, "message": f"Method not found: {method}"}}
            else:
                reply = {"result": result}
        except KeyError as e:
            reply = {"error": {"code": -32602, "message": f"Unknown skill or resource: {e}"}}
        reply.update({"jsonrpc": "2.0", "id": msg["id"]})
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


main()
