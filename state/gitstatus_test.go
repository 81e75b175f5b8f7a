package state

import (
	"slices"
	"strings"
	"testing"
)

func nul(recs ...string) []byte { return []byte(strings.Join(recs, "\x00") + "\x00") }

const (
	zero = "0000000000000000000000000000000000000000"
	oidA = "e69de29bb2d1d6434b8b29ae899e3a4e2e3a8a01"
)

func TestParseStatus(t *testing.T) {
	tests := map[string]struct {
		out     []byte
		head    string
		want    []StatusEntry
		wantErr bool
	}{
		"empty": {out: nil},
		"branch headers": {
			out:  nul("# branch.oid "+oidA, "# branch.head main", "# branch.ab +? -?"),
			head: oidA,
		},
		"initial": {out: nul("# branch.oid (initial)", "# branch.head main"), head: "(initial)"},
		"changed in the work tree": {
			out:  nul("1 .M N... 100644 100644 100644 " + oidA + " " + oidA + " a b.go"),
			want: []StatusEntry{{Kind: '1', XY: ".M", Sub: "N...", Path: "a b.go"}},
		},
		"renamed, source path after a NUL": {
			out:  nul("2 R. N... 100644 100644 100644 "+oidA+" "+oidA+" R100 new.go", "old.go", "? u.txt"),
			want: []StatusEntry{{Kind: '2', XY: "R.", Sub: "N...", Path: "new.go", Orig: "old.go"}, {Kind: '?', Path: "u.txt"}},
		},
		"unmerged": {
			out:  nul("u UU N... 100644 100644 100644 100644 " + oidA + " " + oidA + " " + oidA + " c.go"),
			want: []StatusEntry{{Kind: 'u', XY: "UU", Sub: "N...", Path: "c.go"}},
		},
		"submodule with new commits": {
			out:  nul("1 .M SC.. 160000 160000 160000 " + oidA + " " + oidA + " lib"),
			want: []StatusEntry{{Kind: '1', XY: ".M", Sub: "SC..", Path: "lib"}},
		},
		"untracked nested repository, ignored dropped": {
			out:  nul("? nested/", "! debug.log"),
			want: []StatusEntry{{Kind: '?', Path: "nested/"}},
		},
		"path with a newline": {
			out:  nul("? a\nb"),
			want: []StatusEntry{{Kind: '?', Path: "a\nb"}},
		},
		"unknown record":  {out: nul("3 what"), wantErr: true},
		"short record":    {out: nul("1 .M N... 100644"), wantErr: true},
		"bad XY":          {out: nul("1 M N... 100644 100644 100644 " + oidA + " " + oidA + " a"), wantErr: true},
		"empty untracked": {out: nul("? "), wantErr: true},
		"rename at end":   {out: []byte("2 R. N... 100644 100644 100644 " + oidA + " " + oidA + " R100 new.go\x00"), wantErr: true},
		"deleted":         {out: nul("1 .D N... 100644 100644 000000 " + oidA + " " + oidA + " gone.go"), want: []StatusEntry{{Kind: '1', XY: ".D", Sub: "N...", Path: "gone.go"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			st, err := ParseStatus(tc.out)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if st.Head != tc.head {
				t.Errorf("Head = %q, want %q", st.Head, tc.head)
			}
			got := slices.Clone(st.Entries)
			for i := range got {
				got[i].Record = ""
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("entries = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestStatusEntryPredicates(t *testing.T) {
	tests := []struct {
		e                                     StatusEntry
		staged, unstaged, deleted, submodChng bool
	}{
		{StatusEntry{Kind: '1', XY: "M.", Sub: "N..."}, true, false, false, false},
		{StatusEntry{Kind: '1', XY: ".M", Sub: "N..."}, false, true, false, false},
		{StatusEntry{Kind: '1', XY: ".D", Sub: "N..."}, false, true, true, false},
		{StatusEntry{Kind: 'u', XY: "UU", Sub: "N..."}, true, true, false, false},
		{StatusEntry{Kind: '?'}, false, false, false, false},
		{StatusEntry{Kind: '1', XY: ".M", Sub: "S.M."}, false, true, false, true},
		{StatusEntry{Kind: '1', XY: "..", Sub: "S..."}, false, false, false, false},
	}
	for _, tc := range tests {
		if got := [4]bool{tc.e.Staged(), tc.e.Unstaged(), tc.e.WorkTreeDeleted(), tc.e.SubmoduleChanged()}; got != [4]bool{tc.staged, tc.unstaged, tc.deleted, tc.submodChng} {
			t.Errorf("%+v: staged, unstaged, deleted, submodule changed = %v", tc.e, got)
		}
	}
}

// FuzzParseStatus: git's output is trusted, but a parser that panics on a
// surprise would take a hook down with it. Whatever it accepts, every
// entry has a path and the records it returns are the input's.
func FuzzParseStatus(f *testing.F) {
	f.Add(nul("# branch.oid "+oidA, "1 .M N... 100644 100644 100644 "+oidA+" "+oidA+" a b.go"))
	f.Add(nul("2 R. N... 100644 100644 100644 "+oidA+" "+oidA+" R100 new.go", "old.go", "? u.txt"))
	f.Add(nul("u UU N... 100644 100644 100644 100644 " + oidA + " " + oidA + " " + oidA + " c.go"))
	f.Add(nul("? nested/", "! debug.log", "? a\nb"))
	f.Add([]byte("1 .M N... 100644 100644 100644 " + zero + " " + zero + " "))
	f.Add([]byte("2 R. N... 1 1 1 x y R100 p"))
	f.Add([]byte{0, 0, '?'})
	f.Fuzz(func(t *testing.T, out []byte) {
		st, err := ParseStatus(out)
		if err != nil {
			return
		}
		for _, e := range st.Entries {
			if e.Path == "" {
				t.Fatalf("entry without a path: %+v", e)
			}
			if !strings.Contains(string(out), strings.SplitN(e.Record, "\x00", 2)[0]) {
				t.Fatalf("record %q is not in the input", e.Record)
			}
			switch e.Kind {
			case '1', '2', 'u':
				if len(e.XY) != 2 {
					t.Fatalf("XY %q", e.XY)
				}
			case '?':
			default:
				t.Fatalf("kind %q", e.Kind)
			}
		}
	})
}
