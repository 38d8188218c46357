#!/bin/sh
# A "browser" for tests: follows the authorization server's redirects back to mcplens's
# loopback listener, as a user approving the login would.
exec curl -sSL -o /dev/null --max-time 30 "$1"
