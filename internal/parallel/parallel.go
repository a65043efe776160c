// Package parallel runs a list of jobs on a fixed set of workers.
package parallel

import "sync"

// Run hands jobs to workers goroutines, calling fn(worker, job) with worker
// in [0, workers). It stops feeding at the first error and returns it once
// every worker has finished. Binding a worker index lets callers give each
// worker its own connection.
func Run[T any](jobs []T, workers int, fn func(worker int, job T) error) error {
	workers = max(1, workers)
	work := make(chan T)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := fn(w, j); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, j := range jobs {
		select {
		case work <- j:
		case err = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}
