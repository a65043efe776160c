package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// txEvent is a PublicTransactionEvent: the hashes and contents of the
// accounts a transaction created and spent. Older system programs log it
// through the Noop program; current ones are reassembled from instruction
// data into the same shape.
type txEvent struct {
	inputHashes  []Hash
	outputHashes []Hash
	outputs      []packedOutput
	leafIndices  []uint32
	seqs         []TreeSeq
	// pubkeys are the accounts the outputs' tree indexes point into.
	pubkeys []solana.Pubkey
}

// decodeNoopEvent decodes a borsh PublicTransactionEvent. Recent programs
// append an ata_owners vector; Photon accepts the event with or without it
// and trailing bytes are ignored either way, so only the common prefix is
// read.
func decodeNoopEvent(data []byte) (*txEvent, error) {
	r := newReader(data)
	ev := &txEvent{}
	var err error
	if ev.inputHashes, err = readHashes(r, "input account hashes"); err != nil {
		return nil, err
	}
	if ev.outputHashes, err = readHashes(r, "output account hashes"); err != nil {
		return nil, err
	}
	if ev.outputs, err = readPackedOutputs(r, "output accounts"); err != nil {
		return nil, err
	}
	n, err := r.vecLen("output leaf indices", 4)
	if err != nil {
		return nil, err
	}
	ev.leafIndices = make([]uint32, n)
	for i := range ev.leafIndices {
		if ev.leafIndices[i], err = r.u32("output leaf index"); err != nil {
			return nil, err
		}
	}
	if n, err = r.vecLen("sequence numbers", 40); err != nil {
		return nil, err
	}
	ev.seqs = make([]TreeSeq, n)
	for i := range ev.seqs {
		if ev.seqs[i].Tree, err = r.pubkey("sequence number tree"); err != nil {
			return nil, err
		}
		if ev.seqs[i].Seq, err = r.u64("sequence number"); err != nil {
			return nil, err
		}
	}
	if _, err = r.optU64("relay fee"); err != nil {
		return nil, err
	}
	if _, err = r.boolean("is compress"); err != nil {
		return nil, err
	}
	if _, err = r.optU64("compress or decompress lamports"); err != nil {
		return nil, err
	}
	if n, err = r.vecLen("pubkey array", 32); err != nil {
		return nil, err
	}
	ev.pubkeys = make([]solana.Pubkey, n)
	for i := range ev.pubkeys {
		if ev.pubkeys[i], err = r.pubkey("pubkey array"); err != nil {
			return nil, err
		}
	}
	some, err := r.option("message")
	if err != nil {
		return nil, err
	}
	if some {
		if _, err = r.byteVec("message"); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

func readHashes(r *reader, what string) ([]Hash, error) {
	n, err := r.vecLen(what, 32)
	if err != nil {
		return nil, err
	}
	out := make([]Hash, n)
	for i := range out {
		if out[i], err = r.hash(what); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", what, i, err)
		}
	}
	return out, nil
}
