package report

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// stampedCommit is the release's commit, set by the linker (-X, by
// scripts/release.sh), ahead of go's own VCS stamp, which a build from a
// worktree or with -buildvcs=false lacks.
var stampedCommit string

// VersionText is what `vbd version` prints: the version, the commit it was
// built from and the Go that built it, so a bug report says exactly which
// vbd ran. v is gate.Version(), the one receipts record, so that `vbd
// version` and a receipt's vbd_version always agree.
func VersionText(v string, info *debug.BuildInfo, ok bool) string {
	if !ok {
		return fmt.Sprintf("vbd %s\ncommit: unknown (no build information)\ngo: %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	commit := "unknown (built without VCS information)"
	if stampedCommit != "" {
		commit = stampedCommit
	} else if rev := settings["vcs.revision"]; rev != "" {
		commit = rev
		if settings["vcs.modified"] == "true" {
			commit += " (modified)"
		}
		if t := settings["vcs.time"]; t != "" {
			commit += ", " + t
		}
	}
	goos, goarch := settings["GOOS"], settings["GOARCH"]
	if goos == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	var b strings.Builder
	fmt.Fprintf(&b, "vbd %s\ncommit: %s\ngo: %s %s/%s\n", v, commit, info.GoVersion, goos, goarch)
	return b.String()
}
