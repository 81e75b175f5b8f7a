package guard

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how deep `bash -c` strings and eval are read inside one
// another: a command nested deeper than this is refused, not read.
const maxDepth = 8

// maxCommand is the longest command the guard reads; a longer one is
// refused (a harness's command is a few KB at most).
const maxCommand = 1 << 20

// CheckShell reads a shell command as bash would parse it and returns the
// guard's decision. A command it cannot parse is refused: bash would
// mostly refuse it too, and one the guard cannot read it cannot clear.
func CheckShell(command string, ctx Context) Decision {
	c := &checker{ctx: ctx}
	c.script(command, 0)
	return c.d
}

type checker struct {
	ctx Context
	d   Decision
}

// arg is one word of a simple command: its value when the shell would give
// it one without running anything (lit), and an approximation otherwise,
// where each expansion reads as "x".
type arg struct {
	s   string
	lit bool
	w   *syntax.Word
}

func (c *checker) script(src string, depth int) {
	if depth > maxDepth {
		c.d.add(Deny, fmt.Sprintf("the command nests shells or eval more than %d deep, which vbd's guard does not read. Fix: run the inner command directly.", maxDepth))
		return
	}
	if len(src) > maxCommand {
		c.d.add(Deny, "the command is over 1 MB, more than vbd's guard reads. Fix: put the commands in a script file and run it.")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		c.d.add(Deny, fmt.Sprintf("vbd's guard cannot read this shell command (%v), so it cannot tell what it runs. Fix: write it in plain bash syntax.", err))
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		c.node(n, depth)
		return true
	})
}

// stmtLists are the statement lists a node holds, where `&` and `wait`
// are siblings.
func stmtLists(n syntax.Node) [][]*syntax.Stmt {
	switch n := n.(type) {
	case *syntax.File:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.Block:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.Subshell:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.CmdSubst:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.ProcSubst:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.CaseItem:
		return [][]*syntax.Stmt{n.Stmts}
	case *syntax.IfClause:
		return [][]*syntax.Stmt{n.Cond, n.Then}
	case *syntax.WhileClause:
		return [][]*syntax.Stmt{n.Cond, n.Do}
	case *syntax.ForClause:
		return [][]*syntax.Stmt{n.Do}
	}
	return nil
}

func (c *checker) node(n syntax.Node, depth int) {
	for _, l := range stmtLists(n) {
		c.list(l)
	}
	switch n := n.(type) {
	case *syntax.Stmt:
		if n.Coprocess || n.Disown {
			c.d.add(Deny, c.backgroundReason("a coprocess or a disowned job"))
		}
		for _, r := range n.Redirs {
			c.redirect(r)
		}
		c.shellStdin(n, depth)
	case *syntax.CoprocClause:
		c.d.add(Deny, c.backgroundReason("`coproc`"))
	case *syntax.DeclClause:
		for _, a := range n.Args {
			c.assign(a)
		}
	case *syntax.CallExpr:
		for _, a := range n.Assigns {
			c.assign(a)
		}
		args := make([]arg, 0, len(n.Args))
		for _, w := range n.Args {
			args = append(args, wordArg(w))
		}
		c.command(args, depth)
	}
}

// list refuses a statement sent to the background (`cmd &`) when no later
// statement of the same list waits for it.
func (c *checker) list(stmts []*syntax.Stmt) {
	for i, s := range stmts {
		if s.Background && !waits(stmts[i+1:]) {
			c.d.add(Deny, c.backgroundReason("`&` without a `wait` after it"))
		}
	}
}

// waits reports whether a list calls `wait` in the shell that started the
// jobs: a wait inside a subshell or a substitution waits for nothing of
// ours.
func waits(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
				return false
			case *syntax.CallExpr:
				if len(n.Args) > 0 && n.Args[0].Lit() == "wait" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func (c *checker) backgroundReason(what string) string {
	hint := c.ctx.BackgroundHint
	if hint == "" {
		hint = "the harness's own background facility"
	}
	return fmt.Sprintf("%s leaves a process running after the command returns, where vbd's gate cannot see or stop it. Fix: run it in the foreground, add `wait` in the same command, or use %s.", what, hint)
}

// wordArg reads a word: its literal value, or the approximation.
func wordArg(w *syntax.Word) arg {
	var b strings.Builder
	lit := approx(&b, w.Parts)
	return arg{s: b.String(), lit: lit, w: w}
}

// approx writes the value of word parts, each expansion as "x", and
// reports whether there was none.
func approx(b *strings.Builder, parts []syntax.WordPart) bool {
	lit := true
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
			lit = lit && !p.Dollar
		case *syntax.DblQuoted:
			lit = approx(b, p.Parts) && lit
		default:
			b.WriteString("x")
			lit = false
		}
	}
	return lit
}

// onlyExpansion reports whether a word is a single expansion, quoted or not
// (`$x`, "$x", "$(cmd)"): text the guard cannot see at all.
func onlyExpansion(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	switch parts[0].(type) {
	case *syntax.ParamExp, *syntax.CmdSubst:
		return true
	}
	return false
}

func (c *checker) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	switch name := a.Name.Value; {
	case name == "VBD_SKIP":
		c.d.add(Deny, "VBD_SKIP turns vbd's checks off. Fix: run the command without VBD_SKIP; if a check is wrong, tell the user, who can change .vbd.toml.")
	case strings.HasPrefix(name, "GIT_CONFIG"):
		if a.Value != nil && strings.Contains(strings.ToLower(wordArg(a.Value).s), "hookspath") {
			c.d.add(Deny, hooksPathReason)
		}
	}
}

const hooksPathReason = "core.hooksPath points git at other hooks, so vbd's pre-commit hook does not run. Fix: leave core.hooksPath alone and commit normally; if the hook fails, fix what it reports."

// writers are commands that write, move or remove the files they name.
var writers = []string{"tee", "cp", "mv", "rm", "ln", "install", "truncate", "rsync", "patch", "dd", "unlink", "shred"}

// inPlace are editors that write their files only with -i.
var inPlace = []string{"sed", "perl", "gawk", "awk", "ruby"}

// command checks one simple command, its program first; wrappers (env,
// sudo, timeout...) are read through to the program they run.
func (c *checker) command(args []arg, depth int) {
	if len(args) == 0 || !args[0].lit {
		return
	}
	name := path.Base(args[0].s)
	if c.ctx.Exe != "" && args[0].s == c.ctx.Exe {
		name = "vbd"
	}
	rest := args[1:]
	if slices.Contains(shells, name) {
		c.shell(rest, depth)
	}
	switch name {
	case "nohup", "setsid", "disown":
		c.d.add(Deny, c.backgroundReason("`"+name+"`"))
	case "pkill", "killall":
		c.d.add(Deny, killReason(name))
	case "kill":
		for _, a := range rest {
			if callsAny(a.w, "pgrep", "pidof") {
				c.d.add(Deny, killReason("kill $(pgrep …)"))
			}
		}
	case "git":
		c.git(strs(rest))
	case "vbd":
		c.vbd(strs(rest))
	case "go":
		c.goCmd(strs(rest))
	case "eval":
		c.eval(rest, depth)
	case "env", "command", "builtin", "exec", "nice", "ionice", "sudo", "doas", "time", "timeout", "stdbuf", "xargs", "chronic", "flock", "caffeinate", "watch", "unbuffer":
		if inner := unwrap(name, rest); len(inner) > 0 {
			if name == "xargs" && path.Base(inner[0].s) == "kill" {
				c.d.add(Deny, killReason("xargs kill"))
			}
			if name == "env" {
				c.envAssigns(rest)
			}
			c.command(inner, depth)
		}
	}
	if slices.Contains(writers, name) || slices.Contains(inPlace, name) && slices.ContainsFunc(rest, func(a arg) bool { return strings.HasPrefix(a.s, "-i") }) {
		for _, a := range rest {
			if what, ok := Protected(a.s, c.ctx); ok {
				c.d.add(Ask, fmt.Sprintf("`%s` would change %s (%s), which decides what vbd's gate checks; the user must confirm.", name, a.s, what))
			}
		}
	}
}

func strs(args []arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.s
	}
	return out
}

func killReason(what string) string {
	return fmt.Sprintf("`%s` stops processes by pattern, which can hit processes that are not this session's (another session's checks, the user's programs). Fix: stop a process you started by its id (`kill PID`, `kill %%1`).", what)
}

// callsAny reports whether a word's command substitutions run one of names.
func callsAny(w *syntax.Word, names ...string) bool {
	found := false
	if w == nil {
		return false
	}
	syntax.Walk(w, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && slices.Contains(names, path.Base(ce.Args[0].Lit())) {
			found = true
		}
		return !found
	})
	return found
}

// wrapperOpts are the options of each wrapper that take a separate value,
// and how many operands it takes before the command it runs.
var wrapperOpts = map[string]struct {
	valued   string // one-letter options taking a value
	long     []string
	operands int
}{
	"env":     {valued: "uSC", long: []string{"--unset", "--chdir", "--split-string"}},
	"nice":    {valued: "n", long: []string{"--adjustment"}},
	"ionice":  {valued: "cnp", long: []string{"--class", "--classdata", "--pid"}},
	"sudo":    {valued: "ugChprtUTD", long: []string{"--user", "--group", "--close-from", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--chdir"}},
	"doas":    {valued: "uC"},
	"timeout": {valued: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
	"stdbuf":  {valued: "ioe", long: []string{"--input", "--output", "--error"}},
	"xargs":   {valued: "aEeIiLlnPsd", long: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--replace", "--max-lines"}},
	"flock":   {valued: "wEc", long: []string{"--timeout", "--conflict-exit-code", "--command"}, operands: 1},
	"watch":   {valued: "ndq", long: []string{"--interval", "--differences"}},
	"exec":    {valued: "a"},
}

// unwrap returns the command a wrapper runs: its words after the wrapper's
// options, its NAME=VALUE words (env) and its operands. `command -v` and
// the like run nothing.
func unwrap(name string, args []arg) []arg {
	o := wrapperOpts[name]
	i := 0
	for i < len(args) {
		a := args[i].s
		switch {
		case a == "--":
			i++
		case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			i++
			continue
		case strings.HasPrefix(a, "--"):
			i++
			if slices.Contains(o.long, a) {
				i++
			}
			continue
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if (name == "command" || name == "builtin") && strings.ContainsAny(a, "vV") {
				return nil
			}
			i++
			if l := a[len(a)-1:]; strings.Contains(o.valued, l) {
				i++
			}
			continue
		}
		break
	}
	i += o.operands
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// envAssigns checks env's NAME=VALUE words as assignments.
func (c *checker) envAssigns(args []arg) {
	for _, a := range args {
		k, v, ok := strings.Cut(a.s, "=")
		if !ok || strings.HasPrefix(k, "-") {
			if !strings.HasPrefix(a.s, "-") {
				return
			}
			continue
		}
		p := syntax.NewParser()
		w, err := p.Document(strings.NewReader(v))
		if err != nil {
			w = &syntax.Word{}
		}
		c.assign(&syntax.Assign{Name: &syntax.Lit{Value: k}, Value: w})
	}
}

// shell reads the script of `bash -c SCRIPT` (any cluster holding c, like
// -lc or -ec), as bash would parse it.
func (c *checker) shell(args []arg, depth int) {
	for i, a := range args {
		if a.s == "--" || !strings.HasPrefix(a.s, "-") {
			return
		}
		if !strings.HasPrefix(a.s, "--") && strings.Contains(a.s[1:], "c") {
			if i+1 < len(args) {
				c.inner(args[i+1], depth)
			}
			return
		}
	}
}

var shells = []string{"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh"}

// scriptFromStdin reports whether a shell's arguments leave it reading its
// script from stdin: options only, none of them -c.
func scriptFromStdin(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c") {
			return false
		}
	}
	return true
}

// shellStdin reads the script a shell gets on stdin from a here-document
// or a here-string (`bash <<EOF … EOF`, `sh <<< 'cmd'`).
func (c *checker) shellStdin(s *syntax.Stmt, depth int) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || !slices.Contains(shells, path.Base(ce.Args[0].Lit())) {
		return
	}
	args := make([]string, 0, len(ce.Args)-1)
	for _, w := range ce.Args[1:] {
		args = append(args, wordArg(w).s)
	}
	if !scriptFromStdin(args) {
		return
	}
	for _, r := range s.Redirs {
		switch {
		case (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil:
			c.script(wordArg(r.Hdoc).s, depth+1)
		case r.Op == syntax.WordHdoc && r.Word != nil:
			c.script(wordArg(r.Word).s, depth+1)
		}
	}
}

// eval reads its arguments as one script. An argument that is nothing but
// an expansion is text the guard cannot see, and is refused.
func (c *checker) eval(args []arg, depth int) {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if onlyExpansion(a.w) {
			c.d.add(Deny, "`eval` of a variable or a command's output runs text vbd's guard cannot see. Fix: run the command itself, without eval.")
			return
		}
		parts = append(parts, a.s)
	}
	c.script(strings.Join(parts, " "), depth+1)
}

// inner reads the script of `bash -c`; one that is only an expansion is
// refused, like eval's.
func (c *checker) inner(a arg, depth int) {
	if onlyExpansion(a.w) {
		c.d.add(Deny, "`bash -c` of a variable runs text vbd's guard cannot see. Fix: run the command itself.")
		return
	}
	c.script(a.s, depth+1)
}

// writeOps are the redirections that write their file.
var writeOps = []syntax.RedirOperator{syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob, syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut}

// redirect asks before a redirection writes one of the gate's files.
func (c *checker) redirect(r *syntax.Redirect) {
	if !slices.Contains(writeOps, r.Op) || r.Word == nil {
		return
	}
	target := wordArg(r.Word).s
	if what, ok := Protected(target, c.ctx); ok {
		c.d.add(Ask, fmt.Sprintf("this command writes %s (%s), which decides what vbd's gate checks; the user must confirm.", target, what))
	}
}

// vbd refuses `vbd hook …` run by the agent, and asks before `vbd
// uninstall`.
func (c *checker) vbd(args []string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-C" || a == "--directory" || a == "--color":
			i += 2
			continue
		case strings.HasPrefix(a, "-"):
			i++
			continue
		}
		break
	}
	if i >= len(args) {
		return
	}
	switch args[i] {
	case "hook":
		c.d.add(Deny, "`vbd hook` is the harness's stop hook; run by the agent it changes the gate's state without a real stop. Fix: run `vbd` (or `vbd --quick`) to see what the gate will say, then finish the work; the harness runs the hook itself.")
	case "uninstall":
		c.d.add(Ask, "`vbd uninstall` removes vbd's gate; the user must confirm.")
	}
}

// goCmd refuses `go env -w GOFLAGS=…`.
func (c *checker) goCmd(args []string) {
	if len(args) < 2 || args[0] != "env" || !slices.Contains(args[1:], "-w") {
		return
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "GOFLAGS=") {
			c.d.add(Deny, "`go env -w GOFLAGS=…` writes flags into the go env file, which changes what every later `go test` runs (a -skip or -run hides tests). Fix: pass the flags to one command (`go test -run X ./...`) and leave the go env file alone.")
		}
	}
}
