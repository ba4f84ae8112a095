package platforms

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseList reads a list cell of a CSV export: JSON, or the Python literal
// pandas writes for a list (['a', "b's"], [4, 3.5], None, True, False,
// nested lists and dicts). Anything else is an error saying where.
func ParseList(s string) ([]any, error) {
	t := strings.TrimSpace(s)
	if x, ok := decodeJSON(t); ok {
		if l, ok := x.([]any); ok {
			return l, nil
		}
		return nil, errors.New("not a list")
	}
	p := pyParser{s: t}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at character %d", p.s[p.i:min(p.i+10, len(p.s))], p.i+1)
	}
	l, ok := v.([]any)
	if !ok {
		return nil, errors.New("not a list")
	}
	return l, nil
}

type pyParser struct {
	s string
	i int
}

const maxDepth = 64

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *pyParser) errf(format string, a ...any) error {
	return fmt.Errorf("character %d: "+format, append([]any{p.i + 1}, a...)...)
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errf("lists nested more than %d deep", maxDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errf("a value expected, found the end")
	}
	switch c := p.s[p.i]; {
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		var out []any
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				if out == nil {
					out = []any{}
				}
				return out, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == end {
				continue
			}
			return nil, p.errf("',' or '%c' expected", end)
		}
	case c == '{':
		p.i++
		out := map[string]any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return out, nil
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			ks, ok := Text(k)
			if !ok {
				return nil, p.errf("a text or number as a key")
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.errf("':' expected")
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out[ks] = v
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			}
		}
	case c == '\'' || c == '"':
		return p.str(c)
	}
	j := p.i
	for j < len(p.s) && !strings.ContainsRune(",]):} \t\r\n", rune(p.s[j])) {
		j++
	}
	w := p.s[p.i:j]
	switch w {
	case "None", "nan", "NaN":
		p.i = j
		return nil, nil
	case "True":
		p.i = j
		return true, nil
	case "False":
		p.i = j
		return false, nil
	}
	if _, err := strconv.ParseFloat(w, 64); err == nil && w != "" && !strings.ContainsAny(w, "xXpP_") {
		p.i = j
		return json.Number(w), nil
	}
	return nil, p.errf("a text in quotes, a number, None, True or False expected, found %q", w)
}

// str reads a quoted Python string with its backslash escapes.
func (p *pyParser) str(q byte) (any, error) {
	start := p.i
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return nil, p.errf("a \\%c escape cut off", e)
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || r > 0x10FFFF {
					return nil, p.errf("a bad \\%c escape", e)
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	p.i = start
	return nil, p.errf("a text in quotes not closed")
}
