package detect

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"unicode/utf8"
)

// readMarker reads a file that marks a project (go.mod, package.json, a
// Makefile). A missing file is no project. A file vbd cannot read, or
// that is binary, becomes an error row for its root: its checks are
// unknown, so the run must not pass as if the project were not there.
func (d *detector) readMarker(eco ecoID, dir, p string) ([]byte, bool) {
	data, err := fs.ReadFile(d.fsys, p)
	if err != nil {
		if !errNotExist(err) {
			d.project()
			d.unreadable(eco, dir, p, err)
		}
		return nil, false
	}
	if why := undecodable(data); why != "" {
		d.project()
		d.unreadable(eco, dir, p, errors.New(why))
		return nil, false
	}
	return data, true
}

// undecodable says why data is not a text file vbd can parse, or "".
func undecodable(data []byte) string {
	if bytes.IndexByte(data, 0) >= 0 {
		return "it is binary (it holds NUL bytes), not text"
	}
	if !utf8.Valid(data) {
		return "it is not UTF-8 text"
	}
	return ""
}

// unreadable adds the error row for a marker vbd cannot read.
func (d *detector) unreadable(eco ecoID, dir, p string, err error) {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "permission denied", without "open <path>:"
	}
	msg := fmt.Sprintf("cannot read %s: %v", p, err)
	d.add(eco, Check{
		Name:    "read " + p,
		Kind:    KindOther,
		Argv:    []string{"cat", path.Base(p)},
		Dir:     dir,
		Root:    dir,
		Source:  p,
		Reason:  "vbd cannot tell which checks " + p + " defines; make it readable (permissions, encoding) or remove it",
		Skipped: Skip{Kind: SkipError, Detail: msg},
		Error:   msg,
		Runner:  RunnerOpaque,
	})
}
