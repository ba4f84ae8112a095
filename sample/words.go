package sample

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Word lists behind the synthetic business prose. The texts are nonsense in
// detail but read like executive memos: a scenario with a company, a country,
// figures and a friction point, and answers that weigh options. Each text
// has one sentence per line so that ROUGE-Lsum sees sentences.

var (
	domainNames = []string{"Business", "Finance", "Marketing", "Product"}

	decisionTypes = []string{"market entry", "pricing", "restructuring", "investment", "compliance", "partnership"}

	companyStems = []string{"Nordwind", "Alpenhof", "Lumora", "Castellan", "Vireo", "Brightwater", "Kestrel",
		"Meridian", "Solano", "Tidewell", "Ostara", "Halvard", "Quintara", "Belmonte", "Arvena", "Falkenberg"}
	companyKinds = []string{"Logistics", "Foods", "Retail", "Software", "Mobility", "Pharma", "Energy",
		"Textiles", "Insurance", "Robotics", "Hospitality", "Telecom"}
	companyForms = []string{"GmbH", "S.A.", "B.V.", "S.p.A.", "AB", "SAS", "Ltd", "Sp. z o.o."}
	countries    = []string{"Germany", "France", "Portugal", "Spain", "Italy", "the Netherlands", "Poland",
		"Sweden", "Austria", "Belgium", "Ireland", "Denmark"}
	cities = []string{"Hamburg", "Lyon", "Porto", "Valencia", "Turin", "Rotterdam", "Wrocław", "Malmö",
		"Graz", "Ghent", "Cork", "Aarhus"}
	roles = []string{"the CFO", "the CEO", "the board", "the works council", "the head of sales",
		"the product lead", "the procurement team", "the regional director", "the legal team", "the CMO"}

	objects = []string{"the pricing model", "the distribution contract", "the supplier base",
		"the launch timeline", "the headcount plan", "the working capital position", "the customer churn",
		"the brand positioning", "the data protection exposure", "the warehouse footprint",
		"the subscription tier", "the loyalty programme", "the cost of capital", "the retail channel",
		"the payment terms", "the product roadmap", "the tender process", "the transfer pricing policy"}
	verbs = []string{"review", "renegotiate", "phase", "consolidate", "benchmark", "stress-test",
		"prioritise", "restructure", "pilot", "localise", "hedge", "document", "sequence", "quantify"}
	qualifiers = []string{"before the next funding round", "within the first two quarters",
		"under the current budget cap", "without breaching the covenant", "in line with EU rules",
		"with the works council involved early", "while keeping EBITDA neutral", "ahead of the peak season",
		"across all regional entities", "with a clear exit criterion", "at the lowest switching cost",
		"given the VAT treatment in each market"}
	openers = []string{"In practice,", "Given the constraints,", "As a first step,", "On balance,",
		"From a risk perspective,", "In the short term,", "More importantly,", "To be concrete,",
		"For the board,", "Financially,", "Operationally,", "Legally,"}
	hedges = []string{"This depends on the assumptions used.", "The numbers should be validated with finance.",
		"A sensitivity analysis would make this more robust.", "Local counsel should confirm the details.",
		"The team should revisit this after the pilot.", "Stakeholders will need a short briefing on this."}
	keyNouns = []string{"break-even analysis", "phased rollout", "works council consultation",
		"currency hedge", "distributor agreement", "pilot market", "price corridor", "exit clause",
		"cash runway", "GDPR assessment", "supplier audit", "margin bridge", "hiring freeze",
		"customer segmentation", "tender scoring", "transfer pricing study", "payback period",
		"risk register", "channel conflict", "licence review", "capacity plan", "bundle offer",
		"stakeholder map", "cost baseline"}
	keyVerbs = []string{"Recommends", "Identifies", "Quantifies", "Proposes", "Flags", "Compares",
		"Explains", "Sequences", "Justifies", "Addresses"}
	commentWords = []string{"Solid structure but misses the local regulation.", "Too generic for an executive.",
		"Good use of the figures given.", "Ignores the budget cap.", "Clear recommendation, well argued.",
		"Numbers do not add up.", "Reads well; reasoning is shallow.", "Best of the set in my view.",
		"Confuses the two markets.", "Actionable and specific."}
	criterionCategories = []string{"Accuracy", "Compliance", "Risk", "Practicality", "Communication"}
	pitfalls            = []string{"Recommends an acquisition although acquisitions are excluded",
		"Ignores the budget cap", "Invents a regulation that does not exist", "Exceeds the headcount limit",
		"Suggests more than one launch before the funding round", "Uses figures not given in the prompt"}
)

// pick returns a uniformly drawn element of list.
func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// company returns a fictional company name.
func company(r *rand.Rand) string {
	return pick(r, companyStems) + " " + pick(r, companyKinds) + " " + pick(r, companyForms)
}

// keyPhrase returns the phrase a checklist item tests, e.g. "phased rollout in Porto".
func keyPhrase(r *rand.Rand) string {
	switch r.IntN(3) {
	case 0:
		return "the " + pick(r, keyNouns) + " for " + pick(r, countries)
	case 1:
		return "a " + pick(r, keyNouns) + " in " + pick(r, cities)
	default:
		return "the " + pick(r, keyNouns) + " " + pick(r, qualifiers)
	}
}

// sentence returns one generic business sentence (no trailing newline).
func sentence(r *rand.Rand) string {
	var b strings.Builder
	switch r.IntN(4) {
	case 0:
		b.WriteString(pick(r, openers))
		b.WriteString(" the company should ")
		b.WriteString(pick(r, verbs))
		b.WriteByte(' ')
		b.WriteString(pick(r, objects))
		b.WriteByte(' ')
		b.WriteString(pick(r, qualifiers))
		b.WriteByte('.')
	case 1:
		b.WriteString(capitalise(pick(r, roles)))
		b.WriteString(" will need to ")
		b.WriteString(pick(r, verbs))
		b.WriteByte(' ')
		b.WriteString(pick(r, objects))
		b.WriteString(", because ")
		b.WriteString(pick(r, objects))
		b.WriteString(" in ")
		b.WriteString(pick(r, countries))
		b.WriteString(" drives about ")
		b.WriteString(strconv.Itoa(5 + r.IntN(60)))
		b.WriteString("% of the margin.")
	case 2:
		b.WriteString(pick(r, openers))
		b.WriteByte(' ')
		b.WriteString(pick(r, objects))
		b.WriteString(" is the main constraint, so ")
		b.WriteString(pick(r, roles))
		b.WriteString(" should ")
		b.WriteString(pick(r, verbs))
		b.WriteString(" it ")
		b.WriteString(pick(r, qualifiers))
		b.WriteByte('.')
	default:
		b.WriteString(pick(r, hedges))
	}
	return b.String()
}

// keySentence returns a sentence that states a checklist key phrase.
func keySentence(r *rand.Rand, phrase string) string {
	switch r.IntN(3) {
	case 0:
		return "The recommendation rests on " + phrase + "."
	case 1:
		return pick(r, openers) + " I would start with " + phrase + "."
	default:
		return capitalise(pick(r, roles)) + " should sign off " + phrase + " " + pick(r, qualifiers) + "."
	}
}

// capitalise upper-cases the first ASCII letter of s.
func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// prose writes sentences, one per line, until about target bytes are reached.
// The key phrases in include are woven in at random places.
func prose(r *rand.Rand, target int, include []string) string {
	var b strings.Builder
	b.Grow(target + 200)
	pending := append([]string(nil), include...)
	r.Shuffle(len(pending), func(i, j int) { pending[i], pending[j] = pending[j], pending[i] })
	first := true
	for b.Len() < target || len(pending) > 0 {
		var s string
		if len(pending) > 0 && (r.IntN(3) == 0 || b.Len() >= target) {
			s = keySentence(r, pending[0])
			pending = pending[1:]
		} else {
			s = sentence(r)
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(s)
	}
	return b.String()
}

// promptText returns a scenario of about target bytes ending with a question.
func promptText(r *rand.Rand, target int, firm, country, city, decision string) string {
	var b strings.Builder
	b.WriteString(firm)
	b.WriteString(" is a mid-sized company headquartered in ")
	b.WriteString(city)
	b.WriteString(" with revenue of EUR ")
	b.WriteString(strconv.Itoa(20 + r.IntN(480)))
	b.WriteString("M and ")
	b.WriteString(strconv.Itoa(80 + r.IntN(2000)))
	b.WriteString(" employees.\n")
	b.WriteString("The leadership team faces a ")
	b.WriteString(decision)
	b.WriteString(" decision involving ")
	b.WriteString(country)
	b.WriteString(".\n")
	for b.Len() < target {
		b.WriteString(sentence(r))
		b.WriteByte('\n')
	}
	b.WriteString(capitalise(pick(r, roles)))
	b.WriteString(" wants ")
	b.WriteString(pick(r, objects))
	b.WriteString(" changed, while ")
	b.WriteString(pick(r, roles))
	b.WriteString(" refuses.\n")
	b.WriteString("What should the company do, and how should it sequence the decision?")
	return b.String()
}
