"""A Python MCP server (the `mcp` SDK's low-level Server) with MCP Apps (SEP-1865) tools and
views, hand-built for tests/apps.rs: one good view and the ways a view goes wrong.

- `dashboard` declares ui://apps/dashboard.html (visibility model and app). Its view is written
  without the Apps SDK, from the specification's "Transport Layer" example: it sends
  ui/initialize, then ui/notifications/initialized; on the tool result it shows the title, calls
  `refresh` (an app-only tool) and `secret` (a model-only tool, which a host MUST refuse to the
  app), and says what came back with notifications/message. The view's _meta.ui declares a
  connect domain and a border.
- `refresh` (visibility ["app"]) and `secret` (visibility ["model"]) declare no view.
- `broken_view` declares ui://apps/missing.html, which resources/read does not know.
- `plain_view` declares ui://apps/plain.html, read as text/html (not the app MIME type) with a
  CSP entry that is no origin, one that allows everything, and a permission the spec does not name.
"""

import json

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

APP_MIME = "text/html;profile=mcp-app"

DASHBOARD = """<!doctype html>
<html><head><meta charset="utf-8"><title>dashboard</title></head>
<body><h1 id="title">waiting</h1><p id="said"></p>
<script>
let next = 1;
const waiting = {};
const send = (m) => window.parent.postMessage(m, "*");
const request = (method, params) => new Promise((ok, no) => {
  const id = next++;
  waiting[id] = [ok, no];
  send({ jsonrpc: "2.0", id, method, params });
});
const log = (data) => send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
window.addEventListener("message", async (ev) => {
  const m = ev.data || {};
  if (m.id !== undefined && waiting[m.id]) {
    const [ok, no] = waiting[m.id];
    delete waiting[m.id];
    if (m.error) no(m.error); else ok(m.result);
    return;
  }
  if (m.method === "ui/notifications/tool-result") {
    document.getElementById("title").textContent = m.params.structuredContent.title;
    const r = await request("tools/call", { name: "refresh", arguments: {} });
    document.getElementById("said").textContent = r.content[0].text;
    log("refresh answered: " + r.content[0].text);
    try {
      await request("tools/call", { name: "secret", arguments: {} });
      log("secret answered");
    } catch (e) {
      log("secret refused: " + e.message);
    }
  }
});
request("ui/initialize", { appCapabilities: {}, appInfo: { name: "dashboard", version: "1.0" }, protocolVersion: "2026-01-26" })
  .then(() => send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }));
</script></body></html>
"""

TOOLS = [
    {"name": "dashboard", "description": "Show the dashboard", "inputSchema": {"type": "object", "properties": {"items": {"type": "integer"}}},
     "_meta": {"ui": {"resourceUri": "ui://apps/dashboard.html", "visibility": ["model", "app"]}}},
    {"name": "refresh", "description": "Refresh the dashboard (from its view only)", "inputSchema": {"type": "object"},
     "_meta": {"ui": {"visibility": ["app"]}}},
    {"name": "secret", "description": "For the model only", "inputSchema": {"type": "object"},
     "_meta": {"ui": {"visibility": ["model"]}}},
    {"name": "broken_view", "description": "Declares a view the server does not have", "inputSchema": {"type": "object"},
     "_meta": {"ui": {"resourceUri": "ui://apps/missing.html"}}},
    {"name": "plain_view", "description": "Declares a view with the wrong MIME type", "inputSchema": {"type": "object"},
     "_meta": {"ui": {"resourceUri": "ui://apps/plain.html"}}},
]


def main():
    state = {"refreshes": 0}

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in TOOLS])

    async def list_resources(ctx, params):
        return types.ListResourcesResult(resources=[
            types.Resource.model_validate({"uri": "ui://apps/dashboard.html", "name": "dashboard", "mimeType": APP_MIME}),
            types.Resource.model_validate({"uri": "ui://apps/plain.html", "name": "plain", "mimeType": "text/html"}),
        ])

    async def read_resource(ctx, params):
        uri = str(params.uri)
        if uri == "ui://apps/dashboard.html":
            meta = {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": True}}
            content = {"uri": uri, "mimeType": APP_MIME, "text": DASHBOARD, "_meta": meta}
        elif uri == "ui://apps/plain.html":
            meta = {"ui": {"csp": {"connectDomains": ["api.example.com", "*"]}, "permissions": {"usb": {}}}}
            content = {"uri": uri, "mimeType": "text/html", "text": "<!doctype html><p>plain</p>", "_meta": meta}
        else:
            raise MCPError(-32002, f"Resource not found: {uri}", {"uri": uri})
        return types.ReadResourceResult(contents=[types.TextResourceContents.model_validate(content)])

    async def call_tool(ctx, params):
        args = params.arguments or {}
        if params.name == "dashboard":
            title = f"Dashboard of {args.get('items', 3)} items"
            return types.CallToolResult(content=[types.TextContent(type="text", text=title)], structured_content={"title": title})
        if params.name == "refresh":
            state["refreshes"] += 1
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"refreshed {state['refreshes']}")])
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps({"tool": params.name}))])

    server = Server(
        "apps-server",
        version="1.0",
        on_list_tools=list_tools,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_call_tool=call_tool,
    )

    async def run():
        async with stdio_server() as (r, w):
            await server.run(r, w, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
