"""A Python MCP server (the `mcp` SDK's low-level Server) with resources, templates and prompts.

Usage: resources_server.py [--resources N] [--page-size K] [--blob-mb M]

- resources/list is paged (K per page, the cursor an offset); resource 0 is a PNG blob, 1 JSON
  text, 2 markdown with annotations, icons and _meta, 3 has terminal escapes in its name and text;
- resources/templates/list and prompts/list are paged one item per page;
- templates offer completions (users, tables; a table's columns from the context);
- resources/subscribe is served: the tool `touch` sends notifications/resources/updated for a
  subscribed URI, `add_resource` adds one and sends notifications/resources/list_changed;
- prompts take required and optional arguments and return text, image, audio, an embedded
  resource (text and blob) and a resource_link;
- logging/setLevel is served (at info or debug it says so in a log message of its own): the
  tool `log` sends notifications/message at the level asked;
- res://blob/text (not listed) is text/plain sent as a blob, with terminal escapes in it;
  res://blob/latin1 (not listed) is text/plain whose bytes are not UTF-8;
- --blob-mb M serves res://big, M MiB of bytes (a memory bound test reads it);
- --malformed adds, on the first resources page, descriptors that break the schema (no uri, a
  numeric uri, escapes in the name, 60 levels of nesting), and makes prompts/list repeat its
  cursor forever.
"""

import argparse
import base64
import json
import zlib
import struct

import anyio
import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
USERS = [f"user{i:03d}" for i in range(150)] + ["alice", "albert", "bob"]
TABLES = {"orders": ["id", "total", "placed_at"], "customers": ["id", "name", "email"], "order_items": ["sku", "qty"]}


def png_1x1():
    """A valid 1x1 red PNG."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"\x00\xff\x00\x00"
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


PNG = png_1x1()


def make_resources(n):
    out = []
    for i in range(n):
        r = {"uri": f"res://item/{i:03d}", "name": f"item-{i:03d}", "mimeType": "text/plain"}
        if i == 0:
            r.update(name="pixel.png", mimeType="image/png", size=len(PNG), description="A 1x1 PNG, as a blob")
        elif i == 1:
            r.update(name="config.json", mimeType="application/json", title="Configuration")
        elif i == 2:
            r.update(
                name="notes.md",
                mimeType="text/markdown",
                annotations={"audience": ["user"], "priority": 0.5},
                icons=[{"src": "data:image/png;base64,AAAA", "mimeType": "image/png"}],
                _meta={"vendor/tag": {"rank": 2}},
            )
        elif i == 3:
            r.update(name="evil\x1b[2Jname", description="line one\x1b]0;pwned\x07\nline two")
        out.append(r)
    return out


def text_of(uri):
    if uri == "res://item/001":
        return json.dumps({"debug": True, "level": 3, "nested": {"list": [1, 2, 3]}})
    if uri == "res://item/002":
        return "# Notes\n\nSome *markdown*.\n"
    if uri == "res://item/003":
        return "before\x1b[31mred\x1b[0m after\x07"
    return f"contents of {uri}"


BLOB_TEXTS = {
    "res://blob/text": "héllo \x1b[2Jcleared\x07\nline two\n".encode(),
    "res://blob/latin1": "café".encode("latin-1"),
}

TEMPLATES = [
    {"uriTemplate": "users://{user}/profile", "name": "user-profile", "title": "A user's profile", "mimeType": "application/json"},
    {"uriTemplate": "db://{table}/rows{?column}", "name": "table-rows", "description": "Rows of a table; column is completed from the table in the context"},
    {"uriTemplate": "files:///{+path}", "name": "file", "mimeType": "text/plain"},
]

PROMPTS = [
    {"name": "greet", "title": "Greeting", "description": "Greets someone", "arguments": [
        {"name": "name", "description": "Who to greet", "required": True},
        {"name": "style", "description": "formal or casual"},
    ]},
    {"name": "review", "description": "Every content type in one prompt", "arguments": [
        {"name": "code", "required": True},
        {"name": "language", "required": False},
    ]},
    {"name": "plain", "description": "No arguments"},
]


def page(items, params, size):
    start = int(params.cursor) if params and params.cursor else 0
    end = start + size
    return items[start:end], (str(end) if end < len(items) else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--resources", type=int, default=25)
    ap.add_argument("--page-size", type=int, default=10)
    ap.add_argument("--blob-mb", type=int, default=0)
    ap.add_argument("--malformed", action="store_true")
    a = ap.parse_args()
    resources = make_resources(a.resources)
    if a.malformed:
        # The SDK checks results against the spec before sending; let resources/list through.
        import mcp.server.runner as runner

        check = runner._methods.serialize_server_result
        runner._methods.serialize_server_result = lambda m, v, d: d if m == "resources/list" else check(m, v, d)
    state = {"subscribed": set(), "level": None}

    async def list_resources(ctx, params):
        items, nxt = page(resources, params, a.page_size)
        served = [types.Resource.model_validate(r) for r in items]
        if a.malformed and not (params and params.cursor):
            deep = {"name": "deep", "uri": "res://deep", "x": json.loads("[" * 60 + "]" * 60)}
            bad = [{"name": "no-uri", "x-extra": 1}, {"uri": 5, "name": "numeric"}, {"uri": "res://e", "name": "e\x1b[2J"}, deep]
            # Sent as they are: model_construct skips the SDK's validation.
            return types.ListResourcesResult.model_construct(resources=bad + served, next_cursor=nxt)
        return types.ListResourcesResult(resources=served, next_cursor=nxt)

    async def list_templates(ctx, params):
        items, nxt = page(TEMPLATES, params, 1)
        return types.ListResourceTemplatesResult(
            resource_templates=[types.ResourceTemplate.model_validate(t) for t in items], next_cursor=nxt
        )

    async def read_resource(ctx, params):
        uri = str(params.uri)
        if uri == "res://big" and a.blob_mb:
            data = bytes(range(256)) * (a.blob_mb * 4096)
            return types.ReadResourceResult(contents=[types.BlobResourceContents(
                uri=uri, mime_type="application/octet-stream", blob=base64.b64encode(data).decode())])
        if uri == "res://item/000":
            return types.ReadResourceResult(contents=[types.BlobResourceContents(
                uri=uri, mime_type="image/png", blob=base64.b64encode(PNG).decode())])
        if uri in BLOB_TEXTS:
            return types.ReadResourceResult(contents=[types.BlobResourceContents(
                uri=uri, mime_type="text/plain", blob=base64.b64encode(BLOB_TEXTS[uri]).decode())])
        if uri.startswith("users://") and uri.endswith("/profile"):
            user = uri[len("users://"):-len("/profile")]
            text = json.dumps({"user": user, "known": user in USERS})
            return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)])
        if uri.startswith("db://"):
            # Two contents: the rows as JSON and a CSV export as a blob.
            return types.ReadResourceResult(contents=[
                types.TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps({"rows": [[1, 2]]})),
                types.BlobResourceContents(uri=uri + "#csv", mime_type="text/csv", blob=base64.b64encode(b"a,b\n1,2\n").decode()),
            ])
        if any(r["uri"] == uri for r in resources):
            mime = next(r["mimeType"] for r in resources if r["uri"] == uri)
            return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text_of(uri))])
        raise MCPError(-32002, f"Resource not found: {uri}", {"uri": uri})

    async def subscribe(ctx, params):
        state["subscribed"].add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx, params):
        state["subscribed"].discard(str(params.uri))
        return types.EmptyResult()

    async def list_prompts(ctx, params):
        if a.malformed:
            return types.ListPromptsResult(prompts=[types.Prompt.model_validate(PROMPTS[0])], next_cursor="again")
        items, nxt = page(PROMPTS, params, 1)
        return types.ListPromptsResult(prompts=[types.Prompt.model_validate(p) for p in items], next_cursor=nxt)

    async def get_prompt(ctx, params):
        args = params.arguments or {}
        if params.name == "greet":
            if "name" not in args:
                raise MCPError(-32602, "missing required argument: name")
            style = args.get("style", "casual")
            text = f"Good day, {args['name']}." if style == "formal" else f"Hi {args['name']}!"
            return types.GetPromptResult(description="A greeting", messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text)),
            ])
        if params.name == "review":
            b64png = base64.b64encode(PNG).decode()
            return types.GetPromptResult(description="Review with every content type", messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=f"Review this {args.get('language', 'code')}:\n{args.get('code', '')}")),
                types.PromptMessage(role="user", content=types.ImageContent(type="image", data=b64png, mime_type="image/png")),
                types.PromptMessage(role="user", content=types.AudioContent(type="audio", data=base64.b64encode(b"RIFF0000WAVEfmt ").decode(), mime_type="audio/wav")),
                types.PromptMessage(role="user", content=types.EmbeddedResource(type="resource", resource=types.TextResourceContents(uri="res://item/002", mime_type="text/markdown", text=text_of("res://item/002")))),
                types.PromptMessage(role="user", content=types.EmbeddedResource(type="resource", resource=types.BlobResourceContents(uri="res://item/000", mime_type="image/png", blob=b64png))),
                types.PromptMessage(role="assistant", content=types.ResourceLink(type="resource_link", uri="res://item/001", name="config.json", mime_type="application/json")),
            ])
        if params.name == "plain":
            return types.GetPromptResult(messages=[types.PromptMessage(role="assistant", content=types.TextContent(type="text", text="plain"))])
        raise MCPError(-32602, f"unknown prompt {params.name}")

    async def complete(ctx, params):
        ref, arg = params.ref, params.argument
        context = (params.context.arguments if params.context else None) or {}
        if ref.type == "ref/prompt" and ref.name == "greet" and arg.name == "name":
            pool = USERS
        elif ref.type == "ref/prompt" and ref.name == "greet" and arg.name == "style":
            pool = ["formal", "casual"]
        elif ref.type == "ref/resource" and ref.uri == "users://{user}/profile" and arg.name == "user":
            pool = USERS
        elif ref.type == "ref/resource" and ref.uri == "db://{table}/rows{?column}" and arg.name == "table":
            pool = list(TABLES)
        elif ref.type == "ref/resource" and ref.uri == "db://{table}/rows{?column}" and arg.name == "column":
            pool = TABLES.get(context.get("table", ""), [])
        else:
            pool = []
        hits = [v for v in pool if v.startswith(arg.value)]
        return types.CompleteResult(completion=types.Completion(values=hits[:100], total=len(hits), has_more=len(hits) > 100))

    async def set_level(ctx, params):
        state["level"] = params.level
        if LEVELS.index("info") >= LEVELS.index(params.level):
            await ctx.session.send_log_message(level="info", data=f"level set to {params.level}", logger="resources_server")
        return types.EmptyResult()

    async def list_tools(ctx, params):
        obj = lambda props: {"type": "object", "properties": props}
        return types.ListToolsResult(tools=[
            types.Tool(name="touch", description="Send resources/updated for a subscribed URI", input_schema=obj({"uri": {"type": "string"}})),
            types.Tool(name="add_resource", description="Add a resource and send list_changed", input_schema=obj({})),
            types.Tool(name="log", description="Send a log message", input_schema=obj({"level": {"type": "string"}, "message": {"type": "string"}})),
        ])

    async def call_tool(ctx, params):
        args = params.arguments or {}
        said = "ok"
        if params.name == "touch":
            uri = args.get("uri", "")
            if uri in state["subscribed"]:
                await ctx.session.send_resource_updated(uri)
                said = f"updated {uri}"
            else:
                said = f"not subscribed to {uri}"
        elif params.name == "add_resource":
            resources.append({"uri": f"res://item/{len(resources):03d}", "name": "added", "mimeType": "text/plain"})
            await ctx.session.send_resource_list_changed()
            said = f"{len(resources)} resources"
        elif params.name == "log":
            level = args.get("level", "info")
            floor = state["level"]
            if floor is not None and LEVELS.index(level) >= LEVELS.index(floor):
                await ctx.session.send_log_message(level=level, data=args.get("message", ""), logger="resources_server")
                said = "logged"
            else:
                said = "below the level"
        return types.CallToolResult(content=[types.TextContent(type="text", text=said)])

    server = Server(
        "resources-server",
        version="1.0",
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
        on_set_logging_level=set_level,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )

    async def run():
        async with stdio_server() as (r, w):
            opts = server.create_initialization_options(
                notification_options=NotificationOptions(resources_changed=True, prompts_changed=True)
            )
            await server.run(r, w, opts)

    anyio.run(run)


if __name__ == "__main__":
    main()
