package paper_test

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report/tables"
)

func init() { paper.PresentForTest = tables.Paper }
