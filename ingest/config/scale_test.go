package config

import (
	"strings"
	"testing"

	"github.com/euroexec/euroexec/ingest/tabular"
)

func TestScaleSettings(t *testing.T) {
	tests := []struct {
		name, in string
		err      string // "" = accepted
		points   int64  // when accepted
	}{
		{"defaults", "", "", 5},
		{"mqm", "[rubric]\nmin = 0\nmax = 25\nstep = 0.1\ndirection = \"lower\"\n[solve]\nrubric_threshold = 5\n", "", 251},
		{"half points", "[rubric]\nmin = 1\nmax = 5\nstep = 0.5\n", "", 9},
		{"decimal ends", "[rubric]\nmin = 0.5\nmax = 2.5\nstep = 0.25\n[solve]\nrubric_threshold = 1\n", "", 9},
		{"wide scale", "[rubric]\nmin = 0\nmax = 1000000\n[solve]\nrubric_threshold = 10\n", "", 1000001},
		{"step zero", "[rubric]\nstep = 0\n", "rubric.step = 0: expected a positive decimal", 0},
		{"step negative", "[rubric]\nstep = -1\n", "rubric.step = -1: expected a positive decimal", 0},
		{"step too fine", "[rubric]\nstep = 0.0000001\n", "rubric.step = 0.0000001: expected a positive decimal with at most 6 decimal places", 0},
		{"ends not multiples", "[rubric]\nmin = 0\nmax = 25\nstep = 0.3\n[solve]\nrubric_threshold = 5\n", "rubric.step = 0.3: expected a step of which rubric.min (0) and rubric.max (25) are multiples", 0},
		{"min too fine", "[rubric]\nmin = 0.0000005\n", "rubric.min = 0.0000005: expected a decimal from -1000000 to 1000000 with at most 6 decimal places", 0},
		{"max beyond bound", "[rubric]\nmax = 2000000\n", "rubric.max = 2000000: expected a decimal from -1000000 to 1000000", 0},
		{"direction typo", "[rubric]\ndirection = \"lowest\"\n", `rubric.direction = "lowest": expected "higher"`, 0},
		{"threshold off scale", "[rubric]\nmin = 0\nmax = 25\nstep = 0.1\n[solve]\nrubric_threshold = 30\n", "solve.rubric_threshold = 30: expected a number from rubric.min (0) to rubric.max (25)", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			c, err := Parse("study.toml", []byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Rubric.Points(); got != tc.points {
				t.Errorf("Points() = %d, want %d", got, tc.points)
			}
		})
	}
}

func TestOnScale(t *testing.T) {
	mqm := Rubric{Min: 0, Max: 25, Step: 0.1}
	likert := Rubric{Min: 1, Max: 5, Step: 1}
	half := Rubric{Min: 1, Max: 5, Step: 0.5}
	mean3 := Rubric{Min: 1, Max: 5, Step: 1, Averaged: 3} // means of up to 3 raters
	tests := []struct {
		name string
		r    Rubric
		cell string
		want float64
		ok   bool
	}{
		{"mqm zero", mqm, "0", 0, true},
		{"mqm tenth", mqm, "0.1", 0.1, true},
		{"mqm decimal comma", mqm, "5,3", 5.3, true},
		{"mqm top", mqm, "25", 25, true},
		{"mqm exponent", mqm, "2.5e1", 25, true},
		{"mqm trailing zeros", mqm, "1.500", 1.5, true},
		{"mqm hundredth", mqm, "0.15", 0, false},
		{"mqm above", mqm, "25.1", 0, false},
		{"mqm negative", mqm, "-0.1", 0, false},
		{"mqm tiny digit far out", mqm, "0.1000001", 0, false},
		// 0.1+0.2 as a spreadsheet stores a computed cell: read as 0.3
		{"mqm spreadsheet float", mqm, "0.30000000000000004", 0.3, true},
		{"mqm 15 digits exact check", mqm, "0.300000000000001", 0, false},
		{"likert whole", likert, "4", 4, true},
		{"likert half", likert, "3.5", 0, false},
		{"likert text", likert, "good", 0, false},
		{"half ok", half, "3.5", 3.5, true},
		{"half quarter", half, "3.25", 0, false},
		// means of up to 3 raters' whole points: the fraction the written
		// rounding stands for, as the nearest double (7.0/3, 5.0/3, 5.0/2)
		{"mean of 3, 10 decimals", mean3, "2.3333333333", 7.0 / 3, true},
		{"mean of 3, a double's 17 digits", mean3, "1.6666666666666667", 5.0 / 3, true},
		{"mean of 3, rounded to 2 decimals", mean3, "4.67", 14.0 / 3, true},
		{"mean of 2", mean3, "2.5", 2.5, true},
		{"mean of 3, whole", mean3, "3", 3, true},
		{"mean of 3, decimal comma", mean3, "2,3333", 7.0 / 3, true},
		{"one decimal is never a third", mean3, "2.3", 0, false},
		{"not a mean of 3 or fewer", mean3, "2.25", 0, false},
		{"a mean's digits off", mean3, "2.3334", 0, false},
		{"a mean above max", mean3, "5.3333333333", 0, false},
		{"likert without averaged", likert, "2.3333333333", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			got, ok := tc.r.OnScale(tc.cell)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("OnScale(%q) = %v, %v; want %v, %v", tc.cell, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestDescribeScale(t *testing.T) {
	tests := []struct {
		r           Rubric
		one, plural string
	}{
		{Rubric{Min: 1, Max: 5, Step: 1}, "an integer score from 1 to 5", "integers from 1 to 5"},
		{Rubric{Min: 0, Max: 25, Step: 0.1}, "a multiple of 0.1 between 0 and 25", "multiples of 0.1 between 0 and 25"},
	}
	for _, tc := range tests {
		if got := tc.r.Describe(); got != tc.one {
			t.Errorf("Describe() = %q, want %q", got, tc.one)
		}
		if got := tc.r.DescribePlural(); got != tc.plural {
			t.Errorf("DescribePlural() = %q, want %q", got, tc.plural)
		}
	}
}

func TestScalePairs(t *testing.T) {
	c := Default()
	for _, p := range c.Pairs() {
		if p[0] == "rubric.step" || p[0] == "rubric.direction" {
			t.Fatalf("default settings list %s; want it only when set", p[0])
		}
	}
	c.Rubric.Min, c.Rubric.Max, c.Rubric.Step, c.Rubric.Direction = 0, 25, 0.1, DirectionLower
	want := map[string]string{"rubric.min": "0", "rubric.max": "25", "rubric.step": "0.1", "rubric.direction": "lower"}
	for _, p := range c.Pairs() {
		if w, ok := want[p[0]]; ok {
			if p[1] != w {
				t.Errorf("%s = %q, want %q", p[0], p[1], w)
			}
			delete(want, p[0])
		}
	}
	if len(want) > 0 {
		t.Errorf("missing settings %v", want)
	}
}

func TestReportPrimary(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"", "", ""},
		{"[report]\nprimary = \"rubric\"\n", "rubric", ""},
		{"[report]\nprimary = \"prbench\"\n", "prbench", ""},
		{"[report]\nprimary = \"mqm\"\n", "", `report.primary = "mqm": expected one of "solve_rate", "rubric", "checklist", "pairwise", "prbench"`},
	}
	for _, tc := range tests {
		c, err := Parse("study.toml", []byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || c.Report.Primary != tc.want {
			t.Errorf("%q: primary %q, err %v; want %q", tc.in, c.Report.Primary, err, tc.want)
		}
		listed := ""
		for _, p := range c.Pairs() {
			if p[0] == "report.primary" {
				listed = p[1]
			}
		}
		if listed != tc.want {
			t.Errorf("%q: settings list report.primary %q, want %q", tc.in, listed, tc.want)
		}
	}
}

// BenchmarkScaleParse reads human score cells: whole points on the default
// scale (the common case) and tenths on an MQM scale; tabular.ParseInt is
// what whole points were read with before [rubric] step.
func BenchmarkScaleParse(b *testing.B) {
	whole, mqm := Default().Rubric.Scale(), Rubric{Min: 0, Max: 25, Step: 0.1}.Scale()
	b.Run("whole", func(b *testing.B) {
		for range b.N {
			whole.Parse("4")
		}
	})
	b.Run("tenths", func(b *testing.B) {
		for range b.N {
			mqm.Parse("12.3")
		}
	})
	b.Run("ParseInt", func(b *testing.B) {
		for range b.N {
			tabular.ParseInt("4")
		}
	})
}
