"""A test collection read from files: the qrels and the runs, each run named by its file
(:func:`~assay._files.unique_names`), with the decision of which run files are evaluated
block by block (:func:`assay.evaluation.worth_streaming`: a TREC file of
:data:`assay.evaluation.STREAM_BYTES` or a Parquet one of :data:`assay.evaluation.STREAM_ROWS`
rows) made here, once, for the command line and for Python alike.

:func:`evaluate_files` and :func:`compare_files` are :func:`assay.evaluate` and
:func:`assay.compare` on files: what ``assay evaluate`` and ``assay compare`` call.

Only the foundation is imported at module level: the command line imports this module when
it starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._files import distinct_inputs, unique_names

if TYPE_CHECKING:
    from .._options import (
        CIMethod,
        CompareTest,
        Correction,
        InputFormat,
        Missing,
        NoRelevant,
        ShortQueries,
        Ties,
    )
    from ..data import Qrels, Run
    from ..results import Comparison, Results

__all__ = ["compare_files", "evaluate_files", "load_collection", "read_collection"]

#: The roles of the columns of tabular qrels and runs (``columns`` maps them to names).
Columns = Mapping[str, str | None]


def load_collection(
    qrels: str,
    runs: Sequence[str],
    *,
    qrels_format: InputFormat | str | None = None,
    run_format: InputFormat | str | None = None,
    columns: Columns | None = None,
    stream: bool = False,
) -> tuple[Qrels, list[Run | tuple[str, str]]]:
    """The qrels and the runs read from files, each run named by
    :func:`~assay._files.unique_names`.

    Parameters
    ----------
    qrels : str
        The qrels file (TREC, CSV/TSV/Parquet/JSONL; ``-``: stdin).
    runs : sequence of str
        The run files; a file given twice (also under two names) is refused.
    qrels_format, run_format : str, optional
        Force a format (default: from the file extension, else TREC).
    columns : mapping, optional
        The column names of tabular files by role: ``query``, ``doc``, ``score``,
        ``relevance`` (None: the role's own name). A name for a file read as TREC text is
        an :class:`~assay.errors.OptionError`.
    stream : bool
        Leave unread a TREC or Parquet run file large enough to be evaluated block by block
        (:func:`assay.evaluation.worth_streaming`): its item is ``(name, path)``, for
        :func:`assay.evaluate` to stream.

    Returns
    -------
    tuple
        The :class:`~assay.data.Qrels` and, in the order given, each run as a
        :class:`~assay.data.Run` or a ``(name, path)`` pair.

    Examples
    --------
    >>> from pathlib import Path
    >>> from assay.ranking import load_collection
    >>> _ = Path("qrels").write_text("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> _ = Path("bm25").write_text("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n")
    >>> qrels, runs = load_collection("qrels", ["bm25"])
    >>> [run.name for run in runs]
    ['bm25']
    """
    from ..data import Qrels, Run
    from ..errors import OptionError

    given = {role: name for role, name in (columns or {}).items() if name is not None}
    # Column names apply to the tabular files only: TREC qrels with a CSV run is common, and
    # --query-column then names the run's column (it refused, blaming the qrels).
    q_tab = not _is_trec(qrels, qrels_format)
    r_tab = {p: not _is_trec(p, run_format) for p in runs}
    for role in given:
        if not ((role in Qrels.ROLES and q_tab) or (role in Run.ROLES and any(r_tab.values()))):
            files = [qrels] * (role in Qrels.ROLES) + list(r_tab) * (role in Run.ROLES)
            raise OptionError(
                f"--{role}-column names a column of a CSV/TSV/Parquet/JSONL file, but "
                f"{', '.join(files)} {'is' if len(files) == 1 else 'are'} read as TREC text "
                "(its columns are fixed)",
                option=role + "_column",
            )
    q_cols = {r: n for r, n in given.items() if r in Qrels.ROLES and q_tab}
    r_cols = {r: n for r, n in given.items() if r in Run.ROLES}
    distinct_inputs(list(runs), "run")
    q = Qrels.read(qrels, format=qrels_format, **q_cols)
    names = unique_names(list(runs))
    loaded: list[Run | tuple[str, str]] = [
        (n, p)
        if stream and not (r_cols and r_tab[p]) and _streamable(p, run_format)
        else Run.read(p, format=run_format, name=n, **(r_cols if r_tab[p] else {}))
        for p, n in zip(runs, names, strict=True)
    ]
    return q, loaded


def read_collection(
    qrels: str,
    runs: Sequence[str],
    *,
    qrels_format: InputFormat | str | None = None,
    run_format: InputFormat | str | None = None,
    columns: Columns | None = None,
) -> tuple[Qrels, dict[str, Run | str]]:
    """The qrels and the runs by name, as :func:`assay.evaluate` takes them: a run file
    large enough to be read in blocks stays its path.

    Parameters
    ----------
    qrels : str
        The qrels file.
    runs : sequence of str
        The run files, each run named by its file name (the paths when two share a name).
    qrels_format, run_format, columns
        How the files are read (see :func:`load_collection`).

    Returns
    -------
    tuple
        The :class:`~assay.data.Qrels` and ``{name: Run or path}``, in the order given.

    Examples
    --------
    >>> from pathlib import Path
    >>> from assay.ranking import read_collection
    >>> _ = Path("qrels").write_text("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> _ = Path("bm25").write_text("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n")
    >>> qrels, runs = read_collection("qrels", ["bm25"])
    >>> list(runs), type(runs["bm25"]).__name__
    (['bm25'], 'Run')
    """
    q, loaded = load_collection(
        qrels,
        runs,
        qrels_format=qrels_format,
        run_format=run_format,
        columns=columns,
        stream=True,
    )
    named: dict[str, Run | str] = {}
    for item in loaded:
        if isinstance(item, tuple):
            named[item[0]] = item[1]
        else:
            named[item.name] = item
    return q, named


def evaluate_files(
    qrels: str,
    runs: Sequence[str],
    metrics: str | Sequence[str],
    *,
    qrels_format: InputFormat | str | None = None,
    run_format: InputFormat | str | None = None,
    columns: Columns | None = None,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
) -> Results:
    """:func:`assay.evaluate` on files: what ``assay evaluate QRELS RUN...`` computes.

    Parameters
    ----------
    qrels : str
        The qrels file.
    runs : sequence of str
        The run files, each run named by its file name (the paths when two share a name).
    metrics : str or sequence of str
        Metric names (``"ndcg@10"``, ``"map"``, ...).
    qrels_format, run_format, columns
        How the files are read (see :func:`load_collection`).
    ties, missing, no_relevant, judged_only, short_queries
        The conventions of :func:`assay.evaluate`.

    Returns
    -------
    Results
        The evaluation; ``.report()`` is what the command prints and ``.html(title=...)``
        what its ``--report`` writes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from assay.ranking import evaluate_files
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> _ = (folder / "run").write_text("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n")
    >>> res = evaluate_files(str(folder / "qrels"), [str(folder / "run")], ["P@1"])
    >>> res.mean()
    {'run': {'P@1': 1.0}}
    """
    from ..evaluation import evaluate

    q, named = read_collection(
        qrels, runs, qrels_format=qrels_format, run_format=run_format, columns=columns
    )
    return evaluate(
        q,
        named,
        metrics,
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
    )


def compare_files(
    qrels: str,
    runs: Sequence[str],
    metrics: str | Sequence[str],
    *,
    qrels_format: InputFormat | str | None = None,
    run_format: InputFormat | str | None = None,
    columns: Columns | None = None,
    baseline: str | None = None,
    test: CompareTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    ci_method: CIMethod = "bca",
    confidence: float = 0.95,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
    risk_alpha: float | None = None,
) -> Comparison:
    """:func:`assay.compare` on files: what ``assay compare QRELS RUN RUN...`` computes.

    Parameters
    ----------
    qrels : str
        The qrels file.
    runs : sequence of str
        Two or more run files, each run named by its file name.
    metrics : str or sequence of str
        Metric names.
    qrels_format, run_format, columns
        How the files are read (see :func:`load_collection`).
    baseline, test, n_resamples, seed, correction, alpha, ci_method, confidence, risk_alpha
        The options of :func:`assay.compare` (``baseline``: a run's name).
    ties, missing, no_relevant, judged_only, short_queries
        The conventions of :func:`assay.evaluate`.

    Returns
    -------
    Comparison
        The comparison; ``.report()`` is what the command prints and ``.html(title=...)``
        what its ``--report`` writes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from assay.ranking import compare_files
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("q1 0 d1 1\\nq2 0 d2 1\\n")
    >>> _ = (folder / "a").write_text("q1 Q0 d1 1 2.0 a\\nq2 Q0 d2 1 1.0 a\\n")
    >>> _ = (folder / "b").write_text("q1 Q0 d9 1 2.0 b\\nq2 Q0 d2 1 1.0 b\\n")
    >>> paths = [str(folder / "a"), str(folder / "b")]
    >>> cmp = compare_files(str(folder / "qrels"), paths, "P@1", baseline="a", ci_method="t")
    >>> [(p.system, p.baseline, p.diff) for p in cmp.pairs]
    [('b', 'a', -0.5)]
    """
    from ..comparison import compare

    q, named = read_collection(
        qrels, runs, qrels_format=qrels_format, run_format=run_format, columns=columns
    )
    return compare(
        q,
        named,
        metrics,
        baseline=baseline,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        correction=correction,
        alpha=alpha,
        ci_method=ci_method,
        confidence=confidence,
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        risk_alpha=risk_alpha,
    )


def _streamable(path: str, fmt: str | None) -> bool:
    """A run file that :func:`assay.evaluate` reads block by block when given its path."""
    from ..evaluation import worth_streaming
    from ..io.formats import detect_format

    detected = detect_format(path)
    if fmt not in (None, detected):  # evaluate() goes by the extension
        return False
    if detected not in ("trec", "parquet") or path == "-":
        return False
    return worth_streaming(path, detected)


def _is_trec(path: str, fmt: str | None) -> bool:
    from ..io.formats import detect_format

    return (fmt or detect_format(path)) == "trec"
