package tabular

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxExactInt is 2^53: every integer up to this magnitude is exact in a
// float64.
const maxExactInt = 1 << 53

// ParseInt parses an integer cell. It trims surrounding white space and
// accepts integer text ("4", " 4 ", "-3", "+2") and integral decimal or
// exponent forms ("4.0", "4,0", "4.00", "1e3") up to 2^53 in magnitude; it rejects
// fractions ("4.5"), empty or blank text, NaN/Inf and anything else ("x").
func ParseInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, true
	}
	f, ok := ParseFloat(s)
	if !ok || f != math.Trunc(f) || math.Abs(f) > maxExactInt {
		return 0, false
	}
	return int64(f), true
}

// ParseFloat parses a number cell. It trims surrounding white space
// (no-break spaces too) and accepts decimal and exponent forms ("0.5", " 3 ",
// "1e-3") and a decimal comma as typed in much of Europe ("4,0", "0,25";
// not "1,000", which may be a thousands separator); it rejects empty text,
// the words NaN and Inf/Infinity (any case), values that overflow a
// float64, hexadecimal floats and underscores.
func ParseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if i := strings.IndexByte(s, ','); i >= 0 {
		frac := s[i+1:]
		if i == 0 || strings.ContainsAny(frac, ",.eE") || strings.ContainsRune(s[:i], '.') || frac == "" || len(frac) == 3 {
			return 0, false
		}
		s = s[:i] + "." + frac
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '+', c == 'e', c == 'E':
		default:
			return 0, false // letters of NaN/Inf/hex, underscores, inner spaces
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// FormatNumber writes a float64 as text the way the readers present
// numbers: integral values up to 2^53 in magnitude as integers ("4", "1000",
// "-0" becomes "0"); other values with the fewest digits that read back to
// the same float64, in plain notation when 1e-7 ≤ |v| < 1e21 ("0.5", "0.1",
// "1234567.5") and in exponent notation outside that range ("1e-08",
// "1e+21"), as JavaScript's Number.toString does. NaN and ±Inf give "NaN",
// "+Inf" and "-Inf" (they cannot come from JSON input).
func FormatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if v == math.Trunc(v) && math.Abs(v) <= maxExactInt {
		return strconv.FormatInt(int64(v), 10)
	}
	if a := math.Abs(v); a >= 1e-7 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ValidUTF8Offset returns -1 if b is valid UTF-8, else the byte offset of the
// first byte that does not start a valid encoding.
func ValidUTF8Offset(b []byte) int {
	// Fast path over ASCII, 8 bytes at a time.
	i := 0
	for i+8 <= len(b) {
		if (uint64(b[i])|uint64(b[i+1])|uint64(b[i+2])|uint64(b[i+3])|
			uint64(b[i+4])|uint64(b[i+5])|uint64(b[i+6])|uint64(b[i+7]))&0x80 != 0 {
			break
		}
		i += 8
	}
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// SHA256File returns the hex SHA-256 of a file's content. Readers give the
// same value through Digest without a second read.
func SHA256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashingReader passes reads through and hashes and counts what it passed.
type hashingReader struct {
	r   io.Reader
	h   hash.Hash
	n   int64
	eof bool
}

func newHashingReader(r io.Reader) *hashingReader {
	return &hashingReader{r: r, h: sha256.New()}
}

func (hr *hashingReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	hr.h.Write(p[:n])
	hr.n += int64(n)
	if err == io.EOF {
		hr.eof = true
	}
	return n, err
}

// finish reads the rest of the input and returns the hex digest.
func (hr *hashingReader) finish() (string, error) {
	if !hr.eof {
		if _, err := io.Copy(io.Discard, hr); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(hr.h.Sum(nil)), nil
}

// maxMicrosInt is the largest whole number ParseMicros takes: its
// millionths fit in 18 digits.
const maxMicrosInt = 999_999_999_999

// ParseMicros reads a number cell exactly, in millionths: "0.1" is 100000,
// "25" is 25000000, "1,5" is 1500000, "2.5e-1" is 250000. ok is false when
// the text is not a number (as ParseFloat), is not a whole number of
// millionths, or the millionths do not fit in 18 digits. The decimal text
// is read digit by digit, never through a float.
func ParseMicros(s string) (int64, bool) {
	if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil { // whole numbers, the common case
		if n > maxMicrosInt || n < -maxMicrosInt {
			return 0, false
		}
		return n * 1_000_000, true
	}
	if _, ok := ParseFloat(s); !ok {
		return 0, false
	}
	s = strings.TrimSpace(s)
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 100 || e < -100 {
			return 0, false
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(strings.Replace(mant, ",", ".", 1), ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	// value·10^6 = digits · 10^-scale
	scale := len(frac) - exp - 6
	for scale > 0 && strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		scale--
	}
	if digits == "" {
		return 0, true
	}
	if scale > 0 {
		return 0, false
	}
	if len(digits)-scale > 18 {
		return 0, false
	}
	digits += strings.Repeat("0", -scale)
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}
