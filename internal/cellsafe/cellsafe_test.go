package cellsafe

import "testing"

func TestCSV(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`=HYPERLINK("http://x")`, `'=HYPERLINK("http://x")`},
		{"-1+2", "'-1+2"},
		{"@SUM(1)", "'@SUM(1)"},
		{"+49 30 1234", "'+49 30 1234"},
		{"\tcmd", "'\tcmd"},
		{"\r=1", "'\r=1"},
		{"'quoted", "''quoted"},
		{"atlas-5", "atlas-5"},
		{"a=b", "a=b"},
		{"", ""},
		{" =1", " =1"},
		{"—dash", "—dash"},
	}
	for _, tt := range tests {
		got := CSV(tt.in)
		if got != tt.want {
			t.Errorf("CSV(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := Restore(got); back != tt.in {
			t.Errorf("Restore(CSV(%q)) = %q", tt.in, back)
		}
	}
}

func TestFormula(t *testing.T) {
	for _, s := range []string{"=", "+", "-", "@", "\t", "\r", "-0.5"} {
		if !Formula(s) {
			t.Errorf("Formula(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "0.5", "x=1", "'", "\n", " -"} {
		if Formula(s) {
			t.Errorf("Formula(%q) = true, want false", s)
		}
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"=1", "'", "''=", "plain", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := CSV(s)
		if Formula(c) {
			t.Errorf("CSV(%q) = %q still starts like a formula", s, c)
		}
		if Restore(c) != s {
			t.Errorf("Restore(CSV(%q)) = %q", s, Restore(c))
		}
	})
}
