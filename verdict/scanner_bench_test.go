package verdict

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// benchBlock is about 1 MB of one kind of typical output, as lines.
func benchBlock(kind string) [][]byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		switch kind {
		case "go-json":
			fmt.Fprintf(&b, `{"Time":"2026-11-30T02:20:04.133355153Z","Action":"run","Package":"example.com/pkg","Test":"TestThing%d"}`+"\n", i)
			fmt.Fprintf(&b, `{"Time":"2026-11-30T02:20:04.133357798Z","Action":"output","Package":"example.com/pkg","Test":"TestThing%d","Output":"=== RUN   TestThing%d\n"}`+"\n", i, i)
			fmt.Fprintf(&b, `{"Time":"2026-11-30T02:20:04.133360619Z","Action":"output","Package":"example.com/pkg","Test":"TestThing%d","Output":"    thing_test.go:42: checked %d values\n"}`+"\n", i, i)
			fmt.Fprintf(&b, `{"Time":"2026-11-30T02:20:04.133364778Z","Action":"output","Package":"example.com/pkg","Test":"TestThing%d","Output":"--- PASS: TestThing%d (0.00s)\n"}`+"\n", i, i)
			fmt.Fprintf(&b, `{"Time":"2026-11-30T02:20:04.133371456Z","Action":"pass","Package":"example.com/pkg","Test":"TestThing%d","Elapsed":0}`+"\n", i)
		case "go-v":
			fmt.Fprintf(&b, "=== RUN   TestThing%d\n    thing_test.go:42: checked %d values\n--- PASS: TestThing%d (0.00s)\n", i, i, i)
		case "jest":
			if i%20 == 0 {
				fmt.Fprintf(&b, "PASS src/module%d.test.js\n", i)
			}
			fmt.Fprintf(&b, "  ✓ renders the component with %d props (%d ms)\n", i, i%7)
		case "pytest":
			fmt.Fprintf(&b, "tests/test_module.py::test_case_%d PASSED                                  [ %2d%%]\n", i, i%100)
		case "cargo":
			fmt.Fprintf(&b, "test tests::module::case_%d ... ok\n", i)
		case "noise":
			if i%2 == 0 {
				fmt.Fprintf(&b, "2026-11-30 12:00:%02d.%03d INFO server: handled request %d in 3ms status=200 path=/api/v1/items\n", i%60, i%1000, i)
			} else {
				b.WriteString("y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y\n")
			}
		}
	}
	return bytes.SplitAfter(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte("\n"))
}

// BenchmarkScanners feeds each scanner 100 MB of typical output per
// iteration (a 1 MB block, 100 times): run with -benchtime=1x or more;
// MB/s extrapolates to the time per GB (docs/scanners-bench.md).
func BenchmarkScanners(b *testing.B) {
	for _, tc := range []struct {
		kind   string
		runner detect.Runner
	}{
		{"go-json", detect.RunnerGoTestJSON},
		{"go-v", detect.RunnerMake},
		{"jest", detect.RunnerNPM},
		{"pytest", detect.RunnerMake},
		{"cargo", detect.RunnerMake},
		{"noise", detect.RunnerMake},
		{"noise-as-go-json", detect.RunnerGoTestJSON},
	} {
		kind := tc.kind
		if kind == "noise-as-go-json" {
			kind = "noise"
		}
		block := benchBlock(kind)
		size := 0
		for _, l := range block {
			size += len(l)
		}
		const repeat = 100
		b.Run(tc.kind, func(b *testing.B) {
			b.SetBytes(int64(size * repeat))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				s := NewScanner(detect.Check{Name: "bench", Kind: detect.KindTest, Runner: tc.runner})
				for range repeat {
					for _, l := range block {
						// The runner hands lines without their newline.
						s.Line(bytes.TrimSuffix(l, []byte("\n")))
					}
				}
				_ = s.Evidence(0)
			}
			// CPU seconds per GB: on a loaded machine the wall time
			// measures the neighbours, the CPU time measures the scanner.
			b.ReportMetric((cpuTime()-cpu0).Seconds()/(float64(b.N)*float64(size*repeat))*(1<<30), "cpu-s/GB")
		})
	}
}

// BenchmarkQuietLines is the text scanner's block scan (QuietLines, which
// the capture calls on each read) over 256 KB of quiet lines: `yes`'s
// 2-byte lines (the repeat path), 2-byte lines that do not repeat, and
// 20- and 80-byte lines.
func BenchmarkQuietLines(b *testing.B) {
	for _, tc := range []struct {
		name string
		line func(i int) string
	}{
		{"yes", func(int) string { return "y\n" }},
		{"2-byte-varied", func(i int) string { return "abchijkl"[i%7*(i%3)%8:][:1] + "\n" }},
		{"20-byte", func(i int) string { return fmt.Sprintf("some words here %03dx\n", i%1000) }},
		{"80-byte", func(i int) string {
			return fmt.Sprintf("%-79s\n", fmt.Sprintf("xx handled request %d in 3ms status=200 path=/api/v1/items", i))
		}},
	} {
		var block []byte
		for i := 0; len(block) < 256<<10; i++ {
			block = append(block, tc.line(i)...)
		}
		b.Run(tc.name, func(b *testing.B) {
			s := newTextScanner(detect.Check{})
			if n, _ := s.QuietLines(block, 1000); n != len(block) {
				b.Fatalf("only %d of %d bytes are quiet", n, len(block))
			}
			b.SetBytes(int64(len(block)))
			cpu0 := cpuTime()
			for b.Loop() {
				s.QuietLines(block, 1000)
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/(float64(b.N)*float64(len(block)))*(1<<30), "cpu-s/GB")
		})
	}
}
