package chdb

/*
#cgo LDFLAGS: -ldl
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unsafe"
)

// LibVersion is the pinned engine package the build fetches.
const LibVersion = "26.7.3-stable.1"

// DefaultLibPath is where scripts/fetch-libchdb.sh caches the library:
// $DASCH_CHDB_LIB, else $DASCH_CHDB_DIR/libchdb.so, else
// ~/.cache/dasch/chdb-<version>/libchdb.so.
func DefaultLibPath() string {
	if p := os.Getenv("DASCH_CHDB_LIB"); p != "" {
		return p
	}
	dir := os.Getenv("DASCH_CHDB_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		dir = filepath.Join(home, ".cache", "dasch", "chdb-"+LibVersion)
	}
	return filepath.Join(dir, "libchdb.so")
}

// engine is the process-wide state of the loaded library. The C library allows
// one engine (one data directory) per process, so this is inherently global;
// it is guarded by mu and touched only by Open, Close and Shutdown.
var engine struct {
	mu       sync.Mutex
	loaded   string // path of the loaded library
	dir      string // data directory of the open DB, "" if none
	shutdown bool
}

// ErrLibrary marks a missing or unloadable libchdb.so.
var ErrLibrary = errors.New("embedded engine library unavailable")

// DefaultAllocator is the engine's allocator options unless the
// environment gives its own: its memory in 2 MiB pages instead of 4 KiB
// where the system grants them on request (transparent huge pages in mode
// "madvise", as on the bench machine, or "always"; "never" ignores it).
// A part of 2.5M rows is squashed into blocks whose columns take tens of
// MiB each, allocated and freed for every part and state step; in 4 KiB
// pages the kernel faulted them in one page at a time. Huge pages cut the
// faults to about a quarter and save some ingest CPU (docs/performance.md,
// "The embedded engine's allocator").
const DefaultAllocator = "thp:always"

// allocatorConf is the allocator option string to load the library with.
func allocatorConf(opt string) string {
	switch opt {
	case "":
		return DefaultAllocator
	case "-":
		return ""
	}
	return opt
}

func loadLocked(path, allocator string) error {
	if engine.loaded == path {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%w: %s not found: run `make libchdb` (or set DASCH_CHDB_LIB to libchdb.so %s)", ErrLibrary, path, LibVersion)
	}
	if st.IsDir() || st.Size() < 1<<20 {
		return fmt.Errorf("%w: %s is not a valid libchdb.so (%d bytes): delete it and run `make libchdb`", ErrLibrary, path, st.Size())
	}
	if engine.loaded != "" {
		return fmt.Errorf("%w: %s is already loaded; one library per process", ErrLibrary, engine.loaded)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cconf := C.CString(allocatorConf(allocator))
	defer C.free(unsafe.Pointer(cconf))
	if msg := C.dasch_load(cpath, cconf); msg != nil {
		return fmt.Errorf("%w: cannot load %s: %s: delete it and run `make libchdb`", ErrLibrary, path, C.GoString(msg))
	}
	engine.loaded = path
	return nil
}

// Version reports the loaded engine's version, or "" if none is loaded.
func Version() string {
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if engine.loaded == "" {
		return ""
	}
	return C.GoString(C.dasch_version())
}

// ErrShutdownIncomplete is the engine declining to join its threads, which
// it does once a data directory holds MergeTree tables (libchdb 26.7). The
// threads end with the process, so callers at exit may ignore it.
var ErrShutdownIncomplete = errors.New("embedded engine: shutdown left engine threads running")

// Shutdown stops the engine's threads. Call once at process exit, after every
// DB is closed; the engine cannot be used again in this process.
func Shutdown() error {
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if engine.loaded == "" || engine.shutdown {
		return nil
	}
	if engine.dir != "" {
		return fmt.Errorf("embedded engine: shutdown with %s still open", engine.dir)
	}
	engine.shutdown = true
	if C.dasch_shutdown() != 0 {
		return ErrShutdownIncomplete
	}
	return nil
}

// cArgs builds a C argv; free with the returned func.
func cArgs(args []string) (**C.char, func()) {
	ptrs := C.malloc(C.size_t(len(args)) * C.size_t(unsafe.Sizeof(uintptr(0))))
	arr := unsafe.Slice((**C.char)(ptrs), len(args))
	for i, a := range args {
		arr[i] = C.CString(a)
	}
	return (**C.char)(ptrs), func() {
		for i := range arr {
			C.free(unsafe.Pointer(arr[i]))
		}
		C.free(ptrs)
	}
}
