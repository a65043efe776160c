package assets

// Available reports whether this build generates kind k. Compressed NFTs
// are left out until the bubblegum_events writer of ingest/assets (and its
// columns) is part of the build: the generator would otherwise write rows
// of a schema still changing.
func Available(k Kind) bool { return k < NumKinds && k != KindCNFT }
