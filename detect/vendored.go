package detect

import (
	"bufio"
	"bytes"
	"io/fs"
	"maps"
	"path"
	"strings"
)

// vendoredPatterns reads the root .gitattributes' patterns whose files
// are not the project's own: linguist-vendored, linguist-generated and
// -diff (set, not unset or =false). A marker file they match (a vendored
// tests/unity/Makefile) is no project root.
func vendoredPatterns(fsys fs.FS) []string {
	data, err := fs.ReadFile(fsys, ".gitattributes")
	if err != nil || len(data) > 1<<20 {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], "!") {
			continue
		}
		for _, attr := range f[1:] {
			switch attr {
			case "linguist-vendored", "linguist-vendored=true", "linguist-generated", "linguist-generated=true", "-diff":
				out = append(out, f[0])
			}
		}
	}
	return out
}

// attrMatch reports whether a gitattributes pattern matches a file: a
// pattern without a slash matches the base name at any depth; one with a
// slash is anchored at the root, with ** matching any number of
// directories and a trailing /** everything below.
func attrMatch(pattern, file string) bool {
	if !strings.Contains(strings.TrimSuffix(pattern, "/"), "/") {
		ok, _ := path.Match(pattern, path.Base(file))
		return ok
	}
	return globSegments(strings.Split(strings.TrimPrefix(pattern, "/"), "/"), strings.Split(file, "/"))
}

// globSegments matches path segments with ** as any run of them.
func globSegments(p, f []string) bool {
	for len(p) > 0 {
		if p[0] == "**" {
			if len(p) == 1 {
				return true
			}
			for i := range len(f) + 1 {
				if globSegments(p[1:], f[i:]) {
					return true
				}
			}
			return false
		}
		if len(f) == 0 {
			return false
		}
		if ok, _ := path.Match(p[0], f[0]); !ok {
			return false
		}
		p, f = p[1:], f[1:]
	}
	return len(f) == 0
}

// withoutVendored is t without the marker files patterns mark as not the
// project's; t itself, shared with the caller, is left as it was.
func withoutVendored(t *tree, patterns []string) *tree {
	if len(patterns) == 0 {
		return t
	}
	out := *t
	out.markers = make(map[string]map[string]bool, len(t.markers))
	for dir, names := range t.markers {
		kept := map[string]bool{}
		for name := range maps.Keys(names) {
			f := path.Join(dir, name)
			vendored := false
			for _, p := range patterns {
				if attrMatch(p, f) {
					vendored = true
					break
				}
			}
			if !vendored {
				kept[name] = true
			}
		}
		if len(kept) > 0 {
			out.markers[dir] = kept
		}
	}
	return &out
}
