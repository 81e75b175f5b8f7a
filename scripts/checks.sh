# checks.sh, sourced by scripts/test-packaging.sh and test-windows.sh:
# their tallies and the one way a check is run. ok and bad count and say;
# `check NAME COMMAND...` runs COMMAND, and shows the last lines of its
# output when it fails.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...
	name=$1
	shift
	if out=$("$@" 2>&1); then ok "$name"; else bad "$name"; echo "$out" | tail -30 | sed 's/^/    /'; fi
}
