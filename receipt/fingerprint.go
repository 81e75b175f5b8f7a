package receipt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrNotGit means the directory is not inside a git work tree. There is no
// fingerprint then, so a run there is never reused: without git, vbd cannot
// see cheaply and exactly what changed.
var ErrNotGit = errors.New("not inside a git work tree: no tree fingerprint, so runs here are never reused")

// gitTimeout bounds every git command of a fingerprint, so a wedged git
// cannot hang a hook; a fingerprint that times out is no fingerprint.
const gitTimeout = 30 * time.Second

// fingerprintVersion changes whenever what is hashed changes, so an old
// receipt can never match a fingerprint computed differently.
const fingerprintVersion = "vbd.fingerprint/v1"

// Fingerprint is a content hash of everything in the work tree at repoRoot
// that a check could see and git knows about: HEAD's tree, the index (staged
// changes), unstaged changes to tracked files and untracked, non-ignored
// files, by content, never by mtime. extra is hashed after the tree, in
// order; vbd passes Inputs (config, plan, its own version, tool versions).
//
// It costs a handful of git commands (rev-parse, ls-files -s, status
// --porcelain=v2 -z, hash-object --stdin-paths for changed and untracked
// files only), run in parallel, and never writes to the repository: no
// write-tree, and status runs with GIT_OPTIONAL_LOCKS=0 so it does not
// refresh the index. Outside a git work tree it returns ErrNotGit.
func Fingerprint(repoRoot string, extra ...string) (string, error) {
	return fingerprint(repoRoot, false, extra)
}

// StagedFingerprint is Fingerprint for a staged snapshot: HEAD's tree and
// the index only, which is what a commit will hold and what git's
// pre-commit path checks out and verifies. It is hashed apart from work-tree
// fingerprints, so the two never match each other.
func StagedFingerprint(repoRoot string, extra ...string) (string, error) {
	return fingerprint(repoRoot, true, extra)
}

func fingerprint(root string, staged bool, extra []string) (string, error) {
	tree, err := treeOf(root, staged)
	if err != nil {
		return "", err
	}
	return combine(tree, staged, extra), nil
}

// treeOf is the digest of the tree part of a fingerprint.
func treeOf(root string, staged bool) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	top, err := gitRun(ctx, root, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", ErrNotGit
	}
	return treeDigest(ctx, strings.TrimSpace(string(top)), staged)
}

// combine hashes a tree digest with its domain and the extra inputs.
func combine(tree string, staged bool, extra []string) string {
	h := sha256.New()
	field(h, fingerprintVersion)
	if staged {
		field(h, VerifiedStaged)
	} else {
		field(h, VerifiedWorkTree)
	}
	field(h, tree)
	for _, e := range extra {
		field(h, e)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// field writes s length-prefixed, so that no two lists of fields hash alike.
func field(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	io.WriteString(h, s)
}

// treeDigest hashes the state of the work tree (or only HEAD and the index
// when staged) at top, the work tree's root.
func treeDigest(ctx context.Context, top string, staged bool) (string, error) {
	var (
		wg                     sync.WaitGroup
		head, index, status    []byte
		headErr, idxErr, stErr error
	)
	wg.Go(func() {
		// Absent on a fresh repository: exit 1 with -q --verify.
		head, headErr = gitRun(ctx, top, nil, "rev-parse", "-q", "--verify", "HEAD^{tree}")
		var ee *exec.ExitError
		if errors.As(headErr, &ee) && ee.ExitCode() == 1 {
			head, headErr = []byte("none"), nil
		}
	})
	wg.Go(func() {
		// -v tags assume-unchanged (lower case) and skip-worktree (S)
		// entries, whose edits status does not report.
		index, idxErr = gitRun(ctx, top, nil, "ls-files", "-s", "-v", "-z")
	})
	if !staged {
		wg.Go(func() {
			status, stErr = gitRun(ctx, top, nil, "status", "--porcelain=v2", "-z",
				"--untracked-files=all", "--ignore-submodules=none", "--no-renames")
		})
	}
	wg.Wait()
	if err := errors.Join(headErr, idxErr, stErr); err != nil {
		return "", err
	}
	h := sha256.New()
	field(h, "head")
	field(h, strings.TrimSpace(string(head)))
	field(h, "index")
	h.Write(index)
	if staged {
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	entries, err := parseStatus(status)
	if err != nil {
		return "", err
	}
	entries = append(entries, hiddenEntries(index)...)
	if err := contents(ctx, top, entries); err != nil {
		return "", err
	}
	field(h, "work tree")
	for _, e := range entries {
		field(h, e.record)
		field(h, e.content)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// entry is one path whose work-tree state differs from the index (or may,
// when git was told not to look), with what it holds.
type entry struct {
	record  string // the status record (or index tag line), as git wrote it
	path    string
	deleted bool
	// submodule is true for a submodule with changes inside it, which are
	// fingerprinted by recursing into it.
	submodule bool
	content   string
}

// parseStatus reads `git status --porcelain=v2 -z`. The index side of each
// change is already in ls-files' output; what status adds is the work-tree
// side: which tracked files differ from the index, which are deleted, and
// which untracked files exist.
func parseStatus(out []byte) ([]entry, error) {
	var entries []entry
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := string(recs[i])
		if rec == "" {
			continue
		}
		var (
			fields []string
			e      = entry{record: rec}
		)
		switch rec[0] {
		case '1':
			fields = strings.SplitN(rec, " ", 9)
		case '2':
			fields = strings.SplitN(rec, " ", 10)
			if i+1 < len(recs) { // the rename's source path is its own field
				i++
				e.record += "\x00" + string(recs[i])
			}
		case 'u':
			fields = strings.SplitN(rec, " ", 11)
		case '?':
			e.path = rec[2:]
			entries = append(entries, e)
			continue
		case '!', '#':
			continue
		default:
			return nil, fmt.Errorf("git status: unexpected record %q", rec)
		}
		if len(fields) < 9 {
			return nil, fmt.Errorf("git status: short record %q", rec)
		}
		e.path = fields[len(fields)-1]
		xy, sub := fields[1], fields[2]
		switch {
		case strings.HasPrefix(sub, "S") && sub != "S...":
			e.submodule = true
		case xy[1] == '.' && rec[0] != 'u':
			// The work tree matches the index, which ls-files hashed.
			continue
		case xy[1] == 'D':
			e.deleted = true
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// hiddenEntries lists index entries marked assume-unchanged or
// skip-worktree: status does not compare them with the work tree, so their
// contents are hashed directly rather than trusted.
func hiddenEntries(lsFiles []byte) []entry {
	var out []entry
	for rec := range bytes.SplitSeq(lsFiles, []byte{0}) {
		if len(rec) < 2 || rec[0] == 'H' {
			continue
		}
		_, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		out = append(out, entry{record: "hidden " + string(rec), path: string(path)})
	}
	return out
}

// contents fills in each entry's content: "deleted", a symlink's target, a
// submodule's or nested repository's own digest, or the blob id of a
// file's bytes from one `git hash-object --stdin-paths`. Files are hashed
// as they are on disk (--no-filters), since that is what checks read.
func contents(ctx context.Context, top string, entries []entry) error {
	var paths []string
	var files []*entry
	for i := range entries {
		e := &entries[i]
		abs := filepath.Join(top, filepath.FromSlash(strings.TrimSuffix(e.path, "/")))
		if e.deleted {
			e.content = "deleted"
			continue
		}
		info, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			e.content = "missing" // a skip-worktree entry, or deleted since status ran
			continue
		case err != nil:
			return fmt.Errorf("fingerprint %s: %w", e.path, err)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(abs)
			if err != nil {
				return fmt.Errorf("fingerprint %s: %w", e.path, err)
			}
			e.content = "symlink " + target
			continue
		case info.IsDir():
			// A submodule, or an untracked directory status did not open:
			// a nested repository. Both are hashed by what they hold.
			sub, err := treeDigest(ctx, abs, false)
			if err != nil {
				e.content = "directory"
				if e.submodule {
					return fmt.Errorf("fingerprint submodule %s: %w", e.path, err)
				}
				continue
			}
			e.content = "tree " + sub
			continue
		case !info.Mode().IsRegular():
			e.content = "special " + info.Mode().String()
			continue
		}
		e.content = fmt.Sprintf("mode %o ", info.Mode().Perm()&0o111)
		if strings.ContainsAny(e.path, "\n\r") {
			// --stdin-paths reads lines; such a path is hashed here.
			sum, err := fileSHA256(abs)
			if err != nil {
				return err
			}
			e.content += "sha256 " + sum
			continue
		}
		paths = append(paths, e.path)
		files = append(files, e)
	}
	if len(paths) == 0 {
		return nil
	}
	stdin := strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := gitRun(ctx, top, stdin, "hash-object", "--no-filters", "--stdin-paths")
	if err != nil {
		return err
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(files) {
		return fmt.Errorf("git hash-object: %d ids for %d paths", len(ids), len(files))
	}
	for i, e := range files {
		e.content += "blob " + ids[i]
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// gitRun runs git in dir with a fixed locale and without optional locks
// (status must not rewrite the index under a concurrent git command), and
// returns its stdout. The inherited environment is kept on purpose: in a
// git hook GIT_INDEX_FILE names the index being committed.
func gitRun(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
