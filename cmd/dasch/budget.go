package main

// budgetFlag turns a memory budget flag in MiB into bytes. An index is
// bounded, never unbounded: 0 and below are refused (turn the index off
// with its own flag instead), as is a figure past what bytes can count.
func budgetFlag(name string, mb int64) (int64, error) {
	if mb <= 0 || mb > 1<<(63-20)-1 {
		return 0, usagef("--%s %d: want a budget of at least 1 MiB", name, mb)
	}
	return mb << 20, nil
}
