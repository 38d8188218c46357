"""Replica of qdrant/mcp-server-qdrant's tools (src/mcp_server_qdrant/mcp_server.py @399b8e1a): the
handlers and format_entry as written, the Qdrant search replaced by canned entries."""
import json
from typing import Annotated, Any
from fastmcp import FastMCP, Context
from pydantic import Field, BaseModel

class Entry(BaseModel):
    content: str
    metadata: dict[str, Any] | None = None

ENTRIES = [
    Entry(content="Use `cargo nextest run` to run the test suite faster", metadata={"source": "wiki", "team": "platform"}),
    Entry(content="Release builds need `--locked` in CI", metadata={"source": "slack"}),
    Entry(content="The staging database is reset every Sunday", metadata=None),
]

mcp = FastMCP("mcp-server-qdrant")

def format_entry(entry: Entry) -> str:
    entry_metadata = json.dumps(entry.metadata) if entry.metadata else ""
    return f"<entry><content>{entry.content}</content><metadata>{entry_metadata}</metadata></entry>"

@mcp.tool(name="qdrant-find")
async def find(ctx: Context,
               query: Annotated[str, Field(description="What to search for")],
               collection_name: Annotated[str, Field(description="The collection to search in")]) -> list[str]:
    entries = [] if query == "nothing" else ENTRIES
    if not entries:
        return [f"No information found for the query '{query}'"]
    content = [f"Results for the query '{query}'"]
    for entry in entries:
        content.append(format_entry(entry))
    return content

@mcp.tool(name="qdrant-store")
async def store(ctx: Context,
                information: Annotated[str, Field(description="Text to store")],
                collection_name: Annotated[str, Field(description="The collection to store the information in")],
                metadata: Annotated[dict[str, Any] | str | None, Field(description="Extra metadata stored along with memorised information. Any json is accepted.")] = None) -> str:
    if isinstance(metadata, str):
        try:
            metadata = None if metadata.lower().strip() in ['null', 'none', ''] else json.loads(metadata)
        except json.JSONDecodeError:
            raise ValueError(f"Invalid JSON in metadata: {metadata}")
    if collection_name:
        return f"Remembered: {information} in collection {collection_name}"
    return f"Remembered: {information}"

if __name__ == "__main__":
    mcp.run(show_banner=False)
