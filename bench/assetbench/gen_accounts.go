package assetbench

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/metadata/metadatatest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
)

var (
	tokenProgram     = token.TokenProgram()
	token2022Program = token.Token2022Program()
	metadataProgram  = metadata.TokenMetadataProgram()
	coreProgram      = mustKey("CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d")
)

func mustKey(s string) solana.Pubkey {
	k, err := solana.ParsePubkey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// Accounts appends the accounts of asset i to dst, newest state only,
// each written once at the asset's slot. A compressed NFT has none.
func (p *Plan) Accounts(i int, dst []solana.Account) ([]solana.Account, error) {
	if i < 0 || i >= len(p.kinds) {
		return dst, fmt.Errorf("asset generator: asset %d of %d", i, len(p.kinds))
	}
	w := writer{dst: dst, slot: slot(i), version: uint64(i) << 4}
	r := p.rng(domAsset, uint64(i))
	switch k := p.kinds[i]; k {
	case KindNFT, KindPNFT:
		return p.nft(&w, r, i, k == KindPNFT)
	case KindFungible:
		return p.fungible(&w, r, i)
	case KindFungible2022:
		return p.fungible2022(&w, r, i)
	case KindCore:
		return p.core(&w, r, i), nil
	case KindCNFT:
		return dst, nil // no accounts: its state is its events (CNFTEvents)
	default:
		return dst, fmt.Errorf("asset generator: kind %s is not available", k)
	}
}

// writer appends accounts with increasing write versions.
type writer struct {
	dst           []solana.Account
	slot, version uint64
}

func (w *writer) add(pubkey, owner solana.Pubkey, data []byte) {
	w.version++
	w.dst = append(w.dst, solana.Account{
		Pubkey: pubkey, Owner: owner, Lamports: 1_461_600 + uint64(len(data))*6_960, Data: data,
		Slot: w.slot, WriteVersion: w.version,
	})
}

func (p *Plan) creatorsOf(r *rand.Rand) []metadata.Creator {
	n := 1 + r.IntN(3)
	out := make([]metadata.Creator, n)
	share := 100
	for j := range out {
		out[j] = metadata.Creator{Address: p.creator(r), Verified: j == 0}
		if j == n-1 {
			out[j].Share = uint8(share)
		} else {
			out[j].Share = uint8(share / 2)
			share -= share / 2
		}
	}
	return out
}

func (p *Plan) nft(w *writer, r *rand.Rand, i int, programmable bool) ([]solana.Account, error) {
	id := p.ID(i)
	edition := metadata.EditionPDA(id)
	holder := p.owner(r)
	mintData, err := tokentest.EncodeMint(&token.Mint{Program: tokenProgram, MintAuthority: &edition, Supply: 1,
		Decimals: 0, IsInitialized: true, FreezeAuthority: &edition})
	if err != nil {
		return w.dst, err
	}
	w.add(id, tokenProgram, mintData)

	std, nonce := metadata.NonFungible, uint8(r.IntN(256))
	md := &metadata.Metadata{
		UpdateAuthority: p.authority(r), Mint: id,
		Name: "Synthetic #" + strconv.Itoa(i), Symbol: "SYN", URI: p.uri(uint64(i)),
		SellerFeeBasisPoints: uint16(r.IntN(1001)),
		HasCreators:          true, Creators: p.creatorsOf(r),
		PrimarySaleHappened: r.IntN(2) == 0, IsMutable: r.IntN(4) != 0,
		EditionNonce: &nonce, TokenStandard: &std,
		Collection: &metadata.Collection{Verified: r.IntN(10) != 0, Key: p.collection(r)},
	}
	ta := &token.TokenAccount{Program: tokenProgram, Mint: id, Owner: holder, Amount: 1, State: token.StateInitialized}
	if programmable {
		std = metadata.ProgrammableNonFungible
		var ruleSet *solana.Pubkey
		if r.IntN(2) == 0 {
			k := p.key(domRuleSet, r.Uint64N(8))
			ruleSet = &k
		}
		md.ProgrammableConfig = &metadata.ProgrammableConfig{RuleSet: ruleSet}
		// Programmable NFTs are always frozen; some are delegated.
		ta.State = token.StateFrozen
		if r.IntN(5) == 0 {
			d := p.key(domDelegate, uint64(i))
			ta.Delegate, ta.DelegatedAmount = &d, 1
		}
	}
	w.add(metadata.MetadataPDA(id), metadataProgram, metadatatest.EncodeMetadata(md))
	w.add(p.key(domTokenAccount, uint64(i)<<8), tokenProgram, tokentest.EncodeTokenAccount(ta))
	var maxSupply uint64
	w.add(edition, metadataProgram, metadatatest.EncodeMasterEdition(&metadata.MasterEdition{Key: metadata.KeyMasterEditionV2, MaxSupply: &maxSupply}))
	return w.dst, nil
}

func (p *Plan) fungible(w *writer, r *rand.Rand, i int) ([]solana.Account, error) {
	id := p.ID(i)
	auth := p.authority(r)
	supply := uint64(0)
	amounts := make([]uint64, fungibleHolders)
	for j := range amounts {
		amounts[j] = 1 + r.Uint64N(1_000_000_000_000)
		supply += amounts[j]
	}
	mintData, err := tokentest.EncodeMint(&token.Mint{Program: tokenProgram, MintAuthority: &auth, Supply: supply,
		Decimals: uint8(6 + 3*r.IntN(2)), IsInitialized: true})
	if err != nil {
		return w.dst, err
	}
	w.add(id, tokenProgram, mintData)
	std := metadata.Fungible
	w.add(metadata.MetadataPDA(id), metadataProgram, metadatatest.EncodeMetadata(&metadata.Metadata{
		UpdateAuthority: auth, Mint: id,
		Name: "Synthetic Token " + strconv.Itoa(i), Symbol: "ST" + strconv.Itoa(i%1000), URI: p.uri(uint64(i)),
		IsMutable: true, TokenStandard: &std,
	}))
	for j, a := range amounts {
		w.add(p.key(domTokenAccount, uint64(i)<<8|uint64(j)), tokenProgram, tokentest.EncodeTokenAccount(&token.TokenAccount{
			Program: tokenProgram, Mint: id, Owner: p.owner(r), Amount: a, State: token.StateInitialized}))
	}
	return w.dst, nil
}

func (p *Plan) fungible2022(w *writer, r *rand.Rand, i int) ([]solana.Account, error) {
	id := p.ID(i)
	auth := p.authority(r)
	tm := &token.TokenMetadata{UpdateAuthority: &auth, Mint: id,
		Name: "Synthetic 2022 " + strconv.Itoa(i), Symbol: "S22", URI: p.uri(uint64(i))}
	if r.IntN(2) == 0 {
		tm.AdditionalMetadata = []token.KeyValue{{Key: "website", Value: "https://example.org/" + strconv.Itoa(i)}}
	}
	mintData, err := tokentest.EncodeMint(&token.Mint{Program: token2022Program, MintAuthority: &auth,
		Supply: 1 + r.Uint64N(1<<40), Decimals: 9, IsInitialized: true,
		MetadataPointer: &token.MetadataPointer{Authority: &auth, MetadataAddress: &id},
		TokenMetadata:   tm,
	})
	if err != nil {
		return w.dst, err
	}
	w.add(id, token2022Program, mintData)
	return w.dst, nil
}

func (p *Plan) core(w *writer, r *rand.Rand, i int) []solana.Account {
	a := &coretest.AssetSpec{Owner: p.owner(r), Name: "Core #" + strconv.Itoa(i), URI: p.uri(uint64(i))}
	if r.IntN(10) < 6 {
		c := p.CoreCollectionID(r.IntN(p.coreCollections))
		a.Collection = &c
	} else {
		a.Authority = p.authority(r)
		a.Plugins.Royalties = &coretest.RoyaltiesPlugin{BasisPoints: uint16(r.IntN(1001)),
			Creators: []coretest.Royalty{{Address: p.creator(r), Percentage: 100}}}
	}
	if r.IntN(4) == 0 {
		frozen := r.IntN(2) == 0
		a.Plugins.Freeze = &frozen
	}
	if r.IntN(3) == 0 {
		a.Plugins.Attributes = []coretest.Attr{{Key: "background", Value: "blue"}, {Key: "level", Value: strconv.Itoa(r.IntN(100))}}
	}
	w.add(p.ID(i), coreProgram, coretest.EncodeAsset(a))
	return w.dst
}

// CoreCollectionAccounts appends the Core collections' accounts to dst;
// they are written before any asset, at the first slot.
func (p *Plan) CoreCollectionAccounts(dst []solana.Account) []solana.Account {
	w := writer{dst: dst, slot: baseSlot}
	for j := range p.coreCollections {
		r := p.rng(domCoreCollection, uint64(j))
		size := uint32(len(p.ByKind[KindCore]) * 6 / 10 / p.coreCollections)
		w.version = 1<<40 | uint64(j)<<4
		w.add(p.CoreCollectionID(j), coreProgram, coretest.EncodeCollection(&coretest.CollectionSpec{
			Authority: p.authority(r), Name: "Core Collection " + strconv.Itoa(j), URI: p.uri(1<<40 | uint64(j)),
			NumMinted: size, CurrentSize: size,
			Plugins: coretest.Plugins{Royalties: &coretest.RoyaltiesPlugin{BasisPoints: uint16(r.IntN(1001)),
				Creators: []coretest.Royalty{{Address: p.creator(r), Percentage: 100}}}},
		}))
	}
	return w.dst
}
