package mcpserver

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReadPage checks a page of any log against the log split into lines:
// the count, the window (from the end too) and each line, cut to
// maxLineBytes and marked.
func FuzzReadPage(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), 1, 2)
	f.Add([]byte("a\nb\nc"), -2, 200)
	f.Add([]byte(""), 1, 1)
	f.Add([]byte("\n\n\r\n"), 0, 3)
	f.Add(bytes.Repeat([]byte("x"), 3*maxLineBytes), -1, 1)
	f.Fuzz(func(t *testing.T, log []byte, from, n int) {
		if n < 1 || n > maxPageLines || from < -1000 || from > 1000 {
			return
		}
		var want []string
		if len(log) > 0 {
			want = strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
		}
		p, err := readPage(bytes.NewReader(log), from, n)
		if err != nil {
			t.Fatal(err)
		}
		if p.total != len(want) {
			t.Fatalf("total %d, want %d", p.total, len(want))
		}
		first := from
		switch {
		case from == 0:
			first = 1
		case from < 0:
			first = max(len(want)+from+1, 1)
		}
		if p.first != first {
			t.Fatalf("first %d, want %d", p.first, first)
		}
		if len(p.lines) > n {
			t.Fatalf("%d lines, asked for %d", len(p.lines), n)
		}
		for i, got := range p.lines {
			w := strings.TrimSuffix(want[first-1+i], "\r")
			if len(w) > maxLineBytes {
				w = strings.TrimSuffix(want[first-1+i][:maxLineBytes], "\r") + " …"
			}
			if got != w {
				t.Fatalf("line %d: %q, want %q", first+i, got, w)
			}
		}
		// A short page is the end of the log, or the byte cap.
		if len(p.lines) < n && first+len(p.lines)-1 < len(want) && !p.cut {
			t.Fatalf("page of %d lines stopped at line %d of %d without the byte cap", len(p.lines), p.last, len(want))
		}
	})
}
