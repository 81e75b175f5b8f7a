//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// upperScanner translates lines starting with "{" (as the go test -json
// scanner does), drops lines "drop", and passes everything else through.
type upperScanner struct{ seen int }

func (s *upperScanner) Line(l []byte) []byte {
	s.seen++
	switch {
	case bytes.Equal(l, []byte("drop")):
		return nil
	case len(l) > 0 && l[0] == '{':
		return []byte("T:" + strings.ToUpper(string(l[1:])) + "\nsecond line\n")
	}
	return l
}

// quietUpperScanner is upperScanner that passes over the lines it leaves
// alone in runs, as the text scanner does (QuietScanner).
type quietUpperScanner struct{ upperScanner }

func (s *quietUpperScanner) QuietLines(b []byte, maxLen int) (n, lines int) {
	for {
		i := bytes.IndexByte(b[n:], '\n')
		if i < 0 || i > maxLen {
			return n, lines
		}
		if l := b[n : n+i]; bytes.Equal(l, []byte("drop")) || len(l) > 0 && l[0] == '{' {
			return n, lines
		}
		s.seen++
		n, lines = n+i+1, lines+1
	}
}

// reference is the capture as it was before the ring: every line through
// the scanner, its text logged, the tail cut line by line.
func reference(out []byte, s Scanner, tailN int) (log []byte, tail []string, lines int) {
	var all []string
	emit := func(line []byte) {
		for len(line) > maxLineBytes {
			emitRef(line[:maxLineBytes], s, &log, &all, &lines)
			line = line[maxLineBytes:]
		}
		emitRef(line, s, &log, &all, &lines)
	}
	rest := out
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			emit(rest)
			break
		}
		emit(rest[:i])
		rest = rest[i+1:]
	}
	if len(all) > tailN {
		all = all[len(all)-tailN:]
	}
	return log, all, lines
}

func emitRef(line []byte, s Scanner, log *[]byte, all *[]string, lines *int) {
	*lines++
	text := append(make([]byte, 0, len(line)), line...)
	if s != nil {
		if text = s.Line(text); text == nil {
			return
		}
	}
	*log = append(*log, text...)
	if len(text) == 0 || text[len(text)-1] != '\n' {
		*log = append(*log, '\n')
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(text, []byte("\n")), []byte("\n")) {
		*all = append(*all, cleanTailLine(l))
	}
}

// feed writes out into a capture in chunks of the given size and returns
// what it kept.
func feed(t testing.TB, out []byte, chunk int, s Scanner, tailN int, head, tail int64) (log []byte, c *capture) {
	path := filepath.Join(t.TempDir(), "log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	c = newCapture(s, tailN)
	c.setLog(newCappedLog(f, head, tail))
	for rest := out; len(rest) > 0; {
		n := min(chunk, len(rest))
		_, _ = c.Write(rest[:n])
		rest = rest[n:]
	}
	c.close()
	log, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return log, c
}

func checkAgainstReference(t *testing.T, out []byte, chunk int, withScanner bool) {
	t.Helper()
	checkScannerAgainstReference(t, out, chunk, withScanner, false)
	if withScanner {
		checkScannerAgainstReference(t, out, chunk, true, true)
	}
}

func checkScannerAgainstReference(t *testing.T, out []byte, chunk int, withScanner, quiet bool) {
	t.Helper()
	var s1, s2 Scanner
	var seen *int
	switch {
	case quiet:
		q := &quietUpperScanner{}
		s1, s2, seen = &upperScanner{}, q, &q.seen
	case withScanner:
		u := &upperScanner{}
		s1, s2, seen = &upperScanner{}, u, &u.seen
	}
	const tailN = 7
	wantLog, wantTail, wantLines := reference(out, s1, tailN)
	log, c := feed(t, out, chunk, s2, tailN, 1<<30, 1<<30)
	if !bytes.Equal(log, wantLog) {
		t.Errorf("chunk %d (quiet runs %v): log differs\n got %.300q\nwant %.300q", chunk, quiet, log, wantLog)
	}
	if got := c.tailLines(); strings.Join(got, "\x00") != strings.Join(wantTail, "\x00") {
		t.Errorf("chunk %d (quiet runs %v): tail differs\n got %.300q\nwant %.300q", chunk, quiet, strings.Join(got, "|"), strings.Join(wantTail, "|"))
	}
	if c.lines != int64(wantLines) || c.bytes != int64(len(out)) {
		t.Errorf("chunk %d (quiet runs %v): counted %d lines %d bytes, want %d lines %d bytes", chunk, quiet, c.lines, c.bytes, wantLines, len(out))
	}
	if seen != nil && *seen != wantLines {
		t.Errorf("chunk %d (quiet runs %v): scanner saw %d lines, want %d", chunk, quiet, *seen, wantLines)
	}
}

var captureSeeds = []string{
	"",
	"one line\n",
	"no newline at the end",
	"a\nb\n\n\nc\n",
	"drop\nkept\ndrop\n",
	"{json\nplain\n{more\n",
	"progress 10%\rprogress 50%\rprogress 100%\r\ndone\n",
	"\x1b[31mred\x1b[0m line\n",
	strings.Repeat("x", 1500) + "\nafter a long line\n",
	strings.Repeat("y", 40000) + "\n" + strings.Repeat("z", 20000),
	strings.Repeat("w", 1200) + "\r" + strings.Repeat("v", 30) + "\n",
	strings.Repeat("line of noise\n", 100),
	"crlf\r\nlines\r\n",
}

// The ring and the runs of passed-through lines change nothing that is
// kept: the log, the tail, the counts and the scanner's lines are those of
// handling every line on its own, whatever the chunking.
func TestCaptureMatchesLineByLine(t *testing.T) {
	for i, seed := range captureSeeds {
		for _, chunk := range []int{1, 3, 64, 4096, 1 << 20} {
			for _, sc := range []bool{false, true} {
				t.Run(fmt.Sprintf("seed%d/chunk%d/scanner=%v", i, chunk, sc), func(t *testing.T) {
					checkAgainstReference(t, []byte(seed), chunk, sc)
				})
			}
		}
	}
}

func FuzzCapture(f *testing.F) {
	for _, s := range captureSeeds {
		f.Add([]byte(s), uint16(5))
	}
	f.Fuzz(func(t *testing.T, out []byte, chunk uint16) {
		// Escapes inside a line cut for length are stripped after the cut,
		// not before; the shown text may then differ by design.
		for l := range bytes.SplitSeq(out, []byte("\n")) {
			if len(l) > maxTailLineBytes && bytes.IndexByte(l, 0x1b) >= 0 {
				t.Skip()
			}
		}
		checkAgainstReference(t, out, int(chunk)+1, true)
	})
}

// A check printing far more than head+tail leaves a log of head+tail bytes
// with the gap marked and counted, whatever the chunking.
func TestLogKeepsHeadAndTail(t *testing.T) {
	var out bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&out, "line %d\n", i)
	}
	const head, tail = 100, 1000
	for _, chunk := range []int{7, 999, 1 << 20} {
		log, c := feed(t, out.Bytes(), chunk, nil, 10, head, tail)
		dropped := int64(out.Len()) - head - tail
		want := string(out.Bytes()[:head]) + gapMarker(dropped, head, tail) + string(out.Bytes()[out.Len()-tail:])
		if string(log) != want {
			t.Fatalf("chunk %d: log is\n%q\nwant\n%q", chunk, log, want)
		}
		if c.log.dropped() != dropped || c.log.err != nil {
			t.Errorf("dropped %d err %v, want %d and no error", c.log.dropped(), c.log.err, dropped)
		}
	}
	// Exactly head+tail bytes: nothing dropped, no marker.
	exact := append(bytes.Repeat([]byte("x"), head+tail-1), '\n')
	if log, _ := feed(t, exact, 64, nil, 10, head, tail); !bytes.Equal(log, exact) {
		t.Errorf("a log of exactly head+tail bytes was changed")
	}
}

// A 100 MB check leaves at most 17 MB on disk, with the gap marked.
func TestHundredMegabyteLogIsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 100 MB")
	}
	dir := t.TempDir()
	task := sh("loud", "yes 'line of noise' | head -c 100000000; echo; echo the end")
	r := Run(context.Background(), []Task{task}, Options{LogDir: dir})[0]
	if r.Status != Exited || r.ExitCode != 0 || r.Bytes < 100_000_000 {
		t.Fatalf("got %s exit %d, %d bytes", r.Status, r.ExitCode, r.Bytes)
	}
	fi, err := os.Stat(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(defaultLogHead + defaultLogTail + 200); fi.Size() > limit {
		t.Errorf("log holds %d bytes, over the cap of %d", fi.Size(), limit)
	}
	wantDropped := r.Bytes - defaultLogHead - defaultLogTail
	if r.LogDropped != wantDropped || r.LogErr != nil {
		t.Errorf("LogDropped %d (want %d), LogErr %v", r.LogDropped, wantDropped, r.LogErr)
	}
	f, err := os.Open(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := make([]byte, 64)
	if _, err := io.ReadFull(f, start); err != nil || !strings.HasPrefix(string(start), "line of noise\nline of noise\n") {
		t.Errorf("log starts %q (%v)", start, err)
	}
	data, err := os.ReadFile(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(gapMarker(wantDropped, defaultLogHead, defaultLogTail))) {
		t.Error("log has no gap marker")
	}
	if !bytes.HasSuffix(data, []byte("\nthe end\n")) {
		t.Errorf("log ends %q", data[len(data)-40:])
	}
	if got := r.Tail[len(r.Tail)-1]; got != "the end" {
		t.Errorf("tail ends %q", got)
	}
}

// On a full disk the log is incomplete, and the result says so in words.
func TestFullDiskMarksTheLogIncomplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newCappedLog(f, 0, 0)
	written := 0
	l.writeAt = func(b []byte, off int64) (int, error) {
		if written > 100 {
			return 0, &os.PathError{Op: "write", Path: path, Err: syscall.ENOSPC}
		}
		written += len(b)
		return f.WriteAt(b, off)
	}
	c := newCapture(nil, 10)
	c.setLog(l)
	for range 5000 {
		_, _ = c.Write([]byte("some output that fills the disk\n"))
	}
	c.close()
	r := Result{LogPath: path, LogErr: l.err}
	if got, want := r.LogNote(), "log incomplete: no space left on device"; got != want {
		t.Errorf("LogNote() = %q, want %q (err %v)", got, want, l.err)
	}
	if (Result{LogPath: path}).LogNote() != "" {
		t.Error("a whole log has a note")
	}
	if len(c.tailLines()) != 10 {
		t.Error("the tail was lost with the log")
	}
}

// /dev/full fails every write with ENOSPC, as a full disk does.
func TestDevFullLog(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	l := newCappedLog(f, 0, 0)
	l.write(bytes.Repeat([]byte("x"), logBufSize+1))
	l.close()
	if got := (Result{LogErr: l.err}).LogNote(); got != "log incomplete: no space left on device" {
		t.Errorf("LogNote() = %q (err %v)", got, l.err)
	}
}

func benchOutput(lineLen int) []byte {
	line := append(bytes.Repeat([]byte("y"), lineLen-1), '\n')
	return bytes.Repeat(line, (1<<20)/lineLen)
}

// BenchmarkCapture feeds output in the 32 KB writes os/exec makes, for
// `yes` (2-byte lines) and 80-byte lines, with no scanner and with one that
// passes lines through, as the text scanner does.
func BenchmarkCapture(b *testing.B) {
	for _, lineLen := range []int{2, 80} {
		for _, withScanner := range []bool{false, true} {
			b.Run(fmt.Sprintf("line%d/scanner=%v", lineLen, withScanner), func(b *testing.B) {
				out := benchOutput(lineLen)
				f, err := os.Create(filepath.Join(b.TempDir(), "log"))
				if err != nil {
					b.Fatal(err)
				}
				var s Scanner
				if withScanner {
					s = passScanner{}
				}
				c := newCapture(s, defaultTailLines)
				c.setLog(newCappedLog(f, 0, 0))
				b.SetBytes(int64(len(out)))
				b.ResetTimer()
				for b.Loop() {
					for rest := out; len(rest) > 0; rest = rest[min(32<<10, len(rest)):] {
						_, _ = c.Write(rest[:min(32<<10, len(rest))])
					}
				}
				b.StopTimer()
				c.close()
				_ = c.tailLines()
			})
		}
	}
}

type passScanner struct{}

func (passScanner) Line(l []byte) []byte { return l }

// BenchmarkTrivialCheck is the cost of running `true` as a check (process
// group, marker, capture, the sweep for escapees) beside running it bare.
func BenchmarkTrivialCheck(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
		dir := b.TempDir()
		for b.Loop() {
			Run(context.Background(), []Task{{Name: "true", Argv: []string{"true"}}}, Options{LogDir: dir})
		}
	})
}

// A log that cannot even be created costs the log, not the check.
func TestUncreatableLogStillRunsTheCheck(t *testing.T) {
	r := Run(context.Background(), []Task{sh("runs", "echo ran")}, Options{LogDir: filepath.Join(t.TempDir(), "missing")})[0]
	if r.Status != Exited || r.ExitCode != 0 || strings.Join(r.Tail, "") != "ran" {
		t.Fatalf("got %s exit %d tail %q", r.Status, r.ExitCode, r.Tail)
	}
	if r.LogPath != "" || !strings.HasPrefix(r.LogNote(), "log incomplete: ") {
		t.Errorf("LogPath %q, LogNote %q", r.LogPath, r.LogNote())
	}
}
