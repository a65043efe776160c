// Package compressed reads the ZK-compressed state that the ingest side
// derives: one function per access path, each a single keyset query on the
// table ordered for it, so a page costs the same wherever it starts.
//
// Keys go into SQL as FixedString params holding the raw bytes, never as
// text. Lists come back in the order the API promises (byte order of the raw
// keys), and every list function takes the cursor of the previous page as
// the last row it returned.
package compressed
