//go:build linux

package runner

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/vbd-dev/vbd/runner/procs"
	"github.com/vbd-dev/vbd/state"
)

// escapeNote is empty: on Linux, escaped processes are tracked.
const escapeNote = ""

// enableSubreaper makes vbd the child subreaper of everything its checks
// start, so that a process that leaves the check's process group (setsid,
// a double fork) is reparented to vbd when its parent exits, rather than to
// init, where vbd could no longer find it. The setting is per process and
// stays on; it only changes who a check's orphans belong to.
func enableSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// setDeathSignal has the kernel SIGKILL a check's leader when vbd dies,
// even by SIGKILL, which no handler sees.
//
// Pdeathsig fires when the *thread* that forked the child exits, not the
// process. Go ends an OS thread only when a goroutine locked to it with
// runtime.LockOSThread returns without unlocking; runOne never locks its
// thread, and nothing in vbd returns from a locked goroutine, so the thread
// that started a check lives as long as vbd and the signal means "vbd died".
func setDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// children lists the processes whose parent is vbd, from each thread's
// /proc/self/task/<tid>/children (an orphan is reparented to one of vbd's
// threads), or by reading every process's stat where that file is missing.
func children(self int) []state.ProcStat {
	var pids []int
	tasks, err := os.ReadDir("/proc/self/task")
	ok := err == nil
	if ok {
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
			if err != nil {
				ok = false
				break
			}
			for _, f := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, pid)
				}
			}
		}
	}
	if !ok {
		pids = allPids()
	}
	var out []state.ProcStat
	for _, pid := range pids {
		if st, ok := state.ReadProcStat(pid); ok && st.PPID == self {
			out = append(out, st)
		}
	}
	return out
}

func allPids() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	pids := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// kthreadd is the parent of every kernel thread.
const kthreadd = 2

// environ is a process's environment, nil when it cannot be read. A
// process caught in execve reads as empty for a moment (as its command
// line does): it is read again a few times. Kernel threads and zombies,
// which have none, are not waited for.
func environ(pid int) []byte {
	for try := 0; ; try++ {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			return nil
		}
		if len(data) > 0 || try == 4 {
			return data
		}
		if st, ok := state.ReadProcStat(pid); !ok || st.State == 'Z' || pid == kthreadd || st.PPID == kthreadd {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
}

// cmdline is a process's command line, for the report of what a check
// left behind. A process caught in execve reads as empty for a moment
// (its new memory is in place before its arguments are): it is read again
// a few times, then named by its comm, in brackets as ps does.
func cmdline(pid int) string {
	dir := "/proc/" + strconv.Itoa(pid)
	var data []byte
	for try := 0; try < 5; try++ {
		var err error
		if data, err = os.ReadFile(dir + "/cmdline"); err != nil {
			return "?"
		}
		if len(data) > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if len(data) == 0 {
		comm, err := os.ReadFile(dir + "/comm")
		if err != nil || len(bytes.TrimSpace(comm)) == 0 {
			return "?"
		}
		return "[" + string(bytes.TrimSpace(comm)) + "]"
	}
	s := strings.TrimRight(strings.ReplaceAll(string(data), "\x00", " "), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// sweep finds, kills and reaps what a check left behind once its leader
// has exited and been waited for. vbd is the subreaper of its checks, and
// every process it starts itself is in the registry (package procs), so
// every other child of vbd was reparented to it and belongs to some check:
//   - one in this check's process group, or carrying its marker, is this
//     check's;
//   - one in another running check's group, or carrying its marker, is
//     that check's, and is left to its sweep;
//   - one with neither (it left its group and cleared its environment:
//     `setsid env -i sleep &`) is this check's when no other check is
//     running; while others run it could be any of theirs, so it is left
//     running until the last of them ends (killing it could break a
//     check it belongs to), and reported then with every check that could
//     have started it (Proc.Owners), rather than blamed on one by a guess.
//
// The registry is held while vbd's children are listed, so a child vbd is
// starting (git) is never seen before it is registered, and only
// unregistered processes are reaped, so no os/exec Wait loses its child.
//
// The check's whole group is killed too, as before: what remains of it
// dies with the check. It returns the processes found alive once what
// the check left has had exitGrace to end by itself (awaitOwnExits).
func (rp *reaper) sweep(leader int, own procs.Check) []Proc {
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	awaitOwnExits(self, leader, own)
	killGroup := func(pgid int) {
		if pgid > 1 && pgid != ownGroup {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
	groups := map[int]bool{leader: true}
	killed := map[int]bool{}
	var found []Proc
	// What an unknown process found in this sweep was blamed on: a
	// process it started, reparented when it is killed, is blamed alike.
	var inherited []string
	// A killed process's own children are reparented to vbd as it dies:
	// look again until a round finds nothing, for at most about a second.
	for round := 0; round < 100; round++ {
		busy := false
		view, release := procs.Hold()
		othersByGroup, othersByMarker := map[int]string{}, map[string]string{}
		var others []string
		for _, e := range view.Checks() {
			if e.PID != leader {
				othersByGroup[e.PID], othersByMarker[e.Check.Marker] = e.Check.Name, e.Check.Name
				others = append(others, e.Check.Name)
			}
		}
		for _, p := range children(self) {
			if _, started := view.Started(p.PID); started {
				continue // vbd's own: a check's leader, git, a probe
			}
			if p.State == 'Z' {
				// Nothing of vbd waits for an unregistered zombie.
				var ws unix.WaitStatus
				if pid, _ := unix.Wait4(p.PID, &ws, unix.WNOHANG, nil); pid > 0 {
					busy = true
				}
				continue
			}
			var owners []string
			if !groups[p.PGID] && !killed[p.PID] {
				id := checkID(environ(p.PID))
				switch {
				case own.Marker != "" && id == own.Marker:
				case othersByGroup[p.PGID] != "" || othersByMarker[id] != "":
					continue // another running check's
				case len(others) > 0:
					// Unknown while others run: left for the last one.
					rp.suspect(p.PID, append(others, own.Name))
					continue
				default:
					owners = rp.owners(p.PID, own.Name, inherited)
					inherited = owners
				}
			}
			busy = true
			if !killed[p.PID] {
				found = append(found, Proc{PID: p.PID, Cmd: cmdline(p.PID), Owners: owners})
				killed[p.PID] = true
				groups[p.PGID] = true
				killGroup(p.PGID)
				_ = syscall.Kill(p.PID, syscall.SIGKILL)
			}
		}
		release()
		if round == 0 {
			killGroup(leader)
			// Nothing left, in the group or outside it: done at once,
			// so that a check that leaves nothing costs one look.
			if len(found) == 0 && syscall.Kill(-leader, 0) != nil {
				break
			}
		}
		if !busy && round > 1 {
			break
		}
		time.Sleep(time.Duration(min(round+1, 20)) * time.Millisecond)
	}
	return found
}

// exitGrace is how long a sweep lets what a check's leader left behind
// end on its own before it counts as left running. A helper that ends
// when its parent does is still alive for a moment after the leader has
// been reaped, longer on a loaded machine: the BEAM's erl_child_setup
// reads the BEAM's exit as the end of its socket, so every mix check
// leaves one for a few milliseconds, and a sweep that caught it failed
// the check in hook mode ("left 1 process running: [erl_child_setup]").
// Only a check that leaves something pays the wait; a process still alive
// at its end is killed and reported, as before.
const exitGrace = 500 * time.Millisecond

// awaitOwnExits waits, for at most exitGrace, until no process that a
// sweep of this check would report is alive: a child of vbd outside the
// registry, in the check's group or carrying its marker. It returns at
// once when there is none, the usual case.
func awaitOwnExits(self, leader int, own procs.Check) {
	deadline := time.Now().Add(exitGrace)
	for pause := time.Millisecond; ownAlive(self, leader, own) && time.Now().Before(deadline); pause = min(2*pause, 20*time.Millisecond) {
		time.Sleep(pause)
	}
}

// ownAlive reports whether a live child of vbd that it did not start
// itself is in the leader's group or carries the check's marker.
func ownAlive(self, leader int, own procs.Check) bool {
	view, release := procs.Hold()
	defer release()
	for _, p := range children(self) {
		if _, started := view.Started(p.PID); started || p.State == 'Z' {
			continue
		}
		if p.PGID == leader || own.Marker != "" && checkID(environ(p.PID)) == own.Marker {
			return true
		}
	}
	return false
}

// checkID is the value of the check marker in a process's environment
// (NUL-separated, as /proc/<pid>/environ holds it), or "".
func checkID(env []byte) string {
	want := []byte(markerVar + "=")
	for len(env) > 0 {
		kv := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			kv, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if bytes.HasPrefix(kv, want) {
			return string(kv[len(want):])
		}
	}
	return ""
}

// running reports whether pid is a live process, not a zombie.
func running(pid int) bool {
	st, ok := state.ReadProcStat(pid)
	return ok && st.State != 'Z'
}

// KillChecks sends SIGKILL to every child of this process but those vbd
// started that lead no check (git, a probe: package procs), with its
// group: the checks (and hooks) the runner started, each in a group of its
// own, and whatever a check left that was reparented here (vbd is its
// subreaper). vbd calls it when a second signal asks it to end at once,
// after which it does not wait for the runner's sweeps, so this is the
// sweep: a process that left its check's group (setsid) is reparented here
// only as the check's shell dies of the first kill, so it looks again
// until a few rounds find no live one, for at most about a second. It
// returns how many processes it signalled.
func KillChecks() int {
	self, own := os.Getpid(), syscall.Getpgrp()
	signalled := map[int]bool{}
	for round, quiet := 0, 0; round < 100 && quiet < 3; round++ {
		found := false
		view, release := procs.Hold()
		for _, p := range children(self) {
			if e, ok := view.Started(p.PID); p.State == 'Z' || ok && e.Check == nil {
				continue // dead already (its waiter reaps it), or vbd's own git
			}
			found = true
			signalled[p.PID] = true
			if p.PGID > 1 && p.PGID != own {
				_ = syscall.Kill(-p.PGID, syscall.SIGKILL)
			}
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
		release()
		if found {
			quiet = 0
		} else {
			quiet++
		}
		time.Sleep(time.Duration(min(round+1, 10)) * time.Millisecond)
	}
	return len(signalled)
}
