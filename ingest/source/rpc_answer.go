package source

import (
	"bytes"
	"encoding/base64"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/klauspost/compress/zstd"

	"github.com/dasch-labs/dasch/chain/solana"
)

// maxAccountData is the largest account a Solana program may hold (10
// MiB): a longer one in an answer is malformed.
const maxAccountData = 10 << 20

// maxEntryBytes bounds one account of an answer as read into memory: the
// base64 of the largest account, with room for its other members.
const maxEntryBytes = 16 << 20

// nodeAccount is one account of an account answer, validated.
type nodeAccount struct {
	Owner      solana.Pubkey
	Lamports   uint64
	Data       []byte
	Executable bool
}

// nodeAccountJSON is an account as getMultipleAccounts and
// getProgramAccounts answer it; rentEpoch is left out (nodes print
// u64::MAX as a float that does not fit one).
type nodeAccountJSON struct {
	Lamports   *uint64         `json:"lamports"`
	Owner      *string         `json:"owner"`
	Data       json.RawMessage `json:"data"`
	Executable bool            `json:"executable"`
	Space      *uint64         `json:"space"`
}

// accountDecoder decodes the account data of answers. DecodeAll may be
// called concurrently; the memory limit refuses data inflating past the
// largest account.
type accountDecoder struct{ zstd *zstd.Decoder }

func newAccountDecoder() (*accountDecoder, error) {
	d, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxAccountData), zstd.WithDecoderConcurrency(0))
	if err != nil {
		return nil, fmt.Errorf("zstd decoder: %w", err)
	}
	return &accountDecoder{d}, nil
}

// unmarshal decodes raw into v with the pipeline's fast decoder, which
// panics on some malformed input: raw is checked first (unless valid says
// the standard decoder read it from the stream already), and a panic left
// is an error, never the process's.
func unmarshal(raw []byte, v any, valid bool) (err error) {
	if !valid && !stdjson.Valid(raw) {
		return errors.New("not JSON")
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("undecodable JSON (%v)", p)
		}
	}()
	return json.Unmarshal(raw, v)
}

// account validates one account of an answer: lamports, a base58 owner,
// data in base64 (or base64+zstd) no longer than an account can be, and
// as long as space says when the answer gives it.
func (d *accountDecoder) account(raw []byte) (*nodeAccount, error) { return d.accountOf(raw, false) }

// accountOf is account; valid is unmarshal's.
func (d *accountDecoder) accountOf(raw []byte, valid bool) (*nodeAccount, error) {
	var in nodeAccountJSON
	if err := unmarshal(raw, &in, valid); err != nil {
		return nil, fmt.Errorf("account: %w", err)
	}
	if in.Lamports == nil {
		return nil, errors.New("account: no lamports")
	}
	if in.Owner == nil {
		return nil, errors.New("account: no owner")
	}
	owner, err := solana.ParsePubkey(*in.Owner)
	if err != nil {
		return nil, fmt.Errorf("account owner: %w", err)
	}
	var enc [2]string
	if err := unmarshal(in.Data, &enc, true); err != nil {
		return nil, fmt.Errorf("account data: want [data, encoding]: %w", err)
	}
	if base64.StdEncoding.DecodedLen(len(enc[0])) > 2*maxAccountData {
		return nil, fmt.Errorf("account data: %d bytes of base64, more than an account holds", len(enc[0]))
	}
	data, err := base64.StdEncoding.DecodeString(enc[0])
	if err != nil {
		return nil, fmt.Errorf("account data: base64: %w", err)
	}
	switch enc[1] {
	case "base64":
	case "base64+zstd":
		if data, err = d.zstd.DecodeAll(data, nil); err != nil {
			return nil, fmt.Errorf("account data: zstd: %w", err)
		}
	default:
		return nil, fmt.Errorf("account data: encoding %q (want base64 or base64+zstd)", enc[1])
	}
	if len(data) > maxAccountData {
		return nil, fmt.Errorf("account data: %d bytes, more than an account holds", len(data))
	}
	if in.Space != nil && *in.Space != uint64(len(data)) {
		return nil, fmt.Errorf("account data: %d bytes, space says %d", len(data), *in.Space)
	}
	return &nodeAccount{Owner: owner, Lamports: *in.Lamports, Data: data, Executable: in.Executable}, nil
}

// keyed validates one getProgramAccounts element: {pubkey, account}.
func (d *accountDecoder) keyed(raw []byte) (solana.Pubkey, *nodeAccount, error) {
	return d.keyedOf(raw, false)
}

// keyedOf is keyed; valid is unmarshal's.
func (d *accountDecoder) keyedOf(raw []byte, valid bool) (solana.Pubkey, *nodeAccount, error) {
	var in struct {
		Pubkey  *string         `json:"pubkey"`
		Account json.RawMessage `json:"account"`
	}
	if err := unmarshal(raw, &in, valid); err != nil {
		return solana.Pubkey{}, nil, fmt.Errorf("program account: %w", err)
	}
	if in.Pubkey == nil {
		return solana.Pubkey{}, nil, errors.New("program account: no pubkey")
	}
	k, err := solana.ParsePubkey(*in.Pubkey)
	if err != nil {
		return solana.Pubkey{}, nil, fmt.Errorf("program account pubkey: %w", err)
	}
	if len(bytes.TrimSpace(in.Account)) == 0 {
		return k, nil, errors.New("program account: no account")
	}
	a, err := d.accountOf(in.Account, true)
	return k, a, err
}

// itemJSON is an account as the pipeline reads it (solana.ParseAccount),
// at slot and write version wv. A nil a is closed: no lamports, no data,
// the System program's, as the runtime leaves a deleted account.
func itemJSON(pubkey solana.Pubkey, a *nodeAccount, slot, wv uint64) []byte {
	if a == nil {
		a = &nodeAccount{Owner: solana.SystemProgram()}
	}
	b := make([]byte, 0, 200+base64.StdEncoding.EncodedLen(len(a.Data)))
	b = append(b, `{"pubkey":"`...)
	b = append(b, pubkey.String()...)
	b = append(b, `","owner":"`...)
	b = append(b, a.Owner.String()...)
	b = append(b, `","lamports":`...)
	b = strconv.AppendUint(b, a.Lamports, 10)
	b = append(b, `,"executable":`...)
	b = strconv.AppendBool(b, a.Executable)
	b = append(b, `,"data":"`...)
	b = base64.StdEncoding.AppendEncode(b, a.Data)
	b = append(b, `","slot":`...)
	b = strconv.AppendUint(b, slot, 10)
	b = append(b, `,"write_version":`...)
	b = strconv.AppendUint(b, wv, 10)
	return append(b, '}')
}

// listing is what walkListing learnt of an account answer besides its
// accounts.
type listing struct {
	context    uint64 // the answer's context slot, when hasContext
	hasContext bool
	// pageKey is getProgramAccountsV2's paginationKey: nil on the last
	// page.
	pageKey *string
	// paged is set when the answer was a getProgramAccountsV2 page.
	paged bool
	// accounts is how many elements the account array held.
	accounts int
}

// errAnswer marks an answer that is not of the shape asked for: the node
// is asked again.
func errAnswer(format string, args ...any) error { return errRetry{fmt.Errorf(format, args...)} }

// walkListing reads an account answer's result from dec: an array of
// accounts, {context, value} around one, or a getProgramAccountsV2 page
// ({accounts, paginationKey}, bare or as the value). Each element of the
// account array goes to entry as it is read, with the context slot when
// the context came first (0 otherwise); an element is at most
// maxEntryBytes (lim). Only the shapes nodes answer are accepted.
func walkListing(dec *stdjson.Decoder, lim *entryLimit, l *listing, entry func(raw []byte, context uint64) error) error {
	return walkValue(dec, lim, l, entry, 0)
}

func walkValue(dec *stdjson.Decoder, lim *entryLimit, l *listing, entry func(raw []byte, context uint64) error, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return errAnswer("result: %w", err)
	}
	switch tok {
	case stdjson.Delim('['):
		return walkArray(dec, lim, l, entry)
	case stdjson.Delim('{'):
	default:
		return errAnswer("result: got %v, want accounts", tok)
	}
	if depth > 1 {
		return errAnswer("result: accounts nested too deep")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return errAnswer("result: %w", err)
		}
		key, _ := tok.(string)
		switch key {
		case "context":
			var c struct {
				Slot *uint64 `json:"slot"`
			}
			if err := dec.Decode(&c); err != nil || c.Slot == nil {
				return errAnswer("result: context without a slot (%v)", err)
			}
			l.context, l.hasContext = *c.Slot, true
		case "value":
			if err := walkValue(dec, lim, l, entry, depth+1); err != nil {
				return err
			}
		case "accounts":
			l.paged = true
			if tok, err := dec.Token(); err != nil || tok != stdjson.Delim('[') {
				return errAnswer("result: accounts is not an array (%v)", err)
			}
			if err := walkArray(dec, lim, l, entry); err != nil {
				return err
			}
		case "paginationKey":
			l.paged = true
			if err := dec.Decode(&l.pageKey); err != nil {
				return errAnswer("result: paginationKey: %w", err)
			}
		default:
			var skip stdjson.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return errAnswer("result: %s: %w", key, err)
			}
		}
		lim.mark()
	}
	if _, err := dec.Token(); err != nil {
		return errAnswer("result: %w", err)
	}
	return nil
}

// walkArray reads the elements of an array whose '[' was read, and its ']'.
func walkArray(dec *stdjson.Decoder, lim *entryLimit, l *listing, entry func(raw []byte, context uint64) error) error {
	for dec.More() {
		var raw stdjson.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return errAnswer("account %d of the answer: %w", l.accounts, err)
		}
		lim.mark()
		var ctx uint64
		if l.hasContext {
			ctx = l.context
		}
		l.accounts++
		if err := entry(raw, ctx); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return errAnswer("result: %w", err)
	}
	return nil
}

// walkAnswer reads a JSON-RPC answer from dec: the node's error as a
// *nodeError, or its result handed to result.
func walkAnswer(dec *stdjson.Decoder, lim *entryLimit, result func(dec *stdjson.Decoder) error) error {
	if tok, err := dec.Token(); err != nil || tok != stdjson.Delim('{') {
		return errAnswer("answer is not JSON-RPC (%v)", err)
	}
	got := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return errAnswer("answer is not JSON-RPC: %w", err)
		}
		switch tok {
		case "result":
			if err := result(dec); err != nil {
				return err
			}
			got = true
		case "error":
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := dec.Decode(&e); err != nil {
				return errAnswer("answer's error: %w", err)
			}
			return &nodeError{e.Code, e.Message}
		default:
			var skip stdjson.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return errAnswer("answer is not JSON-RPC: %w", err)
			}
		}
		lim.mark()
	}
	if _, err := dec.Token(); err != nil {
		return errAnswer("answer is not JSON-RPC: %w", err)
	}
	if !got {
		return errAnswer("answer has neither result nor error")
	}
	return nil
}

// entryLimit fails a read that goes maxEntryBytes past its last mark: one
// account of an answer, however long the answer, is bounded.
type entryLimit struct {
	r     io.Reader
	since int
}

func (l *entryLimit) Read(p []byte) (int, error) {
	if l.since > maxEntryBytes {
		return 0, fmt.Errorf("an account of the answer runs past %d MiB", maxEntryBytes>>20)
	}
	n, err := l.r.Read(p)
	l.since += n
	return n, err
}

func (l *entryLimit) mark() { l.since = 0 }
