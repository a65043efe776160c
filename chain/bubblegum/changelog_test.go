package bubblegum

import "testing"

// TestChangeLogsFixtures reads the change logs of every fixture
// transaction: one per tree-changing Bubblegum instruction, the same ones
// Parse attaches to its events, each path consistent with its index.
func TestChangeLogsFixtures(t *testing.T) {
	for name, tx := range allTxs(t) {
		cls, err := ChangeLogs(tx)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		evs, err := Parse(tx)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		var want []ChangeLog
		for _, e := range evs {
			if e.ChangeLog != nil {
				want = append(want, *e.ChangeLog)
			}
		}
		// Tree-level instructions (create_tree logs the empty tree at seq
		// 0) add change logs Parse has no event for: Parse's are a
		// subsequence, in order.
		i := 0
		for _, cl := range cls {
			if i < len(want) && cl.Seq == want[i].Seq && cl.Tree == want[i].Tree && cl.Index == want[i].Index && len(cl.Path) == len(want[i].Path) {
				i++
			}
		}
		if i != len(want) {
			t.Errorf("%s: %d of Parse's %d change logs found among %d", name, i, len(want), len(cls))
		}
		for _, cl := range cls {
			if err := checkPath(&cl); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	// mint_transfer_burn's tree is of depth 14 (REF's test trees).
	cls, err := ChangeLogs(loadTx(t, txMintV1))
	if err != nil || len(cls) != 2 || cls[1].Depth() != 14 || cls[1].Seq != 1 || cls[1].Index != 0 {
		t.Fatalf("mint change log %+v, %v", cls, err)
	}
}

func TestChangeLogsErrors(t *testing.T) {
	mint := loadTx(t, txMintV1)
	// The fixture creates the tree first: the empty tree's change log
	// (seq 0), then the mint's.
	good, err := ChangeLogs(mint)
	if err != nil || len(good) != 2 || good[0].Seq != 0 || good[1].Seq != 1 {
		t.Fatal(good, err)
	}
	noops := 0 // withNoop writes the data into each of them
	for _, in := range mint.Inner {
		if isNoop(in.ProgramID) {
			noops++
		}
	}
	encode := func(cl ChangeLog) []byte {
		b := []byte{eventChangeLog, 0}
		b = append(b, cl.Tree[:]...)
		b = append(b, byte(len(cl.Path)), 0, 0, 0)
		for _, n := range cl.Path {
			b = append(b, n.Node[:]...)
			b = append(b, byte(n.Index), byte(n.Index>>8), byte(n.Index>>16), byte(n.Index>>24))
		}
		for i := 0; i < 8; i++ {
			b = append(b, byte(cl.Seq>>(8*i)))
		}
		return append(b, byte(cl.Index), byte(cl.Index>>8), byte(cl.Index>>16), byte(cl.Index>>24))
	}
	wrongIndex := good[1]
	wrongIndex.Path = append([]PathNode(nil), good[1].Path...)
	wrongIndex.Path[3].Index++
	pastEnd := good[1]
	pastEnd.Index = 1 << 14
	rootOnly := good[1]
	rootOnly.Path = good[1].Path[len(good[1].Path)-1:]
	tests := []struct {
		name    string
		noop    []byte
		wantErr bool
		wantN   int
	}{
		{"re-encoded, in every noop", encode(good[1]), false, noops},
		{"node index off its path", encode(wrongIndex), true, 0},
		{"leaf index past the tree", encode(pastEnd), true, 0},
		{"root only", encode(rootOnly), true, 0},
		{"truncated", encode(good[1])[:40], true, 0},
		{"foreign noop data", []byte{9, 9}, false, 0},
		{"leaf event only", []byte{eventApplicationData, 0, 0, 0, 0, 0}, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cls, err := ChangeLogs(withNoop(mint, tc.noop))
			if (err != nil) != tc.wantErr || len(cls) != tc.wantN {
				t.Fatalf("%d change logs, err %v; want %d, error %v", len(cls), err, tc.wantN, tc.wantErr)
			}
		})
	}
	failed := *mint
	failed.Err = []byte(`{"InstructionError":[0,"Custom"]}`)
	if cls, err := ChangeLogs(&failed); err != nil || cls != nil {
		t.Errorf("failed transaction: %v %v", cls, err)
	}
}

// FuzzChangeLogs feeds arbitrary noop data: every outcome is change logs
// whose paths check or an error, never a panic.
func FuzzChangeLogs(f *testing.F) {
	mint := loadTx(f, txMintV1)
	for _, in := range mint.Inner {
		if isNoop(in.ProgramID) {
			f.Add(in.Data)
		}
	}
	f.Add([]byte{0, 0})
	f.Fuzz(func(t *testing.T, noop []byte) {
		cls, err := ChangeLogs(withNoop(mint, noop))
		if err != nil {
			return
		}
		for i := range cls {
			if err := checkPath(&cls[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
