package report

import (
	"io"
	"os"
	"strings"
	"testing"
)

// Colour follows --color, a terminal and NO_COLOR, per stream. Whether a
// real terminal gets colour runs in testdata/script/colour.txtar (script(1)
// gives vbd one).
func TestDetectTermColour(t *testing.T) {
	file, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, tc := range []struct {
		name    string
		w       any
		mode    ColorMode
		noColor string
		want    bool
	}{
		{"a pipe", &strings.Builder{}, ColorAuto, "", false},
		{"a regular file", file, ColorAuto, "", false},
		{"unset mode is auto", file, "", "", false},
		{"always, on a pipe", &strings.Builder{}, ColorAlways, "", true},
		{"always beats NO_COLOR", file, ColorAlways, "1", true},
		{"never", file, ColorNever, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "NO_COLOR" {
					return tc.noColor
				}
				return ""
			}
			w, _ := tc.w.(io.Writer)
			if got := DetectTerm(w, tc.mode, getenv).Color; got != tc.want {
				t.Errorf("Color = %v, want %v", got, tc.want)
			}
		})
	}
}

// The palette paints exactly when its stream has colour, whatever
// fatih/color's package-wide default (decided from vbd's own stdout) says.
func TestPalettePerStream(t *testing.T) {
	if got := newPalette(true).red("fail"); got != "\x1b[1;31mfail\x1b[22;0m" {
		t.Errorf("red on = %q, want it coloured", got)
	}
	if got := newPalette(false).red("fail"); got != "fail" {
		t.Errorf("red off = %q, want plain", got)
	}
	if got := newPalette(true).green(""); got != "" {
		t.Errorf("an empty string painted: %q", got)
	}
}
