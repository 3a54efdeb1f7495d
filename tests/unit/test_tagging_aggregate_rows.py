"""The rows of a tagging report over all entity types are marked by ``aggregate``, not by a
type name: an entity type called ``all`` (B-all, I-all) stays a type (issue 25)."""

from __future__ import annotations

from assay import tagging as T

GOLD = [["B-all", "I-all", "O", "B-PER"], ["B-PER", "O"]]
PRED = [["B-all", "I-all", "O", "O"], ["B-PER", "O"]]


def test_type_all_is_not_the_overall_row() -> None:
    rows = T.tagging_report(GOLD, PRED).records()
    for r in rows:
        assert (r["type"] is None) == (r["aggregate"] is not None), r
    strict = [r for r in rows if r["match"] == "strict" and r["measure"] == "f1"]
    assert sorted((str(r["type"]), str(r["aggregate"])) for r in strict) == [
        ("None", "overall"),
        ("PER", "None"),
        ("all", "None"),
    ]
    span_f1 = {
        (r["type"], r["aggregate"]): r["value"]
        for r in rows
        if r["match"] == "span" and r["measure"] == "f1"
    }
    assert span_f1[("all", None)] == 1.0  # the type 'all' is found exactly
    assert set(span_f1) == {
        ("all", None),
        ("PER", None),
        (None, "micro"),
        (None, "macro"),
        (None, "weighted"),
    }
    token = [r for r in rows if r["match"] == "token"]
    assert token and all(r["type"] is None and r["aggregate"] == "overall" for r in token)
