package report

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// grid is a borderless table: a header, a rule, and rows of cells two
// spaces apart, so it reads the same in a terminal, a CI log and an
// agent's context. tablewriter draws it; vbd decides how wide each column
// is (which columns give way to the terminal, down to what), cuts the
// cells to that and hands tablewriter the widths. vbd cuts, not
// tablewriter, because tablewriter's ellipsis is always "…", which a
// terminal without a UTF-8 locale cannot show. Cells hold plain text;
// colour is added after cutting, and tablewriter measures a cell without
// its escape codes.
type grid struct {
	header []string
	rows   [][]string
	// shrink lists the columns that may be cut to fit the width, in the
	// order they give way, each down to its minimum width.
	shrink []shrinkable
	// paint, when set, colours a cut cell.
	paint func(row, col int, text string) string
	// ellipsis marks a cut cell.
	ellipsis string
}

// shrinkable is a column that may be cut, and how narrow it may get:
// narrower than that it says nothing.
type shrinkable struct{ col, min int }

// cellPadding is the space tablewriter puts each side of a cell.
const cellPadding = 1

// render writes the grid. A width above zero is the terminal's: shrinkable
// columns are cut to fit it. Zero (a pipe) cuts nothing.
func (g grid) render(w io.Writer, width int) error {
	widths := g.widths(width)
	colWidths := tw.NewMapper[int, int]()
	for i, n := range widths {
		colWidths.Set(i, n+2*cellPadding)
	}
	t := newTable(w, tw.On, tablewriter.Config{
		Header: tw.CellConfig{
			Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
			Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
		},
		Row:    leftRows(tw.CellPadding{}),
		Widths: tw.CellWidth{PerColumn: colWidths},
	})
	t.Header(g.header)
	for i, r := range g.rows {
		cells := make([]string, len(r))
		for col, c := range r {
			if runewidth.StringWidth(c) > widths[col] {
				c = runewidth.Truncate(c, widths[col], g.ellipsis)
			}
			if g.paint != nil {
				c = g.paint(i, col, c)
			}
			cells[col] = c
		}
		if err := t.Append(cells); err != nil {
			return err
		}
	}
	return t.Render()
}

// newTable is a borderless, plain ASCII tablewriter table with no lines
// between columns or rows, and a rule under the header when headerLine is
// on.
func newTable(w io.Writer, headerLine tw.State, cfg tablewriter.Config) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleASCII),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: headerLine},
			},
		})),
		tablewriter.WithConfig(cfg),
	)
}

// leftRows are rows aligned left and never wrapped: vbd has cut them to
// fit already.
func leftRows(pad tw.CellPadding) tw.CellConfig {
	return tw.CellConfig{
		Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
		Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
		Padding:    pad,
	}
}

// widths is vbd's width policy: every column as wide as its widest cell,
// then, to fit a terminal's width, the shrinkable columns cut in turn,
// each no narrower than its minimum.
func (g grid) widths(width int) []int {
	widths := make([]int, len(g.header))
	for i, h := range g.header {
		widths[i] = runewidth.StringWidth(h)
	}
	for _, r := range g.rows {
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	if width <= 0 {
		return widths
	}
	width-- // a line as wide as the terminal would wrap on some
	total := 0
	for _, n := range widths {
		total += n + 2*cellPadding
	}
	for _, sh := range g.shrink {
		if total <= width {
			break
		}
		if cut := min(total-width, widths[sh.col]-sh.min); cut > 0 {
			widths[sh.col] -= cut
			total -= cut
		}
	}
	return widths
}

// flat joins s onto one line, for a table cell.
func flat(s string) string {
	// Split on whitespace first: Strip drops a newline as a control byte.
	return strings.Join(strings.Fields(Strip(strings.Join(strings.Fields(s), " "))), " ")
}
