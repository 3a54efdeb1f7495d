"""The folder the code blocks of the docs run in, and the names their Python assumes.

The docs name files as a user would have them (``qrels.txt``, ``bm25.run``, ``gold.txt``,
``web_qrels.txt`` (numeric topics, as gdeval reads them), ``pvalues.csv`` (one p-value per
dataset and system), ``qrels.test``/``results.test`` (trec_eval's quicktest),
``targets.txt``/``predictions.txt`` (text generation),
``emb.npy``, ``MSLR-WEB10K/``, …): ``populate`` writes each of them, from the seeded
generators of assay (``assay.datasets.synthetic``) and from ``../shared/data`` (trec_eval's
test files, LightGBM's lambdarank example, the CoNLL-2000 sample output, sacrebleu's and
rouge-score's test data, NIST's Norris data, pytorch-metric-learning's test case, evalica's
votes and golden leaderboards). A Python snippet
also uses names that stand for the reader's own data (``y_true``, ``x``, ``run_a``); ``givens``
binds them, per family the snippet imports, to data read from those same files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

import assay
from assay.datasets import synthetic
from conftest import shared_file

#: The runs of the small synthetic collection, by file name (noise: lower is better).
RUN_FILES = {
    "bm25.run": 1.0,
    "dense.run": 0.7,
    "hybrid.run": 0.6,
    "run.txt": 0.8,
    "run1.txt": 1.2,
    "run2.txt": 0.9,
    "run_a.txt": 1.1,
    "run_b.txt": 1.15,
    "orig_base": 1.4,
    "orig_adv": 0.9,
    "rep_base": 1.5,
    "rep_adv": 1.0,
    "a.txt": 1.0,
    "b.txt": 1.3,
    "c.txt": 0.8,
    "d.txt": 1.6,
    "e.txt": 2.0,
}
N_QUERIES = 25
LETOR_TRAIN = "MSLR-WEB10K/Fold1/train.txt"


def populate(folder: Path) -> None:
    """Write every file the docs' code blocks read."""
    _ranking(folder)
    _large_run(folder)
    _labels(folder)
    _ratings(folder)
    _crowd(folder)
    _tagging(folder)
    _embeddings(folder)
    _letor(folder / "MSLR-WEB10K" / "Fold1")
    _lambdarank(folder / "lambdarank")
    _pairwise(folder)
    _trec_quicktest(folder)
    _generation(folder)
    _regression(folder)
    _summaries(folder)


def _ranking(folder: Path) -> None:
    qrels, runs = synthetic(
        n_queries=N_QUERIES,
        docs_per_query=30,
        noise=list(RUN_FILES.values()),
        run_names=list(RUN_FILES),
        seed=7,
    )
    qrels.to_trec(folder / "qrels.txt")
    qrels.to_trec(folder / "qrels_a.txt")
    other, _ = synthetic(n_queries=N_QUERIES, docs_per_query=30, noise=[1.0], seed=8)
    other.to_trec(folder / "qrels_b.txt")  # a second assessor: the same documents re-graded
    for name, run in runs.items():
        run.to_trec(folder / name, tag=name.split(".")[0])
    runs["bm25.run"].to_parquet(folder / "bm25.parquet")
    (folder / "votes.txt").write_text("A B C D\nA C B D\nB A C D\nC A B\nA B D C\n")
    # one p-value per dataset and comparison (docs/statistics.md, "Many datasets")
    pvalues = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]
    _lines(
        folder / "pvalues.csv",
        ["dataset,system,baseline,p_value"]
        + [f"d{i},bert,crf,{p}" for i, p in enumerate(pvalues, 1)]
        + [f"d{i},lstm,crf,0.5" for i in range(1, 7)],
    )
    # gdeval reads numeric topics only: the same collection with "q1" written "1".
    for src, dst in (
        ("qrels.txt", "web_qrels.txt"),
        ("bm25.run", "web_bm25.run"),
        ("dense.run", "web_dense.run"),
    ):
        lines = (folder / src).read_text(encoding="utf-8").splitlines()
        _lines(folder / dst, (line.removeprefix("q") for line in lines))


def _large_run(folder: Path) -> None:
    """A run over 8 MiB, the size from which ``assay evaluate`` streams a TREC file."""
    _, runs = synthetic(n_queries=N_QUERIES, docs_per_query=12_000, noise=[1.0], seed=9)
    (run,) = runs.values()
    run.to_trec(folder / "huge-run.txt", tag="huge")
    assert (folder / "huge-run.txt").stat().st_size > 8 << 20
    (folder / "big-run.txt").hardlink_to(folder / "huge-run.txt")


def _labels(folder: Path) -> None:
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 60)
    scores = np.round(gold * 0.5 + rng.random(60) * 0.8, 3)
    pred = (scores > 0.6).astype(int)
    _lines(folder / "gold.txt", gold)
    _lines(folder / "pred.txt", pred)
    # a second classifier of the same items (the comparison examples)
    _lines(folder / "pred2.txt", (scores > 0.5).astype(int))
    _lines(folder / "scores.txt", scores)
    clusters = rng.integers(0, 4, 30)
    found = np.where(rng.random(30) < 0.7, clusters, rng.integers(0, 4, 30))
    # a second clustering of the same items (drawn last: the files above keep their values)
    other = np.where(rng.random(30) < 0.5, clusters, rng.integers(0, 4, 30))
    for name, labels in (("gold.tsv", clusters), ("pred.tsv", found), ("pred2.tsv", other)):
        _lines(folder / name, [f"item{i}\tc{c}" for i, c in enumerate(labels)])


def _ratings(folder: Path) -> None:
    rng = np.random.default_rng(4)
    truth = rng.integers(1, 6, 40)
    ratings = np.clip(truth[:, None] + rng.integers(-1, 2, (40, 4)), 1, 5)
    rows = [f"task{i},{','.join(map(str, r))}" for i, r in enumerate(ratings)]
    _lines(folder / "ratings.csv", ["task,r1,r2,r3,r4", *rows])
    hits = [f"H{i},W{j},{ratings[i, j]}" for i in range(40) for j in range(4) if (i + j) % 5]
    _lines(folder / "hits.csv", ["HITId,WorkerId,Answer", *hits])
    units = ",".join(f"u{i}" for i in range(40))
    coders = [f"c{j},{','.join(map(str, ratings[:, j]))}" for j in range(4)]
    _lines(folder / "reliability.csv", [f"coder,{units}", *coders])


def _crowd(folder: Path) -> None:
    """Crowd relevance grades of the judged documents of ``qrels.txt`` (written first):
    simulated workers of accuracies 0.3 to 0.95, five per document."""
    from strategies.crowd_qrels import simulated_crowd, write_crowd_csv

    qrels = assay.Qrels.from_trec(folder / "qrels.txt")
    crowd = simulated_crowd(qrels, seed=5)
    write_crowd_csv(folder / "crowd_judgments.csv", crowd)
    # The same grades as crowd labels (task: query:doc) for README's aggregate-labels, and
    # the true grades of the first 20 judged documents as gold questions.
    tasks = [f"{q}:{d}" for q, d in zip(crowd["query"], crowd["doc"], strict=True)]
    rows = zip(tasks, crowd["worker"], crowd["grade"], strict=True)
    _lines(
        folder / "crowd_labels.csv", ["task,worker,label", *(f"{t},{w},{g}" for t, w, g in rows)]
    )
    truth = qrels.to_dict()
    gold = [f"{t},{truth[t.split(':')[0]][t.split(':')[1]]}" for t in dict.fromkeys(tasks)][:20]
    _lines(folder / "crowd_gold.csv", ["task,label", *gold])


def _tagging(folder: Path) -> None:
    """The CoNLL-2000 sample output (token POS gold guess) and a second, better tagger."""
    sample = shared_file("ner", "conll2000_sample_output.txt")
    shutil.copyfile(sample, folder / "output.txt")
    shutil.copyfile(sample, folder / "crf.txt")
    bert, both = [], []
    for i, line in enumerate(sample.read_text(encoding="utf-8").splitlines()):
        words = line.split()
        if not words:
            bert.append(line)
            both.append(line)
            continue
        better = words[2] if i % 3 else words[3]  # the gold tag on two lines in three
        bert.append(" ".join([*words[:3], better]))
        both.append(" ".join([*words, better]))
    _lines(folder / "bert.txt", bert)
    _lines(folder / "both.txt", both)


def _embeddings(folder: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(5)
    labels = rng.integers(0, 2, 80)
    x = (rng.normal(size=(80, 8)) + labels[:, None] * 1.5).astype(np.float32)
    np.save(folder / "emb.npy", x)
    _lines(folder / "labels.txt", labels)
    _lines(folder / "conf.txt", np.round(rng.random(80), 3))
    q, ref = x[:30], x[30:]
    np.save(folder / "q.npy", q)
    pq.write_table(pa.table({"embedding": list(q)}), folder / "q.parquet")
    _lines(folder / "q.txt", labels[:30])
    np.save(folder / "r.npy", ref)
    pq.write_table(pa.table({"embedding": list(ref)}), folder / "r.parquet")
    _lines(folder / "r.txt", labels[30:])
    # a second embedding of the same items, noisier (drawn last: the files above keep theirs)
    np.save(folder / "emb2.npy", (x + rng.normal(scale=1.0, size=x.shape)).astype(np.float32))
    # pytorch-metric-learning's own test cases, as docs/embeddings.md reads them
    fixture = shared_file("embeddings", "pml_test_fixtures.json")
    shutil.copyfile(fixture, folder / "pml_test_fixtures.json")


def _letor(fold: Path) -> None:
    """LightGBM's lambdarank example as an MSLR-style fold: its training queries cut into
    train and vali, its test queries as test."""
    fold.mkdir(parents=True)
    train = shared_file("lightgbm_lambdarank", "rank.train.letor").read_text().splitlines()
    test = shared_file("lightgbm_lambdarank", "rank.test.letor").read_text().splitlines()
    cut = next(i for i, line in enumerate(train) if line.split()[1] == "qid:161")
    _lines(fold / "train.txt", train[:cut])
    _lines(fold / "vali.txt", train[cut:])
    _lines(fold / "test.txt", test)


def _lambdarank(folder: Path) -> None:
    """LightGBM's lambdarank example as LightGBM ships it (LibSVM lines and group files),
    as docs/ltr.md reads it."""
    folder.mkdir()
    for name in ("rank.train", "rank.train.query", "rank.test", "rank.test.query"):
        shutil.copyfile(shared_file("lightgbm_lambdarank", name), folder / name)


def _pairwise(folder: Path) -> None:
    """evalica's food votes (``left,right,winner``) and its golden leaderboards, as
    docs/judgments.md reads them."""
    shutil.copyfile(shared_file("pairwise", "food.csv"), folder / "food.csv")
    shutil.copyfile(shared_file("pairwise", "food-golden.csv"), folder / "food-golden.csv")


def _trec_quicktest(folder: Path) -> None:
    """trec_eval 10.0's own test inputs and the output its quicktest expects (docs/ranking.md)."""
    for name in ("qrels.test", "results.test", "out.test"):
        shutil.copyfile(shared_file("trec_eval", name), folder / name)


def _generation(folder: Path) -> None:
    """Google's ROUGE test corpus (1,000 target / prediction lines) and sacrebleu's corpus
    BLEU test case (three hypotheses, two reference streams), as docs/generation.md reads
    them."""
    for name in ("target_large.txt", "prediction_large.txt"):
        shutil.copyfile(shared_file("generation", "rouge", name), folder / name)
    fixtures = json.loads(shared_file("generation", "sacrebleu_test_fixtures.json").read_text())
    hyps, refs, _, _ = fixtures["files"]["test_bleu.py"]["test_corpus_bleu_cases"][0]
    _lines(folder / "mt.hyp.txt", hyps)
    _lines(folder / "mt.ref1.txt", refs[0])
    _lines(folder / "mt.ref2.txt", refs[1])


def _regression(folder: Path) -> None:
    """NIST's Norris data (lines 61-96: y x) as three one-number-per-line files: the
    response, the predictor (an ideal monitor's reading) and the certified fit."""
    lines = shared_file("regression", "Norris.dat").read_text(encoding="utf-8").splitlines()
    rows = [line.split() for line in lines[60:96]]
    certified = json.loads(shared_file("regression", "expected_norris.json").read_text())
    b0, b1 = certified["certified"]["B0"], certified["certified"]["B1"]
    _lines(folder / "norris_y.txt", (y for y, _ in rows))
    _lines(folder / "norris_x.txt", (x for _, x in rows))
    _lines(folder / "norris_fit.txt", (repr(b0 + b1 * float(x)) for _, x in rows))


def _summaries(folder: Path) -> None:
    """The first 200 lines of the ROUGE test corpus of Google's rouge package: its targets
    (``targets.txt``), its predictions (``predictions.txt``) and a second system
    (``predictions_b.txt``: the predictions with every 20th line replaced by its target)."""
    corpus = shared_file("generation", "rouge", "target_large.txt").parent
    targets = corpus.joinpath("target_large.txt").read_text(encoding="utf-8").splitlines()[:200]
    preds = corpus.joinpath("prediction_large.txt").read_text(encoding="utf-8").splitlines()[:200]
    _lines(folder / "targets.txt", targets)
    _lines(folder / "predictions.txt", preds)
    _lines(
        folder / "predictions_b.txt",
        (t if i % 20 == 0 else p for i, (t, p) in enumerate(zip(targets, preds, strict=True))),
    )


def _n_lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _lines(path: Path, items: Any) -> None:
    path.write_text("".join(f"{item}\n" for item in items), encoding="utf-8")


# ---------------------------------------------------------------- the names snippets assume


def givens(folder: Path) -> dict[str, dict[str, Any]]:
    """Per family a snippet imports ("" for every snippet): the names standing for the
    reader's data, read from the files of ``folder``."""
    qrels = assay.Qrels.from_trec(folder / "qrels.txt")
    runs = {name: assay.Run.from_trec(folder / name) for name in RUN_FILES}
    return {
        "": _ranking_names(folder, qrels, runs),
        "classification": _classification_names(folder),
        "clustering": _clustering_names(folder),
        "agreement": _agreement_names(folder),
        "embeddings": _embedding_names(folder),
        "tagging": _tagging_names(folder),
        "ltr": {"scores": np.linspace(0.0, 1.0, _n_lines(folder / LETOR_TRAIN))},
    }


def _ranking_names(folder: Path, qrels: Any, runs: dict[str, Any]) -> dict[str, Any]:
    names = {k.replace(".run", "").replace(".txt", ""): v for k, v in runs.items()}
    cmp = assay.compare(qrels, [runs["bm25.run"], runs["dense.run"]], ["ndcg@10", "map"])
    return {
        **{k: names[k] for k in ("bm25", "dense", "run_a", "run_b")},
        **{k: names[k] for k in ("orig_base", "orig_adv", "rep_base", "rep_adv")},
        "qrels": qrels,
        "qrels_a": qrels,
        "qrels_b": assay.Qrels.from_trec(folder / "qrels_b.txt"),
        "runs": [runs["bm25.run"], runs["dense.run"], runs["hybrid.run"]],
        "metrics": ["map", "ndcg@10"],
        "cmp": cmp,
        "curves": assay.evaluate(qrels, runs["bm25.run"], ["iprec_at_recall"]),
    }


def _classification_names(folder: Path) -> dict[str, Any]:
    def read(name: str, kind: type) -> np.ndarray:
        return np.loadtxt(folder / name, dtype=kind)

    return {
        "y_true": read("gold.txt", int),
        "y_pred": read("pred.txt", int),
        "scores": read("scores.txt", float),
    }


def _clustering_names(folder: Path) -> dict[str, Any]:
    gold = [line.split("\t")[1] for line in (folder / "gold.tsv").read_text().splitlines()]
    pred = [line.split("\t")[1] for line in (folder / "pred.tsv").read_text().splitlines()]
    gold_clusters = [{"a", "b", "c"}, {"d", "e"}, {"f"}]
    pred_clusters = [{"a", "b"}, {"c", "d", "e"}, {"f", "a"}]
    return {
        "gold": gold,
        "pred": pred,
        "gold_clusters": gold_clusters,
        "pred_clusters": pred_clusters,
    }


def _agreement_names(folder: Path) -> dict[str, Any]:
    rows = (folder / "ratings.csv").read_text().splitlines()[1:]
    matrix = np.array([[float(v) for v in r.split(",")[1:]] for r in rows])
    matrix[::7, 1] = np.nan  # a missing rating here and there
    return {
        "matrix": matrix,
        "a": matrix[:, 0].astype(int),
        "b": matrix[:, 2].astype(int),
        "subjects_x_raters": matrix[:, [0, 2, 3]].astype(int),
    }


def _embedding_names(folder: Path) -> dict[str, Any]:
    x = np.load(folder / "emb.npy")
    labels = np.loadtxt(folder / "labels.txt", dtype=int)
    rng = np.random.default_rng(6)
    # five neighbours per query, two of its class: what class counts {0: 2, 1: 3} allow
    knn = np.where([True, False, True, False, False], labels[:30, None], 1 - labels[:30, None])
    return {
        "x": x,
        "labels": labels,
        "q": x[:30],
        "ql": labels[:30],
        "q_labels": labels[:30],
        "ref": x[30:],
        "rl": labels[30:],
        "ref_labels": labels[30:],
        "knn_labels": knn,
        "confidences": np.loadtxt(folder / "conf.txt")[:30],  # one per query of q
        "predicted_sd": rng.random(50),
        "reference_error": rng.random(50),
        "posterior_draws": rng.normal(size=(400, 3)),
    }


def _tagging_names(folder: Path) -> dict[str, Any]:
    from assay import tagging

    crf = tagging.read_conll(folder / "crf.txt")
    bert = tagging.read_conll(folder / "bert.txt")
    return {
        "gold": crf.gold,
        "pred": crf.predictions[0],
        "p1": crf.predictions[0],
        "p2": bert.predictions[0],
    }
