package billing_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/billing"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCycleAt(t *testing.T) {
	tests := []struct {
		anchor, at string
		start, end string
	}{
		{"2026-01-01", "2026-04-15", "2026-04-01", "2026-05-01"},
		{"2026-01-15", "2026-04-15", "2026-04-15", "2026-05-15"},
		{"2026-01-15", "2026-04-14", "2026-03-15", "2026-04-15"},
		// A 31st anchor takes the last day of shorter months.
		{"2026-01-31", "2026-02-28", "2026-02-28", "2026-03-31"},
		{"2026-01-31", "2026-02-27", "2026-01-31", "2026-02-28"},
		{"2026-01-31", "2026-04-30", "2026-04-30", "2026-05-31"},
		{"2024-01-30", "2024-02-29", "2024-02-29", "2024-03-30"},
		// Across a year.
		{"2025-06-20", "2026-01-05", "2025-12-20", "2026-01-20"},
	}
	for _, tc := range tests {
		got := billing.CycleAt(day(tc.anchor), day(tc.at).Add(13*time.Hour))
		if d := billing.DatesOf(got); d.Start != tc.start || d.End != tc.end {
			t.Errorf("anchor %s at %s: %v, want %s..%s", tc.anchor, tc.at, d, tc.start, tc.end)
		}
		if next := got.Next(day(tc.anchor)); !next.Start.Equal(got.End) {
			t.Errorf("anchor %s: next cycle starts %v, not at %v", tc.anchor, next.Start, got.End)
		}
	}
}

func TestCompute(t *testing.T) {
	const M = billing.Micro
	paid := billing.Plan{Paid: true}
	cycle := billing.Period{Start: day("2026-04-01"), End: day("2026-05-01")}
	tests := []struct {
		name string
		acc  billing.Account
		use  billing.Use
		// creditsRemaining, creditsUsed, prepaidRemaining, prepaidUsed
		want [4]uint64
	}{
		{"within the limit", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: 60 * M}}, [4]uint64{40, 60, 50, 0}},
		{"monthly first, then prepaid", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: 120 * M}}, [4]uint64{0, 120, 30, 20}},
		{"past both", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: 200 * M}}, [4]uint64{0, 200, 0, 50}},
		{"earlier cycles drew on the prepaid", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: 110 * M},
				Past: []billing.CycleUse{{Total: 130 * M}, {Total: 90 * M}}}, [4]uint64{0, 110, 10, 10}},
		{"use before the grant is not paid from it", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: 160 * M}, BeforeGrant: 140 * M}, [4]uint64{0, 160, 30, 20}},
		{"past cycle with the grant in it", billing.Account{Plan: paid, CreditsLimit: 100, Prepaid: 50},
			billing.Use{Past: []billing.CycleUse{{Total: 150 * M, BeforeGrant: 120 * M}}}, [4]uint64{100, 0, 20, 0}},
		{"rounded once", billing.Account{CreditsLimit: 10},
			billing.Use{Credits: map[billing.Service]uint64{billing.DAS: M / 2, billing.Photon: M / 2, billing.RPC: M / 2}},
			[4]uint64{9, 2, 0, 0}},
	}
	for _, tc := range tests {
		tc.acc.Cycle = cycle
		r := billing.Compute(tc.acc, tc.use)
		got := [4]uint64{r.CreditsRemaining, r.CreditsUsed, r.PrepaidCreditsRemaining, r.PrepaidCreditsUsed}
		if got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// Per-product credits rounded each, not summed rounded: half a
	// credit in three products is 1 each and 2 in all.
	r := billing.Compute(billing.Account{Cycle: cycle}, billing.Use{Credits: map[billing.Service]uint64{
		billing.DAS: M / 2, billing.Photon: M / 2, billing.RPC: M / 2}})
	if r.Credits.DAS != 1 || r.Credits.Photon != 1 || r.Credits.RPC != 1 || r.CreditsUsed != 2 {
		t.Errorf("rounding: %+v used %d", r.Credits, r.CreditsUsed)
	}
	if r.SubscriptionDetails.BillingCycle != nil {
		t.Error("a free plan has a billing cycle")
	}
	if r.CreditCycle.Start != "2026-04-01" || r.CreditCycle.End != "2026-05-01" {
		t.Errorf("credit cycle %v", r.CreditCycle)
	}
}

func TestParse(t *testing.T) {
	base := billing.Defaults(billing.Families{DAS: []string{"getAsset"}, Photon: []string{"getValidityProof", "getIndexerSlot"},
		Enhanced: []string{"POST /v1/parsed-events/transactions"}})
	for _, tc := range []struct {
		method  string
		service billing.Service
		micro   uint64
	}{
		{"getAsset", billing.DAS, 10 * billing.Micro},
		{"getValidityProof", billing.Photon, 100 * billing.Micro},
		{"getIndexerSlot", billing.Photon, 10 * billing.Micro},
		{"POST /v1/parsed-events/transactions", billing.EnhancedAPI, 10 * billing.Micro},
		{"unlisted", billing.Other, billing.Micro},
	} {
		if s, p := base.PriceOf(tc.method); s != tc.service || p != tc.micro {
			t.Errorf("default %s: %s %d", tc.method, s, p)
		}
	}
	c, err := billing.Parse(base, []byte(`{"methods":{"getAsset":{"service":"das","credits":2.5}},
		"plans":{"gold":{"creditsLimit":5,"paid":true,"rateLimits":{"das":1}}},"adminPerSecond":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, p := c.PriceOf("getAsset"); p != 2_500_000 {
		t.Errorf("overridden price %d", p)
	}
	if _, p := c.PriceOf("getValidityProof"); p != 100*billing.Micro {
		t.Errorf("price not in the file changed: %d", p)
	}
	if p, ok := c.PlanOf("gold"); !ok || p.RateLimits[billing.ClassDAS] != 1 || !p.Paid {
		t.Errorf("plan gold %+v", p)
	}
	if _, ok := c.PlanOf("free"); !ok || c.AdminPerSecond != 2 {
		t.Error("built-in plan lost, or admin rate not read")
	}
	if _, p := base.PriceOf("getAsset"); p != 10*billing.Micro {
		t.Error("Parse changed its base")
	}
	for _, bad := range []string{
		`{"methods":{"x":{"service":"nope","credits":1}}}`,
		`{"methods":{"x":{"service":"das","credits":-1}}}`,
		`{"methods":{"x":{"service":"das","credits":0.0000001}}}`,
		`{"plans":{"p":{"rateLimits":{"admin":1}}}}`,
		`{"plans":{"p":{"rateLimits":{"das":-1}}}}`,
		`{"unknown":1}`,
		`{"adminPerSecond":-1}`,
		`{} {}`,
		`[`,
	} {
		if _, err := billing.Parse(base, []byte(bad)); err == nil || !strings.Contains(err.Error(), "billing config") {
			t.Errorf("Parse(%s) = %v, want an error", bad, err)
		}
	}
	// What JSON prints, Parse reads back the same.
	out, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	again, err := billing.Parse(billing.Config{Methods: map[string]billing.Price{}, Plans: map[string]billing.Plan{}}, out)
	if err != nil {
		t.Fatal(err)
	}
	if o2, _ := again.JSON(); string(o2) != string(out) {
		t.Errorf("round trip differs:\n%s\n%s", out, o2)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"methods":{"a":{"service":"das","credits":1}}}`,
		`{"plans":{"p":{"creditsLimit":1,"rateLimits":{"rpc":3}}}}`, `{"defaultPrice":{"service":"rpc","credits":0.5}}`} {
		f.Add([]byte(s))
	}
	base := billing.Defaults(billing.Families{DAS: []string{"getAsset"}})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := billing.Parse(base, data)
		if err != nil {
			return
		}
		for name := range c.Methods {
			if s, _ := c.PriceOf(name); s == "" {
				t.Fatalf("method %q without a service", name)
			}
		}
	})
}
