"""A FastMCP server of the project's (written against fastmcp 4.1.0): tools that answer the ways
FastMCP answers. A returned scalar or list goes out as structuredContent {"result": x} with
_meta.fastmcp.wrap_result and the same JSON as text; a returned dict as structuredContent itself;
a returned str as text only.

Usage: fastmcp_tools.py [--http PORT]   (stdio by default; HTTP binds 127.0.0.1)
"""

import sys

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("fastmcp-tools")

USERS = [{"id": i, "name": f"user {i}", "email": f"user{i}@example.org"} for i in range(1, 58)]
ITEMS = [{"sku": f"SKU-{i:03d}", "title": f"item {i}"} for i in range(1, 8)]


@mcp.tool
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


@mcp.tool
def list_users(offset: int = 0, limit: int = 10) -> dict:
    """Users, paged by offset and limit."""
    page = USERS[offset : offset + limit]
    nxt = offset + limit if offset + limit < len(USERS) else None
    return {"users": page, "total": len(USERS), "offset": offset, "next_offset": nxt}


@mcp.tool
def search_items(query: str, cursor: str | None = None) -> dict:
    """Items matching a query, paged by an opaque cursor (3 a page)."""
    start = int(cursor.removeprefix("c")) if cursor else 0
    page = ITEMS[start : start + 3]
    nxt = f"c{start + 3}" if start + 3 < len(ITEMS) else None
    return {"items": page, "next_cursor": nxt, "has_more": nxt is not None}


@mcp.tool
def get_user(id: int) -> dict:
    """One user."""
    for u in USERS:
        if u["id"] == id:
            return u
    raise ToolError(f"no user {id}")


@mcp.tool
def delete_user(id: int) -> str:
    """Deletes a user (pretends to)."""
    return f"User {id} deleted."


@mcp.tool
def tags() -> list[str]:
    """Every tag."""
    return ["alpha", "beta", "gamma"]


@mcp.tool
def ledger(n: int = 3) -> list[dict]:
    """Ledger entries whose ids are past a 64-bit float's exact integers."""
    return [{"id": 10**20 + i, "amount": 0.1 * i, "memo": f"entry {i}"} for i in range(1, n + 1)]


@mcp.tool
def balance() -> dict:
    """An account whose ids are past a 64-bit float's exact integers."""
    return {"account": 10**20 + 7, "owner": {"id": 10**20 + 8}, "cents": 1250}


@mcp.tool
def fail(code: str) -> str:
    """Fails with a JSON body naming the code."""
    raise ToolError('{"code": "%s", "message": "the operation failed"}' % code)


@mcp.tool
def notes(page: int = 1) -> str:
    """Notes as markdown bullets, three pages of two."""
    all_notes = ["Buy milk", "Call Ada", "Fix the pager", "Write docs", "Ship it", "Rest"]
    chunk = all_notes[(page - 1) * 2 : page * 2]
    bullets = "\n".join(f"- {n}" for n in chunk)
    hint = f" Call again with page={page + 1}." if page < 3 else ""
    return f"{bullets}\n\nPage {page} of 3.{hint}"


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        mcp.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
    else:
        mcp.run(show_banner=False)
