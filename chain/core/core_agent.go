package core

import (
	"errors"
	"fmt"

	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// agentIdentityProgram is the MPL Agent Identity registry. It keeps one
// identity PDA per registered Core asset; an asset's agent token lives
// there, not in the asset's AgentIdentity plugin (which holds only a URI).
var agentIdentityProgram = solana.MustParsePubkey("1DREGFgysWYxLnRnKQnwrxnJQeSMk2HmGaC6whw2B2p")

// AgentIdentityProgram returns the MPL Agent Identity program id.
func AgentIdentityProgram() solana.Pubkey { return agentIdentityProgram }

// AgentIdentityPDA is the identity record of a Core asset, seeds
// ["agent_identity", asset] under the Agent Identity program.
func AgentIdentityPDA(asset solana.Pubkey) solana.Pubkey {
	k, _, err := sgo.FindProgramAddress([][]byte{[]byte("agent_identity"), asset[:]}, sgo.PublicKey(agentIdentityProgram))
	if err != nil {
		// Unreachable for fixed-size seeds (probability ~2^-255).
		panic(err)
	}
	return solana.Pubkey(k)
}

// Agent Identity account keys (the first byte of the account).
const (
	AgentIdentityKeyV1 = 1
	AgentIdentityKeyV2 = 2
)

// Agent Identity account sizes: both are fixed-size (bytemuck) structs.
const (
	agentIdentityV1Len = 40
	agentIdentityV2Len = 104
)

// ErrAgentIdentityUnsupported reports an Agent Identity program account
// that is not an identity record.
var ErrAgentIdentityUnsupported = errors.New("das: unsupported agent identity account")

// AgentIdentity is a decoded identity record: the asset it belongs to and,
// from V2 on, the agent token set for it.
type AgentIdentity struct {
	Asset solana.Pubkey
	// AgentToken is nil when none is set: V1 records have no such field
	// and V2 stores "none" as 32 zero bytes.
	AgentToken *solana.Pubkey
}

// DecodeAgentIdentity decodes an identity record. The layout is fixed:
// key u8, bump u8, 6 bytes padding, asset (32), then for V2 agent_token
// (32, all zero for none) and 32 reserved bytes.
func DecodeAgentIdentity(owner solana.Pubkey, data []byte) (*AgentIdentity, error) {
	if owner != agentIdentityProgram {
		return nil, fmt.Errorf("das: agent identity owned by %s, not the Agent Identity program", owner)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty agent identity account", borsh.ErrShort)
	}
	var want int
	switch data[0] {
	case AgentIdentityKeyV1:
		want = agentIdentityV1Len
	case AgentIdentityKeyV2:
		want = agentIdentityV2Len
	default:
		return nil, fmt.Errorf("%w: key %d", ErrAgentIdentityUnsupported, data[0])
	}
	if len(data) < want {
		return nil, fmt.Errorf("%w: agent identity key %d has %d bytes, needs %d", borsh.ErrShort, data[0], len(data), want)
	}
	id := &AgentIdentity{Asset: solana.Pubkey(data[8:40])}
	if data[0] == AgentIdentityKeyV2 {
		tok := solana.Pubkey(data[40:72])
		if tok != (solana.Pubkey{}) {
			id.AgentToken = &tok
		}
	}
	return id, nil
}
