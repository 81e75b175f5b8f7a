package detect

import (
	"path"
	"slices"
	"strings"
)

// npmManagers are the commands that run package.json scripts.
var npmManagers = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}

// jsRunners are test runners a recipe may call directly.
var jsRunners = map[string]bool{"jest": true, "vitest": true, "mocha": true}

// scanNPM recognises `npm test`, `pnpm run test`, `yarn --cwd web test`,
// `npx jest`, `node --test` and `npm run lint` in one command.
func scanNPM(words []string, cur string) []makeRef {
	cmd := path.Base(words[0])
	switch {
	case jsRunners[cmd]:
		return []makeRef{{refNPMTest, cur}}
	case cmd == "node":
		if slices.Contains(words[1:], "--test") {
			return []makeRef{{refNPMTest, cur}}
		}
		return nil
	case cmd == "npx":
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				if jsRunners[path.Base(w)] {
					return []makeRef{{refNPMTest, cur}}
				}
				return nil
			}
		}
		return nil
	case !npmManagers[cmd]:
		return nil
	}
	dir, ok := cur, true
	var verbs []string
	args := words[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--prefix" || a == "-C" || a == "--dir" || a == "--cwd":
			if i+1 < len(args) {
				i++
				dir, ok = joinRel(dir, args[i])
			}
		case strings.HasPrefix(a, "--prefix=") || strings.HasPrefix(a, "--dir=") || strings.HasPrefix(a, "--cwd="):
			_, v, _ := strings.Cut(a, "=")
			dir, ok = joinRel(dir, v)
		case strings.HasPrefix(a, "-"):
		default:
			verbs = append(verbs, a)
		}
		if len(verbs) == 2 {
			break
		}
	}
	if !ok || len(verbs) == 0 {
		return nil
	}
	script := ""
	switch verbs[0] {
	case "test", "t", "tst":
		script = "test"
	case "run", "run-script":
		if len(verbs) > 1 {
			script = verbs[1]
		}
	}
	switch script {
	case "test":
		return []makeRef{{refNPMTest, dir}}
	case "lint":
		return []makeRef{{refNPMLint, dir}}
	}
	return nil
}

// ecoNPM is package.json scripts.
const ecoNPM ecoID = "npm"

// coversNPM: a test entry point running the test script covers it, a lint
// entry point the lint script.
func coversNPM(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	switch ref.what {
	case refNPMTest:
		return testTarget && n.check.Kind == KindTest
	case refNPMLint:
		return !testTarget && n.check.Kind == KindLint && len(n.check.Argv) == 3 && n.check.Argv[2] == "lint"
	}
	return false
}
