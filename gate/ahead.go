package gate

import (
	"context"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// Ahead is a plan detected ahead of Verify, while git still walks the
// work tree: git's pre-commit path must wait for the walk's status to know
// whether the commit is verified in place at all (inspect), and detection
// (5 ms at 10k files) then came after the status instead of beside it.
// Verify uses it for a Request whose Tree and Quick are the ones it was
// started with; a caller that does not verify that tree Drops it. The
// receipts' heads are read ahead too, for the reuse lookup (every commit
// is a new tree, whose lookup looks at each receipt and finds none).
type Ahead struct {
	tree  *state.Tree
	quick bool
	stop  context.CancelFunc
	done  chan struct{}
	heads *receipt.Heads

	cfg      *detect.Config
	plan     detect.Plan
	err      error
	panicked any
	used     bool
}

// PlanAhead starts reading .vbd.toml and detecting the plan of tree's work
// tree, as Verify would for a Request with that Tree: the tracked files
// as soon as the index is read, the untracked ones once git status lists
// them; and the receipts' heads (receipt.ReadHeads).
func PlanAhead(ctx context.Context, tree *state.Tree, quick bool) *Ahead {
	ctx, stop := context.WithCancel(ctx)
	a := &Ahead{tree: tree, quick: quick, stop: stop, done: make(chan struct{}), heads: receipt.ReadHeads(tree.StatePath())}
	go func() {
		defer close(a.done)
		defer func() {
			if r := recover(); r != nil {
				a.panicked = r
			}
		}()
		_, a.cfg, a.plan, a.err = loadPlan(ctx, tree.Repo(), tree, quick)
	}()
	return a
}

// Drop ends a: a plan Verify did not use is stopped and waited for, so
// that no detection reads the work tree after its caller moved on; one it
// used is done already. Its caller calls it once Verify has returned, or
// instead of Verify.
func (a *Ahead) Drop() {
	if a == nil {
		return
	}
	a.stop()
	<-a.done
	a.heads.Wait()
}

// receiptHeads are the receipts' heads read ahead, once Verify has taken
// a's plan (a Verify of another tree reads its own); nil otherwise.
func (a *Ahead) receiptHeads() *receipt.Heads {
	if a == nil || !a.used {
		return nil
	}
	return a.heads
}

// take waits for a's plan when a was started for tree and quick; false
// otherwise (Verify then plans itself, and a is left for its caller to
// Drop).
func (a *Ahead) take(tree *state.Tree, quick bool) bool {
	if a == nil || a.used || tree == nil || a.tree != tree || a.quick != quick {
		return false
	}
	<-a.done
	a.used = true
	if a.panicked != nil {
		panic(a.panicked) // where detection ran before: the caller's recover answers
	}
	return true
}
