package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/state"
)

// copyRepo copies the repository's work tree (and .git, without vbd's own
// state) into tmp, leaving out the skipped dirs. The cleanup removes the
// copy and any state vbd kept for it.
func copyRepo(ctx context.Context, repo state.Repo, tmp string, skip []string) (string, func(), error) {
	dst := filepath.Join(tmp, filepath.Base(repo.Root))
	skip = append([]string{}, skip...)
	if repo.IsGit() {
		if sd, err := state.Dir(ctx, repo); err == nil {
			skip = append(skip, sd)
		}
	}
	cleanup := func() {
		// The copy's state is removed even when doctor was interrupted.
		ctx := context.WithoutCancel(ctx)
		if r, err := state.Find(ctx, dst); err == nil && !r.IsGit() {
			if sd, err := state.Dir(ctx, r); err == nil {
				_ = os.RemoveAll(sd)
			}
		}
		_ = os.RemoveAll(dst)
	}
	if err := state.CopyDir(ctx, repo.Root, dst, skip); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("cannot copy %s for --prove: %w; free space in the temp dir or point TMPDIR at another, then run vbd doctor --prove again", repo.Root, err)
	}
	return dst, cleanup, nil
}

// plantFailure appends a failing [[check]] to the copy's .vbd.toml, keeping
// the user's own checks and settings; if the file cannot take an appended
// table, the planted check replaces it.
func plantFailure(dir string) error {
	path := filepath.Join(dir, detect.ConfigFile)
	old, _ := os.ReadFile(path)
	check := fmt.Sprintf("\n[[check]]\nname = %q\nrun = %q\n", plantedFail, "echo 'planted by vbd doctor --prove: this check fails on purpose'; exit 1")
	data := append(append([]byte{}, old...), []byte(check)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("plant the failing check: %w", err)
	}
	if _, err := detect.LoadConfig(os.DirFS(dir)); err != nil {
		return os.WriteFile(path, []byte(check), 0o644)
	}
	return nil
}

// plantPass gives the copy a .vbd.toml with one passing check and every
// detected check disabled, so the proof does not depend on the suite.
func plantPass(ctx context.Context, dir string) error {
	path := filepath.Join(dir, detect.ConfigFile)
	check := fmt.Sprintf("[[check]]\nname = %q\nrun = %q\n", plantedPass, "echo 'planted by vbd doctor --prove: this check passes'")
	if err := os.WriteFile(path, []byte(check), 0o644); err != nil {
		return fmt.Errorf("plant the passing check: %w", err)
	}
	_, _, plan, err := gate.LoadPlan(ctx, dir, false)
	if err != nil {
		return fmt.Errorf("plan the passing copy: %w", err)
	}
	var names []string
	for _, c := range plan.Checks {
		if c.Name != plantedPass {
			names = append(names, fmt.Sprintf("%q", c.Name))
		}
	}
	if len(names) == 0 {
		return nil
	}
	cfg := "disable = [" + strings.Join(names, ", ") + "]\n\n" + check
	return os.WriteFile(path, []byte(cfg), 0o644)
}

func firstLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return lines
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:159]) + "…"
	}
	return s
}
