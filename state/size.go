package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultMaxStateSize caps the state dir when .vbd.toml sets no
// max_state_size: enough for 20 runs of a few loud checks, whose logs are
// capped at 17 MB each.
const DefaultMaxStateSize = 512 << 20

// ParseSize reads a size such as "512MB", "1 GB", "64KiB" or "1048576".
// The units are powers of 1024 whether written KB or KiB, as logs are
// capped at 1 MB and 16 MB of 2^20 bytes. Zero and negative sizes are
// refused.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	num := strings.TrimRight(t, "KMGTIB ")
	unit := strings.TrimSpace(t[len(num):])
	mult := map[string]int64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10,
		"M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30,
		"T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}[unit]
	num = strings.TrimSpace(num)
	digits := num != "" && strings.Trim(num, "0123456789.") == ""
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || !digits {
		return 0, fmt.Errorf("%q is not a size; write it like \"512MB\" or \"2GB\"", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q is not a positive size; write it like \"512MB\"", s)
	}
	if n*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(n * float64(mult)), nil
}

// Size is the total size of the regular files under dir (symbolic links
// are neither counted nor followed; a dir that is missing, or vanishes
// while it is measured, counts for nothing). size_unix.go, size_other.go.
func Size(dir string) (int64, error) { return treeSize(dir) }

// PruneToSize removes the oldest run directories under stateDir/logs until
// the whole state dir is at most limit bytes (DefaultMaxStateSize when
// limit is zero or less). The directories named in keep (the run in
// progress) are never removed, so a single run larger than the limit
// stays whole. It returns the bytes freed.
func PruneToSize(stateDir string, limit int64, keep ...string) (freed int64, err error) {
	if limit <= 0 {
		limit = DefaultMaxStateSize
	}
	total, err := Size(stateDir)
	if err != nil {
		return 0, fmt.Errorf("measure %s: %w", stateDir, err)
	}
	if total <= limit {
		return 0, nil
	}
	logs := filepath.Join(stateDir, "logs")
	entries, err := os.ReadDir(logs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("list %s: %w", logs, err)
	}
	kept := map[string]bool{}
	for _, k := range keep {
		kept[filepath.Clean(k)] = true
	}
	var runs []string
	for _, e := range entries {
		if p := filepath.Join(logs, e.Name()); e.IsDir() && !kept[p] {
			runs = append(runs, p)
		}
	}
	sort.Strings(runs) // run directories are named by start time
	var errs []error
	for _, run := range runs {
		if total <= limit {
			break
		}
		size, _ := Size(run)
		if err := os.RemoveAll(run); err != nil {
			errs = append(errs, err)
			continue
		}
		total -= size
		freed += size
	}
	return freed, errors.Join(errs...)
}
