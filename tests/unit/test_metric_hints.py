"""Did-you-mean hints for unknown metric names: the alias tables (assay's names and aliases,
trec_eval's names, ir_measures' and ranx's names) first, string similarity after, and a
peer's name shown with what it means in assay. The peers' names themselves are accepted or
refused naming the nearest assay measure (tests/peers/test_peer_names.py)."""

from __future__ import annotations

import pytest

from assay.errors import MetricError
from assay.metrics import parse
from assay.metrics.peers import hint

#: Realistic typos and near-spellings of peer names, and the hint each must get.
HINTS = {
    "SetRecall": "'set_recall'",
    "Set_R": "'SetR', ir_measures's name for 'R'",
    "ndcg_burge": "'ndcg_burges', ranx's name for \"ndcg(gain='exp')\"",
    "ndcgburges": "'ndcg_burges', ranx's name for \"ndcg(gain='exp')\"",
    "dcgburges": "'dcg_burges', ranx's name for \"dcg(gain='exp')\"",
    "r_prec": "'Rprec'",
    "R-Prec": "'Rprec'",
    "hitrate": "'success'",
    "hit-rate": "'success'",
    "Hits_at": "'hits', ranx's, not an assay measure; the nearest is 'P@k'",
    "alphandcg": "'alpha_ndcg'",
    "ERRIA": "'err_ia'",
    "compat_": "'Compat'",
    "Inst-": "'INST'",
    "nerr_8": "'NERR8'",
    "Precison": "'P'",
    "recal": "'R'",
    "nDGC": "'ndcg'",
    "mean_average_precision": "'AP'",
    "reciprocal-rank": "'RR'",
    "recip_rnak": "'RR'",
    "NumRels": "'num_rel'",
    "Bprefs": "'bpref'",
    "infap2": "'infAP'",
    "succes": "'success'",
    "judge": "'judged'",
    "ndcg_cutt": "'ndcg_cut'",
}


@pytest.mark.parametrize(("typo", "expected"), HINTS.items())
def test_hint(typo: str, expected: str) -> None:
    assert hint(typo) == expected
    with pytest.raises(MetricError, match="did you mean"):
        parse(f"{typo}@5")
    try:
        parse(f"{typo}@5")
    except MetricError as exc:
        assert f"(did you mean {expected}?)" in str(exc)


def test_the_peer_names_that_had_misleading_hints_are_accepted() -> None:
    """``SetR`` was unknown with the hint set_P, ``ndcg_burges`` with ndcg_rel."""
    assert parse("SetR")[0].canonical == "R"
    assert parse("ndcg_burges@10")[0].canonical == "ndcg(gain='exp')@10"
    assert parse("SetP")[0].canonical == "P()"


def test_a_name_that_cannot_be_read_still_gets_a_hint() -> None:
    with pytest.raises(MetricError, match="did you mean 'alpha_ndcg'"):
        parse("alpha-ndcg@20")


def test_other_families_hint_their_own_names() -> None:
    with pytest.raises(MetricError, match=r"did you mean 'f1'\?"):
        parse("f11", family="classification")
    assert hint("SetR", "classification") != "'SetR', ir_measures's name for 'R'"
