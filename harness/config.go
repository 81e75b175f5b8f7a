package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// BackupSuffix is appended to a config file's name for the copy vbd keeps
// before it changes the file.
const BackupSuffix = ".vbd-backup"

// Hook is the hook vbd installs: one command for every event, with the
// harness timeout for stop events and a short one for the session start.
type Hook struct {
	Command      string
	Timeout      time.Duration
	StartTimeout time.Duration
	// Guard, when set, is the pre-tool guard's entry (GuardOf).
	Guard *GuardHook
}

// container returns the object holding the event arrays: the top-level
// "hooks" object, or the document itself for Devin. create adds a missing
// "hooks" key.
func container(path string, doc *object, spec Spec, create bool) (*object, error) {
	if !spec.wrapped {
		return doc, nil
	}
	v, ok := doc.get("hooks")
	if !ok {
		if !create {
			return nil, nil
		}
		h := newObject()
		doc.set("hooks", h)
		return h, nil
	}
	h, ok := v.(*object)
	if !ok {
		return nil, &UnchangedError{fmt.Errorf(`%s: "hooks" is %s, not an object; vbd changed nothing. Fix the file, then run the command again`, path, jsonKind(plain(v)))}
	}
	return h, nil
}

// entryCommands returns the commands an event entry runs: a group's inner
// hooks, or a flat entry's command/bash/powershell.
func entryCommands(e any) []string {
	m, ok := e.(*object)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range []string{"command", "bash", "powershell"} {
		if v, ok := m.get(k); ok {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// stripEvent removes vbd's entries from one event array and returns what
// is left and how many were removed. A group loses only vbd's inner hooks,
// and is dropped when none of its hooks is left.
func stripEvent(arr []any, ours func(string) bool) ([]any, int) {
	out := make([]any, 0, len(arr))
	removed := 0
	for _, e := range arr {
		m, ok := e.(*object)
		if !ok {
			out = append(out, e)
			continue
		}
		if slices.ContainsFunc(entryCommands(m), ours) {
			removed++
			continue
		}
		inner, ok := m.get("hooks")
		list, isList := inner.([]any)
		if !ok || !isList {
			out = append(out, e)
			continue
		}
		kept := make([]any, 0, len(list))
		n := 0
		for _, h := range list {
			if slices.ContainsFunc(entryCommands(h), ours) {
				n++
				continue
			}
			kept = append(kept, h)
		}
		removed += n
		if n > 0 && len(kept) == 0 {
			continue
		}
		if n > 0 {
			m.set("hooks", kept)
		}
		out = append(out, e)
	}
	return out, removed
}

// strip removes vbd's entries from every event array of the container.
// Keys whose array vbd emptied are deleted unless keep names them.
func strip(path string, events *object, ours func(string) bool, keep []string) (int, error) {
	total := 0
	for _, k := range slices.Clone(events.keys) {
		v := events.vals[k]
		arr, ok := v.([]any)
		if !ok {
			continue
		}
		left, n := stripEvent(arr, ours)
		total += n
		if n == 0 {
			continue
		}
		if len(left) == 0 && !slices.Contains(keep, k) {
			events.del(k)
			continue
		}
		events.set(k, left)
	}
	return total, nil
}

// entry builds vbd's entry for one event in the harness's shape.
func entry(spec Spec, command string, timeout time.Duration) *object {
	t := timeoutNumber(timeout, spec.TimeoutUnit)
	hook := newObject()
	switch spec.shape {
	case flatShape:
		hook.set("command", command)
		hook.set("timeout", t)
		return hook
	case copilotShape:
		hook.set("type", "command")
		hook.set("bash", command)
		hook.set("cwd", ".")
		hook.set("timeoutSec", t)
		return hook
	case groupShape, matcherShape, geminiShape:
		// A group holding the hook: built below.
	}
	group := newObject()
	if spec.shape == matcherShape || spec.shape == geminiShape {
		group.set("matcher", "*")
	}
	if spec.shape == geminiShape {
		hook.set("name", "vbd")
	}
	hook.set("type", "command")
	hook.set("command", command)
	hook.set("timeout", t)
	group.set("hooks", []any{hook})
	return group
}

func timeoutNumber(d time.Duration, unit time.Duration) json.Number {
	n := int64(math.Ceil(float64(d) / float64(unit)))
	return json.Number(fmt.Sprint(max(n, 1)))
}

// mergeConfig returns data with vbd's hook installed: every entry that is not
// vbd's is kept as it was, in order; vbd's earlier entries are replaced, so
// merging twice gives the same bytes as merging once.
func mergeConfig(path string, data []byte, spec Spec, hook Hook, ours func(string) bool) ([]byte, error) {
	doc, err := decodeDoc(path, data)
	if err != nil {
		return nil, err
	}
	if spec.version {
		if _, ok := doc.get("version"); !ok {
			doc.keys = append([]string{"version"}, doc.keys...)
			doc.vals["version"] = json.Number("1")
		}
	}
	events, err := container(path, doc, spec, true)
	if err != nil {
		return nil, err
	}
	if err := checkEventArrays(path, events, spec); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(spec.Events))
	for _, e := range spec.Events {
		names = append(names, e.Name)
	}
	if _, err := strip(path, events, ours, names); err != nil {
		return nil, err
	}
	for _, e := range spec.Events {
		timeout := hook.Timeout
		if e.Start && hook.StartTimeout > 0 {
			timeout = hook.StartTimeout
		}
		var arr []any
		if v, ok := events.get(e.Name); ok {
			arr = v.([]any)
		}
		events.set(e.Name, append(arr, entry(spec, hook.Command, timeout)))
	}
	if err := mergeGuard(path, events, spec, hook.Guard); err != nil {
		return nil, err
	}
	return encodeDoc(doc), nil
}

// checkEventArrays refuses a file where an event vbd writes is not an array.
func checkEventArrays(path string, events *object, spec Spec) error {
	for _, e := range spec.Events {
		if v, ok := events.get(e.Name); ok {
			if _, ok := v.([]any); !ok {
				return &UnchangedError{fmt.Errorf("%s: the %q hooks are %s, not an array; vbd changed nothing. Fix the file, then run the command again", path, e.Name, jsonKind(plain(v)))}
			}
		}
	}
	return nil
}

// stripConfig returns data without vbd's entries, and how many it removed. empty
// is true when nothing is left that vbd did not write (the file can go).
func stripConfig(path string, data []byte, spec Spec, ours func(string) bool) (out []byte, removed int, empty bool, err error) {
	doc, err := decodeDoc(path, data)
	if err != nil {
		return nil, 0, false, err
	}
	events, err := container(path, doc, spec, false)
	if err != nil {
		return nil, 0, false, err
	}
	if events == nil {
		return data, 0, false, nil
	}
	removed, err = strip(path, events, ours, nil)
	if err != nil || removed == 0 {
		return data, removed, false, err
	}
	if spec.wrapped && events.len() == 0 {
		doc.del("hooks")
	}
	empty = doc.len() == 0
	if spec.version && doc.len() == 1 {
		_, empty = doc.get("version")
	}
	return encodeDoc(doc), removed, empty, nil
}

// Entry is one hook command found in a config file.
type Entry struct {
	// Event is the event it runs on.
	Event   string
	Command string
	// Timeout is the configured timeout; zero when the entry sets none
	// (the harness default applies).
	Timeout time.Duration
}

// ReadHooks lists every hook command in a config file's data, in file order.
func ReadHooks(path string, data []byte, spec Spec) ([]Entry, error) {
	doc, err := decodeDoc(path, data)
	if err != nil {
		return nil, err
	}
	events, err := container(path, doc, spec, false)
	if err != nil || events == nil {
		return nil, err
	}
	var out []Entry
	for _, ev := range events.keys {
		arr, ok := events.vals[ev].([]any)
		if !ok {
			continue
		}
		for _, e := range arr {
			m, ok := e.(*object)
			if !ok {
				continue
			}
			hooks := []any{m}
			if inner, ok := m.get("hooks"); ok {
				if list, ok := inner.([]any); ok {
					hooks = list
				}
			}
			for _, h := range hooks {
				hm, ok := h.(*object)
				if !ok {
					continue
				}
				for _, c := range entryCommands(hm) {
					out = append(out, Entry{Event: ev, Command: c, Timeout: readTimeout(hm, spec)})
				}
			}
		}
	}
	return out, nil
}

func readTimeout(m *object, spec Spec) time.Duration {
	for _, k := range []string{"timeout", "timeoutSec"} {
		v, ok := m.get(k)
		if !ok {
			continue
		}
		n, ok := v.(json.Number)
		if !ok {
			continue
		}
		f, err := n.Float64()
		if err != nil {
			continue
		}
		unit := spec.TimeoutUnit
		if k == "timeoutSec" || unit == 0 {
			unit = time.Second
		}
		return time.Duration(f * float64(unit))
	}
	return 0
}

// Change says what Install or Uninstall did to a file.
type Change struct {
	Path string
	// Created is true when the file did not exist before.
	Created bool
	// Changed is false when the file already said exactly this.
	Changed bool
	// Deleted is true when uninstall removed a file left with nothing.
	Deleted bool
	// Backup is the copy of the previous content, empty when none was made.
	Backup string
	// Removed counts vbd entries uninstall took out.
	Removed int
}

// Install merges vbd's hook into the harness's project config under root,
// writing atomically and keeping the previous content in a backup.
func Install(root string, spec Spec, hook Hook, ours func(string) bool) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(spec.File))
	ch := Change{Path: path}
	if err := spec.NoLinks(root); err != nil {
		return ch, err
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ch.Created = true
	case err != nil:
		return ch, fmt.Errorf("cannot read %s: %w; vbd changed nothing. Make it readable, then run the command again", path, err)
	}
	out, err := mergeConfig(path, old, spec, hook, ours)
	if err != nil {
		return ch, err
	}
	if !ch.Created && bytes.Equal(out, old) {
		return ch, nil
	}
	return ch, writeWithBackup(&ch, old, out)
}

// Uninstall removes vbd's entries from the harness's project config under
// root, keeping every other key and hook, and deletes the file when
// nothing but vbd's wiring was in it.
func Uninstall(root string, spec Spec, ours func(string) bool) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(spec.File))
	ch := Change{Path: path}
	if err := spec.NoLinks(root); err != nil {
		return ch, err
	}
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ch, nil
	}
	if err != nil {
		return ch, fmt.Errorf("cannot read %s: %w; vbd changed nothing. Make it readable, then run the command again", path, err)
	}
	out, removed, empty, err := stripConfig(path, old, spec, ours)
	if err != nil || removed == 0 {
		return ch, err
	}
	ch.Removed = removed
	if empty {
		return ch, deleteWithBackup(&ch, old)
	}
	return ch, writeWithBackup(&ch, old, out)
}

// deleteWithBackup removes a config file left with nothing but vbd's
// wiring, keeping its content (old) in the backup.
func deleteWithBackup(ch *Change, old []byte) error {
	ch.Backup = ch.Path + BackupSuffix
	if err := state.WriteFileAtomic(ch.Backup, old, 0o644); err != nil {
		return err
	}
	if err := os.Remove(ch.Path); err != nil {
		return fmt.Errorf("cannot remove %s: %w; its content is saved in %s, so delete the file by hand", ch.Path, err, ch.Backup)
	}
	ch.Changed, ch.Deleted = true, true
	return nil
}

// NoLinks refuses a hook config under root that is, or sits in a
// directory that is, a symbolic link (a *state.LinkError naming it and its
// target): vbd writes the stop hooks and the guard's entries only into a
// real file of the repository, never through a link to elsewhere, and
// never replaces a linked file by a regular one.
func (s Spec) NoLinks(root string) error {
	return state.NoLinks(root, s.File, s.Title+"'s hook config ("+s.File+")")
}

func writeWithBackup(ch *Change, old, out []byte) error {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(ch.Path); err == nil {
		perm = fi.Mode().Perm()
	}
	if !ch.Created {
		ch.Backup = ch.Path + BackupSuffix
		if err := state.WriteFileAtomic(ch.Backup, old, perm); err != nil {
			return err
		}
	}
	if err := state.WriteFileAtomic(ch.Path, out, perm); err != nil {
		return err
	}
	ch.Changed = true
	return nil
}
