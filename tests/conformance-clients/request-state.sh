#!/bin/sh
# sep-2322-client-request-state as a user does it: each of the scenario's tools called in turn,
# its elicitations accepted (mcplens answers an input_required result and retries with the
# request state it was given, and only on that request).
# Usage: request-state.sh MCPLENS_BIN URL
bin="$1"; url="$2"
for tool in test_mrtr_echo_state test_mrtr_unrelated test_mrtr_no_state test_mrtr_no_result_type; do
  "$bin" call "$tool" --elicitation accept --url "$url" >/dev/null || exit 1
done
