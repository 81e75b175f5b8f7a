package report

import "github.com/fatih/color"

// palette is vbd's colours, fatih/color objects switched on or off as a
// whole for one stream (EnableColor/DisableColor on each), so --color=always
// on stderr never depends on whether stdout is a terminal, and color's
// package-wide NoColor, decided from stdout alone, is never consulted.
// Whether a stream gets colour at all (a terminal, NO_COLOR, --color) is
// DetectTerm's decision.
type palette struct {
	redC, greenC, yellowC, faintC, boldC *color.Color
}

func newPalette(on bool) palette {
	p := palette{
		redC:    color.New(color.Bold, color.FgRed),
		greenC:  color.New(color.FgGreen),
		yellowC: color.New(color.FgYellow),
		faintC:  color.New(color.Faint),
		boldC:   color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.redC, p.greenC, p.yellowC, p.faintC, p.boldC} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

// paint colours s with c; an empty s stays empty, so a blank cell or line
// carries no codes.
func paint(c *color.Color, s string) string {
	if s == "" {
		return s
	}
	return c.Sprint(s)
}

func (p palette) red(s string) string    { return paint(p.redC, s) }
func (p palette) green(s string) string  { return paint(p.greenC, s) }
func (p palette) yellow(s string) string { return paint(p.yellowC, s) }
func (p palette) faint(s string) string  { return paint(p.faintC, s) }
func (p palette) bold(s string) string   { return paint(p.boldC, s) }
