package lagbench

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/metadata/metadatatest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// The run's made-up keys, by domain and number.
func nftMint(i int) solana.Pubkey { return geysertest.Key("lag nft", uint64(i)) }
func nftTokenAccount(i int) solana.Pubkey {
	return geysertest.Key("lag nft token account", uint64(i))
}
func fungibleMint(j int) solana.Pubkey { return geysertest.Key("lag mint", uint64(j)) }
func holderAccount(h int) solana.Pubkey {
	return geysertest.Key("lag holder", uint64(h))
}
func wallet(n uint64) solana.Pubkey { return geysertest.Key("lag wallet", n) }

// probeOwner is the owner probe j's NFT gets in the paced slot at offset
// k of the whole paced run.
func probeOwner(k, j int) solana.Pubkey {
	return geysertest.Key("lag probe owner", uint64(k)<<8|uint64(j))
}

// Rent-exempt balances: a zero balance would close the account.
const (
	mintLamports     = 1_461_600
	tokenLamports    = 2_039_280
	metadataLamports = 5_616_720
)

// Shares of a paced slot's writes besides the probes, in per mille: the
// rest are fungible token-account balance changes, as on mainnet, where
// swaps and transfers of fungibles dominate the token programs' writes.
const (
	nftTransfersPerMille    = 90
	metadataUpdatesPerMille = 10
)

// gen builds the script's slots with increasing write versions.
type gen struct {
	cfg     *Config
	version uint64
	r       *rand.Rand
}

func (g *gen) write(key, owner solana.Pubkey, lamports uint64, data []byte) *pb.SubscribeUpdateAccountInfo {
	g.version++
	return geysertest.AccountWrite(key, owner, lamports, g.version, data)
}

func (g *gen) nftMintData(i int) ([]byte, error) {
	edition := metadata.EditionPDA(nftMint(i))
	return tokentest.EncodeMint(&token.Mint{Program: token.TokenProgram(), MintAuthority: &edition, Supply: 1,
		IsInitialized: true, FreezeAuthority: &edition})
}

func (g *gen) nftMetadata(i int, version int) *pb.SubscribeUpdateAccountInfo {
	std := metadata.NonFungible
	name := "Lag #" + strconv.Itoa(i)
	if version > 0 {
		name += " v" + strconv.Itoa(version)
	}
	md := &metadata.Metadata{UpdateAuthority: wallet(1 << 40), Mint: nftMint(i), Name: name, Symbol: "LAG",
		URI: "https://example.invalid/lag/" + strconv.Itoa(i) + ".json", IsMutable: true, TokenStandard: &std}
	return g.write(metadata.MetadataPDA(nftMint(i)), metadata.TokenMetadataProgram(), metadataLamports, metadatatest.EncodeMetadata(md))
}

func (g *gen) nftTransfer(i int, owner solana.Pubkey) *pb.SubscribeUpdateAccountInfo {
	return g.write(nftTokenAccount(i), token.TokenProgram(), tokenLamports, tokentest.EncodeTokenAccount(&token.TokenAccount{
		Program: token.TokenProgram(), Mint: nftMint(i), Owner: owner, Amount: 1, State: token.StateInitialized}))
}

func (g *gen) holderWrite(h int, amount uint64) *pb.SubscribeUpdateAccountInfo {
	return g.write(holderAccount(h), token.TokenProgram(), tokenLamports, tokentest.EncodeTokenAccount(&token.TokenAccount{
		Program: token.TokenProgram(), Mint: fungibleMint(h % g.cfg.Mints), Owner: wallet(uint64(h)), Amount: amount,
		State: token.StateInitialized}))
}

// preload is every account of the starting state: the NFTs (mint,
// metadata, token account), the fungible mints with their metadata and
// their holders' token accounts, perSlot writes a slot from first.
func (g *gen) preload(first uint64, perSlot int) ([]geysertest.Slot, int, error) {
	var accs []*pb.SubscribeUpdateAccountInfo
	for i := range g.cfg.NFTs {
		data, err := g.nftMintData(i)
		if err != nil {
			return nil, 0, err
		}
		accs = append(accs, g.write(nftMint(i), token.TokenProgram(), mintLamports, data), g.nftMetadata(i, 0),
			g.nftTransfer(i, wallet(uint64(i))))
	}
	std := metadata.Fungible
	for j := range g.cfg.Mints {
		auth := wallet(1<<41 | uint64(j))
		data, err := tokentest.EncodeMint(&token.Mint{Program: token.TokenProgram(), MintAuthority: &auth,
			Supply: 1 << 50, Decimals: 6, IsInitialized: true})
		if err != nil {
			return nil, 0, err
		}
		md := &metadata.Metadata{UpdateAuthority: auth, Mint: fungibleMint(j), Name: "Lag Token " + strconv.Itoa(j),
			Symbol: "LT" + strconv.Itoa(j), URI: "https://example.invalid/lag/token/" + strconv.Itoa(j) + ".json",
			IsMutable: true, TokenStandard: &std}
		accs = append(accs, g.write(fungibleMint(j), token.TokenProgram(), mintLamports, data),
			g.write(metadata.MetadataPDA(fungibleMint(j)), metadata.TokenMetadataProgram(), metadataLamports, metadatatest.EncodeMetadata(md)))
	}
	for h := range g.cfg.Holders {
		accs = append(accs, g.holderWrite(h, 1_000_000))
	}
	var slots []geysertest.Slot
	for start := 0; start < len(accs); start += perSlot {
		s := first + uint64(len(slots))
		slots = append(slots, geysertest.Slot{Slot: s, Parent: s - 1, NoMeta: true,
			Accounts: accs[start:min(start+perSlot, len(accs))]})
	}
	return slots, len(accs), nil
}

// paced is one paced slot: probe j's NFT goes to probeOwner(k, j), and
// the rest of writes are the mix above. k numbers paced slots across
// phases.
func (g *gen) paced(slot uint64, k, writes int) geysertest.Slot {
	sl := geysertest.Slot{Slot: slot, Parent: slot - 1, NoMeta: true}
	for j := range g.cfg.Probes {
		sl.Accounts = append(sl.Accounts, g.nftTransfer(j, probeOwner(k, j)))
	}
	// An account is written at most once a slot, as the validator sends
	// the last write of a slot: draw distinct ones.
	nfts, mds, holders := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for len(sl.Accounts) < writes {
		switch n := g.r.IntN(1000); {
		case n < nftTransfersPerMille && g.cfg.NFTs > g.cfg.Probes:
			i := g.cfg.Probes + g.r.IntN(g.cfg.NFTs-g.cfg.Probes)
			if !nfts[i] {
				nfts[i] = true
				sl.Accounts = append(sl.Accounts, g.nftTransfer(i, wallet(g.r.Uint64N(1<<30))))
			}
		case n < nftTransfersPerMille+metadataUpdatesPerMille && g.cfg.NFTs > g.cfg.Probes:
			i := g.cfg.Probes + g.r.IntN(g.cfg.NFTs-g.cfg.Probes)
			if !mds[i] {
				mds[i] = true
				sl.Accounts = append(sl.Accounts, g.nftMetadata(i, k+1))
			}
		default:
			h := g.r.IntN(g.cfg.Holders)
			if len(holders) >= g.cfg.Holders {
				return sl
			}
			if !holders[h] {
				holders[h] = true
				sl.Accounts = append(sl.Accounts, g.holderWrite(h, 1+g.r.Uint64N(1<<40)))
			}
		}
	}
	return sl
}

func (c *Config) check() error {
	if c.NFTs < c.Probes || c.Probes <= 0 || c.Mints <= 0 || c.Holders <= 0 {
		return fmt.Errorf("lag bench: need probes (%d) > 0, NFTs (%d) >= probes, mints (%d) and holders (%d) > 0",
			c.Probes, c.NFTs, c.Mints, c.Holders)
	}
	return nil
}
