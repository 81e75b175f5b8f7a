package harness

import "slices"

// Bystander is a harness whose stop hook cannot refuse a stop
// (docs/harness-contracts.md §12): vbd cannot keep its agent from
// stopping unverified, and `vbd install <name>` says so, and installs the
// git gate, which does hold.
type Bystander struct {
	Name  Name
	Title string
	// Why says what its hooks can and cannot do, in one sentence.
	Why string
	// Instead is what else could re-open the work there, if anything.
	Instead string
}

// bystanders is the table of harnesses that cannot refuse a stop, in
// display order: adding one is a row here.
var bystanders = []Bystander{
	{Name: "kiro", Title: "Kiro CLI",
		Why: "its stop hook runs when the agent stops, but exit 2 blocks only PreToolUse; a stop hook's output only goes into the context"},
	{Name: "windsurf", Title: "Windsurf (Cascade)",
		Why: "only its pre-hooks block (exit 2); post_cascade_response, after the answer, only observes"},
	{Name: "cline", Title: "Cline",
		Why: "TaskComplete fires after the final output; whether a hook can re-open the task is unconfirmed"},
	{Name: "opencode", Title: "opencode",
		Why:     "it has no command stop hook: session.idle fires after the agent loop has ended",
		Instead: "a plugin can send the session a new prompt through its client, which is how a gate could re-open the work there; vbd ships none yet"},
}

// BystanderNames lists the harnesses that cannot refuse a stop.
var BystanderNames = bystanderNames()

func bystanderNames() []Name {
	out := make([]Name, 0, len(bystanders))
	for _, b := range bystanders {
		out = append(out, b.Name)
	}
	return out
}

// LookupBystander returns the facts of a harness that cannot refuse a
// stop.
func LookupBystander(n Name) (Bystander, bool) {
	i := slices.IndexFunc(bystanders, func(b Bystander) bool { return b.Name == n })
	if i < 0 {
		return Bystander{}, false
	}
	return bystanders[i], true
}
