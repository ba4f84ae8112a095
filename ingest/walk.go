package ingest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// inventory is every file under the study folder, found before any is
// read. Only regular files are in it: a named pipe, socket or device, a
// symbolic link leaving the study folder or leading nowhere is a problem
// found here, so that no reader ever opens one (a named pipe would block
// the read forever, /dev/zero would never end, a file outside the study
// could be echoed in an error).
type inventory struct {
	files map[string]int64 // study-relative path (forward slashes) → size
	taken map[string]bool  // files some reader picked up (findTable, listFiles)
	total int64            // bytes of all files
}

// walk lists the study folder into st.inv. Folders reached through links
// are followed once: a link to a folder already listed (a cycle, or a
// second way into the same folder) is named in a warning and skipped.
// Hidden folders (".git") are named in a warning and not entered.
func (st *state) walk() {
	st.inv = inventory{files: map[string]int64{}, taken: map[string]bool{}}
	root, err := filepath.EvalSymlinks(st.dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		st.ps.add(Problem{Loc: loc0("."), Expected: "a readable study folder: " + err.Error()})
		return
	}
	visited := map[string]string{root: "."} // real folder → study-relative path
	limit := st.cfg.Limits.Files
	count := 0
	var rec func(real, rel string) bool
	rec = func(real, rel string) bool {
		ents, err := os.ReadDir(real)
		if err != nil {
			st.ps.add(Problem{Loc: loc0(rel + "/"), Expected: "a readable folder: " + err.Error()})
			return true
		}
		for _, e := range ents {
			r := e.Name()
			if rel != "." {
				r = rel + "/" + e.Name()
			}
			count++
			if count > limit {
				st.ps.add(Problem{Loc: loc0("."), Value: fmt.Sprintf("more than %d files", limit),
					Expected: fmt.Sprintf("at most %d files under the study folder ([limits] files in study.toml raises the limit)", limit)})
				return false
			}
			p := filepath.Join(real, e.Name())
			mode := e.Type()
			target := p
			if mode&os.ModeSymlink != 0 {
				t, err := filepath.EvalSymlinks(p)
				if err != nil {
					st.ps.add(Problem{Loc: loc0(r), Expected: "a regular file: this symbolic link leads nowhere (its target is missing or the links loop)"})
					continue
				}
				if t, err = filepath.Abs(t); err != nil || !inside(root, t) {
					st.ps.add(Problem{Loc: loc0(r), Expected: "a file inside the study folder: this symbolic link leads outside it and is not followed (copy the file in instead)"})
					continue
				}
				fi, err := os.Stat(t)
				if err != nil {
					st.ps.add(Problem{Loc: loc0(r), Expected: "a readable file: " + err.Error()})
					continue
				}
				target, mode = t, fi.Mode().Type()
			}
			switch {
			case mode.IsDir():
				if strings.HasPrefix(e.Name(), ".") {
					st.ps.warn("%s/: hidden folder, not read", r)
					continue
				}
				if prev, seen := visited[target]; seen {
					st.ps.warn("%s/: link to the folder %s/, which is already read; skipped", r, prev)
					continue
				}
				visited[target] = r
				if !rec(target, r) {
					return false
				}
			case mode.IsRegular():
				fi, err := os.Stat(target)
				if err != nil {
					st.ps.add(Problem{Loc: loc0(r), Expected: "a readable file: " + err.Error()})
					continue
				}
				st.inv.files[r] = fi.Size()
				st.inv.total += fi.Size()
			default:
				st.ps.add(Problem{Loc: loc0(r), Value: config.KindOf(mode),
					Expected: "a regular file (a named pipe, socket or device is never read; remove it or put the file itself in its place)"})
			}
		}
		return true
	}
	rec(root, ".")
	st.checkXLSXTotal()
}

// checkXLSXTotal adds up the unzipped sizes the workbooks of the study
// declare, in path order, and reports the first workbook that takes the
// sum over [limits] total_xlsx_bytes, before any workbook is inflated.
// A workbook whose directory cannot be read is left to its reader.
func (st *state) checkXLSXTotal() {
	var rels []string
	for rel := range st.inv.files {
		if strings.EqualFold(path.Ext(rel), ".xlsx") && !strings.HasPrefix(path.Base(rel), ".") && !strings.HasPrefix(path.Base(rel), "~$") {
			rels = append(rels, rel)
		}
	}
	sort.Strings(rels)
	lim := st.cfg.Limits.TotalXLSXBytes
	var total int64
	for _, rel := range rels {
		n, err := tabular.XLSXDeclaredSize(filepath.Join(st.dir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		total += n
		if total > lim {
			st.ps.add(Problem{Loc: loc0(rel), Value: fmt.Sprintf("%d bytes unzipped, %d with the workbooks before it", n, total),
				Expected: fmt.Sprintf("workbooks that unzip to at most %d bytes together ([limits] total_xlsx_bytes in study.toml raises the limit)", lim)})
			return
		}
	}
}

// inside reports whether the absolute path p is root or under it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// has reports whether the study holds the regular file rel.
func (inv *inventory) has(rel string) bool { _, ok := inv.files[rel]; return ok }

// under returns the files under folder dir (recursively) with one of the
// extensions, sorted, leaving out hidden files and Excel lock files; the
// files returned are marked as taken.
func (inv *inventory) under(dir string, exts ...string) []string {
	var out []string
	for rel := range inv.files {
		if !strings.HasPrefix(rel, dir+"/") {
			continue
		}
		name := path.Base(rel)
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~$") {
			continue
		}
		ext := strings.TrimPrefix(strings.ToLower(path.Ext(name)), ".")
		for _, e := range exts {
			if ext == e {
				out = append(out, rel)
				inv.taken[rel] = true
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// rootTables are the tables read from the top of the study folder, with
// the extensions each accepts.
var rootTables = map[string][]string{
	"questions": {"csv", "tsv", "jsonl", "xlsx"}, "checklist": {"csv", "tsv", "jsonl", "xlsx"},
	"models": {"csv", "tsv", "xlsx"}, "evaluators": {"csv", "tsv", "xlsx"}, "blinding": {"csv", "tsv", "xlsx"},
	"references": {"jsonl", "csv", "tsv"}, "gate": {"csv", "tsv", "jsonl"}, "criteria": {"jsonl", "csv", "tsv"},
	"request_map": {"csv", "tsv", "jsonl", "xlsx"},
}

// warnUnread names every file of the study that no reader took, with the
// reason and the nearest supported form, so that nothing is skipped in
// silence.
func (st *state) warnUnread() {
	var rest []string
	for rel := range st.inv.files {
		// study.toml is read by config; the marker of a folder written by
		// `euroexec sample` is ours
		if !st.inv.taken[rel] && rel != "study.toml" && rel != ".euroexec-sample" {
			rest = append(rest, rel)
		}
	}
	sort.Strings(rest)
	for _, rel := range rest {
		st.ps.warn("%s: not read: %s", rel, unreadReason(rel))
	}
}

// unreadReason says why a file is not part of the study as found, and what
// would make it one.
func unreadReason(rel string) string {
	name := path.Base(rel)
	dir := path.Dir(rel)
	ext := strings.ToLower(path.Ext(name))
	stem := strings.TrimSuffix(name, path.Ext(name))
	top := strings.SplitN(rel, "/", 2)[0]
	switch {
	case strings.HasPrefix(name, "~$"):
		return "an Excel lock file (the workbook is open in Excel; close it)"
	case strings.HasPrefix(name, "."):
		return "a hidden file"
	case ext == ".xls" || ext == ".xlsm" || ext == ".xlsb" || ext == ".ods" || ext == ".numbers":
		return fmt.Sprintf("%s workbooks are not read; save it as an Excel Workbook (.xlsx)", ext)
	case top == "responses" && ext == ".json":
		return "responses are read from JSON Lines files (.jsonl, one JSON object per line); rename it to .jsonl if it holds one object per line, or convert an array with: jq -c '.[]' FILE.json > FILE.jsonl"
	case top == "responses":
		return "responses are read from JSON Lines files (.jsonl) only"
	case top == "grades" && (dir == "grades" || !(strings.HasPrefix(rel, "grades/humans/") || strings.HasPrefix(rel, "grades/judges/"))):
		return "grading files are read from grades/humans/ (expert gradings; a sub-folder is a round) or grades/judges/ (LLM-judge gradings); move it there"
	case top == "grades" && ext == ".json":
		return "a JSON file under grades/ is read when it is an annotation-platform export — Label Studio's JSON export (an array of tasks with data and annotations) or JSON-MIN export, or Argilla records with <question>.responses keys; this one is neither (docs/FORMAT.md, \"Annotation-platform exports\")"
	case top == "grades" || top == "criterion_grades":
		return "grading files are read as .csv, .tsv, .jsonl or .xlsx"
	}
	if dir == "." {
		if exts, ok := rootTables[strings.ToLower(stem)]; ok {
			return fmt.Sprintf("the %s table is read from %s.%s", stem, strings.ToLower(stem), strings.Join(exts, ", ."))
		}
		switch ext {
		case ".xlsx", ".csv", ".tsv", ".jsonl":
			return "the tables at the top of the study folder are questions, checklist, models, evaluators, blinding, references, gate, criteria and request_map; a grading file goes in grades/humans/ (expert gradings) or grades/judges/ (LLM-judge gradings)"
		}
	}
	if ext == ".json" {
		return "JSON files are not read; tables are .csv, .tsv, .jsonl (one object per line) or .xlsx"
	}
	return "not a file of the study format (docs/FORMAT.md lists the files read)"
}

// sortedFiles returns the paths of [sheets.files] in order.
func sortedFiles(m map[string]config.SheetFile) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fileHint is " (did you mean "grades/humans/panel.xlsx"?)" for the study
// file nearest to rel, "" when none is near; files differing only in
// letter case are always named.
func (st *state) fileHint(rel string) string {
	files := make([]string, 0, len(st.inv.files))
	for f := range st.inv.files {
		if strings.EqualFold(f, rel) {
			return fmt.Sprintf(" (did you mean %q? paths are compared with their letter case)", f)
		}
		files = append(files, f)
	}
	if c, ok := suggest.Closest(rel, files); ok {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// sizeOf returns a study file's size as found by walk (0 when unknown).
func (st *state) sizeOf(rel string) int64 { return st.inv.files[rel] }

// textFits reports whether a response or reference text is within [limits]
// response_bytes, adding a located problem when it is not.
func (st *state) textFits(loc tabular.Loc, text, what string) bool {
	if lim := st.cfg.Limits.ResponseBytes; int64(len(text)) > lim {
		st.ps.add(Problem{Loc: loc, Value: text[:40],
			Expected: fmt.Sprintf("a %s of at most %d bytes, not %d ([limits] response_bytes in study.toml raises the limit)", what, lim, len(text))})
		return false
	}
	return true
}

// checkNamedSettings checks that the settings naming something of the
// study name something that exists: main_round a round of the human
// gradings, text.filter a question tag and a value some question has.
func (st *state) checkNamedSettings() {
	at := loc0("study.toml")
	if len(st.rounds) > 0 && !st.rounds[st.cfg.MainRound] {
		var found []string
		for r := range st.rounds {
			found = append(found, strconv.Quote(r))
		}
		sort.Strings(found)
		st.ps.add(Problem{Loc: at, Value: "main_round = " + strconv.Quote(st.cfg.MainRound),
			Expected: fmt.Sprintf("main_round naming a round of the human gradings (rounds found: %s; default \"main\")", strings.Join(found, ", "))})
	}
	if st.haveRubric {
		for i, seen := range st.attrSeen {
			if !seen {
				st.ps.add(Problem{Loc: at, Value: "rubric.attributes: " + strconv.Quote(st.cfg.Rubric.Attributes[i]),
					Expected: "rubric attributes that the grading sheets have as columns (or long-form keys); no sheet with rubric scores has this one"})
			}
		}
	}
	for _, rel := range sortedFiles(st.cfg.Sheets.Files) {
		if !st.inv.has(rel) {
			st.ps.warn("study.toml: [sheets.files] %q: no such file in the study, the setting is not used%s", rel, st.fileHint(rel))
		}
	}
	if key, val := st.cfg.TextFilter(); key != "" {
		if !st.tagKeys[strings.ToLower(key)] {
			st.ps.add(Problem{Loc: at, Value: "text.filter = " + strconv.Quote(st.cfg.Text.Filter),
				Expected: fmt.Sprintf("text.filter naming a column of the questions file (a question tag); there is no column %q", key)})
		} else if !st.tagValues[strings.ToLower(key)+"\x00"+val] {
			st.ps.add(Problem{Loc: at, Value: "text.filter = " + strconv.Quote(st.cfg.Text.Filter),
				Expected: fmt.Sprintf("text.filter naming a value some question has in column %q (none has %q)", key, val)})
		}
	}
}
