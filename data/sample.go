package data

import (
	"embed"
	"io/fs"
)

//go:embed all:sample
var sampleFS embed.FS

// Sample returns the bundled sample study (what Write(dir, DefaultOptions())
// writes), as a file system rooted at the study folder: study.toml,
// questions.csv, grades/humans/main/expert_01.xlsx, ...
func Sample() fs.FS {
	sub, err := fs.Sub(sampleFS, "sample")
	if err != nil {
		// fs.Sub only fails on an invalid path; "sample" is valid.
		panic("data: sample: " + err.Error())
	}
	return sub
}
