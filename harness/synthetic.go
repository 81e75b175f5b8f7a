package harness

import (
	"encoding/json"
	"os"
)

// SyntheticEvent is the stdin a harness would send a hook for event, in its
// own shape (docs/harness-contracts.md), for a session in dir. vbd doctor
// --prove feeds it to the installed hook command.
func SyntheticEvent(n Name, event, dir, session string) []byte {
	m := claudeLikeStop(event, dir, session)
	if spec := specOf(n); spec.synthetic != nil {
		m = spec.synthetic(event, dir, session)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

// HookEnv is os.Environ plus what harness n adds for its hooks, as far as
// the contract knows it.
func HookEnv(n Name, dir string) []string {
	env := os.Environ()
	if spec := specOf(n); spec.env != nil {
		env = append(env, spec.env(dir)...)
	}
	return env
}
