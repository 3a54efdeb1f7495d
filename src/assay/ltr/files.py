"""A fitted model's outputs as files: :func:`export` writes every split's predictions as a
TREC run (``SPLIT.MODEL.run``), its labels as TREC qrels (``SPLIT.qrels``) and the model
(``Model.save``), for trec_eval, ``assay evaluate`` or any other tool; :class:`Exported`
lists what was written (``assay ltr train`` prints its report)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._result import Result, provenance
from ..report.reported import Reported

if TYPE_CHECKING:
    from ..report.output import Report
    from .dataset import LetorDataset
    from .models import Model

__all__ = ["EXPORT_COLUMNS", "Exported", "export"]

#: The columns of :meth:`Exported.records`.
EXPORT_COLUMNS = ("split", "queries", "documents", "run", "qrels", "model")


@dataclass(frozen=True, eq=False, repr=False)
class Exported(Result, Reported):
    """The files :func:`export` wrote, one row per split.

    ``records()``: the rows, with the columns :data:`EXPORT_COLUMNS`; :meth:`report` is the
    table ``assay ltr train`` prints.

    Parameters
    ----------
    rows : list of dict
        Per split: its name, queries and documents, the run and qrels paths, and the model
        file's name (empty when the model has no saved form).
    provenance : mapping
        The settings that produced the result (the model, the folder).

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> model = ltr.Linear().fit(splits["train"])
    >>> files = ltr.export(model, {"test": splits["test"]}, "exported")
    >>> [(r["split"], r["queries"], r["run"], r["model"]) for r in files.records()]
    [('test', 4, 'exported/test.linear.run', 'linear.json')]
    """

    family = "ltr"

    rows: list[dict[str, Any]]  # Any: numbers and paths
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.rows]

    def report(self) -> Report:
        """A table of the files written, one row per split."""
        from ..report.output import Report
        from ..report.table import Column, DisplayTable

        cols = EXPORT_COLUMNS
        body: list[list[Any]] = [[str(r[c]) for c in cols] for r in self.rows]
        return Report(
            DisplayTable([Column(c) for c in cols], body), self.records(), cols, key="files"
        )


def export(
    model: Model, splits: Mapping[str, LetorDataset], folder: str | os.PathLike[str]
) -> Exported:
    """Write a fitted ``model``'s predictions on every split as TREC runs, the splits' labels
    as TREC qrels, and the model itself, into ``folder`` (created if absent).

    Parameters
    ----------
    model : Model
        A fitted model (its ``name`` names the files).
    splits : mapping of str to LetorDataset
        The splits to predict, by name (:func:`assay.ltr.load`).
    folder : str or path-like
        Where the files go: ``SPLIT.MODEL.run``, ``SPLIT.qrels`` and ``MODEL.txt`` or
        ``MODEL.json`` (:func:`assay.ltr.save_model`).

    Returns
    -------
    Exported
        One row per split with the paths written.

    Examples
    --------
    >>> import tempfile
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(30, n_features=8, informative=2, seed=1)
    >>> model = ltr.Linear().fit(splits["train"])
    >>> with tempfile.TemporaryDirectory() as d:
    ...     files = ltr.export(model, splits, d)
    >>> [(r["split"], r["model"]) for r in files.records()]
    [('train', 'linear.json'), ('vali', 'linear.json'), ('test', 'linear.json')]
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = model.save(out / model.name)
    saved = "" if written is None else written.name
    rows = []
    for split, ds in splits.items():
        run_path, qrels_path = out / f"{split}.{model.name}.run", out / f"{split}.qrels"
        ds.run(model.predict(ds), model.name).to_trec(run_path)
        ds.qrels().to_trec(qrels_path)
        rows.append(
            {
                "split": split,
                "queries": ds.n_queries,
                "documents": ds.n_docs,
                "run": str(run_path),
                "qrels": str(qrels_path),
                "model": saved,
            }
        )
    return Exported(rows, provenance(model=repr(model), folder=str(out)))
