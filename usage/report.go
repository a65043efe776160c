package usage

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/store"
)

// timeParam is a DateTime64(3, 'UTC') parameter's text.
func timeParam(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000") }

// Account is p's billing state in the credit cycle holding now.
func Account(cfg *billing.Config, p auth.Project, now time.Time) billing.Account {
	plan, _ := cfg.PlanOf(p.Plan)
	a := billing.Account{PlanName: p.Plan, Plan: plan, CreditsLimit: plan.CreditsLimit, Prepaid: p.PrepaidCredits,
		Cycle: billing.CycleAt(p.Anchor(), now)}
	if p.CreditsLimit != nil {
		a.CreditsLimit = *p.CreditsLimit
	}
	return a
}

// Report is p's usage record at now, computed from the request log:
// the billed rows of the current credit cycle, and for the prepaid
// credits those of every cycle since they were granted.
func Report(ctx context.Context, q store.Querier, cfg *billing.Config, p auth.Project, now time.Time) (billing.Record, error) {
	a := Account(cfg, p, now)
	u, err := readUse(ctx, q, p, a.Cycle)
	if err != nil {
		return billing.Record{}, err
	}
	return billing.Compute(a, u), nil
}

func readUse(ctx context.Context, q store.Querier, p auth.Project, cycle billing.Period) (billing.Use, error) {
	u := billing.Use{Credits: map[billing.Service]uint64{}, Requests: map[billing.Service]uint64{}, Bytes: map[billing.Service]uint64{}}
	params := store.Params{"p": p.ID, "start": timeParam(cycle.Start), "end": timeParam(cycle.End), "grant": timeParam(p.PrepaidAt)}
	res, err := q.Query(ctx, `SELECT service, sum(credits_micro), count(), sum(response_bytes), sumIf(credits_micro, at < {grant:DateTime64(3, 'UTC')})
		FROM request_log
		WHERE project_id = {p:String} AND billed AND at >= {start:DateTime64(3, 'UTC')} AND at < {end:DateTime64(3, 'UTC')}
		GROUP BY service`, params)
	if err != nil {
		return u, fmt.Errorf("read usage: %w", err)
	}
	for _, r := range res.Rows {
		svc := billing.Service(r[0].(string))
		u.Credits[svc] += r[1].(uint64)
		u.Requests[svc] += r[2].(uint64)
		u.Bytes[svc] += r[3].(uint64)
		u.BeforeGrant += r[4].(uint64)
	}
	if p.PrepaidCredits == 0 || !p.PrepaidAt.Before(cycle.Start) {
		return u, nil
	}
	// The grant is older than this cycle: what earlier cycles drew on it.
	u.BeforeGrant = 0
	anchor := p.Anchor()
	var past []billing.Period
	for c := billing.CycleAt(anchor, p.PrepaidAt); c.Start.Before(cycle.Start); c = c.Next(anchor) {
		past = append(past, c)
	}
	params["from"] = timeParam(past[0].Start)
	res, err = q.Query(ctx, `SELECT toDate(at) AS d, at >= {grant:DateTime64(3, 'UTC')} AS after, sum(credits_micro)
		FROM request_log
		WHERE project_id = {p:String} AND billed AND at >= {from:DateTime64(3, 'UTC')} AND at < {start:DateTime64(3, 'UTC')}
		GROUP BY d, after`, params)
	if err != nil {
		return u, fmt.Errorf("read prepaid usage: %w", err)
	}
	u.Past = make([]billing.CycleUse, len(past))
	for _, r := range res.Rows {
		day := r[0].(time.Time)
		i := sort.Search(len(past), func(i int) bool { return past[i].End.After(day) })
		if i == len(past) {
			continue
		}
		v := r[2].(uint64)
		u.Past[i].Total += v
		if !r[1].(bool) {
			u.Past[i].BeforeGrant += v
		}
	}
	return u, nil
}
