//go:build linux

package supervise

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// The kernel reports the parent's death once per exiting thread of the
// parent that the worker was handed to, so one death can come as several
// parent-death signals. The worker must read them as one stop signal: a
// second SIGTERM means "kill the checks and end now", which ended the
// worker before its sweep had killed what a check left outside its group
// (killed_anywhere, about one run in seven under load).
func TestParentDeathIsOneStopSignal(t *testing.T) {
	term := make(chan os.Signal, 8)
	signal.Notify(term, syscall.SIGTERM)
	defer signal.Stop(term)
	watchParentDeath()
	for range 3 {
		if err := syscall.Kill(os.Getpid(), parentDeathSignal); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-term:
	case <-time.After(5 * time.Second):
		t.Fatal("the parent's death sent the worker no SIGTERM")
	}
	select {
	case <-term:
		t.Fatal("one parent death sent the worker two SIGTERMs")
	case <-time.After(300 * time.Millisecond):
	}
}
