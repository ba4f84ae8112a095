package jsontext

import (
	"strings"
	"testing"

	ejt "github.com/go-json-experiment/json/jsontext"
)

func TestDuplicateName(t *testing.T) {
	tests := []struct {
		in        string
		want      Duplicate
		wantFound bool
	}{
		{`{"id":1,"id":2}`, Duplicate{"id", "id"}, true},
		{`{"":1,"":2}`, Duplicate{"", ""}, true},
		{`{"id": 1, "data": {"model": "a", "q": 1, "model": "b"}}`, Duplicate{"data/model", "model"}, true},
		{`[{"a":1},{"b":[{"x":1,"x":1}]}]`, Duplicate{"1/b/0/x", "x"}, true},
		{`{"a/b":1,"a/b":2}`, Duplicate{"a/b", "a/b"}, true},
		{"{\"id\":1,\"id\":2}\n", Duplicate{"id", "id"}, true},
		{`{"id":1,"ID":2}`, Duplicate{}, false},
		{`[{"id":1},{"id":1}]`, Duplicate{}, false},
		{`{"a":{"id":1},"b":{"id":1}}`, Duplicate{}, false},
		{`{"a":1,`, Duplicate{}, false},
		{"{\"a\":\"\xff\",\"b\":1}", Duplicate{}, false},
		{"{\"\xff\":1,\"\xff\":2}", Duplicate{"\ufffd", "\ufffd"}, true},
		{``, Duplicate{}, false},
		{strings.Repeat(`{"abcd":`, 100) + `{"k":1,"k":2}` + strings.Repeat("}", 100), Duplicate{"…" + strings.Repeat("/abcd", 39) + "/k", "k"}, true},
	}
	for _, tt := range tests {
		got, found := DuplicateName([]byte(tt.in))
		if found != tt.wantFound || got != tt.want {
			t.Errorf("DuplicateName(%q) = %+v, %v; want %+v, %v", tt.in, got, found, tt.want, tt.wantFound)
		}
	}
}

func FuzzDuplicateName(f *testing.F) {
	for _, s := range []string{`{"id":1,"id":2}`, `{"a":[{"b":1,"b":2}]}`, `[1,2]`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, ok := DuplicateName(b)
		if !ok {
			return
		}
		// a duplicate is only found in JSON that is otherwise valid
		if !ejt.Value(b).IsValid(ejt.AllowInvalidUTF8(true), ejt.AllowDuplicateNames(true)) {
			t.Errorf("DuplicateName(%q) = %+v in invalid JSON", b, d)
		}
		if len(d.Name) < maxPath && !strings.HasSuffix(d.Path, d.Name) {
			t.Errorf("DuplicateName(%q): path %q does not end with the name %q", b, d.Path, d.Name)
		}
	})
}
