package jsontext

import (
	"bytes"
	"errors"
	"strings"

	ejt "github.com/go-json-experiment/json/jsontext"
)

// Duplicate is an object member name that appears twice in one object.
type Duplicate struct {
	// Path is where the second one is: the names of the enclosing members
	// and array indexes and the name itself, joined by '/' ("data/model",
	// "annotations/0/id"), unescaped; beyond maxPath bytes only its end,
	// after "…".
	Path string
	// Name is the member name.
	Name string
}

// DuplicateName finds the first member name that appears twice in one
// object of the JSON value b, at any depth (encoding/json keeps the last
// of the two values silently; RFC 8259 leaves the meaning open). ok is
// false when there is none, and when b is not valid JSON: the caller's
// decoder reports that. Invalid UTF-8 is left to the caller too.
func DuplicateName(b []byte) (d Duplicate, ok bool) {
	opt := ejt.AllowInvalidUTF8(true)
	if ejt.Value(b).IsValid(opt) {
		return Duplicate{}, false
	}
	_, err := ejt.NewDecoder(bytes.NewReader(b), opt).ReadValue()
	var se *ejt.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, ejt.ErrDuplicateName) || !ejt.Value(b).IsValid(opt, ejt.AllowDuplicateNames(true)) {
		return Duplicate{}, false
	}
	var parts []string
	for tok := range se.JSONPointer.Tokens() {
		parts = append(parts, tok)
	}
	path := strings.Join(parts, "/")
	if len(path) > maxPath { // deep nesting: the innermost part locates it
		tail := path[len(path)-maxPath:]
		if i := strings.IndexByte(tail, '/'); i >= 0 {
			tail = tail[i:] // whole names only
		}
		path = "…" + strings.ToValidUTF8(tail, "")
	}
	return Duplicate{Path: path, Name: se.JSONPointer.LastToken()}, true
}

// maxPath bounds Duplicate.Path, in bytes, which names every enclosing
// member of a deeply nested duplicate otherwise.
const maxPath = 200
