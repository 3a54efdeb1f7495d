"""Registry-driven properties of the tagging family, and the API contract of its structured
functions.

For every measure declared in the registry under ``tagging``:

* random tag sequences (every scheme, often ill formed) with every declared option drawn
  from its valid values give values inside the declared bounds (or NaN with
  ``zero_division="nan"``);
* a prediction equal to the gold scores the maximum (1, or the ``zero_division`` value when
  there is no span at all);
* every option given a bad value raises OptionError naming it; options are keyword-only;
* a new measure must be placed here (a data strategy for its input, valid and bad values
  for each option), else ``test_every_declaration_is_placed`` fails.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import tagging as T
from assay._result import Result
from assay.errors import OptionError
from assay.metrics import FAMILIES, REGISTRY, MetricSpec, load_families
from strategies.tagging import SCHEMES, corpora

load_families()
SPECS: list[MetricSpec] = REGISTRY.specs("tagging")
IDS = [s.name for s in SPECS]

VALID: dict[str, st.SearchStrategy[Any]] = {
    "scheme": st.sampled_from(SCHEMES),
    "mode": st.sampled_from(["conlleval", "strict"]),
    "average": st.sampled_from(["micro", "macro", "weighted"]),
    "zero_division": st.sampled_from([0, 1, "nan"]),
    "match": st.sampled_from(["strict", "exact", "partial", "type"]),
}
BAD: dict[str, Any] = {
    "scheme": "iob3",
    "mode": "lenient",
    "average": "samples",
    "zero_division": 2,
    "match": "fuzzy",
}
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
PRED = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "I-ORG"]]


def test_every_declaration_is_placed() -> None:
    assert "tagging" in FAMILIES
    assert {s.name for s in SPECS} >= {"span_f1", "token_accuracy", "ner_f1"}
    for spec in SPECS:
        assert spec.input == "tag sequences", spec.name
        assert (spec.lower, spec.upper) == (0.0, 1.0) and spec.higher_is_better, spec.name
        for p in spec.params:
            assert p.name in VALID and p.name in BAD, f"{spec.name}: option {p.name!r} not placed"
        doc = " ".join(spec.doc.split())
        assert len(spec.summary) > 10 and any(ch in doc for ch in "=/"), spec.name


def test_public_functions_are_the_declarations() -> None:
    for spec in SPECS:
        assert getattr(T, spec.name) is spec.kernel


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_values_within_declared_bounds(spec: MetricSpec, data: st.DataObject) -> None:
    options = {p.name: data.draw(VALID[p.name], p.name) for p in spec.params}
    _, gold, pred = data.draw(corpora(options.get("scheme")), "data")
    value = spec.kernel(gold, pred, **options)
    assert isinstance(value, float)
    assert math.isnan(value) or 0.0 <= value <= 1.0
    if math.isnan(value):
        assert options.get("zero_division") == "nan"


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_the_gold_itself_scores_the_maximum(spec: MetricSpec, data: st.DataObject) -> None:
    options = {p.name: data.draw(VALID[p.name], p.name) for p in spec.params}
    options["zero_division"] = 1 if "zero_division" in options else None
    options = {k: v for k, v in options.items() if v is not None}
    _, gold, _ = data.draw(corpora(options.get("scheme")), "data")
    assert spec.kernel(gold, gold, **options) == 1.0


@pytest.mark.parametrize(
    ("spec", "option"),
    [pytest.param(s, p.name, id=f"{s.name}-{p.name}") for s in SPECS for p in s.params],
)
def test_bad_option_raises_option_error(spec: MetricSpec, option: str) -> None:
    spec.kernel(GOLD, PRED)  # the data is valid: only the option can be to blame
    with pytest.raises(OptionError) as err:
        spec.kernel(GOLD, PRED, **{option: BAD[option]})
    assert err.value.option == option


def test_options_are_keyword_only() -> None:
    for spec in SPECS:
        signature = inspect.signature(spec.kernel)
        for p in spec.params:
            assert signature.parameters[p.name].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError):
        T.span_f1(GOLD, PRED, "iob2")  # type: ignore[misc]


def test_scheme_names_and_aliases() -> None:
    bio = T.span_f1(GOLD, PRED, scheme="BIO")
    assert bio == T.span_f1(GOLD, PRED, scheme="iob2")
    iobes = [["S-X", "B-Y", "E-Y"]]
    assert T.span_f1(iobes, iobes, scheme="iobes") == T.span_f1(iobes, iobes, scheme="bioes") == 1.0


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_sentence_order_does_not_matter(data: st.DataObject) -> None:
    scheme, gold, pred = data.draw(corpora())
    order = data.draw(st.permutations(range(len(gold))))
    a = T.tagging_report(gold, pred, scheme=scheme)
    b = T.tagging_report([gold[i] for i in order], [pred[i] for i in order], scheme=scheme)
    assert (a.counts.tp.tolist(), a.counts.pred.tolist(), a.counts.gold.tolist()) == (
        b.counts.tp.tolist(),
        b.counts.pred.tolist(),
        b.counts.gold.tolist(),
    )
    assert {m: c.as_dict() for m, c in a.partial.items()} == {
        m: c.as_dict() for m, c in b.partial.items()
    }


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_strict_spans_are_conlleval_spans_of_well_formed_tags(data: st.DataObject) -> None:
    # Strict mode only drops ill-formed chunks, for the schemes whose chunks have a fixed
    # first (IOB2, BIOES, BILOU) or last (IOE2) tag, and for IO.
    scheme = data.draw(st.sampled_from(["iob2", "ioe2", "bioes", "bilou", "io"]))
    _, gold, _ = data.draw(corpora(scheme))
    strict = set(map(tuple, _spans(T.extract_spans(gold, scheme=scheme, mode="strict"))))
    assert strict <= set(map(tuple, _spans(T.extract_spans(gold, scheme=scheme))))


def test_strict_iob1_reads_an_ill_formed_b_as_seqeval_does() -> None:
    # IOB1 allows B only right after a chunk of the same type: after O it opens nothing in
    # seqeval's strict patterns, and the chunk starts at the next I (conlleval: at the B).
    tags = [["O", "B-X", "I-X"]]
    assert T.extract_spans(tags, scheme="iob1", mode="strict").per_sentence() == [[("X", 2, 2)]]
    assert T.extract_spans(tags, scheme="iob1").per_sentence() == [[("X", 1, 2)]]


def _spans(s: T.Spans) -> np.ndarray:
    return np.stack([s.start, s.end, s.type], axis=1)


# ---------------------------------------------------------------- structured functions

STRUCTURED_BAD: list[tuple[Callable[..., Any], dict[str, Any]]] = [
    (T.tagging_report, {"scheme": "iob3"}),
    (T.tagging_report, {"mode": "lenient"}),
    (T.tagging_report, {"zero_division": 2}),
    (T.extract_spans, {"scheme": "x"}),
    (T.extract_spans, {"mode": "x"}),
    (T.span_counts, {"scheme": "x"}),
    (T.compare_taggers, {"test": "t"}),
    (T.compare_taggers, {"n_resamples": 0}),
    (T.compare_taggers, {"seed": -1}),
    (T.compare_taggers, {"confidence": 1.5}),
    (T.compare_taggers, {"correction": "sidak"}),
    (T.compare_taggers, {"alpha": 0}),
    (T.compare_taggers, {"scheme": "x"}),
]


def _call(func: Callable[..., Any], **options: Any) -> Any:
    if func is T.compare_taggers:
        return func(
            GOLD, {"a": PRED, "b": GOLD}, n_resamples=options.pop("n_resamples", 20), **options
        )
    if func is T.extract_spans:
        return func(GOLD, **options)
    return func(GOLD, PRED, **options)


@pytest.mark.parametrize(
    ("func", "bad"),
    STRUCTURED_BAD,
    ids=[f"{f.__name__}-{next(iter(b))}" for f, b in STRUCTURED_BAD],
)
def test_structured_functions_validate_options(
    func: Callable[..., Any], bad: dict[str, Any]
) -> None:
    _call(func)
    with pytest.raises(OptionError) as err:
        _call(func, **bad)
    assert err.value.option == next(iter(bad))


def _results() -> list[Result]:
    return [
        T.tagging_report(GOLD, PRED),
        T.compare_taggers(GOLD, {"a": PRED, "b": GOLD}, n_resamples=50, seed=3),
        T.compare_taggers(GOLD, [PRED, GOLD], test="randomization", n_resamples=50),
    ]


@pytest.mark.parametrize("result", _results(), ids=lambda r: type(r).__name__)
def test_results_follow_the_protocol(result: Result) -> None:
    assert isinstance(result, Result) and dataclasses.is_dataclass(result)
    first = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, first, None)
    assert isinstance(result.provenance, Mapping) and "assay_version" in result.provenance
    json.dumps(dict(result.provenance))
    rows = result.records()
    assert rows and all(isinstance(r, dict) for r in rows)
    for row in rows:
        for value in row.values():
            assert value is None or type(value) in (str, int, float, bool), row
    json.dumps(rows)
