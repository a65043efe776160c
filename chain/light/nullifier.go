package light

import "encoding/binary"

// nullifierOf is what the account-compression program inserts into a V2
// input queue for a spent account: Poseidon(account hash, leaf index, tx
// hash), with the leaf index as a 32-byte big-endian number. It is not in
// the transaction, so an indexer has to derive it to follow later batch
// nullifications.
func nullifierOf(accountHash Hash, leafIndex uint32, txHash Hash) (Hash, error) {
	var idx Hash
	binary.BigEndian.PutUint64(idx[24:], uint64(leafIndex))
	return hash3.hash(accountHash, idx, txHash)
}
