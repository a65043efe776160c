package solana

import "fmt"

func errIndex(what string, i, n int) error {
	return fmt.Errorf("%s index %d out of range (%d account keys)", what, i, n)
}

func errAt(what string, i int, err error) error {
	return fmt.Errorf("%s %d: %w", what, i, err)
}
