// Package config holds the configuration files dasch ships with, embedded
// in the binary so that a fresh store needs no file to start from.
package config

import (
	"bytes"
	_ "embed"
)

// trees.json is the tree list Photon seeds before indexing (the "trees"
// member; the other members document it).
//
//go:embed trees.json
var defaultTrees []byte

// DefaultTrees returns the default state tree seed in the trees.json
// format; the caller owns the copy.
func DefaultTrees() []byte { return bytes.Clone(defaultTrees) }
