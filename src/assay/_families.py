"""The one list of assay's families.

Everything that enumerates families is derived from :data:`FAMILIES`: the metric registry's
loading (declarations load on the first lookup, whatever was imported before), the lazy
top-level names (``assay.tagging``), the pinned public modules, the import-layer rule (a
family imports the core and, of its siblings, only those it declares in ``uses``) and the
command list of the CLI.

Adding a family is one folder (``src/assay/<name>/``), one CLI module
(``src/assay/cli/<name>.py``) and one line here (CONTRIBUTING.md, "Adding a family").
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["FAMILIES", "Family", "family", "metric_families"]


class Family(NamedTuple):
    """One family: its package ``assay.<name>``, the modules that declare its metrics (by
    default ``assay.<name>.measures``), the registry's name for them (``metrics``, by default
    ``name``; ``None``: it declares none), its CLI modules (``assay.cli.<module>``, by default
    ``<name>``) and the sibling families it may import (``uses``).

    A ``NamedTuple``, not a dataclass: ``import assay`` reads this list, and importing
    :mod:`dataclasses` would double its cost."""

    name: str
    metrics: str | None = ""
    measures: tuple[str, ...] = ()
    cli: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    core: bool = False

    @property
    def package(self) -> str:
        """The family's package."""
        return f"assay.{self.name}"

    @property
    def metric_family(self) -> str | None:
        """The registry's name of the family's metrics (``None``: it declares none)."""
        return self.name if self.metrics == "" else self.metrics

    @property
    def measure_modules(self) -> tuple[str, ...]:
        """The modules whose import registers the family's metric declarations."""
        if self.metric_family is None:
            return ()
        return self.measures or (f"{self.package}.measures",)

    @property
    def cli_modules(self) -> tuple[str, ...]:
        """The family's command modules under ``assay.cli``."""
        return self.cli or (self.name,)


#: Every family, in the order ``assay metrics``, ``assay --help`` and the docs list them.
#: ``ranking`` is the core's own (``assay.evaluate``, ``assay.compare``); the others are
#: family packages over it.
FAMILIES: tuple[Family, ...] = (
    Family(
        "ranking",
        measures=("assay.ranking.measures", "assay.ranking.measures.diversity"),
        cli=("evaluate", "compare", "seeds", "trec_eval", "gdeval", "ndeval"),
        core=True,
    ),
    Family(
        "classification",
        measures=(
            "assay.classification.measures",
            "assay.classification.overall",
            "assay.classification.curves",
        ),
        cli=("classify",),
        uses=("agreement",),
    ),
    Family(
        "agreement",
        measures=("assay.agreement.kappas", "assay.agreement.alpha"),
        cli=("agree",),
    ),
    Family(
        "clustering",
        measures=("assay.clustering.measures", "assay.clustering.soft"),
        cli=("cluster",),
    ),
    Family(
        "regression",
    ),
    Family(
        "tagging",
    ),
    Family(
        "embeddings",
        metrics="embedding",
        cli=("embed",),
    ),
    Family(
        "generation",
    ),
    Family(
        "ltr",
        metrics=None,
    ),
    Family(
        "fusion",
        metrics=None,
    ),
    Family(
        "meta",
        metrics=None,
        uses=("agreement",),
    ),
    Family(
        "judgments",
        measures=("assay.judgments.aggregation", "assay.judgments.pairwise"),
        cli=("leaderboard", "crowd", "crowd_qrels"),
        uses=("agreement", "meta"),
    ),
)

_BY_NAME = {f.name: f for f in FAMILIES}


def family(name: str) -> Family:
    """The family called ``name`` (a ``KeyError`` names the known ones)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no family {name!r}; families: {', '.join(_BY_NAME)}") from None


def metric_families() -> tuple[str, ...]:
    """The registry's family names, in the declared order (``ranking`` first)."""
    return tuple(f.metric_family for f in FAMILIES if f.metric_family is not None)
