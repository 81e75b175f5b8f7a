package verdict

// turbo run: the packages' runners print inside its output (vbd runs it
// with --log-prefix=none, so their lines are read as they are). Its own
// lines matter once: a run that selected no task (`--affected` with no
// change that touches a package, or no package defining the task).
func turboMatcher() textMatcher {
	return textMatcher{first: "W", line: (*textScanner).turboLine, maxIndent: 1}
}

func (s *textScanner) turboLine(_, t []byte) bool {
	if hasPrefix(t, "WARNING  No tasks were executed as part of this run.") {
		s.zero(rTurbo, "turbo ran no task")
		return true
	}
	return false
}
