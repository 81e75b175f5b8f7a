//go:build linux

package receipt

import (
	"os"
	"strconv"
	"syscall"
)

// fileIdentity is what tells a replaced file from the one that was there
// besides its size and mtime, which a copy can keep: its device, inode
// and ctime (which no one sets by hand).
func fileIdentity(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	sec, nsec := st.Ctim.Unix()
	return strconv.FormatUint(uint64(st.Dev), 10) + " " + strconv.FormatUint(st.Ino, 10) + " " +
		strconv.FormatInt(sec, 10) + "." + strconv.FormatInt(nsec, 10), true
}
