package rpcnode

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Chain is a scripted chain: transactions by slot and account writes by
// slot. Every account write is also a transaction of the account's owner
// program at that slot that writes the account, as on a real chain, so a
// source that reads back what a block wrote finds it.
type Chain struct {
	txs     map[uint64][][]byte // block entries: {transaction, meta, version}
	times   map[uint64]*int64
	touched map[uint64]map[solana.Pubkey][]solana.Pubkey // slot → program → written accounts
	writes  []chainWrite
	seen    map[solana.Signature]bool
}

type chainWrite struct {
	slot   uint64
	pubkey solana.Pubkey
	acc    *Account
}

// NewChain returns an empty chain.
func NewChain() *Chain {
	return &Chain{txs: map[uint64][][]byte{}, times: map[uint64]*int64{},
		touched: map[uint64]map[solana.Pubkey][]solana.Pubkey{}, seen: map[solana.Signature]bool{}}
}

// AddFiles adds fixture files: getTransaction results go into the block
// of their slot (a signature seen before is skipped), account snapshots
// (pubkey, owner, lamports, data, slot) are written at their slot.
func (c *Chain) AddFiles(paths ...string) error {
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		shape, _, err := solana.Probe(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		switch shape {
		case solana.ShapeAccount:
			a, err := solana.ParseAccount(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			c.Write(a.Slot, a.Pubkey, &Account{Owner: a.Owner, Lamports: a.Lamports, Data: a.Data, Executable: a.Executable})
		case solana.ShapeTx:
			if err := c.AddTransaction(raw); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		default:
			return fmt.Errorf("%s: neither an account nor a transaction", p)
		}
	}
	return nil
}

// AddTransaction adds a getTransaction result to its slot's block.
func (c *Chain) AddTransaction(raw []byte) error {
	var tx txFixture
	if err := json.Unmarshal(raw, &tx); err != nil || len(tx.Transaction) == 0 {
		return fmt.Errorf("not a getTransaction result")
	}
	parsed, err := solana.ParseTx(raw)
	if err != nil {
		return err
	}
	if c.seen[parsed.Signature()] {
		return nil
	}
	c.seen[parsed.Signature()] = true
	version := tx.Version
	if len(version) == 0 {
		version = json.RawMessage("null")
	}
	c.txs[tx.Slot] = append(c.txs[tx.Slot], fmt.Appendf(nil, `{"meta":%s,"transaction":%s,"version":%s}`, tx.Meta, tx.Transaction, version))
	if tx.BlockTime != nil {
		c.times[tx.Slot] = tx.BlockTime
	}
	return nil
}

// Write makes pubkey hold acc from slot on (nil closes it), written by a
// transaction of acc's owner (of the Token program for a close) at slot.
func (c *Chain) Write(slot uint64, pubkey solana.Pubkey, acc *Account) {
	program := tokenProgram
	if acc != nil {
		program = acc.Owner
	}
	c.WriteBy(slot, pubkey, acc, program)
}

// WriteBy is Write through program.
func (c *Chain) WriteBy(slot uint64, pubkey solana.Pubkey, acc *Account, program solana.Pubkey) {
	c.writes = append(c.writes, chainWrite{slot, pubkey, acc})
	if c.touched[slot] == nil {
		c.touched[slot] = map[solana.Pubkey][]solana.Pubkey{}
	}
	if !slices.Contains(c.touched[slot][program], pubkey) {
		c.touched[slot][program] = append(c.touched[slot][program], pubkey)
	}
}

var tokenProgram = solana.MustParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")

// Slots lists the slots with a block, in order.
func (c *Chain) Slots() []uint64 {
	var out []uint64
	for s := range c.txs {
		out = append(out, s)
	}
	for s := range c.touched {
		if _, ok := c.txs[s]; !ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// Blocks builds the getBlock result of every slot with a block: its
// transactions, then one writing the slot's accounts per program.
func (c *Chain) Blocks() map[uint64][]byte {
	out := map[uint64][]byte{}
	slots := c.Slots()
	for i, s := range slots {
		parent := uint64(0)
		if i > 0 {
			parent = slots[i-1]
		} else if s > 0 {
			parent = s - 1
		}
		var b bytes.Buffer
		bt := "null"
		if t := c.times[s]; t != nil {
			bt = strconv.FormatInt(*t, 10)
		}
		fmt.Fprintf(&b, `{"blockHeight":%d,"blockTime":%s,"blockhash":%q,"parentSlot":%d,"previousBlockhash":%q,"transactions":[`,
			s, bt, hashOf(s), parent, hashOf(parent))
		entries := slices.Clone(c.txs[s])
		programs := make([]solana.Pubkey, 0, len(c.touched[s]))
		for p := range c.touched[s] {
			programs = append(programs, p)
		}
		slices.SortFunc(programs, func(a, b solana.Pubkey) int { return bytes.Compare(a[:], b[:]) })
		for _, p := range programs {
			keys := c.touched[s][p]
			// An instruction names at most 255 accounts.
			for j := 0; j < len(keys); j += 64 {
				entries = append(entries, touchTx(s, p, keys[j:min(j+64, len(keys))], len(entries)))
			}
		}
		for j, e := range entries {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(e)
		}
		b.WriteString(`]}`)
		out[s] = b.Bytes()
	}
	return out
}

// Serve starts a node serving the chain's blocks and account states.
func (c *Chain) Serve() *Node {
	n := New(c.Blocks())
	for _, w := range c.writes {
		n.SetAccount(w.slot, w.pubkey, w.acc)
	}
	return n
}

// touchTx is a successful legacy transaction at slot in which program
// writes keys: a fee payer, the keys (writable, unsigned) and the
// program (read-only), one instruction naming every key.
func touchTx(slot uint64, program solana.Pubkey, keys []solana.Pubkey, n int) []byte {
	seed := sha256.Sum256(fmt.Appendf(nil, "touch %d %s %d", slot, program, n))
	seed2 := sha256.Sum256(seed[:])
	sig := base58.Encode(append(seed[:], seed2[:]...))
	payer := solana.Pubkey(sha256.Sum256(append([]byte("payer"), seed[:]...)))
	accountKeys := []string{payer.String()}
	idx := make([]int, len(keys))
	for i, k := range keys {
		accountKeys = append(accountKeys, k.String())
		idx[i] = i + 1
	}
	accountKeys = append(accountKeys, program.String())
	msg, _ := json.Marshal(map[string]any{
		"header":          map[string]int{"numRequiredSignatures": 1, "numReadonlySignedAccounts": 0, "numReadonlyUnsignedAccounts": 1},
		"accountKeys":     accountKeys,
		"recentBlockhash": hashOf(slot),
		"instructions":    []map[string]any{{"programIdIndex": len(keys) + 1, "accounts": idx, "data": base58.Encode([]byte{0xff})}},
	})
	return fmt.Appendf(nil, `{"meta":{"err":null,"fee":5000,"innerInstructions":[],"logMessages":[],`+
		`"loadedAddresses":{"writable":[],"readonly":[]}},"transaction":{"signatures":[%q],"message":%s},"version":"legacy"}`, sig, msg)
}
