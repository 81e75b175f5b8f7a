package state

import (
	"io/fs"
	"syscall"
)

// keyOf is what a file's stat says about its content: if none of it
// changed, neither did the content (see fileKey.racy for when that
// holds). ctime is in it because no program can set it: a tool that
// restores mtimes (cp -p, tar, rsync -t) still moves ctime.
func keyOf(fi fs.FileInfo) fileKey {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}
	}
	return fileKey{
		ok: true, dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}
