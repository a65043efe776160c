#!/usr/bin/env bash
# From a fresh clone to a serving API: migrate the store, ingest the demo
# data, create an API key, print a request to try, then serve.
#
#   STORE   store URL (default embedded:./data)
#   LISTEN  address to serve on (default 127.0.0.1:8899)
#   DASCH   the binary (default bin/dasch, built by `make build`)
#   RPC     a Solana JSON-RPC node to follow instead of the demo data:
#           the server ingests from it as it serves (use a store of its
#           own: one holding the demo's old slot would backfill from it).
#           Without FROM, an empty store first lists the asset programs'
#           accounts (--bootstrap), then follows from the node's newest
#           slot; a store indexed already goes on after its slot
#   FROM    with RPC, the first slot instead (no listing; latest: the
#           newest)
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
	if [[ -n "$FROM" ]]; then
		follow+=(--from "$FROM")
	else
		follow+=(--bootstrap)
	fi
else
	"$DASCH" ingest --store "$STORE" --source files:testdata/demo
	# Digital assets from the DAS corpus: a pNFT with its holder, an MPL
	# Core collection with its assets, an NFT (with an inscription), a
	# fungible, a Core asset and a compressed NFT (its transactions).
	for d in get_asset_by_owner_with_show_fungible mpl_core_get_assets_by_group \
		get_asset_with_show_inscription_scenario_1 get_asset_with_show_fungible_scenario_3 \
		mpl_core_get_asset_with_pubkey_in_rule_set; do
		"$DASCH" ingest --store "$STORE" --source "files:testdata/das/accounts/$d"
	done
	# The last ingest fetches the off-chain documents the assets name,
	# from the copies shipped in testdata/demo/metadata: no network.
	"$DASCH" ingest --store "$STORE" --source files:testdata/das/transactions/mint_transfer_noop \
		--metadata-fetch on --metadata-mirror testdata/demo/metadata
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
if [[ -z "$RPC" ]]; then
	url="http://$host/?api-key=$key"
	cat <<MSG
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getCompressedMintTokenHolders","params":{"mint":"2U35cKS3Cj2xs5EBdByXYU7LaKAitqjSZc1Jnvu4iPf4"}}'
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":"AH6wj7T8Ke5nbukjtcobjjs1CDWUcQxndtnLkKAdrSrM"}}'
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getAssetsByOwner","params":{"ownerAddress":"GqPnSDXwp4JFtKS7YZ2HERgBbYLKpKVYy9TpVunzLRa9"}}'
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getAssetBatch","params":{"ids":["9FkS3kZV4MoGps14tUSp7iVnizGbxcK4bDEhSoF5oYAZ","AH6wj7T8Ke5nbukjtcobjjs1CDWUcQxndtnLkKAdrSrM","2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo","8H71x9Bhh9E9o3MZK4QnVC5MRFn1WZRf2Mc9w2wEbG5V","7myVr8fEG52mZ3jAwgz88iQRWsuzuVR2nfH8n2AXnBxE"]}}'
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getAssetsByGroup","params":{"groupKey":"collection","groupValue":"JChzyyp1CnNz56tJLteQ5BsbngmWQ3JwcxLZrmuQA5b7","options":{"showGrandTotal":true}}}'
  curl -s '$url' -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"searchAssets","params":{"ownerAddress":"APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7","interface":"MplCoreAsset"}}'
  curl -s 'http://$host/v1/parsed-events/transactions?api-key=$key' -H 'Content-Type: application/json' -d '{"transactions":["2X5GnXvBpjWBMj3Jqe1p3aQJ2QK56sY2Eu1kxK871aJkvzpQ4cSh41ggpsxg8HNAcJp5b2E6GWkonGrumTbBPv2"]}'
  curl -s 'http://$host/v1/parsed-events/transaction-history?api-key=$key' -H 'Content-Type: application/json' -d '{"address":"CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX","limit":10}'
MSG
fi
echo
[[ -z "$RPC" ]] || echo "Following $RPC: answers move as its blocks are indexed."
exec "$DASCH" serve --store "$STORE" --listen "$LISTEN" "${follow[@]}"
