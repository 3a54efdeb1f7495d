"""Every option of every public function, in every family, is keyword-only and validated: a bad
value raises :class:`assay.OptionError` naming the option.

The test walks the public modules' ``__all__``, finds each function's keyword-only options and
derives a bad value from the option's annotation (a choice that is not in its ``Literal``, a
negative count or seed, a probability outside (0, 1), a flag that is not a bool). Each
function is called once with good arguments from :data:`CALLS` (so the derived calls differ
from a working call in one option only); a public function with options but no entry in
:data:`CALLS` fails the coverage test, so a new function cannot escape the rule.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import io
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import numpy as np
import pytest

import assay
from assay.errors import OptionError

#: Public modules whose functions are checked (the facades re-export their family's code).
MODULES = (
    "assay",
    "assay.classification",
    "assay.clustering",
    "assay.agreement",
    "assay.fusion",
    "assay.stats",
    "assay.compat.trec_eval",
    "assay.compat.gdeval",
    "assay.generation",
    "assay.regression",
    "assay.io",
    "assay.data",
    "assay.dist",
    "assay.evaluation",
    "assay.datasets",
    "assay.meta",
    "assay.judgments",
)

#: Options without a value that is wrong whatever the data: free text, data-like values,
#: callables, labels (any hashable is a label) and column names.
FREE = {
    "baseline",
    "labels",
    "pos_label",
    "table",
    "values",
    "names",
    "column",
    "name",
    "column_hint",
    "query",
    "doc",
    "score",
    "metrics",
    "metric",
    "weights",
    "run_names",
    "noise",
    "grade_probs",
    "train_queries",
    "thresholds",
    "levels",
    "level",
    "rrf_ks",
    "averages",
    "rouge_types",
    "smooth_value",
    "undefined",
    "gamma",
    "initial",  # Elo's starting rating: any real number
}


def _qrels_and_runs() -> tuple[Any, list[Any]]:
    qrels, runs = assay.datasets.synthetic(n_queries=4, docs_per_query=6, seed=1)
    return qrels, list(runs.values()) if isinstance(runs, dict) else list(runs)


@functools.cache
def _run_files() -> tuple[str, ...]:
    """The synthetic runs as TREC files (written once, in a temporary folder)."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="assay-api-options-")
    paths = []
    for i, run in enumerate(_qrels_and_runs()[1]):
        paths.append(f"{folder}/run{i}.txt")
        run.to_trec(paths[-1])
    return tuple(paths)


Y_TRUE = ["a", "b", "a", "a", "b", "b"]
Y_PRED = ["a", "b", "b", "a", "b", "a"]
B_TRUE = [1, 0, 1, 1, 0, 0]
B_PRED = [1, 0, 0, 1, 1, 0]
SCORES = [0.9, 0.2, 0.4, 0.8, 0.7, 0.1]
RATINGS = [[1, 1, 2], [2, 2, 2], [1, 2, 1], [3, 3, 3]]
CROWD = {
    "task": ["t1", "t1", "t1", "t2", "t2", "t3"],
    "worker": ["a", "b", "c", "a", "b", "c"],
    "label": ["x", "x", "y", "y", "y", "x"],
}


def _gdeval_files() -> tuple[str, str]:
    """A qrels and a run as gdeval reads them (numeric topics), in a temporary folder."""
    import tempfile

    folder = Path(tempfile.mkdtemp())
    (folder / "qrels").write_text("1 0 a 2\n1 0 b 1\n2 0 c 1\n", encoding="utf-8")
    (folder / "run").write_text("1 Q0 b 1 2 r\n1 Q0 a 2 1 r\n2 Q0 c 1 1 r\n", encoding="utf-8")
    return str(folder / "qrels"), str(folder / "run")


A = np.array([0.3, 0.5, 0.2, 0.9, 0.4, 0.6, 0.8, 0.1])
B = np.array([0.2, 0.6, 0.1, 0.7, 0.45, 0.3, 0.9, 0.25])
HYPS = ["the cat sat on the mat", "a dog barked"]
REFS = ["the cat is on the mat", "the dog barked"]


def _ratings() -> Any:
    from assay.agreement import Ratings

    return Ratings("r.csv", "wide", ["1", "2", "3", "4"], ["a", "b", "c"], RATINGS)


def _comparisons() -> Any:
    from assay.judgments import Comparisons

    return Comparisons.read(
        {
            "left": ["a", "b", "c", "a"],
            "right": ["b", "c", "a", "c"],
            "winner": ["left", "tie", "right", "left"],
        }
    )


def _compare_models() -> dict[str, Any]:
    return {"a": A, "b": B}


#: A working call of each public function with options: ``(args, kwargs)`` factories.
CALLS: dict[str, Callable[[], tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "assay.compare": lambda: (
        (*_qrels_and_runs(), ["P@5"]),
        {"n_resamples": 20, "baseline": "run1", "risk_alpha": 1.0},
    ),
    "assay.evaluate": lambda: ((*_qrels_and_runs(), ["P@5"]), {}),
    "assay.prepare": lambda: (
        ({"q1": {"d1": 1}}, ["P@5"]),
        {"queries": ["q1", "q1"], "docs": ["d1", "d2"]},
    ),
    "assay.compare_seeds": lambda: (
        ({"a": np.vstack([A, B]), "b": np.vstack([B, A, B])},),
        {"n_bootstrap": 20, "n_resamples": 20},
    ),
    "assay.compare_seeds_runs": lambda: (
        (
            _qrels_and_runs()[0],
            {"a": _qrels_and_runs()[1][:2], "b": _qrels_and_runs()[1][1:]},
            "P@5",
        ),
        {"n_bootstrap": 20, "n_resamples": 20},
    ),
    "assay.stats.aso": lambda: ((A, B), {"num_bootstrap_iterations": 20}),
    "assay.stats.seed_distribution": lambda: ((A,), {}),
    "assay.stats.welch_ttest": lambda: ((A, B), {}),
    "assay.classification.cohen_kappa": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.classification.balanced_accuracy": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.classification.confusion_matrix": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.classification.f1": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.f_score": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.fnr": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.fowlkes_mallows": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.fpr": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.jaccard": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.mcc": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.npv": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.precision": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.recall": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.sba": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.classification.specificity": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.average_precision": lambda: ((B_TRUE, SCORES), {}),
    "assay.classification.interpolated_precision": lambda: ((B_TRUE, SCORES), {}),
    "assay.classification.pr_curve": lambda: ((B_TRUE, SCORES), {}),
    "assay.classification.roc_auc": lambda: ((B_TRUE, SCORES), {}),
    "assay.classification.roc_curve": lambda: ((B_TRUE, SCORES), {}),
    "assay.classification.classification_report": lambda: ((B_TRUE, B_PRED), {}),
    "assay.classification.simulate_f1_mcc": lambda: ((), {"n": 6}),
    "assay.classification.evaluate": lambda: ((B_TRUE, B_PRED, SCORES), {"pos_label": 1}),
    "assay.classification.compare": lambda: (
        (B_TRUE, {"a": B_PRED, "b": B_TRUE}),
        {"n_resamples": 20},
    ),
    "assay.clustering.ami": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.bcubed": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.compare": lambda: ((Y_TRUE, [Y_PRED, Y_TRUE]), {"n_resamples": 20}),
    "assay.clustering.nmi": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.pairwise_f": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.pairwise_precision": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.pairwise_recall": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.clustering.nipu": lambda: (([["a", "b"], ["c"]], [["a"], ["b", "c"]]), {}),
    "assay.clustering.nmpu": lambda: (([["a", "b"], ["c"]], [["a"], ["b", "c"]]), {}),
    "assay.clustering.nmpu_f1": lambda: (([["a", "b"], ["c"]], [["a"], ["b", "c"]]), {}),
    "assay.clustering.soft_pairwise": lambda: (([["a", "b"], ["c"]], [["a"], ["b", "c"]]), {}),
    "assay.agreement.alpha_bootstrap": lambda: ((RATINGS,), {"n_resamples": 20}),
    "assay.agreement.fleiss_kappa": lambda: ((RATINGS,), {}),
    "assay.agreement.krippendorff_alpha": lambda: ((RATINGS,), {}),
    "assay.agreement.percent_agreement": lambda: ((RATINGS,), {}),
    "assay.agreement.randolph_kappa": lambda: ((RATINGS,), {}),
    "assay.agreement.scott_pi": lambda: ((Y_TRUE, Y_PRED), {}),
    "assay.fusion.aggregate": lambda: (([["a", "b", "c"], ["b", "a", "c"]],), {}),
    "assay.fusion.fuse": lambda: ((_qrels_and_runs()[1],), {}),
    "assay.fusion.fuse_files": lambda: ((_run_files(), io.BytesIO()), {}),
    "assay.fusion.optimize_fusion": lambda: (
        (*_qrels_and_runs(),),
        {"metric": "P@5", "method": "rrf", "rrf_ks": (10, 60)},
    ),
    "assay.stats.randomization_test": lambda: ((A, B), {"n_resamples": 20}),
    "assay.stats.ttest": lambda: ((A, B), {}),
    "assay.stats.wilcoxon": lambda: ((A, B), {}),
    "assay.stats.sign_test": lambda: ((A, B), {}),
    "assay.stats.paired_bootstrap_test": lambda: ((A, B), {"n_resamples": 20}),
    "assay.stats.paired_pvalues": lambda: ((np.vstack([A - B, B - A]),), {"n_resamples": 20}),
    "assay.stats.stratified_shuffling_test": lambda: (
        (np.vstack([A, B]).T, np.vstack([B, A]).T, lambda m: m.sum(axis=0)[0]),
        {"n_resamples": 20},
    ),
    "assay.stats.corpus_pair_test": lambda: (
        (np.vstack([A, B]).T, np.vstack([B, A]).T, lambda m: m.sum(axis=0)[0]),
        {"n_resamples": 20},
    ),
    "assay.stats.bootstrap_ci": lambda: ((A,), {"n_resamples": 20}),
    "assay.stats.bootstrap_mean_ci": lambda: ((np.vstack([A, B]),), {"n_resamples": 20}),
    "assay.stats.tukey_hsd": lambda: ((np.vstack([A, B, A * 0.5]).T,), {"n_resamples": 20}),
    "assay.stats.anova_two_way": lambda: ((np.vstack([A, B, A * 0.5]).T,), {}),
    "assay.stats.partial_conjunction": lambda: (([0.01, 0.2, 0.04],), {}),
    "assay.stats.replicability": lambda: (([0.01, 0.2, 0.04],), {}),
    "assay.stats.correct": lambda: (([0.01, 0.04],), {}),
    "assay.stats.mcnemar": lambda: (([1, 0, 1, 1], [0, 0, 1, 0]), {}),
    "assay.stats.risk_differences": lambda: ((A, B), {"risk_alpha": 1.0}),
    "assay.stats.urisk": lambda: ((A, B), {"risk_alpha": 1.0}),
    "assay.stats.trisk": lambda: ((A, B), {"risk_alpha": 1.0}),
    "assay.stats.zrisk": lambda: ((np.vstack([A, B]).T,), {"risk_alpha": 1.0}),
    "assay.stats.georisk": lambda: ((np.vstack([A, B]).T,), {"risk_alpha": 1.0}),
    "assay.compat.gdeval.evaluate_gdeval": lambda: (_gdeval_files(), {"k": 5}),
    "assay.stats.pearson": lambda: ((A, B), {}),
    "assay.stats.spearman": lambda: ((A, B), {"n_resamples": 20}),
    "assay.stats.kendall": lambda: ((A, B), {"n_resamples": 20}),
    "assay.stats.tau_ap": lambda: ((A, B), {}),
    "assay.stats.system_rank_correlation": lambda: (
        (dict(zip("uvwxyz", A[:6], strict=True)), dict(zip("uvwxyz", B[:6], strict=True))),
        {},
    ),
    "assay.compat.trec_eval.evaluate_trec": lambda: (
        (*_qrels_and_runs()[:1], _qrels_and_runs()[1][0]),
        {},
    ),
    "assay.compat.trec_eval.format_trec": lambda: (
        (assay.compat.trec_eval.evaluate_trec(_qrels_and_runs()[0], _qrels_and_runs()[1][0]),),
        {},
    ),
    "assay.generation.bleu": lambda: ((), {"references": REFS, "hypotheses": HYPS}),
    "assay.generation.chrf": lambda: ((), {"references": REFS, "hypotheses": HYPS}),
    "assay.generation.compare_systems": lambda: (
        ([REFS], {"a": HYPS, "b": list(reversed(HYPS))}),
        {"metrics": ["chrf"], "n_resamples": 20},
    ),
    "assay.generation.configure_metrics": lambda: ((["bleu", "chrf"],), {"tokenize": "13a"}),
    "assay.generation.rouge": lambda: (
        (),
        {"references": REFS, "hypotheses": HYPS, "n_resamples": 20},
    ),
    "assay.generation.score": lambda: (
        (),
        {"references": REFS, "hypotheses": HYPS, "metric": "chrf"},
    ),
    "assay.generation.sentence_bleu": lambda: (
        (),
        {"references": [REFS[0]], "hypothesis": HYPS[0]},
    ),
    "assay.generation.sentence_chrf": lambda: (
        (),
        {"references": [REFS[0]], "hypothesis": HYPS[0]},
    ),
    "assay.generation.sentence_ter": lambda: (
        (),
        {"references": [REFS[0]], "hypothesis": HYPS[0]},
    ),
    "assay.generation.ter": lambda: ((), {"references": REFS, "hypotheses": HYPS}),
    "assay.regression.explained_variance": lambda: ((A, B), {}),
    "assay.regression.mape": lambda: ((A, B), {}),
    "assay.regression.r2": lambda: ((A, B), {}),
    "assay.regression.compare_models": lambda: ((A, _compare_models()), {"n_resamples": 20}),
    "assay.regression.regression_report": lambda: ((A, B), {"n_resamples": 20}),
    "assay.agreement.evaluate": lambda: ((_ratings(),), {"n_resamples": 20}),
    "assay.regression.evaluate": lambda: ((A, _compare_models()), {"n_resamples": 20}),
    "assay.data.rank": lambda: _rank_call(),
    "assay.evaluation.block_values": lambda: _block_values_call(),
    "assay.datasets.synthetic": lambda: ((), {"n_queries": 3, "docs_per_query": 4}),
    "assay.meta.discriminative_power": lambda: (
        ({"m": np.vstack([A, B, A * 0.5]).T},),
        {"n_resamples": 20},
    ),
    "assay.meta.topic_set_size": lambda: (({"m": np.vstack([A, B, A * 0.5]).T},), {}),
    "assay.meta.ttest_power": lambda: ((20, 0.1, 0.05), {}),
    "assay.meta.anova_power": lambda: ((20, 0.1, 0.05), {}),
    "assay.meta.anova": lambda: (({"m": np.vstack([A, B, A * 0.5]).T},), {}),
    "assay.meta.replicability": lambda: (({"d1": 0.01, "d2": 0.2, "d3": 0.04},), {}),
    "assay.meta.read_pvalues": lambda: ((_pvalue_table(),), {}),
    "assay.meta.rbo": lambda: ((list("abcd"), list("bade")), {}),
    "assay.meta.rbo_runs": lambda: ((*_qrels_and_runs()[1][:2],), {}),
    "assay.meta.rbo_systems": lambda: (({"a": 1.0, "b": 0.5}, {"a": 0.2, "b": 0.7}), {}),
    "assay.meta.ktau_union": lambda: ((*_qrels_and_runs()[1][:2],), {}),
    "assay.meta.repro_rbo": lambda: ((*_qrels_and_runs()[1][:2],), {}),
    "assay.meta.reproducibility": lambda: (
        (_qrels_and_runs()[0], *_qrels_and_runs()[1][:2], *_qrels_and_runs()[1][1:3], ["P@5"]),
        {},
    ),
    "assay.judgments.crowd_qrels": lambda: (
        (
            {
                "query": ["q1"] * 6 + ["q2"] * 6,
                "doc": ["d1", "d1", "d1", "d2", "d2", "d2"] * 2,
                "worker": ["a", "b", "c"] * 4,
                "grade": [2, 2, 1, 0, 0, 1, 1, 1, 1, 0, 2, 0],
            },
        ),
        {"method": "majority_vote", "runs": _qrels_and_runs()[1], "metric": "P@5"},
    ),
    "assay.meta.assessor_agreement": lambda: (
        (_qrels_and_runs()[0], _qrels_and_runs()[0]),
        {"runs": _qrels_and_runs()[1], "metrics": ["P@5"]},
    ),
    **{
        f"assay.judgments.{m}": lambda: ((CROWD,), {})
        for m in ("majority_vote", "wawa", "zbs", "dawid_skene", "one_coin_dawid_skene", "glad")
    },
    **{
        f"assay.judgments.{method}": (lambda: ((_comparisons(),), {}))
        for method in (
            "counting",
            "average_win_rate",
            "bradley_terry",
            "newman",
            "elo",
            "eigen",
            "pagerank",
        )
    },
    "assay.stats.multinomial_resamples": lambda: (([3, 1, 2],), {"n_resamples": 5}),
    "assay.judgments.leaderboard": lambda: ((_comparisons(),), {"n_resamples": 10}),
    "assay.judgments.mace": lambda: ((CROWD,), {"n_restarts": 1}),
    "assay.judgments.aggregate_labels": lambda: ((CROWD,), {"method": "majority_vote"}),
}


#: Functions whose options are checked elsewhere or need files: ``{name: reason}``.
def _pvalue_table() -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "pvalues.csv"
    path.write_text("dataset,p_value\nd1,0.01\nd2,0.2\n", encoding="utf-8")
    return path


ELSEWHERE = {
    "assay.classification.read_labels": "reads a file; its options are column names (free text)",
    "assay.classification.read_scores": "reads a file; its options are column names (free text)",
    "assay.agreement.read_ratings": "reads a file; layout is checked in tests/test_io_tasks.py",
    "assay.clustering.read_clustering": "reads a file; layout: tests/unit/test_clustering_reader_lines.py",
    "assay.clustering.read_clusterings": "reads files; layout as read_clustering's",
    "assay.classification.classification_document": "renders a report; its options are data",
    "assay.classification.labelled_report": "renders rows; its options are a caption and settings",
    "assay.dist.evaluate": "needs a Dask DataFrame; conventions checked by assay.evaluate's",
    "assay.dist.evaluate_files": "needs a Dask scheduler; conventions checked by assay.evaluate's",
    "assay.dist.read_trec_run": "reads a file; partition_bytes: tests/references/test_ranking_dask.py",
    "assay.judgments.read_comparisons": "reads a file; its options are column names and a mapping",
    "assay.judgments.read_crowd_labels": "reads a file; its options are column names",
}


def _rank_call() -> tuple[tuple[Any, ...], dict[str, Any]]:
    from assay.data import Conventions

    qrels, runs = _qrels_and_runs()
    return (qrels, runs[0], Conventions()), {}


def _block_values_call() -> tuple[tuple[Any, ...], dict[str, Any]]:
    from assay.data import Conventions
    from assay.metrics import parse_all

    qrels, runs = _qrels_and_runs()
    return (qrels, runs[0], parse_all(["P@5"]), Conventions()), {}


def _public_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    seen: set[int] = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            func = getattr(module, name)
            if not inspect.isfunction(func) or id(func) in seen:
                continue
            seen.add(id(func))
            yield f"{module_name}.{name}", func


def _options(func: Callable[..., Any]) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(func).parameters.values() if p.kind is p.KEYWORD_ONLY]


def _bad_value(name: str, annotation: Any) -> Any:
    """A value the option's type rules out, or ``None`` when there is none to derive."""
    if name in FREE:
        return None
    kinds = (
        get_args(annotation)
        if isinstance(annotation, types.UnionType) or get_origin(annotation) is typing.Union
        else (annotation,)
    )
    kinds = tuple(k for k in kinds if k is not type(None))
    if any(get_origin(k) is Literal for k in kinds):
        return "no-such-choice"
    if kinds == (bool,):
        return "yes"
    if int in kinds or float in kinds:
        return -1
    return None


def _cases() -> Iterator[tuple[str, str, Any]]:
    for qualname, func in _public_functions():
        if qualname not in CALLS:
            continue
        hints = _hints(func)
        for p in _options(func):
            bad = _bad_value(p.name, hints.get(p.name))
            if bad is not None:
                yield qualname, p.name, bad


def _hints(func: Callable[..., Any]) -> dict[str, Any]:
    """Annotations resolved, with the names modules import only for type checking."""
    import assay.data
    import assay.metrics
    import assay.results

    names = {**vars(assay.data), **vars(assay.metrics), **vars(assay.results)}
    return typing.get_type_hints(func, localns=names)


def _function(qualname: str) -> Callable[..., Any]:
    module_name, _, name = qualname.rpartition(".")
    func: Callable[..., Any] = getattr(importlib.import_module(module_name), name)
    return func


def test_every_public_function_with_options_has_a_working_call() -> None:
    missing = [
        q for q, f in _public_functions() if _options(f) and q not in CALLS and q not in ELSEWHERE
    ]
    assert missing == [], f"add a working call to CALLS for: {missing}"


@pytest.mark.parametrize("qualname", sorted(CALLS))
def test_the_working_call_works(qualname: str) -> None:
    args, kwargs = CALLS[qualname]()
    _function(qualname)(*args, **kwargs)


@pytest.mark.parametrize(("qualname", "option", "bad"), list(_cases()))
def test_a_bad_option_raises_option_error_naming_it(qualname: str, option: str, bad: Any) -> None:
    args, kwargs = CALLS[qualname]()
    with pytest.raises(OptionError) as info:
        _function(qualname)(*args, **{**kwargs, option: bad})
    assert info.value.option == option or option in str(info.value), str(info.value)


def test_options_come_after_the_data_and_are_keyword_only() -> None:
    """A parameter with a default is an option: keyword-only. The exceptions are optional
    data arguments (a second sample, a contingency table's alternative)."""
    data_like = {"b", "a", "statistic", "scores", "measures", "family", "k", "spec", "rows",
                 "grades", "out", "start", "stop", "cmp"}  # fmt: skip
    positional = [
        f"{q}({p.name})"
        for q, f in _public_functions()
        for p in inspect.signature(f).parameters.values()
        if p.default is not p.empty
        and p.kind is p.POSITIONAL_OR_KEYWORD
        and p.name not in data_like
    ]
    assert positional == []
