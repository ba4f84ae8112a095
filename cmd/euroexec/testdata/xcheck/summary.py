"""Independent cross-check of Table 4/10 on a study folder in the sample's shape.

Reads the grading sheets itself (openpyxl, json, csv; blinding, the "Loc." alias,
long form, rounds from sub-folders), applies DESIGN.md's definitions with exact
fractions, and prints per model: n_gradings, solve_rate, avg_rank, win_rate,
rubric, checklist_rate for the human gradings of one round. Used by
cmd/euroexec's TestSummaryCrossCheck; shares no code with euroexec.

usage: python3 summary.py STUDY ROUND [consistency]
  (ROUND "main" leaves the human label out; "consistency" also prints Table 6's
  within- and across-evaluator Kendall tau-b means, Fig. 5's overall verdict-pair
  shares and Table 5's Pearson r, with scipy)
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

if len(sys.argv) > 3 and sys.argv[3] == "consistency":
    # Table 6, Fig. 5 and Table 5 on the same gradings (main round, models
    # other than the human label), with scipy.
    from scipy.stats import kendalltau, pearsonr
    per = collections.defaultdict(dict)  # (ev, q) -> m -> (rank, rubric, rate, verdicts, scores)
    for (ev, rnd, run, q, m), g in grad.items():
        if g["kind"] != "humans" or rnd != ROUND or m == "Human Expert":
            continue
        s = sum(F(int(g["scores"][a])) for a in attrs) / 5
        vs = [V[g["verdicts"][i]] for i in range(1, items[q] + 1)]
        cnt = [v for v in vs if v != "na"]
        rate = (sum(1 for v in cnt if v == "hit") + F(1, 2) * sum(1 for v in cnt if v == "partial")) / len(cnt)
        per[(ev, q)][m] = (g["rank"], float(s), float(rate), vs, [g["scores"][a] for a in attrs])
    def tau(x, y):
        if len(set(x)) < 2 or len(set(y)) < 2:
            return None
        return kendalltau(x, y, variant="b")[0]
    def mean(xs):
        xs = [x for x in xs if x is not None]
        return sum(xs) / len(xs), len(xs)
    out = {}
    w = {"explicit_vs_rubric": [], "explicit_vs_checklist": [], "checklist_vs_rubric": []}
    for (ev, q), ms in per.items():
        ks = sorted(ms)
        # rank 1 = best: compare the ordering, so the rank enters negated
        r = [-ms[k][0] for k in ks]; ru = [ms[k][1] for k in ks]; ch = [ms[k][2] for k in ks]
        w["explicit_vs_rubric"].append(tau(r, ru)); w["explicit_vs_checklist"].append(tau(r, ch)); w["checklist_vs_rubric"].append(tau(ch, ru))
    for k, v in w.items():
        out[k] = mean(v)
    byq = collections.defaultdict(list)
    for (ev, q) in per:
        byq[q].append(ev)
    a = {"cross_explicit": [], "cross_rubric": [], "cross_checklist": []}
    for q, evs in byq.items():
        evs = sorted(evs)
        for i in range(len(evs)):
            for j in range(i + 1, len(evs)):
                A, B = per[(evs[i], q)], per[(evs[j], q)]
                ks = sorted(set(A) & set(B))
                a["cross_explicit"].append(tau([-A[k][0] for k in ks], [-B[k][0] for k in ks]))
                a["cross_rubric"].append(tau([A[k][1] for k in ks], [B[k][1] for k in ks]))
                a["cross_checklist"].append(tau([A[k][2] for k in ks], [B[k][2] for k in ks]))
    for k, v in a.items():
        out[k] = mean(v)
    # Fig. 5 overall: per (response, item), pairs of non-na verdicts, each
    # cell weighing 1 split over its pairs.
    cells = collections.defaultdict(list)
    for (ev, q), ms in per.items():
        for m, t in ms.items():
            for i, v in enumerate(t[3]):
                if v != "na":
                    cells[(q, m, i)].append(v)
    name = {"hit": "yes", "partial": "partial", "miss": "no"}
    order = ["yes", "partial", "no"]
    tot = collections.Counter(); ncell = 0
    for c, vs in cells.items():
        if len(vs) < 2:
            continue
        ncell += 1
        k = len(vs); npairs = k * (k - 1) // 2
        for i in range(k):
            for j in range(i + 1, k):
                x, y = sorted([name[vs[i]], name[vs[j]]], key=order.index)
                tot[x + "_" + y] += F(1, npairs)
    for k in ["yes_yes", "yes_partial", "yes_no", "partial_partial", "partial_no", "no_no"]:
        out["fig5_" + k] = (float(tot[k] / ncell), ncell)
    # Table 5: each attribute vs the mean of the others; checklist vs rubric.
    rows = [t for ms in per.values() for t in ms.values()]
    for ai, an in enumerate(attrs):
        x = [t[4][ai] for t in rows]; y = [(sum(t[4]) - t[4][ai]) / 4 for t in rows]
        out["table5_" + an] = (pearsonr(x, y)[0], len(rows))
    out["table5_Checklist"] = (pearsonr([t[2] for t in rows], [t[1] for t in rows])[0], len(rows))
    # Sec. 5.1: per question, each model's mean human rubric; adjacent pairs
    # by overall rubric; paired two-sided t-test.
    from scipy.stats import ttest_rel
    qm = collections.defaultdict(lambda: collections.defaultdict(list))
    for (ev, q), ms in per.items():
        for m, t in ms.items():
            qm[m][q].append(t[1])
    means = {m: sum(x for v in d.values() for x in v) / sum(len(v) for v in d.values()) for m, d in qm.items()}
    ordered = sorted(means, key=lambda m: -means[m])
    for a_, b_ in zip(ordered, ordered[1:]):
        qs = sorted(set(qm[a_]) & set(qm[b_]))
        x = [sum(qm[a_][q]) / len(qm[a_][q]) for q in qs]
        y = [sum(qm[b_][q]) / len(qm[b_][q]) for q in qs]
        r = ttest_rel(x, y)
        out["ttest_t_%s_%s" % (a_, b_)] = (r.statistic, len(qs))
        out["ttest_p_%s_%s" % (a_, b_)] = (r.pvalue, len(qs))
    for k, (v, n) in out.items():
        print("%s,%r,%d" % (k, v, n))
