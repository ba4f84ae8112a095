package xlsx

import (
	"context"
	"fmt"
	"math"

	"github.com/euroexec/euroexec/report"
	"github.com/xuri/excelize/v2"
)

// SheetHeatmaps is the sheet of the heat maps, written as grids.
const SheetHeatmaps = "Heat maps"

// maxCols is Excel's column limit.
const maxCols = 16384

// heatmapFigures are the Heatmap figures of figs, in report order.
func heatmapFigures(figs []*report.Figure) []*report.Figure {
	var out []*report.Figure
	for _, f := range figs {
		if f != nil && f.Kind == report.Heatmap {
			out = append(out, f)
		}
	}
	return out
}

// heatmaps writes each heat map as a block on the Heat maps sheet: its title
// and id, then a grid with the y categories down column A, the x categories
// across the header row and the cell values in between (empty where the
// figure has no cell), coloured by a 3-colour scale. A cancelled ctx stops
// it between figures.
func (w *writer) heatmaps(ctx context.Context, figs []*report.Figure) error {
	sh := SheetHeatmaps
	if _, err := w.f.NewSheet(sh); err != nil {
		return fmt.Errorf("xlsx: heat maps sheet: %w", err)
	}
	if err := w.put(sh, 1, 1, "Heat maps as grids: rows are the figure's y categories, columns its x categories; colour runs from red (low) through yellow to green (high). Every figure, with tooltips, is on the site.", w.st.bold); err != nil {
		return fmt.Errorf("xlsx: heat maps sheet: %w", err)
	}
	if err := w.printSetup(sh, 0); err != nil {
		return err
	}
	row := 3
	for _, fig := range figs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("xlsx: %w", err)
		}
		next, err := w.heatmap(sh, row, fig)
		if err != nil {
			return fmt.Errorf("xlsx: figure %s: %w", fig.ID, err)
		}
		row = next
	}
	if err := w.f.SetColWidth(sh, "A", "A", 30); err != nil {
		return fmt.Errorf("xlsx: heat maps sheet: %w", err)
	}
	return nil
}

// heatmap writes one heat map at row top of sheet sh and returns the first
// row after it (with a blank row between blocks).
func (w *writer) heatmap(sh string, top int, fig *report.Figure) (int, error) {
	xs, ys := fig.Categories, fig.YCategories
	title := fig.Title + " [" + fig.ID + "]"
	var cutNote string
	if len(xs) > maxCols-1 {
		cutNote += fmt.Sprintf(" [%d columns beyond Excel's limit left out]", len(xs)-(maxCols-1))
		xs = xs[:maxCols-1]
	}
	if room := maxRows - (top + 1); len(ys) > room {
		if room < 0 {
			room = 0
		}
		cutNote += fmt.Sprintf(" [%d rows beyond Excel's limit left out]", len(ys)-room)
		ys = ys[:room]
	}
	if fig.Table != "" {
		cutNote += "; values in tables/" + fig.Table + ".csv"
	}
	if err := w.put(sh, 1, top, title+cutNote, w.st.bold); err != nil {
		return 0, err
	}
	if len(xs) == 0 || len(ys) == 0 {
		return top + 2, nil
	}
	h := top + 1
	corner := fig.YName
	if fig.XName != "" {
		corner += " \\ " + fig.XName
	}
	if err := w.put(sh, 1, h, corner, w.st.header); err != nil {
		return 0, err
	}
	for i, c := range xs {
		if err := w.put(sh, 2+i, h, w.modelName(c), w.st.header); err != nil {
			return 0, err
		}
	}
	for j, c := range ys {
		if err := w.put(sh, 1, h+1+j, w.modelName(c), w.st.header); err != nil {
			return 0, err
		}
	}
	num := w.st.float
	if fig.Percent {
		num = w.st.fraction
	}
	// Style the whole grid, so empty cells look like the others.
	tl, _ := excelize.CoordinatesToCellName(2, h+1)
	br, _ := excelize.CoordinatesToCellName(1+len(xs), h+len(ys))
	if err := w.f.SetCellStyle(sh, tl, br, num); err != nil {
		return 0, err
	}
	for _, s := range fig.Series {
		for _, c := range s.Cells {
			if c.X < 0 || c.X >= len(xs) || c.Y < 0 || c.Y >= len(ys) {
				continue
			}
			var v any = c.Value
			if math.IsNaN(c.Value) {
				v = nil
			} else if math.IsInf(c.Value, 0) {
				v = "+Inf"
				if c.Value < 0 {
					v = "-Inf"
				}
			}
			if err := w.put(sh, 2+c.X, h+1+c.Y, v, num); err != nil {
				return 0, err
			}
		}
	}
	cf := excelize.ConditionalFormatOptions{Type: "3_color_scale", Criteria: "=",
		MinType: "min", MidType: "percentile", MidValue: "50", MaxType: "max",
		MinColor: "#F8696B", MidColor: "#FFEB84", MaxColor: "#63BE7B"}
	if fig.Percent {
		// Fractions: the scale spans 0 %–100 %, as on the site.
		cf.MinType, cf.MinValue = "num", "0"
		cf.MidType, cf.MidValue = "num", "0.5"
		cf.MaxType, cf.MaxValue = "num", "1"
	}
	if err := w.f.SetConditionalFormat(sh, tl+":"+br, []excelize.ConditionalFormatOptions{cf}); err != nil {
		return 0, err
	}
	return h + len(ys) + 2, nil
}
