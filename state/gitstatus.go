package state

import (
	"bytes"
	"fmt"
	"strings"
)

// Status is `git status --porcelain=v2 -z` read into records. It is the one
// reader of that format in vbd: the tree fingerprint, the tree guard and
// the pre-commit gate all use it.
type Status struct {
	// Head is the commit HEAD names ("# branch.oid", with --branch), or
	// "(initial)" on a branch with no commit yet; "" without --branch.
	Head string
	// Entries are the change, rename, unmerged and untracked records, in
	// git's order. Ignored records and other headers are dropped.
	Entries []StatusEntry
}

// StatusEntry is one record of porcelain v2 output.
type StatusEntry struct {
	// Kind is '1' (changed), '2' (renamed or copied), 'u' (unmerged) or
	// '?' (untracked).
	Kind byte
	// XY is the two-letter index and work-tree state ("M.", ".D", "AA"…);
	// empty for untracked entries.
	XY string
	// Sub is the submodule state: "N..." for a plain file, "S<c><m><u>"
	// for a submodule (commit changed, tracked changes, untracked files).
	Sub string
	// Path is the work-tree path, slash separated and relative to the top
	// of the work tree; an untracked directory (a nested repository) ends
	// in "/".
	Path string
	// Orig is a rename's or copy's source path.
	Orig string
	// Record is the record as git wrote it, with a rename's source path
	// after a NUL, so that hashing it keeps everything git said.
	Record string
}

// Staged reports whether the index differs from HEAD at this path.
func (e StatusEntry) Staged() bool { return e.Kind != '?' && len(e.XY) == 2 && e.XY[0] != '.' }

// Unstaged reports whether the work tree differs from the index at this
// path, or may: an unmerged path always counts.
func (e StatusEntry) Unstaged() bool {
	return e.Kind == 'u' || (e.Kind != '?' && len(e.XY) == 2 && e.XY[1] != '.')
}

// WorkTreeDeleted reports whether the path is gone from the work tree.
func (e StatusEntry) WorkTreeDeleted() bool { return len(e.XY) == 2 && e.XY[1] == 'D' }

// SubmoduleChanged reports whether a submodule's checkout differs from
// what its superproject records, or holds changes of its own.
func (e StatusEntry) SubmoduleChanged() bool { return strings.HasPrefix(e.Sub, "S") && e.Sub != "S..." }

// fieldsBefore is how many space-separated fields precede the path in
// each kind of record.
func fieldsBefore(kind byte) int {
	switch kind {
	case '1':
		return 8 // 1 XY sub mH mI mW hH hI path
	case '2':
		return 9 // 2 XY sub mH mI mW hH hI Xscore path, NUL, orig
	case 'u':
		return 10 // u XY sub m1 m2 m3 mW h1 h2 h3 path
	}
	return 0
}

// ParseStatus reads `git status --porcelain=v2 -z` output, with or without
// --branch. An unknown or truncated record is an error: vbd would rather
// not fingerprint a tree than fingerprint it wrongly.
func ParseStatus(out []byte) (Status, error) {
	var s Status
	for len(out) > 0 {
		rec, rest, _ := bytes.Cut(out, []byte{0})
		out = rest
		if len(rec) == 0 {
			continue
		}
		r := string(rec)
		switch r[0] {
		case '#':
			if oid, ok := strings.CutPrefix(r, "# branch.oid "); ok {
				s.Head = oid
			}
			continue
		case '!':
			continue
		case '?':
			if len(r) < 3 || r[1] != ' ' {
				return s, fmt.Errorf("read git status: unexpected record %q", r)
			}
			s.Entries = append(s.Entries, StatusEntry{Kind: '?', Path: r[2:], Record: r})
			continue
		case '1', '2', 'u':
		default:
			return s, fmt.Errorf("read git status: unexpected record %q", r)
		}
		n := fieldsBefore(r[0])
		fields := strings.SplitN(r, " ", n+1)
		if len(fields) != n+1 || fields[0] != r[:1] || len(fields[1]) != 2 || len(fields[2]) != 4 || fields[n] == "" {
			return s, fmt.Errorf("read git status: malformed record %q", r)
		}
		e := StatusEntry{Kind: r[0], XY: fields[1], Sub: fields[2], Path: fields[n], Record: r}
		if e.Kind == '2' {
			// The source path is the next NUL-terminated field.
			orig, rest, found := bytes.Cut(out, []byte{0})
			if !found && len(orig) == 0 {
				return s, fmt.Errorf("read git status: rename %q without its source path", r)
			}
			out = rest
			e.Orig = string(orig)
			e.Record += "\x00" + e.Orig
		}
		s.Entries = append(s.Entries, e)
	}
	return s, nil
}
