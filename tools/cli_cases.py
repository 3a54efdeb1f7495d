"""The inputs and the invocations of ``tools/cli_outputs.py`` (the byte-identical check).

:func:`prepare` writes every input into the working folder, from the shared data
(``../shared/data``) and from deterministic derivations of it (standard library only: a
second and third run are the first with scores perturbed by a fixed hash of the document id;
the classification, clustering and agreement files are columns of the CoNLL-2000 sample;
embeddings are seeded points written as TSV). :func:`cases` lists the invocations: name ->
arguments, run in that order (``report`` and ``plot`` read what an earlier ``--save`` wrote).
Paths are relative to the working folder, so no output depends on where it is.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from pathlib import Path

#: Every output format of the commands that take ``-f``.
FORMATS = ("table", "tsv", "csv", "jsonl", "json", "markdown", "latex")


def _jitter(key: str, salt: str) -> float:
    """A fixed number in [0, 1) from ``key`` (sha256: the same on every machine and run)."""
    digest = hashlib.sha256(f"{salt}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def _perturbed_run(source: Path, target: Path, salt: str, weight: float) -> None:
    """``source`` (a TREC run) with every score moved by ``weight`` times a fixed jitter of its
    document, and a new tag: another system over the same candidates."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        q, q0, doc, rank, score, _tag = line.split()[:6]
        new = float(score) + weight * (_jitter(doc, salt) - 0.5)
        lines.append(f"{q} {q0} {doc} {rank} {new:.6f} {salt}")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _conll(shared: Path) -> list[list[str]]:
    """The CoNLL-2000 sample's rows (token, POS, gold chunk, predicted chunk); blank: []."""
    text = (shared / "ner" / "conll2000_sample_output.txt").read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines()]


def _ranking_inputs(shared: Path, work: Path) -> None:
    trec = shared / "trec_eval"
    for name in ("qrels.test", "qrels.rel_level"):
        shutil.copy(trec / name, work / name)
    # results.test's columns, single-spaced (the runs below are written the same way).
    _perturbed_run(trec / "results.test", work / "r1.txt", "r1", 0.0)
    _perturbed_run(trec / "results.test", work / "r2.txt", "r2", 0.8)
    _perturbed_run(trec / "results.test", work / "r3.txt", "r3", 2.0)
    _perturbed_run(trec / "results.test", work / "r4.txt", "r4", 0.3)
    # Votes: each query's top 8 documents of each run, best first (one ranking per line).
    votes = []
    for run in ("r1", "r2", "r3"):
        by_query: dict[str, list[tuple[float, str]]] = {}
        for line in (work / f"{run}.txt").read_text(encoding="utf-8").splitlines():
            q, _, doc, _, score, _ = line.split()
            by_query.setdefault(q, []).append((-float(score), doc))
        for q in sorted(by_query)[:3]:
            votes.append(" ".join(doc for _, doc in sorted(by_query[q])[:8]))
    _write(work / "votes.txt", votes)
    shutil.copytree(shared / "lightgbm_lambdarank", work / "letor", dirs_exist_ok=True)


def _synthetic_inputs(work: Path) -> None:
    """A seeded collection of 40 queries (trec_eval's test data has 3: too few for paired
    tests): 30 candidates per query graded 0-3, and runs scoring grade + noise."""
    rng = random.Random(7)
    qrels, grades = [], {}
    for q in range(1, 41):
        for d in range(30):
            grade = rng.choices((0, 1, 2, 3), weights=(6, 2, 1, 1))[0]
            grades[(q, d)] = grade
            qrels.append(f"q{q} 0 d{q}-{d} {grade}")
    _write(work / "syn_qrels.txt", qrels)
    for name, noise in (("s1", 0.8), ("s2", 1.2), ("s3", 2.5), ("s4", 1.0)):
        run = []
        for q in range(1, 41):
            scored = sorted(
                ((grades[(q, d)] + rng.gauss(0, noise), d) for d in range(30)), reverse=True
            )
            run += [f"q{q} Q0 d{q}-{d} {i} {v:.5f} {name}" for i, (v, d) in enumerate(scored[:25])]
        _write(work / f"{name}.txt", run)
    # A second assessor: the grades of a fixed tenth of the judgments changed.
    second = []
    for line in qrels:
        q, it, doc, grade = line.split()
        if _jitter(doc, "assessor") < 0.1:
            grade = "0" if grade != "0" else "2"
        second.append(f"{q} {it} {doc} {grade}")
    _write(work / "syn_qrels_b.txt", second)


def _task_inputs(shared: Path, work: Path) -> None:
    rows = [r for r in _conll(shared) if len(r) >= 4][:400]
    gold = [r[2] for r in rows]
    pred = [r[3] for r in rows]
    _write(work / "gold.txt", gold)
    _write(work / "pred.txt", pred)
    # Scores of the positive class B-NP: higher where predicted B-NP, with a fixed jitter.
    scores = [
        f"{0.6 * (p == 'B-NP') + 0.4 * _jitter(str(i), 'score'):.4f}" for i, p in enumerate(pred)
    ]
    _write(work / "scores.txt", scores)
    # Clusterings of the tokens: gold by chunk tag, predicted by predicted chunk tag.
    _write(work / "cl_gold.txt", [f"t{i}\t{g}" for i, g in enumerate(gold)])
    _write(work / "cl_pred.txt", [f"t{i}\t{p}" for i, p in enumerate(pred)])
    # Overlapping, weighted clusters (one cluster per line): items by POS and by chunk tag.
    soft_gold, soft_pred = {}, {}
    for i, r in enumerate(rows[:60]):
        soft_gold.setdefault(r[1], []).append(f"t{i}")
        soft_pred.setdefault(r[3], []).append(f"t{i}:{0.5 + _jitter(str(i), 'w') / 2:.2f}")
    _write(work / "soft_gold.txt", [" ".join(v) for _, v in sorted(soft_gold.items())])
    _write(work / "soft_pred.txt", [" ".join(v) for _, v in sorted(soft_pred.items())])
    # Ratings: three raters of each token's chunk (gold, predicted, POS-derived), wide CSV.
    third = [r[2] if _jitter(str(i), "r3") < 0.8 else r[3] for i, r in enumerate(rows)]
    triples = list(zip(gold, pred, third, strict=True))[:200]
    wide = ["unit,r1,r2,r3", *(f"u{i},{g},{p},{t}" for i, (g, p, t) in enumerate(triples))]
    _write(work / "ratings.csv", wide)
    long = ["unit,rater,value"]
    for line in wide[1:]:
        unit, *values = line.split(",")
        long += [f"{unit},{rater},{v}" for rater, v in zip(("a", "b", "c"), values, strict=True)]
    _write(work / "ratings_long.csv", long)
    # Ordinal ratings: Norris's y and x on a 0-10 scale, and a third rater between them.
    norris = _norris(shared)
    ordinal = ["r1,r2,r3"] + [
        f"{round(y / 100)},{round(x / 100)},{round((x + y) / 200 + _jitter(str(x), 'o'))}"
        for y, x in norris
    ]
    _write(work / "ratings_ordinal.csv", ordinal)
    _write(work / "reg_gold.txt", [f"{y:g}" for y, _ in norris])
    _write(work / "reg_p1.txt", [f"{x:g}" for _, x in norris])
    _write(work / "reg_p2.txt", [f"{1.01 * x - 0.4:.4f}" for _, x in norris])


def _norris(shared: Path) -> list[tuple[float, float]]:
    """NIST's Norris data: (y, x) pairs after the last ``Data:`` line."""
    lines = (shared / "regression" / "Norris.dat").read_text(encoding="utf-8").splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("Data:"))
    pairs = [line.split() for line in lines[start + 1 :] if line.strip()]
    return [(float(y), float(x)) for y, x in pairs]


def _nlp_inputs(shared: Path, work: Path) -> None:
    rouge = shared / "generation" / "rouge"
    refs = (rouge / "target_large.txt").read_text(encoding="utf-8").splitlines()[:150]
    hyps = (rouge / "prediction_large.txt").read_text(encoding="utf-8").splitlines()[:150]
    _write(work / "refs.txt", refs)
    _write(work / "hyp1.txt", hyps)
    # A second system: the reference with every fourth word dropped.
    _write(work / "hyp2.txt", [" ".join(w for i, w in enumerate(r.split()) if i % 4) for r in refs])
    _write(work / "refs2.txt", [" ".join(reversed(r.split())) for r in refs])
    # Tagging: the CoNLL sample, and a second tagger (a fixed tenth of its tags set to O).
    conll = _conll(shared)
    _write(work / "tagger1.conll", [" ".join(r) for r in conll])
    second = []
    for i, r in enumerate(conll):
        if len(r) >= 4 and _jitter(str(i), "tagger") < 0.1:
            r = [*r[:-1], "O"]
        second.append(" ".join(r))
    _write(work / "tagger2.conll", second)


def _embedding_inputs(shared: Path, work: Path) -> None:
    rng = random.Random(0)
    rows, labels, confidence = [], [], []
    for i in range(60):
        label = i % 4
        rows.append("\t".join(f"{label + rng.gauss(0, 0.7):.5f}" for _ in range(3)))
        labels.append(f"c{label}")
        confidence.append(f"{rng.random():.4f}")
    _write(work / "emb.tsv", ["e0\te1\te2", *rows])
    _write(work / "emb_labels.txt", labels)
    _write(work / "emb_conf.txt", confidence)
    # pytorch-metric-learning's 1-d case with references (pml_test_fixtures.json).
    fixture = json.loads((shared / "embeddings" / "pml_test_fixtures.json").read_text("utf-8"))
    assert "case_1d_embeddings" in fixture
    half = [i / 2.0 for i in range(20)]
    reference = half[::2] + half[1::2]
    _write(work / "pml_query.tsv", ["x", *(f"{i}" for i in range(10))])
    _write(work / "pml_query_labels.txt", [str(i) for i in range(10)])
    _write(work / "pml_ref.tsv", ["x", *(f"{v}" for v in reference)])
    _write(work / "pml_ref_labels.txt", [*(str(i) for i in range(10)), *(["1"] * 10)])


def prepare(shared: Path, work: Path) -> None:
    """Write every input of :func:`cases` into ``work``."""
    _ranking_inputs(shared, work)
    _synthetic_inputs(work)
    _task_inputs(shared, work)
    _nlp_inputs(shared, work)
    _embedding_inputs(shared, work)
    # One p-value per dataset and system (the example of Dror et al.'s code, and a second
    # system): ``assay meta replicability``.
    pvalues = (0.168, 0.297, 0.357, 0.019, 0.218, 0.001)
    _write(
        work / "pvalues.csv",
        ["dataset,system,p_value"]
        + [f"d{i},new,{p}" for i, p in enumerate(pvalues, 1)]
        + [f"d{i},alt,{p / 2}" for i, p in enumerate(pvalues, 1)],
    )


#: The invocations, in the order they run: ``name [@FORMATS] [+files] = arguments``.
#: ``@all``: once per output format (``@tsv,json``: those), the name followed by the format;
#: ``+files``: once more with ``-f tsv --report NAME.html --save NAME.json``. ``{runs}`` are
#: the synthetic collection's three runs (trec_eval's test data has 3 queries: too few for
#: paired tests; it serves evaluate and trec-eval).
_CASES = """
evaluate @all +files = evaluate qrels.test r1.txt r2.txt -m map -m ndcg@10 -m P.5,10
evaluate -q = evaluate qrels.test r1.txt r2.txt -m map -m ndcg@10 -q -f tsv
evaluate defaults = evaluate qrels.test r1.txt -f tsv
evaluate synthetic = evaluate syn_qrels.txt {runs} -q -f jsonl
evaluate ties = evaluate qrels.test r1.txt r2.txt --ties average --no-relevant skip -J -f json
evaluate -o = evaluate qrels.test r1.txt r2.txt -f csv -o evaluate_o.csv
compare @all +files = compare syn_qrels.txt {runs} -m map -m ndcg@10 --n-resamples 200
compare baseline t = compare syn_qrels.txt {runs} --baseline s1.txt --test t -f tsv
compare tukey = compare syn_qrels.txt {runs} -m map --test tukey --n-resamples 200 -f json
compare bootstrap = compare syn_qrels.txt {runs} --test bootstrap --n-resamples 200 --ci-method percentile -f tsv
trec-eval = trec-eval qrels.test r1.txt
trec-eval -q = trec-eval -q qrels.test r1.txt
trec-eval all_trec = trec-eval -m all_trec qrels.test r2.txt
trec-eval -c -M = trec-eval -c -M 100 qrels.test r3.txt
trec-eval -n -m = trec-eval -n -m P.5,10 -m ndcg_cut qrels.test r1.txt
trec-eval -l -J = trec-eval -l 2 -J qrels.rel_level r1.txt
trec-eval synthetic = trec-eval -q -m all_trec syn_qrels.txt s1.txt
metrics @all = metrics
metrics --family = metrics --family classification --family embedding -f tsv
classify @all = classify gold.txt pred.txt
classify_scores +files = classify gold.txt pred.txt --scores scores.txt --positive B-NP
classify scores json = classify gold.txt pred.txt --scores scores.txt --positive B-NP -f json
classify macro = classify gold.txt pred.txt --average macro -f tsv
classify beta = classify gold.txt pred.txt --scores scores.txt --positive B-NP --beta 2 --degenerate limit -f csv
agree @all +files = agree ratings.csv --id-column unit
agree long = agree ratings_long.csv --long -f json
agree ordinal = agree ratings_ordinal.csv --no-id-column -l ordinal --bootstrap 200 -f tsv
agree interval = agree ratings_ordinal.csv --no-id-column -l interval -f json
cluster @all +files = cluster cl_gold.txt cl_pred.txt
cluster soft @tsv,json = cluster soft_gold.txt soft_pred.txt --layout clusters
regression @all +files = regression reg_gold.txt reg_p1.txt reg_p2.txt --n-resamples 200
regression absolute t = regression reg_gold.txt reg_p1.txt reg_p2.txt --n-resamples 200 --loss absolute --test t --zero-target eps -f tsv
tagging @all,conlleval +files = tagging tagger1.conll
tagging_two @tsv,json,table +files = tagging tagger1.conll tagger2.conll --n-resamples 200
tagging strict = tagging tagger1.conll tagger2.conll --n-resamples 200 --scheme iob1 --mode strict --test randomization -f tsv
embed @all = embed emb.tsv emb_labels.txt
embed_confidence +files = embed emb.tsv emb_labels.txt --confidence emb_conf.txt
embed curve = embed emb.tsv emb_labels.txt --confidence emb_conf.txt --curve -f tsv
embed per-class = embed emb.tsv emb_labels.txt --per-class -f tsv
embed per-query = embed emb.tsv emb_labels.txt --per-query -m mrr -m ndcg@10 --distance cosine -f tsv
embed reference = embed pml_query.tsv pml_query_labels.txt --reference pml_ref.tsv --reference-labels pml_ref_labels.txt -m precision@1 -m r_precision -m map@r -m map -f json
generation @all +files = generation refs.txt hyp1.txt hyp2.txt --n-resamples 100
generation more = generation refs.txt hyp1.txt hyp2.txt --n-resamples 100 -m ter -m rouge1 -m rougeL -m chrf++ -f tsv
generation refs = generation refs.txt hyp1.txt hyp2.txt --n-resamples 100 -r refs2.txt --test randomization --lowercase -f json
ltr_run @all +files = ltr run letor --models linear,lambdamart --n-resamples 200
ltr run seeds = ltr run letor --models linear,lambdamart --n-resamples 200 --seeds 2 --norm zscore -f json
ltr stats @tsv,json,table = ltr stats letor
ltr train = ltr train letor --out trained --model linear -f tsv
ltr evaluate = ltr evaluate letor trained/test.linear.run -f tsv
ltr analyze queries = ltr analyze letor queries --models linear,lambdamart -f tsv
ltr analyze length = ltr analyze letor length --models linear,lambdamart -f tsv
ltr analyze relevant = ltr analyze letor relevant --models linear,lambdamart -f tsv
ltr analyze scores = ltr analyze letor scores --models linear,lambdamart -f tsv
ltr analyze importance = ltr analyze letor importance --models linear,lambdamart --top 10 -f tsv
ltr analyze trees = ltr analyze letor trees --models lambdamart --step 10 -f tsv
ltr analyze features = ltr analyze letor features -f tsv
ltr_analyze +files = ltr analyze letor queries
fuse rrf = fuse {runs}
fuse combsum = fuse {runs} -m combsum -n zscore --depth 20
fuse combmnz = fuse {runs} -m combmnz -n max
fuse borda = fuse {runs} -m borda --depth 20
fuse condorcet = fuse {runs} -m condorcet --depth 20
fuse isr = fuse {runs} -m isr -n rank
fuse wsum = fuse {runs} -m wsum -w 0.5,0.3,0.2 --name fused
aggregate @all +files = aggregate votes.txt
aggregate kemeny = aggregate votes.txt -m kemeny -f tsv
aggregate copeland = aggregate votes.txt -m copeland -f tsv
aggregate mc4 = aggregate votes.txt -m mc4 -f tsv
aggregate dowdall = aggregate votes.txt -m dowdall -f tsv
aggregate weighted = aggregate votes.txt -m weighted_borda -w 1,2,3,1,2,3,1,2,3 --partial average -f json
meta_discpower @all +files = meta discpower syn_qrels.txt {runs} -m map -m P@10 --n-resamples 100
meta discpower tukey pairs = meta discpower syn_qrels.txt {runs} -m map --n-resamples 100 --test tukey --pairs -f tsv
meta topicsize @tsv,json = meta topicsize syn_qrels.txt {runs} --min-diff 0.1
meta topicsize variance = meta topicsize --variance 0.05 --n-topics 50 --min-diff 0.1 --min-diff 0.05 -f tsv
meta_rbo @tsv,json,table +files = meta rbo s1.txt s2.txt
meta rbo per-query = meta rbo s1.txt s3.txt --per-query --depth 10 -f tsv
meta repro @tsv,json = meta repro syn_qrels.txt s1.txt s2.txt s4.txt s3.txt
meta assessors @tsv,json = meta assessors syn_qrels.txt syn_qrels_b.txt {runs}
meta_anova @all +files = meta anova syn_qrels.txt {runs} -m map -m P@10
meta_replicability @all +files = meta replicability pvalues.csv --system new
meta replicability fisher = meta replicability pvalues.csv --system alt --method fisher --alpha 0.1 -f tsv
demo = demo --queries 40 -f tsv --save demo.json
report html = report evaluate.json compare.json classify_scores.json -f html --title cli-outputs
report markdown = report evaluate.json compare.json classify_scores.json -f markdown
report latex = report evaluate.json compare.json classify_scores.json -f latex
report table = report evaluate.json compare.json classify_scores.json -f table
plot list = plot compare.json -f tsv
plot svg = plot compare.json -n 1 -o plot.svg
"""


def cases() -> dict[str, list[str]]:
    """Name -> arguments of ``assay``, in the order they run."""
    out: dict[str, list[str]] = {}
    for line in _CASES.strip().splitlines():
        head, _, text = line.partition(" = ")
        args = text.replace("{runs}", "s1.txt s2.txt s3.txt").split()
        words = head.split()
        name = " ".join(w for w in words if w[0] not in "@+")
        formats = [w[1:] for w in words if w.startswith("@")]
        if formats:
            wanted = formats[0].replace("all", ",".join(FORMATS)).split(",")
            out |= {f"{name} -f {fmt}": [*args, "-f", fmt] for fmt in wanted}
        elif "+files" not in words:
            out[name] = args
        if "+files" in words:
            extra = ["-f", "tsv", "--report", f"{name}.html", "--save", f"{name}.json"]
            out[f"{name} --report --save"] = [*args, *extra]
    return out
