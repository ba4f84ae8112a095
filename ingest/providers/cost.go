package providers

import "math"

// Cost is the price in US dollars of a request with inTok prompt and outTok
// generated tokens at usdPer1kIn and usdPer1kOut dollars per 1,000 tokens
// (the models table's usd_per_1k_input and usd_per_1k_output), less a batch
// discount given as a fraction of the price (0.5 = 50 % off, the OpenAI,
// Anthropic and Gemini batch rate; 0 = list price):
//
//	(inTok·usdPer1kIn + outTok·usdPer1kOut) / 1000 · (1 − batchDiscount)
//
// The result is NaN when a token count is unknown (negative, as the -1 of a
// [Record]), when a price is negative, NaN or infinite, or when the discount
// is outside [0, 1] or NaN: an unknown cost is never reported as 0.
func Cost(inTok, outTok int64, usdPer1kIn, usdPer1kOut, batchDiscount float64) float64 {
	if inTok < 0 || outTok < 0 || !price(usdPer1kIn) || !price(usdPer1kOut) ||
		!(batchDiscount >= 0 && batchDiscount <= 1) {
		return math.NaN()
	}
	// Explicit conversions keep each product rounded on its own (no fused
	// multiply-add), so the result is the same on every architecture.
	in := float64(float64(inTok) * usdPer1kIn)
	out := float64(float64(outTok) * usdPer1kOut)
	return float64((in+out)/1000) * (1 - batchDiscount)
}

// price tells whether p is a usable price: finite and not negative.
func price(p float64) bool {
	return p >= 0 && !math.IsInf(p, 1)
}
