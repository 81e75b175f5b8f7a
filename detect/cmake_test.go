package detect

import (
	"slices"
	"strings"
	"testing"
)

// onlyTools is a LookPath that finds exactly tools.
func onlyTools(tools ...string) func(string) bool {
	return func(tool string) bool { return slices.Contains(tools, tool) }
}

func TestDetectCMake(t *testing.T) {
	const full = `set -e; rm -f "$VBD_BUILD_DIR"/CTestTestfile.cmake; cmake -S . -B "$VBD_BUILD_DIR"; cmake --build "$VBD_BUILD_DIR"; ctest --test-dir "$VBD_BUILD_DIR" --output-on-failure`
	const presets = `{"version": 3,
 "configurePresets": [{"name": "base", "hidden": true}, {"name": "dev", "inherits": "base", "binaryDir": "${sourceDir}/build/dev"}],
 "testPresets": [{"name": "hid", "hidden": true, "configurePreset": "dev"}, {"name": "dev", "configurePreset": "dev"}]}`
	cases := map[string]detectCase{
		"top level only: a subdirectory's and a vendored CMakeLists.txt are not projects": {
			fs: fsOf("CMakeLists.txt", "project(x C)\n", "src/CMakeLists.txt", "", "third_party/zlib/CMakeLists.txt", "",
				"tools/gen/CMakeLists.txt", ""),
			git:   true,
			opts:  Options{LookPath: onlyTools("cmake", "cc")},
			names: []string{"cmake build", "ctest"},
			checks: []want{
				{name: "ctest", argv: []string{"sh", "-c", full}, kind: KindTest, dir: ".", source: "CMakeLists.txt", setup: "-",
					serial: "cmake build", reason: `outside the tree (in the user's state dir), so the tree is never written`},
				{name: "cmake build", kind: KindBuild, serial: "cmake build", skipped: "covered by ctest; ctest's check configures and builds first",
					argv: []string{"sh", "-c", `set -e; cmake -S . -B "$VBD_BUILD_DIR"; cmake --build "$VBD_BUILD_DIR"`}},
			},
		},
		"a project in a subdirectory with no CMakeLists.txt above it is one": {
			fs:     fsOf("native/CMakeLists.txt", "", "native/lib/CMakeLists.txt", ""),
			git:    true,
			opts:   Options{LookPath: onlyTools("cmake", "gcc")},
			names:  []string{"cmake build (native)", "ctest (native)"},
			checks: []want{{name: "ctest (native)", dir: "native", serial: "cmake build (native)"}},
		},
		"--quick configures and builds": {
			fs:     fsOf("CMakeLists.txt", ""),
			git:    true,
			opts:   Options{Quick: true, LookPath: onlyTools("cmake", "clang")},
			checks: []want{{name: "cmake build", kind: KindBuild, serial: "cmake build"}, {name: "ctest", serial: "cmake build", skipped: "quick"}},
		},
		"cmake missing is setup": {
			fs:     fsOf("CMakeLists.txt", ""),
			git:    true,
			opts:   Options{LookPath: onlyTools("cc")},
			checks: []want{{name: "ctest", serial: "cmake build", setup: "CMake is not installed: install it (e.g. `apt-get install cmake`)"}},
		},
		"no compiler is setup": {
			fs:     fsOf("CMakeLists.txt", ""),
			git:    true,
			opts:   Options{LookPath: onlyTools("cmake")},
			checks: []want{{name: "ctest", serial: "cmake build", setup: "no C or C++ compiler on PATH"}},
		},
		"a test preset picks its visible configure preset; ctest still runs in vbd's build dir": {
			fs:   fsOf("CMakeLists.txt", "", "CMakePresets.json", presets),
			git:  true,
			opts: Options{LookPath: onlyTools("cmake", "cc")},
			checks: []want{{name: "ctest", serial: "cmake build",
				argv:   []string{"sh", "-c", strings.Replace(full, "cmake -S .", "cmake --preset dev", 1)},
				reason: "configured with CMakePresets.json's configure preset dev (of its test preset dev; -B puts the build outside the tree"}},
		},
		"presets without a test preset: the project's defaults": {
			fs:     fsOf("CMakeLists.txt", "", "CMakePresets.json", `{"configurePresets": [{"name": "dev"}]}`),
			git:    true,
			opts:   Options{LookPath: onlyTools("cmake", "cc")},
			checks: []want{{name: "ctest", serial: "cmake build", argv: []string{"sh", "-c", full}, reason: "(CMakePresets.json has no test preset with a visible configure preset)"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			plan := runDetect(t, c)
			checkPlan(t, c, plan)
			for _, ch := range plan.Runnable() {
				if !ch.BuildDir {
					t.Errorf("%s: BuildDir not set: the gate would give it no build dir outside the tree", ch.Name)
				}
			}
		})
	}
}

func TestTestPreset(t *testing.T) {
	cases := []struct {
		name, data, test, configure string
	}{
		{"not JSON", "{", "", ""},
		{"no presets", "{}", "", ""},
		{"hidden test preset only", `{"configurePresets":[{"name":"a"}],"testPresets":[{"name":"t","hidden":true,"configurePreset":"a"}]}`, "", ""},
		{"configure preset hidden", `{"configurePresets":[{"name":"a","hidden":true}],"testPresets":[{"name":"t","configurePreset":"a"}]}`, "", ""},
		{"configure preset elsewhere (CMakeUserPresets.json)", `{"testPresets":[{"name":"t","configurePreset":"mine"}]}`, "", ""},
		{"first visible wins", `{"configurePresets":[{"name":"a"},{"name":"b"}],"testPresets":[{"name":"t1","configurePreset":"b"},{"name":"t2","configurePreset":"a"}]}`, "t1", "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			test, cfg := testPreset([]byte(c.data))
			if test != c.test || cfg != c.configure {
				t.Errorf("testPreset = %q, %q; want %q, %q", test, cfg, c.test, c.configure)
			}
		})
	}
}
