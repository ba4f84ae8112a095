package study

import (
	"reflect"
	"testing"
)

func TestTallyGate(t *testing.T) {
	tests := []struct {
		name string
		runs []GateRun
		want []GateItem
	}{
		{"none", nil, nil},
		{"byte order of ids, numeric order of items", []GateRun{
			{"b", "1", 10, true}, {"b", "1", 2, false}, {"B", "1", 1, true}, {"a", "1", 1, false},
		}, []GateItem{{"B", 1, 1, 1}, {"a", 1, 1, 0}, {"b", 2, 1, 0}, {"b", 10, 1, 1}}},
		{"every row counts, a repeated cell too", []GateRun{
			{"q", "1", 1, true}, {"q", "1", 1, true}, {"q", "2", 1, false}, {"q", "3", 1, true},
		}, []GateItem{{"q", 1, 4, 3}}},
	}
	for _, tc := range tests {
		if got := TallyGate(tc.runs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: TallyGate = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Gate prefers the tallies read from the database; a study built in
// memory has only runs.
func TestStudyGate(t *testing.T) {
	items := []GateItem{{"q", 1, 2, 1}}
	s := &Study{GateItems: items, GateRuns: []GateRun{{"x", "1", 1, true}}}
	if got := s.Gate(); !reflect.DeepEqual(got, items) {
		t.Errorf("Gate with items = %+v, want %+v", got, items)
	}
	s = &Study{GateRuns: []GateRun{{"q", "1", 1, true}, {"q", "2", 1, false}}}
	if got := s.Gate(); !reflect.DeepEqual(got, items) {
		t.Errorf("Gate with runs = %+v, want %+v", got, items)
	}
	if got := (&Study{}).Gate(); got != nil {
		t.Errorf("Gate of a study without gate = %+v, want nil", got)
	}
}

func TestTagsOf(t *testing.T) {
	s := &Study{GradingTags: []GradingTag{
		{0, Tag{"a", "1"}}, {2, Tag{"b", "2"}}, {2, Tag{"c", "3"}}, {3, Tag{"d", "4"}},
	}}
	tests := []struct {
		i    int
		want []Tag
	}{
		{0, []Tag{{"a", "1"}}},
		{1, nil},
		{2, []Tag{{"b", "2"}, {"c", "3"}}},
		{3, []Tag{{"d", "4"}}},
		{9, nil},
	}
	for _, tc := range tests {
		if got := s.TagsOf(tc.i); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("TagsOf(%d) = %v, want %v", tc.i, got, tc.want)
		}
	}
}
