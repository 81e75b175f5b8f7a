package detect

import (
	"testing"
)

func TestDetectUnsupported(t *testing.T) {
	cases := map[string]detectCase{
		"gradle at the root, named with the check to add": {
			fs:    fsOf("build.gradle", "", "build.gradle.kts", ""),
			git:   true,
			names: []string{"build.gradle"},
			checks: []want{{name: "build.gradle", skipped: "not supported: a Gradle project", dir: ".", source: "build.gradle",
				kind: KindOther, reason: `add a [[check]] to .vbd.toml with run = "./gradlew test"`}},
			warnings: []string{"build.gradle marks a Gradle project, which vbd cannot check yet"},
		},
		"nested maven beside a go module": {
			fs:    fsOf(append(goModuleFiles("."), "svc/pom.xml", "<project/>")...),
			git:   true,
			names: []string{"go vet", "go build", "go test", "pom.xml (svc)"},
			checks: []want{{name: "pom.xml (svc)", skipped: "not supported: a Maven project", dir: "svc",
				reason: `dir = "svc" and run = "mvn -B test"`}},
		},
		"a configured check in the directory replaces the notice": {
			fs:     fsOf("svc/pom.xml", ""),
			git:    true,
			opts:   Options{Config: &Config{Checks: []ConfigCheck{{Name: "maven", Dir: "svc", Run: "mvn test"}}}},
			names:  []string{"maven"},
			checks: []want{{name: "maven", dir: "svc"}},
		},
		"ignored and pruned directories hold no project": {
			fs:    fsOf("node_modules/x/pom.xml", "", "build/CMakeLists.txt", "", "vendor/Gemfile", ""),
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
