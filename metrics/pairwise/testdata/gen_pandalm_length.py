#!/usr/bin/python3
"""Reference length effects on the PandaLM test set (pandalm_test.go).

For each grader population (the three annotators pooled, gpt-3.5-turbo,
pandalm-7b): the Bradley-Terry model with a length covariate,
logit P(a beats b) = theta_a - theta_b + gamma*log2(len_a/len_b), ties as
y = 1/2, fitted by numpy Newton steps (independent of lengthmodel.go),
with the prompt-clustered sandwich covariance G/(G-1) H^-1 M H^-1, a t
interval with G-1 df and the p-value (scipy). A response's length is its
number of Unicode code points (none for the few responses stored as JSON
booleans); a (prompt, system) pair keeps the last text
seen, as the Go study does. Run from this folder:
/usr/bin/python3 gen_pandalm_length.py > pandalm_length.json
"""
import gzip
import json
import numpy as np
from scipy import stats

base = "../../../internal/realdata/pandalm/"
raw = json.load(gzip.open(base + "testset-v1.json.gz"))
gpt = json.load(gzip.open(base + "gpt-3.5-turbo-testset-v1.json.gz"))
pl = json.load(gzip.open(base + "pandalm-7b-testset-v1.json.gz"))
prompts, items, chars = {}, [], {}
for r in raw:
    k = r["instruction"] + "\x00" + r["input"]
    if k not in prompts:
        prompts[k] = "p%03d" % len(prompts)
    s1, s2 = r["cmp_key"].split("_", 1)
    p = prompts[k]
    for s, f in ((s1, "response1"), (s2, "response2")):
        t = r[f]
        chars[(p, s)] = len(t) if isinstance(t, str) else 0  # a few are JSON booleans: no text
    items.append({"idx": r["idx"], "p": p, "a": s1, "b": s2,
                  "labels": {"annotator1": r["annotator1"], "annotator2": r["annotator2"], "annotator3": r["annotator3"]}})
by = {it["idx"]: it for it in items}
for g in gpt:
    v = {"1": 1, "2": 2, "Tie": 0}.get(g["gpt_result"])
    if v is not None:
        by[g["idx"]]["labels"]["gpt-3.5-turbo"] = v
for g in pl:
    by[g["idx"]]["labels"]["pandalm-7b"] = g["pandalm_result"]
systems = sorted({it["a"] for it in items} | {it["b"] for it in items})
pops = {"humans": ["annotator1", "annotator2", "annotator3"], "gpt-3.5-turbo": ["gpt-3.5-turbo"], "pandalm-7b": ["pandalm-7b"]}
out = {}
for pop, graders in pops.items():
    rows, y, cl = [], [], []
    for it in items:
        ca, cb = chars[(it["p"], it["a"])], chars[(it["p"], it["b"])]
        if ca == 0 or cb == 0:
            continue
        for g in graders:
            if g not in it["labels"]:
                continue
            ia, ib = systems.index(it["a"]), systems.index(it["b"])
            # theta of systems[0] fixed at 0; the last column is the length
            zz = np.zeros(len(systems))
            if ia > 0:
                zz[ia - 1] += 1
            if ib > 0:
                zz[ib - 1] -= 1
            zz[-1] = np.log2(ca / cb)
            rows.append(zz)
            y.append({1: 1.0, 2: 0.0, 0: 0.5}[it["labels"][g]])
            cl.append(it["p"])
    X, y, cl = np.array(rows), np.array(y), np.array(cl)
    # Only the systems this population judged stay (all do here).
    p = np.zeros(X.shape[1])
    for _ in range(100):
        mu = 1 / (1 + np.exp(-(X @ p)))
        H = (X * (mu * (1 - mu))[:, None]).T @ X
        step = np.linalg.solve(H, X.T @ (y - mu))
        p += step
        if np.abs(step).max() < 1e-13:
            break
    mu = 1 / (1 + np.exp(-(X @ p)))
    H = (X * (mu * (1 - mu))[:, None]).T @ X
    Hinv = np.linalg.inv(H)
    S = X * (y - mu)[:, None]
    M = np.zeros_like(H)
    groups = np.unique(cl)
    for g in groups:
        s = S[cl == g].sum(axis=0)
        M += np.outer(s, s)
    G = len(groups)
    V = G / (G - 1) * Hinv @ M @ Hinv
    g, se = p[-1], np.sqrt(V[-1, -1])
    tq = stats.t.ppf(0.975, G - 1)
    out[pop] = {"n": int(len(y)), "questions": int(G), "gamma": g, "se": se, "lo": g - tq * se, "hi": g + tq * se,
                "p": 2 * stats.t.sf(abs(g / se), G - 1)}
print(json.dumps(out, indent=1))
