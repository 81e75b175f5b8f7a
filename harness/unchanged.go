package harness

// UnchangedError is a config file vbd refused to rewrite because it cannot
// merge into it safely (its "hooks" are not what the harness documents):
// vbd changed nothing, and the user must fix the file first. Install and
// uninstall match it with errors.As.
type UnchangedError struct {
	Err error
}

func (e *UnchangedError) Error() string { return e.Err.Error() }

func (e *UnchangedError) Unwrap() error { return e.Err }
