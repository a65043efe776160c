package parsedevents

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dasch-labs/dasch/server"
)

func TestGQLCodes(t *testing.T) {
	for _, tc := range []struct {
		err        error
		code, text string
	}{
		{server.BadRequest("limit: bad"), "BAD_REQUEST", "limit: bad"},
		{fmt.Errorf("history: %w", context.DeadlineExceeded), "SERVICE_UNAVAILABLE", "Service unavailable: the request ran out of time"},
		{errors.New("store: connection refused"), "INTERNAL_SERVER_ERROR", "Internal error"},
	} {
		e := toGQL(tc.err).(*gqlError)
		if e.Extensions()["code"] != tc.code || e.Error() != tc.text {
			t.Errorf("%v: %s %q, want %s %q", tc.err, e.Extensions()["code"], e.Error(), tc.code, tc.text)
		}
	}
}

func TestNumber(t *testing.T) {
	for x, want := range map[float64]string{3: "3", -1: "-1", 270893658: "270893658", 1.5: "1.5"} {
		if got := fmt.Sprint(number(x)); got != want {
			t.Errorf("number(%v) = %s, want %s", x, got, want)
		}
	}
}
