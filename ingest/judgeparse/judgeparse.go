// Package judgeparse reads an LLM judge's verdict out of the text the judge
// returned: a JSON object (the whole text, inside a ``` code fence, or after
// some prose), read through JSON pointers (RFC 6901) per rubric attribute,
// checklist item and rank; or plain text read through a regular expression
// with named groups. It is the engine behind study.toml's [judges.parse]
// and does no I/O.
package judgeparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/internal/jsontext"
)

// Spec says where each field of the instrument is in a verdict.
type Spec struct {
	// Rubric maps a rubric attribute to the JSON pointer of its score, e.g.
	// "Domain" → "/scores/Domain". An attribute not listed is read from
	// "/<attribute>".
	Rubric map[string]string
	// Checklist is the pointer template of a checklist verdict: {item} is
	// replaced by the item number (1, 2, …) and {index} by item − 1, e.g.
	// "/checklist/{index}" or "/items/C{item}". Default "/C{item}".
	Checklist string
	// Rank is the pointer of the rank; default "/rank".
	Rank string
	// Regex, when set, is used instead of JSON: a Go regular expression
	// whose named groups are rubric attributes, C1…Cn and rank
	// (case-insensitive), e.g. `Domain:\s*(?P<Domain>\d)`.
	Regex string
}

// Parser extracts verdicts under one Spec.
type Parser struct {
	attrs     []string
	ptrs      []string
	checklist string
	rank      string
	re        *regexp.Regexp
	groups    map[string]int // canonical field → group index
}

// New compiles a Spec for the given rubric attributes. It is an error for a
// pointer not to start with "/", for Rubric to name an attribute the rubric
// does not have, for the regex not to compile, or for a named group to be
// neither an attribute, C<n> nor rank.
func New(s Spec, attributes []string) (*Parser, error) {
	p := &Parser{attrs: attributes, checklist: s.Checklist, rank: s.Rank}
	if p.checklist == "" {
		p.checklist = "/C{item}"
	}
	if p.rank == "" {
		p.rank = "/rank"
	}
	byLower := map[string]string{}
	for _, a := range attributes {
		byLower[strings.ToLower(a)] = a
	}
	var errs []string
	for a, ptr := range s.Rubric {
		if _, ok := byLower[strings.ToLower(a)]; !ok {
			errs = append(errs, fmt.Sprintf("rubric.%s: not a rubric attribute (%s)", a, strings.Join(attributes, ", ")))
		}
		if !strings.HasPrefix(ptr, "/") {
			errs = append(errs, fmt.Sprintf("rubric.%s = %q: a JSON pointer starts with /", a, ptr))
		}
	}
	for _, a := range attributes {
		ptr := "/" + escape(a)
		for k, v := range s.Rubric {
			if strings.EqualFold(k, a) {
				ptr = v
			}
		}
		p.ptrs = append(p.ptrs, ptr)
	}
	for name, v := range map[string]string{"checklist": p.checklist, "rank": p.rank} {
		if !strings.HasPrefix(v, "/") {
			errs = append(errs, fmt.Sprintf("%s = %q: a JSON pointer starts with /", name, v))
		}
	}
	if s.Regex != "" {
		re, err := regexp.Compile(s.Regex)
		if err != nil {
			errs = append(errs, fmt.Sprintf("regex: %v", err))
		} else {
			p.re = re
			p.groups = map[string]int{}
			for i, n := range re.SubexpNames() {
				if n == "" {
					continue
				}
				l := strings.ToLower(n)
				switch _, isAttr := byLower[l]; {
				case isAttr, l == "rank":
				case len(l) > 1 && l[0] == 'c' && isDigits(l[1:]):
				default:
					errs = append(errs, fmt.Sprintf("regex: group %q is not a rubric attribute, C1…Cn or rank", n))
				}
				p.groups[l] = i
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return p, nil
}

// Verdict is what one judge output says, as text values keyed by canonical
// field: the attribute name in lower case, "c1"…"cn", "rank". A field the
// output does not give is absent.
type Verdict map[string]string

// ErrNoVerdict is wrapped by Parse when the text holds no verdict.
var ErrNoVerdict = errors.New("no verdict")

// Parse reads the verdict of a question with items checklist items from a
// judge's text.
func (p *Parser) Parse(text string, items int) (Verdict, error) {
	if p.re != nil {
		m := p.re.FindStringSubmatch(text)
		if m == nil {
			return nil, fmt.Errorf("%w: the text does not match the regex", ErrNoVerdict)
		}
		v := Verdict{}
		for name, i := range p.groups {
			if i < len(m) && m[i] != "" {
				v[name] = m[i]
			}
		}
		if len(v) == 0 {
			return nil, fmt.Errorf("%w: the regex matched but no named group did", ErrNoVerdict)
		}
		return v, nil
	}
	doc, err := FindJSON(text)
	if err != nil {
		return nil, err
	}
	return p.FromJSON(doc, items)
}

// FromJSON reads the fields of a decoded JSON document (as decoded by
// encoding/json with UseNumber) through the pointers. It is an error when
// no field is found.
func (p *Parser) FromJSON(doc any, items int) (Verdict, error) {
	v := Verdict{}
	for i, a := range p.attrs {
		if s, ok := lookup(doc, p.ptrs[i]); ok {
			v[strings.ToLower(a)] = s
		}
	}
	for it := 1; it <= items; it++ {
		ptr := strings.NewReplacer("{item}", strconv.Itoa(it), "{index}", strconv.Itoa(it-1)).Replace(p.checklist)
		if s, ok := lookup(doc, ptr); ok {
			v["c"+strconv.Itoa(it)] = s
		}
	}
	if s, ok := lookup(doc, p.rank); ok {
		v["rank"] = s
	}
	if len(v) == 0 {
		return nil, fmt.Errorf("%w: none of the fields is in the JSON object", ErrNoVerdict)
	}
	return v, nil
}

// FindJSON finds the verdict object in a judge's text: the whole text when
// it is JSON, else the first ```json (or ```) fence holding a JSON object,
// else the first balanced {…} that decodes. Numbers are kept as
// json.Number.
func FindJSON(text string) (any, error) {
	t := strings.TrimSpace(text)
	if doc, ok := decode(t); ok {
		return unambiguous(t, doc)
	}
	for rest := t; ; {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		body := rest[i+3:]
		j := strings.Index(body, "```")
		if j < 0 {
			break
		}
		block := body[:j]
		if nl := strings.IndexByte(block, '\n'); nl >= 0 && !strings.HasPrefix(strings.TrimSpace(block[:nl]), "{") {
			block = block[nl+1:] // drop the language tag line
		}
		if doc, ok := decode(strings.TrimSpace(block)); ok {
			return unambiguous(block, doc)
		}
		rest = body[j+3:]
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		if end := balanced(t[i:]); end > 0 {
			if doc, ok := decode(t[i : i+end]); ok {
				return unambiguous(t[i:i+end], doc)
			}
		}
	}
	return nil, fmt.Errorf("%w: no JSON object in the text", ErrNoVerdict)
}

// unambiguous returns doc, decoded from s, unless s has a key twice in one
// object: which of the two values the judge meant cannot be told (and
// encoding/json keeps the last silently), so there is no verdict.
func unambiguous(s string, doc any) (any, error) {
	if d, dup := jsontext.DuplicateName([]byte(s)); dup {
		return nil, fmt.Errorf("%w: key %q twice in one JSON object (at %s)", ErrNoVerdict, d.Name, "/"+d.Path)
	}
	return doc, nil
}

func decode(s string) (any, bool) {
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, false
	}
	if dec.More() {
		return nil, false
	}
	return doc, true
}

// balanced returns the length of the {…} that opens s, honouring strings;
// 0 when it does not close.
func balanced(s string) int {
	depth := 0
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// Lookup resolves an RFC 6901 JSON pointer in a decoded document and returns
// the value as text: a number as written, a string as is, true/false as
// "yes"/"no"; null and objects or arrays are not a value.
func Lookup(doc any, ptr string) (string, bool) { return lookup(doc, ptr) }

func lookup(doc any, ptr string) (string, bool) {
	if ptr == "" {
		return "", false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return "", false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			cur = x[i]
		default:
			return "", false
		}
	}
	switch x := cur.(type) {
	case json.Number:
		return x.String(), true
	case string:
		return x, true
	case bool:
		if x {
			return "yes", true
		}
		return "no", true
	}
	return "", false
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func isDigits(s string) bool {
	return s != "" && bytes.IndexFunc([]byte(s), func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// Excerpt returns the first n characters (runes) of s on one line, for
// warnings.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
