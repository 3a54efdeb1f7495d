"""Random SVMlight/LETOR files for the learning-to-rank reader (``from strategies.ltr import
letor_texts``): a few queries of a few lines each, increasing feature indices drawn from a
small range (so that files are 0- or 1-based by chance), values written as integers,
decimals or with exponents, labels as integers or decimals, ragged white space, comment and
blank lines, and ``# docid = ...`` comments."""

from __future__ import annotations

from hypothesis import strategies as st

_SPACE = st.sampled_from([" ", "  ", "\t", " \t "])
_VALUE = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.floats(-1e30, 1e30, allow_nan=False, allow_infinity=False).map(lambda v: f"{v:.6e}"),
    st.decimals(-100, 100, places=4, allow_nan=False, allow_infinity=False).map(str),
)
_LABEL = st.one_of(st.integers(0, 4).map(str), st.sampled_from(["0.5", "2.0", "1e0"]))


@st.composite
def _line(draw: st.DrawFn, qid: int, doc: int) -> str:
    indices = sorted(draw(st.sets(st.integers(0, 12), max_size=6)))
    sep = draw(_SPACE)
    fields = [draw(_LABEL), f"qid:{qid}"] + [f"{i}:{draw(_VALUE)}" for i in indices]
    line = sep.join(fields)
    if draw(st.booleans()):
        line += f"{draw(_SPACE)}# docid = doc{doc} extra"
    return line + draw(st.sampled_from(["", " ", "\t"]))


@st.composite
def letor_texts(draw: st.DrawFn) -> str:
    """The text of a valid LETOR file (queries numbered 1, 2, ... in file order)."""
    lines = []
    doc = 0
    for qid in range(1, draw(st.integers(1, 4)) + 1):
        for _ in range(draw(st.integers(1, 5))):
            doc += 1
            lines.append(draw(_line(qid, doc)))
            if draw(st.integers(0, 9)) == 0:
                lines.append(draw(st.sampled_from(["", "# a comment line", "   "])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
