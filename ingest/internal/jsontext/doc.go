// Package jsontext holds fast paths for the JSON text of long answers:
// validating and unquoting string literals in one tight pass. Both agree
// with encoding/json exactly (checked by fuzzing) and are used where
// encoding/json's general state machine is the bottleneck.
package jsontext
