"""assay.clustering against published worked examples: Manning, Raghavan & Schütze (2008) §16.3
and the hand examples of Watset's own tests (nlpub/watset-java, NormalizedModifiedPurityTest and
PairwiseTest), with one worked by hand from Kawahara et al.'s formulas."""

from __future__ import annotations

import pytest

from assay import clustering as C
from support.examples import MRS_GOLD, MRS_PRED

sk = pytest.importorskip("sklearn.metrics")


TOL = 1e-9


def test_manning_example() -> None:
    # §16.3: "TP = 20, FP = 20, FN = 24, TN = 72", RI = (20 + 72) / 136 ≈ 0.68, purity ≈ 0.71,
    # NMI ≈ 0.36 (Table 16.2), P = 0.5, R ≈ 0.455, F5 ≈ 0.456.
    assert C.pair_counts(MRS_GOLD, MRS_PRED) == (20, 20, 24, 72)
    assert C.purity(MRS_GOLD, MRS_PRED) == pytest.approx(12 / 17) == pytest.approx(0.7059, abs=5e-5)
    assert C.rand_index(MRS_GOLD, MRS_PRED) == pytest.approx(92 / 136)
    assert C.rand_index(MRS_GOLD, MRS_PRED) == pytest.approx(0.6765, abs=5e-5)
    # ARI 0.2429 (the brief's value; also scikit-learn's, checked below).
    assert C.adjusted_rand_index(MRS_GOLD, MRS_PRED) == pytest.approx(0.2429, abs=5e-5)
    assert C.pairwise_precision(MRS_GOLD, MRS_PRED) == 0.5
    assert C.pairwise_recall(MRS_GOLD, MRS_PRED) == pytest.approx(20 / 44)
    assert C.pairwise_f(MRS_GOLD, MRS_PRED) == pytest.approx(0.4762, abs=5e-5)
    assert C.pairwise_f(MRS_GOLD, MRS_PRED, beta=5) == pytest.approx(0.456, abs=5e-4)
    assert C.nmi(MRS_GOLD, MRS_PRED) == pytest.approx(0.36, abs=5e-3)
    assert C.adjusted_rand_index(MRS_GOLD, MRS_PRED) == pytest.approx(
        sk.adjusted_rand_score(MRS_GOLD, MRS_PRED), abs=TOL
    )


# nlpub/watset-java, src/test/java/org/nlpub/watset/eval/PairwiseTest.java and
# NormalizedModifiedPurityTest.java (Ustalov et al.'s implementation of Kawahara et al. 2014).
WATSET_GOLD = [
    {"bank", "riverbank", "streambank", "streamside"},
    {"bank", "building", "bank building"},
]


WATSET_EXAMPLES = [
    (
        [
            {"bank"},
            {"bank", "building"},
            {"riverbank", "streambank", "streamside"},
            {"bank building"},
        ],
        # mPU, iPU (un-normalized); nmPU, niPU (normalized); pairwise P, R, F1
        (0.71429, 0.71429),
        (0.75, 0.75),
        (1.0, 0.44444, 0.61538),
    ),
    (
        [{"bank", "riverbank", "streambank", "streamside", "building", "bank building"}],
        (0.66667, 1.0),
        (0.66667, 1.0),
        (0.6, 1.0, 0.74999),
    ),
    (
        [{"bank"}, {"building"}, {"riverbank"}, {"streambank"}, {"streamside"}, {"bank building"}],
        (0.0, 0.28571),
        (0.0, 0.33333),
        (0.0, 0.0, 0.0),
    ),
]


@pytest.mark.parametrize("pred,raw,norm,pairwise", WATSET_EXAMPLES)
def test_watset_examples(
    pred: list[set[str]],
    raw: tuple[float, float],
    norm: tuple[float, float],
    pairwise: tuple[float, float, float],
) -> None:
    assert C.nmpu(WATSET_GOLD, pred, normalize=False) == pytest.approx(raw[0], abs=1e-4)
    assert C.nipu(WATSET_GOLD, pred, normalize=False) == pytest.approx(raw[1], abs=1e-4)
    assert C.nmpu(WATSET_GOLD, pred) == pytest.approx(norm[0], abs=1e-4)
    assert C.nipu(WATSET_GOLD, pred) == pytest.approx(norm[1], abs=1e-4)
    assert tuple(C.soft_pairwise(WATSET_GOLD, pred)) == pytest.approx(pairwise, abs=1e-4)


def test_watset_gold_against_itself() -> None:
    assert C.nmpu(WATSET_GOLD, WATSET_GOLD) == 1.0
    assert C.nipu(WATSET_GOLD, WATSET_GOLD) == 1.0
    assert C.nmpu_f1(WATSET_GOLD, WATSET_GOLD) == 1.0
    assert tuple(C.soft_pairwise(WATSET_GOLD, WATSET_GOLD)) == (1.0, 1.0, 1.0)


def test_nmpu_hand_example_weighted() -> None:
    # Worked by hand from Kawahara et al.'s formulas. Gold G1 = {a, b, c}, G2 = {c, d}; pred
    # K1 = {a: 1, c: 3}, K2 = {c: 1, d: 1}, K3 = {b: 2}. Normalised: c weighs 3/4 in K1 and 1/4
    # in K2. nmPU = (max(1 + 3/4, 3/4) + max(1/4, 1/4 + 1) + 0 [K3 singleton]) / 4 = 3/4.
    # niPU: G1 = {a, b, c/2}, G2 = {c/2, d}: (max(1 + 1/2, 1/2, 1) + max(1/2, 1/2 + 1, 0)) / 4.
    gold = [{"a", "b", "c"}, {"c", "d"}]
    pred = [{"a": 1, "c": 3}, {"c": 1, "d": 1}, {"b": 2}]
    assert C.nmpu(gold, pred) == pytest.approx(0.75)
    assert C.nipu(gold, pred) == pytest.approx(0.75)
    # Un-normalised: N = 1 + 3 + 1 + 1 + 2 = 8; nmPU = (4 + 2) / 8; niPU over N = 5: (2 + 2) / 5
    # (G1 ∩ K1 = {a, c}, weights of G1: 1 + 1; G2 ∩ K2 = {c, d}).
    assert C.nmpu(gold, pred, normalize=False) == pytest.approx(6 / 8)
    assert C.nipu(gold, pred, normalize=False) == pytest.approx(4 / 5)
