#!/usr/bin/python3
"""Reference vectors for the pairwise length and style model (lengthmodel.go).

An independent implementation: the quasi-likelihood of
logit P(a beats b) = theta_a - theta_b + sum_c gamma_c x_c (a tie is y = 1/2)
maximised by scipy.optimize.minimize (trust-exact, analytic gradient and
Hessian), polished by Newton steps in numpy, then the
question-clustered sandwich covariance G/(G-1) H^-1 M H^-1 and the
length-controlled win rates with delta-method t intervals (logit scale)
computed with numpy/scipy. Run: /usr/bin/python3 gen_lengthmodel.py >
lengthmodel.json (numpy and scipy from the system Python).
"""
import json
import numpy as np
from scipy import optimize, stats

rng = np.random.default_rng(20261206)
models = ["A", "B", "C", "D"]
quality = {"A": 0.6, "B": 0.2, "C": -0.1, "D": -0.7}
G = 60
resp = {}
for q in range(G):
    for m in models:
        chars = int(rng.integers(80, 2000))
        resp[(q, m)] = (chars, int(rng.integers(0, 4)), int(rng.integers(0, 8)), int(rng.integers(0, 5)))
pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
judg = []  # (q, shown first, shown second, winner a|b|tie, run)
for q in range(G):
    for k in rng.choice(len(pairs), size=3, replace=False):
        a, b = pairs[k]
        if rng.random() < 0.5:
            a, b = b, a
        for run in range(int(rng.integers(1, 3))):
            ca, ha, la, ba = resp[(q, a)]
            cb, hb, lb, bb = resp[(q, b)]
            eta = quality[a] - quality[b] + 0.5 * np.log2(ca / cb) + 0.3 * np.log2((1 + la) / (1 + lb))
            p = 1 / (1 + np.exp(-eta))
            u = rng.random()
            w = "tie" if u < 0.1 else ("a" if u < 0.1 + 0.9 * p else "b")
            judg.append((q, a, b, w, run))

# Design: theta_A = 0 (reference), parameters theta_B..D, gamma x 4.
K = len(models)
rows, y, cl = [], [], []
for q, a, b, w, run in judg:
    z = np.zeros(K - 1 + 4)
    ia, ib = models.index(a), models.index(b)
    if ia > 0:
        z[ia - 1] += 1
    if ib > 0:
        z[ib - 1] -= 1
    ra, rb = resp[(q, a)], resp[(q, b)]
    z[K - 1] = np.log2(ra[0] / rb[0])
    for c in range(3):
        z[K + c] = np.log2((1 + ra[1 + c]) / (1 + rb[1 + c]))
    rows.append(z)
    y.append({"a": 1.0, "b": 0.0, "tie": 0.5}[w])
    cl.append(q)
X, y, cl = np.array(rows), np.array(y), np.array(cl)


def nll(p):
    e = X @ p
    return -np.sum(y * -np.logaddexp(0, -e) + (1 - y) * -np.logaddexp(0, e))


def grad(p):
    mu = 1 / (1 + np.exp(-(X @ p)))
    return -X.T @ (y - mu)


def hess(p):
    mu = 1 / (1 + np.exp(-(X @ p)))
    return (X * (mu * (1 - mu))[:, None]).T @ X


opt = optimize.minimize(nll, np.zeros(X.shape[1]), jac=grad, hess=hess, method="trust-exact", options={"gtol": 1e-10})
p = opt.x
# Polish with plain Newton steps (trust-exact stops near 1e-7 in the gradient).
for _ in range(20):
    p = p - np.linalg.solve(hess(p), grad(p))
converged = bool(np.abs(grad(p)).max() < 1e-9)
mu = 1 / (1 + np.exp(-(X @ p)))
H = (X * (mu * (1 - mu))[:, None]).T @ X
Hinv = np.linalg.inv(H)
S = X * (y - mu)[:, None]
M = np.zeros_like(H)
for g in np.unique(cl):
    s = S[cl == g].sum(axis=0)
    M += np.outer(s, s)
ng = len(np.unique(cl))
V = ng / (ng - 1) * Hinv @ M @ Hinv
se = np.sqrt(np.diag(V))
df = ng - 1
tq = stats.t.ppf(0.975, df)
theta = np.concatenate([[0.0], p[:K - 1]])
tc = theta - theta.mean()
effects = []
for c in range(4):
    g, s = p[K - 1 + c], se[K - 1 + c]
    effects.append({"estimate": g, "se": s, "lo": g - tq * s, "hi": g + tq * s, "p": 2 * stats.t.sf(abs(g / s), df)})
# Judgments between models.
n = np.zeros((K, K))
for q, a, b, w, run in judg:
    ia, ib = models.index(a), models.index(b)
    n[ia, ib] += 1
    n[ib, ia] += 1
elo = 400 * np.log10(np.e)


def pgrad(gt):
    return np.concatenate([gt[1:], np.zeros(4)])


out_models = []
for a in range(K):
    gt = -np.ones(K) / K
    gt[a] += 1
    sr = np.sqrt(pgrad(gt) @ V @ pgrad(gt))
    s = 1 / (1 + np.exp(tc - tc[a]))
    wr = np.sum(n[a] * s) / np.sum(n[a])
    gt = -n[a] * s * (1 - s)
    gt[a] = np.sum(n[a] * s * (1 - s))
    gt /= np.sum(n[a])
    sw = np.sqrt(pgrad(gt) @ V @ pgrad(gt))
    L, sl = np.log(wr / (1 - wr)), sw / (wr * (1 - wr))
    out_models.append({"model": models[a], "sc_rating": 1000 + elo * tc[a], "sc_rating_lo": 1000 + elo * (tc[a] - tq * sr),
                       "sc_rating_hi": 1000 + elo * (tc[a] + tq * sr), "lc_win_rate": wr,
                       "lc_win_rate_lo": 1 / (1 + np.exp(-(L - tq * sl))), "lc_win_rate_hi": 1 / (1 + np.exp(-(L + tq * sl)))})
print(json.dumps({
    "responses": [{"q": f"q{q:02d}", "model": m, "chars": v[0], "headers": v[1], "lists": v[2], "bold": v[3]} for (q, m), v in sorted(resp.items())],
    "judgments": [{"q": f"q{q:02d}", "a": a, "b": b, "winner": w, "run": str(r)} for q, a, b, w, r in judg],
    "n": len(judg), "questions": ng, "effects": effects, "models": out_models, "converged": converged,
}, indent=1))
