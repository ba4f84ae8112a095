package sample

import (
	"embed"
	"io/fs"
)

//go:embed all:study
var sampleFS embed.FS

// Sample returns the bundled sample study (what Write(dir, DefaultOptions())
// writes), as a file system rooted at the study folder: study.toml,
// questions.csv, grades/humans/main/expert_01.xlsx, ...
func Sample() fs.FS {
	sub, err := fs.Sub(sampleFS, "study")
	if err != nil {
		// fs.Sub only fails on an invalid path; "study" is valid.
		panic("sample: " + err.Error())
	}
	return sub
}
