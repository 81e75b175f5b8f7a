package detect

import (
	"slices"
	"testing"
	"testing/fstest"
)

func TestDetectRubyPHP(t *testing.T) {
	only := func(tools ...string) func(string) bool {
		return func(tool string) bool { return slices.Contains(tools, tool) }
	}
	all := only("ruby", "bundle", "rake", "rspec", "rubocop", "php", "composer")
	const (
		gemfile     = "source \"https://rubygems.org\"\ngem \"rake\"\ngem \"rspec\"\n"
		rakeDefault = "require \"rspec/core/rake_task\"\nRSpec::Core::RakeTask.new(:spec)\ntask default: %i[spec rubocop]\n"
		spec        = "RSpec.describe(\"x\") { it(\"y\") { expect(1).to eq(1) } }\n"
		minitest    = "require \"minitest/autorun\"\n"
	)
	cases := map[string]detectCase{
		"ruby: the default rake task runs the specs and rubocop: bundle exec rake, rubocop covered": {
			fs: fsOf("Gemfile", gemfile+"gem \"rubocop\"\n", "Gemfile.lock", "", "Rakefile", rakeDefault,
				"spec/x_spec.rb", spec, ".rubocop.yml", ""),
			git:   true,
			opts:  Options{LookPath: all},
			names: []string{"rubocop", "rake"},
			checks: []want{
				{name: "rake", argv: []string{"bundle", "exec", "rake"}, kind: KindTest, source: "Rakefile",
					reason: "Rakefile's default task runs spec (RSpec::Core::RakeTask): the project's own entry point; run through bundle exec (Gemfile)", setup: "-"},
				{name: "rubocop", argv: []string{"bundle", "exec", "rubocop"}, kind: KindLint, source: ".rubocop.yml",
					skipped: "covered by rake; its default task runs rubocop", reason: "never with -a/-A"},
			},
		},
		"ruby: --quick runs rubocop alone": {
			fs:     fsOf("Gemfile", gemfile+"gem \"rubocop\"\n", "Gemfile.lock", "", "Rakefile", rakeDefault, "spec/x_spec.rb", spec),
			git:    true,
			opts:   Options{Quick: true, LookPath: all},
			checks: []want{{name: "rubocop", argv: []string{"bundle", "exec", "rubocop"}, source: "Gemfile"}, {name: "rake", skipped: "quick"}},
		},
		"ruby: a default task that autocorrects is not run; rspec is, and says why": {
			fs: fsOf("Gemfile", gemfile, "Gemfile.lock", "", "Rakefile", "task default: [:spec, \"rubocop:autocorrect\"]\n",
				".rspec", "--require spec_helper\n", "spec/x_spec.rb", spec),
			git:  true,
			opts: Options{LookPath: all},
			checks: []want{{name: "rspec", argv: []string{"bundle", "exec", "rspec"}, source: ".rspec",
				reason: "not plain rake: Rakefile its default task runs rubocop:autocorrect, which rewrites files"}},
		},
		"ruby: no Gemfile: rake test from PATH, without bundle exec": {
			fs:     fsOf("Rakefile", "require \"rake/testtask\"\nRake::TestTask.new do |t|\n  t.libs << \"test\"\nend\ntask :default => :build\n", "test/a_test.rb", minitest),
			git:    true,
			opts:   Options{LookPath: all},
			checks: []want{{name: "rake test", argv: []string{"rake", "test"}, reason: "its default task (build) runs no test task", setup: "-"}},
		},
		"ruby: test files and nothing else: vbd loads them as rake test does": {
			fs:   fsOf("lib/calc/test/calc_test.rb", minitest),
			git:  true,
			opts: Options{LookPath: all},
			checks: []want{{name: "minitest (lib/calc)", argv: []string{"ruby", "-Ilib", "-Itest", "-e", rubyLoadTests}, dir: "lib/calc",
				source: "lib/calc/test/" + rbTestFile}},
		},
		"ruby: no Gemfile.lock: bundle exec would write one, so setup naming bundle install": {
			fs:     fsOf("Gemfile", gemfile, "spec/x_spec.rb", spec),
			git:    true,
			opts:   Options{LookPath: all},
			checks: []want{{name: "rspec", skipped: "the bundle (no Gemfile.lock) not installed (run `bundle install`: bundle exec would resolve the Gemfile and write Gemfile.lock into the tree); a run fails as setup until it is installed or the check disabled"}},
		},
		"ruby: Bundler missing is setup; a Gemfile without tests is a skipped row": {
			fs:     fsOf("Gemfile", gemfile, "Gemfile.lock", ""),
			git:    true,
			opts:   Options{LookPath: only()},
			checks: []want{{name: "ruby test", skipped: "no default rake task that runs tests, no spec/ (.rspec) and no test/ files", setup: "Bundler is not installed"}},
		},
		"ruby: a Rails app's Rakefile: its default task is test": {
			fs:     fsOf("Gemfile", gemfile, "Gemfile.lock", "", "Rakefile", "require_relative \"config/application\"\nRails.application.load_tasks\n", "test/models/user_test.rb", minitest),
			git:    true,
			opts:   Options{LookPath: all},
			checks: []want{{name: "rake", argv: []string{"bundle", "exec", "rake"}, reason: "default task runs test (Rails' default task)"}},
		},
		"ruby: rubocop configured without a Gemfile and not installed is setup": {
			fs:     fsOf(".rubocop.yml", "", "spec/x_spec.rb", spec),
			git:    true,
			opts:   Options{LookPath: only("ruby", "rspec")},
			checks: []want{{name: "rubocop", skipped: "rubocop not installed (gem install rubocop, or add it to the Gemfile); a run fails as setup until it is installed or the check disabled"}, {name: "rspec", argv: []string{"rspec"}}},
		},
		"php: the test script is the entry point; phpstan it runs is covered, php-cs-fixer is not": {
			fs: fsOf("composer.json", `{"require-dev":{"phpunit/phpunit":"^10","phpstan/phpstan":"^1"},"scripts":{"test":["@stan","phpunit"],"stan":"phpstan analyse"}}`,
				"vendor/autoload.php", "", "phpstan.neon", "", ".php-cs-fixer.dist.php", "", "phpunit.xml.dist", ""),
			files: []string{"composer.json", "phpstan.neon", ".php-cs-fixer.dist.php", "phpunit.xml.dist"},
			opts:  Options{LookPath: all},
			names: []string{"phpstan", "php-cs-fixer", "composer test"},
			checks: []want{
				{name: "composer test", argv: []string{"composer", "run-script", "--timeout=0", "test"}, kind: KindTest, setup: "-",
					reason: `composer.json's test script is the project's own entry point ("@stan", "phpunit")`},
				{name: "phpstan", skipped: "covered by composer test; its test script runs phpstan", kind: KindTypecheck},
				{name: "php-cs-fixer", argv: []string{"vendor/bin/php-cs-fixer", "fix", "--dry-run", "--diff", "--using-cache=no"}, kind: KindLint,
					reason: "does not require friendsofphp/php-cs-fixer"},
			},
		},
		"php: no test script: vendor/bin/phpunit, and no vendor/ is setup naming composer install": {
			fs:     fsOf("composer.json", `{"require-dev":{"phpunit/phpunit":"^9"},"config":{"bin-dir":"bin"}}`, "tests/ATest.php", ""),
			git:    true,
			opts:   Options{LookPath: all},
			checks: []want{{name: "phpunit", argv: []string{"bin/phpunit", "--do-not-cache-result", "tests"}, reason: "requires phpunit/phpunit", setup: "run `composer install`"}},
		},
		"php: a test script that rewrites files is refused": {
			fs:     fsOf("composer.json", `{"scripts":{"test":"php-cs-fixer fix && phpunit"}}`, "vendor/autoload.php", ""),
			files:  []string{"composer.json"},
			opts:   Options{LookPath: all},
			checks: []want{{name: "composer test", skipped: "rewrites files: php-cs-fixer fix"}},
		},
		"php: a composer.json without tests is a skipped row; invalid JSON is an error row": {
			fs:  fsOf("composer.json", `{"require":{"php":">=8.1"}}`, "broken/composer.json", `{"scripts":`),
			git: true,
			checks: []want{{name: "phpunit", skipped: "no test script and no PHPUnit (phpunit.xml or phpunit/phpunit)"},
				{name: "read broken/composer.json", err: "not valid JSON", skipped: "error: cannot read broken/composer.json: it is not valid JSON (unexpected end of JSON input); fix it so Composer and vbd can read it"}},
		},
		"a Makefile's test target running rspec covers it": {
			fs:     fsOf("Makefile", "test:\n\tbundle exec rspec\n", "Gemfile", gemfile, "Gemfile.lock", "", "spec/x_spec.rb", spec),
			git:    true,
			opts:   Options{LookPath: all},
			checks: []want{{name: "make test"}, {name: "rspec", skipped: "covered by make test"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}

func TestParseRakefile(t *testing.T) {
	for _, tc := range []struct {
		src         string
		tests       []string
		defaults    []string
		defaultTest string
		writer      string
	}{
		{"Rake::TestTask.new(:unit)\ntask(default: :unit)\n", []string{"unit"}, []string{"unit"}, "unit", ""},
		{"RSpec::Core::RakeTask.new\ntask :default => [:spec, :rubocop] # all\n", []string{"spec"}, []string{"spec", "rubocop"}, "spec", ""},
		{"task \"default\" => \"test\"\ntask :test do\n  sh \"ruby -Itest x.rb\"\nend\n", []string{"test"}, []string{"test"}, "test", ""},
		{"task default: %w[standard:fix test]\n", nil, []string{"standard:fix", "test"}, "test", "standard:fix"},
		{"RuboCop::RakeTask.new\ntask default: :rubocop\n", nil, []string{"rubocop"}, "", ""},
		{"task :default do\n  puts 'hi'\nend\n", nil, nil, "", ""},
	} {
		rf := parseRakefile([]byte(tc.src))
		var tests []string
		for name := range rf.tests {
			tests = append(tests, name)
		}
		slices.Sort(tests)
		task, _ := rf.defaultTests()
		if !slices.Equal(tests, tc.tests) || !slices.Equal(rf.defaults, tc.defaults) || task != tc.defaultTest || rf.defaultWriter() != tc.writer {
			t.Errorf("%q: tests %q defaults %q default test %q writer %q; want %q %q %q %q",
				tc.src, tests, rf.defaults, task, rf.defaultWriter(), tc.tests, tc.defaults, tc.defaultTest, tc.writer)
		}
	}
}

func FuzzRubyPHPMarkers(f *testing.F) {
	f.Add([]byte("RSpec::Core::RakeTask.new(:spec)\ntask default: %i[spec rubocop:autocorrect]\n"), []byte(`{"scripts":{"test":["@a"],"a":"@test"}}`))
	f.Add([]byte("task(default: [:test, 'x'])\nRails.application.load_tasks"), []byte(`{"scripts":{"test":1},"config":{"bin-dir":7}}`))
	f.Fuzz(func(t *testing.T, rake, composer []byte) {
		rf := parseRakefile(rake)
		_, _ = rf.defaultTests()
		_ = rf.defaultWriter()
		fsys := fstest.MapFS{
			"Rakefile": {Data: rake}, "Gemfile": {Data: rake}, "test/a_test.rb": {Data: nil},
			"composer.json": {Data: composer}, "web/composer.json": {Data: composer},
		}
		plan, err := Detect(fsys, Options{})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}
