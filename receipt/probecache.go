package receipt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// The answer of `go version` in a directory is kept, sealed, in the
// user's state dir, keyed by everything that decides it: the go binary
// (its resolved path and its file's identity: size, mtime, and on POSIX
// device, inode and ctime), the probe's environment (GOTOOLCHAIN,
// GOFLAGS, GOENV, PATH…; not what the fingerprint leaves out either), every go.mod and go.work from the directory up
// to the root (their go and toolchain lines switch toolchains), the go
// env file and $GOROOT/go.env. A Stop of a Go monorepo asked `go version`
// once per module, 3 ms of CPU each, to find what it had found at the
// last stop. Only a go binary is cached: a script on PATH named go (a
// version manager's shim, which decides by files of its own) and a
// binary resolved under another name (mise's) are asked every time. The
// entry is evidence keyed by content, never authority: a key it does not
// match (anything above changed) is a miss, an entry whose seal does not
// check is a miss, and an answer other than exit 0 is never kept.

// probeCacheKind is the seal's kind for a kept answer.
const probeCacheKind = "go version"

// probeCacheAge bounds how long an entry is used, and when a miss removes
// it.
const probeCacheAge = 7 * 24 * time.Hour

// probeCache is where one probe's answer is kept; nil keeps nothing.
type probeCache struct {
	file string
	key  *state.Key
	id   string
}

// goProbeCache is the entry for `go version` run as path in dir with env;
// nil when the answer cannot be keyed (see above) or there is no user
// state dir.
func goProbeCache(path, dir string, env []string) *probeCache {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || filepath.Base(real) != "go" {
		return nil
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() || isScript(real) {
		return nil
	}
	ident, ok := fileIdentity(real)
	if !ok {
		return nil
	}
	user, err := state.UserStateDir(nil)
	if err != nil {
		return nil
	}
	key, err := state.UserKey()
	if err != nil {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	h := sha256.New()
	state.HashField(h, "go version v1")
	state.HashField(h, path)
	state.HashField(h, real)
	state.HashField(h, strconv.FormatInt(fi.Size(), 10)+" "+strconv.FormatInt(fi.ModTime().UnixNano(), 10)+" "+ident)
	state.HashField(h, abs)
	// What differs between any two shells of one user (PWD, SHLVL, session
	// ids, a harness's own variables) is left out, as the fingerprint
	// leaves it out: the go command decides nothing by it.
	sorted := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return sessionVar(k)
	})
	slices.Sort(sorted)
	state.HashField(h, strings.Join(sorted, "\x00"))
	for d := abs; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			hashFile(h, filepath.Join(d, name))
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	hashFile(h, goEnvFile(env))
	goroot := lookup(env, "GOROOT")
	if goroot == "" {
		goroot = filepath.Dir(filepath.Dir(real))
	}
	hashFile(h, filepath.Join(goroot, "go.env"))
	id := hex.EncodeToString(h.Sum(nil))
	return &probeCache{file: filepath.Join(user, "probes", id+".json"), key: key, id: id}
}

// isScript reports whether the file at path starts with "#!".
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	var b [2]byte
	n, _ := io.ReadFull(f, b[:])
	return n == 2 && string(b[:]) == "#!"
}

// hashFile adds a file's path and bytes to h, or that it is absent (or
// cannot be read, or is larger than a go.mod has any reason to be).
func hashFile(h hash.Hash, path string) {
	state.HashField(h, path)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		state.HashField(h, "absent")
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		state.HashField(h, "unreadable")
		return
	}
	state.HashField(h, "present")
	state.HashField(h, string(data))
}

// goEnvFile is the go env file the go command reads in env: $GOENV, else
// go/env in the user's config dir, as os.UserConfigDir finds it there.
func goEnvFile(env []string) string {
	if p := lookup(env, "GOENV"); p != "" {
		return p // "off" names no file, and hashes as absent
	}
	if d := lookup(env, "XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "go", "env")
	}
	if h := lookup(env, "HOME"); h != "" {
		return filepath.Join(h, ".config", "go", "env")
	}
	return ""
}

// lookup is the last value of name in env, "" when unset.
func lookup(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// probeEntry is a kept answer.
type probeEntry struct {
	Version string    `json:"version"`
	At      time.Time `json:"at"`
	MAC     string    `json:"mac"`
}

func (e probeEntry) body() []byte {
	return []byte(e.Version + "\x00" + e.At.UTC().Format(time.RFC3339Nano))
}

// get is the kept answer, if there is one that can be trusted and is
// recent enough.
func (c *probeCache) get(now time.Time) (string, bool) {
	if c == nil {
		return "", false
	}
	data, err := os.ReadFile(c.file)
	if err != nil {
		return "", false
	}
	var e probeEntry
	if json.Unmarshal(data, &e) != nil || !c.key.Check(e.MAC, probeCacheKind, c.id, e.body()) {
		return "", false
	}
	if age := now.Sub(e.At); age < 0 || age > probeCacheAge {
		return "", false
	}
	return e.Version, true
}

// put keeps version, and removes the entries too old to be used. A
// failure to write costs the next run a probe, nothing more.
func (c *probeCache) put(version string, now time.Time) {
	if c == nil {
		return
	}
	e := probeEntry{Version: version, At: now.UTC()}
	e.MAC = c.key.Seal(probeCacheKind, c.id, e.body())
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	if err := state.WriteStateFile(c.file, append(data, '\n'), 0o600); err != nil {
		return
	}
	pruneProbes(filepath.Dir(c.file), now)
}

func pruneProbes(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > probeCacheAge {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return
			}
		}
	}
}
