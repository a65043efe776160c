// Package billing is what a request costs and what a project has used:
// the service each method belongs to, its price in credits, the plans
// (monthly credits and rate limits per service class), credit cycles and
// the Project usage record the admin endpoint answers. It does no I/O
// but reading its configuration file, so it is tested exhaustively.
package billing

// Service is a product usage is reported under: the members of the
// usage record's credits and requests.
type Service string

// The services of the usage record, in its order.
const (
	RPC                  Service = "rpc"
	EnhancedAPI          Service = "enhancedApi"
	WalletAPI            Service = "walletApi"
	DAS                  Service = "das"
	Webhooks             Service = "webhooks"
	LaserstreamGrpc      Service = "laserstreamGrpc"
	LaserstreamWebsocket Service = "laserstreamWebsocket"
	PreConfirmations     Service = "preConfirmations"
	Archival             Service = "archival"
	Photon               Service = "photon"
	Other                Service = "other"
)

// Services lists every service, in the record's order.
func Services() []Service {
	return []Service{RPC, EnhancedAPI, WalletAPI, DAS, Webhooks, LaserstreamGrpc, LaserstreamWebsocket,
		PreConfirmations, Archival, Photon, Other}
}

func knownService(s Service) bool {
	for _, v := range Services() {
		if v == s {
			return true
		}
	}
	return false
}

// Class is a rate-limit group: each plan rations each class apart.
type Class string

// The rate-limit classes. Admin is the administration service.
const (
	ClassDAS    Class = "das"
	ClassPhoton Class = "photon"
	ClassRPC    Class = "rpc"
	ClassAdmin  Class = "admin"
)

// Classes lists every class.
func Classes() []Class { return []Class{ClassDAS, ClassPhoton, ClassRPC, ClassAdmin} }

// ClassOf is the rate-limit class of a service: DAS and Enhanced APIs
// share one limit, compressed state has its own, the rest are RPC.
func ClassOf(s Service) Class {
	switch s {
	case DAS, EnhancedAPI, WalletAPI:
		return ClassDAS
	case Photon:
		return ClassPhoton
	}
	return ClassRPC
}
