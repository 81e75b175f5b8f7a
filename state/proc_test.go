package state

import (
	"os"
	"strings"
	"testing"
)

func TestParseProcStat(t *testing.T) {
	tail := " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 424242 18"
	tests := []struct {
		name string
		in   string
		want ProcStat
		ok   bool
	}{
		{"plain", "7 (sleep) S 5 7" + tail, ProcStat{PID: 7, PPID: 5, PGID: 7, State: 'S', Start: 424242}, true},
		// A process names itself: spaces and parentheses in comm must not
		// shift the fields.
		{"comm with ) and spaces", "7 (a) Z 9 9 (b) c) R 5 6" + tail, ProcStat{PID: 7, PPID: 5, PGID: 6, State: 'R', Start: 424242}, true},
		{"zombie", "7 (x) Z 1 7" + tail, ProcStat{PID: 7, PPID: 1, PGID: 7, State: 'Z', Start: 424242}, true},
		{"short: no start time", "7 (x) S 5 7", ProcStat{PID: 7, PPID: 5, PGID: 7, State: 'S'}, true},
		{"no comm", "7 x S 5 7", ProcStat{}, false},
		{"too few fields", "7 (x) S 5", ProcStat{}, false},
		{"not a state", "7 (x) SS 5 7", ProcStat{}, false},
		{"not a ppid", "7 (x) S five 7", ProcStat{}, false},
		{"empty", "", ProcStat{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseProcStat(7, []byte(tt.in))
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseProcStat(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// The stat of this very process agrees with what the kernel says of it.
func TestReadProcStatSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	st, ok := ReadProcStat(os.Getpid())
	if !ok || st.PID != os.Getpid() || st.PPID != os.Getppid() || st.Start == 0 || st.State == 'Z' {
		t.Errorf("ReadProcStat(self) = %+v, %v", st, ok)
	}
}

// The command name is the process's own choice: no name makes the parser
// panic or report a ppid it did not read.
func FuzzParseProcStat(f *testing.F) {
	f.Add("7 (sleep) S 5 7 1 2 3")
	f.Add("7 (a) b) R 5 6")
	f.Add("7 ()) S 5 7")
	f.Fuzz(func(t *testing.T, comm string) {
		st, ok := parseProcStat(7, []byte("7 ("+comm+") S 5 6"+strings.Repeat(" 0", 16)+" 99"))
		if !strings.Contains(comm, ")") && (!ok || st.PPID != 5 || st.PGID != 6 || st.Start != 99) {
			t.Errorf("comm %q: %+v, %v", comm, st, ok)
		}
	})
}
