"""assay.agreement inputs (layouts, string labels, callable levels), undefined cases, the
bootstrap's seeding and the reliability bands."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import agreement as ag
from assay.agreement import alpha as agreement_alpha
from assay.errors import AssayError, EmptyInputError, InputError, MetricError
from support.examples import KRIPP_2011, long_triples

nan = math.nan


def test_input_layouts_agree() -> None:
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    triples = long_triples(KRIPP_2011)
    base = float(ag.krippendorff_alpha(KRIPP_2011, level="interval"))
    u, r, v = zip(*triples, strict=True)
    for data in (
        triples,
        {"unit": list(u), "rater": list(r), "value": list(v)},
        pa.table({"unit": list(u), "coder": list(r), "value": list(v)}),
        pd.DataFrame({"item": list(u), "rater": list(r), "label": list(v)}),
        pd.DataFrame(KRIPP_2011),
        KRIPP_2011.tolist(),
        [[None if math.isnan(x) else x for x in row] for row in KRIPP_2011.tolist()],
    ):
        assert float(ag.krippendorff_alpha(data, level="interval")) == pytest.approx(base)
    counts = np.stack([np.equal(KRIPP_2011, k).sum(axis=1) for k in range(1, 6)], axis=1)
    got = ag.krippendorff_alpha(counts, level="interval", counts=True, values=[1, 2, 3, 4, 5])
    assert float(got) == pytest.approx(base)


def test_string_labels_and_callable_level() -> None:
    labels = np.where(np.isnan(KRIPP_2011), None, KRIPP_2011.astype(object))
    names = [[None if x is None else "abcde"[int(x) - 1] for x in row] for row in labels]
    assert float(ag.krippendorff_alpha(names)) == pytest.approx(0.743421052631579)
    interval = ag.krippendorff_alpha(KRIPP_2011, level=lambda a, b: (a - b) ** 2)
    assert float(interval) == pytest.approx(0.8491071428571428)
    with pytest.raises(InputError):
        ag.krippendorff_alpha(names, level="interval")


def test_no_variation_and_errors() -> None:
    r = ag.krippendorff_alpha([[1, 1], [1, 1], [1, nan]])
    assert math.isnan(float(r)) and not r.defined and r.expected == 0 and r.band == "undefined"
    with pytest.raises(EmptyInputError):
        ag.krippendorff_alpha([[1, nan], [nan, 2]])
    with pytest.raises(MetricError):
        ag.krippendorff_alpha(KRIPP_2011, level="cardinal")
    with pytest.raises(InputError):
        ag.krippendorff_alpha([(1, "a", 1), (1, "a", 2), (2, "a", 1)])
    with pytest.raises(InputError):
        ag.krippendorff_alpha([[1, -1], [2, 3]], level="ratio")
    with pytest.raises(AssayError):
        ag.krippendorff_alpha([[1, 2]], counts=True, values=[1])


def test_varying_raters_and_percent_agreement() -> None:
    x = [[1, 1, nan], [1, 2, 2], [3, 3, 3], [2, nan, nan]]
    r = ag.fleiss_kappa(x)
    # P_i over subjects with >= 2 ratings: 1, 1/3, 1; proportions over their 8 ratings.
    p_o = (1 + 1 / 3 + 1) / 3
    p = np.array([3, 2, 3]) / 8
    assert r.observed == pytest.approx(p_o)
    assert float(r) == pytest.approx((p_o - (p**2).sum()) / (1 - (p**2).sum()))
    assert r.n == 3
    assert float(ag.percent_agreement([[1, 1], [1, 2], [2, 2], [3, 1]])) == pytest.approx(0.5)
    assert float(ag.randolph_kappa(x, n_categories=4)) == pytest.approx((p_o - 0.25) / 0.75)


def test_bootstrap_seeded_and_chunk_independent(monkeypatch: pytest.MonkeyPatch) -> None:
    a = ag.alpha_bootstrap(KRIPP_2011, level="ordinal", n_resamples=500, seed=5)
    b = ag.alpha_bootstrap(KRIPP_2011, level="ordinal", n_resamples=500, seed=5)
    assert np.array_equal(a.samples, b.samples, equal_nan=True)
    # the block size lives with the implementation (assay.agreement.alpha)
    monkeypatch.setattr(agreement_alpha, "BLOCK_VALUES", 64)
    c = ag.alpha_bootstrap(KRIPP_2011, level="ordinal", n_resamples=500, seed=5)
    assert np.allclose(a.samples, c.samples, equal_nan=True)
    assert a.probabilities[0.8] == pytest.approx(
        float((a.samples[~np.isnan(a.samples)] < 0.8).mean())
    )
    with pytest.raises(MetricError):
        ag.alpha_bootstrap(KRIPP_2011, n_resamples=0)


def test_alpha_band() -> None:
    assert ag.alpha_band(0.8) == "reliable"
    assert ag.alpha_band(0.7) == "tentative"
    assert ag.alpha_band(0.5) == "unreliable"
