//go:build unix

// Command treebench measures vbd's one walk of a git tree against the git
// commands it replaces or must keep up with, on a repository given as its
// argument (scripts/bench-tree.sh generates one of 100k files):
//
//   - detection's file list (state.WalkTree(FilesOnly) + Files), and
//     with detect.Detect on it, against one `git ls-files -co
//     --exclude-standard` (goal: ≤ 1.3×);
//   - reuse's tree fingerprint (WalkTree + Files + Digest, what a reused
//     run spends on git) against one `git status --porcelain=v2
//     --untracked-files=all` (goal: ≤ 1.2×);
//   - the recheck after a run (Tree.Recheck + Digest).
//
// The measurements alternate, RUNS rounds (default 7); it prints the
// min/median/max wall time of each and the ratios of medians. It only
// reads the repository.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/state"
)

func main() {
	runs := flag.Int("runs", 7, "rounds of alternating measurements")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: treebench [-runs N] REPO")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *runs); err != nil {
		fmt.Fprintln(os.Stderr, "treebench:", err)
		os.Exit(1)
	}
}

type measure struct {
	name string
	fn   func(ctx context.Context) error
	d    []time.Duration
	cpu  []time.Duration
}

// cpuTime is the CPU time (user and system) of this process and of its
// waited-for children so far: on a loaded machine it says what a
// measurement costs better than the wall clock.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

func gitCmd(dir string, args ...string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
		return cmd.Run()
	}
}

func run(repo string, runs int) error {
	ctx := context.Background()
	base, err := state.WalkTree(ctx, repo, state.WalkOptions{})
	if err != nil {
		return err
	}
	if _, err := base.Digest(ctx); err != nil {
		return err
	}
	files, err := base.Files(ctx)
	if err != nil {
		return err
	}
	ms := []*measure{
		{name: "git ls-files -co --exclude-standard", fn: gitCmd(repo, "ls-files", "-z", "-co", "--exclude-standard")},
		{name: "vbd detection file list", fn: func(ctx context.Context) error {
			t, err := state.WalkTree(ctx, repo, state.WalkOptions{FilesOnly: true})
			if err != nil {
				return err
			}
			_, err = t.Files(ctx)
			return err
		}},
		{name: "vbd detection (list + detect.Detect)", fn: func(ctx context.Context) error {
			t, err := state.WalkTree(ctx, repo, state.WalkOptions{FilesOnly: true})
			if err != nil {
				return err
			}
			files, err := t.Files(ctx)
			if err != nil {
				return err
			}
			_, err = detect.Detect(os.DirFS(t.Root), detect.Options{Files: files})
			return err
		}},
		{name: "git status --porcelain=v2 -uall", fn: gitCmd(repo, "status", "--porcelain=v2", "-z", "--untracked-files=all")},
		{name: "vbd walk: files + fingerprint", fn: func(ctx context.Context) error {
			t, err := state.WalkTree(ctx, repo, state.WalkOptions{})
			if err != nil {
				return err
			}
			if _, err := t.Files(ctx); err != nil {
				return err
			}
			_, err = t.Digest(ctx)
			return err
		}},
		{name: "vbd recheck after a run", fn: func(ctx context.Context) error {
			t, err := base.Recheck(ctx)
			if err != nil {
				return err
			}
			_, err = t.Digest(ctx)
			return err
		}},
	}
	for range runs {
		for _, m := range ms {
			start, c0 := time.Now(), cpuTime()
			if err := m.fn(ctx); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
			m.d = append(m.d, time.Since(start))
			m.cpu = append(m.cpu, cpuTime()-c0)
		}
	}
	fmt.Printf("%s: %d files listed; %d alternating rounds\n", repo, len(files), runs)
	fmt.Printf("%-38s %9s %9s %9s   %s\n", "wall clock", "min", "median", "max", "CPU (user+sys) min/median/max")
	med, cpu := map[string]time.Duration{}, map[string]time.Duration{}
	for _, m := range ms {
		slices.Sort(m.d)
		slices.Sort(m.cpu)
		med[m.name], cpu[m.name] = m.d[len(m.d)/2], m.cpu[len(m.cpu)/2]
		fmt.Printf("%-38s %7.1fms %7.1fms %7.1fms   %.0f/%.0f/%.0f ms\n", m.name, ms1(m.d[0]), ms1(m.d[len(m.d)/2]), ms1(m.d[len(m.d)-1]),
			ms1(m.cpu[0]), ms1(m.cpu[len(m.cpu)/2]), ms1(m.cpu[len(m.cpu)-1]))
	}
	ratio := func(what string, a, b string, goal string) {
		fmt.Printf("%-34s wall %.2f×, CPU %.2f× %s\n", what, float64(med[a])/float64(med[b]), float64(cpu[a])/float64(cpu[b]), goal)
	}
	ratio("detection list / ls-files -co:", "vbd detection file list", "git ls-files -co --exclude-standard", "(goal ≤ 1.3×)")
	ratio("detection / ls-files -co:", "vbd detection (list + detect.Detect)", "git ls-files -co --exclude-standard", "")
	ratio("walk + fingerprint / git status:", "vbd walk: files + fingerprint", "git status --porcelain=v2 -uall", "(goal ≤ 1.2×)")
	ratio("recheck / git status:", "vbd recheck after a run", "git status --porcelain=v2 -uall", "")
	return nil
}

func ms1(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
