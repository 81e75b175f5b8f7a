package detect

import (
	"bytes"
	"path"
	"slices"
	"strings"
)

// RunnerRuby is a Ruby project's check (rake, rspec, minitest, rubocop,
// through bundle exec or not): its output is read by the text scanner's
// ruby matcher (rspec's "N examples, F failures", minitest's "N runs, …
// F failures, E errors, S skips", rubocop's "N files inspected").
const RunnerRuby Runner = "ruby"

// ecoRuby is Ruby projects: one root per Gemfile, Rakefile or .rspec, or
// the directory above a test/ or spec/ directory of Ruby tests.
const ecoRuby ecoID = "ruby"

// rubyRootMarkers mark a Ruby project root, in the order they are named.
var rubyRootMarkers = []string{"Gemfile", "Rakefile", "rakefile", "Rakefile.rb", ".rspec"}

// rubyRakefiles are the names rake looks for, in its order.
var rubyRakefiles = []string{"Rakefile", "rakefile", "Rakefile.rb"}

// The marker keys of Ruby test files (markerKey): only "this directory
// holds minitest (rspec) files" matters.
const (
	rbTestFile = "*_test.rb"
	rbSpecFile = "*_spec.rb"
)

// detectRuby adds the checks of each Ruby root.
func (d *detector) detectRuby() {
	roots := map[string]bool{}
	for _, name := range rubyRootMarkers {
		for _, dir := range d.tree.dirsWith(name) {
			roots[dir] = true
		}
	}
	// Test files outside every root: the project is the directory that
	// holds their test/ or spec/ directory.
	tests := map[string][]string{} // root -> its test file dirs
	for _, key := range []string{rbTestFile, rbSpecFile} {
		for _, dir := range d.tree.dirsWith(key) {
			root := rubyRootOf(roots, dir)
			if root == "" {
				root = rubyTestRoot(dir)
				if root == "" {
					continue // a stray *_test.rb, no test directory
				}
				roots[root] = true
			}
			tests[root] = append(tests[root], key)
		}
	}
	sorted := make([]string, 0, len(roots))
	for dir := range roots {
		sorted = append(sorted, dir)
	}
	sortDirs(sorted)
	for _, dir := range sorted {
		d.addRuby(dir, slices.Contains(tests[dir], rbTestFile), slices.Contains(tests[dir], rbSpecFile))
	}
}

// rubyRootOf is the closest Ruby root at or above dir, or "".
func rubyRootOf(roots map[string]bool, dir string) string {
	for p := dir; ; p = parentDir(p) {
		if roots[p] {
			return p
		}
		if p == "." {
			return ""
		}
	}
}

// rubyTestRoot is the directory above the first test/ or spec/ part of
// dir ("." for test/unit), or "" when dir is in none.
func rubyTestRoot(dir string) string {
	parts := strings.Split(dir, "/")
	for i, p := range parts {
		if p == "test" || p == "spec" {
			if i == 0 {
				return "."
			}
			return strings.Join(parts[:i], "/")
		}
	}
	return ""
}

// rubyProject is what one root's checks are built from.
type rubyProject struct {
	dir, src string
	// bundle is set when a Gemfile makes the checks run through bundle exec.
	bundle bool
	// gemfile is the Gemfile's text (nil without one).
	gemfile []byte
	rake    *rakefile
	rakeSrc string
	// minitest, rspec: the root holds test/ (spec/) files, or .rspec.
	minitest, rspec bool
}

// addRuby adds one root's test check and, where configured, rubocop.
func (d *detector) addRuby(dir string, minitest, rspec bool) {
	p := rubyProject{dir: dir, minitest: minitest, rspec: rspec || d.tree.has(dir, ".rspec")}
	for _, name := range rubyRootMarkers {
		if d.tree.has(dir, name) && p.src == "" {
			p.src = path.Join(dir, name)
		}
	}
	if d.tree.has(dir, "Gemfile") {
		data, ok := d.readMarker(ecoRuby, dir, path.Join(dir, "Gemfile"))
		if !ok {
			return // the error row stands for the project
		}
		p.bundle, p.gemfile = true, data
	}
	if name := d.firstIn(dir, rubyRakefiles); name != "" {
		p.rakeSrc = path.Join(dir, name)
		data, ok := d.readMarker(ecoRuby, dir, p.rakeSrc)
		if !ok {
			return
		}
		rf := parseRakefile(data)
		p.rake = &rf
	}
	if p.src == "" {
		p.src = path.Join(dir, "test", rbTestFile)
		if p.rspec && !p.minitest {
			p.src = path.Join(dir, "spec", rbSpecFile)
		}
	}
	d.project()
	test := d.rubyTest(p)
	lint, lintOK := d.rubocop(p)
	if lintOK && !d.opts.Quick && test.Runs() && test.Name == "rake"+suffix(dir) && p.rake.hasDefault("rubocop") {
		// The default task runs rubocop too: nothing runs twice.
		lint.Skipped = coveredBy(test.Name, "its default task runs rubocop")
	}
	if lintOK {
		d.add(ecoRuby, lint)
	}
	d.add(ecoRuby, test)
}

// rubyCmd is a Ruby program's argv: through bundle exec with a Gemfile.
func (p rubyProject) cmd(args ...string) []string {
	if p.bundle {
		return append([]string{"bundle", "exec"}, args...)
	}
	return args
}

// rubyTest picks the root's test check: the default rake task when it
// runs tests, else rspec, else rake test, else the test files loaded by
// ruby itself (what rake test does).
func (d *detector) rubyTest(p rubyProject) Check {
	via := "without bundle exec (no Gemfile)"
	if p.bundle {
		via = "through bundle exec (" + path.Join(p.dir, "Gemfile") + ")"
	}
	c := Check{
		Name: "ruby test" + suffix(p.dir), Kind: KindTest, Dir: p.dir, Root: p.dir, Source: p.src,
		Runner: RunnerRuby, Setup: d.rubySetup(p),
	}
	const vac = "0 examples or 0 runs is vacuous; gems that are not installed are setup (`bundle install`)"
	var notDefault string
	if rf := p.rake; rf != nil {
		task, by := rf.defaultTests()
		switch w := rf.defaultWriter(); {
		case w != "":
			notDefault = "its default task runs " + w + ", which rewrites files"
		case task != "":
			c.Name, c.Argv, c.Source = "rake"+suffix(p.dir), p.cmd("rake"), p.rakeSrc
			c.Reason = p.rakeSrc + "'s default task runs " + task + " (" + by + "): the project's own entry point; run " + via + "; " + vac
			return d.rubyLock(p, c)
		case len(rf.defaults) > 0:
			notDefault = "its default task (" + strings.Join(rf.defaults, ", ") + ") runs no test task"
		default:
			notDefault = "it has no default task"
		}
	}
	why := ""
	if notDefault != "" {
		why = "; not plain rake: " + p.rakeSrc + " " + notDefault
	}
	switch {
	case p.rspec:
		c.Name, c.Argv = "rspec"+suffix(p.dir), p.cmd("rspec")
		if d.tree.has(p.dir, ".rspec") {
			c.Source = path.Join(p.dir, ".rspec")
		}
		c.Reason = "rspec: " + c.Source + " marks an RSpec suite; run " + via + why + "; " + vac
	case p.rake != nil && p.rake.tests["test"] != "":
		c.Name, c.Argv, c.Source = "rake test"+suffix(p.dir), p.cmd("rake", "test"), p.rakeSrc
		c.Reason = p.rakeSrc + " defines test (" + p.rake.tests["test"] + "); run " + via + why + "; " + vac
	case p.minitest:
		// No task runs them: load every test file, as rake test's loader does.
		c.Name = "minitest" + suffix(p.dir)
		c.Argv = p.cmd("ruby", "-Ilib", "-Itest", "-e", rubyLoadTests)
		c.Reason = "test files in " + path.Join(p.dir, "test") + " and no task that runs them" + why +
			"; vbd loads test/**/*_test.rb and test_*.rb with ruby -Ilib -Itest, as rake test does; run " + via + "; " + vac
	default:
		c.Argv = p.cmd("rake", "test")
		c.Reason = p.src + " marks a Ruby project" + why
		c.Skipped = skipWhy("no default rake task that runs tests, no spec/ (.rspec) and no test/ files")
		return c
	}
	return d.rubyLock(p, c)
}

// rubyLoadTests is the script the minitest check runs: every test file
// of test/, sorted, each required once.
const rubyLoadTests = `Dir.glob("test/**/{*_test,test_*}.rb").sort.each { |f| require File.expand_path(f) }`

// rubySetup says what is missing to run the root's checks at all, or "".
func (d *detector) rubySetup(p rubyProject) string {
	switch {
	case p.bundle && !d.onPath("bundle"):
		return "Bundler is not installed: install it (`gem install bundler`, or your system's bundler package), then run `bundle install`"
	case !p.bundle && !d.onPath("ruby"):
		return "Ruby is not installed: install it (e.g. `apt-get install ruby`)"
	}
	return ""
}

// rubyLock refuses a bundle exec check where no Gemfile.lock is on disk:
// Bundler would resolve the Gemfile and write one into the tree, which
// vbd never lets a check do. bundle install writes it, and installs the
// gems the lock names.
func (d *detector) rubyLock(p rubyProject, c Check) Check {
	if p.bundle && !d.exists(path.Join(p.dir, "Gemfile.lock")) {
		c.Skipped = Skip{Kind: SkipToolMissing, By: "the bundle (no Gemfile.lock)",
			Detail: "run `bundle install`: bundle exec would resolve the Gemfile and write Gemfile.lock into the tree"}
	}
	return c
}

// rubocop is the root's quick lint, when rubocop is configured
// (.rubocop.yml, or the Gemfile names it): never with -a/-A, which
// rewrite the files it checks.
func (d *detector) rubocop(p rubyProject) (Check, bool) {
	conf := ""
	switch {
	case d.tree.has(p.dir, ".rubocop.yml"):
		conf = path.Join(p.dir, ".rubocop.yml")
	case bytes.Contains(p.gemfile, []byte(`"rubocop`)) || bytes.Contains(p.gemfile, []byte(`'rubocop`)):
		conf = path.Join(p.dir, "Gemfile")
	default:
		return Check{}, false
	}
	// Through the bundle when the Gemfile (or the gemspec it loads) may
	// hold rubocop; else rubocop from PATH.
	inBundle := bytes.Contains(p.gemfile, []byte("rubocop")) || bytes.Contains(p.gemfile, []byte("gemspec"))
	argv, via := []string{"rubocop"}, "rubocop from PATH"
	if inBundle {
		argv, via = p.cmd("rubocop"), "through bundle exec"
	}
	c := Check{
		Name: "rubocop" + suffix(p.dir), Kind: KindLint, Quick: true, Argv: argv, Dir: p.dir, Root: p.dir,
		Source: conf, Runner: RunnerRuby, Setup: d.rubySetup(p),
		Reason: "configured in " + conf + "; run " + via + ", never with -a/-A (they rewrite files); 0 files inspected is vacuous",
	}
	if !inBundle && !d.onPath("rubocop") {
		c.Skipped = Skip{Kind: SkipToolMissing, By: "rubocop", Detail: "gem install rubocop, or add it to the Gemfile"}
		return c, true
	}
	if inBundle {
		c = d.rubyLock(p, c)
	}
	return c, true
}

// What a wrapper runs of Ruby's tools.
const (
	refRubyTest = "ruby test"
	refRubyLint = "ruby lint" // rubocop, standardrb
)

// scanRuby recognises rake (its default task or a test task), rspec,
// ruby -Itest and rubocop, through bundle exec or not.
func scanRuby(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	switch prog {
	case "rspec":
		return []makeRef{{refRubyTest, cur}}
	case "rake", "rails":
		sub := firstArg(args)
		if sub == "" && prog == "rake" || sub == "test" || sub == "spec" || strings.HasPrefix(sub, "test:") || strings.HasPrefix(sub, "spec:") {
			return []makeRef{{refRubyTest, cur}}
		}
	case "ruby":
		if hasArg(args, "-Itest") || slices.Contains(args, "test") {
			return []makeRef{{refRubyTest, cur}}
		}
	case "rubocop", "standardrb":
		if rubocopFix(args) == "" {
			return []makeRef{{refRubyLint, cur}}
		}
	}
	return nil
}

// coversRuby: a test entry point covers the ruby test check, a lint
// entry point rubocop.
func coversRuby(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	if ref.what == refRubyTest {
		return testTarget && n.check.Kind == KindTest
	}
	return !testTarget && n.check.Kind == KindLint
}
