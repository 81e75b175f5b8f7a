package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// baselineTree is a cheap fingerprint of a git work tree's content: HEAD,
// `git status --porcelain=v2 -z` (which carries the index's blob ids) and
// a hash of every changed or untracked file's current content. Two equal
// fingerprints mean the tree vbd would verify is the same. Ignored files
// do not count. It is deliberately minimal and private, so the receipt
// package's full tree fingerprint can replace it.
func baselineTree(ctx context.Context, root string) (string, error) {
	head, err := gitOut(ctx, root, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		// A repository without commits still has a status to compare.
		head = []byte("(no commits)")
	}
	status, err := gitOut(ctx, root, "status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "head %s\x00", bytes.TrimSpace(head))
	h.Write(status)
	h.Write([]byte{0})
	for _, p := range statusPaths(status) {
		fmt.Fprintf(h, "%s\x00%s\x00", p, fileDigest(filepath.Join(root, filepath.FromSlash(p))))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// statusPaths returns the work-tree path of each entry of porcelain v2 -z
// output: changed ("1"), renamed or copied ("2", whose original path
// follows as its own NUL-terminated field), unmerged ("u") and untracked.
func statusPaths(status []byte) []string {
	fields := strings.Split(string(status), "\x00")
	var out []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		switch f[0] {
		case '1':
			out = appendField(out, f, 8)
		case '2':
			out = appendField(out, f, 9)
			i++ // the original path
		case 'u':
			out = appendField(out, f, 10)
		case '?':
			out = append(out, strings.TrimPrefix(f, "? "))
		}
	}
	return out
}

// appendField appends the path that follows n space-separated fields.
func appendField(out []string, line string, n int) []string {
	parts := strings.SplitN(line, " ", n+1)
	if len(parts) == n+1 {
		out = append(out, parts[n])
	}
	return out
}

// fileDigest hashes a path's current content: a file's bytes, a symlink's
// target, or a marker for a directory (a submodule) or a missing path.
func fileDigest(p string) string {
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case err != nil:
		return "error " + err.Error()
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(p)
		return "link " + t
	case fi.IsDir():
		return "dir"
	}
	f, err := os.Open(p)
	if err != nil {
		return "error " + err.Error()
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "error " + err.Error()
	}
	return fmt.Sprintf("%o %s", fi.Mode().Perm()&0o111, hex.EncodeToString(h.Sum(nil)))
}

// gitOut runs git with its own pipes (never vbd's stdout or stderr) and
// returns stdout.
func gitOut(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
