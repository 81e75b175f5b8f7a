package detect

import (
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// lefthookConfigs are lefthook's configuration files at the repository root.
var lefthookConfigs = []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"}

// lefthookRun matches a command's `run:` line; lefthookFiles its file
// templates, set aside before the shell parse.
var (
	lefthookRun   = lazyre.New(`^\s*run:\s*(.+)$`)
	lefthookFiles = lazyre.New(`\{[a-z_]+\}`)
)

// lefthookPreCommit reads a lefthook configuration: whether it has a
// top-level pre-commit hook and the `run:` commands under it.
func lefthookPreCommit(data []byte) (has bool, runs []string) {
	in := false
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '#' {
			in = strings.HasPrefix(line, "pre-commit:")
			has = has || in
			continue
		}
		if in {
			if m := lefthookRun.FindStringSubmatch(line); m != nil {
				runs = append(runs, lefthookFiles.ReplaceAllString(unquoteYAML(m[1]), "VBDFILES"))
			}
		}
	}
	return has, runs
}

// lefthookCommand is how vbd runs lefthook. lefthook run installs its
// hooks into .git/hooks first when they are out of date with the config,
// replacing vbd's own git hooks: --no-auto-install leaves them alone.
const lefthookCommand = "lefthook run pre-commit --all-files --no-auto-install"

// LefthookRewriteMarker opens the list of files lefthook's jobs rewrote,
// one per line after it, which verdict reads into the row's summary.
const LefthookRewriteMarker = "vbd: lefthook's jobs would rewrite these files"

// lefthookScript runs lefthookCommand in vbd's throwaway copy of the tree
// (Check.Sandbox; or the git gate's snapshot) and fails it when its jobs
// rewrote a file. Fixers (gofmt -w, prettier --write, stage_fixed) exit 0
// having changed what they check, so the exit status alone would call a
// tree they had to fix verified. The index the copy was made with is kept
// aside, and the files that differ from it afterwards are named.
const lefthookScript = `idx=$(git rev-parse --git-path index) || exit 1
cp "$idx" "$idx.vbd-before" || exit 1
` + lefthookCommand + `
rc=$?
changed=$(GIT_INDEX_FILE="$idx.vbd-before" git diff --name-only)
rm -f "$idx.vbd-before"
if [ -n "$changed" ]; then
	echo "` + LefthookRewriteMarker + ` (in vbd's copy of the tree; yours is untouched):"
	printf '%s\n' "$changed"
	[ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"`

// detectLefthook adds `lefthook run pre-commit --all-files` for a
// lefthook configuration at the repository root. A hook that runs vbd
// itself (which would run lefthook again) or starts a watcher is skipped.
func (d *detector) detectLefthook() {
	for _, name := range lefthookConfigs {
		if !d.tree.has(".", name) {
			continue
		}
		data, ok := d.readMarker(ecoLefthook, ".", name)
		if !ok {
			return
		}
		d.project()
		c := Check{
			Name:  "lefthook",
			Kind:  KindLint,
			Argv:  []string{"sh", "-c", lefthookScript},
			Shell: lefthookCommand,
			// lefthook's pre-commit hides the unstaged part of every
			// partially staged file by rewriting it in the work tree (git
			// stash create, then checkout) and restores it afterwards. In
			// a throwaway copy whose index holds the whole tree nothing is
			// partially staged, --all-files means every tracked and
			// untracked file that is not ignored (as for pre-commit), and
			// a file another check creates or deletes meanwhile cannot
			// make one so. A private index in the real tree was not
			// enough: a temporary file that go vet, running beside it,
			// made and removed in the tree showed as added-then-deleted,
			// and lefthook tried to stash it ("Failed to save unstaged
			// changes"; with a commit it would have rewritten the file).
			Sandbox: true,
			Dir:     ".",
			Root:    ".",
			Quick:   true,
			Source:  name,
			Reason:  name + " at the repository root; runs its pre-commit hook on every file",
			Runner:  RunnerOpaque,
		}
		has, runs := lefthookPreCommit(data)
		var t scriptTraits
		vbd := ""
		for _, r := range runs {
			cmds, err := Commands(r)
			if err != nil {
				continue
			}
			st := traitsOf(cmds)
			t.writer = firstOf(t.writer, st.writer)
			t.watcher = firstOf(t.watcher, st.watcher)
			for _, words := range cmds {
				if prog, _ := cmdWords(words); prog == "vbd" {
					vbd = r
				}
			}
		}
		switch {
		case !d.inGit():
			c.Skipped = Skip{Kind: SkipNotGit}
		case !has:
			c.Skipped = skipWhy("no pre-commit hook in " + name)
		case vbd != "":
			c.Skipped = skipWhy("its pre-commit hook runs vbd itself (" + abbrev(vbd) + ")")
		case t.watcher != "":
			c.Skipped = Skip{Kind: SkipWatcher, Detail: t.watcher}
		case !d.onPath("lefthook"):
			c.Skipped = Skip{Kind: SkipToolMissing, By: "lefthook", Detail: "npm install -g lefthook"}
		}
		if t.writer != "" && !c.Skipped.Set() {
			c.Reason += "; its fixers (" + t.writer + ") run in a throwaway copy, and a file they would rewrite fails the check"
		}
		d.add(ecoLefthook, c)
		return // lefthook reads the first one
	}
}

// ecoLefthook is lefthook configurations.
const ecoLefthook ecoID = "lefthook"
