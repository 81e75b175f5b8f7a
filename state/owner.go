package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Resources a vbd process owns while it runs, recorded so that the next vbd
// can clean up after one that was killed with SIGKILL or crashed: the
// process groups of its checks and its snapshot directories.
const (
	KindGroup = "pgid"
	KindDir   = "dir"
)

// Owner identifies a vbd process across pid reuse.
type Owner struct {
	PID int `json:"pid"`
	// Start is the process's start time in clock ticks since boot, field
	// 22 of /proc/<pid>/stat; zero where there is no /proc.
	Start uint64 `json:"start"`
}

// Record is one owned resource.
type Record struct {
	Owner Owner  `json:"owner"`
	Kind  string `json:"kind"`
	// Value is the pgid ("4242" or "4242:<leader start>") or the directory.
	Value string `json:"value"`
	path  string
}

// Self returns this process as an Owner.
func Self() Owner {
	pid := os.Getpid()
	return Owner{PID: pid, Start: StartTime(pid)}
}

// StartTime reads a process's start time from /proc, zero when unknown.
func StartTime(pid int) uint64 {
	st, _ := ReadProcStat(pid)
	return st.Start
}

// Alive reports whether the owner still runs: its pid exists and, where
// start times are known, started when the record says.
func (o Owner) Alive() bool {
	if o.PID <= 0 {
		return false
	}
	err := syscall.Kill(o.PID, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if o.Start == 0 {
		return true
	}
	now := StartTime(o.PID)
	return now == 0 || now == o.Start
}

func ownedDir(stateDir string) string { return filepath.Join(stateDir, "owned") }

// Own records that this process owns a resource, in a file of its own
// under the state dir (one file per resource, so that the runner and the
// git hook record theirs without sharing anything), written atomically.
// release removes the record; call it once the resource is gone.
func Own(stateDir, kind, value string) (release func(), err error) {
	rec := Record{Owner: Self(), Kind: kind, Value: value}
	data, err := json.Marshal(rec)
	if err != nil {
		return func() {}, fmt.Errorf("record %s %s: %w", kind, value, err)
	}
	sum := sha256.Sum256([]byte(kind + "\x00" + value))
	name := fmt.Sprintf("%d-%d-%s-%s.json", rec.Owner.PID, rec.Owner.Start, kind, hex.EncodeToString(sum[:6]))
	path := filepath.Join(ownedDir(stateDir), name)
	if err := WriteStateFile(path, data, 0o644); err != nil {
		return func() {}, fmt.Errorf("record %s %s for crash recovery: %w", kind, value, err)
	}
	return func() { _ = os.Remove(path) }, nil
}

// Orphaned returns the records whose owner is no longer running. Records
// that cannot be read are returned too, with Kind empty, so that Forget
// removes them.
func Orphaned(stateDir string) ([]Record, error) {
	entries, err := os.ReadDir(ownedDir(stateDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", ownedDir(stateDir), err)
	}
	self := Self()
	var out []Record
	for _, e := range entries {
		if tmp := strings.TrimPrefix(e.Name(), "."); tmp != e.Name() && strings.Contains(tmp, ".json.tmp-") {
			// A record half written when its vbd was killed.
			var o Owner
			if _, err := fmt.Sscanf(tmp, "%d-%d-", &o.PID, &o.Start); err == nil && o != self && !o.Alive() {
				_ = os.Remove(filepath.Join(ownedDir(stateDir), e.Name()))
			}
			continue
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(ownedDir(stateDir), e.Name())
		var rec Record
		data, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(data, &rec) != nil {
			out = append(out, Record{path: path})
			continue
		}
		rec.path = path
		if rec.Owner == self || rec.Owner.Alive() {
			continue
		}
		out = append(out, rec)
	}
	return out, nil
}

// Forget removes a record once its resource has been dealt with.
func Forget(r Record) error {
	if err := os.Remove(r.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", r.path, err)
	}
	return nil
}
