package gate

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/runner"
)

// InterruptContext is cancelled, with runner.ErrInterrupted as its cause,
// on the first stop signal: the runner then stops every check's process
// group, and vbd answers (a block, in hook mode) and writes its receipt.
// A second signal kills every check's group at once and closes forced:
// vbd then ends without waiting for the runner's grace period.
func InterruptContext() (ctx context.Context, forced <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 4)
	// Ctrl-C; a harness or CI cancelling vbd (TERM); a closed terminal
	// (HUP); Ctrl-\ (QUIT, which must not dump Go's stacks); a closed
	// output pipe (PIPE: vbd still stops its checks and writes its receipt).
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	done := make(chan struct{})
	force := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel(runner.ErrInterrupted)
		case <-done:
			return
		}
		select {
		case <-sigs:
			runner.KillChecks()
			close(force)
		case <-done:
			return
		}
		for {
			select {
			case <-sigs:
				runner.KillChecks()
			case <-done:
				return
			}
		}
	}()
	return ctx, force, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// forcedGrace is how long vbd waits, after a second signal killed the
// checks, for its answer and receipt: they follow within milliseconds once
// no check is left to wait for.
const forcedGrace = time.Second

// WithForce runs f, and returns early with failed when forced closes and
// f has not finished within forcedGrace: a second signal ends vbd.
func WithForce(forced <-chan struct{}, failed int, f func() int) int {
	result := make(chan int, 1)
	go func() { result <- f() }()
	select {
	case code := <-result:
		return code
	case <-forced:
	}
	select {
	case code := <-result:
		return code
	case <-time.After(forcedGrace):
		return failed
	}
}
