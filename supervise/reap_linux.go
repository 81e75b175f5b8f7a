//go:build linux

package supervise

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// enableSubreaper makes the parent the subreaper of the worker's tree:
// when the worker dies, what it started (its checks' processes, which are
// in groups of their own) is reparented here rather than to init.
func enableSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// workerAttr puts the worker in a process group of its own, so that a
// terminal's Ctrl-C reaches it once (forwarded by the parent), not twice,
// which the worker would take for "kill the checks now"; and has the
// kernel signal it if the parent dies (by SIGKILL: nothing else is left to
// answer), so that it stops its checks as on any stop signal.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: parentDeathSignal}
}

// parentDeathSignal is what the kernel sends the worker when the parent
// dies. Not SIGTERM: the kernel sends it each time a thread of the parent
// that is the worker's parent exits, and as a multi-threaded parent dies
// the worker is handed from thread to thread, so one death can arrive as
// several signals. Several SIGTERMs read as "a second signal: kill the
// checks and end now", and the worker ended before its sweep had killed
// what a check left outside its group. The worker turns the first of these
// into one SIGTERM (watchParentDeath) and absorbs the rest.
const parentDeathSignal = syscall.SIGUSR2

// watchParentDeath turns the parent's death, however many times the kernel
// reports it, into a single SIGTERM to the worker itself.
func watchParentDeath() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, parentDeathSignal)
	go func() {
		<-ch
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		for range ch {
			// the same death, reported again: already acted on
		}
	}()
}

// reapOrphans kills everything reparented to the parent (every child but
// the worker, who is reaped already), with its process group, and reaps
// it; a killed process's own children come next, so it looks again until
// a round finds nothing. It returns how many processes were alive.
func reapOrphans() int {
	own := syscall.Getpgrp()
	killed := map[int]bool{}
	for round := 0; round < 200; round++ {
		kids := childPids()
		if len(kids) == 0 {
			break
		}
		for _, pid := range kids {
			if killed[pid] || zombie(pid) {
				continue // reaped below; a zombie is not left running
			}
			killed[pid] = true
			if pgid, err := syscall.Getpgid(pid); err == nil && pgid > 1 && pgid != own {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		time.Sleep(time.Duration(min(round+1, 10)) * time.Millisecond)
	}
	return len(killed)
}

// childPids lists the parent's children, from each thread's children file
// (an orphan is reparented to one of the parent's threads).
func childPids() []int {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // gone already
	}
	i := strings.LastIndexByte(string(data), ')')
	return i < 0 || i+2 >= len(data) || data[i+2] == 'Z'
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
