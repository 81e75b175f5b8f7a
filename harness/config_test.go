package harness

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const testExe = "/opt/vbd/bin/vbd"

func ours(cmd string) bool { return IsVbdCommand(cmd, testExe) }

func testHook(n Name) Hook {
	return Hook{Command: HookCommand(testExe, n, 65*time.Second, false, DefaultMaxBlocks), Timeout: 75 * time.Second, StartTimeout: 30 * time.Second}
}

// TestInstallGolden pins each harness's fresh config file: path, shape,
// events, timeout unit.
func TestInstallGolden(t *testing.T) {
	for _, n := range Names {
		t.Run(string(n), func(t *testing.T) {
			root := t.TempDir()
			spec, _ := Lookup(n)
			ch, err := Install(root, spec, testHook(n), ours)
			if err != nil {
				t.Fatal(err)
			}
			if !ch.Created || !ch.Changed || ch.Backup != "" || ch.Path != filepath.Join(root, spec.File) {
				t.Errorf("change = %+v", ch)
			}
			data, err := os.ReadFile(ch.Path)
			if err != nil {
				t.Fatal(err)
			}
			goldenFile(t, filepath.Join("testdata", "install", string(n)+".json"), string(data))
			entries, err := ReadHooks(ch.Path, data, spec)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(spec.Events) {
				t.Fatalf("ReadHooks found %d entries, want %d", len(entries), len(spec.Events))
			}
			for i, e := range entries {
				want := 75 * time.Second
				if spec.Events[i].Start {
					want = 30 * time.Second
				}
				if e.Event != spec.Events[i].Name || e.Timeout != want || !ours(e.Command) {
					t.Errorf("entry %d = %+v", i, e)
				}
			}
		})
	}
}

// claudeSettings is a user's settings file with foreign keys and hooks,
// and a vbd hook from an older install at another path, sharing a group
// with a foreign hook.
const claudeSettings = `{
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "env": {"FOO": "1"},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}],
    "Stop": [
      {"hooks": [{"type": "command", "command": "say done"}]},
      {"hooks": [{"type": "command", "command": "/usr/local/bin/vbd hook claude --budget 10s", "timeout": 20},
                 {"type": "command", "command": "notify-send stop"}]}
    ],
    "Notification": [{"hooks": [{"type": "command", "command": "vbd --quick"}]}]
  },
  "model": "opus",
  "numbers": 1.50
}`

func TestMergeKeepsForeignKeysAndHooks(t *testing.T) {
	spec, _ := Lookup(Claude)
	out, err := mergeConfig("settings.json", []byte(claudeSettings), spec, testHook(Claude), ours)
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, filepath.Join("testdata", "merge", "claude-merged.json"), string(out))
	s := string(out)
	for _, want := range []string{`"Bash(go test:*)"`, `"FOO": "1"`, `"./guard.sh"`, `"say done"`, `"notify-send stop"`, `"model": "opus"`, `1.50`} {
		if !strings.Contains(s, want) {
			t.Errorf("merge lost %s", want)
		}
	}
	if strings.Contains(s, "/usr/local/bin/vbd") {
		t.Error("merge kept vbd's entry from an older install")
	}
	if !strings.Contains(s, `"vbd --quick"`) {
		t.Error("merge removed the user's own plain vbd hook")
	}
	if strings.Index(s, `"permissions"`) > strings.Index(s, `"env"`) || strings.Index(s, `"hooks"`) > strings.Index(s, `"model"`) {
		t.Error("merge reordered the user's keys")
	}
	if strings.Count(s, testExe+" hook claude") != 4 {
		t.Errorf("want one vbd entry per event (4):\n%s", s)
	}

	again, err := mergeConfig("settings.json", out, spec, testHook(Claude), ours)
	if err != nil || string(again) != s {
		t.Errorf("merging twice changed the file (err %v):\n%s", err, again)
	}

	stripped, removed, empty, err := stripConfig("settings.json", out, spec, ours)
	if err != nil || removed != 4 || empty {
		t.Fatalf("Strip: removed %d empty %v err %v", removed, empty, err)
	}
	goldenFile(t, filepath.Join("testdata", "merge", "claude-uninstalled.json"), string(stripped))
	for _, want := range []string{`"./guard.sh"`, `"say done"`, `"notify-send stop"`, `"model": "opus"`} {
		if !strings.Contains(string(stripped), want) {
			t.Errorf("uninstall lost %s", want)
		}
	}
	if strings.Contains(string(stripped), "vbd hook") || strings.Contains(string(stripped), "SessionStart") {
		t.Errorf("uninstall left vbd behind:\n%s", stripped)
	}
}

func TestMergeOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		n        Name
		existing string
		keep     []string
	}{
		{Cursor, `{"version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}], "stop": [{"command": "./audit.sh", "timeout": 3}]}}`, []string{"./fmt.sh", "./audit.sh"}},
		{Copilot, `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "./log.sh", "timeoutSec": 5}]}}`, []string{"./log.sh"}},
		{Gemini, `{"theme": "dark", "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [{"name": "lint", "type": "command", "command": "npm run lint", "timeout": 30000}]}]}}`, []string{`"theme": "dark"`, "npm run lint"}},
		{Devin, `{"PreToolUse": [{"hooks": [{"type": "command", "command": "./guard"}]}], "Stop": [{"hooks": [{"type": "command", "command": "vbd hook devin"}]}]}`, []string{"./guard"}},
		{Codex, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./codex-stop.sh", "timeout": 9}]}]}}`, []string{"./codex-stop.sh"}},
		{OpenHands, `{"hooks": {"Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "echo bye"}]}]}}`, []string{"echo bye"}},
	} {
		t.Run(string(tc.n), func(t *testing.T) {
			root := t.TempDir()
			spec, _ := Lookup(tc.n)
			path := filepath.Join(root, spec.File)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, path, tc.existing)
			ch, err := Install(root, spec, testHook(tc.n), ours)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Created || !ch.Changed || ch.Backup != path+BackupSuffix {
				t.Errorf("change = %+v", ch)
			}
			if b, _ := os.ReadFile(ch.Backup); string(b) != tc.existing {
				t.Errorf("backup = %q", b)
			}
			data, _ := os.ReadFile(path)
			goldenFile(t, filepath.Join("testdata", "merge", string(tc.n)+"-merged.json"), string(data))
			for _, k := range tc.keep {
				if !strings.Contains(string(data), k) {
					t.Errorf("lost %s", k)
				}
			}
			entries, _ := ReadHooks(path, data, spec)
			vbd := 0
			for _, e := range entries {
				if ours(e.Command) {
					vbd++
				}
			}
			if vbd != len(spec.Events) {
				t.Errorf("%d vbd entries, want %d", vbd, len(spec.Events))
			}
			// Reinstalling changes nothing.
			if ch, err := Install(root, spec, testHook(tc.n), ours); err != nil || ch.Changed {
				t.Errorf("reinstall: %+v, %v", ch, err)
			}
			// Uninstall leaves every foreign entry.
			ch, err = Uninstall(root, spec, ours)
			if err != nil || ch.Removed != len(spec.Events) || ch.Deleted {
				t.Fatalf("uninstall: %+v, %v", ch, err)
			}
			data, _ = os.ReadFile(path)
			for _, k := range tc.keep {
				if !strings.Contains(string(data), k) {
					t.Errorf("uninstall lost %s", k)
				}
			}
			if IsVbdCommand(string(data), testExe) || strings.Contains(string(data), testExe) || strings.Contains(string(data), "vbd hook") {
				t.Errorf("uninstall left vbd:\n%s", data)
			}
		})
	}
}

func TestUninstallDeletesFileWithNothingElse(t *testing.T) {
	for _, n := range Names {
		root := t.TempDir()
		spec, _ := Lookup(n)
		if _, err := Install(root, spec, testHook(n), ours); err != nil {
			t.Fatal(err)
		}
		ch, err := Uninstall(root, spec, ours)
		if err != nil || !ch.Deleted {
			t.Errorf("%s: %+v %v", n, ch, err)
		}
		if _, err := os.Stat(ch.Path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the file is still there", n)
		}
		if ch, err := Uninstall(root, spec, ours); err != nil || ch.Changed {
			t.Errorf("%s: uninstalling twice: %+v %v", n, ch, err)
		}
	}
}

func TestInstallRefusesInvalidFiles(t *testing.T) {
	spec, _ := Lookup(Claude)
	for name, content := range map[string]string{
		"syntax":          "{\n  \"hooks\": {,\n}",
		"comments":        "{\n  // my settings\n  \"model\": \"opus\"\n}",
		"trailing comma":  `{"model": "opus",}`,
		"not an object":   `["hooks"]`,
		"hooks is a list": `{"hooks": []}`,
		"Stop is a map":   `{"hooks": {"Stop": {"command": "x"}}}`,
		"two values":      `{} {}`,
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, spec.File)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, path, content)
			_, err := Install(root, spec, testHook(Claude), ours)
			if err == nil || !strings.Contains(err.Error(), "vbd changed nothing") || !strings.Contains(err.Error(), spec.File[1:]) {
				t.Errorf("err = %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != content {
				t.Error("the file was changed")
			}
			if _, err := os.Stat(path + BackupSuffix); err == nil {
				t.Error("a backup was written for a refused file")
			}
			_, _ = Uninstall(root, spec, ours)
			if b, _ := os.ReadFile(path); string(b) != content {
				t.Error("uninstall changed the file")
			}
		})
	}
	var se *SyntaxError
	_, err := mergeConfig("s.json", []byte("{\n  \"a\": 1,\n  oops\n}"), spec, testHook(Claude), ours)
	if !errors.As(err, &se) || se.Line != 3 {
		t.Errorf("want a syntax error on line 3, got %v", err)
	}
}

func TestInspectCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want Command
	}{
		{"/opt/vbd/bin/vbd hook claude --budget 65s", Command{Program: testExe, Vbd: true, Hook: true, Harness: "claude", Budget: "65s"}},
		{"vbd", Command{Program: "vbd", Vbd: true}},
		{"/usr/local/bin/vbd hook claude", Command{Program: "/usr/local/bin/vbd", Vbd: true, Hook: true, Harness: "claude"}},
		{"vbd --quick", Command{Program: "vbd", Vbd: true}},
		{"'/path with space/vbd' hook codex --quick --budget=9m", Command{Program: "/path with space/vbd", Vbd: true, Hook: true, Harness: "codex", Budget: "9m", Quick: true}},
		{"vbd -C sub hook gemini", Command{Program: "vbd", Vbd: true, Hook: true, Harness: "gemini"}},
		{"cd sub && /opt/vbd/bin/vbd hook cursor --budget 5s", Command{Program: testExe, Vbd: true, Hook: true, Harness: "cursor", Budget: "5s"}},
		{"npm test", Command{Program: "npm"}},
		// Split as the shell splits (detect.SplitWords): comments,
		// redirections and a backslash in double quotes.
		{"vbd hook claude # --budget 5s", Command{Program: "vbd", Vbd: true, Hook: true, Harness: "claude"}},
		{"vbd hook claude --budget 5s 2>/dev/null", Command{Program: "vbd", Vbd: true, Hook: true, Harness: "claude", Budget: "5s"}},
		{`"/opt/a\b/vbd" hook claude`, Command{Program: `/opt/a\b/vbd`, Vbd: true, Hook: true, Harness: "claude"}},
		{"vbd hook claude 'unterminated", Command{}},
		{"./vbd-wrapper.sh", Command{Program: "./vbd-wrapper.sh"}},
		// The plugin's launcher (plugin/vbd.sh), as Codex expands it.
		{`sh "/h/.codex/plugins/cache/vbd/vbd/0.1.0/plugin/vbd.sh" hook codex`, Command{Program: "/h/.codex/plugins/cache/vbd/vbd/0.1.0/plugin/vbd.sh", Vbd: true, Hook: true, Harness: "codex"}},
		{"sh ./other/vbd.sh hook codex", Command{Program: "sh"}},
		{"", Command{}},
	} {
		if got := InspectCommand(tc.cmd, testExe); got != tc.want {
			t.Errorf("InspectCommand(%q) = %+v, want %+v", tc.cmd, got, tc.want)
		}
	}
}

func TestHookCommand(t *testing.T) {
	if got := HookCommand("/a b/vbd", Gemini, 50*time.Second, true, 5); got != "'/a b/vbd' hook gemini --budget 50s --quick --max-blocks 5" {
		t.Errorf("HookCommand = %q", got)
	}
}

// TestTiming: vbd's watchdog (budget + margin) always answers before the
// timeout it writes, and the timeout follows ×1.5 + 30s.
func TestTiming(t *testing.T) {
	if tm := timingFromSuite(30 * time.Second); tm.Timeout != 75*time.Second || tm.Budget != 65*time.Second {
		t.Errorf("30s suite: %+v", tm)
	}
	if tm := timingFromBudget(540 * time.Second); tm.Timeout != 600*time.Second {
		t.Errorf("540s budget: %+v", tm)
	}
	for _, d := range []time.Duration{0, time.Millisecond, time.Second, 45 * time.Second, 7 * time.Minute, 2 * time.Hour} {
		for _, tm := range []Timing{timingFromSuite(d), timingFromBudget(max(d, time.Second))} {
			if tm.Budget+Margin(tm.Budget) >= tm.Timeout || tm.Budget <= 0 || tm.Why == "" {
				t.Errorf("%s: %+v leaves vbd no time to answer", d, tm)
			}
		}
	}
	for _, n := range Names {
		s, _ := Lookup(n)
		if s.DefaultBudget+Margin(s.DefaultBudget) >= s.DefaultTimeout {
			t.Errorf("%s: default budget %s + margin reaches the default timeout %s", n, s.DefaultBudget, s.DefaultTimeout)
		}
	}
}

// FuzzMergeRoundTrip: whatever a config file holds, mergeConfig either refuses it
// or installs exactly one vbd entry per event while keeping every foreign
// hook in order; merging again changes nothing; stripConfig takes out exactly
// vbd's entries and keeps the foreign ones.
func FuzzMergeRoundTrip(f *testing.F) {
	f.Add(uint8(0), []byte(claudeSettings))
	f.Add(uint8(1), []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say hi"}]}]}}`))
	f.Add(uint8(2), []byte(`{"hooks":{"AfterAgent":[{"matcher":"*","hooks":[{"name":"x","type":"command","command":"x","timeout":5}]}]},"theme":"dark"}`))
	f.Add(uint8(3), []byte(`{"version":1,"hooks":{"stop":[{"command":"./a.sh"},{"command":"vbd hook cursor"}]}}`))
	f.Add(uint8(4), []byte(`{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"echo ok","timeoutSec":5}]}}`))
	f.Add(uint8(6), []byte(`{"Stop":[{"hooks":[{"type":"command","command":"vbd hook devin --budget 5s"}]}],"x":[1,2.50,null]}`))
	f.Add(uint8(0), []byte(""))
	f.Add(uint8(0), []byte("\xef\xbb\xbf{}"))
	f.Add(uint8(0), []byte(`{"hooks":[]}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		spec := specs[int(which)%len(specs)]
		hook := testHook(spec.Name)
		out, err := mergeConfig("f.json", data, spec, hook, ours)
		if err != nil {
			return // refused, and nothing was written
		}
		foreign := func(b []byte) []Entry {
			entries, err := ReadHooks("f.json", b, spec)
			if err != nil {
				t.Fatalf("ReadHooks of a file mergeConfig accepted or wrote: %v\n%s", err, b)
			}
			var out []Entry
			for _, e := range entries {
				if !ours(e.Command) {
					out = append(out, e)
				}
			}
			return out
		}
		before, after := foreign(data), foreign(out)
		if fmt.Sprint(before) != fmt.Sprint(after) {
			t.Fatalf("mergeConfig changed the foreign hooks:\nbefore %v\nafter  %v", before, after)
		}
		entries, _ := ReadHooks("f.json", out, spec)
		if n := len(entries) - len(after); n != len(spec.Events) {
			t.Fatalf("mergeConfig left %d vbd entries, want %d:\n%s", n, len(spec.Events), out)
		}
		again, err := mergeConfig("f.json", out, spec, hook, ours)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("merging twice changed the file (err %v):\n%s\n---\n%s", err, out, again)
		}
		stripped, removed, _, err := stripConfig("f.json", out, spec, ours)
		if err != nil || removed != len(spec.Events) {
			t.Fatalf("stripConfig removed %d (err %v), want %d", removed, err, len(spec.Events))
		}
		if got := foreign(stripped); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Fatalf("stripConfig changed the foreign hooks:\nbefore %v\nafter  %v", before, got)
		}
	})
}
