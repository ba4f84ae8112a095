#!/usr/bin/env python3
"""Generate corpus_vectors.jsonl: sacrebleu 2.6.0 corpus BLEU, chrF, chrF++ vectors.

Regenerate (from the repository root; needs sacrebleu 2.6.0, numpy and regex):

    PYTHONPATH=/path/to/sacrebleu-2.6.0 python3 \
        metrics/textsim/testdata/gen_corpus_vectors.py > metrics/textsim/testdata/corpus_vectors.jsonl

Inputs: the (hyp, ref) pairs of textmetrics_vectors.jsonl (every language in
them) and the German and Chinese samples below (written for these tests, no
third-party text). Output, one JSON object a line:

  {"kind": "pair", "id", "bleu": {tok: {...}}, "tok": {tok: [hyp, ref]},
   "chrf": {...}, "chrfpp": {...}}   sentence scores and statistics per pair
  {"kind": "corpus", "name", "hyps", "refs" (streams), "bleu": {tok: {...}},
   "chrf": {...}, "chrfpp": {...}}   corpus scores with signatures

Floats are Python repr (shortest round-trip); NaN is null.
"""
import json
import math
import sys

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__

TOKS = ["13a", "zh", "char", "intl"]

GERMAN = [
    ("Die Sitzung beginnt um 9:30 Uhr im großen Saal.", "Die Sitzung fängt um 9.30 Uhr im großen Saal an."),
    ("Für die Prüfung müssen alle Unterlagen bis Freitag vorliegen.", "Alle Unterlagen für die Prüfung müssen bis Freitag vorliegen."),
    ("Der Bericht enthält 1.250 Datensätze aus dem Jahr 2021.", "Der Bericht umfasst 1.250 Datensätze aus 2021."),
    ("Wir danken Ihnen für Ihre Geduld!", "Vielen Dank für Ihre Geduld!"),
    ("Das Straßenbahnnetz wurde 1998 erweitert.", "Das Straßenbahnnetz ist 1998 ausgebaut worden."),
    ("„Künstliche Intelligenz“ ist kein Allheilmittel, sagte sie.", "„Künstliche Intelligenz“ sei kein Allheilmittel, sagte sie."),
    ("Bitte schließen Sie die Tür.", "Schließen Sie bitte die Tür."),
    ("Die Größe der Stichprobe – etwa 300 Personen – reicht nicht aus.", "Die Stichprobengröße von rund 300 Personen genügt nicht."),
    ("Übermorgen regnet es in München.", "In München regnet es übermorgen."),
    ("Er hat den Zug verpasst; deshalb kam er zu spät.", "Er verpasste den Zug und kam daher zu spät."),
    ("", "Ein leerer Satz des Systems."),
    ("Öl, Gas und Kohle werden teurer (laut Studie).", "Öl, Gas und Kohle werden laut der Studie teurer."),
]
GERMAN_B = [
    "Die Sitzung fängt um 9.30 Uhr im Saal an.",
    "Alle Unterlagen müssen bis Freitag für die Prüfung vorliegen.",
    "Der Bericht hat 1.250 Datensätze von 2021.",
    "Danke für Ihre Geduld.",
    "Das Straßenbahnnetz wurde im Jahr 1998 ausgebaut.",
    "Künstliche Intelligenz ist kein Allheilmittel, sagte sie.",
    "Schließen Sie bitte die Tür!",
    "Die Stichprobe mit 300 Personen ist zu klein.",
    "In München regnet es übermorgen.",
    "Er verpasste den Zug, daher kam er zu spät.",
    "Ein Satz.",
    "Öl, Gas und Kohle werden teurer.",
]
CHINESE = [
    ("会议将于上午九点半在大厅开始。", "会议上午九点半在大厅开始。"),
    ("所有材料必须在星期五之前提交。", "请在周五前提交全部材料。"),
    ("报告包含2021年的1,250条记录。", "该报告收录了2021年的1,250条数据。"),
    ("感谢您的耐心！", "谢谢您的耐心等待！"),
    ("人工智能不是万能药，她说。", "她说，人工智能并非万能药。"),
    ("请关上门。", "请把门关上。"),
    ("样本量约为300人——这还不够。", "约300人的样本量是不够的。"),
    ("后天北京会下雨。", "北京后天有雨。"),
    ("他错过了火车，所以迟到了。", "他没赶上火车，因此迟到了。"),
    ("GPU 的价格在 2023 年上涨了 15%。", "2023年GPU价格上涨了15%。"),
    ("“数据”一词来自拉丁语…", "“数据”这个词源于拉丁语……"),
    ("石油、天然气和煤炭都在涨价（根据研究）。", "根据研究，石油、天然气和煤炭都在涨价。"),
]
CHINESE_B = [
    "会议在大厅上午开始。",
    "材料必须星期五之前提交。",
    "报告有2021年1,250条记录。",
    "谢谢耐心！",
    "她说人工智能不是万能的。",
    "请关门。",
    "样本约300人，不够。",
    "北京后天下雨。",
    "他没赶上火车，迟到了。",
    "GPU价格2023年涨了15%。",
    "“数据”来自拉丁语。",
    "石油、天然气、煤炭在涨价。",
]


def f(x):
    return None if isinstance(x, float) and (math.isnan(x) or math.isinf(x)) else x


def bleu_obj(s):
    return {"score": f(s.score), "counts": list(s.counts), "totals": list(s.totals),
            "bp": f(s.bp), "sys_len": s.sys_len, "ref_len": s.ref_len}


def chrf_stats(metric, hyp, refs):
    return metric._extract_corpus_statistics([hyp], [[r] for r in refs])[0]


def pair_record(pid, hyp, refs):
    rec = {"kind": "pair", "id": pid, "hyp": hyp, "refs": refs, "bleu": {}, "tok": {}}
    for tok in TOKS:
        m = BLEU(tokenize=tok, effective_order=True)
        s = m.sentence_score(hyp, refs)
        rec["bleu"][tok] = bleu_obj(s)
        # the tokens BLEU counts: the tokenizer's output split on whitespace
        rec["tok"][tok] = [" ".join(m._preprocess_segment(x).split()) for x in [hyp] + refs]
    for name, wo in (("chrf", 0), ("chrfpp", 2)):
        m = CHRF(word_order=wo)
        s = m.sentence_score(hyp, refs)
        rec[name] = {"score": f(s.score), "stats": [int(x) for x in chrf_stats(m, hyp, refs)]}
    return rec


def corpus_record(name, hyps, streams):
    rec = {"kind": "corpus", "name": name, "hyps": hyps, "refs": streams, "bleu": {}}
    for tok in TOKS:
        m = BLEU(tokenize=tok)
        s = m.corpus_score(hyps, streams)
        o = bleu_obj(s)
        o["signature"] = str(m.get_signature())
        rec["bleu"][tok] = o
    for key, wo in (("chrf", 0), ("chrfpp", 2)):
        m = CHRF(word_order=wo)
        s = m.corpus_score(hyps, streams)
        st = [sum(int(x[i]) for x in m._extract_corpus_statistics(hyps, streams)) for i in range(3 * (6 + wo))]
        rec[key] = {"score": f(s.score), "stats": st, "signature": str(m.get_signature())}
    return rec


def main():
    pairs = []
    with open(sys.argv[1] if len(sys.argv) > 1 else "metrics/textsim/testdata/textmetrics_vectors.jsonl") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("corpus"):
                continue
            pairs.append((d["id"], d["hyp"], d["ref"]))
    de = [("de-%02d" % i, h, r) for i, (h, r) in enumerate(GERMAN)]
    zh = [("zh-%02d" % i, h, r) for i, (h, r) in enumerate(CHINESE)]
    out = sys.stdout
    for pid, h, r in pairs + de + zh:
        out.write(json.dumps(pair_record(pid, h, [r]), ensure_ascii=False) + "\n")
    # several references: best reference per segment (chrF), clipping over references (BLEU)
    for i, ((h, r), b) in enumerate(zip(GERMAN, GERMAN_B)):
        out.write(json.dumps(pair_record("de-2ref-%02d" % i, b, [r, h]), ensure_ascii=False) + "\n")
    for i, ((h, r), b) in enumerate(zip(CHINESE, CHINESE_B)):
        out.write(json.dumps(pair_record("zh-2ref-%02d" % i, b, [r, h]), ensure_ascii=False) + "\n")
    corp = [
        ("textmetrics-pairs", [p[1] for p in pairs], [[p[2] for p in pairs]]),
        ("german-a", [h for h, _ in GERMAN], [[r for _, r in GERMAN]]),
        ("german-b", GERMAN_B, [[r for _, r in GERMAN]]),
        ("german-b-2refs", GERMAN_B, [[r for _, r in GERMAN], [h for h, _ in GERMAN]]),
        ("chinese-a", [h for h, _ in CHINESE], [[r for _, r in CHINESE]]),
        ("chinese-b", CHINESE_B, [[r for _, r in CHINESE]]),
        ("chinese-b-2refs", CHINESE_B, [[r for _, r in CHINESE], [h for h, _ in CHINESE]]),
    ]
    for name, hyps, streams in corp:
        out.write(json.dumps(corpus_record(name, hyps, streams), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
