package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
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
	// 22 of /proc/<pid>/stat; zero where there is no /proc. On Windows
	// it is the creation time (owner_windows.go).
	Start uint64 `json:"start"`
}

// Record is one owned resource.
type Record struct {
	Owner Owner  `json:"owner"`
	Kind  string `json:"kind"`
	// Value is the pgid ("4242" or "4242:<leader start>") or the directory.
	Value string `json:"value"`
	// Copies are every file the record was written to: the repository's
	// state dir and the user's (UserStateDir), so that a vbd in any
	// repository finds it, even once this one is deleted.
	Copies []string `json:"copies,omitempty"`
	path   string
}

// Self returns this process as an Owner.
func Self() Owner {
	pid := os.Getpid()
	return Owner{PID: pid, Start: StartTime(pid)}
}

// Alive reports whether the owner still runs: its pid exists, is no
// zombie and, where start times are known, started when the record says.
func (o Owner) Alive() bool {
	if o.PID <= 0 {
		return false
	}
	return alive(o) // owner_unix.go, owner_windows.go
}

func ownedDir(stateDir string) string { return filepath.Join(stateDir, "owned") }

// ownerDirs are the dirs whose owned/ records this vbd writes and reads:
// stateDir (when given) and the user's state dir (when it resolves).
func ownerDirs(stateDir string) []string {
	var dirs []string
	if stateDir != "" {
		dirs = append(dirs, ownedDir(stateDir))
	}
	if user, err := UserStateDir(nil); err == nil && (stateDir == "" || filepath.Clean(user) != filepath.Clean(stateDir)) {
		dirs = append(dirs, ownedDir(user))
	}
	return dirs
}

// Own records that this process owns a resource, in a file of its own
// (one file per resource, so that the runner and the git hook record
// theirs without sharing anything), written atomically, under the state
// dir and again under the user's state dir: a vbd killed with SIGKILL is
// cleaned up after by the next vbd in any repository (and by the
// supervisor of a hook, see package supervise), also once its repository
// is gone. release removes the record; call it once the resource is gone.
func Own(stateDir, kind, value string) (release func(), err error) {
	rec := Record{Owner: Self(), Kind: kind, Value: value}
	sum := sha256.Sum256([]byte(kind + "\x00" + value))
	name := fmt.Sprintf("%d-%d-%s-%s.json", rec.Owner.PID, rec.Owner.Start, kind, hex.EncodeToString(sum[:6]))
	for _, d := range ownerDirs(stateDir) {
		rec.Copies = append(rec.Copies, filepath.Join(d, name))
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return func() {}, fmt.Errorf("record %s %s: %w", kind, value, err)
	}
	var written []string
	release = func() {
		for _, p := range written {
			_ = os.Remove(p)
		}
	}
	for i, p := range rec.Copies {
		if err := WriteStateFile(p, data, 0o644); err != nil {
			if i == 0 {
				return release, fmt.Errorf("record %s %s for crash recovery: %w", kind, value, err)
			}
			continue // the repository's copy is enough for this repository
		}
		written = append(written, p)
	}
	return release, nil
}

// ledgerExt ends the name of a Ledger's files. It is not ".json": a vbd
// of a version before ledgers passes over them rather than taking them
// for unreadable records to remove.
const ledgerExt = ".jsonl"

// Ledger is one file of records that grows while its owner runs: the
// runner's run marker first, then each check's group as it starts. Own
// costs a file created, renamed and removed per record and per copy; a
// ledger costs one file created and removed per copy for the whole run,
// and one append per record (creating a file costs ~0.35 ms on ext4 on a
// VM, issue 27).
//
// A reader never acts on a partial record: the owner is in the file's
// name, so no vbd reads the ledger of an owner that still runs, and once
// the owner is dead only complete lines (ending in a newline, valid JSON)
// are records; a line cut by the owner's death is passed over.
type Ledger struct {
	mu    sync.Mutex
	owner Owner
	files []*os.File
	paths []string
}

// OwnLedger starts a ledger of self (this process: Self(), which its
// caller has read already) under the state dir and again under the
// user's state dir (as Own does) with its first record, written before
// it returns. Release it once every recorded resource is gone.
func OwnLedger(stateDir string, self Owner, kind, value string) (*Ledger, error) {
	l := &Ledger{owner: self}
	line := l.line(kind, value)
	var err error
	// One name in every dir, so that a reader of both takes each record
	// once; a number taken in the repository's dir (another run of this
	// process in the same nanosecond) is passed over there.
	n := time.Now().UnixNano()
	for i, d := range ownerDirs(stateDir) {
		var f *os.File
		for {
			name := fmt.Sprintf("%d-%d-run-%d%s", l.owner.PID, l.owner.Start, n, ledgerExt)
			f, err = createLedger(filepath.Join(d, name))
			if i > 0 || !errors.Is(err, os.ErrExist) {
				break
			}
			n++
		}
		if err == nil {
			if _, err = f.Write(line); err != nil {
				_ = f.Close()
				_ = os.Remove(f.Name())
			}
		}
		if err != nil {
			if i == 0 {
				return l, fmt.Errorf("record %s %s for crash recovery: %w", kind, value, err)
			}
			continue // the repository's copy is enough for this repository
		}
		l.files, l.paths = append(l.files, f), append(l.paths, f.Name())
	}
	return l, nil
}

// createLedger creates a new ledger file, and its dir when missing (only
// then: one syscall less for every run, as writeAtomic does).
func createLedger(path string) (*os.File, error) {
	const flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL | os.O_APPEND
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(path, flags, 0o644)
	}
	return f, err
}

// line is a record as one line of JSON, Record's encoding. Written by
// hand: encoding/json's first use builds Record's encoder by reflection,
// which cost a trivial run more than the record's write.
func (l *Ledger) line(kind, value string) []byte {
	b := make([]byte, 0, 64+len(kind)+len(value))
	b = append(b, `{"owner":{"pid":`...)
	b = strconv.AppendInt(b, int64(l.owner.PID), 10)
	b = append(b, `,"start":`...)
	b = strconv.AppendUint(b, l.owner.Start, 10)
	b = append(b, `},"kind":`...)
	b = appendJSONString(b, kind)
	b = append(b, `,"value":`...)
	b = appendJSONString(b, value)
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string: as it is when it holds
// nothing to escape, else as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Add appends a record to every copy of the ledger, in one write each.
func (l *Ledger) Add(kind, value string) error {
	line := l.line(kind, value)
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for i, f := range l.files {
		if _, err := f.Write(line); err != nil && i == 0 {
			errs = append(errs, fmt.Errorf("record %s %s for crash recovery: %w", kind, value, err))
		}
	}
	return errors.Join(errs...)
}

// Release removes the ledger; call it once every recorded resource is
// gone.
func (l *Ledger) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, f := range l.files {
		_ = f.Close()
		_ = os.Remove(l.paths[i])
	}
	l.files, l.paths = nil, nil
}

// Orphaned returns the records whose owner is no longer running, from the
// state dir (none when empty) and the user's state dir, each record once.
// Records that cannot be read are returned too, with Kind empty, so that
// Forget removes them.
func Orphaned(stateDir string) ([]Record, error) {
	var (
		out  []Record
		errs []error
		seen = map[string]int{}
		self *Owner
	)
	for _, dir := range ownerDirs(stateDir) {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("list %s: %w", dir, err))
			continue
		}
		if len(entries) > 0 && self == nil {
			s := Self()
			self = &s
		}
		for _, e := range entries {
			var recs []Record
			if strings.HasSuffix(e.Name(), ledgerExt) && !e.IsDir() {
				recs = orphanedLedger(dir, e.Name(), *self)
			} else if rec, ok := orphanedEntry(dir, e, *self); ok {
				recs = []Record{rec}
			}
			for _, rec := range recs {
				// A ledger holds several records: each is one by its
				// file's name and its content.
				key := e.Name() + "\x00" + rec.Kind + "\x00" + rec.Value
				if i, dup := seen[key]; dup {
					out[i].Copies = append(out[i].Copies, rec.path)
					continue
				}
				seen[key] = len(out)
				out = append(out, rec)
			}
		}
	}
	return out, errors.Join(errs...)
}

// orphanedLedger reads the ledger dir/name when its owner is gone: its
// complete records, or one unreadable record (Kind empty) when it has
// none, so that Forget removes it. The owner is the one its name gives.
func orphanedLedger(dir, name string, self Owner) []Record {
	path := filepath.Join(dir, name)
	var o Owner
	if _, err := fmt.Sscanf(name, "%d-%d-run-", &o.PID, &o.Start); err != nil {
		return []Record{{path: path}}
	}
	if o == self || o.Alive() {
		return nil
	}
	data, _ := os.ReadFile(path)
	var recs []Record
	for len(data) > 0 {
		line, rest, complete := strings.Cut(string(data), "\n")
		data = []byte(rest)
		var rec Record
		if !complete || json.Unmarshal([]byte(line), &rec) != nil || rec.Kind == "" {
			continue
		}
		rec.Owner, rec.Copies, rec.path = o, nil, path
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return []Record{{path: path}}
	}
	return recs
}

// orphanedEntry reads one entry of an owned/ dir: a record whose owner is
// gone, or an unreadable one. A record half written when its vbd was
// killed is removed.
func orphanedEntry(dir string, e os.DirEntry, self Owner) (Record, bool) {
	if tmp := strings.TrimPrefix(e.Name(), "."); tmp != e.Name() && strings.Contains(tmp, ".json.tmp-") {
		var o Owner
		if _, err := fmt.Sscanf(tmp, "%d-%d-", &o.PID, &o.Start); err == nil && o != self && !o.Alive() {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
		return Record{}, false
	}
	if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
		return Record{}, false
	}
	path := filepath.Join(dir, e.Name())
	var rec Record
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &rec) != nil {
		return Record{path: path}, true
	}
	rec.path = path
	if rec.Owner == self || rec.Owner.Alive() {
		return Record{}, false
	}
	return rec, true
}

// Forget removes a record once its resource has been dealt with.
func Forget(r Record) error {
	var errs []error
	for _, p := range append([]string{r.path}, r.Copies...) {
		// A record's copies are named in it, and a record is the agent's
		// to write: only a file of the record's own name in an owned/ dir
		// is removed.
		if p == "" || filepath.Base(p) != filepath.Base(r.path) || filepath.Base(filepath.Dir(p)) != "owned" {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}
