package billing

import "time"

// Record is the specification's Project usage record, member for member
// and in its order; every member is always present.
type Record struct {
	CreditsRemaining        uint64       `json:"creditsRemaining"`
	CreditsUsed             uint64       `json:"creditsUsed"`
	PrepaidCreditsRemaining uint64       `json:"prepaidCreditsRemaining"`
	PrepaidCreditsUsed      uint64       `json:"prepaidCreditsUsed"`
	CreditCycle             Dates        `json:"creditCycle"`
	SubscriptionDetails     Subscription `json:"subscriptionDetails"`
	Credits                 Credits      `json:"credits"`
	Requests                Requests     `json:"requests"`
	DataTransfer            DataTransfer `json:"dataTransfer"`
}

// Dates is a period as the record states it: YYYY-MM-DD, UTC.
type Dates struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Subscription is the plan: BillingCycle is null on a free plan.
type Subscription struct {
	BillingCycle *Dates `json:"billingCycle"`
	CreditsLimit uint64 `json:"creditsLimit"`
	Plan         string `json:"plan"`
}

// Credits are whole credits per service.
type Credits struct {
	RPC                  uint64 `json:"rpc"`
	EnhancedAPI          uint64 `json:"enhancedApi"`
	WalletAPI            uint64 `json:"walletApi"`
	DAS                  uint64 `json:"das"`
	Webhooks             uint64 `json:"webhooks"`
	LaserstreamGrpc      uint64 `json:"laserstreamGrpc"`
	LaserstreamWebsocket uint64 `json:"laserstreamWebsocket"`
	PreConfirmations     uint64 `json:"preConfirmations"`
	Archival             uint64 `json:"archival"`
	Photon               uint64 `json:"photon"`
	Other                uint64 `json:"other"`
}

// Requests count the request-metered services' billed requests.
type Requests struct {
	RPC              uint64 `json:"rpc"`
	EnhancedAPI      uint64 `json:"enhancedApi"`
	WalletAPI        uint64 `json:"walletApi"`
	DAS              uint64 `json:"das"`
	Webhooks         uint64 `json:"webhooks"`
	PreConfirmations uint64 `json:"preConfirmations"`
	Archival         uint64 `json:"archival"`
	Photon           uint64 `json:"photon"`
	Other            uint64 `json:"other"`
}

// DataTransfer is the bytes of the bandwidth-metered services.
type DataTransfer struct {
	LaserstreamGrpc      uint64 `json:"laserstreamGrpc"`
	LaserstreamWebsocket uint64 `json:"laserstreamWebsocket"`
}

// Account is a project's billing state: its plan, its limit (the
// project's own, else the plan's), its prepaid grant and the credit
// cycle asked about.
type Account struct {
	PlanName     string
	Plan         Plan
	CreditsLimit uint64
	Prepaid      uint64
	Cycle        Period
}

// Use is what the request log says a project used.
type Use struct {
	// Credits (micro), Requests and Bytes per service in the cycle.
	Credits, Requests, Bytes map[Service]uint64
	// BeforeGrant is the cycle's credits (micro) before the prepaid
	// grant, when the grant is in the cycle.
	BeforeGrant uint64
	// Past are the cycles since the grant before this one, oldest first.
	Past []CycleUse
}

// CycleUse is one past cycle's credits (micro), and those before the
// grant when it is in that cycle.
type CycleUse struct {
	Total, BeforeGrant uint64
}

// Compute is the usage record of a with u. Credits are spent monthly
// first, then prepaid: a cycle's use past its limit (and past what was
// used before the grant, which the grant did not pay for) draws on the
// prepaid credits until they are gone. Every value is summed in
// micro-credits and rounded once.
func Compute(a Account, u Use) Record {
	limit := a.CreditsLimit * Micro
	prepaid := a.Prepaid * Micro
	var drawn uint64
	for _, c := range u.Past {
		drawn += overflow(c.Total, max(limit, c.BeforeGrant))
	}
	left := prepaid - min(prepaid, drawn)
	var total uint64
	for _, v := range u.Credits {
		total += v
	}
	usedPrepaid := min(left, overflow(total, max(limit, u.BeforeGrant)))
	r := Record{
		CreditsRemaining:        Round(overflow(limit, total)),
		CreditsUsed:             Round(total),
		PrepaidCreditsRemaining: Round(left - usedPrepaid),
		PrepaidCreditsUsed:      Round(usedPrepaid),
		CreditCycle:             DatesOf(a.Cycle),
		SubscriptionDetails:     Subscription{CreditsLimit: a.CreditsLimit, Plan: a.PlanName},
	}
	if a.Plan.Paid {
		d := DatesOf(a.Cycle)
		r.SubscriptionDetails.BillingCycle = &d
	}
	c := func(s Service) uint64 { return Round(u.Credits[s]) }
	r.Credits = Credits{RPC: c(RPC), EnhancedAPI: c(EnhancedAPI), WalletAPI: c(WalletAPI), DAS: c(DAS),
		Webhooks: c(Webhooks), LaserstreamGrpc: c(LaserstreamGrpc), LaserstreamWebsocket: c(LaserstreamWebsocket),
		PreConfirmations: c(PreConfirmations), Archival: c(Archival), Photon: c(Photon), Other: c(Other)}
	n := func(s Service) uint64 { return u.Requests[s] }
	r.Requests = Requests{RPC: n(RPC), EnhancedAPI: n(EnhancedAPI), WalletAPI: n(WalletAPI), DAS: n(DAS),
		Webhooks: n(Webhooks), PreConfirmations: n(PreConfirmations), Archival: n(Archival), Photon: n(Photon), Other: n(Other)}
	r.DataTransfer = DataTransfer{LaserstreamGrpc: u.Bytes[LaserstreamGrpc], LaserstreamWebsocket: u.Bytes[LaserstreamWebsocket]}
	return r
}

// overflow is a − b, or 0 when b is larger.
func overflow(a, b uint64) uint64 {
	if a <= b {
		return 0
	}
	return a - b
}

// Round is micro-credits in whole credits, halves up.
func Round(micro uint64) uint64 { return (micro + Micro/2) / Micro }

// DatesOf states p as the record does.
func DatesOf(p Period) Dates {
	return Dates{Start: p.Start.UTC().Format(time.DateOnly), End: p.End.UTC().Format(time.DateOnly)}
}
