package assets

// Available reports whether this build generates kind k. Compressed NFTs
// need the Bubblegum event encoding of ingest/bubblegum, which is not part
// of the build yet.
func Available(k Kind) bool { return k < NumKinds && k != KindCNFT }
