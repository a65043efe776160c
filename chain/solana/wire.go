package solana

import (
	"errors"
	"fmt"
)

// wireTx is a transaction in its binary wire form (legacy or v0), before the
// loaded addresses of its lookup tables are known.
type wireTx struct {
	sigs      []Signature
	version   int
	header    Header
	keys      []Pubkey
	blockhash Hash
	ins       []Instruction
	lookups   []lookup
}

type lookup struct {
	table              Pubkey
	writable, readonly []uint8
}

// loadedCount is how many addresses the lookup tables contribute.
func (w *wireTx) loadedCount() int {
	n := 0
	for _, l := range w.lookups {
		n += len(l.writable) + len(l.readonly)
	}
	return n
}

var errShort = errors.New("unexpected end of data")

// wireReader reads the wire format; byte slices it returns alias its input.
type wireReader struct {
	b   []byte
	off int
}

func (r *wireReader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errShort
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *wireReader) bytes(n int) ([]byte, error) {
	if n < 0 || len(r.b)-r.off < n {
		return nil, errShort
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s, nil
}

// compactU16 reads Solana's "shortvec" length: 7 bits per byte, at most 3 bytes.
func (r *wireReader) compactU16() (int, error) {
	v := 0
	for i := 0; i < 3; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if v > 0xffff {
				return 0, fmt.Errorf("compact-u16 %d overflows", v)
			}
			return v, nil
		}
	}
	return 0, errors.New("compact-u16 longer than 3 bytes")
}

func (r *wireReader) vec() ([]byte, error) {
	n, err := r.compactU16()
	if err != nil {
		return nil, err
	}
	return r.bytes(n)
}

// decodeWire parses a serialized transaction.
func decodeWire(b []byte) (*wireTx, error) {
	r := &wireReader{b: b}
	w := &wireTx{version: -1}
	n, err := r.compactU16()
	if err != nil {
		return nil, fmt.Errorf("signature count: %w", err)
	}
	w.sigs = make([]Signature, n)
	for i := range w.sigs {
		s, err := r.bytes(64)
		if err != nil {
			return nil, fmt.Errorf("signature %d: %w", i, err)
		}
		copy(w.sigs[i][:], s)
	}
	first, err := r.byte()
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	// A set high bit marks a versioned message; legacy messages start with
	// the header, whose first byte (signer count) is below 128.
	if first&0x80 != 0 {
		w.version = int(first & 0x7f)
		if w.version != 0 {
			return nil, fmt.Errorf("unsupported message version %d", w.version)
		}
		if first, err = r.byte(); err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
	}
	h, err := r.bytes(2)
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	w.header = Header{NumRequiredSignatures: first, NumReadonlySignedAccounts: h[0], NumReadonlyUnsignedAccounts: h[1]}
	if n, err = r.compactU16(); err != nil {
		return nil, fmt.Errorf("account key count: %w", err)
	}
	w.keys = make([]Pubkey, n)
	for i := range w.keys {
		k, err := r.bytes(32)
		if err != nil {
			return nil, fmt.Errorf("account key %d: %w", i, err)
		}
		copy(w.keys[i][:], k)
	}
	bh, err := r.bytes(32)
	if err != nil {
		return nil, fmt.Errorf("recent blockhash: %w", err)
	}
	copy(w.blockhash[:], bh)
	if n, err = r.compactU16(); err != nil {
		return nil, fmt.Errorf("instruction count: %w", err)
	}
	w.ins = make([]Instruction, n)
	for i := range w.ins {
		in := &w.ins[i]
		if in.ProgramIndex, err = r.byte(); err != nil {
			return nil, errAt("instruction", i, err)
		}
		if in.Accounts, err = r.vec(); err != nil {
			return nil, errAt("instruction", i, fmt.Errorf("accounts: %w", err))
		}
		if in.Data, err = r.vec(); err != nil {
			return nil, errAt("instruction", i, fmt.Errorf("data: %w", err))
		}
	}
	if w.version >= 0 {
		if n, err = r.compactU16(); err != nil {
			return nil, fmt.Errorf("lookup count: %w", err)
		}
		w.lookups = make([]lookup, n)
		for i := range w.lookups {
			l := &w.lookups[i]
			k, err := r.bytes(32)
			if err != nil {
				return nil, errAt("lookup", i, err)
			}
			copy(l.table[:], k)
			if l.writable, err = r.vec(); err != nil {
				return nil, errAt("lookup", i, fmt.Errorf("writable: %w", err))
			}
			if l.readonly, err = r.vec(); err != nil {
				return nil, errAt("lookup", i, fmt.Errorf("readonly: %w", err))
			}
		}
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("%d trailing bytes after the message", len(b)-r.off)
	}
	return w, nil
}
