// Package geyserpb is the Go code protoc generates from proto/, the part
// of the Yellowstone gRPC (Geyser) interface dasch reads. Run make proto
// after changing a .proto file; the generated files are committed.
package geyserpb
