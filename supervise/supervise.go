// Package supervise runs vbd's gates (`vbd hook`, `vbd pre-commit`) in a
// worker process watched by a small parent, so that a crash of vbd itself
// still answers. A Go fatal error (out of memory, concurrent map writes)
// and a signal such as SIGSEGV, SIGABRT or SIGBUS end a process with exit
// 2 and a stack dump, which no recover sees: Cursor and Copilot read that
// exit as an allow, and the checks' processes were left running.
//
// The parent (Run) re-executes vbd with an internal variable set. It:
//   - passes stdin through, keeping a copy for the crash answer;
//   - holds the worker's answer (stdout, for a hook) until the worker has
//     said it is done, then passes it on whole;
//   - takes the worker's fd 2, where only the Go runtime writes (the
//     worker's own messages go to the real stderr, its fd 3), and on a
//     crash writes what came there to a log, never to the user;
//   - forwards the stop signals it gets to the worker, and enforces the
//     hook's deadline, which the worker reports;
//   - is the subreaper of everything the worker starts: when the worker
//     dies, whatever it left (its checks' process groups) is reparented to
//     the parent, which kills it all before answering a block.
//
// The parent's own path is short: no command-line parser, no git, no
// configuration. Its cost is one more process start (see the README).
package supervise

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Mode is what the supervised command is.
type Mode int

const (
	// Hook is `vbd hook`: its answer is stdout (and for some harnesses
	// stderr and the exit code), held until the worker is done.
	Hook Mode = iota + 1
	// PreCommit is `vbd pre-commit`: git reads only its exit code, and
	// its output goes straight to the user.
	PreCommit
)

// workerVar marks the worker process. Its value is the protocol version;
// the worker removes it from its environment before anything else runs,
// so no check and no nested vbd inherits it.
const workerVar = "VBD_INTERNAL_SUPERVISED_WORKER"

// Fds the worker gets beyond 0, 1 and 2.
const (
	workerStderrFd = 3 // the real stderr
	workerStatusFd = 4 // lines to the parent: "deadline <unix ms>", "exit <code>"
)

// Wanted reports which supervised command args run, if any: the first
// word that is neither a flag nor the value of -C or --color. A command
// line the parser would refuse is still supervised; the worker answers it.
func Wanted(args []string) (Mode, bool) {
	if os.Getenv(workerVar) != "" {
		return 0, false
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-C", "--directory", "--color":
			i++
		case "hook":
			return Hook, true
		case "pre-commit":
			return PreCommit, true
		case "--":
			return 0, false
		default:
			if !strings.HasPrefix(a, "-") {
				return 0, false
			}
		}
	}
	return 0, false
}

// Crash says why the worker gave no answer.
type Crash struct {
	// Why is one line for people: "vbd crashed (SIGSEGV) before it
	// answered".
	Why string
	// Log is the file holding what the Go runtime wrote (its stack dump),
	// empty when nothing was written or it could not be saved.
	Log string
	// Stopped is how many processes the worker left that were killed.
	Stopped int
}

// Options are the parent's few needs, given by cmd/vbd.
type Options struct {
	Mode Mode
	// Limit is the longest the worker may take to answer, from now, until
	// it reports its own deadline; zero means none (pre-commit: git waits).
	Limit time.Duration
	// LogDir is where a crash's log goes; empty means the temp dir.
	LogDir string
	// Answer writes the answer for a worker that gave none, given the
	// stdin it was passed, and returns the exit code.
	Answer func(input []byte, c Crash, stdout, stderr io.Writer) int
	// Recover cleans up after the dead worker from its ownership records
	// (groups whose members were not its descendants any more), returning
	// how many processes it stopped.
	Recover func() int
}

// maxHeld bounds what the parent holds of the worker's stdout (a hook's
// answer is a few KB) and of its runtime output (a dump of every
// goroutine is rarely above a few hundred KB).
const maxHeld = 8 << 20

// slack is how long after its deadline the worker gets before the parent
// kills it: the worker answers at its own deadline, less its drain time.
const slack = 500 * time.Millisecond

// Run runs the command in a supervised worker and returns the exit code.
// ok is false when no worker could be started; the caller then runs the
// command in this process, as vbd did before.
func Run(args []string, o Options) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	enableSubreaper()
	var closeAfter []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			closeAfter = append(closeAfter, w)
		}
		return r, w, err
	}
	statusR, statusW, err := pipe()
	if err != nil {
		return 0, false
	}
	runtimeR, runtimeW, err := pipe()
	if err != nil {
		return 0, false
	}
	stdin, stdout := os.Stdin, os.Stdout
	var input *heldInput
	var stdoutR *os.File
	if o.Mode == Hook {
		if !isTerminal(os.Stdin) {
			r, w, err := os.Pipe()
			if err != nil {
				return 0, false
			}
			stdin, closeAfter = r, append(closeAfter, r)
			input = teeInput(os.Stdin, w)
		}
		if stdoutR, stdout, err = pipe(); err != nil {
			return 0, false
		}
	}
	// startWorker: supervise_unix.go, supervise_windows.go.
	proc, tree, err := startWorker(exe, append([]string{os.Args[0]}, args...), workerFiles{
		stdin: stdin, stdout: stdout, runtime: runtimeW, stderr: os.Stderr, status: statusW,
	})
	for _, f := range closeAfter {
		_ = f.Close()
	}
	if err != nil {
		return 0, false
	}
	return watch(proc, o, watched{status: statusR, runtime: runtimeR, stdout: stdoutR, input: input, tree: tree}), true
}

// workerFiles are the worker's streams: fds 0-4 on Unix (see workerStderrFd),
// stdin, stdout, stderr and two inherited handles on Windows.
type workerFiles struct {
	stdin, stdout, runtime, stderr, status *os.File
}

// watched are the parent's ends of the worker's pipes.
type watched struct {
	status, runtime, stdout *os.File
	input                   *heldInput
	// tree is the worker and all it starts: its process group and
	// subreaper here, its job object on Windows.
	tree workerTree
}

func watch(proc *os.Process, o Options, w watched) int {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwarded...)
	exited := make(chan *os.ProcessState, 1)
	go func() {
		st, _ := proc.Wait()
		exited <- st
	}()
	status := readStatus(w.status)
	runtimeOut := holdAll(w.runtime)
	var answer <-chan []byte
	if w.stdout != nil {
		answer = holdAll(w.stdout)
	}

	var deadline <-chan time.Time
	var timer *time.Timer
	if o.Limit > 0 {
		timer = time.NewTimer(o.Limit + slack)
		deadline = timer.C
	}
	why := ""
	var st *os.ProcessState
	for st == nil {
		select {
		case st = <-exited:
		case s := <-sigs:
			forward(proc.Pid, s)
		case d, open := <-status.deadline:
			if !open {
				status.deadline = nil
				continue
			}
			if timer != nil {
				timer.Stop()
			}
			timer = time.NewTimer(time.Until(d) + slack)
			deadline = timer.C
		case <-deadline:
			why = "vbd did not answer by its deadline (it was killed)"
			w.tree.kill()
			_ = proc.Kill()
			st = <-exited
		}
	}
	// Whatever the worker left, whether it crashed or not, dies now: its
	// checks' groups, reparented here. Nothing then holds its pipes.
	stopped := w.tree.reap()
	reported := within(status.exit, -1)
	var held []byte
	if answer != nil {
		held = within(answer, nil)
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	clean := why == "" && ws.Exited() && reported == ws.ExitStatus() && answerWhole(answer, held)
	if clean {
		_, _ = os.Stdout.Write(held)
		signal.Stop(sigs)
		return ws.ExitStatus()
	}
	if why == "" {
		why = describeDeath(ws, reported)
	}
	if o.Recover != nil {
		stopped += o.Recover()
	}
	c := Crash{Why: why, Stopped: stopped, Log: writeLog(o.LogDir, within(runtimeOut, nil))}
	var in []byte
	if w.input != nil {
		in = w.input.bytes()
	}
	code := o.Answer(in, c, os.Stdout, os.Stderr)
	signal.Stop(sigs)
	return code
}

// pipeWait bounds the wait for a pipe's end once the worker is gone and
// its orphans are killed: nothing should hold them then.
const pipeWait = time.Second

// within is what ch gives within pipeWait, else def.
func within[T any](ch <-chan T, def T) T {
	t := time.NewTimer(pipeWait)
	defer t.Stop()
	select {
	case v := <-ch:
		return v
	case <-t.C:
		return def
	}
}

// answerWhole reports whether the held answer can be passed on: it came
// to its end, and was not cut at maxHeld.
func answerWhole(answer <-chan []byte, held []byte) bool {
	return answer == nil || (held != nil && len(held) <= maxHeld)
}

// describeDeath names how the worker ended without answering.
func describeDeath(ws syscall.WaitStatus, reported int) string {
	switch {
	case ws.Signaled():
		return "vbd crashed (" + signalName(ws.Signal()) + ") before it answered"
	case reported < 0 && ws.ExitStatus() == 2:
		return "vbd crashed (a Go fatal error or panic, exit 2) before it answered"
	case reported < 0:
		return "vbd ended (exit " + strconv.Itoa(ws.ExitStatus()) + ") before it answered"
	}
	return "vbd's answer was lost (it reported exit " + strconv.Itoa(reported) + ", then ended with " + strconv.Itoa(ws.ExitStatus()) + ")"
}

// status is what the worker says on its status fd.
type status struct {
	deadline chan time.Time
	exit     chan int // its reported code, or -1 when it reported none
}

func readStatus(f *os.File) status {
	s := status{deadline: make(chan time.Time, 1), exit: make(chan int, 1)}
	go func() {
		defer f.Close()
		code := -1
		sc := bufio.NewScanner(io.LimitReader(f, 4096))
		for sc.Scan() {
			word, arg, _ := strings.Cut(sc.Text(), " ")
			n, err := strconv.ParseInt(arg, 10, 64)
			switch {
			case err != nil:
			case word == "deadline":
				select {
				case s.deadline <- time.UnixMilli(n):
				default:
				}
			case word == "exit":
				code = int(n)
			}
		}
		close(s.deadline)
		s.exit <- code
	}()
	return s
}

// holdAll reads f to its end, keeping at most maxHeld+1 bytes (more means
// too much), and then draining the rest so the writer never blocks.
func holdAll(f *os.File) <-chan []byte {
	ch := make(chan []byte, 1)
	go func() {
		defer f.Close()
		var buf bytes.Buffer
		_, _ = io.Copy(&buf, io.LimitReader(f, maxHeld+1))
		_, _ = io.Copy(io.Discard, f)
		ch <- append([]byte{}, buf.Bytes()...) // never nil: nil is "did not end"
	}()
	return ch
}

// heldInput is stdin passed to the worker, with a copy of its start kept
// for the crash answer (which harness called, and for which event).
type heldInput struct {
	done chan struct{}
	buf  bytes.Buffer
}

// maxInputCopy is how much of stdin is kept for the crash answer.
const maxInputCopy = 1 << 20

func teeInput(src io.Reader, dst *os.File) *heldInput {
	h := &heldInput{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		defer dst.Close()
		b := make([]byte, 32<<10)
		for {
			n, err := src.Read(b)
			if n > 0 {
				if room := maxInputCopy - h.buf.Len(); room > 0 {
					h.buf.Write(b[:min(n, room)])
				}
				if _, werr := dst.Write(b[:n]); werr != nil {
					// The worker stopped reading (it died, or gave up
					// waiting): keep copying for the crash answer.
					dst = nil
				}
			}
			if err != nil {
				return
			}
			if dst == nil {
				return
			}
		}
	}()
	return h
}

// bytes is the input read so far: all of it when stdin was closed, else
// what came within a moment (a harness that never closes stdin).
func (h *heldInput) bytes() []byte {
	select {
	case <-h.done:
	case <-time.After(100 * time.Millisecond):
		return nil // racing the copier: answer for the harness named
	}
	return h.buf.Bytes()
}

// writeLog saves what the runtime wrote to a file of its own, and returns
// its path ("" when there was nothing or it could not be written).
func writeLog(dir string, data []byte) string {
	if len(bytes.TrimSpace(data)) == 0 {
		return ""
	}
	if dir == "" {
		dir = os.TempDir()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	name := fmt.Sprintf("crash-%s-%d.log", time.Now().UTC().Format("20060102T150405.000"), os.Getpid())
	f, err := os.OpenFile(dir+string(os.PathSeparator)+name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return ""
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil {
		return ""
	}
	return f.Name()
}
