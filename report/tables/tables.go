// Package tables is the presentation layer of the analyses whose packages
// return typed results only: it turns each result into the report's
// tables, notes and figures. An analysis package computes; this package
// decides what a stakeholder sees and how it is worded.
package tables
