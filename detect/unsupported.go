package detect

import (
	"fmt"
	"path"
)

// detectUnsupported lists each project vbd recognises but cannot check, as
// a skipped row that names its marker and the [[check]] to add. Without
// it a Gradle or Bazel repository would be told that vbd found nothing,
// as if the project were not there. A directory with a configured check
// is left alone: the user has already said how to check it.
func (d *detector) detectUnsupported() {
	configured := map[string]bool{}
	if cfg := d.opts.Config; cfg != nil {
		for _, cc := range cfg.Checks {
			dir := cc.Dir
			if dir == "" {
				dir = "."
			}
			configured[path.Clean(dir)] = true
		}
	}
	seen := map[string]bool{} // dir + what: build.gradle and build.gradle.kts are one project
	for _, u := range unsupportedMarkers {
		for _, dir := range d.tree.dirsWith(u.file) {
			if configured[dir] || seen[dir+"\x00"+u.what] {
				continue
			}
			seen[dir+"\x00"+u.what] = true
			d.project()
			c := unsupportedCheck(dir, u)
			d.add(ecoUnsupported, c)
			d.warn(c.Reason)
		}
	}
}

// unsupportedCheck is the skipped row for one unsupported project.
func unsupportedCheck(dir string, u unsupportedMarker) Check {
	p := path.Join(dir, u.file)
	where := fmt.Sprintf("run = %q", u.run)
	if dir != "." {
		where = fmt.Sprintf("dir = %q and %s", dir, where)
	}
	return Check{
		Name:   u.file + suffix(dir),
		Kind:   KindOther,
		Argv:   []string{"sh", "-c", u.run},
		Shell:  u.run,
		Dir:    dir,
		Root:   dir,
		Source: p,
		Reason: fmt.Sprintf("%s marks %s, which vbd cannot check yet; to check it, add a [[check]] to %s with %s",
			p, u.what, ConfigFile, where),
		Skipped: Skip{Kind: SkipNotSupported, Detail: u.what},
		Runner:  RunnerOpaque,
	}
}
