"""Qrels from ir_datasets: ``irds:<dataset id>`` wherever a qrels path is accepted.

``Qrels.read("irds:msmarco-passage/dev/small")`` (so ``Qrels.coerce``, ``assay.evaluate``
and every command's ``QRELS`` argument) reads the judgments ir_datasets provides for that
dataset, downloading them into ir_datasets' own cache (``IR_DATASETS_HOME``) the first time.
The judgments mean what a TREC qrels file means: ``query_id``, ``doc_id`` and the integer
``relevance`` of each record, the ``iteration`` ignored as trec_eval ignores a file's second
field; a repeated (query, document) pair is an error, as it is in a file. The source named in
messages and recorded in provenance is ``irds:<id> (ir_datasets <version>)``.

ir_datasets is an optional dependency (``pip install 'assay[irds]'``), imported only here,
when an ``irds:`` id is read.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pyarrow as pa

from .._optional import require
from ..errors import DuplicateError, InputError, OptionError

if TYPE_CHECKING:
    from ._table import QueryDocTable
    from .qrels import Qrels

__all__ = ["IRDS_PREFIX", "is_irds_id", "read_irds", "read_irds_qrels"]

#: What starts an ir_datasets id where a file path is expected (``irds:msmarco-passage/dev``).
IRDS_PREFIX = "irds:"

T = TypeVar("T", bound="QueryDocTable")

#: What ir_datasets raises when it cannot provide the records: a failed or refused download
#: (``requests``' errors are ``OSError``\\s), a file it cannot parse (``RuntimeError``:
#: "expected 4 columns"; ``ValueError``: a grade that is not an integer).
_PROVIDER_ERRORS = (OSError, RuntimeError, ValueError)


def is_irds_id(value: object) -> bool:
    """Whether ``value`` names an ir_datasets dataset (a string starting ``irds:``) rather
    than a file.

    Parameters
    ----------
    value : object
        What was given where qrels are read (a path, a data frame, ...).

    Returns
    -------
    bool
        True for ``"irds:<dataset id>"``.

    Examples
    --------
    >>> from assay.data.irds import is_irds_id
    >>> is_irds_id("irds:msmarco-passage/dev/small"), is_irds_id("qrels.txt")
    (True, False)
    """
    return isinstance(value, str) and value.startswith(IRDS_PREFIX)


def read_irds_qrels(dataset_id: str) -> Qrels:
    """The relevance judgments ir_datasets provides for ``dataset_id``.

    Parameters
    ----------
    dataset_id : str
        An ir_datasets id (``msmarco-passage/dev/small``), with or without ``irds:``.

    Returns
    -------
    Qrels
        The judgments, their ``source`` ``irds:<id> (ir_datasets <version>)``. An unknown id
        is an :class:`~assay.errors.InputError` naming the id and the nearest known ones; a
        dataset without qrels, a failed download or a repeated (query, document) pair is an
        :class:`~assay.errors.InputError` naming the id; without ir_datasets installed, a
        :class:`~assay.errors.MissingExtraError` with the install hint.

    Examples
    --------
    >>> import ir_datasets, os
    >>> from assay.data.irds import read_irds_qrels
    >>> _ = open("local.qrels", "w").write("q1 0 d1 1\\nq1 0 d2 0\\nq2 0 d1 2\\n")
    >>> local = ir_datasets.create_dataset(qrels_trec=os.path.abspath("local.qrels"))
    >>> if "assay-example/read" not in ir_datasets.registry:
    ...     ir_datasets.registry.register("assay-example/read", local)
    >>> read_irds_qrels("irds:assay-example/read").to_dict()
    {'q1': {'d1': 1, 'd2': 0}, 'q2': {'d1': 2}}
    """
    from .qrels import Qrels

    name = dataset_id.removeprefix(IRDS_PREFIX)
    if not name.strip():
        raise InputError(
            "give an ir_datasets id after 'irds:', e.g. irds:msmarco-passage/dev/small",
            source=dataset_id,
        )
    irds = require("ir_datasets")
    dataset = _load(irds, name)
    source = f"{IRDS_PREFIX}{name} (ir_datasets {irds.__version__})"
    if not dataset.has_qrels():
        provides = [e.value for e in irds.EntityType if dataset.has(e)]
        raise InputError(
            f"the dataset has no relevance judgments (it provides {', '.join(provides) or 'nothing'})",
            source=source,
        )
    query, doc, relevance = _columns(dataset.qrels_iter(), source)
    try:
        return Qrels.from_columns(query, doc, relevance, source=source)
    except DuplicateError as exc:
        if "subtopic_id" not in getattr(dataset.qrels_cls(), "_fields", ()):
            raise
        # Diversity qrels judge a document once per subtopic of the query.
        raise DuplicateError(
            f"{exc.detail}; the dataset's judgments are per subtopic (diversity qrels)",
            source=exc.source,
            line=exc.line,
        ) from None


def read_irds(
    cls: type[T],
    path: str,
    fmt: str | None,
    options: Mapping[str, Any],  # Any: the reader options as given (refused)
) -> T:
    """What :meth:`Qrels.read <assay.data.Qrels.read>` gives for an ``irds:`` id: the
    dataset's qrels. A run cannot be read from ir_datasets, and the options of files (a
    format, column names) do not apply to an id: both are refused.

    Parameters
    ----------
    cls : type
        :class:`~assay.data.Qrels` (a :class:`~assay.data.Run` is refused).
    path : str
        ``irds:<dataset id>``.
    fmt : str, optional
        The format asked for (must be None).
    options : mapping
        The reader options given (must be empty).

    Returns
    -------
    Qrels
        :func:`read_irds_qrels` of the id.

    Examples
    --------
    >>> from assay.data import Run
    >>> from assay.data.irds import read_irds
    >>> from assay.errors import InputError
    >>> try:
    ...     read_irds(Run, "irds:msmarco-passage/dev/small", None, {})
    ... except InputError as exc:
    ...     print(exc)
    irds:msmarco-passage/dev/small: ir_datasets ids give qrels; read runs from files
    """
    if cls.KIND != "qrels":
        raise InputError(f"ir_datasets ids give qrels; read {cls.KIND}s from files", source=path)
    given = ([f"format={fmt!r}"] if fmt is not None else []) + sorted(options)
    if given:
        raise OptionError(
            f"{path}: {', '.join(given)} apply to qrels files, not to an ir_datasets id",
            option="format" if fmt is not None else sorted(options)[0],
        )
    return cast(T, read_irds_qrels(path))


def _load(irds: ModuleType, name: str) -> Any:  # Any: an ir_datasets Dataset (untyped)
    """The dataset named ``name``, or an error naming it and the nearest known ids."""
    try:
        return irds.load(name)
    except KeyError:
        pass
    near = difflib.get_close_matches(name, list(irds.registry), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    raise InputError(
        f"ir_datasets {irds.__version__} has no dataset {name!r}; {hint}"
        "the ids are listed at https://ir-datasets.com and by: ir_datasets list",
        source=f"{IRDS_PREFIX}{name}",
    )


def _columns(
    records: Iterable[Any],  # Any: ir_datasets' qrel named tuples (TrecQrel, GenericQrel, ...)
    source: str,
) -> tuple[pa.Array, pa.Array, pa.Array]:
    """The query, document and grade columns of the records (the iteration, or any other
    field, left out). Errors of ir_datasets (a failed download, a malformed file) become one
    :class:`~assay.errors.InputError`."""
    query: list[Any] = []  # Any: ids as ir_datasets gives them (str; int is accepted)
    doc: list[Any] = []  # Any: as above
    grade: list[Any] = []  # Any: grades as ir_datasets gives them (int; text is parsed)
    try:
        for record in records:
            query.append(record.query_id)
            doc.append(record.doc_id)
            grade.append(record.relevance)
    except _PROVIDER_ERRORS as exc:
        raise InputError(
            f"ir_datasets could not provide the qrels: {_one_line(exc)}", source=source
        ) from None
    if not query:  # typed, so that the qrels' own reader says they are empty
        return pa.array([], pa.string()), pa.array([], pa.string()), pa.array([], pa.int64())
    try:
        return pa.array(query), pa.array(doc), pa.array(grade)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
        raise InputError(
            f"the qrels hold ids or grades of mixed types ({_one_line(exc)})", source=source
        ) from None


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its type when it has no message; a ``FileNotFoundError``
    raised with the path alone says so."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, FileNotFoundError) and exc.filename is None and exc.args:
        text = f"no such file: {text}"
    return text
