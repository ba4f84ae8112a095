#!/usr/bin/python3
"""Reference numbers for the SummEval fixture, computed with pandas and scipy.

Reads only the fixture's own files (grades/humans/main/*.csv) and writes
expected.json beside this script. Definitions follow DESIGN.md "Metric
definitions (EuroExec)":

- a grading is one expert's scores of one (article, system) response;
  rubric_mean = mean of its 4 attribute scores;
- per model: rubric = mean over gradings of rubric_mean; per attribute the
  mean and the SD (ddof=1) over gradings;
- table5: Pearson r over all gradings of each attribute with the mean of the
  other three, with scipy's 95 % interval (Fisher z);
- evaluator_pair_pearson_rubric: Pearson r between the rubric_mean of two
  experts on the same response, every unordered pair entered in both orders
  (double entry), pooled over responses;
- kendall_cross_evaluator_rubric: per (question, unordered expert pair), the
  Kendall tau-b between the two experts' rubric_mean over the systems both
  graded; mean over the (question, pair) units where tau is defined, with the
  number of defined and undefined (one side constant) units.

Run: /usr/bin/python3 expected.py   (Debian python3-pandas, python3-scipy)
"""
import glob
import itertools
import json
import math
import os

import numpy as np
import pandas as pd
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
ATTRS = ["coherence", "consistency", "fluency", "relevance"]


def load():
    frames = []
    for path in sorted(glob.glob(os.path.join(HERE, "grades", "humans", "main", "*.csv"))):
        frames.append(pd.read_csv(path, dtype={"evaluator": str, "question_id": str, "model": str}))
    df = pd.concat(frames, ignore_index=True)
    df["rubric_mean"] = df[ATTRS].mean(axis=1)
    return df


def main():
    df = load()
    out = {
        "generator": "expected.py",
        "versions": {"pandas": pd.__version__, "scipy": scipy.__version__, "numpy": np.__version__},
        "n_gradings": int(len(df)),
        "n_questions": int(df["question_id"].nunique()),
        "n_models": int(df["model"].nunique()),
        "n_evaluators": int(df["evaluator"].nunique()),
    }

    models = {}
    for m, g in df.groupby("model", sort=True):
        entry = {"n_gradings": int(len(g)), "rubric": float(g["rubric_mean"].mean()), "attributes": {}}
        for a in ATTRS:
            entry["attributes"][a] = {"mean": float(g[a].mean()), "sd": float(g[a].std(ddof=1))}
        models[m] = entry
    out["models"] = models

    table5 = {}
    for a in ATTRS:
        rest = [b for b in ATTRS if b != a]
        res = stats.pearsonr(df[a].astype(float), df[rest].mean(axis=1))
        ci = res.confidence_interval(confidence_level=0.95)
        table5[a] = {"r": float(res.statistic), "lo": float(ci.low), "hi": float(ci.high), "n": int(len(df))}
    out["table5"] = table5

    wide = df.pivot_table(index=["question_id", "model"], columns="evaluator", values="rubric_mean", aggfunc="first")
    evs = sorted(wide.columns)
    xs, ys = [], []
    for a, b in itertools.combinations(evs, 2):
        pair = wide[[a, b]].dropna()
        xs += list(pair[a]) + list(pair[b])
        ys += list(pair[b]) + list(pair[a])
    r = stats.pearsonr(xs, ys)
    out["evaluator_pair_pearson_rubric"] = {"r": float(r.statistic), "n_pairs": len(xs)}

    taus = []
    undefined = 0
    for q, g in wide.groupby(level="question_id", sort=True):
        for a, b in itertools.combinations(evs, 2):
            pair = g[[a, b]].dropna()
            if len(pair) < 2:
                undefined += 1
                continue
            tau = stats.kendalltau(pair[a], pair[b], variant="b").statistic
            if tau is None or math.isnan(tau):
                undefined += 1
            else:
                taus.append(float(tau))
    out["kendall_cross_evaluator_rubric"] = {
        "mean_tau_b": float(np.mean(taus)),
        "n_defined": len(taus),
        "n_undefined": undefined,
    }

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
