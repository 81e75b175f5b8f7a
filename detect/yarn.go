package detect

import (
	"bytes"
	"path"
)

// yarnClassicInstall installs Yarn 1's locked dependencies without
// changing yarn.lock; `--immutable` is Yarn 2 and later's spelling, which
// Yarn 1 does not know.
const yarnClassicInstall = "yarn install --frozen-lockfile"

// yarnClassic reports whether the yarn.lock nearest dir (in it or a
// directory above, where a workspace keeps it) is Yarn 1's: it starts with
// "# yarn lockfile v1", where Yarn 2+ writes a __metadata: block.
func (d *detector) yarnClassic(dir string) bool {
	for p := dir; ; p = parentDir(p) {
		if d.tree.has(p, "yarn.lock") {
			data, ok := d.read(path.Join(p, "yarn.lock"))
			if !ok {
				return false
			}
			return bytes.Contains(data[:min(len(data), 512)], []byte("# yarn lockfile v1"))
		}
		if p == "." {
			return false
		}
	}
}
