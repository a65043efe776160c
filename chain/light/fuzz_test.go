package light

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// fuzzTemplates are real transactions covering every decoder: the Noop
// event, invoke and the CPI variants with InsertIntoQueues, addresses,
// forester nullify / address-update / batch events.
var fuzzTemplates = []struct{ set, sig string }{
	{"e2e_mint_and_transfer_transactions", e2eTransferSig},
	{"batch_append_spent", v2SpendSig},
	{"nullfiier_and_address_queue_transactions", "3pmqSXTSzdbbgmp63v1Dz1NGM5Z187wisdsonL8gDcPAimfFdnCB3H5agtcHg1fmhkkWk4PgGTjS2GjzQPknuGcg"},
	{"nullfiier_and_address_queue_transactions", "3qSTxmtPen9HtjEhKGpzYdLvRqEQaxSeLaGeav2GC5c2PU8ZEVq84HSeMCxN3jrt6NWB5ZoWPAGn1dv27y3zyG75"},
	{"four_cpi_events", "fGp9ArtJBK7P4XHbd9ygU3mwbRubzzbh2Rs5sebx7VTdc8VvxjYor17HGVUHFCE2Y8mnorqK2fie6UJwVgzUJ3E"},
	{"index_compress_and_close_with_tlv", "5rqnqJKFbBDwbLeX5Dv2q9LQNQUJWMP4wMRmbHoCA5F13nRvWFU8XRVzZKaZV1meXtmfbqF5uvaTndXMaxpQ4tBB"},
	{"batched_address_transactions", "21pvQ3ReAfVNJjpx3zk1XJtoDxBuTBUm2vQZib2TEbvoPTrC6oguvFEUcgXxV16VDqEMMyZP4xm9KJWMzPss1u74"},
	{"batched_address_transactions", "33QznkvxB6Cnc7z4SVZXY3YVPAifDnFrp5US5Ssn8f2WXRDaC49TNTY2aqbPtMLsPApHgbgnayyPNPumkzkT8mLk"},
	{"batched_tree_transactions", "28ffXujvrFzVSB2iNt2wpetvqNK6fNkf1nMucasLyqgW58AdHfeAz7GqJ71SGwUsoyzyuUrpny1evfN1VGs3DaBg"},
}

// fuzzSlot names one instruction of one template: the outer instruction
// outer when inner is negative, else inner instruction inner.
type fuzzSlot struct {
	tx    int
	outer int
	inner int
}

// FuzzParse replaces the data of one instruction of a real Light
// transaction with arbitrary bytes: Parse may fail, but never panic.
func FuzzParse(f *testing.F) {
	trees := testTrees(f)
	var txs []*solana.Tx
	var slots []fuzzSlot
	for i, tmpl := range fuzzTemplates {
		tx := loadTx(f, tmpl.set, tmpl.sig)
		txs = append(txs, tx)
		for j := range tx.Instructions {
			slots = append(slots, fuzzSlot{tx: i, outer: j, inner: -1})
			f.Add(uint16(len(slots)-1), tx.Instructions[j].Data)
		}
		for j := range tx.Inner {
			slots = append(slots, fuzzSlot{tx: i, inner: j})
			f.Add(uint16(len(slots)-1), tx.Inner[j].Data)
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		s := slots[int(which)%len(slots)]
		tx := cloneTx(txs[s.tx])
		if s.inner < 0 {
			tx.Instructions[s.outer].Data = data
		} else {
			tx.Inner[s.inner].Data = data
		}
		ev, err := Parse(tx, trees)
		if err == nil && ev == nil {
			t.Fatal("nil events without error")
		}
	})
}
