package platforms_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/platforms"
)

// A task of a Label Studio JSON export read into items: the star rating
// "domain_score" maps to the rubric attribute Domain through [import].
func Example() {
	cfg, _ := config.Parse("study.toml", []byte("[import]\ndomain_score = \"rubric:Domain\"\n"))
	imports := cfg.Imports()
	mapper := func(name string) (config.ImportTarget, bool) {
		if t, ok := imports[name]; ok {
			return t, true
		}
		if name == "question_id" || name == "model" {
			return config.ImportTarget{Kind: name}, true
		}
		return config.ImportTarget{}, false
	}
	task := `{"id": 17, "data": {"question_id": "101", "model": "model-a", "text": "Hedging is …"},
	  "annotations": [{"id": 3, "completed_by": {"id": 1, "email": "alice@example.com"}, "was_cancelled": false,
	    "result": [{"from_name": "domain_score", "to_name": "text", "type": "rating", "value": {"rating": 4}}]}]}`
	dec := json.NewDecoder(strings.NewReader(task))
	dec.UseNumber()
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
		panic(err)
	}
	r := platforms.NewReader(platforms.DetectRecord(rec), mapper)
	r.Record(1, rec)
	for _, it := range r.Items {
		fmt.Println(r.Format, "|", it.Evaluator, it.IDs["question_id"].Value, it.IDs["model"].Value, it.Instrument, it.Key, it.Value)
	}
	// Output: Label Studio JSON export | alice@example.com 101 model-a rubric Domain 4
}
