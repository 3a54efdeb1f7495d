"""ndeval (the TREC Web track's diversity evaluator, version 4.5) reproduced byte for byte:
``assay ndeval [options] QRELS RUN`` prints its CSV, per-topic rows and the ``amean`` row.

The values are assay's diversity measures (:mod:`assay.ranking.measures.diversity`), which
follow ndeval's arithmetic; this module reads the files as ndeval does and renders its text.

ndeval's conventions, kept here:

- qrels lines are ``topic subtopic docno judgment`` with natural numbers for topic, subtopic
  and judgment (judgments > 1 count as 1); a run line has at least six fields, its topic may
  carry a task prefix ending in ``-`` (``wt09-1``), its rank a natural number; the run tag is
  that of the first line;
- runs are ordered by their rank column (``-traditional``: by score descending, then docno
  descending); a repeated rank or docno within a topic is an error; ``-M depth`` keeps the
  first ``depth`` results of each topic;
- a row is printed for every topic of the run in numeric order (topics without judgments
  score 0); the mean divides by the number of topics in both the run and the qrels (``-c``:
  in the qrels);
- risk mode (``-baseline FILE [-riskAlpha A]``): every value is ``r - b`` where the run is
  ahead of the baseline and ``(1 + A)(r - b)`` where it is behind; baseline topics without
  results in the run count (as 0) only with ``-c``.

Where assay differs: errors are one line naming the file and line (ndeval's exit code 1 is
assay's 2), and a (topic, subtopic, docno) judged twice is an error (ndeval keeps whichever
its sort put last).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np
import pyarrow as pa

from .._arrow import from_np
from .._result import Result, provenance
from ..errors import OptionError
from ._ndeval_files import Judgments, Results, read_qrels, read_run

__all__ = ["COLUMNS", "NdevalResult", "evaluate_ndeval", "format_ndeval", "main"]

#: ndeval's columns after ``runid,topic``, each with the assay measure that computes it.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("ERR-IA@5", "err_ia{a}@5"),
    ("ERR-IA@10", "err_ia{a}@10"),
    ("ERR-IA@20", "err_ia{a}@20"),
    ("nERR-IA@5", "nerr_ia{a}@5"),
    ("nERR-IA@10", "nerr_ia{a}@10"),
    ("nERR-IA@20", "nerr_ia{a}@20"),
    ("alpha-DCG@5", "alpha_dcg{a}@5"),
    ("alpha-DCG@10", "alpha_dcg{a}@10"),
    ("alpha-DCG@20", "alpha_dcg{a}@20"),
    ("alpha-nDCG@5", "alpha_ndcg{a}@5"),
    ("alpha-nDCG@10", "alpha_ndcg{a}@10"),
    ("alpha-nDCG@20", "alpha_ndcg{a}@20"),
    ("NRBP", "nrbp{ab}"),
    ("nNRBP", "nnrbp{ab}"),
    ("MAP-IA", "map_ia"),
    ("P-IA@5", "p_ia@5"),
    ("P-IA@10", "p_ia@10"),
    ("P-IA@20", "p_ia@20"),
    ("strec@5", "strec@5"),
    ("strec@10", "strec@10"),
    ("strec@20", "strec@20"),
)

HELP = """usage: assay ndeval [options] QRELS RUN

ndeval 4.5's diversity evaluation (TREC Web track), its CSV byte for byte: one row per topic
of the run and the amean row. QRELS lines are 'topic subtopic docno judgment'.

options (before the files):
  -alpha A          redundancy intolerance of alpha-(n)DCG, ERR-IA, NRBP (default 0.5)
  -beta B           NRBP's patience (default 0.5)
  -traditional      order by score, then docno (default: by the rank column)
  -c                average over every topic of the qrels
  -M DEPTH          keep the first DEPTH results of every topic
  -baseline RUN     risk-sensitive evaluation against a baseline run
  -riskAlpha A      extra weight (1 + A) of losses against the baseline (default 0)
"""


@dataclass(frozen=True, repr=False)
class NdevalResult(Result):
    """What ndeval prints for one run: a row per topic of the run and the mean.

    Parameters
    ----------
    runid : str
        The run's tag (in risk mode, ndeval's ``runid (rel to. baseline; rs=1+a; a=A)``).
    topics : list of int
        The printed topics, in order.
    values : list of list of float
        Each printed topic's 21 values (ndeval's column order, :data:`COLUMNS`).
    mean : list of float
        The ``amean`` row.
    provenance : mapping of str to any
        assay's version, the options and the files.

    Examples
    --------
    >>> from assay.compat.ndeval import evaluate_ndeval, format_ndeval
    >>> _ = open("div.qrels", "w").write("1 1 a 1\\n1 2 b 1\\n")
    >>> _ = open("div.run", "w").write("1 Q0 b 1 2.0 r\\n1 Q0 a 2 1.0 r\\n")
    >>> res = evaluate_ndeval("div.qrels", "div.run")
    >>> res.topics, round(res.mean[9], 4)
    ([1], 1.0)
    """

    runid: str
    topics: list[int]
    values: list[list[float]]
    mean: list[float]
    provenance: dict[str, Any] = field(default_factory=dict)  # Any: options of every type

    def records(self) -> list[dict[str, Any]]:
        """One row per printed topic and the ``amean`` row: ``runid``, ``topic`` and the
        21 values by ndeval's column names."""
        names = [c for c, _ in COLUMNS]
        rows = [
            {"runid": self.runid, "topic": str(t), **dict(zip(names, v, strict=True))}
            for t, v in zip(self.topics, self.values, strict=True)
        ]
        rows.append(
            {"runid": self.runid, "topic": "amean", **dict(zip(names, self.mean, strict=True))}
        )
        return rows


@dataclass
class _Options:
    alpha: float = 0.5
    beta: float = 0.5
    traditional: bool = False
    complete: bool = False
    depth: int = 0
    baseline: str | None = None
    risk_alpha: float = 0.0
    risk_alpha_text: str = "0"
    files: tuple[str, str] = ("", "")
    quiet: bool = False  # -h / -version: nothing evaluated
    help: bool = False


def _metric_names(alpha: float, beta: float) -> list[str]:
    a = f"(alpha={alpha!r})"
    ab = f"(alpha={alpha!r}, beta={beta!r})"
    return [m.format(a=a, ab=ab) for _, m in COLUMNS]


def _scores(judgments: Judgments, rows: Results, options: _Options) -> dict[int, list[float]]:
    """The 21 values of every run topic (zeros for topics without judgments)."""
    import warnings

    import assay
    from assay import Qrels, Run

    qrels = Qrels.from_subtopics(
        _text(judgments.topic), _text(judgments.subtopic), _docs(judgments.doc), judgments.judgment
    )
    run = Run.from_columns(_text(rows.topic), _docs(rows.doc), -rows.rank.astype(float), name="run")
    names = _metric_names(options.alpha, options.beta)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # run topics without judgments: printed as zeros
        results = assay.evaluate(qrels, run, names, ties="input", missing="skip", no_relevant="nan")
    per = [results.per_query("run", n) for n in names]
    out: dict[int, list[float]] = {}
    for topic in np.unique(rows.topic).tolist():
        key = str(topic)
        values = [p.get(key, 0.0) for p in per]
        # no subtopic with a positive judgment: ndeval's 0, but 0/0 for nNRBP
        out[topic] = [
            v if not math.isnan(v) or c == "nNRBP" else 0.0
            for v, (c, _) in zip(values, COLUMNS, strict=True)
        ]
    return out


def _text(numbers: np.ndarray) -> pa.Array:
    """Natural numbers as assay's ids (their decimal text, as ``str`` gives)."""
    return from_np(numbers.astype(np.int64)).cast(pa.string())


def _docs(doc: pa.Array) -> pa.Array | list[str]:
    # docnos that are not UTF-8 were kept as bytes: assay's ids are their escaped text
    if pa.types.is_binary(doc.type):
        return [d.decode("utf-8", "surrogateescape") for d in doc.to_pylist()]
    return doc


def _risk(r: float, b: float, alpha: float) -> float:
    return r - b if r >= b else (alpha + 1) * (r - b)


def evaluate_ndeval(
    qrels: str,
    run: str,
    *,
    alpha: float = 0.5,
    beta: float = 0.5,
    traditional: bool = False,
    complete: bool = False,
    depth: int = 0,
    baseline: str | None = None,
    risk_alpha: float = 0.0,
) -> NdevalResult:
    """What ``ndeval`` prints for a qrels and a run file.

    Parameters
    ----------
    qrels : str
        The qrels file (``topic subtopic docno judgment``).
    run : str
        The run file (TREC format).
    alpha : float
        Redundancy intolerance α of α-DCG, ERR-IA and NRBP, in [0, 1].
    beta : float
        NRBP's patience β, in [0, 1].
    traditional : bool
        Order runs by score, then docno (``-traditional``), not by the rank column.
    complete : bool
        Average over every qrels topic (``-c``).
    depth : int
        Keep the first ``depth`` results of every topic (``-M``; 0: all).
    baseline : str, optional
        A baseline run for risk-sensitive evaluation (``-baseline``).
    risk_alpha : float
        The extra weight of losses against the baseline (``-riskAlpha``), >= 0.

    Returns
    -------
    NdevalResult
        The rows ndeval prints.

    Examples
    --------
    >>> from assay.compat.ndeval import evaluate_ndeval
    >>> _ = open("div.qrels", "w").write("1 1 a 1\\n1 2 b 1\\n")
    >>> _ = open("div.run", "w").write("1 Q0 a 1 2.0 r\\n1 Q0 x 2 1.0 r\\n")
    >>> round(evaluate_ndeval("div.qrels", "div.run").mean[18], 4)  # strec@5
    0.5
    """
    options = _Options(
        alpha, beta, traditional, complete, depth, baseline, risk_alpha, repr(risk_alpha)
    )
    _check(options)
    return _evaluate(qrels, run, options)


def _check(options: _Options) -> None:
    if not 0.0 <= options.alpha <= 1.0:
        raise OptionError(f"alpha must be in [0, 1], got {options.alpha}", option="alpha")
    if not 0.0 <= options.beta <= 1.0:
        raise OptionError(f"beta must be in [0, 1], got {options.beta}", option="beta")
    if options.depth < 0:
        raise OptionError(f"depth must be positive, got {options.depth}", option="depth")
    if options.risk_alpha < 0:
        raise OptionError(f"risk_alpha must be >= 0, got {options.risk_alpha}", option="risk_alpha")


def _evaluate(qrels_path: str, run_path: str, options: _Options) -> NdevalResult:
    judgments = read_qrels(qrels_path)
    rows, runid = read_run(run_path, options.traditional, options.depth)
    scores = _scores(judgments, rows, options)
    q_topics = set(np.unique(judgments.topic).tolist())
    actual = sum(1 for t in scores if t in q_topics)
    base: dict[int, list[float]] = {}
    name = runid
    if options.baseline is not None:
        brows, brunid = read_run(options.baseline, options.traditional, options.depth)
        base = _scores(judgments, brows, options)
        name = f"{runid} (rel to. {brunid}; rs=1+a; a={options.risk_alpha_text})"
    if options.complete:
        actual = len(q_topics)
    topics, values, totals = _merge(scores, base, options)
    if base and len(topics) > actual:
        actual = len(topics)
    mean = [_divide(t, actual) for t in totals]
    opts = {
        "alpha": options.alpha,
        "beta": options.beta,
        "traditional": options.traditional,
        "complete": options.complete,
        "depth": options.depth,
        "baseline": options.baseline,
        "risk_alpha": options.risk_alpha,
    }
    prov = provenance(options=opts, inputs={"qrels": qrels_path, "run": run_path})
    return NdevalResult(name, topics, values, mean, dict(prov))


def _merge(
    run: dict[int, list[float]], base: dict[int, list[float]], options: _Options
) -> tuple[list[int], list[list[float]], list[float]]:
    """ndeval's walk over the run's and the baseline's topics, in numeric order."""
    zero = [0.0] * len(COLUMNS)
    if base:
        wanted = set(run) | (set(base) if options.complete else set())
    else:
        wanted = set(run)
    topics, values = [], []
    totals = [0.0] * len(COLUMNS)
    for topic in sorted(wanted):
        r = run.get(topic, zero)
        b = base.get(topic, zero)
        row = [_risk(x, y, options.risk_alpha) for x, y in zip(r, b, strict=True)]
        topics.append(topic)
        values.append(row)
        totals = [t + v for t, v in zip(totals, row, strict=True)]
    return topics, values, totals


def _divide(total: float, count: int) -> float:
    if count:
        return total / count
    return math.nan if total == 0 or math.isnan(total) else math.copysign(math.inf, total)


def _number(value: float) -> str:
    # C's printf: 0.0 / 0.0 is the negative default NaN on x86-64, printed "-nan"
    if math.isnan(value):
        return "-nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.6f}"


def format_ndeval(result: NdevalResult) -> str:
    """ndeval's CSV text for a result: the header, a row per topic, the ``amean`` row.

    Parameters
    ----------
    result : NdevalResult
        What :func:`evaluate_ndeval` returned.

    Returns
    -------
    str
        The text, newline-terminated lines.

    Examples
    --------
    >>> from assay.compat.ndeval import evaluate_ndeval, format_ndeval
    >>> _ = open("div.qrels", "w").write("1 1 a 1\\n")
    >>> _ = open("div.run", "w").write("1 Q0 a 1 2.0 r\\n")
    >>> print(format_ndeval(evaluate_ndeval("div.qrels", "div.run")).splitlines()[1][:40])
    r,1,0.726172,0.721433,0.721348,1.000000,
    """
    header = "runid,topic," + ",".join(c for c, _ in COLUMNS)
    lines = [header]
    # one %-format per row, not one call per value: rows without NaN (printed "-nan", not
    # Python's "nan") print as %.6f does (infinities as "inf"/"-inf", C's spelling too)
    row_format = result.runid.replace("%", "%%") + ",%s," + ",".join(["%.6f"] * len(COLUMNS))
    for topic, row in zip(result.topics, result.values, strict=True):
        if any(v != v for v in row):
            lines.append(f"{result.runid},{topic}," + ",".join(_number(v) for v in row))
        else:
            lines.append(row_format % (topic, *row))
    lines.append(f"{result.runid},amean," + ",".join(_number(v) for v in result.mean))
    return "\n".join(lines) + "\n"


def parse_argv(argv: Sequence[str]) -> _Options:
    """ndeval's options (before the two files): ``-alpha A``, ``-beta B``, ``-M depth``,
    ``-baseline FILE``, ``-riskAlpha A``, ``-traditional``, ``-c`` (``-a`` is accepted and
    ignored, as ndeval does), ``-h``/``-help`` (assay's help; ndeval 4.5 prints nothing),
    ``-version``."""
    args = list(argv)
    o = _Options()
    while len(args) != 2:
        head = args[0] if args else ""
        if head in ("-version", "-help", "-h", "--help"):
            o.quiet, o.help = True, head != "-version"
            return o
        if head in ("-alpha", "-beta", "-M", "-baseline", "-riskAlpha") and len(args) >= 4:
            _set(o, head, args[1])
            args = args[2:]
        elif head == "-traditional" and len(args) >= 3:
            o.traditional = True
            args = args[1:]
        elif (
            head.startswith("-")
            and len(head) > 1
            and len(args) >= 3
            and set(head[1:]) <= {"c", "a"}
        ):
            o.complete = o.complete or "c" in head
            args = args[1:]
        else:
            raise OptionError(
                "usage: assay ndeval [-alpha A] [-beta B] [-traditional] [-c] [-M depth] "
                "[-baseline RUN [-riskAlpha A]] QRELS RUN"
            )
    o.files = (args[0], args[1])
    _check(o)
    return o


def _set(o: _Options, flag: str, value: str) -> None:
    try:
        if flag == "-alpha":
            o.alpha = float(value)
        elif flag == "-beta":
            o.beta = float(value)
        elif flag == "-M":
            o.depth = int(value)
            if o.depth <= 0:
                raise ValueError(value)
        elif flag == "-riskAlpha":
            o.risk_alpha, o.risk_alpha_text = float(value), value
        else:
            o.baseline = value
    except ValueError:
        raise OptionError(f"{flag} expects a number, got {value!r}", option=flag) from None


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Run ``assay ndeval`` on ``argv`` (ndeval's options, then the qrels and run files).

    Parameters
    ----------
    argv : sequence of str
        The arguments without the command name.
    out : text stream, optional
        Where the CSV is written; default ``sys.stdout``.

    Returns
    -------
    int
        The exit code: 0.

    Examples
    --------
    >>> from assay.compat.ndeval import main
    >>> _ = open("div.qrels", "w").write("1 1 a 1\\n")
    >>> _ = open("div.run", "w").write("1 Q0 a 1 2.0 r\\n")
    >>> main(["-c", "div.qrels", "div.run"])
    runid,topic,ERR-IA@5,...
    r,1,0.726172,...
    r,amean,0.726172,...
    0
    """
    stream = out if out is not None else sys.stdout
    options = parse_argv(argv)
    if options.help:
        stream.write(HELP)
    if options.quiet:
        return 0
    result = _evaluate(options.files[0], options.files[1], options)
    stream.write(format_ndeval(result))
    return 0
