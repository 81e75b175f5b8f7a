package receipt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSealedReceipts: a receipt edited, copied to another store or under
// another name, stripped of its seal, or contradicting itself is never
// reused, and the store says so in one line.
func TestSealedReceipts(t *testing.T) {
	fp := strings.Repeat("b", 64)
	q := Query{Fingerprint: fp, Mode: Full, Now: t0}
	for _, tc := range []struct {
		name   string
		forge  func(t *testing.T, s Store, path string)
		reused bool
		says   string
	}{
		{"untouched", func(*testing.T, Store, string) {}, true, ""},
		{"edited", func(t *testing.T, _ Store, path string) {
			rewrite(t, path, `"passed": 12`, `"passed": 13`)
		}, false, "does not match its seal"},
		{"seal stripped", func(t *testing.T, _ Store, path string) {
			data, _ := os.ReadFile(path)
			i := bytes.LastIndex(data, []byte(`,`+"\n"+`  "mac"`))
			writeBytes(t, path, append(data[:i:i], "\n}\n"...))
		}, false, "carries no seal"},
		{"copied under another name", func(t *testing.T, _ Store, path string) {
			data, _ := os.ReadFile(path)
			_ = os.Remove(path)
			writeBytes(t, filepath.Join(filepath.Dir(path), "29991231T000000.000000000Z-1-aaaaaaaa.json"), data)
		}, false, "does not match its seal"},
		{"copied from another store", func(t *testing.T, s Store, path string) {
			other := Open(t.TempDir())
			other.Key = s.Key
			r := sample(fp, 0, Full)
			if _, err := other.Save(r, t0); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(other.Path(r.ID))
			_ = os.Remove(path)
			writeBytes(t, s.Path(r.ID), data)
		}, false, "does not match its seal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			r := sample(fp, 0, Full)
			path, err := s.Save(r, t0)
			if err != nil {
				t.Fatal(err)
			}
			tc.forge(t, s, path)
			got, err := s.FindReusable(q)
			if err != nil || (got != nil) != tc.reused {
				t.Fatalf("FindReusable = %v, %v; want reused %v", got, err, tc.reused)
			}
			if d := s.Distrusted(); !strings.Contains(d, tc.says) || (tc.says == "") != (d == "") || strings.Contains(d, "\n") {
				t.Errorf("Distrusted() = %q, want one line with %q", d, tc.says)
			}
		})
	}
}

// TestInconsistentReceipt: a sealed receipt that says verified while a
// check failed is refused all the same.
func TestInconsistentReceipt(t *testing.T) {
	s := Open(t.TempDir())
	r := sample(strings.Repeat("c", 64), 0, Full)
	r.Checks[1].Status = "fail"
	if _, err := s.Save(r, t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FindReusable(Query{Fingerprint: r.Fingerprint, Mode: Full, Now: t0}); got != nil {
		t.Fatal("a pass with a failing check was reused")
	}
	if d := s.Distrusted(); !strings.Contains(d, `says verified while check "go vet" is fail`) {
		t.Errorf("Distrusted() = %q", d)
	}
}

func rewrite(t *testing.T, path, from, to string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(from)) {
		t.Fatalf("%s lacks %q (%v)", path, from, err)
	}
	writeBytes(t, path, bytes.Replace(data, []byte(from), []byte(to), 1))
}

func writeBytes(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
