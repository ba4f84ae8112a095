package analysis_test

import (
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/report/tables"
)

func init() { analysis.PresentForTest = tables.Paper }
