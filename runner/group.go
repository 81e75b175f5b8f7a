package runner

// What a check's processGroup (proc_unix.go, proc_windows.go) says after
// its end.

func (g *processGroup) wasCancelled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cancelled
}

// installAtCancel is the tool install the group was running when it was
// cancelled, or "".
func (g *processGroup) installAtCancel() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.installing
}
