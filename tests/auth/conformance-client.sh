#!/bin/sh
# The conformance suite's auth client: mcplens as a user would run it. The suite appends the
# server URL; MCP_CONFORMANCE_CONTEXT carries the credentials a user would pass as flags
# (a pre-registered client, client credentials for CI, a workload's JWT, an enterprise ID token).
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
  key=$(mktemp); trap 'rm -f "$key" "$wif" "$idt"' EXIT
  printf '%b' "$pem" > "$key"
  set -- "$@" --client-key "$key"
fi
# Workload identity: the JWT the platform issued the workload, kept in a file.
jwt=$(field valid_jwt)
if [ -n "$jwt" ]; then
  wif=$(mktemp); trap 'rm -f "$key" "$wif" "$idt"' EXIT
  printf '%s' "$jwt" > "$wif"
  set -- "$@" --assertion-file "$wif"
fi
# Enterprise-managed authorization: the user's ID token from the enterprise IdP, and that IdP.
idtoken=$(field idp_id_token)
if [ -n "$idtoken" ]; then
  idt=$(mktemp); trap 'rm -f "$key" "$wif" "$idt"' EXIT
  printf '%s' "$idtoken" > "$idt"
  set -- "$@" --id-token "$idt" --idp "$(field idp_issuer)" --idp-client-id "$(field idp_client_id)"
fi
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  auth/client-credentials-*) set -- "$@" --client-credentials ;;
esac
"$bin" "$@" --url "$url"
