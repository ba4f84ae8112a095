package jsontext

// ValidString checks the JSON string literal that starts at b[i] (which
// must be '"') and returns the index just after its closing quote. It
// accepts exactly what encoding/json accepts in a string, except that it
// does not look at UTF-8 (callers check that separately).
func ValidString(b []byte, i int) (end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		c := b[j]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		switch c {
		case '"':
			return j + 1, true
		case '\\':
			j++
			if j >= len(b) {
				return 0, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || hex4(b[j+1:j+5]) < 0 {
					return 0, false
				}
				j += 4
			default:
				return 0, false
			}
		default: // a control character
			return 0, false
		}
	}
	return 0, false
}
