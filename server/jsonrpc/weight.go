package jsonrpc

// Weight is what a call asks for, before it runs: one, plus the
// elements of every array among its params' members (named params) or
// among its params (positional ones), such as getAssetBatch's ids. The
// server bounds a request's total (Server's MaxRequestItems) so that a
// batch of calls each naming a thousand ids is refused unrun.
func (r *Request) Weight() int {
	p := trimSpace(r.Params)
	if r.Err != nil || len(p) == 0 {
		return 1
	}
	n := 1
	count := func(v []byte) bool {
		if len(v) > 0 && v[0] == '[' {
			eachElement(v, func([]byte) bool { n++; return true })
		}
		return true
	}
	switch p[0] {
	case '{':
		eachMember(p, func(_, v []byte) bool { return count(v) })
	case '[':
		eachElement(p, count)
	}
	return n
}
