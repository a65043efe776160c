// Package conformance replays a Photon conformance corpus against dasch:
// for every case it indexes the case's fixtures into an emptied store,
// serves the JSON-RPC API over a real HTTP server, sends the case's request
// and compares the answer with the expected one as JSON values.
//
// Cases whose method dasch does not serve are skipped, and cases listed in
// docs/compat.md (where dasch deliberately answers differently) are
// reported as deviations rather than failures.
package conformance
