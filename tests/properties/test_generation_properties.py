"""Registry-driven properties of the generation family: every declaration computes what
assay.generation computes, its declared bounds and direction hold on random texts (a
hypothesis equal to its reference reaches the best value), and every bad option is an
OptionError naming it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.generation as G
from assay.errors import OptionError
from assay.metrics import REGISTRY, load_families, parse

pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")

load_families()

#: The generation metric each declaration is (its registry name is a parseable name).
LIBRARY_NAME = {"chrfpp": "chrf++"}
#: A bad value of every declared option, by name.
BAD = {
    "lowercase": 1,
    "tokenize": "moses",
    "smooth_method": "laplace",
    "smooth_value": -1.0,
    "max_ngram_order": 0,
    "effective_order": "yes",
    "char_order": 0,
    "word_order": -1,
    "beta": -2,
    "whitespace": None,
    "eps_smoothing": 2,
    "normalized": "no",
    "no_punct": 0,
    "asian_support": 1.0,
    "case_sensitive": "true",
    "use_stemmer": 1,
    "split_summaries": "x",
}

# Words only: rouge-score drops punctuation, and an identical text must keep its bigrams.
_WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "dog", "ran"])
# At least 4 words: BLEU of an identical hypothesis reaches 100 only with 4-grams to match.
_SENTENCE = st.lists(_WORDS, min_size=4, max_size=8).map(" ".join)
_CORPUS = st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        st.lists(_SENTENCE, min_size=n, max_size=n), st.lists(_SENTENCE, min_size=n, max_size=n)
    )
)


def test_every_declaration_is_placed() -> None:
    names = [spec.name for spec in REGISTRY.specs("generation")]
    assert names == ["bleu", "chrf", "chrfpp", "ter", "rouge1", "rouge2", "rougeL", "rougeLsum"]
    for spec in REGISTRY.specs("generation"):
        assert spec.input == "references and hypotheses"
        assert spec.higher_is_better == (spec.name != "ter")
        assert spec.doc.strip(), spec.name


@settings(max_examples=25, deadline=None)
@given(_CORPUS)
def test_declared_bounds_and_directions_hold(data: tuple[list[str], list[str]]) -> None:
    refs, hyps = data
    for spec in REGISTRY.specs("generation"):
        value = spec.kernel(refs, hyps)
        best = spec.kernel(refs, refs)
        assert spec.lower is None or value >= spec.lower - 1e-9, spec.name
        assert spec.upper is None or value <= spec.upper + 1e-9, spec.name
        if spec.higher_is_better:
            assert math.isclose(best, spec.upper or 0.0, abs_tol=1e-9), spec.name
        else:
            assert best == 0.0, spec.name


def test_every_declaration_computes_the_library_score() -> None:
    refs = ["the cat sat on the mat", "a dog ran"]
    hyps = ["the cat sat on a mat", "the dog ran ."]
    for spec in REGISTRY.specs("generation"):
        [m] = parse(spec.name, family="generation")
        library = G.score(
            references=refs, hypotheses=hyps, metric=LIBRARY_NAME.get(spec.name, spec.name)
        )
        assert m(refs, hyps) == library.score, spec.name


def test_options_are_the_library_metric_options() -> None:
    [m] = parse("bleu(tokenize='char', lowercase=True)", family="generation")
    refs, hyps = ["The Cat sat"], ["the cat sat down"]
    expected = G.bleu(references=refs, hypotheses=hyps, tokenize="char", lowercase=True).score
    assert m(refs, hyps) == expected


def test_every_bad_option_is_an_option_error_naming_it() -> None:
    for spec in REGISTRY.specs("generation"):
        for param in spec.params:
            with pytest.raises(OptionError) as err:
                spec.kernel(["a b"], ["a b"], **{param.name: BAD[param.name]})
            assert err.value.option == param.name, (spec.name, param.name)
