"""A FastMCP server (fastmcp 4) whose tools take nested objects and arrays of objects: the forms
a user fills with header rows (`address*:`, `[0]*:`) between the text fields.

Usage: fastmcp_forms.py   (stdio)
"""

from pydantic import BaseModel

from fastmcp import FastMCP

mcp = FastMCP("fastmcp-forms")


class Address(BaseModel):
    street: str
    city: str
    zip: str | None = None


class Person(BaseModel):
    name: str
    address: Address


@mcp.tool
def create_person(name: str, address: Address, tags: list[str] | None = None) -> dict:
    """Creates a person (pretends to) and returns what it received."""
    return {"name": name, "address": address.model_dump(), "tags": tags or []}


@mcp.tool
def create_people(people: list[Person]) -> dict:
    """Creates several people (pretends to)."""
    return {"created": [p.name for p in people]}


if __name__ == "__main__":
    mcp.run(show_banner=False)
