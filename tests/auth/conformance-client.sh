#!/bin/sh
# The conformance suite's auth client: mcplens as a user would run it. The suite appends the
# server URL; MCP_CONFORMANCE_CONTEXT carries the credentials a user would pass as flags
# (a pre-registered client, or client credentials for CI).
# Usage: conformance-client.sh MCPLENS_BIN URL
bin="$1"; url="$2"
set -- call test-tool --client-metadata-url https://conformance-test.local/client-metadata.json
ctx="${MCP_CONFORMANCE_CONTEXT:-}"
field() { printf '%s' "$ctx" | sed -n "s/.*\"$1\" *: *\"\([^\"]*\)\".*/\1/p"; }
id=$(field client_id); secret=$(field client_secret)
if [ -n "$id" ]; then set -- "$@" --client-id "$id"; fi
if [ -n "$secret" ]; then export MCPLENS_CLIENT_SECRET="$secret"; fi
# private_key_jwt: the key a user keeps in a PEM file.
pem=$(field private_key_pem)
if [ -n "$pem" ]; then
  key=$(mktemp); trap 'rm -f "$key"' EXIT
  printf '%b' "$pem" > "$key"
  set -- "$@" --client-key "$key"
fi
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  auth/client-credentials-*) set -- "$@" --client-credentials ;;
esac
"$bin" "$@" --url "$url"
