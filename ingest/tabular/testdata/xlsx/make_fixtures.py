#!/usr/bin/python3
"""Generates the committed .xlsx fixtures of package tabular.

Run with Debian's python3 (openpyxl 3.0.9): /usr/bin/python3 make_fixtures.py

openpyxl.xlsx  written by openpyxl (a writer other than excelize):
               floats such as 101.0 stored as "101.0", text that looks like
               numbers, a formula without cached value, two sheets.
excel_like.xlsx written by hand as the XML Excel itself produces: shared
               strings (one rich-text), an inline string, a formula with a
               cached value, numbers "4.0000000000000009" and "1E-3", a
               boolean, an error cell, a number with format "0.00", a gap row,
               trailing empty-but-styled rows.
"""
import zipfile

import openpyxl

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Round 1"
ws.append(["question_id", "model", "Reasoning", "comment", "code"])
ws.append([101.0, "A", 4.0, "  kept as is  ", "007"])
ws.append([102, "B", "4", "line1\nline2", "4.0"])
ws.append([103, "C", 0.5, None, "=1+1"])
ws["E4"] = "=1+1"  # formula: openpyxl writes no cached value
ws2 = wb.create_sheet("Notes")
ws2.append(["note"])
ws2.append(["hello"])
wb.save("openpyxl.xlsx")

CT = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"""
RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"""
WB = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Alice" sheetId="1" r:id="rId1"/><sheet name="Bob" sheetId="2" r:id="rId2"/></sheets></workbook>"""
WBRELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"""
# cellXfs: 0 General, 1 numFmt 2 ("0.00"), 2 numFmt 9 ("0%"), 3 numFmt 49 ("@" text)
STYLES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="9" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>"""
SST = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="9" uniqueCount="9"><si><t>question_id</t></si><si><t>label</t></si><si><t>Reasoning</t></si><si><t>comment</t></si><si><t>met</t></si><si><t xml:space="preserve"> Good, </t></si><si><r><t>bold</t></r><r><rPr><b/></rPr><t xml:space="preserve"> part</t></r></si><si><t>007</t></si><si><t>4.0</t></si></sst>"""
# Row 1 header; row 2: number id 101, shared "007" label, score 4.0000000000000009
# (the text Excel stores for a sum just above 4), comment " Good, ", TRUE.
# Row 3: id as text "007" with text format, label shared "4.0", formula with cached
# value 5, rich text comment, error cell. Row 4 absent (gap). Row 5: number 3.5 with
# format 0.00, percent 0.25, inline string, 1E-3. Rows 6-7: styled but empty (trailing).
SHEET1 = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>
<row r="2"><c r="A2"><v>101</v></c><c r="B2" t="s"><v>7</v></c><c r="C2"><v>4.0000000000000009</v></c><c r="D2" t="s"><v>5</v></c><c r="E2" t="b"><v>1</v></c></row>
<row r="3"><c r="A3" s="3" t="s"><v>7</v></c><c r="B3" t="s"><v>8</v></c><c r="C3"><f>2+3</f><v>5</v></c><c r="D3" t="s"><v>6</v></c><c r="E3" t="e"><v>#N/A</v></c></row>
<row r="5"><c r="A5" s="1"><v>3.5</v></c><c r="B5" s="2"><v>0.25</v></c><c r="C5" t="inlineStr"><is><t>inline text</t></is></c><c r="D5"><v>1E-3</v></c></row>
<row r="6"><c r="A6" s="1"/></row>
<row r="7"><c r="B7" s="2"/></row>
</sheetData></worksheet>"""
SHEET2 = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="3"><c r="B3" t="s"><v>0</v></c><c r="C3" t="s"><v>2</v></c></row>
<row r="4"><c r="B4"><v>102.0</v></c><c r="C4"><f>A1</f></c></row>
</sheetData></worksheet>"""

with zipfile.ZipFile("excel_like.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", CT)
    z.writestr("_rels/.rels", RELS)
    z.writestr("xl/workbook.xml", WB)
    z.writestr("xl/_rels/workbook.xml.rels", WBRELS)
    z.writestr("xl/styles.xml", STYLES)
    z.writestr("xl/sharedStrings.xml", SST)
    z.writestr("xl/worksheets/sheet1.xml", SHEET1)
    z.writestr("xl/worksheets/sheet2.xml", SHEET2)
