package light

// progKind is how the instruction-data path sees an instruction when it
// looks for Light transactions inside one outer instruction and its CPIs.
type progKind uint8

const (
	kindOther progKind = iota
	kindLightSystem
	kindInsertIntoQueues
	kindSolanaSystem
	kindToken    // compressed-token Transfer2
	kindRegistry // Light registry
)

// classify mirrors Light's event parser: instructions with less than 12
// bytes of data never take part; system-program instructions that create
// CPI context accounts, and InsertIntoQueues calls not made by the Light
// system program (checked through the registered program PDA), are
// treated as unrelated so they cannot fake or break a pattern.
func classify(in *instr) progKind {
	if len(in.data) < 12 {
		return kindOther
	}
	disc := discriminator(in.data)
	switch in.program {
	case solanaSystemProgram():
		return kindSolanaSystem
	case LightSystemProgram():
		if disc == discCreateCPIContext {
			return kindOther
		}
		return kindLightSystem
	case AccountCompressionProgram():
		if disc == discInsertIntoQueues && len(in.accounts) > 2 && in.accounts[1] == registeredProgramPDA() {
			return kindInsertIntoQueues
		}
		return kindOther
	case CompressedTokenProgram():
		if in.data[0] == tokenTransfer2 {
			return kindToken
		}
		return kindOther
	case RegistryProgram():
		return kindRegistry
	}
	return kindOther
}

// cpiPattern locates one Light transaction: the executing system program
// instruction and the InsertIntoQueues it issued.
type cpiPattern struct {
	system int
	insert int
}

// findPatterns scans backwards for InsertIntoQueues instructions and, for
// each, the system program instruction that issued it: the nearest Light
// system instruction before it with at least one native system program
// instruction (fee transfers) in between. Earlier Light system
// instructions up to the previous InsertIntoQueues are the CPI-context
// writers of the same transaction and are skipped. The result is in
// execution order.
func findPatterns(kinds []progKind) []cpiPattern {
	var found []cpiPattern
	next := len(kinds)
	for i := len(kinds) - 1; i >= 0; i-- {
		if i > next || kinds[i] != kindInsertIntoQueues {
			continue
		}
		p, stop, ok := matchPattern(i, kinds)
		next = stop
		if ok {
			found = append(found, p)
		}
	}
	for l, r := 0, len(found)-1; l < r; l, r = l+1, r-1 {
		found[l], found[r] = found[r], found[l]
	}
	return found
}

// matchPattern walks back from the InsertIntoQueues at insert. stop is
// where the walk ended, so the caller resumes there: at an earlier
// InsertIntoQueues that starts the previous pattern, or at the instruction
// that broke this one.
func matchPattern(insert int, kinds []progKind) (p cpiPattern, stop int, ok bool) {
	p.insert = insert
	sawNativeSystem, foundSystem := false, false
	for i := insert - 1; i >= 0; i-- {
		k := kinds[i]
		switch {
		case k == kindSolanaSystem:
			sawNativeSystem = true
		case k == kindLightSystem && sawNativeSystem && !foundSystem:
			p.system, foundSystem = i, true
		case foundSystem && (k == kindLightSystem || k == kindToken || k == kindRegistry || k == kindOther):
			// CPI-context writers, the token program and the registry up the
			// CPI chain, or unrelated instructions: keep walking.
		case k == kindInsertIntoQueues && foundSystem:
			return p, i, true
		case !foundSystem:
			return p, i, false
		}
	}
	return p, 0, foundSystem
}
