package githook

import (
	"bytes"

	"github.com/vbd-dev/vbd/detect"
)

// Names of the files vbd manages in the hooks directory.
const (
	// hookName is the hook git runs before recording a commit.
	hookName = "pre-commit"
	// MergeHookName is the hook a merge runs instead of pre-commit when
	// it records its commit by itself (a clean git merge, git pull).
	MergeHookName = "pre-merge-commit"
	// legacySuffix names where an existing hook is kept: hook +
	// legacySuffix. vbd's hook runs it first. It is not pre-commit's own
	// ".legacy", so the pre-commit framework's chaining and vbd's never
	// collide.
	legacySuffix = ".vbd-legacy"
	// legacyName is where an existing pre-commit hook is kept.
	legacyName = hookName + legacySuffix
	// marker is a line only vbd's hooks have. Reinstall and uninstall
	// recognise vbd's hook by it, so vbd never chains itself.
	marker = "# vbd-pre-commit-hook: 1"
)

// hookNames are the hooks vbd installs, in order: pre-commit, which git
// commit runs, and pre-merge-commit, which git merge runs instead when it
// records the merge itself; without it a clean merge would bypass vbd.
func hookNames() []string { return []string{hookName, MergeHookName} }

// LegacyFor is where the hook that was installed as hook is kept.
func LegacyFor(hook string) string { return hook + legacySuffix }

// ScriptOptions shape the hook script.
type ScriptOptions struct {
	// Hook is the hook the script is installed as: hookName (the
	// default) or MergeHookName.
	Hook string
	// Exe is vbd's absolute path when installed. The script falls back to
	// PATH, so a moved or upgraded vbd still runs.
	Exe string
	// Args follow `vbd pre-commit`, e.g. ["--quick"].
	Args []string
	// SourceLegacy runs the kept hook with `.` in a subshell instead of
	// executing it. husky's hooks decide which of the user's hooks to run
	// from the name they are started as ($0); executed as
	// pre-commit.vbd-legacy they would look for that hook, find none, and
	// pass without running anything. Sourced, $0 is still "pre-commit".
	SourceLegacy bool
}

// hookScript returns vbd's hook: a POSIX sh script that runs the kept hook
// first (its failure aborts the commit with its exit code), honours
// VBD_SKIP, finds vbd by the recorded path and then PATH, and fails closed
// when vbd is missing: git aborts a commit on any non-zero exit, so a
// missing vbd must not silently let commits through.
func hookScript(o ScriptOptions) []byte {
	hook, verb := o.Hook, "commit"
	if hook == "" {
		hook = hookName
	}
	if hook == MergeHookName {
		verb = "merge"
	}
	var b bytes.Buffer
	b.WriteString("#!/bin/sh\n")
	b.WriteString(marker + "\n")
	b.WriteString(`# vbd's git ` + hook + ` hook: it verifies what is being committed (the
# index), never the work tree. Written by "vbd install git"; "vbd uninstall
# git" removes it and puts back the hook that was here before.
#   Skip once: VBD_SKIP=1 git ` + verb + ` ...   (or git ` + verb + ` --no-verify)

`)
	b.WriteString("vbd_exe=" + detect.Quote(scriptPath(o.Exe)) + "\n") // script_unix.go, script_windows.go
	// The hook's directory by parameter expansion, not dirname: every
	// commit starts this script, and a process costs a millisecond.
	b.WriteString(`case $0 in
*/*) hook_dir=${0%/*} ;;
*) hook_dir=. ;;
esac
legacy=$hook_dir/` + LegacyFor(hook) + `

# The hook that was here before vbd runs first, exactly as git ran it: only
# when executable, and its failure is the commit's failure.
if [ -f "$legacy" ] && [ -x "$legacy" ]; then
`)
	if o.SourceLegacy {
		b.WriteString(`	# husky picks the hook to run from $0, so it runs as this hook.
	(. "$legacy") || exit $?
`)
	} else {
		b.WriteString(`	"$legacy" "$@" || exit $?
`)
	}
	b.WriteString(`fi

case ${VBD_SKIP:-} in
'' | 0 | false | no) ;;
*)
	echo "vbd: VBD_SKIP is set, so this ` + verb + ` was not verified" >&2
	exit 0
	;;
esac

if [ -x "$vbd_exe" ]; then
	vbd=$vbd_exe
elif command -v vbd >/dev/null 2>&1; then
	vbd=vbd
else
	echo "vbd: not found at $vbd_exe or on PATH, so the ` + verb + ` is blocked; reinstall vbd, or skip once with: VBD_SKIP=1 git ` + verb + ` ..." >&2
	exit 1
fi
`)
	b.WriteString(`exec "$vbd" pre-commit`)
	if hook != hookName {
		b.WriteString(" --hook " + detect.Quote(hook))
	}
	for _, a := range o.Args {
		b.WriteString(" " + detect.Quote(a))
	}
	b.WriteString("\n")
	return b.Bytes()
}

// isVBDHook reports whether a hook file's content is vbd's hook.
func isVBDHook(content []byte) bool {
	for line := range bytes.SplitSeq(content, []byte("\n")) {
		if string(bytes.TrimSpace(line)) == marker {
			return true
		}
	}
	return false
}
