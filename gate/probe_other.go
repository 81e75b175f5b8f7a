//go:build !linux

package gate

import "io/fs"

// statKeys: without the inode and ctime a stat cannot vouch for a file's
// content (no key can tell a write whose mtime was restored), so Probes
// vouch for nothing and every computation is made again.
const statKeys = false

func keyOfStat(fs.FileInfo) (statKey, bool) { return statKey{}, false }
