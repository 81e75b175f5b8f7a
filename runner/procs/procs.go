// Package procs is the registry of the processes vbd starts itself: its
// checks' leaders, git, a tool's version probe. vbd is its checks' child
// subreaper (package runner), so a child of vbd that is not in this
// registry was reparented to it by the kernel: it is what some check left
// behind, and the runner's sweep kills and reports it.
//
// The registry is per process, as the kernel's list of a process's
// children is: it is the one piece of package-level state vbd keeps, and it
// lives beneath both runner and state so that state's git runner can
// register without importing runner.
package procs

import (
	"os/exec"
	"sync"
)

// Check names the check a registered process leads; nil for any other
// process vbd starts (git, a probe).
type Check struct {
	Name string
	// Marker is the check's VBD_CHECK_ID, which every process it starts
	// inherits unless it clears its environment.
	Marker string
}

// Entry is one registered process.
type Entry struct {
	PID   int
	Check *Check
	token uint64
}

// registry: starting is held for reading while a process is started and
// registered, and for writing while a sweep lists vbd's children, so that a
// sweep never sees a child between its fork and its registration (and
// never takes vbd's own git for an orphan).
type registry struct {
	starting sync.RWMutex
	mu       sync.Mutex // guards the fields below
	next     uint64
	byPID    map[int]Entry
}

var reg = registry{byPID: map[int]Entry{}}

// Token identifies one registration, so that forgetting a process whose
// pid the kernel has already given to a newer one forgets only the old one.
type Token struct {
	pid   int
	token uint64
}

// Start starts cmd and registers its process, as check's leader when
// check is set. Forget it (or Wait for it) once it has been waited for.
func Start(cmd *exec.Cmd, check *Check) (Token, error) {
	reg.starting.RLock()
	defer reg.starting.RUnlock()
	if err := cmd.Start(); err != nil {
		return Token{}, err
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.next++
	pid := cmd.Process.Pid
	reg.byPID[pid] = Entry{PID: pid, Check: check, token: reg.next}
	return Token{pid: pid, token: reg.next}, nil
}

// Forget removes a registration.
func Forget(t Token) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if e, ok := reg.byPID[t.pid]; ok && e.token == t.token {
		delete(reg.byPID, t.pid)
	}
}

// Wait waits for a command Start started and forgets it.
func Wait(cmd *exec.Cmd, t Token) error {
	err := cmd.Wait()
	Forget(t)
	return err
}

// Run starts cmd, waits for it and forgets it: exec.Cmd.Run for a helper
// process (git, a probe).
func Run(cmd *exec.Cmd) error {
	t, err := Start(cmd, nil)
	if err != nil {
		return err
	}
	return Wait(cmd, t)
}

// View is what a sweep sees of the registry while it holds it.
type View struct{ byPID map[int]Entry }

// Started returns the registration of pid, if vbd started it.
func (v View) Started(pid int) (Entry, bool) {
	e, ok := v.byPID[pid]
	return e, ok
}

// Checks lists the registered check leaders.
func (v View) Checks() []Entry {
	var out []Entry
	for _, e := range v.byPID {
		if e.Check != nil {
			out = append(out, e)
		}
	}
	return out
}

// Hold stops every Start until release is called, and returns a copy of
// the registry: while it is held, every child of vbd that View does not
// list was reparented to vbd, and reaping it steals no exec.Cmd's Wait.
func Hold() (v View, release func()) {
	reg.starting.Lock()
	reg.mu.Lock()
	byPID := make(map[int]Entry, len(reg.byPID))
	for k, e := range reg.byPID {
		byPID[k] = e
	}
	reg.mu.Unlock()
	return View{byPID: byPID}, reg.starting.Unlock
}
