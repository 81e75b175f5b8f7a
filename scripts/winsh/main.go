//go:build windows

// Command winsh is the sh that scripts/test-windows.sh puts on wine's PATH
// (as sh.exe), so that the real vbd.exe runs `.vbd.toml` checks there:
// wine has no sh, and a [[check]]'s run line runs with `sh -c`. It is a
// test stand-in, not a shell: `sh -c LINE` knows a few words only.
//
//	exit N             exit with N
//	sleep SECONDS      sleep
//	spawn PIDFILE      start `sleep 60` as a child, write its pid, sleep 60
//	running PID        exit 0 if PID runs, else 1
//
// Anything else exits 127, as sh does for a command it cannot find.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/internal/winjob"
)

func main() {
	if len(os.Args) != 3 || os.Args[1] != "-c" {
		fmt.Fprintln(os.Stderr, "winsh: usage: sh -c 'exit N | sleep S | spawn PIDFILE | running PID'")
		os.Exit(2)
	}
	word, arg, _ := strings.Cut(strings.TrimSpace(os.Args[2]), " ")
	n, _ := strconv.Atoi(arg)
	switch word {
	case "exit":
		os.Exit(n)
	case "sleep":
		time.Sleep(time.Duration(n) * time.Second)
	case "spawn":
		child := exec.Command(os.Args[0], "-c", "sleep 60")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "winsh:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(arg, []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "winsh:", err)
			os.Exit(1)
		}
		fmt.Println("spawned", child.Process.Pid)
		time.Sleep(60 * time.Second)
	case "running":
		if !winjob.Running(n) {
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "winsh: %s: not one of winsh's words\n", word)
		os.Exit(127)
	}
}
