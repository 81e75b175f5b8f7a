package detect

import (
	"slices"
	"testing"
	"testing/fstest"
)

func TestDetectJVM(t *testing.T) {
	only := func(tools ...string) func(string) bool {
		return func(tool string) bool { return slices.Contains(tools, tool) }
	}
	exe := &fstest.MapFile{Data: []byte("#!/bin/sh\n"), Mode: 0o755}
	with := func(m fstest.MapFS, name string, f *fstest.MapFile) fstest.MapFS { m[name] = f; return m }
	const reactor = `<project><modules><module>core</module><module>app/</module></modules>
<profiles><profile><modules><module>extra/pom.xml</module></modules></profile></profiles></project>`
	cases := map[string]detectCase{
		"maven: a reactor is one check at its root, its modules (a profile's too) are not roots": {
			fs: fsOf("pom.xml", reactor, "core/pom.xml", "<project/>", "app/pom.xml", "<project/>",
				"extra/pom.xml", "<project/>", "tools/pom.xml", "<project/>"),
			git:   true,
			opts:  Options{LookPath: only("mvn")},
			names: []string{"mvn compile", "mvn verify", "mvn compile (tools)", "mvn verify (tools)"},
			checks: []want{
				{name: "mvn verify", argv: []string{"mvn", "-B", "verify"}, kind: KindTest, dir: ".", source: "pom.xml",
					reason: "0 tests run is vacuous; dependencies it cannot download are setup (`mvn dependency:go-offline`", setup: "-"},
				{name: "mvn compile", argv: []string{"mvn", "-B", "-q", "compile"}, kind: KindBuild, skipped: "covered by mvn verify; verify compiles first"},
				{name: "mvn verify (tools)", dir: "tools"},
			},
		},
		"maven: --quick runs compile, not verify": {
			fs:   fsOf("pom.xml", "<project/>"),
			git:  true,
			opts: Options{Quick: true, LookPath: only("mvn")},
			checks: []want{
				{name: "mvn compile", kind: KindBuild},
				{name: "mvn verify", skipped: "quick"},
			},
		},
		"maven: an executable mvnw comes first, without mvn installed": {
			fs:     with(fsOf("pom.xml", "<project/>"), "mvnw", exe),
			git:    true,
			opts:   Options{LookPath: only()},
			checks: []want{{name: "mvn verify", argv: []string{"./mvnw", "-B", "verify"}, reason: "./mvnw is the project's own Maven wrapper", setup: "-"}},
		},
		"maven: an mvnw that is not executable is said, and mvn missing is setup": {
			fs:     fsOf("pom.xml", "<project/>", "mvnw", "#!/bin/sh\n"),
			git:    true,
			opts:   Options{LookPath: only()},
			checks: []want{{name: "mvn verify", argv: []string{"mvn", "-B", "verify"}, reason: "mvnw is present but not executable", setup: "Maven is not installed"}},
		},
		"maven: a pom that is not XML is an error row": {
			fs:     fsOf("pom.xml", "<project><modules>"),
			git:    true,
			checks: []want{{name: "read pom.xml", err: "not valid XML", skipped: "error: cannot read pom.xml: it is not valid XML (XML syntax error on line 1: unexpected EOF); fix it so Maven and vbd can read it"}},
		},
		"gradle: settings is the root, its projects' build files are not; a build without settings is": {
			fs: with(fsOf("server/settings.gradle.kts", "", "server/build.gradle.kts", "", "server/lib/build.gradle.kts", "",
				"samples/hello/build.gradle", ""), "server/gradlew", exe),
			git:   true,
			opts:  Options{LookPath: only()},
			names: []string{"gradle assemble (samples/hello)", "gradle check (samples/hello)", "gradle assemble (server)", "gradle check (server)"},
			checks: []want{
				{name: "gradle check (server)", argv: []string{"./gradlew", "check", "--console=plain", "--no-daemon"}, kind: KindTest,
					source: "server/settings.gradle.kts", reason: "--no-daemon, since a daemon would outlive the check and vbd", setup: "-"},
				{name: "gradle assemble (server)", argv: []string{"./gradlew", "assemble", "--console=plain", "--no-daemon"}, kind: KindBuild,
					skipped: "covered by gradle check (server); check compiles what it tests"},
				{name: "gradle check (samples/hello)", argv: []string{"gradle", "check", "--console=plain", "--no-daemon"},
					source: "samples/hello/build.gradle", setup: "Gradle is not installed"},
			},
		},
		"gradle: --quick runs assemble with gradle from PATH": {
			fs:     fsOf("build.gradle", ""),
			git:    true,
			opts:   Options{Quick: true, LookPath: only("gradle")},
			checks: []want{{name: "gradle assemble", setup: "-"}, {name: "gradle check", skipped: "quick"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}
