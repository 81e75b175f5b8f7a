package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/state"
)

// TestInstallRefusesLinks: for every harness of the table, a hook config
// whose directory, or which itself, is a symbolic link to outside the
// repository is refused by Install and Uninstall with a *state.LinkError
// naming the link and its target, and nothing is written where it points
// (issue 22 §6). The guard's entries live in the same file.
func TestInstallRefusesLinks(t *testing.T) {
	for _, n := range Names {
		spec, _ := Lookup(n)
		first, _, _ := strings.Cut(spec.File, "/")
		for _, linked := range []string{first, spec.File} {
			t.Run(string(n)+"/"+linked, func(t *testing.T) {
				root, outside := t.TempDir(), t.TempDir()
				link := filepath.Join(root, filepath.FromSlash(linked))
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				target := outside
				if linked == spec.File {
					target = filepath.Join(outside, "config.json")
					if err := os.WriteFile(target, []byte("{}\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.Symlink(target, link); err != nil {
					t.Fatal(err)
				}
				for what, do := range map[string]func() error{
					"install":   func() error { _, err := Install(root, spec, testHook(n), ours); return err },
					"uninstall": func() error { _, err := Uninstall(root, spec, ours); return err },
				} {
					err := do()
					var le *state.LinkError
					if !errors.As(err, &le) || le.Link != link || le.Target != target {
						t.Fatalf("%s: err %v, want a LinkError naming %s -> %s", what, err, link, target)
					}
					if !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), target) {
						t.Errorf("%s: message does not name the link and its target: %v", what, err)
					}
				}
				entries, _ := os.ReadDir(outside)
				if linked == spec.File {
					if data, _ := os.ReadFile(target); string(data) != "{}\n" || len(entries) != 1 {
						t.Errorf("the link's target changed: %q, %d entries", data, len(entries))
					}
				} else if len(entries) != 0 {
					t.Errorf("install wrote through the link: %v", entries)
				}
				if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("the link was replaced: %v %v", fi, err)
				}
			})
		}
	}
}
