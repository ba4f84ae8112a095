package config_test

import (
	"fmt"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
)

// An [import] table maps the question names of an annotation platform to
// the instrument; a value that is no target is an error naming the key,
// the closest target and the list.
func ExampleConfig_Imports() {
	c, err := config.Parse("study.toml", []byte("[import]\ndomain_score = \"rubric:Domain\"\nc1 = \"checklist:C1\"\npw = \"pairwise\"\n"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", c.Imports()["domain_score"])
	fmt.Printf("%+v\n", c.Imports()["c1"])
	fmt.Printf("%+v\n", c.Imports()["pw"])
	_, err = config.Parse("study.toml", []byte("[import]\npw = \"pairwize\"\n"))
	msg, _, _ := strings.Cut(err.Error(), "; the targets")
	fmt.Println(msg)
	// Output:
	// {Kind:rubric Attribute:Domain Item:0}
	// {Kind:checklist Attribute: Item:1}
	// {Kind:pairwise Attribute: Item:0}
	// study.toml: 1 invalid setting
	//   study.toml: import."pw" = "pairwize": expected an import target (did you mean "pairwise"?)
}
