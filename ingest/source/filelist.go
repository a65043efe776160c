package source

import (
	"context"
	"fmt"
)

// FileList reads the given files in the given order, each recognised by
// content like Files does. It serves callers that must index exactly these
// inputs in exactly this order (conformance runs, replays); their slots
// must then not decrease, unless the run forces every item into one slot.
type FileList struct {
	paths []string
}

// NewFileList returns a source over paths, read in order. A missing or
// unreadable file becomes a dead letter, not an error.
func NewFileList(paths []string) Source {
	return &FileList{paths: append([]string(nil), paths...)}
}

// Spec implements Source.
func (l *FileList) Spec() string { return fmt.Sprintf("list:%d files", len(l.paths)) }

// Read implements Source.
func (l *FileList) Read(ctx context.Context, emit func(Item) error) error {
	e := emitter{emit: emit}
	for _, p := range l.paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		f := scanned{path: p}
		classify(&f)
		if err := e.file(f); err != nil {
			return err
		}
	}
	return nil
}
