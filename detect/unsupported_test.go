package detect

import (
	"testing"
)

func TestDetectUnsupported(t *testing.T) {
	cases := map[string]detectCase{
		"zig at the root, named with the check to add": {
			fs:    fsOf("build.zig", ""),
			git:   true,
			names: []string{"build.zig"},
			checks: []want{{name: "build.zig", skipped: "not supported: a Zig project", dir: ".", source: "build.zig",
				kind: KindOther, reason: `add a [[check]] to .vbd.toml with run = "zig build test"`}},
			warnings: []string{"build.zig marks a Zig project, which vbd cannot check yet"},
		},
		"nested sbt beside a go module": {
			fs:    fsOf(append(goModuleFiles("."), "svc/build.sbt", "")...),
			git:   true,
			names: []string{"go vet", "go build", "go test", "build.sbt (svc)"},
			checks: []want{{name: "build.sbt (svc)", skipped: "not supported: an sbt project", dir: "svc",
				reason: `dir = "svc" and run = "sbt test"`}},
		},
		"a configured check in the directory replaces the notice": {
			fs:     fsOf("svc/build.sbt", ""),
			git:    true,
			opts:   Options{Config: &Config{Checks: []ConfigCheck{{Name: "sbt", Dir: "svc", Run: "sbt test"}}}},
			names:  []string{"sbt"},
			checks: []want{{name: "sbt", dir: "svc"}},
		},
		"ignored and pruned directories hold no project": {
			fs:    fsOf("node_modules/x/build.sbt", "", "build/CMakeLists.txt", "", "vendor/Gemfile", ""),
			git:   true,
			names: nil,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			plan := runDetect(t, c)
			if c.names == nil && len(plan.Checks) != 0 {
				t.Fatalf("checks %+v, want none", plan.Checks)
			}
			checkPlan(t, c, plan)
		})
	}
}
