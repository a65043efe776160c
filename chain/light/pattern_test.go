package light

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

func TestFindPatterns(t *testing.T) {
	const (
		O = kindOther
		L = kindLightSystem
		Q = kindInsertIntoQueues
		S = kindSolanaSystem
		T = kindToken
		R = kindRegistry
	)
	tests := []struct {
		name  string
		kinds []progKind
		want  []cpiPattern
	}{
		{"plain", []progKind{O, L, S, Q}, []cpiPattern{{1, 3}}},
		{"several fee transfers", []progKind{O, L, S, S, S, Q}, []cpiPattern{{1, 5}}},
		{"unrelated instruction between fee transfers", []progKind{O, L, S, O, S, Q}, nil},
		{"no fee transfer", []progKind{O, L, Q}, nil},
		{"cpi context writer before", []progKind{O, L, O, L, S, S, S, Q}, []cpiPattern{{3, 7}}},
		{"cpi context writer adjacent", []progKind{O, L, L, S, S, S, Q}, []cpiPattern{{2, 6}}},
		{"two transactions", []progKind{O, L, S, Q, O, L, S, Q}, []cpiPattern{{1, 3}, {5, 7}}},
		{"first of two broken", []progKind{O, L, O, Q, O, L, S, Q}, []cpiPattern{{5, 7}}},
		{"second of two broken", []progKind{O, L, S, Q, O, L, O, Q}, []cpiPattern{{1, 3}}},
		{"registry and token up the chain", []progKind{R, T, L, S, Q}, []cpiPattern{{2, 4}}},
		{"token before fee transfer breaks it", []progKind{L, S, T, Q}, nil},
		{"trailing instructions", []progKind{L, S, Q, O, O}, []cpiPattern{{0, 2}}},
		{"no queue insert", []progKind{L, S, O}, nil},
		{"empty", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := findPatterns(tc.kinds); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	data := func(disc uint64) []byte {
		b := make([]byte, 12)
		for i := range 8 {
			b[i] = byte(disc >> (8 * i))
		}
		return b
	}
	queueAccounts := []solana.Pubkey{{1}, registeredProgramPDA(), {2}}
	tests := []struct {
		name string
		in   instr
		want progKind
	}{
		{"short data", instr{program: LightSystemProgram(), data: data(discInvoke)[:11]}, kindOther},
		{"light system invoke", instr{program: LightSystemProgram(), data: data(discInvoke)}, kindLightSystem},
		{"cpi context creation", instr{program: LightSystemProgram(), data: data(discCreateCPIContext)}, kindOther},
		{"insert into queues", instr{program: AccountCompressionProgram(), data: data(discInsertIntoQueues), accounts: queueAccounts}, kindInsertIntoQueues},
		{"insert into queues from another caller", instr{program: AccountCompressionProgram(), data: data(discInsertIntoQueues), accounts: []solana.Pubkey{{1}, {3}, {2}}}, kindOther},
		{"other compression instruction", instr{program: AccountCompressionProgram(), data: data(1), accounts: queueAccounts}, kindOther},
		{"native transfer", instr{program: solanaSystemProgram(), data: bytes.Repeat([]byte{2}, 12)}, kindSolanaSystem},
		{"token transfer2", instr{program: CompressedTokenProgram(), data: append([]byte{tokenTransfer2}, make([]byte, 11)...)}, kindToken},
		{"other token instruction", instr{program: CompressedTokenProgram(), data: make([]byte, 12)}, kindOther},
		{"registry", instr{program: RegistryProgram(), data: make([]byte, 12)}, kindRegistry},
		{"unknown program", instr{program: solana.Pubkey{7}, data: make([]byte, 12)}, kindOther},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := classify(&tc.in); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
