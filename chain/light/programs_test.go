package light

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

func TestProgramIDs(t *testing.T) {
	tests := []struct {
		got  solana.Pubkey
		want string
	}{
		{LightSystemProgram(), "SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7"},
		{AccountCompressionProgram(), "compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq"},
		{CompressedTokenProgram(), "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"},
		{NoopProgram(), "noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV"},
		{RegistryProgram(), "Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX"},
		{registeredProgramPDA(), "35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh"},
		{solanaSystemProgram(), "11111111111111111111111111111111"},
	}
	for _, tc := range tests {
		if tc.got.String() != tc.want {
			t.Errorf("%s, want %s", tc.got, tc.want)
		}
	}
}

func TestDiscriminators(t *testing.T) {
	tests := []struct {
		name  string
		got   uint64
		bytes [8]byte
	}{
		{"invoke", discInvoke, [8]byte{26, 16, 169, 7, 21, 202, 242, 25}},
		{"invoke_cpi", discInvokeCPI, [8]byte{49, 212, 191, 129, 39, 194, 43, 196}},
		{"invoke_cpi_with_read_only", discInvokeCPIReadOnly, [8]byte{86, 47, 163, 166, 21, 223, 92, 8}},
		{"invoke_cpi_with_account_info", discInvokeCPIAccountInfo, [8]byte{228, 34, 128, 84, 47, 139, 86, 240}},
		{"init_cpi_context_account", discCreateCPIContext, [8]byte{233, 112, 71, 66, 121, 33, 178, 188}},
		{"insert_into_queues", discInsertIntoQueues, [8]byte{180, 143, 159, 153, 35, 46, 248, 163}},
	}
	for _, tc := range tests {
		if want := discriminator(tc.bytes[:]); tc.got != want {
			t.Errorf("%s: %#x, want %#x", tc.name, tc.got, want)
		}
	}
}
