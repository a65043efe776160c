package source

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
)

func TestRPCBalance(t *testing.T) {
	wallet := solana.MustParsePubkey("4xyraMeHBvudfZ8sBtvLucVYK4A4AjFBzDr4anWieB3x")
	for _, tc := range []struct {
		name, answer string
		want         uint64
		err          string
	}{
		{"balance", `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":9},"value":996478820}}`, 996478820, ""},
		{"no value", `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":9}}}`, 0, "not a balance"},
		{"negative", `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":9},"value":-1}}`, 0, "not a balance"},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid param"}}`, 0, "Invalid param"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				body = string(b)
				io.WriteString(w, tc.answer)
			}))
			defer srv.Close()
			src, err := Parse("rpc:" + srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			r := src.(*RPC)
			if err := r.Configure(RPCOptions{Commitment: "confirmed", Attempts: 1, Backoff: time.Millisecond, Timeout: time.Second}); err != nil {
				t.Fatal(err)
			}
			got, err := r.Balance(context.Background(), wallet)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("%d, %v; want %d", got, err, tc.want)
			}
			if !strings.Contains(body, `"getBalance"`) || !strings.Contains(body, wallet.String()) || !strings.Contains(body, `"confirmed"`) {
				t.Errorf("request %s", body)
			}
		})
	}
}
