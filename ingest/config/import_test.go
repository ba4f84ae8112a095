package config

import (
	"strings"
	"testing"
)

func TestImportTable(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]ImportTarget // parsed, when valid
		err      []string                // parts of the error, when not
	}{
		{"targets", "[import]\n\"domain_score\" = \"rubric:Domain\"\n\"loc\" = \"Rubric: localisation\"\nc1 = \"checklist:C1\"\nitem2 = \"checklist:2\"\nrank = \"rank\"\nwinner = \"Pairwise\"\nprompt_id = \"question_id\"\nsystem = \"model\"\nleft = \"model_a\"\nnotes = \"ignore\"\n",
			map[string]ImportTarget{
				"domain_score": {Kind: TargetRubric, Attribute: "Domain"},
				"loc":          {Kind: TargetRubric, Attribute: "Localization"},
				"c1":           {Kind: TargetChecklist, Item: 1},
				"item2":        {Kind: TargetChecklist, Item: 2},
				"rank":         {Kind: TargetRank},
				"winner":       {Kind: TargetPairwise},
				"prompt_id":    {Kind: TargetQuestionID},
				"system":       {Kind: TargetModel},
				"left":         {Kind: TargetModelA},
				"notes":        {Kind: TargetIgnore},
			}, nil},
		{"unknown target", "[import]\nwinner = \"pairwse\"\n", nil,
			[]string{`import."winner" = "pairwse": expected an import target (did you mean "pairwise"?); the targets are rubric:Domain,`, "checklist:C1", "question_id"}},
		{"unknown attribute", "[import]\nstyle = \"rubric:Reasonin\"\n", nil,
			[]string{`import."style" = "rubric:Reasonin": expected a rubric attribute after "rubric:" (one of rubric.attributes: Domain, Localization, Reasoning, Communication, Actionability) (did you mean "rubric:Reasoning"?)`}},
		{"bad item", "[import]\nc0 = \"checklist:C0\"\n", nil, []string{`import."c0" = "checklist:C0": expected a checklist item after "checklist:"`}},
		{"every bad entry listed", "[import]\na = \"x\"\nb = \"rubric:\"\n", nil, []string{`import."a" = "x"`, `import."b" = "rubric:"`, "2 invalid settings"}},
		{"a target of the configured rubric", "[rubric]\nattributes = [\"Accuracy\"]\n[import]\nacc = \"rubric:accuracy\"\n",
			map[string]ImportTarget{"acc": {Kind: TargetRubric, Attribute: "Accuracy"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("study.toml", []byte(tc.in))
			if tc.err != nil {
				if err == nil {
					t.Fatalf("no error; want %q", tc.err)
				}
				for _, e := range tc.err {
					if !strings.Contains(err.Error(), e) {
						t.Errorf("error\n%v\nlacks %q", err, e)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := c.Imports()
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for k, w := range tc.want {
				if got[k] != w {
					t.Errorf("import %q: got %+v, want %+v", k, got[k], w)
				}
			}
		})
	}
}

func TestImportListedInSettingsOnlyWhenSet(t *testing.T) {
	has := func(c Config) bool {
		for _, p := range c.Pairs() {
			if p[0] == "import" {
				return true
			}
		}
		return false
	}
	if has(Default()) {
		t.Error("default settings list import")
	}
	c, err := Parse("study.toml", []byte("[import]\nx = \"rank\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !has(c) {
		t.Error("settings lack import")
	}
}
