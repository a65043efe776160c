package das

import (
	"bytes"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// AssetID is an asset id param: a base58 32-byte address.
type AssetID solana.Pubkey

// UnmarshalJSON accepts a base58 string of exactly 32 bytes.
func (a *AssetID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return jsonrpc.InvalidParams("expected a base58 string")
	}
	if s == "" || len(s) > 44 {
		return jsonrpc.InvalidParams(quote(s) + " is not a base58 32-byte address")
	}
	raw, err := base58.Decode(s)
	if err != nil {
		return jsonrpc.InvalidParams(quote(s) + " is not valid base58")
	}
	if len(raw) != 32 {
		return jsonrpc.InvalidParams(quote(s) + " decodes to " + strconv.Itoa(len(raw)) + " bytes, want 32")
	}
	copy(a[:], raw)
	return nil
}

// AssetIDs is a list of asset ids; a bad element is reported with its
// position.
type AssetIDs []AssetID

// UnmarshalJSON decodes a JSON array of base58 ids.
func (l *AssetIDs) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return jsonrpc.InvalidParams("expected an array of base58 strings")
	}
	out := make(AssetIDs, len(raw))
	for i, r := range raw {
		if err := out[i].UnmarshalJSON(r); err != nil {
			msg := err.Error()
			if je, ok := err.(*jsonrpc.Error); ok {
				msg = je.Message
			}
			return jsonrpc.InvalidParams("element " + strconv.Itoa(i) + ": " + msg)
		}
	}
	*l = out
	return nil
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// Options are the display options, accepted as `options` or its alias
// `displayOptions`. Unknown members are refused so a misspelt flag is not
// silently ignored. GrandTotal and NativeBalance act on lists only.
type Options struct {
	asset.Options
	GrandTotal, NativeBalance bool
}

var optionFields = []string{
	"showUnverifiedCollections", "showCollectionMetadata", "showFungible",
	"showInscription", "showZeroBalance", "showNativeBalance", "showGrandTotal",
	"showRawData", "requireFullIndex", "showSystemMetadata", "showClosedAccounts",
}

// optionsJSON holds every option a client may send; the ones dasch does not
// act on for getAsset are accepted and ignored, as other providers do.
type optionsJSON struct {
	ShowUnverifiedCollections *bool `json:"showUnverifiedCollections"`
	ShowCollectionMetadata    *bool `json:"showCollectionMetadata"`
	ShowFungible              *bool `json:"showFungible"`
	ShowInscription           *bool `json:"showInscription"`
	ShowZeroBalance           *bool `json:"showZeroBalance"`
	ShowNativeBalance         *bool `json:"showNativeBalance"`
	ShowGrandTotal            *bool `json:"showGrandTotal"`
	ShowRawData               *bool `json:"showRawData"`
	RequireFullIndex          *bool `json:"requireFullIndex"`
	ShowSystemMetadata        *bool `json:"showSystemMetadata"`
	ShowClosedAccounts        *bool `json:"showClosedAccounts"`
}

// UnmarshalJSON decodes an options object, refusing unknown members and
// wrong types with the member's name.
func (o *Options) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	// Checked first: the params decoder would also take an array, and its
	// message speaks of params, not of this member.
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return jsonrpc.InvalidParams("expected an object")
	}
	var in optionsJSON
	if err := jsonrpc.DecodeParams(b, &in, optionFields); err != nil {
		return err
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&o.ShowUnverifiedCollections, in.ShowUnverifiedCollections)
	set(&o.ShowCollectionMetadata, in.ShowCollectionMetadata)
	set(&o.ShowFungible, in.ShowFungible)
	set(&o.ShowInscription, in.ShowInscription)
	set(&o.ShowZeroBalance, in.ShowZeroBalance)
	set(&o.GrandTotal, in.ShowGrandTotal)
	set(&o.NativeBalance, in.ShowNativeBalance)
	return nil
}

// decode decodes params into dst with the method's fields, turning the
// decoder's param errors into the spec's 400 answers.
func decode(raw []byte, dst any, fields []string) error {
	err := jsonrpc.DecodeParams(raw, dst, fields)
	if err == nil {
		return nil
	}
	if je, ok := err.(*jsonrpc.Error); ok {
		if je.HTTPStatus != 0 {
			return je
		}
		msg := je.Message
		if len(msg) < 15 || msg[:15] != "Invalid params:" {
			msg = "Invalid params: " + msg
		}
		return invalidParams(msg)
	}
	return err
}
