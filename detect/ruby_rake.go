package detect

import (
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// rakefile is what vbd reads of a Rakefile without running Ruby: the
// tasks that run tests and what the default task depends on. Rake
// appends the prerequisites of every `task default: …` line, so they are
// all kept.
type rakefile struct {
	// tests are the task names that run a test suite, each with what
	// defines it ("Rake::TestTask", "RSpec::Core::RakeTask").
	tests map[string]string
	// defaults are the default task's prerequisites, in order.
	defaults []string
	// rails is set by Rails' load_tasks, whose default task is test
	// (rspec-rails makes it spec).
	rails bool
}

var (
	// Rake::TestTask.new(:test), RSpec::Core::RakeTask.new("spec"),
	// Minitest::TestTask.create(:unit); the name defaults to test (spec).
	rakeTestTask = lazyre.New(`\b(Rake::TestTask|RSpec::Core::RakeTask|Minitest::TestTask|RuboCop::RakeTask)\s*\.\s*(?:new|create)\b\s*(?:\(\s*)?(?:[:"']([\w:-]+)["']?)?`)
	// task default: :test, task :default => [:spec, :rubocop],
	// task(default: %i[test]), task "default" => "test".
	rakeDefault = lazyre.New(`(?m)^\s*task\s*\(?\s*(?:default:|:default\s*=>|["']default["']\s*=>)\s*(.+?)\)?\s*(?:#.*)?$`)
	// task :test do, task "spec" do: a task of a test's name with a body.
	rakeNamedTask = lazyre.New(`(?m)^\s*task\s*\(?\s*[:"']?(test|spec)["']?\s*(?:do|\{|\)|$|,)`)
	rakeWord      = lazyre.New(`[\w:-]+`)
)

// parseRakefile reads the test tasks and the default task's
// prerequisites of a Rakefile. It reads text, never runs it: a task
// defined by a loop or a helper is not seen.
func parseRakefile(data []byte) rakefile {
	text := string(data)
	rf := rakefile{tests: map[string]string{}}
	for _, m := range rakeTestTask.FindAllStringSubmatch(text, -1) {
		name := m[2]
		switch m[1] {
		case "RuboCop::RakeTask":
			continue // a lint, not a test (rubocop.go's quick check)
		case "RSpec::Core::RakeTask":
			name = firstOf(name, "spec")
		default:
			name = firstOf(name, "test")
		}
		rf.tests[name] = m[1]
	}
	for _, m := range rakeNamedTask.FindAllStringSubmatch(text, -1) {
		if rf.tests[m[1]] == "" {
			rf.tests[m[1]] = "a task named " + m[1]
		}
	}
	for _, m := range rakeDefault.FindAllStringSubmatch(text, -1) {
		v := strings.TrimSpace(m[1])
		// %i[spec rubocop], [:spec, "rubocop"], :spec, "spec"
		v = strings.TrimPrefix(strings.TrimPrefix(v, "%i"), "%w")
		for _, w := range rakeWord.FindAllString(v, -1) {
			if w == "do" {
				break
			}
			rf.defaults = append(rf.defaults, strings.TrimPrefix(w, ":"))
		}
	}
	if strings.Contains(text, ".load_tasks") && strings.Contains(text, "Rails") {
		rf.rails = true
		if rf.tests["test"] == "" {
			rf.tests["test"] = "Rails' test task"
		}
	}
	return rf
}

// defaultTests is the default task's prerequisite that runs tests, and
// what defines it, or "".
func (rf rakefile) defaultTests() (task, by string) {
	for _, t := range rf.defaults {
		if by := rf.tests[t]; by != "" {
			return t, by
		}
		if t == "test" || t == "spec" || strings.HasPrefix(t, "test:") || strings.HasPrefix(t, "spec:") {
			return t, "a task named " + t
		}
	}
	if rf.rails && len(rf.defaults) == 0 {
		return "test", "Rails' default task"
	}
	return "", ""
}

// defaultWriter names a prerequisite of the default task that rewrites
// files (rubocop:autocorrect, standard:fix, a task named fix or format),
// or "".
func (rf rakefile) defaultWriter() string {
	for _, t := range rf.defaults {
		last := t[strings.LastIndexByte(t, ':')+1:]
		if strings.Contains(last, "autocorrect") || strings.Contains(last, "auto_correct") || slices.Contains([]string{"fix", "format", "fmt"}, last) {
			return t
		}
	}
	return ""
}

// hasDefault reports whether the default task runs prerequisite name.
func (rf rakefile) hasDefault(name string) bool { return slices.Contains(rf.defaults, name) }
