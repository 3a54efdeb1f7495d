"""The outputs a result builds itself: :class:`Reported`.

A family's result (and the ranking core's) subclasses :class:`Reported` next to
:class:`~assay._result.Result` and defines :meth:`Reported.report`, the tables every output
format renders. The rest follows: :meth:`~Reported.document` (the HTML report's content,
saved by ``--save``), :meth:`~Reported.html` (the ``--report`` page, byte for byte what the
CLI writes for the same title) and ``_repr_html_`` (the tables in a notebook). A result whose
report has plots overrides :meth:`~Reported.document` to add them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .._files import atomic_open

if TYPE_CHECKING:
    from .document import Document
    from .output import Report

__all__ = ["Reported"]


class Reported:
    """Mixin of the results that build their own report.

    A subclass defines :meth:`report` (and sets :attr:`family`); :meth:`document`,
    :meth:`html`, :meth:`write_html` and the notebook view follow from it. A result whose
    report has plots overrides :meth:`document` to add them.

    Examples
    --------
    >>> from assay.report import Column, DisplayTable, Report, Reported
    >>> class Scores(Reported):
    ...     family = "demo"
    ...
    ...     def report(self):
    ...         table = DisplayTable([Column("metric"), Column("value")], [["nmi", "0.5000"]])
    ...         return Report(table, [{"metric": "nmi", "value": 0.5}], ["metric", "value"])
    >>> print(Scores().report().render("csv"), end="")
    metric,value
    nmi,0.5
    >>> doc = Scores().document()
    >>> doc["family"], [s["title"] for s in doc["sections"]], doc["records"]
    ('demo', ['Results'], [{'metric': 'nmi', 'value': 0.5}])
    >>> Scores().html(title="Scores").startswith("<!DOCTYPE html>")
    True
    """

    __slots__ = ()

    #: The family named in the document (``"classification"``, ``"ranking"``, ...).
    family: str = "result"

    def report(self) -> Report:
        """The tables every output format renders (terminal, text, Markdown, LaTeX) and the
        records of the machine formats (TSV, CSV, JSON Lines, JSON).

        Returns
        -------
        Report
            The result's report (subclasses define it).
        """
        raise NotImplementedError(f"{type(self).__name__}.report")

    def document(self) -> Document:
        """The HTML report's content (plain JSON data: tables, plot data, records and
        provenance), as ``--save`` writes it.

        Returns
        -------
        dict
            The document (:mod:`assay.report.document`): by default the report's tables as
            one section (:func:`~assay.report.tables_document`).
        """
        from .sections_tasks import tables_document

        return tables_document(type(self).__name__, self.family, self.report())

    def html(self, *, title: str = "assay report") -> str:
        """The self-contained HTML report page (what ``--report`` writes for ``title``).

        Parameters
        ----------
        title : str
            The page's title.

        Returns
        -------
        str
            The page (:func:`~assay.report.to_html` of :meth:`document`).
        """
        from .html import to_html

        return to_html([self.document()], title=title)

    def write_html(self, path: str | Path, *, title: str = "assay report") -> Path:
        """Write :meth:`html` to ``path`` atomically.

        Parameters
        ----------
        path : str or Path
            The file to write (replaced whole, never left half-written).
        title : str
            The page's title.

        Returns
        -------
        Path
            The path written.
        """
        target = Path(path)
        with atomic_open(target, "w", encoding="utf-8") as fh:
            fh.write(self.html(title=title))
        return target

    def _repr_html_(self) -> str:
        from .html import table_html

        return "".join(table_html(t) for t in self.report().tables)
