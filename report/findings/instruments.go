package findings

import (
	"math"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/report"
)

// Has reports whether the study of r has the instrument inst ("rubric",
// "checklist", "ranking", "pairwise", "criteria", "judges", …; see
// report.Overview.Instruments). A report whose overview lists no
// instruments at all (one built by hand, or by compare) is taken to have
// every instrument, so that its text stays the paper's.
func Has(r *report.Report, inst string) bool {
	o := r.Overview
	if len(o.Instruments) == 0 && len(o.Missing) == 0 {
		return true
	}
	return slices.Contains(o.Instruments, inst)
}

// instrumentsKnown reports whether the overview says which instruments the
// study has.
func instrumentsKnown(r *report.Report) bool {
	return len(r.Overview.Instruments) > 0 || len(r.Overview.Missing) > 0
}

// alphaUndefined reports whether the report says that agreement between
// human graders could not be measured: its reliability table has no
// defined α of the human graders, or the table was left out with a note.
func alphaUndefined(r *report.Report) bool {
	if instrumentsKnown(r) && r.Overview.HumanGraders == 0 {
		return true
	}
	t := r.Table("reliability")
	if t == nil {
		return slices.ContainsFunc(r.Notes, func(n report.Note) bool { return n.Table == "reliability" })
	}
	c := cols(t)
	for _, row := range t.Rows {
		if str(row, c.i("population")) == "humans" && strings.HasPrefix(str(row, c.i("statistic")), "alpha") && !math.IsNaN(num(row, c, "value")) {
			return false
		}
	}
	return true
}

// notMeasured is the sentence for an undefined α; "" for a study without
// rubric or checklist gradings, which has no α to speak of.
func notMeasured(r *report.Report) string {
	if r.Overview.HumanGraders == 0 && r.Overview.Judges == 0 {
		return "" // pairwise judgments or criterion grades only: their agreement tables say it
	}
	if r.Overview.HumanGraders == 0 {
		return "Agreement between human graders could not be measured: the study has none."
	}
	return "Agreement between graders could not be measured: no response was graded twice."
}

// AgreementNote is the sentence saying that agreement between graders could
// not be measured, when the report's α of the human graders is undefined;
// "" when it was measured.
func AgreementNote(r *report.Report) string {
	if !alphaUndefined(r) {
		return ""
	}
	return notMeasured(r)
}
