package planning

import "gonum.org/v1/gonum/stat/distuv"

func tQuantile(p, df float64) float64 { return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p) }
