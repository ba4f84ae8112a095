package config

import "strings"

// Report holds the report settings.
type Report struct {
	// Primary is the metric that matters first: "solve_rate", "rubric",
	// "checklist", "pairwise" or "prbench". It orders the terminal
	// summary, the site's and workbook's model tables and the findings.
	// Default "": the first of these that the study's instruments define
	// (Solve Rate whenever there is a rubric or a checklist).
	Primary string `toml:"primary"`
}

// PrimaryMetrics are the values of [report] primary, in the order the
// default takes the first one the study defines.
var PrimaryMetrics = []string{"solve_rate", "rubric", "checklist", "pairwise", "prbench"}

// checkReport validates [report].
func (c Config) checkReport(bad func(key string, value any, expected string)) {
	if p := c.Report.Primary; p != "" {
		for _, m := range PrimaryMetrics {
			if p == m {
				return
			}
		}
		bad("report.primary", p, `one of "`+strings.Join(PrimaryMetrics, `", "`)+`"`)
	}
}

// reportPairs lists report.primary when set, so that studies without it
// keep their settings table.
func (c Config) reportPairs() [][2]string {
	if c.Report.Primary == "" {
		return nil
	}
	return [][2]string{{"report.primary", c.Report.Primary}}
}
