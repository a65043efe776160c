package parsed

import "fmt"

// decodeSystem decodes the System program (bincode, a u32 tag).
func decodeSystem(data []byte, n int) (op, error) {
	r := &reader{b: data}
	tag := r.u32()
	if r.err != nil {
		return op{}, r.err
	}
	var o op
	switch tag {
	case 0:
		o = op{name: "createAccount", accounts: []string{"fundingAccount", "newAccount"}}
		lamports, space, owner := r.u64(), r.u64(), r.pubkey()
		o.args = map[string]any{"lamports": lamports, "space": space, "owner": owner}
		o.native = &nativeMove{from: 0, to: 1, lamports: lamports}
	case 1:
		o = op{name: "assign", accounts: []string{"account"}, args: map[string]any{"owner": r.pubkey()}}
	case 2:
		lamports := r.u64()
		o = op{name: "transfer", accounts: []string{"from", "to"}, args: map[string]any{"lamports": lamports}}
		o.native = &nativeMove{from: 0, to: 1, lamports: lamports}
	case 3:
		o = op{name: "createAccountWithSeed", accounts: []string{"fundingAccount", "createdAccount", "baseAccount"}}
		base, seed, lamports, space, owner := r.pubkey(), r.str(), r.u64(), r.u64(), r.pubkey()
		o.args = map[string]any{"base": base, "seed": seed, "lamports": lamports, "space": space, "owner": owner}
		o.native = &nativeMove{from: 0, to: 1, lamports: lamports}
	case 4:
		o = op{name: "advanceNonceAccount", accounts: []string{"nonceAccount", "recentBlockhashesSysvar", "nonceAuthority"}}
	case 5:
		lamports := r.u64()
		o = op{name: "withdrawNonceAccount", accounts: []string{"nonceAccount", "recipient", "recentBlockhashesSysvar", "rentSysvar", "nonceAuthority"},
			args: map[string]any{"lamports": lamports}}
		o.native = &nativeMove{from: 0, to: 1, lamports: lamports}
	case 6:
		o = op{name: "initializeNonceAccount", accounts: []string{"nonceAccount", "recentBlockhashesSysvar", "rentSysvar"},
			args: map[string]any{"authority": r.pubkey()}}
	case 7:
		o = op{name: "authorizeNonceAccount", accounts: []string{"nonceAccount", "nonceAuthority"},
			args: map[string]any{"newAuthority": r.pubkey()}}
	case 8:
		o = op{name: "allocate", accounts: []string{"account"}, args: map[string]any{"space": r.u64()}}
	case 9:
		base, seed, space, owner := r.pubkey(), r.str(), r.u64(), r.pubkey()
		o = op{name: "allocateWithSeed", accounts: []string{"account", "baseAccount"},
			args: map[string]any{"base": base, "seed": seed, "space": space, "owner": owner}}
	case 10:
		base, seed, owner := r.pubkey(), r.str(), r.pubkey()
		o = op{name: "assignWithSeed", accounts: []string{"account", "baseAccount"},
			args: map[string]any{"base": base, "seed": seed, "owner": owner}}
	case 11:
		lamports, seed, owner := r.u64(), r.str(), r.pubkey()
		o = op{name: "transferWithSeed", accounts: []string{"from", "baseAccount", "to"},
			args: map[string]any{"lamports": lamports, "fromSeed": seed, "fromOwner": owner}}
		o.native = &nativeMove{from: 0, to: 2, lamports: lamports}
	case 12:
		o = op{name: "upgradeNonceAccount", accounts: []string{"nonceAccount"}}
	default:
		return op{}, fmt.Errorf("unknown System instruction %d", tag)
	}
	if err := r.done(); err != nil {
		return op{}, fmt.Errorf("%s: %w", o.name, err)
	}
	if o.native != nil {
		return needAccounts(o, n, max(o.native.from, o.native.to)+1)
	}
	return o, nil
}
