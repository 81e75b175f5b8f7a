package gate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Probes records what a computation consulted under a root, so that a later
// stop can tell, with one stat a path, that none of it changed: each file
// read and each directory listed, by its stat (statKey: dev, inode, mode,
// size, mtime and ctime), and for a path that was not there, the nearest
// path above it that was (a directory's times move when an entry is made,
// removed or renamed in it). No program can set ctime, so a file written
// and its mtime restored still shows. A stat of a link follows it, so a
// link retargeted shows as another file.
//
// A nil *Probes records nothing. Probes are broken, and vouch for nothing,
// on a platform without statKey, when a path could not be stat'ed other
// than as missing, when a missing path's nearest existing path is a link
// to nothing (what it would point to is not watched), or when a path
// changed while it was being consulted.
type Probes struct {
	root string
	// at is when recording started, before any stat: a key whose times
	// are within a clock tick of it cannot vouch for a write just after
	// the stat (git's "racily clean" files).
	at   time.Time
	keys map[string]statKey // slash path relative to root ("." the root)
	// missing are the paths found missing, their nearest existing path
	// above in keys: a runner looked up in six bin directories that are
	// not there is one stat of the directory above them, not six.
	missing map[string]bool
	broken  bool
}

// NewProbes starts recording what is consulted under root, at the file
// system's time at (time.Now, not a test's clock), before anything is
// consulted.
func NewProbes(root string, at time.Time) *Probes {
	return &Probes{root: root, at: at, keys: map[string]statKey{}, missing: map[string]bool{}, broken: !statKeys}
}

// See records the slash path p (relative to the root) before it is read,
// listed or resolved.
func (r *Probes) See(p string) {
	if r == nil || r.broken {
		return
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		r.broken = true
		return
	}
	for q := p; ; q = path.Dir(q) {
		if _, seen := r.keys[q]; seen || r.missing[q] {
			// Stat'ed already, before anything under it was read (a
			// missing path's nearest existing one with it).
			return
		}
		full := filepath.Join(r.root, filepath.FromSlash(q))
		fi, err := os.Stat(full)
		if err == nil {
			r.add(q, fi)
			return
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			r.broken = true
			return
		}
		if _, err := os.Lstat(full); err == nil || q == "." {
			// A link to nothing (what it would point to is not watched),
			// or no root.
			r.broken = true
			return
		}
		r.missing[q] = true
	}
}

func (r *Probes) add(p string, fi fs.FileInfo) {
	k, ok := keyOfStat(fi)
	if was, seen := r.keys[p]; !ok || seen && was != k {
		r.broken = true
		return
	}
	r.keys[p] = k
}

// Keys are the stat keys recorded, encoded; false when the probes vouch
// for nothing: broken, empty, or a key so close to the start that a write
// in the same tick of the file system's clock would not show.
func (r *Probes) Keys() (map[string]string, bool) {
	if r == nil || r.broken || len(r.keys) == 0 {
		return nil, false
	}
	out := make(map[string]string, len(r.keys))
	for p, k := range r.keys {
		if k.racy(r.at) {
			return nil, false
		}
		out[p] = k.digest()
	}
	return out, true
}

// ProbesHold reports whether every path of keys (Probes.Keys) under root
// still has the stat it had: then what was computed from them would come
// out the same. False on any change, any error, no keys, or a platform
// without statKey.
func ProbesHold(root string, keys map[string]string) bool {
	if !statKeys || len(keys) == 0 {
		return false
	}
	for p, want := range keys {
		if !fs.ValidPath(p) {
			return false
		}
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return false
		}
		k, ok := keyOfStat(fi)
		if !ok || k.digest() != want {
			return false
		}
	}
	return true
}

// ProbedFS is os.DirFS(root), recording in r every path it opens, stats
// or lists (for detect.LoadConfig, detect.RecipeScripts, fs.Glob); plain
// os.DirFS(root) when r is nil.
func ProbedFS(root string, r *Probes) fs.FS {
	if r == nil {
		return os.DirFS(root)
	}
	return probedFS{fsys: os.DirFS(root), r: r}
}

type probedFS struct {
	fsys fs.FS
	r    *Probes
}

func (f probedFS) Open(name string) (fs.File, error) {
	f.r.See(name)
	return f.fsys.Open(name)
}

func (f probedFS) Stat(name string) (fs.FileInfo, error) {
	f.r.See(name)
	return fs.Stat(f.fsys, name)
}

func (f probedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.r.See(name)
	return fs.ReadDir(f.fsys, name)
}

// statKey is what a stat says of a file's content (state's fileKey).
type statKey struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

// digest is the key as a memo keeps it: 64 bits of a hash of every field
// (a record holds one a path it consulted, and is read at every stop).
func (k statKey) digest() string {
	var b [44]byte
	binary.LittleEndian.PutUint64(b[0:], k.dev)
	binary.LittleEndian.PutUint64(b[8:], k.ino)
	binary.LittleEndian.PutUint32(b[16:], k.mode)
	binary.LittleEndian.PutUint64(b[20:], uint64(k.size))
	binary.LittleEndian.PutUint64(b[28:], uint64(k.mtime))
	binary.LittleEndian.PutUint64(b[36:], uint64(k.ctime))
	sum := sha256.Sum256(b[:])
	return hex.EncodeToString(sum[:8])
}

// racy reports whether a file stat'ed after `at` could still change
// without its stat showing it: the kernel's file times come from a clock
// that ticks every few milliseconds, or every second on some file systems,
// so a write just after the stat can leave the same times.
func (k statKey) racy(at time.Time) bool {
	margin := int64(20 * time.Millisecond)
	if k.mtime%1e9 == 0 && k.ctime%1e9 == 0 {
		margin = int64(2 * time.Second)
	}
	edge := at.UnixNano() - margin
	return k.mtime >= edge || k.ctime >= edge
}
