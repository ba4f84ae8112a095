package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSampleCountsAgree runs the sample and reads its counts back where a
// user sees them: the site's "Study at a glance" and Methods, the terminal
// summary and Table 3 (tables/models.csv). The models, the gradings and
// each model's human gradings are the same number everywhere.
func TestSampleCountsAgree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if _, err := runStudy(context.Background(), &stdout, &stderr, "", runOptions{out: out, noWarnings: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	f, err := os.Open(filepath.Join(out, "tables", "models.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	atoi := func(s string) int {
		t.Helper()
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("models.csv: %q is not a count", s)
		}
		return n
	}
	models, gradings := 0, 0
	human := map[string]int{} // display name → human gradings (main round)
	for _, r := range rows[1:] {
		gradings += atoi(r[col["gradings"]])
		if r[col["human_label"]] == "no" {
			models++
			human[r[col["display_name"]]] = atoi(r[col["human_gradings"]])
		}
	}
	if models != 6 {
		t.Errorf("Table 3 lists %d models, the sample has 6", models)
	}

	idx, err := os.ReadFile(filepath.Join(out, "site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	glance := func(name string) int {
		t.Helper()
		m := regexp.MustCompile(`<dt>` + name + `</dt><dd>(\d+)`).FindSubmatch(idx)
		if m == nil {
			t.Fatalf("index.html: no %s count", name)
		}
		return atoi(string(m[1]))
	}
	if got := glance("Models"); got != models {
		t.Errorf("site: Models %d, Table 3 has %d", got, models)
	}
	if got := glance("Gradings"); got != gradings {
		t.Errorf("site: Gradings %d, Table 3's gradings sum to %d", got, gradings)
	}
	if got := glance("Human graders"); got != 12 {
		t.Errorf("site: Human graders %d, the sample has 12 experts", got)
	}
	if !bytes.Contains(idx, []byte("We evaluated 6 models on 60 questions")) {
		t.Errorf("site: Methods does not say 6 models on 60 questions")
	}

	// The terminal summary's "human gradings" column (the table of every
	// measure, after the leaderboard and the findings).
	seen := 0
	term := stdout.String()
	for _, l := range strings.Split(term[strings.Index(term, "— findings"):], "\n") {
		f := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1)
		if len(f) < 3 {
			continue
		}
		if want, ok := human[f[1]]; ok {
			seen++
			if got := atoi(f[2]); got != want {
				t.Errorf("terminal: %s has %d human gradings, Table 3 %d", f[1], got, want)
			}
		}
	}
	if seen != models {
		t.Errorf("terminal summary lists %d of the %d models:\n%s", seen, models, stdout.String())
	}
}
