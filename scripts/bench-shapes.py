#!/usr/bin/env python3
"""Writes the recorded replies that scripts/bench-compare and tests/perf_guard.rs serve through
examples/replay_server: one directory per shape, holding `tools.jsonl` (one tools/list result a
line, page N answering cursor "N") and `call.json` (the tools/call result, one line).

Usage: bench-shapes.py OUT_DIR [SCALE [SHAPE...]]

SCALE (default 1) multiplies every record count: the wall-time bench uses 1, the instruction-count
guard a small fraction (instruction counts scale with the input). The output depends only on the
arguments: the same bytes on every machine and every run. Naming shapes writes only those.

Shapes:
  tools       1,234 tools over 13 pages of 100
  tools20k    20,000 tools over 20 pages of 1,000
  structured  100k records in structuredContent (10 MB), a one-line text beside them
  both        the same 100k records as Python json.dumps text (", " and ": " spacing) and as
              compact structuredContent (23 MB), as a Python server returning json.dumps(data)
              beside the structured data sends them
  text        {"items": [850k records], "nextCursor": null} as json.dumps text (114 MB)
  fastmcp     FastMCP's compact structuredContent {"result": [...]} beside the same list as
              json.dumps text, with _meta.fastmcp.wrap_result
"""

import json
import os
import sys

OUT = sys.argv[1]
SCALE = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
ONLY = set(sys.argv[3:])


def record(i):
    return {
        "id": i,
        "name": "record number %d" % i,
        "email": "u%d@example.com" % i,
        "score": i % 1000,
        "active": i % 3 != 0,
        "tags": ["x"],
    }


def tool(i):
    return {
        "name": "tool_%05d" % i,
        "description": "Tool number %d: reads a record and returns it as JSON." % i,
        "inputSchema": {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "description": "the record's id"},
                "fields": {"type": "array", "items": {"type": "string"}},
                "mode": {"type": "string", "enum": ["fast", "full"]},
            },
            "required": ["id"],
        },
    }


def compact(v):
    return json.dumps(v, separators=(",", ":"))


def write(shape, name, lines):
    d = os.path.join(OUT, shape)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        for line in lines:
            f.write(line)
            f.write("\n")


def tools_pages(total, per_page):
    pages = []
    for start in range(0, total, per_page):
        end = min(start + per_page, total)
        page = {"tools": [tool(i) for i in range(start, end)]}
        if end < total:
            page["nextCursor"] = str(len(pages) + 1)
        pages.append(compact(page))
    return pages


ECHO = [compact({"tools": [{"name": "echo", "description": "answers a recorded reply", "inputSchema": {"type": "object", "properties": {"mb": {"type": "number"}}}}]})]


def call_shape(shape, result):
    write(shape, "tools.jsonl", ECHO)
    write(shape, "call.json", [compact(result)])


def n(count):
    return max(1, int(count * SCALE))


def main():
    def wanted(shape):
        return not ONLY or shape in ONLY

    if wanted("tools"):
        write("tools", "tools.jsonl", tools_pages(n(1234), max(1, n(100))))
    if wanted("tools20k"):
        write("tools20k", "tools.jsonl", tools_pages(n(20000), max(1, n(1000))))
    records = [record(i) for i in range(n(100_000))] if any(map(wanted, ("structured", "both", "fastmcp"))) else []
    if wanted("structured"):
        call_shape("structured", {"content": [{"type": "text", "text": "%d records" % len(records)}], "structuredContent": {"records": records, "total": len(records)}})
    data = {"records": records, "total": len(records)}
    if wanted("both"):
        call_shape("both", {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data})
    if wanted("fastmcp"):
        call_shape(
            "fastmcp",
            {"content": [{"type": "text", "text": json.dumps(records)}], "structuredContent": {"result": records}, "_meta": {"fastmcp": {"wrap_result": True}}},
        )
    if wanted("text"):
        big = {"items": [record(i) for i in range(n(850_000))], "nextCursor": None}
        call_shape("text", {"content": [{"type": "text", "text": json.dumps(big)}]})

main()
