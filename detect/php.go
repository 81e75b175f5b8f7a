package detect

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// RunnerPHP is a PHP project's check (its composer test script,
// PHPUnit, PHPStan, PHP-CS-Fixer): its output is read by the text
// scanner's phpunit matcher ("OK (N tests, M assertions)", "Tests: N,
// Assertions: M, Failures: F.", "No tests executed!").
const RunnerPHP Runner = "php"

// ecoPHP is Composer projects: one root per composer.json.
const ecoPHP ecoID = "php"

// composerJSON is what vbd reads of a composer.json.
type composerJSON struct {
	Scripts    map[string]json.RawMessage `json:"scripts"`
	Require    map[string]json.RawMessage `json:"require"`
	RequireDev map[string]json.RawMessage `json:"require-dev"`
	Config     struct {
		BinDir    string `json:"bin-dir"`
		VendorDir string `json:"vendor-dir"`
	} `json:"config"`
}

// script is a Composer script's command lines: a string or a list of them.
func (c composerJSON) script(name string) ([]string, bool) {
	raw, ok := c.Scripts[name]
	if !ok {
		return nil, false
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many, true
	}
	return nil, false
}

// requires reports whether the project requires package pkg (dev or not).
func (c composerJSON) requires(pkg string) bool {
	_, dev := c.RequireDev[pkg]
	_, run := c.Require[pkg]
	return dev || run
}

var (
	phpunitConfigs = []string{"phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"}
	phpstanConfigs = []string{"phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon"}
	phpCSConfigs   = []string{".php-cs-fixer.php", ".php-cs-fixer.dist.php"}
)

// detectPHP adds the checks of each Composer project.
func (d *detector) detectPHP() {
	for _, dir := range d.tree.dirsWith("composer.json") {
		p := path.Join(dir, "composer.json")
		data, ok := d.readMarker(ecoPHP, dir, p)
		if !ok {
			continue
		}
		var cj composerJSON
		if err := json.Unmarshal(data, &cj); err != nil {
			d.project()
			d.unreadable(ecoPHP, dir, p, fmt.Errorf("it is not valid JSON (%w); fix it so Composer and vbd can read it", err))
			continue
		}
		d.project()
		d.addPHP(dir, cj)
	}
}

// phpTool is one of the project's Composer-installed programs, in its
// bin-dir (vendor/bin unless composer.json moves it).
func phpTool(cj composerJSON, name string) string {
	bin := cj.Config.BinDir
	if bin == "" {
		bin = firstOf(cj.Config.VendorDir, "vendor") + "/bin"
	}
	return path.Clean(bin) + "/" + name
}

// addPHP adds one project's test check and its configured linters.
func (d *detector) addPHP(dir string, cj composerJSON) {
	src := path.Join(dir, "composer.json")
	sfx := suffix(dir)
	setup := ""
	vendor := firstOf(cj.Config.VendorDir, "vendor")
	if !d.exists(path.Join(dir, vendor, "autoload.php")) {
		setup = "dependencies are not installed (no " + vendor + "/autoload.php): run `composer install`"
	}
	mk := func(name string, kind Kind, quick bool, source, reason string, argv ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: argv, Dir: dir, Root: dir, Quick: quick,
			Source: source, Reason: reason, Runner: RunnerPHP, Setup: setup,
		}
	}
	const vac = `"No tests executed!" is vacuous; a missing vendor/ is setup (` + "`composer install`)"
	var test Check
	var runs [][]string // what the test script runs, to cover the linters
	if lines, ok := cj.script("test"); ok {
		// --timeout=0: Composer's own limit (300 s) would kill a long
		// suite; vbd's budget and check limit apply instead.
		test = mk("composer test", KindTest, false, src,
			src+`'s test script is the project's own entry point ("`+strings.Join(lines, `", "`)+`"); Composer runs it with its bin-dir on PATH; `+
				`a result cache PHPUnit writes (.phpunit.result.cache) must be ignored, or the tree guard fails the run; `+vac,
			"composer", "run-script", "--timeout=0", "test")
		for _, l := range phpScriptLines(cj, lines, 0) {
			cmds, err := Commands(l)
			if err != nil {
				cmds = [][]string{strings.Fields(l)}
			}
			runs = append(runs, cmds...)
		}
		// What its echo/printf print, read for a forged summary.
		test.Prints = appendPrints(nil, runs)
		t := traitsOf(runs)
		switch {
		case t.writer != "":
			test.Skipped = Skip{Kind: SkipWriter, Detail: t.writer}
		case t.watcher != "":
			test.Skipped = Skip{Kind: SkipWatcher, Detail: t.watcher}
		}
		if !d.onPath("composer") {
			test.Setup = "Composer is not installed: install it (https://getcomposer.org, or your system's composer package)"
		}
	} else {
		conf := d.firstIn(dir, phpunitConfigs)
		reason := ""
		switch {
		case conf != "":
			reason = "PHPUnit configured in " + path.Join(dir, conf)
		case cj.requires("phpunit/phpunit"):
			reason = src + " requires phpunit/phpunit"
		}
		// --do-not-cache-result: PHPUnit 8+ writes .phpunit.result.cache
		// into the tree otherwise.
		test = mk("phpunit", KindTest, false, src, reason+"; no test script, so the project's own PHPUnit ("+phpTool(cj, "phpunit")+
			"); --do-not-cache-result, since it writes .phpunit.result.cache into the tree otherwise; "+vac,
			phpTool(cj, "phpunit"), "--do-not-cache-result")
		switch {
		case conf != "":
			test.Source = path.Join(dir, conf)
		case reason != "" && d.exists(path.Join(dir, "tests")):
			// Without a configuration PHPUnit runs only what it is given.
			test.Argv = append(test.Argv, "tests")
			test.Reason += "; no phpunit.xml, so the tests/ directory"
		case reason != "":
			test.Skipped = skipWhy("no phpunit.xml and no tests/ directory: PHPUnit would only print its usage")
		}
		if reason == "" {
			test.Reason = src + " marks a PHP project"
			test.Skipped = skipWhy("no test script and no PHPUnit (phpunit.xml or phpunit/phpunit)")
		}
	}
	covered := func(tool string) bool {
		for _, w := range runs {
			if prog, _ := cmdWords(w); prog == tool {
				return true
			}
		}
		return false
	}
	for _, l := range []struct {
		tool, pkg string
		confs     []string
		argv      []string
		why       string
	}{
		{"phpstan", "phpstan/phpstan", phpstanConfigs, []string{"analyse", "--no-progress", "--no-interaction"}, "--no-progress for plain output"},
		// --dry-run reports what fix would change and changes nothing;
		// no cache file (.php-cs-fixer.cache) is written into the tree.
		{"php-cs-fixer", "friendsofphp/php-cs-fixer", phpCSConfigs, []string{"fix", "--dry-run", "--diff", "--using-cache=no"}, "--dry-run --diff reports and never rewrites; --using-cache=no writes no cache into the tree"},
	} {
		conf := d.firstIn(dir, l.confs)
		if conf == "" {
			continue
		}
		c := mk(l.tool, KindLint, true, path.Join(dir, conf),
			"configured in "+path.Join(dir, conf)+"; the project's own "+l.tool+" ("+phpTool(cj, l.tool)+"); "+l.why,
			append([]string{phpTool(cj, l.tool)}, l.argv...)...)
		if l.tool == "phpstan" {
			c.Kind = KindTypecheck
		}
		if !cj.requires(l.pkg) {
			c.Reason += "; " + src + " does not require " + l.pkg + ", so it may not be in " + vendor + "/"
		}
		if covered(l.tool) && test.Runs() && !d.opts.Quick {
			c.Skipped = coveredBy(test.Name, "its test script runs "+l.tool)
		}
		d.add(ecoPHP, c)
	}
	d.add(ecoPHP, test)
}

// phpScriptLines are the command lines a Composer script runs, with the
// scripts it references (@name) followed, depth-bounded, and @php
// replaced by php.
func phpScriptLines(cj composerJSON, lines []string, depth int) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "@php "):
			out = append(out, "php "+l[len("@php "):])
		case strings.HasPrefix(l, "@composer "):
			out = append(out, "composer "+l[len("@composer "):])
		case strings.HasPrefix(l, "@putenv "):
		case strings.HasPrefix(l, "@"):
			name, _, _ := strings.Cut(l[1:], " ")
			if sub, ok := cj.script(name); ok && depth < 8 {
				out = append(out, phpScriptLines(cj, sub, depth+1)...)
			}
		default:
			out = append(out, l)
		}
	}
	return out
}

// What a wrapper runs of PHP's tools.
const (
	refPHPTest = "php test"
	refPHPLint = "php lint" // phpstan, php-cs-fixer --dry-run
)

// scanPHP recognises phpunit, composer test and the linters.
func scanPHP(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	switch prog {
	case "phpunit", "pest", "paratest":
		return []makeRef{{refPHPTest, cur}}
	case "composer":
		if sub := firstArg(args); sub == "test" || (sub == "run-script" || sub == "run") && firstArg(args[1:]) == "test" {
			return []makeRef{{refPHPTest, cur}}
		}
	case "phpstan":
		return []makeRef{{refPHPLint + " phpstan", cur}}
	case "php-cs-fixer":
		if hasArg(args, "--dry-run") {
			return []makeRef{{refPHPLint + " php-cs-fixer", cur}}
		}
	}
	return nil
}

// coversPHP: a test entry point covers the test check, a lint entry
// point the linter of the same tool.
func coversPHP(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	if ref.what == refPHPTest {
		return testTarget && n.check.Kind == KindTest
	}
	return !testTarget && len(n.check.Argv) > 0 && ref.what == refPHPLint+" "+path.Base(n.check.Argv[0])
}
