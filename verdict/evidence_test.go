package verdict

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// The fixtures in testdata/output are real output captured by
// testdata/capture-go.sh and testdata/capture-other.sh (go 1.26, node 20,
// jest 30, vitest 4, mocha 12, GNU make 4.3, CPython 3.11/3.12/3.13,
// pytest 7.2.1, cargo 1.95, pre-commit 3.0.4: the versions that
// vacuous-passes.md measured). The exit codes below are the ones those
// runs returned, as the scripts print them. The ids (G1, N7, ...) are the
// rows of vacuous-passes.md §1.

// fixture is one captured run and what vbd must conclude from it.
type fixture struct {
	file   string
	runner detect.Runner
	kind   detect.Kind
	exit   int
	status Status
	detail string
	// Counts, checked when counted is set.
	counted                        bool
	passed, failed, skipped, total int
	// evRunner, when set, is the Evidence.Runner expected.
	evRunner string
}

var fixtures = []fixture{
	// go test -json, read by the go-test-json scanner.
	{file: "go-json-pass", runner: detect.RunnerGoTestJSON, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4, evRunner: "go test"},
	{file: "go-json-fail", runner: detect.RunnerGoTestJSON, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "go-json-g1-no-test-files", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "no test files", counted: true},
	{file: "go-json-g2-all-skipped", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "go-json-g3-no-tests-to-run", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "go-json-g5-no-packages", runner: detect.RunnerGoTestJSON, exit: 1, status: Vacuous, detail: "no packages to test"},
	{file: "go-json-g6-benchmark-only", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "go-json-g7-testmain-no-run", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "go-json-g8-subtests-skipped", runner: detect.RunnerGoTestJSON, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "go-json-g9-build-fail", runner: detect.RunnerGoTestJSON, exit: 1, status: Fail, detail: "exit 1", counted: true, failed: 1, total: 1},
	{file: "go-json-g10-work-dots", runner: detect.RunnerGoTestJSON, exit: 1, status: Vacuous, detail: "no packages to test"},
	{file: "go-json-g11-work", runner: detect.RunnerGoTestJSON, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1},
	{file: "go-json-parallel", runner: detect.RunnerGoTestJSON, exit: 0, status: Pass, detail: "3 passed, 2 skipped", counted: true, passed: 3, skipped: 2, total: 5},

	// go vet and go build.
	{file: "go-vet-pass", runner: detect.RunnerGoVet, kind: detect.KindVet, exit: 0, status: Pass},
	{file: "go-vet-fail", runner: detect.RunnerGoVet, kind: detect.KindVet, exit: 1, status: Fail, detail: "exit 1"},
	{file: "go-vet-g5-no-packages", runner: detect.RunnerGoVet, kind: detect.KindVet, exit: 1, status: Vacuous, detail: "no packages to vet"},
	{file: "go-vet-g10-work-dots", runner: detect.RunnerGoVet, kind: detect.KindVet, exit: 1, status: Vacuous, detail: "no packages to vet"},
	{file: "go-build-pass", runner: detect.RunnerGoBuild, kind: detect.KindBuild, exit: 0, status: Pass},
	{file: "go-build-g5-no-packages", runner: detect.RunnerGoBuild, kind: detect.KindBuild, exit: 0, status: Vacuous, detail: "no packages"},

	// go test's plain text, as a Makefile shows it.
	{file: "go-text-pass", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "no test count", evRunner: "go test"},
	{file: "go-text-v-pass", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4, evRunner: "go test"},
	{file: "go-text-v-parallel", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "3 passed, 2 skipped", counted: true, passed: 3, skipped: 2, total: 5},
	{file: "go-text-fail", runner: detect.RunnerMake, exit: 1, status: Fail, detail: "exit 1"},
	{file: "go-text-v-fail", runner: detect.RunnerMake, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "go-text-g1-no-test-files", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "no test files"},
	// G2 without -v is invisible in text (vacuous-passes.md §2.2): only "ok".
	{file: "go-text-g2-all-skipped", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "no test count"},
	{file: "go-text-v-g2-all-skipped", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "go-text-g3-no-tests-to-run", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "go-text-v-g3-no-tests-to-run", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "go-text-g5-no-packages", runner: detect.RunnerMake, exit: 1, status: Vacuous, detail: "no packages to test"},
	{file: "go-text-v-g8-subtests-skipped", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "go-text-g9-build-fail", runner: detect.RunnerMake, exit: 1, status: Fail, detail: "exit 1"},
	{file: "go-text-g10-work-dots", runner: detect.RunnerMake, exit: 1, status: Vacuous, detail: "no packages to test"},

	// node --test, through npm.
	{file: "node-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "node --test"},
	{file: "node-fail", runner: detect.RunnerNPM, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "node-n7-no-tests", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "node-n8-not-found", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},
	{file: "node-n9-skip-todo", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	// node's summary says "# pass 1" here: the parent of two skipped subtests.
	{file: "node-subtests-skipped", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	// An empty describe prints "ok" too; node's summary says "# pass 3".
	{file: "node-suites", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4},
	// The spec reporter has no test points: its summary is all there is.
	{file: "node-spec-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "3 passed, 1 skipped", counted: true, passed: 3, skipped: 1, total: 4},

	// npm.
	{file: "npm-n1-placeholder", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "npm-init placeholder script", evRunner: "npm"},
	{file: "npm-n2-missing-script", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "missing script"},
	{file: "npm-node-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3},

	// jest.
	{file: "jest-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "1 passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2, evRunner: "jest"},
	{file: "jest-fail", runner: detect.RunnerNPM, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "jest-j1-no-tests", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no tests found"},
	{file: "jest-j2-pass-with-no-tests", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "no tests found"},
	{file: "jest-j3-skip-todo", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},

	// vitest.
	{file: "vitest-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "1 passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2, evRunner: "vitest"},
	{file: "vitest-pass-color", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "1 passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2},
	{file: "vitest-fail", runner: detect.RunnerNPM, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "vitest-v1-no-tests", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},
	{file: "vitest-v2-pass-with-no-tests", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "no test files"},
	{file: "vitest-v3-skip-todo", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},

	// mocha.
	{file: "mocha-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "1 passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2, evRunner: "mocha"},
	{file: "mocha-fail", runner: detect.RunnerNPM, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "mocha-m1-no-test-dir", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},
	{file: "mocha-m2-empty-test-dir", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},
	{file: "mocha-m2-glob-no-match", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},
	{file: "mocha-m3-empty-spec", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "mocha-m4-all-pending", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	// AVA 6.4 (and 3.15, chalk's), CI=true: its default reporter.
	{file: "ava3-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4, evRunner: "ava"},
	{file: "ava-pass", runner: detect.RunnerNPM, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4, evRunner: "ava"},
	{file: "ava-fail", runner: detect.RunnerNPM, exit: 1, status: Fail, detail: "exit 1", counted: true, failed: 1, total: 1},
	{file: "ava-skip", runner: detect.RunnerNPM, exit: 0, status: Vacuous, detail: "all 1 tests skipped", counted: true, skipped: 1, total: 1},
	{file: "ava-nofiles", runner: detect.RunnerNPM, exit: 1, status: Vacuous, detail: "no test files"},

	// make.
	{file: "make-k1-no-rule", runner: detect.RunnerMake, exit: 2, status: Vacuous, detail: "no such make target", evRunner: "make"},
	{file: "make-k2-nothing-to-be-done", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "make: nothing to be done", evRunner: "make"},
	{file: "make-k4-up-to-date", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "'test' is up to date"},
	{file: "make-go-v-node-pass", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "3 passed, 1 skipped", counted: true, passed: 3, skipped: 1, total: 4, evRunner: "go test+node --test"},
	// go test without -v gives no count, node --test does: the count is node's.
	{file: "make-go-node-pass", runner: detect.RunnerMake, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "go test+node --test"},
	{file: "make-go-v-all-skipped", runner: detect.RunnerMake, exit: 0, status: Vacuous, detail: "all 1 tests skipped", counted: true, skipped: 1, total: 1},
	{file: "make-npm-placeholder", runner: detect.RunnerMake, exit: 2, status: Vacuous, detail: "npm-init placeholder script"},

	// python -m unittest (custom commands).
	{file: "unittest-pass", runner: detect.RunnerOpaque, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "unittest"},
	{file: "unittest-fail", runner: detect.RunnerOpaque, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "unittest-3.11-u1-no-tests", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "unittest-3.12-u1-no-tests", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "no tests ran"},
	{file: "unittest-3.13-u1-no-tests", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "no tests ran"},
	{file: "unittest-3.11-u3-no-init", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "unittest-3.11-u4-all-skipped", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "all 1 tests skipped", counted: true, skipped: 1, total: 1},
	{file: "unittest-3.12-u4-all-skipped", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "all 1 tests skipped", counted: true, skipped: 1, total: 1},
	{file: "unittest-3.13-u4-all-skipped", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "all 1 tests skipped"},

	// pytest (custom commands).
	{file: "pytest-pass", runner: detect.RunnerOpaque, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "pytest"},
	{file: "pytest-pass-q", runner: detect.RunnerOpaque, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3},
	{file: "pytest-fail", runner: detect.RunnerOpaque, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "pytest-p1-no-tests", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "no tests collected"},
	{file: "pytest-p1-no-tests-q", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "no tests collected"},
	{file: "pytest-p2-all-skipped", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "pytest-p3-deselected", runner: detect.RunnerOpaque, exit: 5, status: Vacuous, detail: "no tests collected"},

	// cargo test (custom commands).
	{file: "cargo-pass", runner: detect.RunnerOpaque, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "cargo test"},
	{file: "cargo-fail", runner: detect.RunnerOpaque, exit: 101, status: Fail, detail: "exit 101", counted: true, passed: 1, failed: 1, total: 2},
	{file: "cargo-r1-no-tests", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "cargo-r2-filtered", runner: detect.RunnerOpaque, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	// bazel test (written from Bazel 7's summary format: Bazel cannot be
	// installed here), turbo 2.11 and nx 24 (captured from the real tools
	// on an npm workspace; turbo with --log-prefix=none, nx with
	// --outputStyle=static, as vbd runs them).
	{file: "bazel-pass", runner: detect.RunnerBazel, exit: 0, status: Pass, detail: "2 passed", counted: true, passed: 2, total: 2, evRunner: "bazel test"},
	{file: "bazel-fail", runner: detect.RunnerBazel, exit: 3, status: Fail, detail: "exit 3", counted: true, passed: 1, failed: 1, total: 2},
	{file: "bazel-b1-no-test-targets", runner: detect.RunnerBazel, exit: 4, status: Vacuous, detail: "no test targets"},
	// Maven: maven-setup-offline is real (Maven 3.8.7 here, no network,
	// empty ~/.m2); the others are written by hand from Surefire 2.22 and
	// 3.2's formats (no plugin can be downloaded here to capture them).
	// Gradle: written by hand from Gradle 8's --console=plain output
	// (its wrapper and plugins cannot be downloaded here). A Gradle pass
	// prints no count: its exit code alone, vacuous in an agent's hook.
	{file: "maven-reactor-pass", runner: detect.RunnerMaven, exit: 0, status: Pass, detail: "5 passed, 1 skipped", counted: true, passed: 5, skipped: 1, total: 6, evRunner: "maven"},
	{file: "maven-fail", runner: detect.RunnerMaven, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 2, failed: 2, total: 4},
	{file: "maven-no-tests", runner: detect.RunnerMaven, exit: 0, status: Vacuous, detail: "no tests to run"},
	{file: "maven-setup-offline", runner: detect.RunnerMaven, exit: 1, status: Setup, detail: "Maven dependencies could not be downloaded: run `mvn dependency:go-offline` (or `./mvnw dependency:go-offline`) with network access ([ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:2.6 or one of its dependencies could not be resolved: Failed to read artifact descriptor for org.apache.maven.plugins:maven-resources-plugin:jar:2.6: Could not transfer artifact org.apache.maven.plugins:maven-resources-plugin:pom:2.6 from/to central (https://repo.maven.apache.org/maven2): transfer failed for https://repo.maven.apache.org/maven2/org/apache/maven/plugins/maven-resources-plugin/2.6/maven-resources-plugin-2.6.pom: Unknown host repo.…)"},
	{file: "gradle-fail", runner: detect.RunnerGradle, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, skipped: 1, total: 3, evRunner: "gradle"},
	{file: "gradle-pass", runner: detect.RunnerGradle, exit: 0, status: Pass, detail: "no test count"},
	{file: "gradle-no-source", runner: detect.RunnerGradle, exit: 0, status: Vacuous, detail: "test task had no tests (NO-SOURCE)"},
	{file: "gradle-wrapper-offline", runner: detect.RunnerGradle, exit: 1, status: Setup, detail: "the Gradle wrapper could not download Gradle: run `./gradlew --version` with network access (Exception in thread \"main\" java.net.UnknownHostException: services.gradle.org)"},
	// Gradle 4.4.1 (Debian's, run for real offline, JUnit 4 from
	// /usr/share/java) with vbd's init script: its totals line counts a
	// pass; with a failure Gradle's own count line counts, once; a test
	// task with no sources (":test NO-SOURCE", Gradle 4's task lines) is
	// vacuous.
	{file: "gradle4-pass", runner: detect.RunnerGradle, exit: 0, status: Pass, detail: "2 passed", counted: true, passed: 2, total: 2, evRunner: "gradle"},
	{file: "gradle4-fail", runner: detect.RunnerGradle, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, skipped: 1, total: 3, evRunner: "gradle"},
	{file: "gradle4-nosrc", runner: detect.RunnerGradle, exit: 0, status: Vacuous, detail: "test task had no tests (NO-SOURCE)"},
	{file: "gradle-deps-offline", runner: detect.RunnerGradle, exit: 1, status: Setup, detail: "Gradle dependencies could not be downloaded: run `./gradlew dependencies` (or `gradle dependencies`) with network access (Could not resolve all files for configuration ':compileClasspath'.)"},
	// Ruby, captured here (ruby 3.1.2, rspec 3.12, minitest 5.17, rake
	// 13.0.6, Bundler 2.3.15): rspec's and minitest's counts; 0 examples,
	// 0 runs and tests with 0 assertions are vacuous; a spec file that
	// does not load fails; gems Bundler cannot find are setup.
	{file: "ruby-rspec-pass", runner: detect.RunnerRuby, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "rspec"},
	{file: "ruby-rspec-fail", runner: detect.RunnerRuby, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 2, skipped: 2, total: 5},
	{file: "ruby-rspec-none", runner: detect.RunnerRuby, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "ruby-rspec-load-error", runner: detect.RunnerRuby, exit: 1, status: Fail, detail: "exit 1"},
	{file: "ruby-minitest-pass", runner: detect.RunnerRuby, exit: 0, status: Pass, detail: "2 passed", counted: true, passed: 2, total: 2, evRunner: "minitest"},
	{file: "ruby-minitest-rake-fail", runner: detect.RunnerRuby, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 2, skipped: 1, total: 4},
	{file: "ruby-minitest-none", runner: detect.RunnerRuby, exit: 0, status: Vacuous, detail: "0 tests ran"},
	{file: "ruby-minitest-no-assertions", runner: detect.RunnerRuby, exit: 0, status: Vacuous, detail: "1 tests ran with 0 assertions"},
	{file: "ruby-bundler-missing-gem", runner: detect.RunnerRuby, exit: 1, status: Setup, detail: "gems are not installed: run `bundle install` (Could not find rspec-3.99.0, rspec-core-3.99.0 in any of the sources)"},
	{file: "ruby-bundler-no-rubocop", runner: detect.RunnerRuby, kind: detect.KindLint, exit: 127, status: Setup, detail: "gems are not installed: run `bundle install` (command not found: rubocop)"},
	{file: "ruby-bundler-no-rake", runner: detect.RunnerRuby, exit: 1, status: Setup, detail: "the bundle lacks a program a check runs: add its gem to the Gemfile (or the gemspec), then run `bundle install` (rake is not in the bundle)"},
	// PHPUnit 9.6.7 (php 8.2), captured here: a skipped test is no pass;
	// 0 assertions and "No tests executed!" are vacuous.
	{file: "php-phpunit-pass", runner: detect.RunnerPHP, exit: 0, status: Pass, detail: "2 passed", counted: true, passed: 2, total: 2, evRunner: "phpunit"},
	{file: "php-phpunit-pass-skipped", runner: detect.RunnerPHP, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "phpunit"},
	{file: "php-phpunit-fail", runner: detect.RunnerPHP, exit: 2, status: Fail, detail: "exit 2", counted: true, passed: 2, failed: 3, skipped: 1, total: 6},
	{file: "php-phpunit-no-tests", runner: detect.RunnerPHP, exit: 0, status: Vacuous, detail: "no tests executed"},
	{file: "php-phpunit-no-assertions", runner: detect.RunnerPHP, exit: 0, status: Vacuous, detail: "1 tests ran with 0 assertions"},
	// ctest (CMake 3.25.1, gcc 12), configured, built and run as vbd's
	// ctest check chains them; ctest-fail-skipped has a skipped test
	// (SKIP_RETURN_CODE), a disabled one and two that could not start.
	{file: "ctest-pass", runner: detect.RunnerCTest, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "ctest"},
	{file: "ctest-fail", runner: detect.RunnerCTest, exit: 8, status: Fail, detail: "exit 8", counted: true, passed: 1, failed: 2, total: 3, evRunner: "ctest"},
	{file: "ctest-fail-skipped", runner: detect.RunnerCTest, exit: 8, status: Fail, detail: "exit 8", counted: true, passed: 1, failed: 2, skipped: 2, total: 5},
	{file: "ctest-no-tests", runner: detect.RunnerCTest, exit: 0, status: Vacuous, detail: "no tests were found"},
	{file: "ctest-build-fail", runner: detect.RunnerCTest, exit: 2, status: Fail, detail: "exit 2"},
	// mix test (Elixir 1.14, OTP 25): the doctest counts as a test;
	// exunit-deps-not-fetched is written by hand from mix's message (Hex
	// cannot be installed here, and mix asks for it first: exunit-no-hex).
	{file: "exunit-pass", runner: detect.RunnerExUnit, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "mix test"},
	{file: "exunit-fail", runner: detect.RunnerExUnit, exit: 2, status: Fail, detail: "exit 2", counted: true, passed: 2, failed: 1, total: 3},
	{file: "exunit-no-tests", runner: detect.RunnerExUnit, exit: 0, status: Vacuous, detail: "there are no tests to run"},
	{file: "exunit-no-hex", runner: detect.RunnerExUnit, exit: 1, status: Setup, detail: "Hex, Mix's package manager, is not installed: run `mix local.hex --force` and `mix deps.get` with network access (Could not find Hex, which is needed to build dependency :jason)"},
	{file: "exunit-deps-not-fetched", runner: detect.RunnerExUnit, exit: 1, status: Setup, detail: "Mix dependencies are not fetched: run `mix deps.get` with network access (the dependency is not available, run \"mix deps.get\")"},
	// tox 3.28 and nox 2022.11.21 (Debian's), offline; tox4-* are written
	// by hand from tox 4's summary format. The inner pytest's counts are
	// the evidence; an environment's OK alone is a pass without a count.
	{file: "tox-pass", runner: detect.RunnerTox, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "pytest+tox"},
	{file: "tox-fail", runner: detect.RunnerTox, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "tox-setup-offline", runner: detect.RunnerTox, exit: 1, status: Setup, detail: "Python packages could not be installed for the environment: run `pip install` with network access (ERROR: Could not find a version that satisfies the requirement pytest-randomly (from versions: none))"},
	{file: "tox-all-skipped", runner: detect.RunnerTox, exit: 0, status: Vacuous, detail: "tox skipped every environment (an interpreter or session it needs is missing)"},
	{file: "tox4-fail", runner: detect.RunnerTox, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 2, total: 2, evRunner: "pytest+tox"},
	{file: "tox4-pass-no-count", runner: detect.RunnerTox, exit: 0, status: Pass, detail: "no test count", evRunner: "tox"},
	{file: "nox-pass", runner: detect.RunnerTox, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "pytest+nox"},
	{file: "nox-fail", runner: detect.RunnerTox, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, total: 1},
	// deno 2.9.6 and bun 1.4.4, from npm: real runs (NO_COLOR only where a
	// file says nothing in colour, deno-fail keeps its colours). .NET and
	// Swift cannot be installed here: written by hand from VSTest 17's
	// and XCTest's / Swift Testing 6's formats (swift-testing-pass with
	// macOS's SF Symbols, the others with Linux's ✔ ✘ ◇).
	{file: "deno-pass", runner: detect.RunnerDeno, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "deno test"},
	{file: "deno-steps-pass", runner: detect.RunnerDeno, exit: 0, status: Pass, detail: "1 passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2},
	{file: "deno-fail", runner: detect.RunnerDeno, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, skipped: 1, total: 3},
	{file: "deno-all-ignored", runner: detect.RunnerDeno, exit: 0, status: Vacuous, detail: "all 1 tests skipped", counted: true, skipped: 1, total: 1},
	{file: "deno-no-modules", runner: detect.RunnerDeno, exit: 1, status: Vacuous, detail: "no test modules found"},
	{file: "deno-offline", runner: detect.RunnerDeno, exit: 1, status: Setup, detail: "Deno dependencies could not be downloaded: run `deno install` with network access (error: Import 'https://deno.land/std@0.200.0/assert/mod.ts' failed.)"},
	{file: "bun-pass", runner: detect.RunnerBun, exit: 0, status: Pass, detail: "2 passed, 2 skipped", counted: true, passed: 2, skipped: 2, total: 4, evRunner: "bun test"},
	{file: "bun-fail", runner: detect.RunnerBun, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, skipped: 2, total: 4},
	{file: "bun-all-skipped", runner: detect.RunnerBun, exit: 0, status: Vacuous, detail: "all 2 tests skipped", counted: true, skipped: 2, total: 2},
	{file: "bun-no-tests", runner: detect.RunnerBun, exit: 1, status: Vacuous, detail: "no tests found"},
	{file: "dotnet-pass", runner: detect.RunnerDotnet, exit: 0, status: Pass, detail: "15 passed, 1 skipped", counted: true, passed: 15, skipped: 1, total: 16, evRunner: "dotnet test"},
	{file: "dotnet-fail", runner: detect.RunnerDotnet, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 10, failed: 2, total: 12},
	{file: "dotnet-no-tests", runner: detect.RunnerDotnet, exit: 0, status: Vacuous, detail: "no test is available in App.Tests.dll"},
	{file: "dotnet-restore-offline", runner: detect.RunnerDotnet, exit: 1, status: Setup, detail: "NuGet packages could not be downloaded: run `dotnet restore` with network access (/usr/share/dotnet/sdk/8.0.100/NuGet.targets(156,5): error : Unable to load the service index for source https://api.nuget.org/v3/index.json. [/src/app/App.sln])"},
	{file: "swift-xctest-pass", runner: detect.RunnerSwift, exit: 0, status: Pass, detail: "2 passed, 1 skipped", counted: true, passed: 2, skipped: 1, total: 3, evRunner: "swift test"},
	{file: "swift-xctest-fail", runner: detect.RunnerSwift, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "swift-testing-pass", runner: detect.RunnerSwift, exit: 0, status: Pass, detail: "2 passed", counted: true, passed: 2, total: 2},
	{file: "swift-testing-fail", runner: detect.RunnerSwift, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "swift-no-tests", runner: detect.RunnerSwift, exit: 0, status: Vacuous, detail: "0 tests ran", counted: true},
	{file: "swift-resolve-offline", runner: detect.RunnerSwift, exit: 1, status: Setup, detail: "Swift package dependencies could not be fetched: run `swift package resolve` with network access (error: Failed to clone repository https://github.com/apple/swift-argument-parser.git:)"},
	{file: "turbo-pass", runner: detect.RunnerTurbo, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "node --test"},
	{file: "turbo-fail", runner: detect.RunnerTurbo, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 1, failed: 1, total: 2},
	{file: "turbo-t1-affected-none", runner: detect.RunnerTurbo, exit: 0, status: Vacuous, detail: "turbo ran no task"},
	{file: "nx-pass", runner: detect.RunnerNx, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "node --test"},
	{file: "nx-n1-affected-none", runner: detect.RunnerNx, exit: 0, status: Vacuous, detail: "nx ran no task"},

	// lefthook 2.2.1 (run pre-commit --all-files, colours on): a job that
	// matched no file is skipped, and all skipped verifies nothing.
	{file: "lefthook-pass", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "lefthook"},
	{file: "lefthook-fail", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1", counted: true, failed: 1, total: 1, evRunner: "lefthook"},
	{file: "lefthook-pass-nocolor", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "lefthook"},
	{file: "lefthook-fail-nocolor", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1", counted: true, failed: 1, total: 1, evRunner: "lefthook"},
	// vbd's lefthook script fails a run whose jobs passed having rewritten
	// files in its copy of the tree (a fixer with stage_fixed), and names them.
	{file: "lefthook-rewrites", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1: ugly.go, web/a.ts would be rewritten by lefthook's jobs", counted: true, passed: 1, total: 1, evRunner: "lefthook"},
	{file: "lefthook-l1-no-files", runner: detect.RunnerOpaque, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "no files matched", evRunner: "lefthook"},
	// pyright 1.1.414 --stats: files found count as passes; none found is
	// vacuous although pyright says "0 errors" and exits 0.
	{file: "pyright-pass", runner: detect.RunnerOpaque, kind: detect.KindTypecheck, exit: 0, status: Pass, detail: "1 passed", counted: true, passed: 1, total: 1, evRunner: "pyright"},
	{file: "pyright-fail", runner: detect.RunnerOpaque, kind: detect.KindTypecheck, exit: 1, status: Fail, detail: "exit 1", counted: true, passed: 2, total: 2, evRunner: "pyright"},
	{file: "pyright-no-files", runner: detect.RunnerOpaque, kind: detect.KindTypecheck, exit: 0, status: Vacuous, detail: "no source files", evRunner: "pyright"},
	// pre-commit, read by its own scanner.
	{file: "precommit-pass", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Pass, detail: "1 hooks passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2, evRunner: "pre-commit"},
	{file: "precommit-pass-color", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Pass, detail: "1 hooks passed, 1 skipped", counted: true, passed: 1, skipped: 1, total: 2},
	{file: "precommit-fail", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1: always-false (exit 3) failed", counted: true, passed: 1, failed: 1, total: 2},
	{file: "precommit-c1-no-files", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "no files matched"},
	{file: "precommit-c2-no-repos", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "no hooks configured"},
	{file: "precommit-c4-untracked", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "no files matched"},
	{file: "precommit-c5-skip-env", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "all hooks skipped"},
	{file: "precommit-c6-no-config", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 1, status: Vacuous, detail: "no pre-commit config"},
	{file: "precommit-c7-not-git", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 1, status: Vacuous, detail: "not a git repository"},
	// A config that exists but does not parse is the check failing.
	{file: "precommit-bad-config", runner: detect.RunnerPreCommit, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1"},

	// pre-commit through a wrapper: the universal scanner knows its lines.
	{file: "precommit-pass", runner: detect.RunnerMake, kind: detect.KindLint, exit: 0, status: Pass, detail: "1 hooks passed, 1 skipped", evRunner: "pre-commit"},
	{file: "precommit-c1-no-files", runner: detect.RunnerMake, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "no files matched"},
	{file: "precommit-c5-skip-env", runner: detect.RunnerMake, kind: detect.KindLint, exit: 0, status: Vacuous, detail: "all hooks skipped"},
	{file: "precommit-c6-no-config", runner: detect.RunnerMake, kind: detect.KindLint, exit: 1, status: Vacuous, detail: "no pre-commit config"},
	{file: "precommit-fail", runner: detect.RunnerMake, kind: detect.KindLint, exit: 1, status: Fail, detail: "exit 1"},
	// Silent pre-commit under a wrapper is opaque: nothing says it was pre-commit.
	{file: "precommit-c2-no-repos", runner: detect.RunnerMake, kind: detect.KindLint, exit: 0, status: Pass},
}

// readLines returns a fixture's lines without their newlines.
func readLines(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "output", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	return lines
}

// judgeLines runs lines through a check's scanner and judges the result,
// as the runner and the report would.
func judgeLines(c detect.Check, lines [][]byte, exit int) (Outcome, []byte) {
	s := NewScanner(c)
	var log bytes.Buffer
	for _, l := range lines {
		text := s.Line(l)
		if text == nil {
			continue
		}
		log.Write(text)
		if len(text) == 0 || text[len(text)-1] != '\n' {
			log.WriteByte('\n')
		}
	}
	return Judge(c, runner.Result{Status: runner.Exited, ExitCode: exit, Scanner: s}), log.Bytes()
}

func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		kind := f.kind
		if kind == "" {
			kind = detect.KindTest
		}
		t.Run(string(f.runner)+"/"+f.file, func(t *testing.T) {
			c := detect.Check{Name: f.file, Kind: kind, Runner: f.runner}
			o, _ := judgeLines(c, readLines(t, f.file), f.exit)
			if o.Status != f.status || o.Detail != f.detail {
				t.Errorf("got %q, want %q", o.Label(), Outcome{Status: f.status, Detail: f.detail}.Label())
			}
			if o.Evidence == nil {
				t.Fatal("no evidence")
			}
			ev := *o.Evidence
			if f.evRunner != "" && ev.Runner != f.evRunner {
				t.Errorf("runner %q, want %q", ev.Runner, f.evRunner)
			}
			if f.counted {
				if !ev.Counted || ev.Passed != f.passed || ev.Failed != f.failed || ev.Skipped != f.skipped || ev.Total != f.total {
					t.Errorf("counts %+v, want counted passed=%d failed=%d skipped=%d total=%d", ev, f.passed, f.failed, f.skipped, f.total)
				}
			}
		})
	}
}

// Every fixture on disk is in the table, so a capture cannot go unchecked.
func TestFixturesAllUsed(t *testing.T) {
	used := map[string]bool{}
	for _, f := range fixtures {
		used[f.file] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "output", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		if name := strings.TrimSuffix(filepath.Base(p), ".txt"); !used[name] {
			t.Errorf("fixture %s is not in the table", name)
		}
	}
}
