#!/bin/sh
# http-invalid-tool-headers as a user does it: a tool whose x-mcp-header annotations break the
# rules is refused by mcplens (exit 2, nothing sent), the valid tool beside it is called.
# Usage: invalid-tool-headers.sh MCPLENS_BIN URL
bin="$1"; url="$2"
for tool in invalid_empty_header invalid_space_in_name invalid_duplicate_diff_case invalid_object_header; do
  "$bin" call "$tool" --no-validate --url "$url" >/dev/null 2>&1
  [ $? -eq 2 ] || { echo "$tool was not refused" >&2; exit 1; }
done
exec "$bin" call valid_tool --arg region=us-west1 --url "$url"
