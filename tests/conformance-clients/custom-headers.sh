#!/bin/sh
# http-custom-headers as a user does it: the two annotated tools called with the arguments the
# scenario names (the second with a null, sent as given with --no-validate); mcplens mirrors the
# x-mcp-header parameters into Mcp-Param-* headers.
# Usage: custom-headers.sh MCPLENS_BIN URL
bin="$1"; url="$2"
"$bin" call test_custom_headers --url "$url" --args '{"region":"us-west1","priority":42,"verbose":false,"debug":true,"empty_val":"","method_val":"test-method","float_val":3.14159,"non_ascii_val":"Hello, 世界","whitespace_val":" padded ","leading_space_val":" us-west1","trailing_space_val":"us-west1 ","internal_space_val":"us west 1","control_char_val":"line1\nline2","crlf_val":"line1\r\nline2","tab_val":"\tindented","query":"SELECT * FROM users"}' >/dev/null || exit 1
exec "$bin" call test_custom_headers_null --no-validate --url "$url" --args '{"region":"us-east1","priority":1,"verbose":null,"query":"SELECT 1"}' >/dev/null
