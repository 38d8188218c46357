#!/bin/sh
# A "browser" for tests whose user reads the consent page for a while before approving.
sleep 7
exec curl -sSL -o /dev/null --max-time 30 "$1"
