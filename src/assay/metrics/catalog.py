"""Human-readable descriptions of the metric declarations (``assay metrics``, docs)."""

from __future__ import annotations

import re
from typing import Any

from .registry import MetricSpec

__all__ = [
    "describe",
    "document",
    "markdown",
    "trec_names",
]

# What a trec_eval parameter list holds, shown as "<name>.<list>".
_LIST = {
    "": "",
    "k": "k1,k2,...",
    "recall": "r1,r2,...",
    "mult": "m1,m2,...",
    "pairs": "level=gain,...",
    "coefficients": "a,b,c,d",
    "depth": "n",
}


def _range(spec: MetricSpec) -> str:
    if spec.value == "text":
        return "text"
    lo = "-inf" if spec.lower is None else f"{spec.lower:g}"
    hi = "inf" if spec.upper is None else f"{spec.upper:g}"
    return f"[{lo}, {hi}]" if spec.upper is not None else f"[{lo}, {hi})"


def _means(tname: str) -> str:
    """What a bare trec_eval name means, in assay's syntax (cutoff lists shortened)."""
    from .registry import REGISTRY

    metrics = [str(m) for m in REGISTRY.trec_meaning(tname) or []]
    if len(metrics) > 3:
        metrics = [metrics[0], metrics[1], "...", metrics[-1]]
    return ", ".join(metrics)


def trec_names(spec: MetricSpec) -> list[dict[str, str]]:
    """trec_eval's names for ``spec``: the name, its parameter list, and what the bare name
    means (trec_eval's defaults)."""
    from .registry import REGISTRY

    return [
        {"name": t, "params": _listed(spec, REGISTRY.trec[t][1].params), "means": _means(t)}
        for t in sorted(spec.trec)
    ]


def _listed(spec: MetricSpec, kind: str) -> str:
    """The shape of a trec_eval parameter list for ``spec`` (rbp's pairs take p= too)."""
    if kind != "pairs":
        return _LIST[kind]
    names = {p.name for p in spec.params}
    if "gain" not in names or spec.name == "rbp_resid":
        return "p=x"
    return "p=x,level=gain,..." if "p" in names else _LIST[kind]


#: The first NumPy-style section of a docstring (Parameters, Returns, Examples, ...).
_SECTION = re.compile(
    r"^[ \t]*(?:Parameters|Returns|Examples|Notes|See Also|References)[ \t]*\n[ \t]*-{3,}[ \t]*$",
    re.MULTILINE,
)


def _prose(doc: str) -> str:
    """A declaration's description: its docstring up to the first NumPy-style section (the
    parameters, returns and examples are the function's reference, not the catalogue's)."""
    found = _SECTION.search(doc)
    return doc if found is None else doc[: found.start()]


def describe(spec: MetricSpec) -> dict[str, Any]:
    params = [{"name": p.name, "default": p.default, "doc": p.doc} for p in spec.params]
    return {
        "name": spec.name,
        "family": spec.family,
        "input": spec.input,
        "aliases": list(spec.aliases),
        "trec_eval": sorted(spec.trec),
        "trec_eval_names": trec_names(spec),
        "value": spec.value,
        "params": params,
        "params_text": ", ".join(f"{p.name}={p.default!r}" for p in spec.params),
        "cutoff": {"none": "no", "optional": "optional", "required": "required"}[spec.cutoff],
        "range": _range(spec),
        "higher_is_better": spec.higher_is_better,
        "aggregate": spec.aggregate,
        "ties_average": spec.average_ties,
        "summary": spec.summary,
        "doc": " ".join(_prose(spec.doc).split()),
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
        names = ", ".join(
            [*r["aliases"], *(f"`{t['name']}` = {t['means']}" for t in r["trec_eval_names"])]
        )
        better = _better(r)
        out.append(
            f"| `{r['name']}` | {r['params_text'] or '—'} | {r['cutoff']} | {r['range']} | "
            f"{better} | {r['aggregate']} | {names or '—'} | {r['doc'].replace('|', '/')} |"
        )
    return "\n".join(out) + "\n"


def _measure_markdown(rows: list[dict[str, Any]]) -> str:
    # A family whose measures take a cutoff (embedding: recall@4) shows the @k column.
    cut = any(r["cutoff"] != "no" for r in rows)
    out = [
        "| metric | input | parameters |"
        + (" @k |" if cut else "")
        + " range | better | aliases | description |",
        "|---|---|---|" + ("---|" if cut else "") + "---|---|---|---|",
    ]
    for r in rows:
        better = _better(r)
        k = f" {r['cutoff']} |" if cut else ""
        out.append(
            f"| `{r['name']}` | {r['input']} | {r['params_text'] or '—'} |{k} {r['range']} | "
            f"{better} | {', '.join(r['aliases']) or '—'} | {r['doc'].replace('|', '/')} |"
        )
    return "\n".join(out) + "\n"


def _better(row: dict[str, Any]) -> str:
    if row.get("value") == "text":
        return "—"
    return "higher" if row["higher_is_better"] else "lower"


def trec_markdown() -> str:
    """Every trec_eval name, what its parameter list sets and what it means bare."""
    from .registry import REGISTRY

    out = [
        "| trec_eval name | parameter list | means (bare: trec_eval's defaults) |",
        "|---|---|---|",
    ]
    for tname in sorted(REGISTRY.trec, key=str.lower):
        spec, binding = REGISTRY.trec[tname]
        listed = f"`{tname}.{_listed(spec, binding.params)}`" if binding.params else "—"
        out.append(f"| `{tname}` | {listed} | `{_means(tname)}` |")
    return "\n".join(out) + "\n"


_TREC_INTRO = (
    "A name written as trec_eval writes it (alone, with trec_eval's parameter list after a "
    "dot, or as trec_eval's output name: `P`, `P.5,10`, `P_5`, `rbp.p=0.8`) means trec_eval's "
    "measure with trec_eval's defaults; a name in assay's syntax (`P@5`, `rbp()`, "
    "`rbp(p=0.8)`) means assay's metric with assay's defaults. Names are case-insensitive. "
    "See [conventions.md](conventions.md#names-trec_evals-and-assays).\n\n"
)


_INTRO = {
    "ranking": "Per query, from ranked lists joined with the qrels; aggregated over queries. "
    "Conventions that apply to every ranking metric: [conventions.md](conventions.md).",
    "classification": "From aligned true and predicted labels (`labels`), or true labels and "
    "scores (`scores`), with `assay.classification`. Conventions (label order, `labels`, "
    "`average`, `zero_division`, `pos_label`): `assay.classification.measures`. "
    "`cohen_kappa` is in the agreement family.",
    "agreement": "From two raters' aligned labels (`labels`) or a units × raters table of "
    "ratings (`ratings`: wide, long or counts), with `assay.agreement`; every coefficient "
    "returns a result whose `float()` is its value.",
    "clustering": "From a gold and a predicted clustering of the same items: one cluster label "
    "per item (`clusterings`), or lists of possibly overlapping, weighted clusters (`soft "
    "clusterings`), with `assay.clustering`. Definitions and ill-defined cases: "
    "`assay.clustering.measures`; `pair_counts`, `bcubed`, `soft_pairwise` and the reports "
    "return structured results.",
    "embedding": "From each query's neighbours in an embedding space, nearest first "
    "(`neighbour labels`), the query labels and the number of references of each class, with "
    "`assay.embeddings` (`retrieval_metrics` finds the neighbours with faiss or NumPy and "
    "computes them all, per query and per class). R is the number of other references of the "
    "query's class; queries with R = 0 are left out and counted. Conventions "
    "(pytorch-metric-learning's): `assay.embeddings.measures`; `map@r` is `map_at_r`.",
    "generation": "From the references (one stream of strings, one per item, or several "
    "streams) and a system's hypotheses (`references and hypotheses`), as sacrebleu (BLEU, "
    "chrF, chrF++, TER: 0-100) and rouge-score (ROUGE F-measures: 0-1) compute them; each "
    "returns the corpus score. `assay.generation` gives per-item values, signatures, "
    "bootstrap intervals and paired tests between systems; options: "
    "`assay.generation.measures`.",
    "regression": "From aligned true values and predictions (`values`: finite real numbers), "
    "with `assay.regression`. Conventions (NaN, constant targets, zero targets): "
    "`assay.regression.measures`.",
    "tagging": "From aligned gold and predicted tag sequences (`tag sequences`: lists of "
    "sentences, each a list of tags, or a CoNLL column file), with `assay.tagging` (reports, "
    "paired tests between taggers: [tagging.md](tagging.md)). Span rules (`scheme`, `mode`): "
    "`assay.tagging.spans`; conventions (`average`, `zero_division`): "
    "`assay.tagging.measures`; partial matches (`match`): `assay.tagging.partial`.",
}


def document() -> str:
    """The whole of docs/metrics.md (``make docs`` writes it; a test keeps it in sync)."""
    from .registry import REGISTRY

    # Every family, in the declared order of the family list (the registry loads them all).
    families = REGISTRY.families()
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
        if family == "ranking":
            out.append("\n### trec_eval names\n\n" + _TREC_INTRO + trec_markdown())
    return "".join(out)
