package report

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// grid is a borderless table: a header, a rule, and rows of cells two
// spaces apart, so it reads the same in a terminal, a CI log and an agent's
// context. Cells hold plain text; colour is added after padding so that
// escape codes never count as width.
type grid struct {
	header []string
	rows   [][]string
	// shrink lists the columns that may be cut to fit the width, in the
	// order they give way, each down to its minimum width.
	shrink []shrinkable
	// paint, when set, colours a padded cell.
	paint func(row, col int, padded string) string
	// ellipsis marks a cut cell.
	ellipsis string
}

// shrinkable is a column that may be cut, and how narrow it may get:
// narrower than that it says nothing.
type shrinkable struct{ col, min int }

// render writes the grid. A width above zero is the terminal's: shrinkable
// columns are cut to fit it. Zero (a pipe) cuts nothing.
func (g grid) render(w io.Writer, width int) error {
	widths := make([]int, len(g.header))
	for i, h := range g.header {
		widths[i] = runewidth.StringWidth(h)
	}
	for _, r := range g.rows {
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	if width > 0 {
		width-- // a line as wide as the terminal would wrap on some
		total := 0
		for _, n := range widths {
			total += n + 2
		}
		for _, sh := range g.shrink {
			if total <= width {
				break
			}
			cut := min(total-width, widths[sh.col]-sh.min)
			if cut > 0 {
				widths[sh.col] -= cut
				total -= cut
			}
		}
	}
	// The layout is tablewriter's, which vbd used before: every cell
	// padded to its column with one space each side, and a rule as wide.
	var b strings.Builder
	g.line(&b, -1, g.header, widths)
	total := 0
	for _, n := range widths {
		total += n + 2
	}
	b.WriteString(strings.Repeat("-", total) + "\n")
	for i, r := range g.rows {
		g.line(&b, i, r, widths)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (g grid) line(b *strings.Builder, row int, cells []string, widths []int) {
	for i, c := range cells {
		if runewidth.StringWidth(c) > widths[i] {
			c = runewidth.Truncate(c, widths[i], g.ellipsis)
		}
		pad := strings.Repeat(" ", widths[i]-runewidth.StringWidth(c))
		if g.paint != nil && row >= 0 {
			// Colour the text only, not the padding after it.
			c = g.paint(row, i, c)
		}
		b.WriteString(" " + c + pad + " ")
	}
	b.WriteString("\n")
}

// flat joins s onto one line, for a table cell.
func flat(s string) string {
	// Split on whitespace first: Strip drops a newline as a control byte.
	return strings.Join(strings.Fields(Strip(strings.Join(strings.Fields(s), " "))), " ")
}
