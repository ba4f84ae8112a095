package tabular

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ratioFloor is the unzipped size below which a workbook's ratio is not
// checked (a nearly empty workbook compresses very well).
const ratioFloor = 1 << 20

// checkZip checks a workbook's bytes before excelize opens them, and
// returns the unzipped size:
//
//   - the zip directory's declared sizes, summed, within Limits.XLSXBytes
//     and Limits.XLSXRatio × the file size (found before inflating
//     anything, so a zip bomb costs nothing);
//   - every part inflates to its declared size with a matching checksum
//     (archive/zip refuses more bytes than declared);
//   - every XML part is complete: it ends with the closing tag of its root
//     element. excelize stops reading a sheet silently at the end of its
//     data, so a sheet cut off at a row boundary would otherwise be a
//     partial read.
func checkZip(data []byte, loc Loc, lim Limits) (int64, error) {
	bad := func(msg string, err error) error {
		return &Error{Loc: loc, Msg: msg, Err: err,
			Expected: "an .xlsx workbook (Excel 2007 or later, not password-protected); open and save it again in Excel"}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, bad("cannot read workbook: "+err.Error(), err)
	}
	var total uint64
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
		if total > uint64(lim.XLSXBytes) {
			return 0, &Error{Loc: loc, Limit: LimitXLSXBytes,
				Msg:      fmt.Sprintf("workbook that unzips to more than the limit of %d bytes (its parts declare %d bytes or more)", lim.XLSXBytes, total),
				Expected: "a smaller workbook"}
		}
	}
	if total > ratioFloor && float64(total) > lim.XLSXRatio*float64(len(data)) {
		return 0, &Error{Loc: loc, Limit: LimitXLSXRatio,
			Msg: fmt.Sprintf("workbook of %d bytes that unzips to %d bytes (%.0f×, more than the limit of %g×)",
				len(data), total, float64(total)/float64(len(data)), lim.XLSXRatio),
			Expected: "a workbook that is not a zip bomb"}
	}
	for _, zf := range zr.File {
		if lim, name := partLimit(zf.Name, lim); lim > 0 && zf.UncompressedSize64 > uint64(lim) {
			return 0, &Error{Loc: loc, Limit: name,
				Msg:      fmt.Sprintf("workbook part %s that unzips to %d bytes, more than the limit of %d", zf.Name, zf.UncompressedSize64, lim),
				Expected: "a workbook with fewer cell styles and shared strings (copy the data into a new workbook)"}
		}
	}
	var tail tailBuf
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			return 0, bad(fmt.Sprintf("cannot read workbook part %s: %v", zf.Name, err), err)
		}
		isXML := strings.HasSuffix(zf.Name, ".xml") || strings.HasSuffix(zf.Name, ".rels")
		tail.reset(isXML)
		var w io.Writer = &tail
		var sc *elementCounter
		if zf.Name == partStrings {
			sc = &elementCounter{local: "si"}
			w = io.MultiWriter(&tail, sc)
		}
		_, err = io.Copy(w, rc)
		rc.Close()
		if err != nil {
			return 0, bad(fmt.Sprintf("workbook part %s is corrupt: %v", zf.Name, err), err)
		}
		if sc != nil && sc.n > lim.XLSXStrings {
			return 0, &Error{Loc: loc, Limit: LimitNStrings,
				Msg:      fmt.Sprintf("workbook of %d shared strings (in %s), more than the limit of %d", sc.n, zf.Name, lim.XLSXStrings),
				Expected: "a workbook with fewer distinct texts"}
		}
		if isXML {
			if msg := tail.complete(); msg != "" {
				return 0, bad(fmt.Sprintf("workbook part %s is cut off or corrupt: %s", zf.Name, msg), errCutOff)
			}
		}
	}
	return int64(total), nil
}

// The workbook parts that excelize parses whole into memory (its fixed
// paths for them).
const (
	partStyles  = "xl/styles.xml"
	partStrings = "xl/sharedStrings.xml"
)

// partLimit returns the limit on the unzipped size of the workbook part
// name and the limit's name; 0 when the part has none of its own.
func partLimit(name string, lim Limits) (int64, string) {
	switch name {
	case partStyles:
		return lim.XLSXStylesBytes, LimitStyles
	case partStrings:
		return lim.XLSXStringsBytes, LimitStrings
	}
	return 0, ""
}

// elementCounter counts the start tags of elements whose local name is
// local (any namespace prefix) in the XML written to it, across writes.
// Only tag names are looked at: a "<" in text is escaped in XML, and
// comments, CDATA and processing instructions start with "<!" or "<?".
type elementCounter struct {
	local string
	n     int64
	name  []byte // the name of the tag being read (up to len(local)+1 bytes past its prefix)
	in    bool   // inside a tag name
	skip  bool   // the name is already longer than local
}

func (c *elementCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if !c.in {
			if b == '<' {
				c.in, c.skip, c.name = true, false, c.name[:0]
			}
			continue
		}
		switch {
		case b == ':':
			c.name, c.skip = c.name[:0], false // a prefix: the local name follows
		case b == '>' || b == '/' || b == ' ' || b == '\t' || b == '\n' || b == '\r':
			if !c.skip && string(c.name) == c.local {
				c.n++
			}
			c.in = false
		case len(c.name) > len(c.local):
			c.skip = true
		default:
			c.name = append(c.name, b)
		}
	}
	return len(p), nil
}

// errCutOff is wrapped by the *Error for an XML part that is not complete.
var errCutOff = errors.New("workbook part cut off")

// tailBuf keeps the first and the last bytes of a stream.
type tailBuf struct {
	keep bool
	head []byte
	tail []byte
	n    int64
}

const headMax, tailMax = 64 << 10, 512

func (t *tailBuf) reset(keep bool) {
	t.keep, t.head, t.tail, t.n = keep, t.head[:0], t.tail[:0], 0
}

func (t *tailBuf) Write(p []byte) (int, error) {
	t.n += int64(len(p))
	if !t.keep {
		return len(p), nil
	}
	if len(t.head) < headMax {
		t.head = append(t.head, p[:min(len(p), headMax-len(t.head))]...)
	}
	if len(p) >= tailMax {
		t.tail = append(t.tail[:0], p[len(p)-tailMax:]...)
	} else {
		t.tail = append(t.tail, p...)
		if len(t.tail) > tailMax {
			t.tail = append(t.tail[:0], t.tail[len(t.tail)-tailMax:]...)
		}
	}
	return len(p), nil
}

// complete returns "" when the XML stream seen is complete: wholly
// well-formed when it fits the head buffer, else ending with the closing
// tag of its root element.
func (t *tailBuf) complete() string {
	if t.n == 0 {
		return "the part is empty"
	}
	dec := xml.NewDecoder(bytes.NewReader(t.head))
	dec.Strict = true
	if t.n <= int64(len(t.head)) {
		depth, roots := 0, 0
		for {
			tok, err := dec.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err.Error()
			}
			switch tok.(type) {
			case xml.StartElement:
				if depth == 0 {
					roots++
				}
				depth++
			case xml.EndElement:
				depth--
			}
		}
		if depth != 0 || roots != 1 {
			return "elements are not closed"
		}
		return ""
	}
	var root xml.Name
	for {
		tok, err := dec.RawToken()
		if err != nil {
			return "no root element: " + err.Error()
		}
		if se, ok := tok.(xml.StartElement); ok {
			root = se.Name
			break
		}
	}
	end := "</" + root.Local + ">"
	if root.Space != "" {
		end = "</" + root.Space + ":" + root.Local + ">"
	}
	if !bytes.HasSuffix(bytes.TrimRight(t.tail, " \t\r\n"), []byte(end)) {
		return "it does not end with " + end
	}
	return ""
}

// XLSXDeclaredSize returns the unzipped size a workbook's zip directory
// declares (the sum over its parts), reading only the directory. Reading
// the workbook with Open checks that the parts inflate to no more.
func XLSXDeclaredSize(path string) (int64, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return 0, err
	}
	var total uint64
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
		if total > 1<<62 {
			break
		}
	}
	return int64(min(total, 1<<62)), nil
}
