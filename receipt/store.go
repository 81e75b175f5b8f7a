package receipt

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// keepReceipts is how many receipts a store keeps besides the newest pass of each
// mode, which is kept however old so that reuse survives a long run of
// failures.
const keepReceipts = 50

// pruneSlack is how many receipts past keepReceipts a save lets pile up before it
// prunes: pruning reads receipts (to find the newest pass of each mode) and
// a receipt of a big plan is 150 KB of JSON, so a save that pruned every
// time paid for reading up to keepReceipts of them. With the slack a save prunes
// once in pruneSlack runs, and the store never holds more than keepReceipts +
// pruneSlack + 2 receipts.
const pruneSlack = 10

// staleTemp is the age past which a dotfile in the store (a temp file of a
// write that crashed, a pending fingerprint of a run that died) is removed.
// It is far longer than any run, so a live run's file is never taken.
const staleTemp = 24 * time.Hour

// idLayout is a receipt name's time part. Fixed width and UTC, so that
// names sort by the time the receipt was written.
const idLayout = "20060102T150405.000000000Z"

// ErrNone is returned when the store holds no receipt.
var ErrNone = errors.New("no receipt yet")

// Store is the directory of receipts, <state dir>/receipts.
type Store struct {
	Dir string
	// Key seals the receipts Save writes and checks those read back; nil
	// (no key could be had) writes them unsealed and trusts none.
	Key *state.Key
	// KeyErr is why Key is nil.
	KeyErr error
	// distrust counts, across copies of the store, the receipts passed
	// over because they are not trusted.
	distrust *Distrust
}

// Open returns the store under a state directory, with the user's key.
func Open(stateDir string) Store {
	key, err := state.UserKey()
	return Store{Dir: filepath.Join(stateDir, "receipts"), Key: key, KeyErr: err, distrust: &Distrust{}}
}

// Distrust counts the receipts a store passed over because it could not
// trust them, so that vbd says so once, not once per receipt.
type Distrust struct {
	mu    sync.Mutex
	n     int
	first error
}

func (d *Distrust) add(err error) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.n == 0 {
		d.first = err
	}
	d.n++
}

// Distrusted says, in one line, which receipts the store passed over as
// untrusted; "" when none.
func (s Store) Distrusted() string {
	d := s.distrust
	if d == nil {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.n == 0:
		return ""
	case s.Key == nil:
		return fmt.Sprintf("vbd: no key to check receipts with (%v), so none was reused or taken as a baseline", s.KeyErr)
	case d.n == 1:
		return fmt.Sprintf("vbd: 1 receipt was not trusted and not used (%v)", d.first)
	}
	return fmt.Sprintf("vbd: %d receipts were not trusted and not used (the first: %v)", d.n, d.first)
}

// FirstDistrusted is why the first receipt passed over as untrusted was;
// nil when none was.
func (s Store) FirstDistrusted() error {
	d := s.distrust
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.first
}

// ErrDistrusted marks a receipt vbd does not trust: its seal is missing
// or wrong, or it contradicts itself.
var ErrDistrusted = errors.New("receipt not trusted")

// macSuffix is how a sealed receipt ends: the MAC, the last field.
const (
	macOpen  = ",\n  \"mac\": \""
	macClose = "\"\n}\n"
)

// seal returns the MAC of a receipt's bytes without it.
func (s Store) seal(id string, body []byte) string {
	return s.Key.Seal("vbd.receipt/v1", filepath.Clean(s.Dir)+"\x00"+id, body)
}

// trust checks a parsed receipt read from the file of id: sealed by this
// store under that id, and consistent. data are the file's bytes.
func (s Store) trust(id string, data []byte, r *Receipt) error {
	if r.MAC == "" {
		return fmt.Errorf("%w: %s carries no seal (made by hand, or by a vbd before receipts were sealed)", ErrDistrusted, s.Path(id))
	}
	suffix := macOpen + r.MAC + macClose
	if s.Key == nil || !bytes.HasSuffix(data, []byte(suffix)) || r.ID != id ||
		!s.Key.Check(r.MAC, "vbd.receipt/v1", filepath.Clean(s.Dir)+"\x00"+id, append(data[:len(data)-len(suffix):len(data)-len(suffix)], "\n}\n"...)) {
		return fmt.Errorf("%w: %s does not match its seal (edited, or copied from another repository)", ErrDistrusted, s.Path(id))
	}
	s.resolve(r)
	if r.isPointer() {
		return nil // its pass is gone: the seal alone vouches for it
	}
	if err := consistent(r); err != nil {
		return fmt.Errorf("%w: %s %w", ErrDistrusted, s.Path(id), err)
	}
	return nil
}

// consistent refuses a receipt that contradicts itself: verified, while a
// check failed or none passed.
func consistent(r *Receipt) error {
	if r.Verdict.Code != exitcode.Verified {
		return nil
	}
	if r.Interrupted {
		return errors.New("says verified but was interrupted")
	}
	passed := false
	for _, c := range r.Checks {
		switch verdict.Status(c.Status) {
		case verdict.Pass:
			passed = true
		case verdict.Fail, verdict.Timeout, verdict.Error, verdict.Interrupted, verdict.Setup:
			return fmt.Errorf("says verified while check %q is %s", c.Name, c.Status)
		case verdict.Skipped, verdict.NotRun, verdict.Vacuous:
		}
	}
	if !passed {
		return errors.New("says verified while no check passed")
	}
	return nil
}

// open parses a receipt read from the file of id and checks that it can
// be trusted; one that cannot is counted (Distrusted) when count is set.
func (s Store) open(id string, data []byte, count bool) (*Receipt, error) {
	r, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("receipt %s: %w", id, err)
	}
	if err := s.trust(id, data, r); err != nil {
		if count {
			s.distrust.add(err)
		}
		return nil, err
	}
	return r, nil
}

// newID names a receipt written at t: "<UTC time>-<pid>-<random>". The pid
// and random part keep concurrent runs, even in one process, from sharing
// a name.
func newID(t time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return t.UTC().Format(idLayout) + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
}

// Path is where the receipt with the given id lives.
func (s Store) Path(id string) string { return filepath.Join(s.Dir, id+".json") }

// Save writes r atomically under a fresh id (set on r), then prunes old
// receipts. It returns the receipt's path. A failed prune is not a failed
// save: the receipt is written, and the next save prunes again.
func (s Store) Save(r *Receipt, now time.Time) (string, error) {
	r.Schema = Schema
	if r.ID == "" {
		r.ID = newID(now)
	}
	r.MAC = ""
	// A run that reused a pass is stored as a pointer to it: the pass's
	// plan and checks are read back from there (resolve), not written
	// again at every reused stop (81 KB each on a big plan).
	stored := r
	if p := pointerTo(r); p != nil {
		stored = p
	}
	data, err := Marshal(stored)
	if err != nil {
		return "", err
	}
	if s.Key != nil {
		// The MAC is the last field: the sealed bytes are the receipt's
		// bytes without it, exactly as Marshal wrote them, and the stored
		// bytes are those with the field added before the closing brace,
		// as trust takes it off again (not a second encoding of the
		// whole receipt: 80 KB on a big plan).
		stored.MAC = s.seal(r.ID, data)
		r.MAC = stored.MAC
		body, ok := bytes.CutSuffix(data, []byte("\n}\n"))
		if !ok {
			return "", errors.New("encode receipt: it does not end as a JSON object does")
		}
		data = append(append(body, macOpen+stored.MAC...), macClose...)
	}
	path := s.Path(r.ID)
	if err := state.WriteStateFile(path, data, 0o644); err != nil {
		return "", err
	}
	if ids, err := s.names(); err == nil && len(ids) > keepReceipts+pruneSlack {
		_ = s.Prune(keepReceipts, now)
	}
	return path, nil
}

// pointerTo is the pointer form of a receipt that reused a pass: the same
// record without the plan and the checks, which the pass it names holds;
// nil for a run that ran its checks.
func pointerTo(r *Receipt) *Receipt {
	if r.ReusedFrom == nil || !validID(r.ReusedFrom.Receipt) || r.ReusedFrom.Receipt == r.ID {
		return nil
	}
	p := *r
	p.Plan = Plan{Checks: []PlanCheck{}}
	p.Checks = []Check{}
	return &p
}

// isPointer reports whether r is a stored pointer not yet resolved.
func (r *Receipt) isPointer() bool { return r.ReusedFrom != nil && len(r.Checks) == 0 }

// resolve fills a pointer's plan and checks from the pass it names, when
// that pass is still stored, sealed, and of the same tree; it reports
// whether r was a pointer it filled. A pointer whose pass is gone stays
// as it is: its own seal still stands for its verdict.
func (s Store) resolve(r *Receipt) bool {
	if !r.isPointer() || !validID(r.ReusedFrom.Receipt) || r.ReusedFrom.Receipt == r.ID {
		return false
	}
	id := r.ReusedFrom.Receipt
	data, err := os.ReadFile(s.Path(id))
	if err != nil {
		return false
	}
	from, err := Parse(data)
	if err != nil || from.ReusedFrom != nil || from.Fingerprint != r.Fingerprint || s.trust(id, data, from) != nil {
		return false
	}
	r.Plan, r.Checks = from.Plan, from.Checks
	return true
}

// names lists receipt ids, newest first. Dotfiles (temp files) and other
// entries are not receipts.
func (s Store) names() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list receipts: %w", err)
	}
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".json") {
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids, nil
}

// Find returns the first trusted receipt that match accepts, newest first
// or oldest first; nil when none does. Unreadable receipts are passed
// over, and so are untrusted ones that match, which are counted.
func (s Store) Find(newestFirst bool, match func(*Receipt) bool) (*Receipt, error) {
	ids, err := s.names()
	if err != nil {
		return nil, err
	}
	if !newestFirst {
		slices.Reverse(ids)
	}
	for _, id := range ids {
		data, err := os.ReadFile(s.Path(id))
		if err != nil {
			continue
		}
		r, err := Parse(data)
		if err != nil {
			continue
		}
		s.resolve(r) // match sees a pointer's checks (trust checks it all)
		if !match(r) {
			continue
		}
		if err := s.trust(id, data, r); err != nil {
			s.distrust.add(err)
			continue
		}
		return r, nil
	}
	return nil, nil
}

// Peek reads one receipt by id without asking whether it can be trusted:
// only for hints that decide nothing, such as the order checks start in.
func (s Store) Peek(id string) (*Receipt, error) {
	data, err := os.ReadFile(s.Path(id))
	if err != nil {
		return nil, fmt.Errorf("read receipt: %w", err)
	}
	return Parse(data)
}

// Load reads one trusted receipt by id.
func (s Store) Load(id string) (*Receipt, error) {
	data, err := os.ReadFile(s.Path(id))
	if err != nil {
		return nil, fmt.Errorf("read receipt: %w", err)
	}
	return s.open(id, data, true)
}

// Latest returns the newest receipt vbd can read, with its raw bytes, or
// ErrNone. A newer receipt of an unknown schema (written by a newer vbd) is
// passed over, not misread.
func (s Store) Latest() (*Receipt, []byte, error) {
	r, data, _, err := s.LatestReadable()
	return r, data, err
}

// Unreadable is a receipt file vbd passed over, and why.
type Unreadable struct {
	Path string
	Err  error
}

// LatestReadable is Latest, and also names every newer receipt file it
// passed over because it could not read it (corrupt, or of a schema this
// vbd does not know), newest first, so that a caller can say so. The
// receipt is returned even when it is not trusted; FirstDistrusted then
// says why.
func (s Store) LatestReadable() (*Receipt, []byte, []Unreadable, error) {
	ids, err := s.names()
	if err != nil {
		return nil, nil, nil, err
	}
	var skipped []Unreadable
	for _, id := range ids {
		data, err := os.ReadFile(s.Path(id))
		if errors.Is(err, fs.ErrNotExist) {
			continue // pruned by a concurrent run since it was listed
		}
		if err == nil {
			var r *Receipt
			if r, err = Parse(data); err == nil {
				pointer := r.isPointer()
				if terr := s.trust(id, data, r); terr != nil {
					// Shown all the same (vbd last is for reading), and
					// counted, so that the caller says it is not trusted.
					s.distrust.add(terr)
				}
				if pointer && !r.isPointer() {
					// The stored pointer, shown with the pass's checks
					// it was resolved to.
					if full, err := Marshal(r); err == nil {
						data = full
					}
				}
				return r, data, skipped, nil
			}
		}
		skipped = append(skipped, Unreadable{Path: s.Path(id), Err: err})
	}
	return nil, nil, skipped, ErrNone
}

// LastComplete returns the newest receipt of mode whose checks all ran to
// an end in a run of their own (not reused, none cut by a timeout or the
// budget, none interrupted, at least one run): its time is the suite's
// time, which vbd install sizes a hook's timeout from. It returns ErrNone
// when there is none.
func (s Store) LastComplete(mode Mode) (*Receipt, error) {
	ids, err := s.names()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		data, err := os.ReadFile(s.Path(id))
		if err != nil {
			continue
		}
		r, err := Parse(data)
		if err != nil || r.Mode != mode || r.ReusedFrom != nil || !r.Ended.After(r.Started) || !r.complete() {
			continue
		}
		// A forged receipt of a short suite would shrink the hook's
		// timeout until the harness cut vbd off, which allows.
		if err := s.trust(id, data, r); err != nil {
			s.distrust.add(err)
			continue
		}
		return r, nil
	}
	return nil, ErrNone
}

// complete is true when at least one check ran and none was cut short.
func (r *Receipt) complete() bool {
	ran := false
	for _, c := range r.Checks {
		switch verdict.Status(c.Status) {
		case verdict.Timeout, verdict.NotRun, verdict.Interrupted:
			return false
		case verdict.Pass, verdict.Fail, verdict.Vacuous:
			ran = ran || !c.Started.IsZero()
		case verdict.Error, verdict.Skipped, verdict.Setup:
			// Neither proves a run nor marks one cut short.
		}
	}
	return ran
}

// Query asks for a receipt that lets a run be skipped.
type Query struct {
	Fingerprint string
	Mode        Mode
	// MaxAge bounds how long ago the reused run started; zero means no
	// bound.
	MaxAge time.Duration
	Now    time.Time
	// Heads, when set, are the store's receipts as read ahead (ReadHeads),
	// looked through instead of reading each again; nil reads them now.
	Heads *Heads
}

// Heads is the head of every receipt in a store, read ahead of a
// FindReusable: git's pre-commit path reads them while git status still
// walks the tree, and every commit is a new tree whose lookup misses
// after looking at each of them (about 60 files).
type Heads struct {
	done  chan struct{}
	dir   string
	ids   []string
	heads [][]byte // heads[i] is ids[i]'s first headBytes, or nil when unreadable
	err   error
}

// Wait waits until h is read.
func (h *Heads) Wait() { <-h.done }

// ReadHeads starts reading the head of every receipt under stateDir,
// newest first, and returns at once; FindReusable waits for it.
func ReadHeads(stateDir string) *Heads {
	h := &Heads{done: make(chan struct{}), dir: filepath.Join(stateDir, "receipts")}
	go func() {
		defer close(h.done)
		s := Store{Dir: h.dir}
		if h.ids, h.err = s.names(); h.err != nil {
			return
		}
		h.heads = make([][]byte, len(h.ids))
		for i, id := range h.ids {
			h.heads[i], _ = readHead(s.Path(id))
		}
	}()
	return h
}

// FindReusable returns the newest receipt that answers q, or nil. It must be
// a pass (failures are never reused: a flaky test gets its re-run) that ran
// its checks itself (a reused receipt only points at one that did, whose age
// is the one that counts), with the same fingerprint, a mode at least as
// strong, and not older than MaxAge.
func (s Store) FindReusable(q Query) (*Receipt, error) {
	if q.Fingerprint == "" {
		return nil, nil
	}
	var (
		ids   []string
		heads [][]byte
		err   error
	)
	if h := q.Heads; h != nil && filepath.Clean(h.dir) == filepath.Clean(s.Dir) {
		<-h.done
		ids, heads, err = h.ids, h.heads, h.err
	} else {
		ids, err = s.names()
	}
	if err != nil {
		return nil, err
	}
	want := []byte(`"` + q.Fingerprint + `"`)
	tried := map[string]bool{}
	for i, id := range ids {
		if tried[id] {
			continue
		}
		var (
			data []byte
			ok   bool
		)
		if heads != nil {
			data, ok = fromHead(s.Path(id), heads[i], want)
		} else {
			data, ok = readIfHeadHas(s.Path(id), want)
		}
		if !ok {
			continue // most receipts are of other trees
		}
		if from := reusedRun(data); from != nil {
			// A run that reused this tree's pass holds its fingerprint
			// too, and is never reused itself; but it names the pass it
			// reused. Reading that one next skips every other reusing
			// run in between: with receipts of a big plan (150 KB each),
			// scanning them all was most of a reused run's own time.
			if from.Fingerprint == q.Fingerprint && validID(from.Receipt) && !tried[from.Receipt] {
				tried[from.Receipt] = true
				if r, err := s.Load(from.Receipt); err == nil && r.reusableFor(q) {
					return r, nil
				}
			}
			continue
		}
		tried[id] = true
		r, err := Parse(data)
		if err != nil || !r.reusableFor(q) {
			continue
		}
		if err := s.trust(id, data, r); err != nil {
			s.distrust.add(err)
			continue
		}
		return r, nil
	}
	return nil, nil
}

// headBytes is how much of a receipt FindReusable reads to tell whether it
// is of the tree asked about: the top-level fingerprint comes within the
// first few hundred bytes (Receipt's field order), after fields of bounded
// size (the root is one path). A receipt is 80–150 KB on a big plan, and
// every new tree (every commit through the hook) is a miss that looked at
// each of them: reading them whole was about 5 ms of CPU per commit.
const headBytes = 8 << 10

// readIfHeadHas reads the file at path whole when its first headBytes hold
// want, or when it is no longer than that (a pointer receipt names the
// pass it reused at its end); ok is false otherwise, or on an error.
func readIfHeadHas(path string, want []byte) (data []byte, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	head, whole, err := headOf(f)
	switch {
	case err != nil || !bytes.Contains(head, want):
		return nil, false
	case whole:
		return head, true
	}
	rest, err := io.ReadAll(f)
	if err != nil {
		return nil, false
	}
	return append(head, rest...), true
}

// fromHead is readIfHeadHas of a head read ahead (readHead): a head that
// is the whole file is the receipt; a longer receipt whose head holds
// want is read again whole, so that its bytes are one reading of one file.
func fromHead(path string, head, want []byte) (data []byte, ok bool) {
	if head == nil || !bytes.Contains(head, want) {
		return nil, false
	}
	if len(head) < headBytes {
		return head, true
	}
	data, err := os.ReadFile(path)
	return data, err == nil
}

// readHead reads the first headBytes of the file at path, or all of it
// when it is shorter.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head, _, err := headOf(f)
	return head, err
}

// headOf reads f's first headBytes; whole is true when that is all of f.
func headOf(f *os.File) (head []byte, whole bool, err error) {
	head = make([]byte, headBytes)
	n, err := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return head, true, nil
	case err != nil:
		return nil, false, err
	}
	return head, false, nil
}

// validID reports whether id has the shape newID gives, so that a receipt
// naming another (reused_from) can only point inside the store.
func validID(id string) bool {
	if id == "" || len(id) > 100 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '.') {
			return false
		}
	}
	return id[0] != '.'
}

// reusedRun returns, without decoding the whole receipt, what a receipt's
// JSON records as the run it reused (its "reused_from" object), or nil for
// a run that ran its checks. Such a receipt is never reused nor protected
// from pruning itself. The key, quotes included, cannot occur inside a
// JSON string (whose quotes are escaped), and the schema has it only at
// the top level, as the last field but the MAC: it is looked for from the
// end.
func reusedRun(data []byte) *ReusedFrom {
	i := bytes.LastIndex(data, []byte(`"reused_from":`))
	if i < 0 {
		return nil
	}
	after := bytes.TrimLeft(data[i+len(`"reused_from":`):], " \t\r\n")
	if len(after) == 0 || after[0] != '{' {
		return nil
	}
	var from ReusedFrom
	if err := json.NewDecoder(bytes.NewReader(after)).Decode(&from); err != nil {
		return &ReusedFrom{} // a reusing run all the same, naming nothing usable
	}
	return &from
}

func (r *Receipt) reusableFor(q Query) bool {
	if r.Fingerprint != q.Fingerprint || r.Verdict.Code != 0 || r.ReusedFrom != nil || !r.Mode.Satisfies(q.Mode) {
		return false
	}
	age := q.Now.Sub(r.Started)
	// A receipt from the future means the clock moved; its age is unknown.
	if age < -time.Minute {
		return false
	}
	return q.MaxAge <= 0 || age <= q.MaxAge
}

// Prune keeps the newest keep receipts and the newest pass of each mode
// that ran its checks (what reuse looks for), and removes every other
// receipt, and temp files older than a day. Concurrent prunes are safe:
// each removes only receipts older than the ones it keeps, and a file
// already gone is not an error.
func (s Store) Prune(keep int, now time.Time) error {
	ids, err := s.names()
	if err != nil {
		return err
	}
	var errs []error
	if len(ids) > keep {
		protected := map[string]bool{}
		// The passes the kept pointers name stay with them.
		for _, id := range ids[:keep] {
			if from, err := reusedRunOf(s.Path(id)); err == nil && from != nil && validID(from.Receipt) {
				protected[from.Receipt] = true
			}
		}
		found := map[Mode]bool{}
		for _, id := range ids {
			if found[Full] && found[Quick] {
				break
			}
			if m, ok := headMode(s.Path(id)); ok && found[m] {
				// A newer pass of its mode is kept already: nothing in it
				// decides anything. A store of full runs only (no quick
				// pass to find) read and parsed every receipt, 80 KB
				// each on a big plan, at every prune.
				continue
			}
			data, err := os.ReadFile(s.Path(id))
			if err != nil || reusedRun(data) != nil {
				continue
			}
			// One decoding, which refuses another schema (Parse), and
			// the seal (open).
			r, err := s.open(id, data, false)
			if err != nil || r.Verdict.Code != 0 || r.ReusedFrom != nil {
				continue // an untrusted pass is never reused: not worth keeping
			}
			if !found[r.Mode] {
				found[r.Mode] = true
				protected[id] = true
			}
		}
		for _, id := range ids[keep:] {
			if protected[id] {
				continue
			}
			if err := os.Remove(s.Path(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	errs = append(errs, s.removeStaleTemps(now))
	return errors.Join(errs...)
}

// tailBytes is how much of a receipt's end reusedRunOf reads: the
// fields after the checks (verdict, warnings, hook, reused_from, the
// MAC), a few hundred bytes in most receipts.
const tailBytes = 8 << 10

// topVerdict is the top-level "verdict" key as Marshal writes it: on a
// line of its own, indented by two spaces. A JSON string holds no raw
// newline, so these bytes occur only there.
var topVerdict = []byte("\n  \"verdict\": ")

// reusedRunOf is reusedRun of the receipt file at path, read from its
// end: the top-level fields come in Receipt's order, and every one after
// the verdict (reused_from among them) is in the last tailBytes when the
// verdict's key is. Pruning asks it of each kept receipt (50 of them, 80
// KB each on a big plan, read whole were about 12 ms once in pruneSlack
// commits). A receipt whose tail does not hold the key is read whole.
func reusedRunOf(path string) (*ReusedFrom, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > tailBytes {
		tail := make([]byte, tailBytes)
		if _, err := f.ReadAt(tail, fi.Size()-tailBytes); err != nil {
			return nil, err
		}
		if i := bytes.LastIndex(tail, topVerdict); i >= 0 {
			return reusedRun(tail[i:]), nil
		}
	}
	data, err := io.ReadAll(io.NewSectionReader(f, 0, fi.Size()))
	if err != nil {
		return nil, err
	}
	return reusedRun(data), nil
}

// headMode is the mode a receipt's head records: its top-level "mode",
// the first field that is not a plain string value (Receipt's order), so
// that the first "mode" key in the file is the top-level one. ok is false
// when the head does not say.
func headMode(path string) (Mode, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	_, after, found := bytes.Cut(head, []byte(`"mode":`))
	if !found {
		return "", false
	}
	after = bytes.TrimLeft(after, " \t\r\n")
	if len(after) == 0 || after[0] != '"' {
		return "", false
	}
	value, _, found := bytes.Cut(after[1:], []byte(`"`))
	if !found {
		return "", false
	}
	return Mode(value), true
}

func (s Store) removeStaleTemps(now time.Time) error {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil //nolint:nilerr // nothing to clean
	}
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < staleTemp {
			continue
		}
		if err := os.Remove(filepath.Join(s.Dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
