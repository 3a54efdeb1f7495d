"""gdeval.pl (TREC Web track 2013-2014, version 1.3 as the TREC 2014 Web track last
published it) reproduced: its per-topic nDCG@k and
ERR@k, its mean, ``-c`` and its risk-sensitive mode against a baseline run (``-baseline``,
``-riskAlpha``), with the text it prints byte for byte (``assay gdeval``).

The values are assay's :func:`~assay.ranking.measures.gdeval.gdeval_ndcg` and
:func:`~assay.ranking.measures.gdeval.gdeval_err`; what this module adds is gdeval's
program: its readers (:mod:`assay.compat._gd_read`), which topics it reports and averages, the
risk weighting of each topic's difference with the baseline and the CSV it prints.

Where gdeval.pl differs from reading its code as the specification:

* a run retrieving a document twice, or qrels judging one twice, is an error here (gdeval
  counts the document twice, in the run's gains or in the ideal ranking);
* a score that is not a number is an error here (perl reads it as 0, or a prefix of it);
* under ``-c`` in the risk mode, a topic missing from the run and from the baseline is
  compared with the baseline value of the missing topic before it (gdeval's loop keeps the
  variable); this is reproduced, as gdeval printed it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .. import _options as opt
from .._result import Result, provenance
from ..errors import OptionError
from ..ranking.measures.gdeval import GDEVAL_K
from ._gd_read import PERL_NUMBER, GdevalQrels, GdevalRun, read_qrels, read_run

__all__ = ["GdevalResult", "evaluate_gdeval", "main"]

_VERSION = "version 1.3 (Mon Apr 29 20:50:24 EDT 2013)"
_USAGE = (
    "usage: assay gdeval [options] QRELS RUN\n\n"
    "gdeval.pl 1.3 (TREC Web track), its output byte for byte: nDCG@K and ERR@K per topic\n"
    "and their mean (amean).\n\n"
    "options (before the files):\n"
    "  -c                average over every judged topic (a missing topic scores 0)\n"
    "  -k K              depth (default 20)\n"
    "  -baseline RUN     risk-sensitive evaluation against a baseline run\n"
    "  -riskAlpha A      with -baseline: losses weigh 1 + A (default 0)"
)


@dataclass(frozen=True, repr=False)
class GdevalResult(Result):
    """What gdeval.pl prints for one run: a row per topic and the mean (``amean``).

    In the risk mode (a baseline run) each value is the topic's risk-weighted difference
    with the baseline: run - baseline where the run is not worse, (1 + risk_alpha)
    (run - baseline) where it is; the mean of those is URisk
    (:func:`assay.stats.urisk`).

    Parameters
    ----------
    runid : str
        The label gdeval prints: the run's tag, and in the risk mode
        ``"<tag> (rel to. <baseline tag>; rs=1+a; a=<risk_alpha>)"`` (the TREC 2014 copy;
        2013's separated these with commas, inside the CSV field).
    k : int
        The rank cutoff.
    rows : list of (str, float, float)
        (topic, nDCG@k, ERR@k) per reported topic, in gdeval's order.
    ndcg, err : float
        The means (``amean``).
    provenance : mapping
        The inputs and options (k, all_topics, baseline, risk_alpha).

    Examples
    --------
    >>> from assay.compat.gdeval import GdevalResult
    >>> res = GdevalResult(runid="bm25", k=20, rows=[("1", 0.5, 0.25)], ndcg=0.5, err=0.25)
    >>> print(res.text(), end="")
    runid,topic,ndcg@20,err@20
    bm25,1,0.50000,0.25000
    bm25,amean,0.50000,0.25000
    """

    runid: str
    k: int
    rows: list[tuple[str, float, float]]
    ndcg: float
    err: float
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        """One row per topic, then the mean (topic ``"amean"``): runid, topic, ndcg, err."""
        rows = [{"runid": self.runid, "topic": t, "ndcg": n, "err": e} for t, n, e in self.rows]
        return [*rows, {"runid": self.runid, "topic": "amean", "ndcg": self.ndcg, "err": self.err}]

    def text(self) -> str:
        """gdeval.pl's output, byte for byte: a CSV header, a row per topic, the mean.

        Returns
        -------
        str
            The lines gdeval prints, each ending in a newline.

        Examples
        --------
        >>> from assay.compat.gdeval import GdevalResult
        >>> GdevalResult(runid="r", k=5, rows=[], ndcg=0.0, err=0.0).text()
        'runid,topic,ndcg@5,err@5\\nr,amean,0.00000,0.00000\\n'
        """
        out = [f"runid,topic,ndcg@{self.k},err@{self.k}\n"]
        out += [f"{self.runid},{t},{n:.5f},{e:.5f}\n" for t, n, e in self.rows]
        out.append(f"{self.runid},amean,{self.ndcg:.5f},{self.err:.5f}\n")
        return "".join(out)

    def __repr__(self) -> str:
        return (
            f"GdevalResult({self.runid!r}, k={self.k}, {len(self.rows)} topics, "
            f"ndcg={self.ndcg:.5f}, err={self.err:.5f})"
        )


def _per_topic(qrels: GdevalQrels, run: GdevalRun, k: int) -> dict[str, tuple[float, float]]:
    """gdeval_ndcg@k and gdeval_err@k of the run's topics that have a positive judgment."""
    from ..data import Qrels, Run
    from ..evaluation import evaluate

    topics = [t for t in run.scores if t in qrels.judged]
    if not topics:
        return {}
    gold = Qrels.from_dict({t: qrels.judged[t] for t in topics})
    ranked = Run.from_dict({t: run.scores[t] for t in topics}, name="run")
    names = [f"gdeval_ndcg@{k}", f"gdeval_err@{k}"]
    res = evaluate(gold, ranked, names, ties="docno", missing="skip", no_relevant="skip")
    ndcg = res.per_query("run", names[0])
    err = res.per_query("run", names[1])
    return {t: (ndcg[t], err[t]) for t in topics}


def _numeric_order(topics: Sequence[str]) -> list[str]:
    # gdeval sorts topics as numbers (its topics are digits); ties keep input order.
    return sorted(topics, key=int)


def _weighted(value: float, base: float, alpha: float) -> float:
    return (1.0 + alpha) * (value - base) if value < base else value - base


def _perl_number(x: float) -> str:
    """How perl prints a number held as a number (``%.15g``)."""
    return f"{x:.15g}"


def evaluate_gdeval(
    qrels: str | Path,
    run: str | Path,
    *,
    k: int = GDEVAL_K,
    all_topics: bool = False,
    baseline: str | Path | None = None,
    risk_alpha: float = 0.0,
) -> GdevalResult:
    """Evaluate a run as gdeval.pl 1.3 does (``gdeval.pl [-c] [-k K] [-baseline B
    -riskAlpha A] qrels run``).

    Parameters
    ----------
    qrels, run : path
        gdeval's qrels (``topic 0 docno grade``, grades <= 4) and run (TREC format).
    k : int, default 20
        The rank cutoff (``-k``).
    all_topics : bool, default False
        Average over every topic with a positive judgment (``-c``; a topic the run lacks
        scores 0) instead of those the run has.
    baseline : path, optional
        A baseline run: every value becomes the topic's risk-weighted difference with it.
    risk_alpha : float, default 0.0
        Extra weight of a loss against the baseline (``-riskAlpha``, >= 0).

    Returns
    -------
    GdevalResult
        The rows and the mean; ``text()`` is gdeval's output.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.compat.gdeval import evaluate_gdeval
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "qrels").write_text("1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n")
    >>> _ = (d / "run").write_text("1 Q0 b 1 2.0 sys\\n1 Q0 a 2 1.0 sys\\n2 Q0 d 1 1.0 sys\\n")
    >>> _ = (d / "base").write_text("1 Q0 a 1 2.0 base\\n2 Q0 c 1 1.0 base\\n")
    >>> print(evaluate_gdeval(d / "qrels", d / "run", k=5).text(), end="")
    runid,topic,ndcg@5,err@5
    sys,1,0.79671,0.15039
    sys,2,0.00000,0.00000
    sys,amean,0.39835,0.07520
    >>> risk = evaluate_gdeval(d / "qrels", d / "run", baseline=d / "base", risk_alpha=1)
    >>> risk.rows[1], round(risk.ndcg, 5)
    (('2', -2.0, -0.125), -1.02953)
    """
    k_ = opt.integer(k, "k", minimum=1, where="evaluate_gdeval")
    every = opt.flag(all_topics, "all_topics", where="evaluate_gdeval")
    alpha = opt.risk_alpha(risk_alpha, where="evaluate_gdeval")
    return _evaluate(qrels, run, k_, every, baseline, alpha, _perl_number(alpha))


def _evaluate(
    qrels_path: str | Path,
    run_path: str | Path,
    k: int,
    every: bool,
    baseline: str | Path | None,
    alpha: float,
    alpha_text: str,
) -> GdevalResult:
    qrels = read_qrels(qrels_path)
    run = read_run(run_path)
    values = _per_topic(qrels, run, k)
    order = _numeric_order(list(values))
    rows = [(t, *values[t]) for t in order]
    runid = run.runid
    if baseline is not None:
        base_run = read_run(baseline)
        base = _per_topic(qrels, base_run, k)
        runid = f"{runid} (rel to. {base_run.runid}; rs=1+a; a={alpha_text})"
        rows = [
            (
                t,
                _weighted(n, base.get(t, (0.0, 0.0))[0], alpha),
                _weighted(e, base.get(t, (0.0, 0.0))[1], alpha),
            )
            for t, n, e in rows
        ]
        if every:
            rows += _missing_rows(qrels, set(values), base, alpha)
    n_topics = len(qrels.judged) if every else len(rows)
    ndcg_total = err_total = 0.0
    for _, n, e in rows:  # summed in gdeval's order, as it sums
        ndcg_total += n
        err_total += e
    if n_topics:
        ndcg_total /= n_topics
        err_total /= n_topics
    settings = provenance(
        qrels=str(qrels_path),
        run=str(run_path),
        k=k,
        all_topics=every,
        baseline=None if baseline is None else str(baseline),
        risk_alpha=alpha,
    )
    return GdevalResult(runid, k, rows, ndcg_total, err_total, settings)


def _missing_rows(
    qrels: GdevalQrels,
    present: set[str],
    base: Mapping[str, tuple[float, float]],
    alpha: float,
) -> list[tuple[str, float, float]]:
    """``-c`` in the risk mode: the judged topics the run lacks score 0 against the baseline.
    gdeval sets the baseline values only where the baseline has the topic, so a topic it
    lacks too keeps the previous missing topic's (0 before the first)."""
    rows = []
    base_ndcg = base_err = 0.0
    for t in _numeric_order([t for t in qrels.judged if t not in present]):
        if t in base:
            base_ndcg, base_err = base[t]
        rows.append((t, _weighted(0.0, base_ndcg, alpha), _weighted(0.0, base_err, alpha)))
    return rows


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Run gdeval.pl's command line (``[-c] [-k K] [-baseline B] [-riskAlpha A] qrels run``,
    ``-v``, ``-help``; ``-h`` and ``--help`` too) and print its output.

    Parameters
    ----------
    argv : sequence of str
        The arguments, gdeval's flags as gdeval spells them.
    out : text stream, optional
        Where to print (standard output by default).

    Returns
    -------
    int
        The exit code (0).

    Examples
    --------
    >>> import io, pathlib, tempfile
    >>> from assay.compat.gdeval import main
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "qrels").write_text("1 0 a 2\\n1 0 b 1\\n")
    >>> _ = (d / "run").write_text("1 Q0 b 1 2.0 sys\\n1 Q0 a 2 1.0 sys\\n")
    >>> buf = io.StringIO()
    >>> main(["-k", "5", str(d / "qrels"), str(d / "run")], out=buf)
    0
    >>> buf.getvalue().splitlines()[-1]
    'sys,amean,0.79671,0.15039'
    """
    stream = sys.stdout if out is None else out
    args = list(argv)
    if args[:1] in (["-v"], ["-version"]):
        stream.write(f"gdeval: {_VERSION}\n")
        return 0
    k, every, baseline, alpha_text = GDEVAL_K, False, None, "0"
    while len(args) != 2:
        if args[:1] in (["-help"], ["-h"], ["--help"]):  # -h, --help: assay's spellings
            stream.write(_USAGE + "\n\n")
            return 0
        if len(args) >= 3 and args[0] == "-c":
            every = True
            args = args[1:]
        elif len(args) >= 4 and args[0] == "-k":
            k = _perl_int(args[1])
            args = args[2:]
        elif len(args) >= 4 and args[0] == "-baseline":
            baseline = args[1]
            args = args[2:]
        elif len(args) >= 4 and args[0] == "-riskAlpha":
            alpha_text = args[1]
            args = args[2:]
        else:
            raise OptionError(_USAGE)
    alpha = opt.risk_alpha(_perl_float(alpha_text), where="gdeval -riskAlpha")
    if k < 1:
        raise OptionError(f"gdeval -k: expected an integer >= 1, got {k}\n{_USAGE}")
    result = _evaluate(args[0], args[1], k, every, baseline, alpha, alpha_text)
    stream.write(result.text())
    return 0


def _perl_int(text: str) -> int:
    """perl's ``int($x)`` of a command-line string: its numeric prefix, truncated."""
    return int(_perl_float(text))


def _perl_float(text: str) -> float:
    """perl's numeric value of a command-line string (its numeric prefix; 0 without one)."""
    match = PERL_NUMBER.match(text)
    return float(match.group()) if match else 0.0
