#!/usr/bin/env bash
# From a fresh clone to a serving API: migrate the store, ingest the demo
# data, create an API key, print a request to try, then serve.
#
#   STORE   store URL (default embedded:./data)
#   LISTEN  address to serve on (default 127.0.0.1:8899)
#   DASCH   the binary (default bin/dasch, built by `make build`)
#   RPC     a Solana JSON-RPC node to follow instead of the demo data:
#           the server ingests from it as it serves (use a store of its
#           own: one holding the demo's old slot would backfill from it)
#   FROM    with RPC, the first slot (default: after the indexed one, or
#           the node's newest on an empty store; latest: the newest)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

STORE="${STORE:-embedded:./data}"
LISTEN="${LISTEN:-127.0.0.1:8899}"
DASCH="${DASCH:-bin/dasch}"

die() {
	echo "run-demo: $*" >&2
	exit 1
}

[[ -x "$DASCH" ]] || die "$DASCH not found: run make build"

RPC="${RPC:-}"
FROM="${FROM:-}"
[[ -z "$FROM" || -n "$RPC" ]] || die "FROM applies with RPC only"

"$DASCH" migrate --store "$STORE"
follow=()
if [[ -n "$RPC" ]]; then
	follow=(--ingest "rpc:$RPC")
	[[ -z "$FROM" ]] || follow+=(--from "$FROM")
else
	"$DASCH" ingest --store "$STORE" --source files:testdata/demo
fi
# keys create prints the key as its last line.
key="$("$DASCH" keys create --store "$STORE" --project demo | tail -n1)"
[[ -n "$key" ]] || die "keys create printed no key"

# A wildcard or empty host is not something curl can reach; loopback is.
host="$LISTEN"
case "$host" in
:*) host="127.0.0.1$host" ;;
0.0.0.0:*) host="127.0.0.1:${host#0.0.0.0:}" ;;
\[::\]:*) host="[::1]:${host#\[::\]:}" ;;
esac

cat <<MSG

API key for project demo: $key
Try it from another terminal:

  curl -s 'http://$host/?api-key=$key' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}'

MSG
[[ -z "$RPC" ]] || echo "Following $RPC: answers move as its blocks are indexed."
exec "$DASCH" serve --store "$STORE" --listen "$LISTEN" "${follow[@]}"
