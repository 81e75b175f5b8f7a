package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// Store keeps the gate's small per-session state under vbd's state dir:
// consecutive blocks per (harness, session), each session's baseline tree,
// and the last full suite time. Every write is atomic.
type Store struct {
	// Dir is vbd's state dir for the repository (state.Dir).
	Dir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
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
}

// Blocks returns how many consecutive blocks the loop of in has had.
func (s Store) Blocks(in Input) int {
	var r blockRecord
	if err := readJSON(s.path("blocks", loopKey(in)), &r); err != nil {
		return 0
	}
	return r.Count
}

// SetBlocks records n consecutive blocks; zero removes the record.
func (s Store) SetBlocks(in Input, n int, last string) error {
	p := s.path("blocks", loopKey(in))
	if n <= 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reset the block count: %w", err)
		}
		return nil
	}
	return writeJSON(p, blockRecord{
		Harness: string(in.Harness), Session: in.Session, Agent: in.AgentID, Task: in.TaskID,
		Count: n, Updated: s.now().UTC(), Last: last,
	})
}

type baselineRecord struct {
	Harness  string    `json:"harness"`
	Session  string    `json:"session"`
	Tree     string    `json:"tree"`
	Recorded time.Time `json:"recorded"`
}

// Baseline returns the tree recorded at the session's start.
func (s Store) Baseline(in Input) (string, bool) {
	var r baselineRecord
	if err := readJSON(s.path("baseline", sessionKey(in)), &r); err != nil || r.Tree == "" {
		return "", false
	}
	return r.Tree, true
}

// SetBaseline records the session's baseline tree. The first record wins:
// a session start that fires again later (resume, compaction, /clear) must
// not move the baseline past changes the agent has made.
func (s Store) SetBaseline(in Input, tree string) (recorded bool, err error) {
	if _, ok := s.Baseline(in); ok {
		return false, nil
	}
	s.prune()
	return true, writeJSON(s.path("baseline", sessionKey(in)), baselineRecord{
		Harness: string(in.Harness), Session: in.Session, Tree: tree, Recorded: s.now().UTC(),
	})
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
	if err := readJSON(filepath.Join(s.Dir, "hooks", "suite.json"), &r); err != nil || r.Duration <= 0 {
		return 0, false
	}
	return r.Duration, true
}

// SetSuiteTime records how long a full run of the suite took.
func (s Store) SetSuiteTime(d time.Duration, source string) error {
	return writeJSON(filepath.Join(s.Dir, "hooks", "suite.json"), suiteRecord{Duration: d, Seconds: d.Seconds(), At: s.now().UTC(), Source: source})
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
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return state.WriteFileAtomic(path, append(data, '\n'), 0o644)
}
