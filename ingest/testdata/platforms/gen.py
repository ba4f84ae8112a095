"""Writes the annotation-platform fixtures of ingest/platform_test.go.

Each fixture holds the same grades as sheets/ (the clean-format
equivalent, evaluators renamed as the test says) on the study of
ingest/testdata/base, shaped as the platform's exporter writes it:

  labelstudio.json      Label Studio JSON export: the task list as the
                        app exports it (label-studio-converter
                        tests/data/test_export_csv/csv_test2.json shows
                        the same keys); completed_by an object with an
                        email or a bare user id.
  labelstudio.csv       Label Studio CSV export as
                        label_studio_converter/exports/csv2.py writes it:
                        one row per non-cancelled annotation, sorted
                        columns, QUOTE_NONNUMERIC, a single choice or text
                        as is, other results as ujson lists without type.
  labelstudio.tsv       its TSV export (the same writer, sep="\\t").
  labelstudio_min.json  Label Studio JSON-MIN export (converter.py
                        convert_to_json_min): the same records as JSON.
  argilla.json          Argilla v2 Dataset.records.to_list(flatten=True)
                        (argilla records/_io/_generic.py), dumped as JSON.
  argilla.csv           the same records through to_pandas().to_csv(): a
                        list cell is its Python repr.
  argilla_nested.json   records.to_json (flatten=False; Record.to_dict in
                        argilla records/_resource.py): fields, metadata,
                        responses {question: [{value, user_id}]} without a
                        status, so only the submitted responses are in it.

Run: python3 gen.py (no third-party packages).
"""
import csv
import json

# The grades (as in ingest/testdata/base/grades/humans/main): per grader,
# question, model (label when blinded): scores, verdicts, rank, comment.
ATTRS = ["Domain", "Localization", "Reasoning", "Communication", "Actionability"]
GRADES = [
    # grader, question, model, label, scores, verdicts, rank, comment
    ("alice", "q1", "m1", None, [4, 4, 3, 5, 4], ["Hit", "partial"], 1, "good"),
    ("alice", "q1", "m2", None, [2, 3, 2, 3, 2], ["miss", "na"], 2, "=SUM(A1)"),
    ("alice", "q2", "m1", None, [4, 4, 3, 5, 4], ["hit"], 1, None),
    ("alice", "q2", "m2", None, [3, 3, 3, 3, 3], ["no"], 2, None),
    ("bob", "q1", None, "A", [3, 3, 3, 3, 3], ["hit", "hit"], None, None),
    ("bob", "q1", None, "B", [4, 4, 4, 4, 4], ["HIT", "miss"], None, None),
]
# bob ranks q1 with a Ranker / ranking question: B first.
BOB_RANKING = ("q1", ["B", "A"])
# carol compares m1 (shown first, left) with m2 on q1 and prefers m1.
PAIR = ("carol", "q1", "m1", "m2", "left")

# Platform question names: Domain under its own name, the rest as the
# platform's snake-case names ([import] in the test maps domain_score).
QNAME = {"Domain": "domain_score", "Localization": "localization", "Reasoning": "reasoning",
         "Communication": "communication", "Actionability": "actionability"}

LS_USERS = {"alice": {"id": 1, "email": "alice@example.com", "first_name": "", "last_name": ""},
            "bob": 2, "carol": {"id": 3, "email": "carol@example.com", "first_name": "", "last_name": ""}}
AG_USERS = {"alice": "0b5f2c1e-6d3a-4c1b-9a8e-2f4d6c8b0a11", "bob": "7c9e4a2d-1b3f-4e5a-8d6c-0a2b4c6d8e22",
            "carol": "e1d2c3b4-a5f6-4789-8abc-def012345633", "dave": "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c44"}

T0 = "2024-11-04T18:50:37.142887Z"


def ann(aid, task, user, result, cancelled=False):
    return {"id": aid, "completed_by": LS_USERS[user], "result": result, "reviews": [],
            "last_action": "submitted" if not cancelled else "skipped", "was_cancelled": cancelled,
            "ground_truth": False, "created_at": T0, "updated_at": T0, "draft_created_at": None,
            "lead_time": 41.5, "prediction": {}, "result_count": len(result), "unique_id": "u%d" % aid,
            "import_id": None, "last_action": None, "task": task, "project": 3, "updated_by": 1,
            "parent_prediction": None, "parent_annotation": None, "last_created_by": None}


def res(rid, from_name, to_name, typ, value):
    return {"id": "r%d" % rid, "type": typ, "value": value, "origin": "manual", "to_name": to_name, "from_name": from_name}


def task(tid, data, annotations):
    return {"id": tid, "annotations": annotations, "file_upload": "d06c405d-tasks.json", "drafts": [],
            "predictions": [], "data": data, "meta": {}, "created_at": T0, "updated_at": T0, "inner_id": tid,
            "total_annotations": len(annotations), "cancelled_annotations": sum(a["was_cancelled"] for a in annotations),
            "total_predictions": 0, "comment_count": 0, "unresolved_comment_count": 0,
            "last_comment_updated_at": None, "project": 3, "updated_by": 1, "comment_authors": []}


def ls_results(g, rid):
    grader, q, m, label, scores, verdicts, rank, comment = g
    out = []
    for a, s in zip(ATTRS, scores):
        rid += 1
        out.append(res(rid, QNAME[a], "answer", "rating", {"rating": s}))
    for i, v in enumerate(verdicts):
        rid += 1
        out.append(res(rid, "c%d" % (i + 1), "answer", "choices", {"choices": [v]}))
    if rank is not None:
        rid += 1
        out.append(res(rid, "rank", "answer", "number", {"number": rank}))
    if comment is not None:
        rid += 1
        out.append(res(rid, "comment", "answer", "textarea", {"text": [comment]}))
    return out, rid


def labelstudio():
    tasks, tid, aid, rid = [], 100, 0, 0
    # one task per graded response, with every grader's annotation on it
    by_resp = {}
    for g in GRADES:
        by_resp.setdefault((g[1], g[2], g[3]), []).append(g)
    for (q, m, label), gs in by_resp.items():
        tid += 1
        data = {"question_id": q, "prompt": "Question %s" % q, "answer": "answer of %s" % (m or label)}
        if m:
            data["model"] = m
        else:
            data["label"] = label
        anns = []
        for g in gs:
            aid += 1
            r, rid = ls_results(g, rid)
            anns.append(ann(aid, tid, g[0], r))
        if (q, m) == ("q1", "m1"):  # a cancelled annotation: skipped
            aid += 1
            anns.append(ann(aid, tid, "carol", [res(99, "domain_score", "answer", "rating", {"rating": 1})], cancelled=True))
        tasks.append(task(tid, data, anns))
    # bob's ranking (Ranker over a List of the responses, by label)
    q, order = BOB_RANKING
    tid += 1
    aid += 1
    data = {"question_id": q, "items": [{"id": l, "title": "Answer " + l} for l in ["A", "B"]]}
    tasks.append(task(tid, data, [ann(aid, tid, "bob", [res(98, "rank", "results", "ranker", {"ranker": {"rank": order}})])]))
    # carol's pairwise comparison (Pairwise tag over two Text objects)
    ev, q, a, b, sel = PAIR
    tid += 1
    aid += 1
    data = {"question_id": q, "model_a": a, "model_b": b, "text1": "answer of " + a, "text2": "answer of " + b}
    tasks.append(task(tid, data, [ann(aid, tid, ev, [res(97, "pw", "pw", "pairwise", {"selected": sel})])]))
    return tasks


def get_annotator(a):
    c = a["completed_by"]
    return c.get("email") if isinstance(c, dict) else str(c)


def prettify(values):
    # label_studio_converter.utils.prettify_result with the type popped
    out, typ = [], None
    for v in values:
        v = dict(v)
        typ = v.pop("type")
        if typ == "Choices" and len(v["choices"]) == 1:
            out.append(v["choices"][0])
        elif typ == "TextArea" and len(v["text"]) == 1:
            out.append(v["text"][0])
        else:
            out.append(v)
    return out[0] if typ in ("Choices", "TextArea") and len(out) == 1 else out


SCHEMA = {"rating": "Rating", "choices": "Choices", "number": "Number", "textarea": "TextArea",
          "ranker": "Ranker", "pairwise": "Pairwise"}


def flat_records(tasks):
    """converter.py iter_from_json_file + convert_to_json_min, per annotation."""
    for t in tasks:
        for a in sorted([a for a in t["annotations"] if not a["was_cancelled"]], key=lambda a: a["created_at"], reverse=True):
            outputs = {}
            for r in a["result"]:
                v = dict(r["value"])
                v["type"] = SCHEMA[r["type"]]
                outputs.setdefault(r["from_name"], []).append(v)
            rec = dict(t["data"])
            rec["id"] = t["id"]
            for name, vals in outputs.items():
                rec[name] = prettify(vals)
            rec["annotator"] = get_annotator(a)
            rec["annotation_id"] = a["id"]
            rec["created_at"] = a["created_at"]
            rec["updated_at"] = a["updated_at"]
            rec["lead_time"] = a["lead_time"]
            yield rec


def labelstudio_csv(tasks, path, sep=","):
    recs = list(flat_records(tasks))
    keys = {"annotator", "annotation_id", "created_at", "updated_at", "lead_time"}
    for r in recs:
        keys.update(r)
    with open(path, "w", encoding="utf8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=sorted(keys), quoting=csv.QUOTE_NONNUMERIC, delimiter=sep)
        w.writeheader()
        for r in recs:
            row = {}
            for k, v in r.items():
                row[k] = json.dumps(v, ensure_ascii=False, separators=(",", ":")) if isinstance(v, (dict, list)) else v
            w.writerow(row)


def argilla():
    """Dataset.records.to_list(flatten=True): one record per graded response."""
    recs = []
    qs = [QNAME[a] for a in ATTRS] + ["c1", "c2", "rank", "comment", "winner"]
    rid = 0

    def record(meta, responses):
        nonlocal rid
        rid += 1
        r = {"id": "rec-%d" % rid, "status": "completed", "_server_id": "9a1b2c3d-0000-4000-8000-%012d" % rid,
             "prompt": "Question %s" % meta["question_id"], "answer": "an answer"}
        r.update(meta)
        for q, lst in responses.items():
            r[q + ".responses"] = [v for v, _, _ in lst]
            r[q + ".responses.users"] = [AG_USERS[u] for _, u, _ in lst]
            r[q + ".responses.status"] = [s for _, _, s in lst]
        recs.append(r)

    by_resp = {}
    for g in GRADES:
        by_resp.setdefault((g[1], g[2], g[3]), []).append(g)
    for (q, m, label), gs in by_resp.items():
        meta = {"question_id": q, "model": m} if m else {"question_id": q, "label": label}
        responses = {}
        for g in gs:
            grader, _, _, _, scores, verdicts, rank, comment = g
            for a, s in zip(ATTRS, scores):
                responses.setdefault(QNAME[a], []).append((s, grader, "submitted"))
            for i, v in enumerate(verdicts):
                responses.setdefault("c%d" % (i + 1), []).append((v, grader, "submitted"))
            if rank is not None:
                responses.setdefault("rank", []).append((rank, grader, "submitted"))
            if comment is not None:
                responses.setdefault("comment", []).append((comment, grader, "submitted"))
        if (q, m) == ("q1", "m1"):  # dave's draft and discarded responses: left out
            responses.setdefault("domain_score", []).append((1, "dave", "draft"))
            responses.setdefault("reasoning", []).append((1, "dave", "discarded"))
        record(meta, responses)
    q, order = BOB_RANKING
    record({"question_id": q}, {"rank": [(order, "bob", "submitted")]})
    ev, q, a, b, sel = PAIR
    record({"question_id": q, "model_a": a, "model_b": b}, {"winner": [({"left": "a", "right": "b"}[sel], ev, "submitted")]})
    # to_list normalises every record to the same keys (None when absent)
    keys = []
    for r in recs:
        keys += [k for k in r if k not in keys]
    for r in recs:
        for k in keys:
            r.setdefault(k, None)
    return recs


def argilla_nested(recs):
    out = []
    for r in recs:
        n = {"id": r["id"], "fields": {"prompt": r["prompt"], "answer": r["answer"]}, "metadata": {},
             "suggestions": {}, "responses": {}, "vectors": {}, "_server_id": r["_server_id"]}
        for k in ("question_id", "model", "label", "model_a", "model_b"):
            if r.get(k) is not None:
                n["metadata"][k] = r[k]
        for k, v in r.items():
            if k.endswith(".responses") and v is not None:
                q = k[: -len(".responses")]
                n["responses"][q] = [{"value": val, "user_id": u} for val, u, st in
                                     zip(v, r[k + ".users"], r[k + ".status"]) if st == "submitted"]
        out.append(n)
    return out


def argilla_csv(recs, path):
    keys = list(recs[0].keys())
    with open(path, "w", encoding="utf8", newline="") as f:
        w = csv.writer(f)
        w.writerow([""] + keys)  # pandas writes the index first
        for i, r in enumerate(recs):
            w.writerow([i] + ["" if r[k] is None else (repr(r[k]) if isinstance(r[k], list) else r[k]) for k in keys])


def sheets():
    """The clean-format equivalent: one wide sheet, one pairwise sheet."""
    with open("sheets/grades.csv", "w", encoding="utf8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["evaluator", "question_id", "model", "label"] + ATTRS + ["C1", "C2", "rank", "comment"])
        q, order = BOB_RANKING
        for grader, q_, m, label, scores, verdicts, rank, comment in GRADES:
            if grader == "bob" and q_ == q:
                rank = order.index(label) + 1
            w.writerow([grader, q_, m or "", label or ""] + scores + (verdicts + [""])[:2] + [rank, comment or ""])
    with open("sheets/pairs.csv", "w", encoding="utf8", newline="") as f:
        w = csv.writer(f)
        ev, q, a, b, sel = PAIR
        w.writerow(["evaluator", "question_id", "model_a", "model_b", "winner"])
        w.writerow([ev, q, a, b, {"left": "a", "right": "b"}[sel]])


if __name__ == "__main__":
    sheets()
    tasks = labelstudio()
    with open("labelstudio.json", "w", encoding="utf8") as f:
        json.dump(tasks, f, indent=2, ensure_ascii=False)
    labelstudio_csv(tasks, "labelstudio.csv")
    labelstudio_csv(tasks, "labelstudio.tsv", sep="\t")  # the TSV export: csv2.convert with sep="\t"
    with open("labelstudio_min.json", "w", encoding="utf8") as f:
        json.dump(list(flat_records(tasks)), f, indent=2, ensure_ascii=False)
    recs = argilla()
    with open("argilla.json", "w", encoding="utf8") as f:
        json.dump(recs, f, indent=2, ensure_ascii=False)
    argilla_csv(recs, "argilla.csv")
    with open("argilla_nested.json", "w", encoding="utf8") as f:
        json.dump(argilla_nested(recs), f, indent=2, ensure_ascii=False)
