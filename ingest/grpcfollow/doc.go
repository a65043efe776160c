// Package grpcfollow holds the end-to-end tests of following a Yellowstone
// gRPC (Geyser) stream: a loopback server (ingest/source/geyser/geysertest) serving
// the corpus fixtures, the grpc:URL source, the whole pipeline and the
// real embedded store, checked against ingesting the same fixtures as
// files. It has no code of its own.
package grpcfollow
