package state

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile returns the first size bytes of f, mapped read-only and faulted
// in at once (MAP_POPULATE): for an 8 MB index, read(2) into fresh memory
// cost more than parsing it, in copying and page faults. The mapping is
// never unmapped: the paths a Tree hands out are views of it, and live as
// long as the process. The file may be replaced meanwhile (git renames a
// new index over the old one, never writes it in place); the mapping
// keeps the file that was read.
func mapFile(f *os.File, size int) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", f.Name(), err)
	}
	return data, nil
}
