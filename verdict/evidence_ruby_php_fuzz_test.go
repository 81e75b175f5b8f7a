package verdict

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// FuzzRubyPHP feeds arbitrary output to the Ruby and PHP checks' scanner,
// seeded with the captured rspec, minitest, Bundler and PHPUnit runs and
// the lines their matchers key on.
func FuzzRubyPHP(f *testing.F) {
	for _, pattern := range []string{"ruby-*.txt", "php-*.txt"} {
		paths, err := filepath.Glob(filepath.Join("testdata", "output", pattern))
		if err != nil || len(paths) == 0 {
			f.Fatalf("no recorded %s outputs: %v", pattern, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte("Failures:\n\n  1) a b\n  2)\n1 example, 1 failure\nrspec ./x_spec.rb:1 # a b\n0 examples, 0 failures, 2 errors occurred outside of examples"))
	f.Add([]byte("  1) Failure:\n\n  2) Error:\ntest_x(T) [a.rb:1]:\n3 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n2 tests, 2 assertions, 1 failures, 0 errors, 0 pendings, 1 omissions, 0 notifications"))
	f.Add([]byte("There were 2 errors:\n1) A::b\n--\n2) \nOK (0 tests, 0 assertions)\nTests: 1, Assertions: 1, Failures: 9, Risky: 2.\n3 files inspected, 2 offenses detected"))
	checks := []detect.Check{
		{Kind: detect.KindTest, Runner: detect.RunnerRuby, Setup: "Bundler is not installed"},
		{Kind: detect.KindTest, Runner: detect.RunnerPHP, Setup: "dependencies are not installed (no vendor/autoload.php): run `composer install`"},
		{Kind: detect.KindLint, Runner: detect.RunnerRuby},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range checks {
			fuzzScanner(t, c, data)
		}
	})
}
