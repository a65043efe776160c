package billing

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"

	"github.com/goccy/go-json"
)

// Micro is one millionth of a credit: prices and usage are whole numbers
// of them, so sums are exact in any order and rounding happens once, at
// the end (Round).
const Micro = 1_000_000

// Price is what one call of a method costs and where it is reported.
type Price struct {
	Service Service `json:"service"`
	// Credits is the price of one call; fractions are allowed down to a
	// millionth.
	Credits float64 `json:"credits"`
}

// Plan is a plan's monthly credits and rate limits.
type Plan struct {
	// CreditsLimit is the monthly credits, before a project's own limit.
	CreditsLimit uint64 `json:"creditsLimit"`
	// Paid plans have a billing cycle; a free plan answers it as null.
	Paid bool `json:"paid"`
	// RateLimits are requests per second per class; a class absent or 0
	// is not limited.
	RateLimits map[Class]float64 `json:"rateLimits"`
}

// Config is the price list and the plans.
type Config struct {
	// DefaultPrice prices a method the list does not name.
	DefaultPrice Price `json:"defaultPrice"`
	// Methods price each method by name.
	Methods map[string]Price `json:"methods"`
	// Plans by name.
	Plans map[string]Plan `json:"plans"`
	// AdminPerSecond is the administration service's limit per project.
	AdminPerSecond float64 `json:"adminPerSecond"`

	micro map[string]uint64
}

// Helius's published prices: every DAS and Enhanced API call 10 credits, every ZK
// Compression call 10, getValidityProof 100 (docs/compat.md, Usage).
const (
	dasCredits      = 10
	enhancedCredits = 10
	photonCredits   = 10
	proofCredits    = 100
	defaultAdminRPS = 5
)

// Families are the methods served, by family, that Defaults prices.
type Families struct {
	DAS, Photon []string
	// Enhanced are the Enhanced API endpoints (parsed events).
	Enhanced []string
}

// Defaults is the configuration without a file: the families priced as
// Helius prices them, and Helius's plans.
func Defaults(f Families) Config {
	c := Config{
		DefaultPrice:   Price{Service: Other, Credits: 1},
		Methods:        map[string]Price{},
		AdminPerSecond: defaultAdminRPS,
	}
	for _, m := range f.DAS {
		c.Methods[m] = Price{Service: DAS, Credits: dasCredits}
	}
	for _, m := range f.Photon {
		p := Price{Service: Photon, Credits: photonCredits}
		if m == "getValidityProof" || m == "getValidityProofV2" {
			p.Credits = proofCredits
		}
		c.Methods[m] = p
	}
	for _, m := range f.Enhanced {
		c.Methods[m] = Price{Service: EnhancedAPI, Credits: enhancedCredits}
	}
	c.Plans = DefaultPlans()
	c.compile()
	return c
}

// DefaultPlans are Helius's plans: monthly credits, and the RPC and DAS
// rate limits, compressed state rationed as RPC is.
func DefaultPlans() map[string]Plan {
	plan := func(credits uint64, paid bool, rpc, das float64) Plan {
		return Plan{CreditsLimit: credits, Paid: paid,
			RateLimits: map[Class]float64{ClassRPC: rpc, ClassPhoton: rpc, ClassDAS: das}}
	}
	return map[string]Plan{
		"free":         plan(1_000_000, false, 10, 2),
		"developer":    plan(10_000_000, true, 50, 10),
		"business":     plan(100_000_000, true, 200, 50),
		"professional": plan(200_000_000, true, 500, 100),
	}
}

// Parse reads a configuration file's contents over base: the methods and
// plans it names replace base's, the others stay. Unknown members,
// unknown services and classes, and prices that are negative, not finite
// or finer than a millionth are errors.
func Parse(base Config, data []byte) (Config, error) {
	var f struct {
		DefaultPrice   *Price           `json:"defaultPrice"`
		Methods        map[string]Price `json:"methods"`
		Plans          map[string]Plan  `json:"plans"`
		AdminPerSecond *float64         `json:"adminPerSecond"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("billing config: %w", err)
	}
	if dec.More() {
		return Config{}, fmt.Errorf("billing config: more than one JSON value")
	}
	c := base.clone()
	if f.DefaultPrice != nil {
		if err := checkPrice("defaultPrice", *f.DefaultPrice); err != nil {
			return Config{}, err
		}
		c.DefaultPrice = *f.DefaultPrice
	}
	for _, name := range sortedKeys(f.Methods) {
		p := f.Methods[name]
		if name == "" {
			return Config{}, fmt.Errorf("billing config: a method without a name")
		}
		if err := checkPrice("method "+name, p); err != nil {
			return Config{}, err
		}
		c.Methods[name] = p
	}
	for _, name := range sortedKeys(f.Plans) {
		p := f.Plans[name]
		if name == "" {
			return Config{}, fmt.Errorf("billing config: a plan without a name")
		}
		for cl, v := range p.RateLimits {
			if !slices.Contains(Classes(), cl) || cl == ClassAdmin {
				return Config{}, fmt.Errorf("billing config: plan %s: unknown rate-limit class %q (want das, photon or rpc)", name, cl)
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return Config{}, fmt.Errorf("billing config: plan %s: rate limit %s %v is not a rate", name, cl, v)
			}
		}
		c.Plans[name] = p
	}
	if f.AdminPerSecond != nil {
		v := *f.AdminPerSecond
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return Config{}, fmt.Errorf("billing config: adminPerSecond %v is not a rate", v)
		}
		c.AdminPerSecond = v
	}
	c.compile()
	return c, nil
}

// Load reads the configuration file at path over base.
func Load(base Config, path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("billing config: %w", err)
	}
	return Parse(base, data)
}

func checkPrice(what string, p Price) error {
	if !knownService(p.Service) {
		return fmt.Errorf("billing config: %s: unknown service %q", what, p.Service)
	}
	if p.Credits < 0 || math.IsNaN(p.Credits) || math.IsInf(p.Credits, 0) || p.Credits > 1e9 {
		return fmt.Errorf("billing config: %s: credits %v is not a price", what, p.Credits)
	}
	if m := p.Credits * Micro; math.Abs(m-math.Round(m)) > 1e-6 {
		return fmt.Errorf("billing config: %s: credits %v is finer than a millionth", what, p.Credits)
	}
	return nil
}

func (c Config) clone() Config {
	out := c
	out.Methods = make(map[string]Price, len(c.Methods))
	for k, v := range c.Methods {
		out.Methods[k] = v
	}
	out.Plans = make(map[string]Plan, len(c.Plans))
	for k, v := range c.Plans {
		out.Plans[k] = v
	}
	return out
}

func (c *Config) compile() {
	c.micro = make(map[string]uint64, len(c.Methods))
	for k, p := range c.Methods {
		c.micro[k] = toMicro(p.Credits)
	}
}

func toMicro(credits float64) uint64 { return uint64(math.Round(credits * Micro)) }

// PriceOf is the service and price in micro-credits of one call of
// method; a method the list does not name has the default price.
func (c *Config) PriceOf(method string) (Service, uint64) {
	if p, ok := c.Methods[method]; ok {
		return p.Service, c.micro[method]
	}
	return c.DefaultPrice.Service, toMicro(c.DefaultPrice.Credits)
}

// PlanOf is the plan named name; an unknown plan has no rate limits and
// no credits.
func (c *Config) PlanOf(name string) (Plan, bool) {
	p, ok := c.Plans[name]
	return p, ok
}

// JSON is the configuration as a file would state it, for `dasch serve
// --print-billing`.
func (c Config) JSON() ([]byte, error) {
	return json.MarshalIndent(struct {
		DefaultPrice   Price            `json:"defaultPrice"`
		Methods        map[string]Price `json:"methods"`
		Plans          map[string]Plan  `json:"plans"`
		AdminPerSecond float64          `json:"adminPerSecond"`
	}{c.DefaultPrice, c.Methods, c.Plans, c.AdminPerSecond}, "", "  ")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
