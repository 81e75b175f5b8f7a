package runner

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// pipeBytes is the pipe size asked for; Linux grants up to
// /proc/sys/fs/pipe-max-size (1 MB by default) to an unprivileged process.
const pipeBytes = 1 << 20

// growPipe widens the pipe a check writes its output into. A failure
// changes nothing but speed, so it is ignored.
func growPipe(r io.Reader) {
	sc, ok := r.(syscall.Conn)
	if !ok {
		return
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeBytes)
	})
}
