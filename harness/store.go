package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// Store keeps the gate's small per-session state under vbd's state dir:
// consecutive blocks per (harness, session), each session's baseline tree,
// and the last full suite time. Every write is atomic, and every record is
// sealed with the user's key (state.Key): the state dir is under the git
// dir, which the agent can write, so a record whose seal does not check
// (edited, copied from another session or repository) is not read.
type Store struct {
	// Dir is vbd's state dir for the repository (state.Dir).
	Dir string
	// Root is the work tree's top level, when known: what the index of
	// sessions is keyed by (indexPath).
	Root string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Key seals the records; nil means the user's key (state.UserKey).
	Key *state.Key
	// Sessions is the dir of the index of sessions outside the repository
	// (sessionIndex); empty means the user's state dir.
	Sessions string
	// distrust counts the records passed over as untrusted; nil counts
	// nothing.
	distrust *recordDistrust
	// memo keeps, across copies of a Store, the records one hook run
	// read or wrote; nil reads and writes the files every time.
	memo *recordMemo
}

// recordMemo is what one hook run knows of its records: each one's body
// as it read it (its seal checked) or wrote it, by path, and the key. A
// stop read the session's ratchet record five times over (35 KB, its seal
// checked each time) and wrote it back unchanged, synced to disk: a few
// ms of every stop. A record is still read from its file, and its seal
// checked, once per run; what another vbd writes to it meanwhile is seen
// at the next run, as it would be had it come a moment later.
type recordMemo struct {
	mu     sync.Mutex
	bodies map[string][]byte
	key    *state.Key
}

func newRecordMemo() *recordMemo { return &recordMemo{bodies: map[string][]byte{}} }

// body is the record at path as this run last read or wrote it.
func (m *recordMemo) body(path string) ([]byte, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.bodies[path]
	return b, ok
}

// forget drops path: its file was removed.
func (m *recordMemo) forget(path string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.bodies, path)
}

func (m *recordMemo) keep(path string, body []byte) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bodies[path] = body
}

// remove removes the record at path.
func (s Store) remove(path string) error {
	s.memo.forget(path)
	return os.Remove(path)
}

// recordDistrust counts, across copies of a Store, the records it could
// not trust, so that the gate says so once.
type recordDistrust struct {
	mu    sync.Mutex
	paths []string
}

func (d *recordDistrust) add(path string) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !slices.Contains(d.paths, path) {
		d.paths = append(d.paths, path)
	}
}

// message says in one line which records were not trusted; "" when none.
func (d *recordDistrust) message() string {
	if d == nil {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch len(d.paths) {
	case 0:
		return ""
	case 1:
		return "vbd: its record " + d.paths[0] + " does not match its seal (edited, copied, or written without vbd's key), so it was not used"
	}
	return fmt.Sprintf("vbd: %d of its records (the first %s) do not match their seal (edited, copied, or written without vbd's key), so they were not used", len(d.paths), d.paths[0])
}

// errUntrusted marks a record whose seal does not check.
var errUntrusted = errors.New("record not trusted")

func (s Store) key() (*state.Key, error) {
	if s.Key != nil {
		return s.Key, nil
	}
	if s.memo == nil {
		return state.UserKey()
	}
	s.memo.mu.Lock()
	defer s.memo.mu.Unlock()
	if s.memo.key == nil {
		k, err := state.UserKey()
		if err != nil {
			return nil, err
		}
		s.memo.key = k
	}
	return s.memo.key, nil
}

// maxStateAge is how long a session's records are kept.
const maxStateAge = 30 * 24 * time.Hour

func (s Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s Store) path(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.Dir, "hooks", kind+"-"+hex.EncodeToString(sum[:10])+".json")
}

// loopKey names the loop a stop belongs to: a session's main agent, one of
// its subagents, or one task of TaskCompleted.
func loopKey(in Input) string {
	return strings.Join([]string{string(in.Harness), in.Session, in.AgentID, in.TaskID}, "\x00")
}

// sessionKey names a session, for its baseline.
func sessionKey(in Input) string {
	return string(in.Harness) + "\x00" + in.Session
}

type blockRecord struct {
	Harness string    `json:"harness"`
	Session string    `json:"session,omitempty"`
	Agent   string    `json:"agent,omitempty"`
	Task    string    `json:"task,omitempty"`
	Count   int       `json:"count"`
	Updated time.Time `json:"updated"`
	// Last is the verdict of the last block, for people reading the file.
	Last string `json:"last,omitempty"`
	// Transcript is the harness's transcript as it was at the last
	// counted block (cap.go).
	Transcript transcriptMark `json:"transcript,omitzero"`
}

// blocks returns the loop's record of consecutive blocks; the zero record
// when there is none, or none to trust.
func (s Store) blocks(in Input) blockRecord {
	var r blockRecord
	if err := s.read(s.path("blocks", loopKey(in)), &r); err != nil {
		return blockRecord{}
	}
	return r
}

// Blocks returns how many consecutive blocks the loop of in has had.
func (s Store) Blocks(in Input) int { return s.blocks(in).Count }

// SetBlocks records n consecutive blocks; zero removes the record.
func (s Store) SetBlocks(in Input, n int, last string) error {
	return s.setBlocks(in, n, last, transcriptMark{})
}

func (s Store) setBlocks(in Input, n int, last string, mark transcriptMark) error {
	p := s.path("blocks", loopKey(in))
	if n <= 0 {
		if err := s.remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reset the block count: %w", err)
		}
		return nil
	}
	return s.write(p, blockRecord{
		Harness: string(in.Harness), Session: in.Session, Agent: in.AgentID, Task: in.TaskID,
		Count: n, Updated: s.now().UTC(), Last: last, Transcript: mark,
	})
}

type baselineRecord struct {
	Harness  string    `json:"harness"`
	Session  string    `json:"session"`
	Tree     string    `json:"tree"`
	Recorded time.Time `json:"recorded"`
}

// Baseline returns the tree recorded at the session's start: the index's
// record (outside the repository), else the state dir's.
func (s Store) Baseline(in Input) (string, bool) {
	var r baselineRecord
	if path, err := s.indexPath(in); err == nil && s.read(path, &r) == nil && r.Tree != "" {
		return r.Tree, true
	}
	if err := s.read(s.path("baseline", sessionKey(in)), &r); err != nil || r.Tree == "" {
		return "", false
	}
	return r.Tree, true
}

// ErrSessionSeen is SetBaseline's answer for a session whose start was
// recorded already, while its baseline is gone or not trusted.
var ErrSessionSeen = errors.New("this session started earlier and its baseline is gone or was altered; no new one is recorded, so every stop of it is verified")

// SetBaseline records the session's baseline tree. The first record wins:
// a session start that fires again later (resume, compaction, /clear) must
// not move the baseline past changes the agent has made, and neither may
// one sent again after the baseline was deleted: the session's first
// start is also kept in an index outside the repository (sessionIndex),
// made once, by whichever start links it first.
func (s Store) SetBaseline(in Input, tree string) (recorded bool, err error) {
	rec := baselineRecord{Harness: string(in.Harness), Session: in.Session, Tree: tree, Recorded: s.now().UTC()}
	indexed, ierr := s.indexSession(in, rec)
	switch {
	case ierr != nil:
		// No index (no user state dir): the state dir's record alone.
		if _, ok := s.Baseline(in); ok {
			return false, nil
		}
	case !indexed:
		if _, ok := s.Baseline(in); !ok {
			return false, ErrSessionSeen
		}
		return false, nil
	}
	s.prune()
	return true, s.write(s.path("baseline", sessionKey(in)), rec)
}

// indexPath is the session's entry in the index of sessions: one file per
// (work tree, harness, session), under the user's state dir. It is keyed
// by the work tree's top level, where the harness runs, not by the state
// dir: the git dir is the agent's to move (a .git file naming a copy of
// it elsewhere), and an index keyed by where it is had the session start
// afresh, without the tests it had seen fail. An entry that a vbd before
// this one keyed by the state dir is still found there.
func (s Store) indexPath(in Input) (string, error) {
	dir, err := s.sessionsDir()
	if err != nil {
		return "", err
	}
	// prefix tells a work tree's key from a state dir's.
	entry := func(prefix, of string) (string, error) {
		abs, err := filepath.Abs(of)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256([]byte(prefix + abs + "\x00" + sessionKey(in)))
		return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json"), nil
	}
	if s.Root == "" {
		return entry("", s.Dir)
	}
	p, err := entry("tree\x00", s.Root)
	if err != nil {
		return "", err
	}
	if !anyExists(p) {
		if legacy, lerr := entry("", s.Dir); lerr == nil && anyExists(legacy) {
			return legacy, nil
		}
	}
	return p, nil
}

// sessionsDir is the index of sessions: Sessions, else the user state
// dir's.
func (s Store) sessionsDir() (string, error) {
	if s.Sessions != "" {
		return s.Sessions, nil
	}
	user, err := state.UserStateDir(nil)
	if err != nil {
		return "", err
	}
	return filepath.Join(user, "sessions"), nil
}

// anyExists reports whether the index entry at p, or a record beside it
// (a session without a start has a ratchet record alone), exists.
func anyExists(p string) bool {
	stem := strings.TrimSuffix(p, ".json")
	for _, f := range []string{p, stem + ".ratchet.json", stem + ".baseline.json"} {
		if _, err := os.Lstat(f); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// indexSession adds the session's start to the index; false when it was
// there already. The entry is sealed, written to a temp file and linked
// into place, so of two starts at once exactly one wins.
func (s Store) indexSession(in Input, rec baselineRecord) (bool, error) {
	path, err := s.indexPath(in)
	if err != nil {
		return false, err
	}
	data, err := s.seal(path, rec)
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("make the session index: %w", err)
	}
	s.pruneIndex(filepath.Dir(path))
	f, err := os.CreateTemp(filepath.Dir(path), ".session-*")
	if err != nil {
		return false, fmt.Errorf("write the session index: %w", err)
	}
	tmp := f.Name()
	defer func() { _ = os.Remove(tmp) }()
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		return false, fmt.Errorf("write the session index: %w", err)
	}
	switch err := os.Link(tmp, path); {
	case errors.Is(err, fs.ErrExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("write the session index: %w", err)
	}
	return true, nil
}

// pruneIndex removes index entries older than maxStateAge.
func (s Store) pruneIndex(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := s.now().Add(-maxStateAge)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			_ = s.remove(filepath.Join(dir, e.Name()))
		}
	}
}

type suiteRecord struct {
	Duration time.Duration `json:"duration_ns"`
	Seconds  float64       `json:"seconds"`
	At       time.Time     `json:"at"`
	Source   string        `json:"source"`
}

// SuiteTime returns the last recorded full-suite time.
func (s Store) SuiteTime() (time.Duration, bool) {
	var r suiteRecord
	if err := s.read(filepath.Join(s.Dir, "hooks", "suite.json"), &r); err != nil || r.Duration <= 0 {
		return 0, false
	}
	return r.Duration, true
}

// SetSuiteTime records how long a full run of the suite took.
func (s Store) SetSuiteTime(d time.Duration, source string) error {
	return s.write(filepath.Join(s.Dir, "hooks", "suite.json"), suiteRecord{Duration: d, Seconds: d.Seconds(), At: s.now().UTC(), Source: source})
}

// prune removes session records older than maxStateAge.
func (s Store) prune() {
	dir := filepath.Join(s.Dir, "hooks")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := s.now().Add(-maxStateAge)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "blocks-") && !strings.HasPrefix(e.Name(), "baseline-") && !strings.HasPrefix(e.Name(), "ratchet-") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = s.remove(filepath.Join(dir, e.Name()))
		}
	}
}

// sealedRecord is how a record is stored: the record, and its MAC over
// the record's compact JSON and the file's path (so that a record copied
// to another session's file, or from another repository, does not check).
type sealedRecord struct {
	Record json.RawMessage `json:"record"`
	MAC    string          `json:"mac"`
}

const recordKind = "vbd.hook-record/v1"

// read decodes the sealed record at path into v. A record that is not
// sealed by this user's key for this path is errUntrusted, and counted.
func (s Store) read(path string, v any) error {
	if body, ok := s.memo.body(path); ok {
		return json.Unmarshal(body, v)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var env sealedRecord
	var body bytes.Buffer
	key, kerr := s.key()
	if json.Unmarshal(data, &env) != nil || json.Compact(&body, env.Record) != nil || kerr != nil ||
		!key.Check(env.MAC, recordKind, where(path), body.Bytes()) {
		s.distrust.add(path)
		return fmt.Errorf("%w: %s", errUntrusted, path)
	}
	s.memo.keep(path, body.Bytes())
	return json.Unmarshal(body.Bytes(), v)
}

// seal encodes v as the sealed record of path.
func (s Store) seal(path string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return s.sealBody(path, body)
}

// sealBody is the sealed record of path holding body, v's JSON.
func (s Store) sealBody(path string, body []byte) ([]byte, error) {
	key, err := s.key()
	if err != nil {
		return nil, fmt.Errorf("no key to seal vbd's records: %w", err)
	}
	data, err := json.MarshalIndent(sealedRecord{Record: body, MAC: key.Seal(recordKind, where(path), body)}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// write stores v, sealed, at path; not again when this run read or wrote
// the very same record there already.
func (s Store) write(path string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if was, ok := s.memo.body(path); ok && bytes.Equal(was, body) {
		return nil
	}
	data, err := s.sealBody(path, body)
	if err != nil {
		return err
	}
	if err := state.WriteFileAtomic(path, data, 0o644); err != nil {
		return err
	}
	s.memo.keep(path, body)
	return nil
}

// where is a record's path as its seal names it.
func where(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
