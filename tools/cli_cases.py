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
    # A second assessor: the grades of a fixed tenth of the judgments flipped.
    qrels_b = []
    for line in (trec / "qrels.test").read_text(encoding="utf-8").splitlines():
        q, it, doc, grade = line.split()
        if _jitter(q + doc, "assessor") < 0.1:
            grade = "0" if grade != "0" else "1"
        qrels_b.append(f"{q} {it} {doc} {grade}")
    _write(work / "qrels_b.txt", qrels_b)
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
    wide = ["unit,r1,r2,r3"] + [f"u{i},{g},{p},{t}" for i, (g, p, t) in enumerate(zip(gold, pred, third, strict=True))][:200]  # noqa: E501
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
    _task_inputs(shared, work)
    _nlp_inputs(shared, work)
    _embedding_inputs(shared, work)


def _every_format(name: str, args: list[str], formats: tuple[str, ...] = FORMATS) -> dict:
    return {f"{name} -f {fmt}": [*args, "-f", fmt] for fmt in formats}


def _with_files(name: str, args: list[str]) -> dict:
    """``args`` with ``--report`` and ``--save`` (the files are hashed too)."""
    return {f"{name} --report --save": [*args, "--report", f"{name}.html", "--save", f"{name}.json"]}


def cases() -> dict[str, list[str]]:
    """Name -> arguments of ``assay``, in the order they run."""
    runs = ["r1.txt", "r2.txt", "r3.txt"]
    ev = ["evaluate", "qrels.test", "r1.txt", "r2.txt", "-m", "map", "-m", "ndcg@10", "-m", "P.5,10"]
    cmp = ["compare", "qrels.test", *runs, "-m", "map", "-m", "ndcg@10", "--n-resamples", "200"]
    ltr_run = ["ltr", "run", "letor", "--models", "linear,lambdamart", "--n-resamples", "200"]
    classify = ["classify", "gold.txt", "pred.txt"]
    scored = [*classify, "--scores", "scores.txt", "--positive", "B-NP"]
    cluster = ["cluster", "cl_gold.txt", "cl_pred.txt"]
    agree = ["agree", "ratings.csv", "--id-column", "unit"]
    embed = ["embed", "emb.tsv", "emb_labels.txt"]
    tagging = ["tagging", "tagger1.conll"]
    two_taggers = ["tagging", "tagger1.conll", "tagger2.conll", "--n-resamples", "200"]
    gen = ["generation", "refs.txt", "hyp1.txt", "hyp2.txt", "--n-resamples", "100"]
    reg = ["regression", "reg_gold.txt", "reg_p1.txt", "reg_p2.txt", "--n-resamples", "200"]
    meta = ["meta", "discpower", "qrels.test", *runs, "-m", "map", "-m", "P@10"]
    out: dict[str, list[str]] = {}
    # The ranking core.
    out |= _every_format("evaluate", ev)
    out |= _with_files("evaluate", ev)
    out["evaluate -q"] = [*ev, "-q", "-f", "tsv"]
    out["evaluate defaults"] = ["evaluate", "qrels.test", "r1.txt", "-f", "tsv"]
    out["evaluate ties"] = [*ev, "--ties", "average", "--no-relevant", "skip", "-J", "-f", "json"]
    out["evaluate -o"] = [*ev, "-f", "csv", "-o", "evaluate_o.csv"]
    out |= _every_format("compare", cmp)
    out |= _with_files("compare", cmp)
    out["compare baseline t"] = [*cmp, "--baseline", "r1.txt", "--test", "t", "-f", "tsv"]
    out["compare tukey"] = [*cmp, "--test", "tukey", "-f", "json"]
    out["compare bootstrap"] = [*cmp, "--test", "bootstrap", "--ci-method", "percentile", "-f", "tsv"]
    out["trec-eval"] = ["trec-eval", "qrels.test", "r1.txt"]
    out["trec-eval -q"] = ["trec-eval", "-q", "qrels.test", "r1.txt"]
    out["trec-eval all_trec"] = ["trec-eval", "-m", "all_trec", "qrels.test", "r2.txt"]
    out["trec-eval -c -M"] = ["trec-eval", "-c", "-M", "100", "qrels.test", "r3.txt"]
    out["trec-eval -n -m"] = ["trec-eval", "-n", "-m", "P.5,10", "-m", "ndcg_cut", "qrels.test", "r1.txt"]  # noqa: E501
    out["trec-eval -l -J"] = ["trec-eval", "-l", "2", "-J", "qrels.rel_level", "r1.txt"]
    out |= _every_format("metrics", ["metrics"])
    out["metrics --family"] = ["metrics", "--family", "classification", "-f", "tsv"]
    # Families.
    out |= _every_format("classify", classify)
    out |= _with_files("classify scores", [*scored, "-f", "tsv"])
    out["classify scores json"] = [*scored, "-f", "json"]
    out["classify macro"] = [*classify, "--average", "macro", "-f", "tsv"]
    out["classify beta"] = [*scored, "--beta", "2", "--degenerate", "limit", "-f", "csv"]
    out |= _every_format("agree", agree)
    out |= _with_files("agree", [*agree, "-f", "tsv"])
    out["agree long"] = ["agree", "ratings_long.csv", "--long", "-f", "json"]
    out["agree ordinal"] = ["agree", "ratings_ordinal.csv", "--no-id-column", "-l", "ordinal", "--bootstrap", "200", "-f", "tsv"]  # noqa: E501
    out["agree interval"] = ["agree", "ratings_ordinal.csv", "--no-id-column", "-l", "interval", "-f", "json"]  # noqa: E501
    out |= _every_format("cluster", cluster)
    out |= _with_files("cluster", [*cluster, "-f", "tsv"])
    out["cluster soft"] = ["cluster", "soft_gold.txt", "soft_pred.txt", "--layout", "clusters", "-f", "tsv"]  # noqa: E501
    out["cluster soft json"] = ["cluster", "soft_gold.txt", "soft_pred.txt", "--layout", "clusters", "-f", "json"]  # noqa: E501
    out |= _every_format("regression", reg)
    out |= _with_files("regression", [*reg, "-f", "tsv"])
    out["regression absolute t"] = [*reg, "--loss", "absolute", "--test", "t", "--zero-target", "eps", "-f", "tsv"]  # noqa: E501
    out |= _every_format("tagging", tagging, (*FORMATS, "conlleval"))
    out |= _with_files("tagging", [*tagging, "-f", "tsv"])
    out |= _every_format("tagging two", two_taggers, ("tsv", "json", "table"))
    out |= _with_files("tagging two", [*two_taggers, "-f", "tsv"])
    out["tagging strict"] = [*two_taggers, "--scheme", "iob1", "--mode", "strict", "--test", "randomization", "-f", "tsv"]  # noqa: E501
    out |= _every_format("embed", embed)
    out |= _with_files("embed", [*embed, "--confidence", "emb_conf.txt", "-f", "tsv"])
    out["embed curve"] = [*embed, "--confidence", "emb_conf.txt", "--curve", "-f", "tsv"]
    out["embed per-class"] = [*embed, "--per-class", "-f", "tsv"]
    out["embed per-query"] = [*embed, "--per-query", "-m", "mrr", "-m", "ndcg@10", "--distance", "cosine", "-f", "tsv"]  # noqa: E501
    out["embed reference"] = ["embed", "pml_query.tsv", "pml_query_labels.txt", "--reference", "pml_ref.tsv", "--reference-labels", "pml_ref_labels.txt", "-m", "precision@1", "-m", "r_precision", "-m", "map@r", "-m", "map", "-f", "json"]  # noqa: E501
    out |= _every_format("generation", gen)
    out |= _with_files("generation", [*gen, "-f", "tsv"])
    out["generation more"] = [*gen, "-m", "ter", "-m", "rouge1", "-m", "rougeL", "-m", "chrf++", "-f", "tsv"]  # noqa: E501
    out["generation refs"] = [*gen, "-r", "refs2.txt", "--test", "randomization", "--lowercase", "-f", "json"]  # noqa: E501
    out |= _every_format("ltr run", ltr_run)
    out |= _with_files("ltr run", [*ltr_run, "-f", "tsv"])
    out["ltr run seeds"] = [*ltr_run, "--seeds", "2", "--norm", "zscore", "-f", "json"]
    out |= _every_format("ltr stats", ["ltr", "stats", "letor"], ("tsv", "json", "table"))
    out["ltr train"] = ["ltr", "train", "letor", "--out", "trained", "--model", "linear", "-f", "tsv"]
    out["ltr evaluate"] = ["ltr", "evaluate", "letor", "trained/test.linear.run", "-f", "tsv"]
    for analysis in ("queries", "length", "relevant", "scores", "importance", "trees", "features"):
        out[f"ltr analyze {analysis}"] = ["ltr", "analyze", "letor", analysis, "--models", "linear,lambdamart", "--step", "10", "-f", "tsv"]  # noqa: E501
    out |= _with_files("ltr analyze", ["ltr", "analyze", "letor", "queries", "-f", "tsv"])
    out |= _every_format("fuse rrf", ["fuse", *runs], ("tsv",))
    for method in ("combsum", "combmnz", "borda", "condorcet", "isr"):
        out[f"fuse {method}"] = ["fuse", *runs, "-m", method, "-n", "zscore", "--depth", "50"]
    out["fuse wsum"] = ["fuse", *runs, "-m", "wsum", "-w", "0.5,0.3,0.2", "--name", "fused"]
    out |= _every_format("aggregate", ["aggregate", "votes.txt"])
    out |= _with_files("aggregate", ["aggregate", "votes.txt", "-f", "tsv"])
    for method in ("kemeny", "copeland", "mc4", "dowdall"):
        out[f"aggregate {method}"] = ["aggregate", "votes.txt", "-m", method, "-f", "tsv"]
    out["aggregate weighted"] = ["aggregate", "votes.txt", "-m", "weighted_borda", "-w", ",".join(["1", "2", "3"] * 3), "--partial", "average", "-f", "json"]  # noqa: E501
    out |= _every_format("meta discpower", [*meta, "--n-resamples", "100"])
    out |= _with_files("meta discpower", [*meta, "--n-resamples", "100", "-f", "tsv"])
    out["meta discpower tukey pairs"] = [*meta, "--n-resamples", "100", "--test", "tukey", "--pairs", "-f", "tsv"]  # noqa: E501
    out |= _every_format("meta topicsize", ["meta", "topicsize", "qrels.test", *runs, "--min-diff", "0.1"], ("tsv", "json"))  # noqa: E501
    out["meta topicsize variance"] = ["meta", "topicsize", "--variance", "0.05", "--n-topics", "50", "--min-diff", "0.1", "--min-diff", "0.05", "-f", "tsv"]  # noqa: E501
    out |= _every_format("meta rbo", ["meta", "rbo", "r1.txt", "r2.txt"], ("tsv", "json", "table"))
    out |= _with_files("meta rbo", ["meta", "rbo", "r1.txt", "r2.txt", "-f", "tsv"])
    out["meta rbo per-query"] = ["meta", "rbo", "r1.txt", "r3.txt", "--per-query", "--depth", "10", "-f", "tsv"]  # noqa: E501
    out |= _every_format("meta repro", ["meta", "repro", "qrels.test", "r1.txt", "r2.txt", "r4.txt", "r3.txt"], ("tsv", "json"))  # noqa: E501
    out |= _every_format("meta assessors", ["meta", "assessors", "qrels.test", "qrels_b.txt", *runs], ("tsv", "json"))  # noqa: E501
    out["demo"] = ["demo", "--queries", "40", "-f", "tsv", "--save", "demo.json"]
    # Saved results, reported and plotted again.
    saved = ["evaluate.json", "compare.json", "classify scores.json"]
    for fmt in ("html", "markdown", "latex", "table"):
        out[f"report {fmt}"] = ["report", *saved, "-f", fmt, "--title", "cli outputs"]
    out["plot list"] = ["plot", "compare.json", "-f", "tsv"]
    out["plot svg"] = ["plot", "compare.json", "-n", "1", "-o", "plot.svg"]
    return out
