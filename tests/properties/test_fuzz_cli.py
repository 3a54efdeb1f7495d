"""Fuzzing every command of the ``assay`` CLI in-process (typer's CliRunner on assay.cli.app)
with hostile files and option values.

Each run must end with exit code 0, or with exit code 2 and exactly one line on stderr,
``assay: error: ...``: never a traceback. ``COMMANDS`` maps a command to the builder of its
arguments; a command added later is one more row (and ``test_every_command_is_fuzzed``
fails until it is there).
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from assay.cli import app
from strategies.fuzz import (
    BAD_NUMBERS,
    LABELS,
    delimited,
    fuzz_settings,
    jsonl,
    mutated,
    packaging,
    scores,
    trec,
)
from support.cli import commands

Builder = Callable[[st.DataObject, Path], list[str]]


def maybe_hostile(data: st.DataObject, clean: bytes) -> bytes:
    """``clean`` as it is (most of the time), or mutated and possibly in truncated gzip."""
    if data.draw(st.integers(0, 2)) == 0:
        return data.draw(packaging(data.draw(mutated(clean)), hostile=True))
    return clean


def put(directory: Path, name: str, data: bytes) -> str:
    path = directory / name
    path.write_bytes(data)
    return str(path)


def a_run(data: st.DataObject, directory: Path, name: str) -> str:
    fmt = data.draw(st.sampled_from(["txt", "txt", "csv", "jsonl"]))
    drawn = trec("run") if fmt == "txt" else delimited("run", ",") if fmt == "csv" else jsonl("run")
    return put(directory, f"{name}.{fmt}", maybe_hostile(data, data.draw(drawn).data))


def a_qrels(data: st.DataObject, directory: Path) -> str:
    fmt = data.draw(st.sampled_from(["txt", "txt", "csv"]))
    drawn = trec("qrels") if fmt == "txt" else delimited("qrels", ",")
    return put(directory, f"qrels.{fmt}", maybe_hostile(data, data.draw(drawn).data))


def a_trec_pair(data: st.DataObject, directory: Path) -> tuple[str, str]:
    """Qrels and a run over the same pairs, so that evaluations reach the metrics."""
    qrels = data.draw(trec("qrels"))
    lines = [f"{q} Q0 {d} {i} {i % 7}.5 t" for i, (q, d) in enumerate(qrels.rows, 1)]
    run = ("\n".join(lines) + "\n").encode()
    return (
        put(directory, "qrels.txt", maybe_hostile(data, qrels.data)),
        put(directory, "run.txt", maybe_hostile(data, run)),
    )


METRICS = st.sampled_from(
    ["map", "ndcg@10", "P@5", "P.5,10", "ndcg_cut.10", "RR", "R@100", "P@1e400", "P@nan",
     "ndcg(gain='exp')@3", "P(rel=2)@5", "nope", "P(rel=", " " * 200 + "map", "ndcg@0", "P_5",
     "iprec_at_recall.0.10", "map@-1", "P(rel=1, rel=2)", "\x1b[2Jmap", "rbp", "unj@3"]
)  # fmt: skip
FORMATS = st.sampled_from(["tsv", "csv", "json", "jsonl", "markdown", "latex", "table", "xml"])


def options(data: st.DataObject, pool: dict[str, st.SearchStrategy[str]]) -> list[str]:
    out: list[str] = []
    for flag in data.draw(st.lists(st.sampled_from(sorted(pool)), max_size=3, unique=True)):
        value = pool[flag]
        out += [flag] if value is FLAG else [flag, data.draw(value)]
    return out


FLAG = st.just("")


def build_evaluate(data: st.DataObject, d: Path) -> list[str]:
    if data.draw(st.booleans()):
        qrels, run = a_trec_pair(data, d)
    else:
        qrels, run = a_qrels(data, d), a_run(data, d, "run")
    metrics = [x for m in data.draw(st.lists(METRICS, max_size=2)) for x in ("-m", m)]
    pool = {
        "-f": FORMATS,
        "--missing": st.sampled_from(["zero", "skip", "error", "bad"]),
        "--no-relevant": st.sampled_from(["zero", "one", "skip", "nan"]),
        "--ties": st.sampled_from(["docno", "input", "average", "x"]),
        "-J": FLAG,
        "-q": FLAG,
    }
    return ["evaluate", qrels, run, *metrics, *options(data, pool)]


def build_compare(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    other = a_run(data, d, "other")
    metrics = [x for m in data.draw(st.lists(METRICS, max_size=1)) for x in ("-m", m)]
    pool = {
        "--test": st.sampled_from(["randomization", "t", "wilcoxon", "sign", "bootstrap", "tukey"]),
        "--n-resamples": st.sampled_from(["20", "0", "-5", "1e3", "x"]),
        "--seed": st.sampled_from(["1", "-1", "x"]),
        "--alpha": st.sampled_from(["0.05", "0", "1.5", "nan"]),
        "--ci": st.sampled_from(["bca", "percentile", "t", "x"]),
        "-f": FORMATS,
    }
    return ["compare", qrels, run, other, *metrics, "--n-resamples", "20", *options(data, pool)]


def build_trec_eval(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    flags = data.draw(st.lists(st.sampled_from(["-q", "-c", "-n", "-J"]), unique=True, max_size=2))
    extra = data.draw(
        st.sampled_from(
            [[], ["-m", "all_trec"], ["-m", "P.5,x"], ["-l", "2"], ["-M", "-1"], ["-m"]]
        )
    )
    return ["trec-eval", *flags, *extra, qrels, run]


def build_gdeval(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    flags = data.draw(
        st.sampled_from(
            [
                [],
                ["-c"],
                ["-k", "5"],
                ["-k", "0"],
                ["-k", "x"],
                ["-baseline", run],
                ["-baseline", run, "-riskAlpha", "1"],
                ["-riskAlpha", "-1"],
                ["-x"],
            ]
        )
    )
    return ["gdeval", *flags, qrels, run]


def build_ndeval(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    flags = data.draw(
        st.sampled_from(
            [
                [],
                ["-c"],
                ["-M", "3"],
                ["-M", "-1"],
                ["-traditional"],
                ["-alpha", "0.3"],
                ["-beta", "x"],
                ["-baseline", run, "-riskAlpha", "2"],
                ["-riskAlpha"],
                ["-x"],
            ]
        )
    )
    return ["ndeval", *flags, qrels, run]


def _labels(data: st.DataObject, d: Path, name: str, n: int) -> str:
    labels = data.draw(st.lists(st.sampled_from(["pos", "neg", "x y"]), min_size=n, max_size=n))
    if data.draw(st.booleans()):
        return put(d, f"{name}.txt", maybe_hostile(data, ("\n".join(labels) + "\n").encode()))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([["label"], *[[x] for x in labels]])
    return put(d, f"{name}.csv", maybe_hostile(data, out.getvalue().encode()))


def build_classify(data: st.DataObject, d: Path) -> list[str]:
    n = data.draw(st.integers(1, 8))
    args = ["classify", _labels(data, d, "gold", n), _labels(data, d, "pred", n)]
    if data.draw(st.integers(0, 2)) == 0:  # several PRED: a comparison against the first
        args += [_labels(data, d, "pred2", n), "--n-resamples", "20"]
        pool = {
            "--test": st.sampled_from(["mcnemar", "randomization", "bootstrap", "t", "x"]),
            "--mcnemar": st.sampled_from(["exact", "mid-p", "chi2", "y"]),
            "-m": st.sampled_from(["accuracy", "f1(average='macro')", "mcc", "roc_auc", "?"]),
            "--pos-label": st.sampled_from(["pos", "zzz"]),
            "-f": FORMATS,
        }
        return [*args, *options(data, pool)]
    if data.draw(st.booleans()):
        values = [t for t, _ in data.draw(st.lists(scores(), min_size=n, max_size=n))]
        args += [
            "--scores",
            put(d, "s.txt", maybe_hostile(data, ("\n".join(values) + "\n").encode())),
        ]
        args += ["--positive", data.draw(st.sampled_from(["pos", "neg", "zzz"]))]
    pool = {
        "--average": st.sampled_from(["binary", "micro", "macro", "weighted", "x"]),
        "--zero-division": st.sampled_from(["0", "1", "nan", "2"]),
        "--beta": st.sampled_from(["1", "0", "-1", "inf", "nan"]),
        "-f": FORMATS,
    }
    return [*args, *options(data, pool)]


def _clustering(data: st.DataObject, d: Path, name: str) -> str:
    items = data.draw(st.lists(LABELS, min_size=1, max_size=6, unique=True))
    k = data.draw(st.integers(1, 3))
    if data.draw(st.booleans()):
        text = "".join(f"{item.strip()}\tc{i % k}\n" for i, item in enumerate(items))
    else:
        text = "".join(" ".join(f'"{x}"' for x in items[i::k]) + "\n" for i in range(k))
    return put(d, f"{name}.txt", maybe_hostile(data, text.encode()))


def build_cluster(data: st.DataObject, d: Path) -> list[str]:
    args = ["cluster", _clustering(data, d, "gold"), _clustering(data, d, "pred")]
    if not data.draw(st.booleans()):
        return args
    # several clusterings: the comparison, with its options
    pool = {
        "-m": st.sampled_from(["adjusted_rand_index", "nmi", "ami", "purity", "ari", "x"]),
        "--test": st.sampled_from(["bootstrap", "randomization", "t", "x"]),
        "--n-resamples": st.sampled_from(["1", "9", "0", "-1"]),
        "--confidence": st.sampled_from(["0.9", "1", "nan"]),
        "-f": FORMATS,
    }
    return [*args, _clustering(data, d, "pred2"), *options(data, pool)]


def build_agree(data: st.DataObject, d: Path) -> list[str]:
    n_units, n_raters = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4))
    header = data.draw(st.sampled_from([["task"], ["id"], [""], ["x"], []]))
    value = st.sampled_from(["1", "2", "3", "", "NA", "a", "1e400"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*header, *(f"r{j}" for j in range(n_raters))])
    for i in range(n_units):
        writer.writerow(
            [*([f"u{i}"] if header else []), *(data.draw(value) for _ in range(n_raters))]
        )
    pool = {
        "-l": st.sampled_from(["nominal", "ordinal", "interval", "ratio", "x"]),
        "--orientation": st.sampled_from(["units-by-raters", "raters-by-units", "x"]),
        "--id-column": st.sampled_from(["task", "id", "x", "nope"]),
        "--no-id-column": FLAG,
        "--long": FLAG,
        "--bootstrap": st.sampled_from(["0", "20", "-1"]),
        "-f": FORMATS,
    }
    return [
        "agree",
        put(d, "r.csv", maybe_hostile(data, out.getvalue().encode())),
        *options(data, pool),
    ]


def build_fuse(data: st.DataObject, d: Path) -> list[str]:
    runs = [put(d, f"r{i}.txt", maybe_hostile(data, data.draw(trec("run")).data)) for i in range(2)]
    pool = {
        "-m": st.sampled_from(["rrf", "combsum", "combmnz", "borda", "condorcet", "isr", "x"]),
        "-n": st.sampled_from(["min-max", "zscore", "none", "rank", "x"]),
        "-w": st.sampled_from(["1,2", "1", "a,b", "nan,1", ""]),
        "-k": st.sampled_from(["60", "-1", "nan", "inf"]),
        "--depth": st.sampled_from(["1", "0", "5"]),
        "--name": st.sampled_from(["fused", "a b", "\x1b[2J", ""]),
    }
    return ["fuse", *runs, *options(data, pool)]


def build_aggregate(data: st.DataObject, d: Path) -> list[str]:
    ballots = data.draw(
        st.lists(
            st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4, unique=True),
            min_size=1,
            max_size=5,
        )
    )
    text = "".join(" ".join(b) + "\n" for b in ballots)
    pool = {
        "-m": st.sampled_from(
            ["borda", "weighted_borda", "dowdall", "copeland", "kemeny", "mc4", "x"]
        ),
        "-w": st.sampled_from(["1,2", "1", "a"]),
        "--partial": st.sampled_from(["zero", "average", "x"]),
        "--damping": st.sampled_from(["0.15", "-1", "2", "nan"]),
        "-f": FORMATS,
    }
    return [
        "aggregate",
        put(d, "votes.txt", maybe_hostile(data, text.encode())),
        *options(data, pool),
    ]


def _segments(data: st.DataObject, d: Path, name: str, n: int) -> str:
    lines = data.draw(st.lists(st.text(alphabet="ab c.\u00e9", max_size=8), min_size=n, max_size=n))
    return put(d, f"{name}.txt", maybe_hostile(data, ("\n".join(lines) + "\n").encode()))


def build_generation(data: st.DataObject, d: Path) -> list[str]:
    n = data.draw(st.integers(1, 4))
    metric = data.draw(st.sampled_from(["bleu", "chrf", "ter", "rouge1", "x"]))
    args = ["generation", _segments(data, d, "ref", n), _segments(data, d, "hyp", n)]
    return [*args, "-m", metric, "--n-resamples", data.draw(st.sampled_from(["10", "0"]))]


def _numbers(data: st.DataObject, d: Path, name: str, n: int) -> str:
    values = [t for t, _ in data.draw(st.lists(scores(), min_size=n, max_size=n))]
    if data.draw(st.integers(0, 3)) == 0:
        values[0] = data.draw(st.sampled_from(BAD_NUMBERS))
    return put(d, f"{name}.txt", maybe_hostile(data, ("\n".join(values) + "\n").encode()))


def build_regression(data: st.DataObject, d: Path) -> list[str]:
    n = data.draw(st.integers(1, 6))
    args = ["regression", _numbers(data, d, "gold", n), _numbers(data, d, "pred", n)]
    return [*args, "--n-resamples", data.draw(st.sampled_from(["20", "0"]))]


def build_aggregate_labels(data: st.DataObject, d: Path) -> list[str]:
    """Crowd labels with hostile names and values, mutated or packaged at times."""
    names = st.sampled_from(["t1", "t2", "w1", "w2", "a", "b", "é", "=cmd", "<x>", "a,b", '"'])
    rows = data.draw(st.lists(st.tuples(names, names, names), min_size=0, max_size=8))
    text = "task,worker,label\n" + "".join(
        ",".join(f'"{v}"' if "," in v else v for v in row) + "\n" for row in rows
    )
    labels = put(d, "labels.csv", maybe_hostile(data, text.encode()))
    pool = {
        "--method": st.sampled_from(
            [
                "majority_vote",
                "wawa",
                "zbs",
                "dawid_skene",
                "one_coin_dawid_skene",
                "glad",
                "mace",
                "nope",
            ]
        ),
        "--max-iter": st.sampled_from(["3", "0", "-1", "x", "99999999999999999999"]),
        "--tolerance": st.sampled_from(["1e-3", "-1", "nan"]),
        "--ties": st.sampled_from(["first_seen", "lowest", "random", "x"]),
        "--seed": st.sampled_from(["0", "-1"]),
        "--duplicates": st.sampled_from(["error", "keep", "x"]),
        "--labels": st.sampled_from(["a", "b", ""]),
        "--option": st.sampled_from(["learning_rate=0.5", "x", "n_restarts=1", "eps=-1"]),
        "--gold": st.just(put(d, "gold.csv", b"task,label\nt1,a\n")),
        "--out": st.sampled_from([str(d / "out.csv"), str(d / "out.parquet"), str(d / "o.x")]),
        "-f": FORMATS,
    }
    return ["aggregate-labels", labels, *options(data, pool)]


def build_seeds(data: st.DataObject, d: Path) -> list[str]:
    systems = st.sampled_from(["a", "b", "c", "$x", "<i>", ""])
    seeds = st.sampled_from(["1", "2", "3", "x", ""])
    scores = st.sampled_from(["0.3", "0.5", "1e3", "nan", "-inf", "x", ""])
    units = st.sampled_from(["q1", "q2", ""])
    per_unit = data.draw(st.booleans())
    rows = data.draw(st.lists(st.tuples(systems, seeds, scores, units), min_size=0, max_size=10))
    head = "system,seed,score" + (",query" if per_unit else "")
    text = (
        head
        + "\n"
        + "".join(f"{a},{s},{v}" + (f",{u}" if per_unit else "") + "\n" for a, s, v, u in rows)
    )
    path = put(d, "seeds.csv", maybe_hostile(data, text.encode()))
    pool = {
        "--test": st.sampled_from(["t", "randomization", "wilcoxon", "sign", "bootstrap", "x"]),
        "--correction": st.sampled_from(["holm", "bh", "none", "x"]),
        "--baseline": st.sampled_from(["a", "b", "nope"]),
        "--confidence-level": st.sampled_from(["0.95", "0.9", "1", "x"]),
        "--seed": st.sampled_from(["0", "3", "-1"]),
        "--alpha": st.sampled_from(["0.05", "0", "x"]),
        "-f": FORMATS,
    }
    extra = ["--unit-column", "query"] if per_unit else []
    bootstrap = data.draw(st.sampled_from(["10", "0"]))
    return [
        "seeds",
        path,
        *extra,
        "--n-bootstrap",
        bootstrap,
        "--n-resamples",
        "20",
        *options(data, pool),
    ]


def build_leaderboard(data: st.DataObject, d: Path) -> list[str]:
    from assay.judgments import pairwise

    items = st.sampled_from(["a", "b", "c", "d", "$x", "<i>", ""])
    outcome = st.sampled_from(["left", "right", "tie", "left", "right", "x"])
    rows = data.draw(st.lists(st.tuples(items, items, outcome), min_size=0, max_size=8))
    text = "left,right,winner\n" + "".join(f"{a},{b},{w}\n" for a, b, w in rows)
    path = put(d, "votes.csv", maybe_hostile(data, text.encode()))
    pool = {
        "--method": st.sampled_from([*pairwise.METHODS, "x"]),
        "--ties": st.sampled_from(["half", "davidson", "x"]),
        "--confidence": st.sampled_from(["0.9", "1", "x"]),
        "--seed": st.sampled_from(["0", "3", "-1"]),
        "--max-iter": st.sampled_from(["1", "5", "0"]),
        "-f": FORMATS,
    }
    resamples = data.draw(st.sampled_from(["10", "0"]))
    return ["leaderboard", path, "--n-resamples", resamples, *options(data, pool)]


def build_metrics(data: st.DataObject, d: Path) -> list[str]:
    pool = {
        "-f": st.sampled_from(["table", "markdown", "json", "csv", "x"]),
        "--family": st.sampled_from(["ranking", "classification", "agreement", "nope", ""]),
    }
    return ["metrics", *options(data, pool)]


def build_demo(data: st.DataObject, d: Path) -> list[str]:
    pool = {
        "--queries": st.sampled_from(["1", "3", "0", "-3", "x", "1e3"]),
        "--seed": st.sampled_from(["0", "7", "-1", "x"]),
        "-f": FORMATS,
    }
    return ["demo", "--queries", "3", *options(data, pool)]


TAGS = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-PER", "S-LOC", "X", "I-"])


def build_tagging(data: st.DataObject, d: Path) -> list[str]:
    sentences = data.draw(
        st.lists(st.lists(st.tuples(LABELS, TAGS, TAGS), min_size=1, max_size=5), max_size=4)
    )
    text = "\n".join(
        "".join(f"{w.strip() or 'w'} {g} {p}\n" for w, g, p in sentence) for sentence in sentences
    )
    pool = {
        "--scheme": st.sampled_from(["iob1", "iob2", "ioe2", "bioes", "io", "x"]),
        "--mode": st.sampled_from(["conlleval", "strict", "x"]),
        "--gold-column": st.sampled_from(["-2", "0", "5", "x"]),
        "-f": FORMATS,
    }
    return ["tagging", put(d, "tags.txt", maybe_hostile(data, text.encode())), *options(data, pool)]


def build_embed(data: st.DataObject, d: Path) -> list[str]:
    n, dim = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 3))
    rows = [[t for t, _ in data.draw(st.lists(scores(), min_size=dim, max_size=dim))]]
    rows += [[str(i + j) for j in range(dim)] for i in range(n - 1)]
    text = "".join(",".join(r) + "\n" for r in rows)
    labels = data.draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    pool = {
        "-m": st.sampled_from(["precision@1", "map@r", "recall@2", "ndcg@10", "x", "recall@0"]),
        "--distance": st.sampled_from(["euclidean", "cosine", "inner", "x"]),
        "-k": st.sampled_from(["1", "0", "-1", "100"]),
        "--backend": st.sampled_from(["numpy", "faiss", "x"]),
        "-f": FORMATS,
    }
    args = [
        "embed",
        put(d, "emb.csv", maybe_hostile(data, text.encode())),
        put(d, "labels.txt", maybe_hostile(data, ("\n".join(labels) + "\n").encode())),
    ]
    if data.draw(st.booleans()):  # a second embedding: the comparison, with its options
        other = "".join(",".join(str(float(x) * 0.5) for x in r) + "\n" for r in rows[1:])
        first = ",".join(rows[0]) + "\n"
        args.append(put(d, "emb2.csv", maybe_hostile(data, (first + other).encode())))
        pool["--test"] = st.sampled_from(["randomization", "t", "wilcoxon", "sign", "x"])
        pool["--n-resamples"] = st.sampled_from(["9", "0"])
    return [*args, *options(data, pool)]


def _letor(data: st.DataObject, d: Path) -> str:
    n = data.draw(st.integers(1, 6))
    lines = [
        f"{data.draw(st.sampled_from(['0', '1', '2', 'x']))} qid:{1 + i // 3} "
        f"1:{data.draw(scores())[0]} 2:{i}.5"
        for i in range(n)
    ]
    return put(d, "data.txt", maybe_hostile(data, ("\n".join(lines) + "\n").encode()))


def build_ltr_stats(data: st.DataObject, d: Path) -> list[str]:
    return ["ltr", "stats", _letor(data, d), *options(data, {"-f": FORMATS})]


def build_ltr_evaluate(data: st.DataObject, d: Path) -> list[str]:
    return ["ltr", "evaluate", _letor(data, d), a_run(data, d, "run")]


def build_meta_rbo(data: st.DataObject, d: Path) -> list[str]:
    pool = {
        "-p": st.sampled_from(["0.9", "0", "1", "nan"]),
        "--depth": st.sampled_from(["1", "0", "10"]),
        "--ties": st.sampled_from(["docno", "input", "group", "x"]),
        "-f": FORMATS,
    }
    runs = [a_run(data, d, "a"), a_run(data, d, "b")]
    return ["meta", "rbo", *runs, *options(data, pool)]


def build_meta_topicsize(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    return ["meta", "topicsize", qrels, run, a_run(data, d, "other")]


def build_meta_anova(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    metrics = [x for m in data.draw(st.lists(METRICS, max_size=2)) for x in ("-m", m)]
    pool = {"--confidence": st.sampled_from(["0.95", "0", "1", "nan"]), "-f": FORMATS}
    return ["meta", "anova", qrels, run, a_run(data, d, "other"), *metrics, *options(data, pool)]


def build_meta_replicability(data: st.DataObject, d: Path) -> list[str]:
    """p-value tables with hostile names and values, mutated at times."""
    names = st.sampled_from(["d1", "d2", "d3", "é", "=cmd", "<x>", "", '"'])
    values = st.sampled_from(["0.01", "0.5", "1", "0", "-0.1", "1.5", "nan", "x", "", "1e400"])
    systems = st.sampled_from(["a", "b", ""])
    rows = data.draw(st.lists(st.tuples(names, systems, values), min_size=0, max_size=8))
    text = "dataset,system,p_value\n" + "".join(",".join(r) + "\n" for r in rows)
    table = put(d, "pvalues.csv", maybe_hostile(data, text.encode()))
    pool = {
        "--method": st.sampled_from(["bonferroni", "fisher", "nope"]),
        "--alpha": st.sampled_from(["0.05", "0", "1", "nan"]),
        "--system": st.sampled_from(["a", "b", "zz"]),
        "--p-value-column": st.sampled_from(["p_value", "nope"]),
        "-f": FORMATS,
    }
    return ["meta", "replicability", table, *options(data, pool)]


def build_meta_repro(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    runs = [run, *(a_run(data, d, name) for name in ("adv", "rb", "ra"))]
    pool = {"-p": st.sampled_from(["0.95", "0", "2"]), "--rbo-depth": st.sampled_from(["5", "0"])}
    return ["meta", "repro", qrels, *runs, *options(data, pool)]


def build_meta_assessors(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    return ["meta", "assessors", qrels, a_qrels(data, d), run, a_run(data, d, "b")]


def build_crowd_qrels(data: st.DataObject, d: Path) -> list[str]:
    """Crowd judgments (ids from the fuzzer's labels, grades maybe not integers), and runs."""
    _qrels, run = a_trec_pair(data, d)
    grade = st.sampled_from(["0", "1", "2", "-1", "1.5", "", "x", "9" * 30])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(data.draw(st.sampled_from([["query", "doc", "worker", "grade"],
                                               ["query", "doc", "annotator", "grade"]])))  # fmt: skip
    for _ in range(data.draw(st.integers(0, 8))):
        writer.writerow([data.draw(LABELS) for _ in range(3)] + [data.draw(grade)])
    pool = {
        "--method": st.sampled_from(["majority_vote", "wawa", "dawid_skene", "mace", "x"]),
        "--grades": st.sampled_from(["0,1,2", "0,1", "x", ""]),
        "--grade-rule": st.sampled_from(["argmax", "expected", "x"]),
        "--duplicates": st.sampled_from(["error", "keep", "x"]),
        "--max-iter": st.sampled_from(["5", "0", "-1", "x"]),
        "-m": METRICS,
        "-f": FORMATS,
    }
    judgments = put(d, "crowd.csv", maybe_hostile(data, out.getvalue().encode()))
    runs = data.draw(st.sampled_from([[], [run], [run, a_run(data, d, "b"), a_run(data, d, "c")]]))
    return ["crowd-qrels", judgments, *runs, *options(data, pool)]


def build_meta_discpower(data: st.DataObject, d: Path) -> list[str]:
    qrels, run = a_trec_pair(data, d)
    others = [a_run(data, d, "b"), a_run(data, d, "c")]
    return ["meta", "discpower", qrels, run, *others, "--n-resamples", "20"]


def a_saved_result(data: st.DataObject, d: Path) -> str:
    """A saved report file (--save): a table and a plot of every kind, maybe mutated."""
    from assay.report.document import document, dumps, section
    from assay.report.table import Cell, Column, DisplayTable

    name = data.draw(st.one_of(LABELS, st.just("<script>alert(1)</script>"), st.just("$x$")))
    table = DisplayTable([Column("run"), Column("P@5", align="right")],
                         [[name, Cell("0.5", strong=True, marks="▲", note="[0.4, 0.6]")]])  # fmt: skip
    plots = [
        {"kind": "box", "panels": [{"groups": [name], "values": [[0.1, 0.5, 0.9]]}]},
        {"kind": "diff", "panels": [{"values": [0.3, 0.0, -0.2]}]},
        {"kind": "line", "panels": [{"series": [{"name": name, "x": [0, 1], "y": [1, 0]}]}]},
        {"kind": "heatmap", "panels": [{"rows": [name], "cols": ["b"], "matrix": [[3]]}]},
        {"kind": "scatter", "panels": [{"x": [0.1], "y": [0.2], "highlight": [True]}]},
    ]
    plot = data.draw(st.sampled_from(plots))
    clean = dumps([document(name, "ranking", [section(name, table, plot)])]).encode()
    return put(d, "saved.json", maybe_hostile(data, clean))


def build_report(data: st.DataObject, d: Path) -> list[str]:
    pool = {
        "-f": st.sampled_from(["html", "markdown", "latex", "table", "x"]),
        "--title": st.sampled_from(["<script>", "t", ""]),
    }
    return ["report", a_saved_result(data, d), "-o", str(d / "out.html"), *options(data, pool)]


def build_plot(data: st.DataObject, d: Path) -> list[str]:
    pool = {
        "-n": st.sampled_from(["1", "2", "0", "-1", "x"]),
        "-o": st.sampled_from([str(d / "p.png"), str(d / "p.svg"), str(d / "p.txt")]),
        "--plot-format": st.sampled_from(["png", "pdf", "x"]),
    }
    return ["plot", a_saved_result(data, d), *options(data, pool)]


COMMANDS: dict[str, Builder] = {
    "evaluate": build_evaluate,
    "compare": build_compare,
    "trec-eval": build_trec_eval,
    "gdeval": build_gdeval,
    "ndeval": build_ndeval,
    "classify": build_classify,
    "cluster": build_cluster,
    "agree": build_agree,
    "fuse": build_fuse,
    "aggregate": build_aggregate,
    "generation": build_generation,
    "regression": build_regression,
    "leaderboard": build_leaderboard,
    "seeds": build_seeds,
    "metrics": build_metrics,
    "aggregate-labels": build_aggregate_labels,
    "demo": build_demo,
    "tagging": build_tagging,
    "embed": build_embed,
    "ltr stats": build_ltr_stats,
    "ltr evaluate": build_ltr_evaluate,
    "meta rbo": build_meta_rbo,
    "meta topicsize": build_meta_topicsize,
    "meta discpower": build_meta_discpower,
    "meta repro": build_meta_repro,
    "meta anova": build_meta_anova,
    "meta replicability": build_meta_replicability,
    "meta assessors": build_meta_assessors,
    "crowd-qrels": build_crowd_qrels,
    "report": build_report,
    "plot": build_plot,
}


def run_cli(args: list[str]) -> Any:
    return CliRunner().invoke(app, args, catch_exceptions=True)


def check(result: Any, args: list[str]) -> None:
    """Exit 0, or exit 2 with exactly one stderr line ``assay: error: ...``."""
    crash = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crash, (args, repr(result.exception))
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr, (args, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        errors = [line for line in lines if not line.startswith("assay: warning:")]
        assert len(errors) == 1 and errors[0].startswith("assay: error: "), (args, lines)


#: Subcommands left to their own tests: each trains models or resamples whole experiments
#: (seconds per example), too slow for a fuzzer's hundreds of examples.
SLOW = {"ltr run", "ltr train", "ltr analyze"}


def test_every_command_is_fuzzed() -> None:
    assert set(COMMANDS) | SLOW == {name for name, _ in commands()}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@given(data=st.data())
@fuzz_settings(12)
def test_cli_never_shows_a_traceback(command: str, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        args = COMMANDS[command](data, Path(tmp))
        check(run_cli(args), args)
