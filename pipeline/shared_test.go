package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/sample"
)

// The analyses after the paper's get the study's per-grading scores
// computed once and shared (Options.Graded): each gives the same report
// part as when it scores the study itself, and none of them changes the
// shared gradings.
func TestSharedGradedSame(t *testing.T) {
	dir := t.TempDir()
	o := sample.DefaultOptions()
	o.Questions = 40
	if _, err := sample.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "study.duckdb")
	ires, err := ingest.Ingest(ctx, dir, ingest.Options{DB: db, Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	d, err := readback.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := d.Load(ctx, ires.Config)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := ires.Config
	sc := scoreOptions(c)
	shared := scores.Compute(s, sc)
	before := fmt.Sprintf("%v", shared)
	dump := func(p report.Part) string {
		out := ""
		for _, tb := range p.Tables {
			out += fmt.Sprintf("%s %v\n", tb.Name, tb.Rows)
		}
		for _, f := range p.Figures {
			out += fmt.Sprintf("%+v\n", *f)
		}
		return out + fmt.Sprintf("%v %v", p.Notes, p.Warnings)
	}
	seed, boot := c.Analysis.Seed, 50
	for _, a := range []struct {
		name string
		run  func(g []scores.Grading) (report.Part, error)
	}{
		{"reliability", func(g []scores.Grading) (report.Part, error) {
			o := reliability.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = seed, boot, c.MainRound, sc, g
			r, err := reliability.Analyze(ctx, s, o)
			return tables.Reliability(r), err
		}},
		{"ranking", func(g []scores.Grading) (report.Part, error) {
			o := ranking.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = seed, boot, c.MainRound, sc, g
			r, err := ranking.Analyze(ctx, s, o)
			return tables.Ranking(r), err
		}},
		{"calibration", func(g []scores.Grading) (report.Part, error) {
			o := calibration.DefaultOptions()
			o.Seed, o.Bootstrap, o.Scores, o.Graded = seed, boot, sc, g
			r, err := calibration.Analyze(ctx, s, o)
			return tables.Calibration(r), err
		}},
		{"planning", func(g []scores.Grading) (report.Part, error) {
			o := planning.DefaultOptions()
			o.Plan.Scores, o.Plan.Graded = sc, g
			r, err := planning.Analyze(ctx, s, o)
			return tables.Planning(r), err
		}},
		{"judge audit", func(g []scores.Grading) (report.Part, error) {
			o := judgeaudit.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = seed, boot, c.MainRound, sc, g
			r, err := judgeaudit.Analyze(ctx, s, o)
			return tables.JudgeAudit(r), err
		}},
	} {
		own, err := a.run(nil)
		if err != nil {
			t.Fatalf("%s, scoring the study itself: %v", a.name, err)
		}
		got, err := a.run(shared)
		if err != nil {
			t.Fatalf("%s, shared scores: %v", a.name, err)
		}
		if len(own.Tables) == 0 {
			t.Errorf("%s: no table made: the test compares nothing", a.name)
		}
		if g, w := dump(got), dump(own); g != w {
			t.Errorf("%s: the report part with shared scores differs from the one scoring the study itself", a.name)
		}
		if after := fmt.Sprintf("%v", shared); after != before {
			t.Fatalf("%s changed the shared gradings", a.name)
		}
	}
}

// Before the later analyses of a large study, releaseBeforeLater computes
// the shared per-grading scores: graded() afterwards is scores.Compute on
// the study as read back.
func TestReleaseBeforeLater(t *testing.T) {
	dir := t.TempDir()
	o := sample.DefaultOptions()
	o.Questions = 30
	if _, err := sample.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "study.duckdb")
	ires, err := ingest.Ingest(ctx, dir, ingest.Options{DB: db, Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	s, _, _, err := readBack(ctx, db, ires.Config, analysisOptions(ires.Config))
	if err != nil {
		t.Fatal(err)
	}
	want := scores.Compute(s, scoreOptions(ires.Config))
	if len(want) == 0 {
		t.Fatal("no gradings to score")
	}
	_, graded := laterAnalyses(s, ires.Config)
	releaseBeforeLater(graded)
	if got := graded(); fmt.Sprintf("%v", got) != fmt.Sprintf("%v", want) {
		t.Errorf("graded() after releaseBeforeLater differs from scores.Compute (%d and %d gradings)", len(got), len(want))
	}
}
