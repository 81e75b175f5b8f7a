package complete

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// testCLI is a small grammar with each kind of flag and command that
// completion treats differently.
type testCLI struct {
	Directory string `short:"C" help:"Run as if vbd started in DIR. Then more."`
	Color     string `enum:"auto,always,never" default:"auto" help:"When to colour; see docs."`
	Verbose   bool   `short:"v" help:"Say more."`
	Secret    bool   `hidden:"" help:"Not for users."`

	Run struct {
		Budget string `help:"Time for the whole run."`
		Quick  bool   `help:"Cheap checks only."`
	} `cmd:"" default:"withargs" help:"Run the checks. The default."`
	Install struct {
		Target string `arg:"" enum:"claude,git" help:"Where to wire vbd."`
	} `cmd:"" help:"Wire vbd into a harness."`
	Debug struct{} `cmd:"" hidden:"" help:"Internal."`
}

func testApp(t *testing.T) *kong.Application {
	t.Helper()
	var cli testCLI
	p, err := kong.New(&cli, kong.Name("vbd"))
	if err != nil {
		t.Fatal(err)
	}
	return p.Model
}

func TestCompletionSpecOf(t *testing.T) {
	s := completionSpecOf(testApp(t))
	if got, want := s.cmdNames(), []string{"run", "install"}; !reflect.DeepEqual(got, want) {
		t.Errorf("commands = %q, want %q (hidden ones left out)", got, want)
	}
	if s.def != "run" {
		t.Errorf("default command = %q, want run", s.def)
	}
	flags := map[string]compFlag{}
	for _, f := range s.global {
		flags[f.long] = f
	}
	tests := []struct {
		long string
		want compFlag
		ok   bool
	}{
		{"directory", compFlag{long: "directory", short: 'C', help: "Run as if vbd started in DIR", takesValue: true, dir: true}, true},
		{"color", compFlag{long: "color", help: "When to colour", values: []string{"auto", "always", "never"}, takesValue: true}, true},
		{"verbose", compFlag{long: "verbose", short: 'v', help: "Say more"}, true},
		{"secret", compFlag{}, false},
	}
	for _, tc := range tests {
		got, ok := flags[tc.long]
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("flag %s = %+v (present %v), want %+v (present %v)", tc.long, got, ok, tc.want, tc.ok)
		}
	}
	for _, c := range s.cmds {
		if c.name == "install" && !reflect.DeepEqual(c.args, []string{"claude", "git"}) {
			t.Errorf("install's argument values = %q", c.args)
		}
	}
	// A command's flags come after the global ones.
	var words []string
	for _, f := range s.flagsOf("run") {
		words = append(words, f.long)
	}
	if got := strings.Join(words, " "); !strings.HasSuffix(got, "budget quick") || !strings.Contains(got, "directory") {
		t.Errorf("flagsOf(run) = %s", got)
	}
}

func TestFirstSentence(t *testing.T) {
	long := strings.Repeat("word ", 20)
	tests := []struct{ in, want string }{
		{"Run the checks.", "Run the checks"},
		{"Run the checks. Then more.", "Run the checks"},
		{"When to colour; see docs.", "When to colour"},
		{"  padded  ", "padded"},
		{"v1.2 is a version", "v1.2 is a version"}, // no space after the dot
		{long, strings.TrimSpace(strings.Repeat("word ", 14)) + "…"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := firstSentence(tc.in); got != tc.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, zsh, fish string }{
		{"plain", "plain", "'plain'"},
		{"it's", `it'\''s`, `'it\'s'`},
		{"[a]: b", `\[a\]\: b`, "'[a]: b'"},
		{`back\slash`, `back\slash`, `'back\\slash'`},
	}
	for _, tc := range tests {
		if got := zshQuote(tc.in); got != tc.zsh {
			t.Errorf("zshQuote(%q) = %q, want %q", tc.in, got, tc.zsh)
		}
		if got := fishQuote(tc.in); got != tc.fish {
			t.Errorf("fishQuote(%q) = %q, want %q", tc.in, got, tc.fish)
		}
	}
}

// Each shell's script has the line that completes each kind of flag.
func TestScriptLines(t *testing.T) {
	app := testApp(t)
	tests := []struct {
		shell string
		want  []string
		not   []string
	}{
		{"bash", []string{
			"\t--directory|-C) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n",
			"\t--color) COMPREPLY=($(compgen -W \"auto always never\" -- \"$cur\")); return ;;\n",
			"\tinstall) words=\"claude git --help -h --directory -C --color --verbose -v\" ;;\n",
			"\t*) words=\"run install --help -h --directory -C --color --verbose -v --budget --quick\" ;;\n",
			"\t\trun|install) cmd=",
		}, []string{"secret", "debug"}},
		{"zsh", []string{
			"\t\t'run:Run the checks'\n",
			`'(-C --directory)'{-C,--directory}'[Run as if vbd started in DIR]:dir:_directories'`,
			`'--color[When to colour]:value:(auto always never)'`,
			`'--budget[Time for the whole run]:value:'`,
			`'*:argument:(claude git)'`,
		}, []string{"secret", "debug"}},
		{"fish", []string{
			"complete -c vbd -n 'not __fish_seen_subcommand_from run install' -a install -d 'Wire vbd into a harness'\n",
			"complete -c vbd -l directory -s C -r -a '(__fish_complete_directories)' -d 'Run as if vbd started in DIR'\n",
			"complete -c vbd -l color -x -a 'auto always never' -d 'When to colour'\n",
			"complete -c vbd -n 'not __fish_seen_subcommand_from install' -l budget -x -d 'Time for the whole run'\n",
			"complete -c vbd -n '__fish_seen_subcommand_from install' -a 'claude git'\n",
		}, []string{"secret", "debug"}},
	}
	for _, tc := range tests {
		t.Run(tc.shell, func(t *testing.T) {
			script, err := Script(app, tc.shell)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(script, w) {
					t.Errorf("no %q in:\n%s", w, script)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(script, n) {
					t.Errorf("the hidden %q is offered:\n%s", n, script)
				}
			}
		})
	}
	if _, err := Script(app, "tcsh"); err == nil || !strings.Contains(err.Error(), "bash, zsh or fish") {
		t.Errorf("Script(tcsh) error = %v", err)
	}
}
