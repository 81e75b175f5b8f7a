package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionText is what `vbd version` prints: the version, the commit it was
// built from and the Go that built it, so a bug report says exactly which
// vbd ran.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return fmt.Sprintf("vbd devel\ncommit: unknown (no build information)\ngo: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	commit := "unknown (built without VCS information)"
	if rev := settings["vcs.revision"]; rev != "" {
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
