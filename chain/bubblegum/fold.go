package bubblegum

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// CNFTState is a compressed NFT rebuilt from its events. It follows the
// reference indexer's model: groups of members (leaf, owner, metadata,
// creators, collection) each taken from the latest event by changelog
// sequence that writes that group.
type CNFTState struct {
	AssetID Key

	// Leaf: from the last event that logged the leaf (or emptied it).
	HasLeaf     bool
	Tree        Key
	LeafID      uint64
	LeafHash    Key
	DataHash    Key
	CreatorHash Key
	// V2 leaves only; nil for V1.
	CollectionHash *Key
	AssetDataHash  *Key
	Flags          *uint8

	// Owner and delegate: Delegate is nil when it equals the owner or is
	// unset.
	HasOwner bool
	Owner    Key
	Delegate *Key

	// Metadata is the on-chain metadata (mint message, then updates):
	// name, symbol, uri, royalty, primary sale, mutability, edition nonce.
	// Creators and Collection are kept apart below; nil when no mint or
	// update was seen.
	Metadata *Metadata
	Creators []Creator
	// Collection is nil when the asset has none (or it was removed).
	Collection *Collection
	// Authority is the tree config account of the mint: the reference
	// reports it as the asset's "full" authority.
	Authority *Key

	// Seq is the highest changelog sequence of the asset's events.
	Seq   uint64
	Burnt bool
	// Redeemed is set by redeem (the leaf was emptied for decompression).
	Redeemed bool
	// Decompressed is set when decompress_v1 was seen: the asset now lives
	// as a Token Metadata NFT whose mint is AssetID.
	Decompressed bool
	// Slot is the highest slot among the events.
	Slot uint64
}

// Frozen reports whether a V2 leaf is frozen (by owner/delegate or by a
// permanent freeze delegate). V1 leaves cannot be frozen.
func (s *CNFTState) Frozen() bool {
	return s.Flags != nil && *s.Flags&(FlagAssetFrozen|FlagPermanentFrozen) != 0
}

// NonTransferable reports the V2 soulbound flag.
func (s *CNFTState) NonTransferable() bool {
	return s.Flags != nil && *s.Flags&FlagNonTransferable != 0
}

// ErrNoEvents is returned by FoldCNFT for an empty event set.
var ErrNoEvents = errors.New("bubblegum: no events")

// FoldCNFT applies the events of one asset in changelog-sequence order
// (ties broken by slot, signature and instruction position) and returns
// the resulting state. The result depends only on the set of events:
// ingestion order does not matter and duplicates (the same transaction
// indexed twice) are dropped.
func FoldCNFT(events []Event) (*CNFTState, error) {
	if len(events) == 0 {
		return nil, ErrNoEvents
	}
	evs := sortedUnique(events)
	st := &CNFTState{AssetID: evs[0].AssetID}
	for i := range evs {
		e := &evs[i]
		if e.AssetID != st.AssetID {
			return nil, fmt.Errorf("bubblegum: fold %s: event %s/%d/%d is for asset %s", st.AssetID, e.Signature, e.Outer, e.Inner, e.AssetID)
		}
		if err := st.apply(e); err != nil {
			return nil, fmt.Errorf("bubblegum: fold %s: event %s/%d/%d (%s): %w", st.AssetID, e.Signature, e.Outer, e.Inner, e.Instruction, err)
		}
		st.Seq = max(st.Seq, e.Seq)
		st.Slot = max(st.Slot, e.Slot)
	}
	return st, nil
}

// sortedUnique orders a copy of events and drops repeats of the same
// instruction (same signature and position).
func sortedUnique(events []Event) []Event {
	evs := slices.Clone(events)
	slices.SortStableFunc(evs, func(a, b Event) int {
		return cmp.Or(
			cmp.Compare(a.Seq, b.Seq),
			cmp.Compare(a.Slot, b.Slot),
			strings.Compare(a.Signature, b.Signature),
			cmp.Compare(a.Outer, b.Outer),
			cmp.Compare(a.Inner, b.Inner),
		)
	})
	return slices.CompactFunc(evs, func(a, b Event) bool {
		return a.Signature == b.Signature && a.Outer == b.Outer && a.Inner == b.Inner
	})
}

func (s *CNFTState) apply(e *Event) error {
	switch e.Instruction {
	case IxMintV1, IxMintToCollectionV1, IxMintV2:
		if e.Metadata == nil || e.Leaf == nil {
			return errors.New("mint without metadata or leaf")
		}
		s.setLeaf(e)
		s.setOwner(e.Leaf)
		s.setMetadata(e.Metadata)
		s.Creators = slices.Clone(e.Metadata.Creators)
		s.Collection = cloneCollection(e.Metadata.Collection)
		if k, ok := e.Accounts["tree_authority"]; ok {
			s.Authority = &k
		}
	case IxTransfer, IxTransferV2, IxDelegate, IxDelegateV2, IxDelegateAndFreezeV2, IxFreezeV2, IxThawV2,
		IxThawAndRevokeV2, IxSetNonTransferableV2, IxCancelRedeem, IxUpdateAssetDataV2:
		if e.Leaf == nil {
			return errors.New("no leaf")
		}
		s.setLeaf(e)
		s.setOwner(e.Leaf)
		if e.Instruction == IxCancelRedeem {
			s.Redeemed = false
		}
	case IxBurn, IxBurnV2:
		// Burning keeps the last leaf data on display.
		s.Burnt = true
	case IxRedeem:
		// The leaf is replaced by an empty node; owner and metadata stay.
		s.HasLeaf = true
		s.Tree, s.LeafID = e.Tree, e.LeafID
		s.LeafHash, s.DataHash, s.CreatorHash = Key{}, Key{}, Key{}
		s.Redeemed = true
	case IxDecompressV1:
		s.Decompressed = true
	case IxVerifyCreator, IxUnverifyCreator, IxVerifyCreatorV2, IxUnverifyCreatorV2:
		if e.Leaf == nil || e.Metadata == nil {
			return errors.New("no leaf or metadata")
		}
		s.setLeaf(e)
		s.setOwner(e.Leaf)
		creator, ok := e.Accounts["creator"]
		if !ok {
			// V2 makes the creator optional; it defaults to the payer.
			creator = e.Accounts["payer"]
		}
		verify := e.Instruction == IxVerifyCreator || e.Instruction == IxVerifyCreatorV2
		s.Creators = slices.Clone(e.Metadata.Creators)
		for i := range s.Creators {
			if s.Creators[i].Address == creator {
				s.Creators[i].Verified = verify
			}
		}
	case IxVerifyCollection, IxUnverifyCollection, IxSetAndVerifyCollection:
		if e.Leaf == nil {
			return errors.New("no leaf")
		}
		s.setLeaf(e)
		mint, ok := e.Accounts["collection_mint"]
		if !ok {
			return errors.New("no collection mint account")
		}
		s.Collection = &Collection{Key: mint, Verified: e.Instruction != IxUnverifyCollection}
	case IxSetCollectionV2:
		if e.Leaf == nil {
			return errors.New("no leaf")
		}
		s.setLeaf(e)
		if k, ok := e.Accounts["new_core_collection"]; ok {
			s.Collection = &Collection{Key: k, Verified: true}
		} else {
			s.Collection = nil // removed from its collection
		}
	case IxUpdateMetadata, IxUpdateMetadataV2:
		if e.Leaf == nil || e.Metadata == nil || e.Update == nil {
			return errors.New("no leaf, metadata or update")
		}
		s.setLeaf(e)
		m := *e.Metadata
		u := e.Update
		m.Name = derefOr(u.Name, m.Name)
		m.Symbol = derefOr(u.Symbol, m.Symbol)
		m.URI = derefOr(u.URI, m.URI)
		m.SellerFeeBasisPoints = derefOr(u.SellerFeeBasisPoints, m.SellerFeeBasisPoints)
		m.PrimarySaleHappened = derefOr(u.PrimarySaleHappened, m.PrimarySaleHappened)
		m.IsMutable = derefOr(u.IsMutable, m.IsMutable)
		if u.Creators != nil {
			m.Creators = *u.Creators
		}
		s.setMetadata(&m)
		s.Creators = slices.Clone(m.Creators)
	default:
		return fmt.Errorf("unknown instruction %q", e.Instruction)
	}
	return nil
}

func (s *CNFTState) setLeaf(e *Event) {
	l := e.Leaf
	s.HasLeaf = true
	s.Tree, s.LeafID = e.Tree, e.LeafID
	s.LeafHash, s.DataHash, s.CreatorHash = l.LeafHash, l.DataHash, l.CreatorHash
	if l.Version == 2 {
		s.CollectionHash, s.AssetDataHash, s.Flags = l.CollectionHash, l.AssetDataHash, l.Flags
	}
}

func (s *CNFTState) setOwner(l *Leaf) {
	s.HasOwner = true
	s.Owner = l.Owner
	s.Delegate = nil
	if l.Delegate != l.Owner && !l.Delegate.IsZero() {
		d := l.Delegate
		s.Delegate = &d
	}
}

// setMetadata keeps the metadata with the text cleaned as the reference
// stores it: NULs removed, name and symbol trimmed.
func (s *CNFTState) setMetadata(m *Metadata) {
	c := *m
	c.Name = strings.ReplaceAll(strings.TrimSpace(c.Name), "\x00", "")
	c.Symbol = strings.ReplaceAll(strings.TrimSpace(c.Symbol), "\x00", "")
	c.URI = strings.ReplaceAll(c.URI, "\x00", "")
	c.Creators = nil
	c.Collection = nil
	s.Metadata = &c
}

func cloneCollection(c *Collection) *Collection {
	if c == nil {
		return nil
	}
	d := *c
	return &d
}

func derefOr[T any](p *T, def T) T {
	if p != nil {
		return *p
	}
	return def
}
