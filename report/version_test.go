package report

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"release", "v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.time", Value: "2026-11-30T12:00:00Z"},
			{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"}}}, true,
			"vbd v1.2.3\ncommit: 0123456789abcdef0123456789abcdef01234567, 2026-11-30T12:00:00Z\ngo: go1.26.8 linux/arm64\n"},
		{"dirty clone", "devel", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "amd64"}}}, true,
			"vbd devel\ncommit: abc (modified)\ngo: go1.26.8 darwin/amd64\n"},
		{"no vcs", "devel", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}}, true,
			"vbd devel\ncommit: unknown (built without VCS information)\ngo: go1.26.8 linux/amd64\n"},
	} {
		if got := VersionText(tc.v, tc.info, tc.ok); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
	if got := VersionText("devel", nil, false); !strings.HasPrefix(got, "vbd devel\ncommit: unknown") || !strings.Contains(got, "go: go1.") {
		t.Errorf("no build info: %q", got)
	}
}
