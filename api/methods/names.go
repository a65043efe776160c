package methods

import (
	"context"
	"errors"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/store"
)

// unread is a store registration never reads.
type unread struct{}

func (unread) Query(context.Context, string, store.Params) (*store.Result, error) {
	return nil, errors.New("methods: names are listed without a store")
}

// Names are the method names of the families set picks, sorted: what
// the billing configuration prices by family.
func Names(set Set) []string {
	s := unread{}
	return New(Options{Methods: set, Store: s, Slots: checkpoint.NewSlotCache(s, 0)}).Methods()
}
