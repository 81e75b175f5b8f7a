package state

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"unsafe"
)

// errIndexUnsupported means the index uses a feature readIndex leaves to
// git (a split or sparse index, an unknown required extension, a version
// other than 2 to 4) or does not parse as one: the caller asks
// `git ls-files` instead, which reads any index git can.
var errIndexUnsupported = errors.New("index format left to git")

// indexListing is what readIndex makes of the index file: the same as
// `git ls-files -z -v -c [-s]` would print, without a git process.
type indexListing struct {
	// records holds, with staged, one `ls-files -s -v -z` record per
	// entry, "H 100644 <oid> 0\t<path>\x00", in index order.
	records []byte
	// tracked is every path once (an unmerged path has an entry per
	// stage), in index order, which is sorted.
	tracked []string
	key     fileKey
}

// readIndex reads git's index file at path, as `git ls-files -z -v -c`
// would list it (with -s when staged), in a fraction of its time: on a
// 100k-file tree ls-files spends about 120 ms of CPU reading and printing
// an 8 MB index, vbd's own read about a tenth of that, and no process
// starts. hashLen is the object id's length in bytes (20 for SHA-1, 32
// for SHA-256). A missing index is an empty one, as for git.
//
// The format is git's (Documentation/gitformat-index.txt): a header
// "DIRC", version, entry count; the entries, sorted by path and stage;
// then extensions, each named by four bytes, whose name starts with a
// capital letter when git may ignore it. Like git's own reads, the
// trailing checksum is not verified (git checks it only in fsck).
func readIndex(path string, hashLen int, staged bool) (indexListing, error) {
	var l indexListing
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		// Listed, and empty: a fresh repository before its first add
		// lists no file, which is not "no list".
		l.tracked = []string{}
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read the index: %w", err)
	}
	defer f.Close()
	// The stat of the open file is the stat of what is read: git
	// replaces the index by renaming a new file over it, never in place.
	fi, err := f.Stat()
	if err != nil {
		return l, fmt.Errorf("read the index: %w", err)
	}
	if fi.Size() > 1<<32 {
		return l, errIndexUnsupported
	}
	data, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return l, fmt.Errorf("read the index: %w", err)
	}
	l.key = keyOf(fi)
	if err := parseIndex(&l, data, hashLen, staged); err != nil {
		return indexListing{}, err
	}
	return l, nil
}

// Entry flags (git's read-cache.c).
const (
	ceNameMask     = 0x0fff
	ceStageMask    = 0x3000
	ceExtended     = 0x4000
	ceValid        = 0x8000 // assume-unchanged
	ceSkipWorktree = 0x4000 // in the extended flags
	ceIntentToAdd  = 0x2000 // in the extended flags
)

// parseIndex parses an index file's bytes into l. Any inconsistency is
// errIndexUnsupported: git then reads it, and says what is wrong.
func parseIndex(l *indexListing, data []byte, hashLen int, staged bool) error {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return errIndexUnsupported
	}
	version := binary.BigEndian.Uint32(data[4:8])
	count := int(binary.BigEndian.Uint32(data[8:12]))
	if version < 2 || version > 4 || count > len(data)/40 {
		return errIndexUnsupported
	}
	end := len(data) - hashLen // the checksum
	l.tracked = make([]string, 0, count)
	if staged {
		// Each record is shorter than its entry on disk.
		l.records = make([]byte, 0, len(data))
	}
	var (
		prev  []byte // v4: the previous path, which the next one shares a prefix with
		names []byte // v4: where rebuilt paths are kept
		hexID = make([]byte, 2*hashLen)
	)
	at := 12
	for range count {
		base := 40 + hashLen + 2
		if at+base > end {
			return errIndexUnsupported
		}
		mode := binary.BigEndian.Uint32(data[at+24:])
		id := data[at+40 : at+40+hashLen]
		flags := binary.BigEndian.Uint16(data[at+40+hashLen:])
		var ext uint16
		if flags&ceExtended != 0 {
			if version < 3 || at+base+2 > end {
				return errIndexUnsupported
			}
			ext = binary.BigEndian.Uint16(data[at+base:])
			base += 2
			if ext&^(ceSkipWorktree|ceIntentToAdd) != 0 {
				return errIndexUnsupported // flags this vbd does not know
			}
		}
		nameAt := at + base
		var name []byte
		if version == 4 {
			strip, n := indexVarint(data[nameAt:end])
			if n == 0 || strip > len(prev) {
				return errIndexUnsupported
			}
			suffix, ok := cstring(data[nameAt+n : end])
			if !ok {
				return errIndexUnsupported
			}
			if names == nil {
				names = make([]byte, 0, len(data))
			}
			start := len(names)
			names = append(names, prev[:len(prev)-strip]...)
			names = append(names, suffix...)
			name = names[start:len(names):len(names)]
			at = nameAt + n + len(suffix) + 1
		} else {
			n := int(flags & ceNameMask)
			if n == ceNameMask {
				// A name of 4095 bytes or more: its length is where
				// its NUL is.
				s, ok := cstring(data[nameAt:end])
				if !ok {
					return errIndexUnsupported
				}
				n = len(s)
			}
			if nameAt+n >= end || data[nameAt+n] != 0 {
				return errIndexUnsupported
			}
			name = data[nameAt : nameAt+n]
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			at += (base + n + 8) &^ 7
		}
		if len(name) == 0 || mode&0o170000 == 0o040000 {
			return errIndexUnsupported // a sparse index's directory entry
		}
		prev = name
		stage := (flags & ceStageMask) >> 12
		var p string
		if staged {
			// "%s%06o %s %d\t" and the name: ls-files -s -v's record.
			tag := byte('H')
			switch {
			case stage != 0:
				tag = 'M'
			case ext&ceSkipWorktree != 0:
				tag = 'S'
			}
			if flags&ceValid != 0 {
				tag += 'a' - 'A'
			}
			r := append(l.records, tag, ' ')
			m := strconv.AppendUint(hexID[:0], uint64(mode), 8)
			for range 6 - len(m) {
				r = append(r, '0')
			}
			r = append(r, m...)
			r = append(r, ' ')
			hex.Encode(hexID, id)
			r = append(r, hexID...)
			r = append(r, ' ', byte('0'+stage), '\t')
			pathAt := len(r)
			r = append(r, name...)
			r = append(r, 0)
			p = unsafe.String(&r[pathAt], len(name))
			l.records = r
		} else {
			// The file's bytes are never written again: the path is a
			// view of them.
			p = unsafe.String(&name[0], len(name))
		}
		// Only an unmerged path has several entries, one per stage.
		if n := len(l.tracked); stage == 0 || n == 0 || l.tracked[n-1] != p {
			l.tracked = append(l.tracked, p)
		}
	}
	// The extensions: one that git may not ignore (a split index's
	// "link", a sparse index's "sdir") changes what the entries mean.
	for at+8 <= end {
		sig := data[at : at+4]
		size := int(binary.BigEndian.Uint32(data[at+4:]))
		if sig[0] < 'A' || sig[0] > 'Z' || size < 0 || at+8+size > end {
			return errIndexUnsupported
		}
		at += 8 + size
	}
	if at != end {
		return errIndexUnsupported
	}
	return nil
}

// indexVarint decodes git's offset varint (varint.c), returning the value
// and the bytes it took, or 0 bytes when it is cut or overflows.
func indexVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || val >= 1<<50 {
			return 0, 0
		}
		val++
		c = b[i]
		i++
		val = val<<7 + uint64(c&127)
	}
	return int(val), i
}

// cstring returns b up to its first NUL, and whether there is one.
func cstring(b []byte) ([]byte, bool) {
	for i, c := range b {
		if c == 0 {
			return b[:i], true
		}
	}
	return nil, false
}
