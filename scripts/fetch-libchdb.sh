#!/usr/bin/env bash
# Puts libchdb.so, the embedded ClickHouse engine, in a per-version cache
# directory: from its pinned npm package, checked against a pinned sha256.
# Idempotent: a verified copy is recognised from its stamp without re-hashing.
#
#   DASCH_CHDB_DIR  cache directory (default ~/.cache/dasch/chdb-VERSION)
#
# DASCH_CHDB_SHA256_TEST overrides the expected sum; it exists only so the
# mismatch path can be tested and must not be set otherwise.
set -euo pipefail

CHDB_PKG="@chdb/lib-linux-x64-gnu"
CHDB_VERSION="26.7.3-stable.1"
CHDB_SHA256="36ad4e999882821ef13cf2d0f52c93f48e6ee1b4498b35a201c23ce4b8d15bf5"
want_sum="${DASCH_CHDB_SHA256_TEST:-$CHDB_SHA256}"

die() {
	echo "fetch-libchdb: $*" >&2
	exit 1
}

if [[ -z "${DASCH_CHDB_DIR:-}" ]]; then
	[[ -n "${HOME:-}" ]] || die "HOME is not set: set DASCH_CHDB_DIR to a cache directory"
	DASCH_CHDB_DIR="$HOME/.cache/dasch/chdb-$CHDB_VERSION"
fi
dir="$DASCH_CHDB_DIR"
lib="$dir/libchdb.so"
stamp="$lib.sha256"

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) ;;
*) die "$CHDB_PKG is built for Linux x86_64 only, not $(uname -s)/$(uname -m)" ;;
esac

mkdir -p "$dir" || die "cannot create $dir"

# One fetch at a time per cache directory; a second caller waits and then
# finds the stamp.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$dir/.fetch.lock"
	flock 9
fi

# file_id is what the stamp records besides the sum: if size, mtime or
# ctime change, the file is no longer the one that was verified (npm
# gives every file the same mtime, and ctime cannot be set back).
file_id() {
	stat -c '%s %Y %Z' "$1"
}

sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

write_stamp() {
	printf '%s %s\n' "$want_sum" "$(file_id "$lib")" >"$stamp.tmp"
	mv -f "$stamp.tmp" "$stamp"
}

if [[ -f "$lib" ]]; then
	if [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "$want_sum $(file_id "$lib")" ]]; then
		echo "libchdb.so $CHDB_VERSION is in place: $lib"
		exit 0
	fi
	# No stamp, or it does not match the file: hash once to decide.
	if [[ "$(sha256_of "$lib")" == "$want_sum" ]]; then
		write_stamp
		echo "libchdb.so $CHDB_VERSION re-verified: $lib"
		exit 0
	fi
	echo "fetch-libchdb: $lib does not match the pinned sha256; fetching it again" >&2
	rm -f "$lib" "$stamp"
fi

command -v npm >/dev/null 2>&1 ||
	die "npm is required to fetch the embedded ClickHouse engine: apt-get install npm"
for tool in tar sha256sum stat; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
done

# The temp dir sits beside the target so the final mv is an atomic rename.
tmp="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "$CHDB_PKG@$CHDB_VERSION" >/dev/null) ||
	die "npm pack $CHDB_PKG@$CHDB_VERSION failed"
tgz=("$tmp"/*.tgz)
[[ -f "${tgz[0]}" ]] || die "npm pack $CHDB_PKG@$CHDB_VERSION produced no tarball"
tar -xzf "${tgz[0]}" -C "$tmp" package/libchdb.so ||
	die "$CHDB_PKG@$CHDB_VERSION has no package/libchdb.so"
rm -f "${tgz[0]}"

got_sum="$(sha256_of "$tmp/package/libchdb.so")"
if [[ "$got_sum" != "$want_sum" ]]; then
	rm -f "$tmp/package/libchdb.so"
	die "sha256 mismatch for libchdb.so from $CHDB_PKG@$CHDB_VERSION: got $got_sum, want $want_sum; nothing was installed"
fi

mv -f "$tmp/package/libchdb.so" "$lib"
write_stamp
echo "libchdb.so $CHDB_VERSION downloaded and verified: $lib"
