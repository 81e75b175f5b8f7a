//go:build !linux

package state

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f.
func mapFile(f *os.File, size int) ([]byte, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return data, nil
}
