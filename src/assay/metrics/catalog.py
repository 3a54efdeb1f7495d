"""The measure catalogue, derived from the metric declarations: ``assay metrics`` and
``docs/metrics.md``.

Everything here is read off the declarations (:class:`~assay.metrics.spec.MetricSpec`): the
definition and its formula are the docstring's prose, the reference its ``Reference:``
sentence, the peers the declaration's :attr:`~assay.metrics.spec.MetricSpec.peers`, trec_eval's
names (:attr:`~assay.metrics.spec.MetricSpec.trec`) and ir_measures' and ranx's names
(:data:`assay.metrics.peers.PEER_NAMES`). Docstrings are reStructuredText: :func:`plain` makes
them plain text for the terminal, the catalogue page keeps their code spans as Markdown.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from .doctext import first_sentence, markdown_blocks, markdown_inline, plain
from .registry import MetricSpec

__all__ = [
    "anchor",
    "definition",
    "describe",
    "document",
    "markdown",
    "peers",
    "plain",
    "reference",
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
    means (trec_eval's defaults).

    Parameters
    ----------
    spec : MetricSpec
        A ranking declaration.

    Returns
    -------
    list of dict
        One ``{"name", "params", "means"}`` per trec_eval name, sorted by name.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import trec_names
    >>> trec_names(REGISTRY.lookup("RR"))
    [{'name': 'recip_rank', 'params': '', 'means': 'RR'}]
    """
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


# ---------------------------------------------------------------- the docstring's parts

#: The first NumPy-style section of a docstring (Parameters, Returns, Examples, ...).
_SECTION = re.compile(
    r"^[ \t]*(?:Parameters|Returns|Examples|Notes|See Also|References)[ \t]*\n[ \t]*-{3,}[ \t]*$",
    re.MULTILINE,
)
#: The sentence that names a declaration's reference.
_REFERENCE = re.compile(r"\bReferences?:\s*")


def _prose(doc: str) -> str:
    """A declaration's description: its docstring up to the first NumPy-style section (the
    parameters, returns and examples are the function's reference, not the catalogue's),
    dedented."""
    found = _SECTION.search(doc)
    return inspect.cleandoc(doc if found is None else doc[: found.start()])


def _split(spec: MetricSpec) -> tuple[str, str]:
    """The docstring's prose as (definition, reference): the reference is the text after its
    last ``Reference:``."""
    prose = _prose(spec.doc)
    found = list(_REFERENCE.finditer(prose))
    if not found:
        return prose.strip(), ""
    last = found[-1]
    return prose[: last.start()].strip(), " ".join(prose[last.end() :].split()).rstrip(".")


def definition(spec: MetricSpec) -> str:
    """The definition of a declared measure, its formula included: the docstring's prose
    without its ``Reference:`` sentence (reStructuredText, paragraphs kept).

    Parameters
    ----------
    spec : MetricSpec
        The declaration.

    Returns
    -------
    str
        The definition ("" when the docstring has none).

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import definition
    >>> definition(REGISTRY.lookup("mse", "regression"))
    'Mean squared error: (1/n) Σ (y_i - ŷ_i)².'
    """
    return _split(spec)[0]


def reference(spec: MetricSpec) -> str:
    """The reference of a declared measure: the text of its docstring's ``Reference:``
    sentence ("" when there is none).

    Parameters
    ----------
    spec : MetricSpec
        The declaration.

    Returns
    -------
    str
        The reference, without the final full stop.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import reference
    >>> reference(REGISTRY.lookup("ndcg"))
    'Järvelin & Kekäläinen (2002), TOIS 20(4)'
    """
    return _split(spec)[1]


# ---------------------------------------------------------------- peers


def peers(spec: MetricSpec) -> list[dict[str, str]]:
    """The other tools that compute a declared measure, and how each differs: trec_eval's
    names (ranking), ir_measures' and ranx's names (:data:`assay.metrics.peers.PEER_NAMES`,
    ranking) and the declaration's own :attr:`~assay.metrics.spec.MetricSpec.peers`.

    Parameters
    ----------
    spec : MetricSpec
        The declaration.

    Returns
    -------
    list of dict
        One ``{"tool", "name", "means", "differs", "note"}`` per peer name: ``means`` is what
        the peer's name means in assay's syntax (ranking), ``differs`` how its values differ
        ("" : the same values), ``note`` how its parameters read in assay's.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import peers
    >>> [(p["tool"], p["name"], p["means"]) for p in peers(REGISTRY.lookup("RR"))][:2]
    [('trec_eval', 'recip_rank', 'RR'), ('ir_measures', 'RR', 'RR')]
    >>> peers(REGISTRY.lookup("f1", "classification"))[0]["name"]
    'sklearn.metrics.f1_score'
    """
    out: list[dict[str, str]] = []
    if spec.family == "ranking":
        out += _trec_peers(spec)
        out += _named_peers(spec)
    out += [
        {"tool": p.tool, "name": p.name, "means": "", "differs": p.differs, "note": ""}
        for p in spec.peers
    ]
    return out


def _trec_peers(spec: MetricSpec) -> list[dict[str, str]]:
    """trec_eval's names, with the parameters in which trec_eval's defaults differ from
    assay's."""
    rows = []
    own = {p.name: p.default for p in spec.params}
    for t in trec_names(spec):
        binding = spec.trec[t["name"]]
        changed = [f"{k}={v!r}" for k, v in binding.bound if k in own and own[k] != v]
        differs = f"trec_eval's defaults: {', '.join(changed)}." if changed else ""
        listed = f" (parameter list `{t['name']}.{t['params']}`)" if t["params"] else ""
        rows.append(
            {
                "tool": "trec_eval",
                "name": t["name"],
                "means": t["means"] + listed,
                "differs": differs,
                "note": "",
            }
        )
    return rows


def _named_peers(spec: MetricSpec) -> list[dict[str, str]]:
    """ir_measures' and ranx's names for ``spec`` (:data:`~assay.metrics.peers.PEER_NAMES`):
    those it computes, and those refused whose nearest assay measure it is."""
    from .peers import PEER_NAMES, peer_metric

    rows = []
    for row in PEER_NAMES:
        if row.assay == spec.name:
            notes = [f"its parameter {a} is assay's {b}" for a, b in row.rename]
            notes += [f"it takes only {k}={v!r}" for k, v in row.fixed]
            notes += [f"its {k} is the square of assay's" for k in row.root]
            means = peer_metric(row, {}, None, row.name).canonical
            rows.append(
                {
                    "tool": row.peer,
                    "name": row.name,
                    "means": means,
                    "differs": row.differs,
                    "note": "; ".join(dict.fromkeys(notes)),
                }
            )
        elif row.assay is None:
            nearest = re.match(r"[^\s(@]+", row.nearest or "")
            if nearest is not None and nearest.group() == spec.name:
                rows.append(
                    {
                        "tool": row.peer,
                        "name": row.name,
                        "means": "",
                        "differs": f"assay does not compute it: {row.reason}.",
                        "note": "",
                    }
                )
    return rows


# ---------------------------------------------------------------- descriptions


def describe(spec: MetricSpec) -> dict[str, Any]:
    """Everything the catalogue says about a declaration, as one record (``assay metrics
    --format json`` shows it under ``described``).

    Parameters
    ----------
    spec : MetricSpec
        The declaration.

    Returns
    -------
    dict
        Its name, family, input, aliases, trec_eval names, parameters (name, default,
        meaning), cutoff, range, direction, aggregate, ``summary`` (the definition's first
        sentence, plain text), ``doc`` (the definition, plain text), ``reference`` and
        ``peers``.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import describe
    >>> row = describe(REGISTRY.lookup("rmse", "regression"))
    >>> row["range"], row["higher_is_better"], row["summary"]
    ('[0, inf)', False, 'Root mean squared error: sqrt((1/n) Σ (y_i - ŷ_i)²), in the unit of y.')
    """
    params = [{"name": p.name, "default": p.default, "doc": p.doc} for p in spec.params]
    doc = plain(definition(spec))
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
        "summary": first_sentence(doc) if doc else spec.name,
        "doc": doc,
        "reference": plain(reference(spec)),
        "peers": peers(spec),
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    """A markdown table of described metrics: name, parameters, cutoff, range, direction,
    aliases (and trec_eval's names) and the definition.

    Parameters
    ----------
    rows : list of dict
        Described declarations (:func:`describe`).

    Returns
    -------
    str
        The table.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import describe, markdown
    >>> print(markdown([describe(REGISTRY.lookup("mae", "regression"))]).splitlines()[2])
    | `mae` | — | no | [0, inf) | lower | mean_absolute_error | Mean absolute error: (1/n) Σ abs(y_i - ŷ_i). |
    """
    out = [
        "| metric | parameters | @k | range | better | aliases / trec_eval | description |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        names = ", ".join(
            [*r["aliases"], *(f"`{t['name']}` = {t['means']}" for t in r["trec_eval_names"])]
        )
        out.append(
            f"| `{r['name']}` | {r['params_text'] or '—'} | {r['cutoff']} | {r['range']} | "
            f"{_better(r)} | {names or '—'} | {r['doc'].replace('|', '/')} |"
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


# ---------------------------------------------------------------- docs/metrics.md

_TREC_INTRO = (
    "A name written as trec_eval writes it (alone, with trec_eval's parameter list after a "
    "dot, or as trec_eval's output name: `P`, `P.5,10`, `P_5`, `rbp.p=0.8`) means trec_eval's "
    "measure with trec_eval's defaults; a name in assay's syntax (`P@5`, `rbp()`, "
    "`rbp(p=0.8)`) means assay's metric with assay's defaults. Names are case-insensitive. "
    "See [conventions.md](conventions.md#names-trec_evals-and-assays).\n\n"
)


_INTRO = {
    "ranking": "Per query, from ranked lists joined with the qrels; aggregated over queries. "
    "Conventions that apply to every ranking metric: [conventions.md](conventions.md). "
    "pytrec_eval computes trec_eval's measures under trec_eval's names; the deliberate "
    "differences from ir_measures and ranx are in "
    "[conventions.md](conventions.md#names-of-ir_measures-and-ranx).",
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
    "judgments": "From crowd labels (`crowd labels`: task, worker, label rows), with "
    "`assay.judgments`: each method returns every task's posterior and every worker's skill "
    "(conventions: [conventions.md](conventions.md#crowd-label-aggregation)); or from "
    "`pairwise comparisons` (left, right, winner rows), each method returning a score per "
    "item, as evalica computes them "
    "([conventions.md](conventions.md#pairwise-comparisons)).",
}

_AGGREGATE = {
    "mean": "mean over queries",
    "gmean": "geometric mean over queries",
    "sum": "sum over queries",
    "none": "none (text values)",
}


def anchor(spec: MetricSpec) -> str:
    """The stable anchor of a declaration's entry in ``docs/metrics.md``:
    ``<family>-<name>``, lower case (``ranking-ndcg``, ``regression-rmse``).

    Parameters
    ----------
    spec : MetricSpec
        The declaration.

    Returns
    -------
    str
        The anchor (``docs/metrics.md#<anchor>`` links to the entry).

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import anchor
    >>> anchor(REGISTRY.lookup("P"))
    'ranking-p'
    """
    return f"{spec.family}-{spec.name}".lower()


def _entry(spec: MetricSpec, row: dict[str, Any]) -> str:
    """One measure's entry: heading with its anchor, definition, facts, reference, peers
    (``row``: the declaration described, :func:`describe`)."""
    out = [f'<a id="{anchor(spec)}"></a>\n\n### {spec.name}\n\n']
    out.append(markdown_blocks(definition(spec)) + "\n\n")
    facts = []
    if spec.aliases:
        facts.append("**Also:** " + ", ".join(f"`{a}`" for a in spec.aliases))
    facts.append(f"**Computed from:** {spec.input}")
    if spec.params:
        items = []
        for p in spec.params:
            items.append(f"    - `{p.name}` = `{p.default!r}`: {markdown_inline(p.doc)}")
        facts.append("**Parameters:**\n" + "\n".join(items))
    else:
        facts.append("**Parameters:** none")
    cutoff = {
        "none": "none",
        "optional": f"optional (`{spec.name}@10`)",
        "required": f"required (`{spec.name}@10`)",
    }[spec.cutoff]
    facts.append(f"**Cutoff:** {cutoff}")
    facts.append(f"**Range:** {row['range']}")
    better = "— (text)" if spec.value == "text" else _better(row) + " is better"
    facts.append(f"**Direction:** {better}")
    if spec.family == "ranking":
        facts.append(f"**Aggregate:** {_AGGREGATE[spec.aggregate]}")
    facts.append(f"**Reference:** {markdown_inline(reference(spec)) or '—'}")
    found = row["peers"]
    if found:
        lines = []
        for peer in found:
            means = peer["means"]
            shown = f" = `{means}`" if means and means != peer["name"] else ""
            if " (parameter list " in means:
                head, _, listed = means.partition(" (parameter list ")
                shown = f" = `{head}` (parameter list {listed}"
            differs = markdown_inline(peer["differs"]) if peer["differs"] else "the same values"
            if peer["note"]:
                differs += f" ({markdown_inline(peer['note'])})"
            lines.append(f"    - {peer['tool']} `{peer['name']}`{shown}: {differs}")
        facts.append("**Peers:**\n" + "\n".join(lines))
    else:
        facts.append("**Peers:** none recorded")
    out.append("\n".join(f"- {f}" for f in facts) + "\n")
    return "".join(out)


def document() -> str:
    """The whole of docs/metrics.md: per family, an index of its measures and one entry per
    measure (``make docs`` writes it; a test keeps it in sync).

    Returns
    -------
    str
        The Markdown page (no code blocks: nothing in it is meant to be run).

    Examples
    --------
    >>> from assay.metrics.catalog import document
    >>> page = document()
    >>> '<a id="ranking-ndcg"></a>' in page and "## Generation" in page
    True
    """
    from .registry import REGISTRY

    families = REGISTRY.families()
    out = [
        "# Metric catalogue\n\nGenerated from the metric declarations (the registry, "
        "`src/assay/metrics/`, and each family's measure modules) by `make docs`; a test keeps "
        "it in sync. One entry per measure: its definition and formula, parameters, cutoff, "
        "range, direction, reference and the other tools that compute it. Each entry's anchor "
        "is `<family>-<name>` in lower case (`metrics.md#ranking-ndcg`). Parameter names "
        "follow the [glossary](parameters.md); `assay metrics` lists the same in a terminal.\n\n"
        "Families: " + ", ".join(f"[{f.capitalize()}](#{f})" for f in families) + ".\n"
    ]
    for family in families:
        specs = REGISTRY.specs(family)
        out.append(f"\n## {family.capitalize()}\n\n")
        if family in _INTRO:
            out.append(_INTRO[family] + "\n\n")
        out.append("| measure | range | better | summary |\n|---|---|---|---|\n")
        rows = [describe(spec) for spec in specs]
        for spec, row in zip(specs, rows, strict=True):
            summary = markdown_inline(first_sentence(" ".join(definition(spec).split())), cell=True)
            out.append(
                f"| [{spec.name}](#{anchor(spec)}) | {row['range']} | "
                f"{_better(row)} | {summary} |\n"
            )
        for spec, row in zip(specs, rows, strict=True):
            out.append("\n" + _entry(spec, row))
        if family == "ranking":
            out.append("\n### trec_eval names\n\n" + _TREC_INTRO + trec_markdown())
    return "".join(out)
