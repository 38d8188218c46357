"""A Python MCP server (the `mcp` SDK's low-level Server) whose tools/list is paged.

Usage: paged_tools.py [--tools N] [--page-size K] [--dump FILE] [--banner]

--dump writes the tool descriptors it serves as a JSON array, so a test can check that mcplens
printed exactly what the server sent. --banner prints a line to stdout before speaking the
protocol, as some real servers do.
"""

import argparse
import json
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def make_tools(n):
    tools = []
    for i in range(n):
        tools.append(
            {
                "name": f"tool_{i:05d}",
                "title": f"Tool number {i}",
                "description": f"Does thing {i}. Ünïcödé and \"quotes\" kept.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "items": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/Item"},
                            "minItems": 1,
                        },
                        "mode": {"type": "string", "enum": ["fast", "slow"], "default": "fast"},
                        "when": {"type": "string", "format": "date-time"},
                        "big": {"type": "integer", "maximum": 9007199254740993},
                    },
                    "required": ["items"],
                    "additionalProperties": False,
                    "x-vendor-hint": {"rank": i, "tags": ["a", "b"]},
                    "$defs": {
                        "Item": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string", "format": "uuid"},
                                "choice": {"oneOf": [{"type": "integer"}, {"type": "string", "const": "auto"}]},
                            },
                            "required": ["id"],
                        }
                    },
                },
                "annotations": {"readOnlyHint": i % 2 == 0},
            }
        )
    return tools


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", type=int, default=1200)
    ap.add_argument("--page-size", type=int, default=100)
    ap.add_argument("--dump")
    ap.add_argument("--banner", action="store_true")
    a = ap.parse_args()
    raw = make_tools(a.tools)
    models = [types.Tool.model_validate(t) for t in raw]
    if a.dump:
        with open(a.dump, "w") as f:
            json.dump([m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in models], f)

    async def list_tools(ctx, params):
        start = int(params.cursor) if params and params.cursor else 0
        end = start + a.page_size
        return types.ListToolsResult(tools=models[start:end], next_cursor=str(end) if end < len(models) else None)

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps({"called": params.name, "arguments": params.arguments}))])

    server = Server("paged-tools", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)

    if a.banner:
        sys.stdout.write("paged-tools server v1.0 starting (this banner is not JSON-RPC)\n")
        sys.stdout.flush()

    async def run():
        async with stdio_server() as (r, w):
            await server.run(r, w, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
