package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// hashFiles returns the git blob id of each file's bytes as they are on
// disk (--no-filters: what a check reads, not what git would store), from
// one `git hash-object --stdin-paths` in g.Dir; paths are slash paths
// relative to it. It is vbd's one file hasher.
//
// --stdin-paths reads one path a line, so a path holding a newline or a
// carriage return cannot be given to it; such a file is hashed here and
// its id is "sha256:" and the SHA-256 of its bytes. The two never collide.
func hashFiles(ctx context.Context, g GitCmd, paths []string) ([]string, error) {
	ids := make([]string, len(paths))
	var (
		batch []string
		at    []int
	)
	for i, p := range paths {
		if strings.ContainsAny(p, "\n\r") {
			sum, err := fileSHA256(filepath.Join(g.Dir, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			ids[i] = "sha256:" + sum
			continue
		}
		batch = append(batch, p)
		at = append(at, i)
	}
	if len(batch) == 0 {
		return ids, nil
	}
	g.Stdin = strings.NewReader(strings.Join(batch, "\n") + "\n")
	out, err := g.Run(ctx, "hash-object", "--no-filters", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("hash changed files: %w", err)
	}
	got := strings.Fields(string(out))
	if len(got) != len(batch) {
		return nil, fmt.Errorf("git hash-object: %d ids for %d paths", len(got), len(batch))
	}
	for j, i := range at {
		ids[i] = got[j]
	}
	return ids, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
