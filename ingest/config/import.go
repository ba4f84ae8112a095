package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/internal/suggest"
)

// Import targets: what a question of an annotation platform (a Label
// Studio from_name, an Argilla question, field or metadata name, a column
// of their CSV exports) stands for. A [import] value is one of them;
// "rubric:<attribute>" and "checklist:C<n>" name the attribute or item.
const (
	TargetRubric     = "rubric"      // "rubric:Domain": a rubric score of that attribute
	TargetChecklist  = "checklist"   // "checklist:C3": the verdict of checklist item 3
	TargetRank       = "rank"        // a rank (1 = best), or a ranking of the responses
	TargetPairwise   = "pairwise"    // a pairwise verdict (a, b, tie; left, right)
	TargetComment    = "comment"     // the grader's comment
	TargetQuestionID = "question_id" // a data field holding the question id
	TargetModel      = "model"       // a data field holding the model
	TargetLabel      = "label"       // a data field holding the blinded label
	TargetModelA     = "model_a"     // pairwise: the model shown first (left)
	TargetModelB     = "model_b"     // pairwise: the model shown second (right)
	TargetLabelA     = "label_a"     // pairwise: the label shown first
	TargetLabelB     = "label_b"     // pairwise: the label shown second
	TargetEvaluator  = "evaluator"   // a data field naming the grader (instead of the platform's user)
	TargetIgnore     = "ignore"      // read nothing from it, and say nothing about it
)

// ImportTarget is a parsed [import] value.
type ImportTarget struct {
	// Kind is one of the Target… constants.
	Kind string
	// Attribute is the rubric attribute as written in rubric.attributes
	// (Kind TargetRubric).
	Attribute string
	// Item is the checklist item number (Kind TargetChecklist).
	Item int
}

var plainTargets = []string{TargetRank, TargetPairwise, TargetComment, TargetQuestionID, TargetModel, TargetLabel,
	TargetModelA, TargetModelB, TargetLabelA, TargetLabelB, TargetEvaluator, TargetIgnore}

// ImportTargets lists the accepted [import] values under this
// configuration, for messages: "rubric:<attribute>" for each attribute,
// "checklist:C1", "checklist:C2", …, and the plain targets.
func (c Config) ImportTargets() []string {
	var out []string
	for _, a := range c.Rubric.Attributes {
		out = append(out, TargetRubric+":"+a)
	}
	out = append(out, "checklist:C1", "checklist:C2", "…")
	return append(out, plainTargets...)
}

// ParseImportTarget reads one [import] value: "rubric:<attribute>" (an
// attribute of rubric.attributes, compared as ColumnKey), "checklist:C<n>"
// (or "checklist:<n>", n from 1 to 1000), or one of the plain targets
// (rank, pairwise, comment, question_id, model, label, model_a, model_b,
// label_a, label_b, evaluator, ignore); case and surrounding spaces are
// ignored.
func (c Config) ParseImportTarget(v string) (ImportTarget, bool) {
	s := strings.TrimSpace(v)
	kind, arg, hasArg := strings.Cut(s, ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	arg = strings.TrimSpace(arg)
	switch {
	case hasArg && kind == TargetRubric:
		k := ColumnKey(arg)
		for _, a := range c.Rubric.Attributes {
			if ColumnKey(a) == k && k != "" {
				return ImportTarget{Kind: TargetRubric, Attribute: a}, true
			}
		}
		return ImportTarget{}, false
	case hasArg && kind == TargetChecklist:
		n := strings.TrimPrefix(strings.TrimPrefix(arg, "C"), "c")
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 || i > 1000 || n[0] == '0' || n[0] == '+' {
			return ImportTarget{}, false
		}
		return ImportTarget{Kind: TargetChecklist, Item: i}, true
	case hasArg:
		return ImportTarget{}, false
	}
	for _, t := range plainTargets {
		if kind == t {
			return ImportTarget{Kind: t}, true
		}
	}
	return ImportTarget{}, false
}

// Imports returns [import] parsed: the platform name as written → its
// target. Invalid entries are left out (validate reports them).
func (c Config) Imports() map[string]ImportTarget {
	out := make(map[string]ImportTarget, len(c.Import))
	for k, v := range c.Import {
		if t, ok := c.ParseImportTarget(v); ok {
			out[k] = t
		}
	}
	return out
}

// checkImport validates [import]: every key non-empty, every value a
// target (else an error with the closest target and the list).
func (c Config) checkImport(bad func(key string, value any, expected string)) {
	keys := make([]string, 0, len(c.Import))
	for k := range c.Import {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	valid := c.ImportTargets()
	for _, k := range keys {
		v := c.Import[k]
		key := "import." + strconv.Quote(k)
		if strings.TrimSpace(k) == "" {
			bad(key, v, "a platform question or field name (the key is empty)")
			continue
		}
		if _, ok := c.ParseImportTarget(v); ok {
			continue
		}
		exp := "an import target"
		if kind, arg, ok := strings.Cut(v, ":"); ok && strings.EqualFold(strings.TrimSpace(kind), TargetRubric) {
			exp = fmt.Sprintf("a rubric attribute after %q (one of rubric.attributes: %s)", "rubric:", strings.Join(c.Rubric.Attributes, ", "))
			if a, ok := suggest.Closest(strings.TrimSpace(arg), c.Rubric.Attributes); ok {
				exp += fmt.Sprintf(` (did you mean "rubric:%s"?)`, a)
			}
		} else if ok && strings.EqualFold(strings.TrimSpace(kind), TargetChecklist) {
			exp = `a checklist item after "checklist:", C1, C2, … (up to C1000)`
		} else {
			if t, ok := suggest.Closest(strings.TrimSpace(v), valid); ok {
				exp += fmt.Sprintf(" (did you mean %q?)", t)
			}
			exp += "; the targets are " + strings.Join(valid, ", ")
		}
		bad(key, v, exp)
	}
}
