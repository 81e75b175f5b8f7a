package verdict

// nx run-many / nx affected: the projects' runners print inside its output
// (vbd runs it with --outputStyle=static, so their lines are unprefixed).
// Its own line matters once: a run that selected no task (`nx affected`
// with no affected project).
func nxMatcher() textMatcher {
	return textMatcher{first: "N", line: (*textScanner).nxLine, maxIndent: 1}
}

func (s *textScanner) nxLine(_, t []byte) bool {
	if hasPrefix(t, "NX   No tasks were run") {
		s.zero(rNx, "nx ran no task")
		return true
	}
	return false
}
