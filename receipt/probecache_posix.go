//go:build linux || darwin

package receipt

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// fileIdentity is what tells a replaced file from the one that was there
// besides its size and mtime, which a copy can keep: its device, inode
// and ctime (which no one sets by hand).
func fileIdentity(path string) (string, bool) {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return "", false
	}
	sec, nsec := st.Ctim.Unix()
	return strconv.FormatUint(uint64(st.Dev), 10) + " " + strconv.FormatUint(st.Ino, 10) + " " +
		strconv.FormatInt(sec, 10) + "." + strconv.FormatInt(nsec, 10), true
}
