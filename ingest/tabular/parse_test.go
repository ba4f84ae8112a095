package tabular

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4", 4, true},
		{" 4 ", 4, true},
		{"\t4\n", 4, true},
		{"4.0", 4, true},
		{"4.00", 4, true},
		{"-3", -3, true},
		{"+2", 2, true},
		{"1e3", 1000, true},
		{"101", 101, true},
		{"9223372036854775807", math.MaxInt64, true}, // exact through strconv.ParseInt
		{"9007199254740992.0", 1 << 53, true},
		{"9007199254740994.0", 0, false}, // beyond 2^53 as a float: not exact
		{"4.5", 0, false},
		{"4.000001", 0, false},
		{"", 0, false},
		{"   ", 0, false},
		{"x", 0, false},
		{"4 5", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"0x10", 0, false},
		{"1_000", 0, false},
		{"4,0", 4, true},
		{"\u00a04,00\u00a0", 4, true},
		{"1,000", 0, false}, // a thousands separator, or not: rejected
		{"4,5", 0, false},
		{",5", 0, false},
		{"4,", 0, false},
		{"1.000,5", 0, false},
		{"4,0,0", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseInt(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.5", 0.5, true},
		{" 3 ", 3, true},
		{"1e-3", 0.001, true},
		{"-2.25", -2.25, true},
		{"0,25", 0.25, true},
		{"-2,5", -2.5, true},
		{"1,5e3", 0, false},
		{".5", 0.5, true},
		{"NaN", 0, false},
		{"nan", 0, false},
		{"Inf", 0, false},
		{"-Infinity", 0, false},
		{"1e400", 0, false}, // overflows
		{"", 0, false},
		{"1,5", 1.5, true},
		{"0x1p4", 0, false},
		{"abc", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseFloat(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{101, "101"},
		{4.0, "4"},
		{math.Copysign(0, -1), "0"}, // negative zero (the constant -0.0 is +0 in Go)
		{0, "0"},
		{0.5, "0.5"},
		{0.1, "0.1"},
		{0.30000000000000004, "0.30000000000000004"}, // the float64 nearest 0.1+0.2
		{1234567.5, "1234567.5"},
		{1 << 53, "9007199254740992"},
		{1 << 54, "18014398509481984"}, // integral, plain notation below 1e21
		{1e21, "1e+21"},
		{1e-7, "0.0000001"},
		{1.5e-8, "1.5e-08"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Inf"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.in); got != tt.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidUTF8Offset(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", -1},
		{"plain ascii text, long enough", -1},
		{"café ünïcödé 😀", -1},
		{"abcdefghij\xffk", 10},       // after the 8-byte ASCII fast path
		{"ab\xe9", 2},                 // Latin-1 é
		{"abc\xe2\x82", 3},            // truncated 3-byte sequence at the end
		{"\xc0\x80", 0},               // overlong NUL
		{"ok\xed\xa0\x80", 2},         // UTF-16 surrogate
		{"\xf4\x90\x80\x80", 0},       // above U+10FFFF
		{"aaaaaaaaé\x80", 10},         // stray continuation byte
		{"12345678\xef\xbb\xbfz", -1}, // a BOM inside text is valid UTF-8
	}
	for _, tt := range tests {
		if got := ValidUTF8Offset([]byte(tt.in)); got != tt.want {
			t.Errorf("ValidUTF8Offset(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestSHA256File(t *testing.T) {
	p := filepath.Join(t.TempDir(), "abc.txt")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	// FIPS 180-2 test vector: SHA-256("abc").
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got, err := SHA256File(p); err != nil || got != want {
		t.Errorf("got %s, %v; want %s", got, err, want)
	}
	if _, err := SHA256File(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing file: got no error")
	}
}

func TestParseMicros(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"0.1", 100000, true},
		{" 25 ", 25000000, true},
		{"1,5", 1500000, true},
		{"-2.5", -2500000, true},
		{"2.5e-1", 250000, true},
		{"1e6", 1000000000000, true},
		{"0.000001", 1, true},
		{"0.0000010", 1, true},
		{"0.0000001", 0, false},
		{"1e-7", 0, false},
		{"0.30000000000000004", 0, false},
		{"1e30", 0, false},
		{"1e-9999", 0, false},
		{"abc", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Helper()
			got, ok := ParseMicros(tc.in)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("ParseMicros(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}
