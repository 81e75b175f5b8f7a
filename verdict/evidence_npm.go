package verdict

import "github.com/vbd-dev/vbd/internal/lazyre"

// npm's own messages: the placeholder `npm init` writes, a missing script.
var (
	npmPlaceholder   = lazyre.New(`^Error: no test specified$`)
	npmMissingScript = lazyre.New(`^npm (?:error|ERR!) Missing script: ".+"$`)
)

func npmMatcher() textMatcher {
	return textMatcher{first: "En", line: (*textScanner).npmLine, maxIndent: 0}
}

func (s *textScanner) npmLine(l, t []byte) bool {
	switch t[0] {
	case 'E':
		if hasPrefix(l, "Error: no test") && npmPlaceholder.Match(l) {
			s.setNotConfigured("npm-init placeholder script", "npm")
			return true
		}
	case 'n':
		if hasPrefix(l, "npm ") && npmMissingScript.Match(l) {
			s.setNotConfigured("missing script", "npm")
			return true
		}
	}
	return false
}
