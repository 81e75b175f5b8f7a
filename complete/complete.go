// Package complete writes shell completion scripts (bash, zsh, fish) from
// vbd's command-line grammar itself, so completion never falls behind a
// new command or flag.
package complete

import (
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
)

// Script returns the completion script for shell ("bash", "zsh" or
// "fish") of the command line app describes.
func Script(app *kong.Application, shell string) (string, error) {
	spec := completionSpecOf(app)
	switch shell {
	case "bash":
		return bashCompletion(spec), nil
	case "zsh":
		return zshCompletion(spec), nil
	case "fish":
		return fishCompletion(spec), nil
	}
	return "", fmt.Errorf("no completion for shell %q: choose bash, zsh or fish", shell)
}

// compFlag is one flag as completion needs it.
type compFlag struct {
	long, help string
	short      rune
	values     []string // an enum's values
	takesValue bool
	dir        bool // the value is a directory
}

// compCmd is one command with its own flags and its first argument's values.
type compCmd struct {
	name, help string
	flags      []compFlag
	args       []string
}

// compSpec is the grammar: global flags, commands, and the default command
// whose flags also apply when no command is named.
type compSpec struct {
	global []compFlag
	cmds   []compCmd
	def    string
}

func completionSpecOf(app *kong.Application) compSpec {
	var s compSpec
	s.global = compFlags(app.Flags)
	for _, n := range app.Children {
		if n.Hidden || n.Type != kong.CommandNode {
			continue
		}
		c := compCmd{name: n.Name, help: firstSentence(n.Help), flags: compFlags(n.Flags)}
		if len(n.Positional) > 0 && n.Positional[0].Enum != "" {
			c.args = strings.Split(n.Positional[0].Enum, ",")
		}
		s.cmds = append(s.cmds, c)
		if app.DefaultCmd == n {
			s.def = n.Name
		}
	}
	return s
}

func compFlags(flags []*kong.Flag) []compFlag {
	var out []compFlag
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		cf := compFlag{long: f.Name, short: f.Short, help: firstSentence(f.Help), takesValue: !f.IsBool() && !f.IsCounter(), dir: f.Name == "directory"}
		if f.Enum != "" {
			cf.values = strings.Split(f.Enum, ",")
		}
		out = append(out, cf)
	}
	return out
}

// firstSentence keeps completion descriptions to one short line.
func firstSentence(s string) string {
	for _, sep := range []string{". ", "; "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if r := []rune(s); len(r) > 72 {
		s = string(r[:72])
		if i := strings.LastIndex(s, " "); i > 40 {
			s = s[:i]
		}
		s += "…"
	}
	return s
}

func (s compSpec) cmdNames() []string {
	names := make([]string, 0, len(s.cmds))
	for _, c := range s.cmds {
		names = append(names, c.name)
	}
	return names
}

func (s compSpec) flagsOf(cmd string) []compFlag {
	out := append([]compFlag(nil), s.global...)
	for _, c := range s.cmds {
		if c.name == cmd {
			out = append(out, c.flags...)
		}
	}
	return out
}

func flagWords(flags []compFlag) string {
	var w []string
	for _, f := range flags {
		w = append(w, "--"+f.long)
		if f.short != 0 {
			w = append(w, "-"+string(f.short))
		}
	}
	return strings.Join(w, " ")
}

func bashCompletion(s compSpec) string {
	var b strings.Builder
	b.WriteString("# bash completion for vbd: source it, or save it as\n# ~/.local/share/bash-completion/completions/vbd\n")
	b.WriteString("_vbd() {\n\tlocal cur prev cmd i words\n\tcur=\"${COMP_WORDS[COMP_CWORD]}\"\n\tprev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n\tcmd=\"\"\n")
	fmt.Fprintf(&b, "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n\t\tcase \"${COMP_WORDS[i]}\" in\n\t\t%s) cmd=\"${COMP_WORDS[i]}\"; break ;;\n\t\tesac\n\tdone\n", strings.Join(s.cmdNames(), "|"))
	// A flag's value: enums and directories.
	b.WriteString("\tcase \"$prev\" in\n")
	values := map[string][]string{}
	var valueFlags []string
	dirs := []string{}
	for _, f := range append(append([]compFlag(nil), s.global...), allCmdFlags(s)...) {
		names := "--" + f.long
		if f.short != 0 {
			names += "|-" + string(f.short)
		}
		switch {
		case f.dir:
			dirs = append(dirs, names)
		case len(f.values) > 0:
			if _, seen := values[names]; !seen {
				valueFlags = append(valueFlags, names)
			}
			values[names] = f.values
		}
	}
	for _, d := range dirs {
		fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", d)
	}
	for _, n := range valueFlags {
		fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", n, strings.Join(values[n], " "))
	}
	b.WriteString("\tesac\n\tcase \"$cmd\" in\n")
	for _, c := range s.cmds {
		words := flagWords(s.flagsOf(c.name))
		if len(c.args) > 0 {
			words = strings.Join(c.args, " ") + " " + words
		}
		fmt.Fprintf(&b, "\t%s) words=%q ;;\n", c.name, words)
	}
	fmt.Fprintf(&b, "\t*) words=%q ;;\n", strings.Join(s.cmdNames(), " ")+" "+flagWords(s.flagsOf(s.def)))
	b.WriteString("\tesac\n\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F _vbd vbd\n")
	return b.String()
}

func allCmdFlags(s compSpec) []compFlag {
	var out []compFlag
	for _, c := range s.cmds {
		out = append(out, c.flags...)
	}
	return out
}

// zshQuote makes s safe inside a single-quoted zsh word and an _arguments
// description, where [ ] and : are special.
func zshQuote(s string) string {
	return strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func zshFlagSpecs(flags []compFlag) []string {
	var out []string
	for _, f := range flags {
		action := ""
		switch {
		case f.dir:
			action = ":dir:_directories"
		case len(f.values) > 0:
			action = ":value:(" + strings.Join(f.values, " ") + ")"
		case f.takesValue:
			action = ":value:"
		}
		spec := "--" + f.long + "[" + zshQuote(f.help) + "]" + action
		if f.short != 0 {
			spec = "(-" + string(f.short) + " --" + f.long + ")'{-" + string(f.short) + ",--" + f.long + "}'[" + zshQuote(f.help) + "]" + action
		}
		out = append(out, "'"+spec+"'")
	}
	return out
}

func zshCompletion(s compSpec) string {
	var b strings.Builder
	b.WriteString("#compdef vbd\n# zsh completion for vbd: save it as _vbd in a directory on $fpath.\n")
	b.WriteString("_vbd() {\n\tlocal cmd i\n\tlocal -a commands\n\tcommands=(\n")
	for _, c := range s.cmds {
		fmt.Fprintf(&b, "\t\t'%s:%s'\n", c.name, zshQuote(c.help))
	}
	b.WriteString("\t)\n")
	fmt.Fprintf(&b, "\tfor ((i = 2; i < CURRENT; i++)); do\n\t\tcase ${words[i]} in\n\t\t(%s) cmd=${words[i]}; break ;;\n\t\tesac\n\tdone\n", strings.Join(s.cmdNames(), "|"))
	b.WriteString("\tcase $cmd in\n")
	for _, c := range s.cmds {
		specs := zshFlagSpecs(s.flagsOf(c.name))
		if len(c.args) > 0 {
			specs = append(specs, "'*:argument:("+strings.Join(c.args, " ")+")'")
		}
		fmt.Fprintf(&b, "\t(%s) _arguments -s \\\n\t\t%s ;;\n", c.name, strings.Join(specs, " \\\n\t\t"))
	}
	specs := zshFlagSpecs(s.flagsOf(s.def))
	specs = append(specs, "'1:command:_vbd_commands'")
	fmt.Fprintf(&b, "\t(*) _arguments -s \\\n\t\t%s ;;\n\tesac\n}\n", strings.Join(specs, " \\\n\t\t"))
	b.WriteString("_vbd_commands() { _describe command commands }\n")
	b.WriteString("if [[ $zsh_eval_context[-1] == loadautoload ]]; then\n\t_vbd \"$@\"\nelse\n\tcompdef _vbd vbd\nfi\n")
	return b.String()
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func fishCompletion(s compSpec) string {
	var b strings.Builder
	b.WriteString("# fish completion for vbd: save it as ~/.config/fish/completions/vbd.fish\n")
	b.WriteString("complete -c vbd -f\n")
	names := strings.Join(s.cmdNames(), " ")
	for _, c := range s.cmds {
		fmt.Fprintf(&b, "complete -c vbd -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", names, c.name, fishQuote(c.help))
	}
	line := func(cond string, f compFlag) {
		fmt.Fprintf(&b, "complete -c vbd%s -l %s", cond, f.long)
		if f.short != 0 {
			fmt.Fprintf(&b, " -s %c", f.short)
		}
		switch {
		case f.dir:
			b.WriteString(" -r -a '(__fish_complete_directories)'")
		case len(f.values) > 0:
			fmt.Fprintf(&b, " -x -a %s", fishQuote(strings.Join(f.values, " ")))
		case f.takesValue:
			b.WriteString(" -x")
		}
		fmt.Fprintf(&b, " -d %s\n", fishQuote(f.help))
	}
	for _, f := range s.global {
		line("", f)
	}
	cmds := append([]compCmd(nil), s.cmds...)
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		cond := fmt.Sprintf(" -n '__fish_seen_subcommand_from %s'", c.name)
		if c.name == s.def {
			// The default command's flags apply until another is named.
			var others []string
			for _, o := range s.cmdNames() {
				if o != c.name {
					others = append(others, o)
				}
			}
			cond = fmt.Sprintf(" -n 'not __fish_seen_subcommand_from %s'", strings.Join(others, " "))
		}
		for _, f := range c.flags {
			line(cond, f)
		}
		if len(c.args) > 0 {
			fmt.Fprintf(&b, "complete -c vbd -n '__fish_seen_subcommand_from %s' -a %s\n", c.name, fishQuote(strings.Join(c.args, " ")))
		}
	}
	return b.String()
}
