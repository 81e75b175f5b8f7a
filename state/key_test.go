package state

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestLoadKeyOnce: the key is made on first use, mode 0600 in a 0700 dir,
// and processes making it at once all end up with the same one.
func TestLoadKeyOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vbd")
	const n = 8
	keys := make([]*Key, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadKey(dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if k == nil || keys[0] == nil || string(k.secret) != string(keys[0].secret) {
			t.Fatal("concurrent first uses made different keys")
		}
	}
	fi, err := os.Stat(filepath.Join(dir, keyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, mode %v; want 0600", err, fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the key dir holds %d entries, want the key alone (temp files removed)", len(entries))
	}
	if !keys[0].Check(keys[0].Seal("k", "/a", []byte("x")), "k", "/a", []byte("x")) {
		t.Error("a seal does not check")
	}
	for _, c := range []struct{ kind, where, body string }{{"j", "/a", "x"}, {"k", "/b", "x"}, {"k", "/a", "y"}} {
		if keys[0].Check(keys[0].Seal("k", "/a", []byte("x")), c.kind, c.where, []byte(c.body)) {
			t.Errorf("a seal checks for %+v", c)
		}
	}
	if (*Key)(nil).Check("00", "k", "/a", nil) {
		t.Error("no key checks a seal")
	}
}

func TestUserStateDir(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if d, _ := UserStateDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); d != "/s/vbd" {
		t.Errorf("XDG_STATE_HOME: %q", d)
	}
	if d, _ := UserStateDir(env(map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"})); d != "/h/.local/state/vbd" {
		t.Errorf("a relative XDG_STATE_HOME is ignored, as the spec says: %q", d)
	}
	if _, err := UserStateDir(env(nil)); err == nil {
		t.Error("no HOME: want an error")
	}
}
