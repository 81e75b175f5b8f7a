package doctor

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	if err := copyTree(repo.Root, dst, skip); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("cannot copy %s for --prove: %w; free space in the temp dir or point TMPDIR at another, then run vbd doctor --prove again", repo.Root, err)
	}
	return dst, cleanup, nil
}

func copyTree(src, dst string, skip []string) error {
	for i, s := range skip {
		if r, err := filepath.EvalSymlinks(s); err == nil {
			skip[i] = r
		}
	}
	if r, err := filepath.EvalSymlinks(src); err == nil {
		src = r
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, p) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case info.Mode().IsRegular():
			return copyFile(p, target, info.Mode().Perm())
		}
		return nil // sockets, devices, pipes
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
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
