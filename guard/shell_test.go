package guard

import (
	"strings"
	"testing"
)

func TestCheckShell(t *testing.T) {
	ctx := Context{Home: "/home/u", GoEnvFile: "/home/u/.config/go/env", Cwd: "/repo", Exe: "/opt/bin/gate-1.2"}
	cases := []struct {
		cmd  string
		want Verdict
		// why is a word the reason must hold.
		why string
	}{
		// Ordinary commands.
		{"go test ./...", Allow, ""},
		{"git commit -m 'fix the -n flag'", Allow, ""},
		{"git commit -m -n", Allow, ""},
		{"git commit -am 'x' -- -n", Allow, ""},
		{"git commit -- --no-verify", Allow, ""},
		{"git commit --verify -q -m x", Allow, ""},
		{"git commit -n --verify -m x", Allow, ""},
		{"git log -n 3", Allow, ""},
		{"git -C sub log -n 1", Allow, ""},
		{"git -c user.name=x commit -m ok", Allow, ""},
		{"git config --get core.hooksPath", Allow, ""},
		{"git config --unset core.hooksPath", Allow, ""},
		{"echo 'a & b'", Allow, ""},
		{`echo "x & y" && echo ok`, Allow, ""},
		{"cat <<EOF\nsleep 1 &\nnohup x\nEOF", Allow, ""},
		{"sleep 1 & wait", Allow, ""},
		{"(cd x && make) & wait", Allow, ""},
		{"a & b & wait $!", Allow, ""},
		{"kill 1234", Allow, ""},
		{"kill %1", Allow, ""},
		{"go env -w GOPRIVATE=x", Allow, ""},
		{"go env GOFLAGS", Allow, ""},
		{"vbd", Allow, ""},
		{"vbd --quick", Allow, ""},
		{"vbd -C sub list", Allow, ""},
		{"command -v nohup", Allow, ""},
		{"cat .vbd.toml", Allow, ""},
		{"bash -c 'sleep 1 & wait'", Allow, ""},
		{`eval "echo hi"`, Allow, ""},
		{"VBD_DEBUG=1 vbd", Allow, ""},

		// git's hooks skipped.
		{"git commit --no-verify -m x", Deny, "--no-verify"},
		{"git commit -n -m x", Deny, "--no-verify"},
		{"git commit -anm x", Deny, "--no-verify"},
		{"git commit -an", Deny, "--no-verify"},
		{"git commit -m x -n", Deny, "--no-verify"},
		{"git commit --no-veri -m x", Deny, "--no-verify"},
		{"git commit --verify --no-verify -m x", Deny, "--no-verify"},
		{"git -c x=y commit -n", Deny, "--no-verify"},
		{"git -C dir commit --no-verify", Deny, "--no-verify"},
		{"git --git-dir .git --work-tree . commit -n", Deny, "--no-verify"},
		{"git commit -m x file.go --no-verify", Deny, "--no-verify"},
		{"git merge --no-verify topic", Deny, "--no-verify"},
		{"cd sub && git commit -n", Deny, "--no-verify"},
		{"echo $(git commit -n)", Deny, "--no-verify"},
		{"true | git commit -n", Deny, "--no-verify"},
		{"if true; then git commit -n; fi", Deny, "--no-verify"},
		{"f() { git commit -n; }; f", Deny, "--no-verify"},
		{"bash -c 'git commit -n'", Deny, "--no-verify"},
		{"sh -ec \"git commit --no-verify -m 'x y'\"", Deny, "--no-verify"},
		{"bash -c \"bash -c 'git commit -n'\"", Deny, "--no-verify"},
		{"eval 'git commit -n'", Deny, "--no-verify"},
		{"bash <<'EOF'\ngit commit -n\nEOF", Deny, "--no-verify"},
		{"sh -s <<< 'nohup x'", Deny, "nohup"},
		{"bash script.sh <<EOF\ngit commit -n\nEOF", Allow, ""},
		{`eval "$CMD"`, Deny, "eval"},
		{"bash -c \"$X\"", Deny, "bash -c"},
		{"sudo -u me git commit -n", Deny, "--no-verify"},
		{"env A=1 git commit -n", Deny, "--no-verify"},
		{"VBD_SKIP=go git commit -m x", Deny, "VBD_SKIP"},
		{"export VBD_SKIP=1", Deny, "VBD_SKIP"},
		{"env VBD_SKIP=1 git commit -m x", Deny, "VBD_SKIP"},
		{"git -c core.hooksPath=/dev/null commit -m x", Deny, "hooksPath"},
		{"git -c CORE.HOOKSPATH=x commit -m x", Deny, "hooksPath"},
		{"git config core.hooksPath /tmp/none", Deny, "hooksPath"},
		{"git config --local core.hooksPath x", Deny, "hooksPath"},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=x git commit", Deny, "hooksPath"},

		// The gate run by the agent.
		{"vbd hook claude", Deny, "vbd hook"},
		{"/usr/local/bin/vbd -C . hook claude < in.json", Deny, "vbd hook"},
		{"echo '{}' | vbd hook auto", Deny, "vbd hook"},
		{"vbd uninstall claude", Ask, "uninstall"},
		{"/opt/bin/gate-1.2 hook claude", Deny, "vbd hook"},

		// Flags written to the go env file.
		{"go env -w GOFLAGS=-skip=TestAdd", Deny, "GOFLAGS"},
		{"go env -w CGO_ENABLED=0 GOFLAGS=-run=x", Deny, "GOFLAGS"},

		// Untracked background jobs.
		{"sleep 100 &", Deny, "`&`"},
		{"make serve & echo started", Deny, "`&`"},
		{"(sleep 1 &)", Deny, "`&`"},
		{"(sleep 1 &); wait", Deny, "`&`"},
		{"nohup make &", Deny, "nohup"},
		{"nohup make", Deny, "nohup"},
		{"setsid sleep 1", Deny, "setsid"},
		{"sleep 1 & disown", Deny, "disown"},
		{"coproc sleep 1", Deny, "coproc"},
		{"timeout 5 nohup x", Deny, "nohup"},
		{"bash -c 'sleep 9 &'", Deny, "`&`"},

		// Processes stopped by pattern.
		{"pkill -f vbd", Deny, "pkill"},
		{"killall go", Deny, "killall"},
		{"kill $(pgrep -f make)", Deny, "pgrep"},
		{"kill -9 `pidof sleep`", Deny, "pgrep"},
		{"pgrep make | xargs kill", Deny, "xargs kill"},

		// Writes to the gate's files.
		{"echo 'disable = [\"go test\"]' >> .vbd.toml", Ask, ".vbd.toml"},
		{"cat > .claude/settings.json <<EOF\n{}\nEOF", Ask, "hook settings"},
		{"rm .vbd.toml", Ask, ".vbd.toml"},
		{"sed -i s/a/b/ .vbd.toml", Ask, ".vbd.toml"},
		{"echo x > ~/.config/go/env", Ask, "go env"},
		{"tee .git/hooks/pre-commit < /dev/null", Ask, "git's hooks"},

		// Unreadable.
		{"echo 'unterminated", Deny, "cannot read"},
	}
	for _, c := range cases {
		d := CheckShell(c.cmd, ctx)
		if d.Verdict != c.want || !strings.Contains(d.Reason(), c.why) {
			t.Errorf("%q: got %s %q, want %s with %q", c.cmd, d.Verdict, d.Reason(), c.want, c.why)
		}
	}
}

func TestCheckEdits(t *testing.T) {
	ctx := Context{Home: "/home/u", GoEnvFile: "/home/u/.config/go/env", Cwd: "/repo"}
	cases := []struct {
		path string
		want Verdict
	}{
		{"/repo/.vbd.toml", Ask},
		{"/repo/sub/.vbd.toml", Ask},
		{"/repo/.claude/settings.json", Ask},
		{"/repo/.claude/settings.local.json", Ask},
		{"/home/u/.claude/settings.json", Ask},
		{"/repo/.github/hooks/vbd.json", Ask},
		{"/repo/.codex/config.toml", Ask},
		{"/repo/.gemini/settings.json", Ask},
		{"/home/u/.config/go/env", Ask},
		{".vbd.toml", Ask},
		{"/repo/main.go", Allow},
		{"/repo/vbd.toml", Allow},
		{"/repo/settings.json", Allow},
		{"/repo/.github/workflows/ci.yml", Allow},
	}
	for _, c := range cases {
		for _, tool := range []string{"Edit", "Write", "MultiEdit"} {
			call := ReadCall(map[string]any{"tool_name": tool, "tool_input": map[string]any{"file_path": c.path}})
			if d := Check(call, ctx); d.Verdict != c.want {
				t.Errorf("%s %s: got %s %q, want %s", tool, c.path, d.Verdict, d.Reason(), c.want)
			}
		}
	}
}

func TestReadCall(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]any
		want Call
	}{
		{"claude bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}, Call{Tool: "Bash", Shell: true, Command: "ls"}},
		{"codex argv", map[string]any{"tool_name": "shell", "tool_input": map[string]any{"command": []any{"bash", "-lc", "git commit -n"}}}, Call{Tool: "shell", Shell: true, Command: "bash -lc 'git commit -n'"}},
		{"gemini", map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "ls"}}, Call{Tool: "run_shell_command", Shell: true, Command: "ls"}},
		{"copilot", map[string]any{"toolName": "bash", "toolArgs": `{"command":"ls"}`}, Call{Tool: "bash", Shell: true, Command: "ls"}},
		{"copilot edit", map[string]any{"toolName": "edit", "toolArgs": `{"path":"/r/.vbd.toml"}`}, Call{Tool: "edit", Paths: []string{"/r/.vbd.toml"}}},
		{"apply_patch", map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"input": "*** Begin Patch\n*** Update File: .vbd.toml\n@@\n-a\n+b\n*** End Patch"}}, Call{Tool: "apply_patch", Paths: []string{".vbd.toml"}}},
	}
	for _, c := range cases {
		got := ReadCall(c.in)
		if got.Tool != c.want.Tool || got.Shell != c.want.Shell || got.Command != c.want.Command || strings.Join(got.Paths, ",") != strings.Join(c.want.Paths, ",") {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// FuzzCheckShell: any command line, however broken, gets a decision and
// no panic, and one the guard allows parses.
func FuzzCheckShell(f *testing.F) {
	for _, s := range []string{"git commit -n", "sleep 1 & wait", "bash -c 'eval \"git commit -n\"'", "cat <<EOF\n&\nEOF", "kill $(pgrep x)", "a=$((1+2)) b=${c:-d} e", "x() { y & }; x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := CheckShell(cmd, Context{Cwd: "/r", Home: "/h"})
		if d.Verdict != Allow && len(d.Reasons) == 0 {
			t.Fatalf("%q: %s without a reason", cmd, d.Verdict)
		}
	})
}
