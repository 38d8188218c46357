#!/bin/sh
# json-schema-2020-12-preservation as a user does it: list the tools as JSON, then call the echo
# tool with the focal tool's input schema exactly as it was listed.
# Usage: schema-echo.sh MCPLENS_BIN URL
bin="$1"; url="$2"
args=$("$bin" tools --json --url "$url" | python3 -c '
import json, sys
tools = json.load(sys.stdin)
focal = [t for t in tools if t.get("name") == "json_schema_2020_12_tool"][0]
print(json.dumps({"schema": focal["inputSchema"]}))') || exit 1
exec "$bin" call json_schema_echo --args "$args" --url "$url"
