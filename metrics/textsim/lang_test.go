package textsim

import (
	"strings"
	"testing"
)

// Hand-computed ROUGE for German and Chinese with the Unicode tokenizer
// (RougeOptions.Unicode). The expected fractions are worked out in the
// comments from the token lists, independently of the code.
func TestRougeUnicodeHand(t *testing.T) {
	cases := []struct {
		name, hyp, ref string
		r1, r2, rl     Score
	}{
		{
			// hyp: die größe der stichprobe reicht nicht (6 tokens)
			// ref: die stichprobe ist zu klein die größe reicht nicht (9)
			// unigram overlap 5 (die clipped to 1; der missing)
			// bigrams: die größe, reicht nicht of 5 vs 8
			// LCS 4 (die stichprobe reicht nicht)
			name: "german",
			hyp:  "Die Größe der Stichprobe reicht nicht.",
			ref:  "Die Stichprobe ist zu klein, die Größe reicht nicht.",
			r1:   Score{5.0 / 6, 5.0 / 9, 2.0 / 3},
			r2:   Score{2.0 / 5, 2.0 / 8, 4.0 / 13},
			rl:   Score{4.0 / 6, 4.0 / 9, 8.0 / 15},
		},
		{
			// hyp: 北 京 后 天 下 雨, ref: 北 京 后 天 有 雨 (6 each)
			// unigrams 5 of 6; bigrams 北京 京后 后天: 3 of 5; LCS 5
			name: "chinese",
			hyp:  "北京后天下雨。",
			ref:  "北京后天有雨。",
			r1:   Score{5.0 / 6, 5.0 / 6, 5.0 / 6},
			r2:   Score{3.0 / 5, 3.0 / 5, 3.0 / 5},
			rl:   Score{5.0 / 6, 5.0 / 6, 5.0 / 6},
		},
		{
			// hyp: gpu 价 格 涨 了 15 (6), ref: gpu 价 格 上 涨 了 15 (7)
			// unigrams 6; bigrams gpu价 价格 涨了 了15: 4 of 5 vs 6; LCS 6
			name: "chinese-mixed",
			hyp:  "GPU价格涨了15%",
			ref:  "GPU价格上涨了15%。",
			r1:   Score{6.0 / 6, 6.0 / 7, 12.0 / 13},
			r2:   Score{4.0 / 5, 4.0 / 6, 8.0 / 11},
			rl:   Score{6.0 / 6, 6.0 / 7, 12.0 / 13},
		},
	}
	near := func(t *testing.T, what string, got, want Score) {
		t.Helper()
		for _, p := range [][2]float64{{got.Precision, want.Precision}, {got.Recall, want.Recall}, {got.F1, want.F1}} {
			if d := p[0] - p[1]; d > 1e-15 || d < -1e-15 {
				t.Errorf("%s = %+v, want %+v", what, got, want)
				return
			}
		}
	}
	for _, c := range cases {
		for _, stem := range []bool{false, true} { // the stemmer never applies
			got := ScoreRouge(c.hyp, c.ref, RougeOptions{Unicode: true, Stemmer: stem})
			near(t, c.name+" rouge1", got.Rouge1, c.r1)
			near(t, c.name+" rouge2", got.Rouge2, c.r2)
			near(t, c.name+" rougeL", got.RougeL, c.rl)
			near(t, c.name+" rougeLsum", got.RougeLsum, c.rl) // one line each
		}
	}
}

func TestTokenizeUnicode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Größe für Maß", "größe für maß"},
		{"ÜBER Öl", "über öl"},
		{"人工智能不是万能药，她说。", "人 工 智 能 不 是 万 能 药 她 说"},
		{"カタカナーとひらがな", "カ タ カ ナ ー と ひ ら が な"},
		{"don't stop", "don t stop"},
		{"café 3,5 km", "café 3 5 km"},
		{"", ""},
	} {
		if got := strings.Join(TokenizeUnicode(c.in), " "); got != c.want {
			t.Errorf("TokenizeUnicode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestASCIIDropped(t *testing.T) {
	for _, c := range []struct {
		in               string
		dropped, letters int
	}{
		{"für", 1, 3},
		{"The cat, 42.", 0, 8},
		{"人工智能", 4, 4},
		{"İstanbul", 0, 8},
		{"", 0, 0},
	} {
		d, l := ASCIIDropped(c.in)
		if d != c.dropped || l != c.letters {
			t.Errorf("ASCIIDropped(%q) = %d, %d; want %d, %d", c.in, d, l, c.dropped, c.letters)
		}
	}
}

func TestDetectLanguage(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  string
		tok   string
	}{
		{[]string{"The board approved the budget for the year and it is final."}, "en", Tok13a},
		{[]string{"Die Sitzung beginnt um 9:30 Uhr.", "Für die Prüfung müssen alle Unterlagen und der Bericht vorliegen."}, "de", Tok13a},
		{[]string{"会议将于上午九点半在大厅开始。", "GPU 的价格在 2023 年上涨了 15%。"}, "zh", TokZh},
		{[]string{"会議は午前九時半に始まります。"}, "ja", TokChr},
		{[]string{"회의는 오전 9시 30분에 시작됩니다."}, "ko", TokIntl},
		{[]string{"Заседание начинается в девять."}, "ru", Tok13a},
		{[]string{"12345 !!!"}, "und", Tok13a},
		{[]string{"Xyzzy plugh"}, "en", Tok13a},
	} {
		got := DetectLanguage(c.texts)
		if got.Code != c.want || got.BLEUTokenizer() != c.tok || got.Reason == "" {
			t.Errorf("DetectLanguage(%q) = %+v (tokenizer %s), want %s (%s)", c.texts, got, got.BLEUTokenizer(), c.want, c.tok)
		}
	}
}

func TestParseLanguage(t *testing.T) {
	for _, c := range []struct {
		in, want string
		bad      bool
	}{
		{"de", "de", false}, {"zh-Hans", "zh", false}, {"EN_us", "en", false}, {" ja ", "ja", false},
		{"", "", true}, {"german!", "", true}, {"x", "", true}, {"1234", "", true},
	} {
		got, err := ParseLanguage(c.in)
		if (err != nil) != c.bad || got.Code != c.want {
			t.Errorf("ParseLanguage(%q) = %+v, %v; want %q (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
}
