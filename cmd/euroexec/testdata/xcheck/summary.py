"""Independent cross-check of Table 4/10 on a study folder in the sample's shape.

Reads the grading sheets itself (openpyxl, json, csv; blinding, the "Loc." alias,
long form, rounds from sub-folders), applies DESIGN.md's definitions with exact
fractions, and prints per model: n_gradings, solve_rate, avg_rank, win_rate,
rubric, checklist_rate for the human gradings of one round. Used by
cmd/euroexec's TestSummaryCrossCheck; shares no code with euroexec.

usage: python3 summary.py STUDY ROUND   (ROUND "main" leaves the human label out)
"""
import csv, json, glob, os, sys, collections
import openpyxl
from fractions import Fraction as F
S=sys.argv[1]; ROUND=sys.argv[2]
attrs=["Domain","Localization","Reasoning","Communication","Actionability"]
alias={"loc.":"localization"}
blind={}
for r in csv.DictReader(open(S+"/blinding.csv")):
    blind[(r["question_id"],r["label"],r.get("evaluator",""))]=r["model"]
items={}
for r in csv.DictReader(open(S+"/checklist.csv")):
    items[r["question_id"]]=max(items.get(r["question_id"],0),int(r["item"]))
def norm(h): 
    h=str(h).strip().lower(); return alias.get(h,h)
def cell(v):
    if v is None: return ""
    if isinstance(v,float) and v.is_integer(): return str(int(v))
    return str(v)
grad={}  # (ev, round, q, m) -> dict
def add(ev, rnd, kind, rec):
    q=rec["question_id"]; m=rec.get("model","") or blind.get((q,rec.get("label",""),ev)) or blind.get((q,rec.get("label",""),""))
    run=rec.get("run","")
    k=(ev,rnd,run,q,m)
    g=grad.setdefault(k,{"kind":kind,"scores":{},"verdicts":{},"rank":None})
    return g
def wide(ev,rnd,kind,rec):
    g=add(ev,rnd,kind,rec)
    for a in attrs:
        v=rec.get(a.lower(),"")
        if v!="" and v is not None: g["scores"][a]=float(v)
    for key,v in rec.items():
        if key.startswith("c") and key[1:].isdigit() and str(v).strip()!="":
            g["verdicts"][int(key[1:])]=str(v).strip().lower()
    if str(rec.get("rank","")).strip()!="": g["rank"]=int(float(rec["rank"]))
for kind in ["humans","judges"]:
    for p in sorted(glob.glob(S+"/grades/%s/**/*.*"%kind, recursive=True)):
        rel=os.path.relpath(p,S+"/grades/"+kind); rnd=rel.split("/")[0] if "/" in rel else "main"
        stem=os.path.splitext(os.path.basename(p))[0]
        rows=[]
        if p.endswith(".xlsx"):
            wb=openpyxl.load_workbook(p,data_only=True)
            for ws in wb.worksheets:
                data=[[cell(c) for c in r] for r in ws.iter_rows(values_only=True)]
                data=[r for r in data if any(x.strip() for x in r)]
                if not data: continue
                hdr=[norm(h) for h in data[0]]
                if "question_id" not in hdr: continue
                rows += [dict(zip(hdr,r)) for r in data[1:]]
        elif p.endswith(".jsonl"):
            for l in open(p):
                if l.strip():
                    d=json.loads(l); rows.append({norm(k):cell(v) for k,v in d.items()})
        else:
            rows=[{norm(k):v for k,v in r.items()} for r in csv.DictReader(open(p))]
        for r in rows:
            ev=r.get("evaluator") or stem
            if "instrument" in r:
                g=add(ev,rnd,kind,r); inst=r["instrument"].lower(); key=r["key"]; v=r["value"]
                if inst=="rubric": g["scores"][[a for a in attrs if a.lower()==norm(key)][0]]=float(v)
                elif inst=="checklist": g["verdicts"][int(key.lstrip("Cc"))]=v.strip().lower()
                elif inst=="rank": g["rank"]=int(float(v))
            else: wide(ev,rnd,kind,r)
V={"hit":"hit","yes":"hit","1":"hit","partial":"partial","miss":"miss","no":"miss","0":"miss","na":"na"}
out=collections.defaultdict(lambda: collections.defaultdict(list))
for (ev,rnd,run,q,m),g in grad.items():
    if g["kind"]!="humans" or (rnd!=ROUND) or (ROUND=="main" and m=="Human Expert"): continue
    s=sum(F(int(g["scores"][a])) for a in attrs)/5
    vs=[V[g["verdicts"][i]] for i in range(1,items[q]+1)]
    cnt=[v for v in vs if v!="na"]
    rate=(sum(1 for v in cnt if v=="hit")+F(1,2)*sum(1 for v in cnt if v=="partial"))/len(cnt)
    solved= s>=3 and rate>=F(3,5)
    o=out[m]; o["rub"].append(s); o["rate"].append(rate); o["solved"].append(solved); o["rank"].append(g["rank"]); o["win"].append(g["rank"]==1)
for m in sorted(out):
    o=out[m]; n=len(o["rub"])
    print(",".join([m, str(n)] + [repr(float(x)) for x in (F(sum(o["solved"]),n), F(sum(o["rank"]),n), F(sum(o["win"]),n), sum(o["rub"])/n, sum(o["rate"])/n)]))
