//go:build unix

package supervise

import (
	"os"
	"os/signal"
	"syscall"
)

// onUsr1 calls crash when the worker gets SIGUSR1.
func onUsr1(crash func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	go func() {
		<-ch
		crash()
	}()
}

// raise sends the worker the signal the seam names.
func raise(how string) {
	sig := map[string]syscall.Signal{"segv": syscall.SIGSEGV, "abort": syscall.SIGABRT, "bus": syscall.SIGBUS}[how]
	_ = syscall.Kill(os.Getpid(), sig)
}
