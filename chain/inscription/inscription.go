package inscription

import (
	"bytes"
	"errors"
	"fmt"

	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// inscriptionProgram is the Libreplex Inscriptions program, whose accounts
// the reference DAS renders as an asset's inscription.
var inscriptionProgram = solana.MustParsePubkey("inscokhJarcjaEs59QbQ7hYjrKz25LEPRfCbP8EmdUp")

// InscriptionProgram is the Libreplex Inscriptions program id.
func InscriptionProgram() solana.Pubkey { return inscriptionProgram }

// Anchor account discriminators (sha256("account:<Name>")[:8]).
var (
	discInscriptionV3 = []byte{0xe8, 0x78, 0xcd, 0x2f, 0x99, 0xef, 0xe5, 0xe0}
	discInscription   = []byte{0x64, 0x0b, 0x97, 0x2a, 0xe4, 0x26, 0x45, 0xbb}
)

// ErrNotInscription reports an Inscriptions program account that is not an
// inscription (the data accounts and summaries share the owner).
var ErrNotInscription = errors.New("das: not an inscription account")

// Inscription is a Libreplex inscription account: metadata about data
// inscribed onto an asset (its Root). The bytes themselves live in the
// separate InscriptionData account.
type Inscription struct {
	Authority       solana.Pubkey
	Root            solana.Pubkey
	InscriptionData solana.Pubkey
	Order           uint64
	Size            uint32
	// ContentType is the MIME type ("image/png"); Encoding is "base64" or
	// "" (raw bytes), as the program stores them.
	ContentType    string
	Encoding       string
	ValidationHash *string
}

// DecodeInscription decodes an InscriptionV3 account, or a legacy V1
// Inscription (whose media and encoding types are enums, rendered here as
// the strings V3 stores). Any other account of the program gives
// ErrNotInscription.
func DecodeInscription(owner solana.Pubkey, data []byte) (*Inscription, error) {
	if owner != inscriptionProgram {
		return nil, fmt.Errorf("inscription: owner %s is not the inscriptions program", owner)
	}
	if len(data) < 8 {
		return nil, fmt.Errorf("inscription: %w: %d bytes", borsh.ErrShort, len(data))
	}
	r := borsh.NewReader(data, 8)
	in := &Inscription{}
	var err error
	v3 := bytes.Equal(data[:8], discInscriptionV3)
	if !v3 && !bytes.Equal(data[:8], discInscription) {
		return nil, ErrNotInscription
	}
	if in.Authority, err = r.Pubkey(); err != nil {
		return nil, fmt.Errorf("inscription authority: %w", err)
	}
	if in.Root, err = r.Pubkey(); err != nil {
		return nil, fmt.Errorf("inscription root: %w", err)
	}
	if !v3 {
		if in.ContentType, err = legacyMediaType(r); err != nil {
			return nil, fmt.Errorf("inscription media type: %w", err)
		}
		enc, err := r.U8()
		if err != nil {
			return nil, fmt.Errorf("inscription encoding: %w", err)
		}
		switch enc {
		case 0:
		case 1:
			in.Encoding = "base64"
		default:
			return nil, fmt.Errorf("inscription: invalid encoding type %d", enc)
		}
	}
	if in.InscriptionData, err = r.Pubkey(); err != nil {
		return nil, fmt.Errorf("inscription data address: %w", err)
	}
	if in.Order, err = r.U64(); err != nil {
		return nil, fmt.Errorf("inscription order: %w", err)
	}
	if in.Size, err = r.U32(); err != nil {
		return nil, fmt.Errorf("inscription size: %w", err)
	}
	if v3 {
		if in.ContentType, err = r.Str(); err != nil {
			return nil, fmt.Errorf("inscription content type: %w", err)
		}
		if in.Encoding, err = r.Str(); err != nil {
			return nil, fmt.Errorf("inscription encoding: %w", err)
		}
	}
	has, err := r.Option()
	if err != nil {
		return nil, fmt.Errorf("inscription validation hash: %w", err)
	}
	if has {
		h, err := r.Str()
		if err != nil {
			return nil, fmt.Errorf("inscription validation hash: %w", err)
		}
		in.ValidationHash = &h
	}
	return in, nil
}

// legacyMediaType reads the V1 MediaType enum as a MIME string.
func legacyMediaType(r *borsh.Reader) (string, error) {
	v, err := r.U8()
	if err != nil {
		return "", err
	}
	prefix := map[uint8]string{1: "audio/", 2: "application/", 3: "image/", 4: "video/", 5: "text/"}
	switch v {
	case 0:
		return "", nil
	case 1, 2, 3, 4, 5:
		sub, err := r.Str()
		if err != nil {
			return "", err
		}
		return prefix[v] + sub, nil
	case 6:
		return r.Str()
	case 7:
		return "erc721", nil
	}
	return "", fmt.Errorf("invalid media type %d", v)
}

// InscriptionPDA is the InscriptionV3 account address of a root (a mint).
func InscriptionPDA(root solana.Pubkey) solana.Pubkey {
	k, _, err := sgo.FindProgramAddress([][]byte{[]byte("inscription_v3"), root[:]}, sgo.PublicKey(inscriptionProgram))
	if err != nil {
		// Unreachable for fixed-size seeds (probability ~2^-255).
		panic(err)
	}
	return solana.Pubkey(k)
}
