"""Human-readable descriptions of the metric declarations (``assay metrics``, docs)."""

from __future__ import annotations

from typing import Any

from .registry import MetricSpec


def _range(spec: MetricSpec) -> str:
    lo = "-inf" if spec.lower is None else f"{spec.lower:g}"
    hi = "inf" if spec.upper is None else f"{spec.upper:g}"
    return f"[{lo}, {hi}]" if spec.upper is not None else f"[{lo}, {hi})"


def describe(spec: MetricSpec) -> dict[str, Any]:
    params = [{"name": p.name, "default": p.default, "doc": p.doc} for p in spec.params]
    return {
        "name": spec.name,
        "family": spec.family,
        "input": spec.input,
        "aliases": list(spec.aliases),
        "trec_eval": sorted(spec.trec),
        "params": params,
        "params_text": ", ".join(f"{p.name}={p.default!r}" for p in spec.params),
        "cutoff": {"none": "no", "optional": "optional", "required": "required"}[spec.cutoff],
        "range": _range(spec),
        "higher_is_better": spec.higher_is_better,
        "aggregate": spec.aggregate,
        "ties_average": spec.average_ties,
        "summary": spec.summary,
        "doc": " ".join(spec.doc.split()),
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    """A markdown table of described metrics. Ranking metrics show their cutoff, aggregate and
    trec_eval names; the other families (computed once from their data) show their input."""
    if rows and all(r["family"] != "ranking" for r in rows):
        return _measure_markdown(rows)
    out = [
        "| metric | parameters | @k | range | better | aggregate | aliases / trec_eval | description |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        names = ", ".join([*r["aliases"], *(f"`{t}`" for t in r["trec_eval"])])
        better = "higher" if r["higher_is_better"] else "lower"
        out.append(
            f"| `{r['name']}` | {r['params_text'] or '—'} | {r['cutoff']} | {r['range']} | "
            f"{better} | {r['aggregate']} | {names or '—'} | {r['doc'].replace('|', '/')} |"
        )
    return "\n".join(out) + "\n"


def _measure_markdown(rows: list[dict[str, Any]]) -> str:
    # A family whose measures take a cutoff (embedding: recall@4) shows the @k column.
    cut = any(r["cutoff"] != "no" for r in rows)
    out = [
        "| metric | input | parameters |" + (" @k |" if cut else "")
        + " range | better | aliases | description |",
        "|---|---|---|" + ("---|" if cut else "") + "---|---|---|---|",
    ]  # fmt: skip
    for r in rows:
        better = "higher" if r["higher_is_better"] else "lower"
        k = f" {r['cutoff']} |" if cut else ""
        out.append(
            f"| `{r['name']}` | {r['input']} | {r['params_text'] or '—'} |{k} {r['range']} | "
            f"{better} | {', '.join(r['aliases']) or '—'} | {r['doc'].replace('|', '/')} |"
        )
    return "\n".join(out) + "\n"


_INTRO = {
    "ranking": "Per query, from ranked lists joined with the qrels; aggregated over queries. "
    "Conventions that apply to every ranking metric: [conventions.md](conventions.md).",
    "classification": "From aligned true and predicted labels (`labels`), or true labels and "
    "scores (`scores`), with `assay.classification`. Conventions (label order, `labels`, "
    "`average`, `zero_division`, `pos_label`): `assay.metrics.classification`. "
    "`cohen_kappa` is in the agreement family.",
    "agreement": "From two raters' aligned labels (`labels`) or a units × raters table of "
    "ratings (`ratings`: wide, long or counts), with `assay.agreement`; every coefficient "
    "returns a result whose `float()` is its value.",
    "clustering": "From a gold and a predicted clustering of the same items: one cluster label "
    "per item (`clusterings`), or lists of possibly overlapping, weighted clusters (`soft "
    "clusterings`), with `assay.clustering`. Definitions and ill-defined cases: "
    "`assay.metrics.clustering`; `pair_counts`, `bcubed`, `soft_pairwise` and the reports "
    "return structured results.",
    "embedding": "From each query's neighbours in an embedding space, nearest first "
    "(`neighbour labels`), the query labels and the number of references of each class, with "
    "`assay.embeddings` (`retrieval_metrics` finds the neighbours with faiss or NumPy and "
    "computes them all, per query and per class). R is the number of other references of the "
    "query's class; queries with R = 0 are left out and counted. Conventions "
    "(pytorch-metric-learning's): `assay.metrics.embedding`; `map@r` is `map_at_r`.",
    "regression": "From aligned true values and predictions (`values`: finite real numbers), "
    "with `assay.regression`. Conventions (NaN, constant targets, zero targets): "
    "`assay.metrics.regression`.",
}


def document() -> str:
    """The whole of docs/metrics.md (``make docs`` writes it; a test keeps it in sync)."""
    from . import FAMILIES, load_families
    from .registry import REGISTRY

    load_families()
    # The declared order of FAMILIES, whatever order the modules happened to be imported in.
    rank = {family: i for i, family in enumerate(FAMILIES)}
    families = sorted(REGISTRY.families(), key=lambda family: rank.get(family, len(rank)))
    out = [
        "# Metric catalogue\n\nGenerated from the metric declarations in "
        "`src/assay/metrics/` by `make docs`; a test keeps it in sync. Parameter names follow "
        "the [glossary](parameters.md).\n"
    ]
    for family in families:
        specs = REGISTRY.specs(family)
        out.append(f"\n## {family.capitalize()}\n\n")
        if family in _INTRO:
            out.append(_INTRO[family] + "\n\n")
        out.append(markdown([describe(spec) for spec in specs]))
    return "".join(out)
