"""Tag sequences for the tagging family: well-formed sentences of a scheme (written from
random spans), the same with random tags swapped in (malformed), and wholly random tags; a
gold side and a prediction that shares most of it."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

SCHEMES = ("iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io")
#: Prefixes of each scheme besides O.
PREFIXES = {
    "iob1": "BI",
    "iob2": "BI",
    "ioe1": "IE",
    "ioe2": "IE",
    "bioes": "BIES",
    "bilou": "BILU",
    "io": "I",
}
TYPES = ("PER", "LOC", "X-Y")


def write(spans: list[tuple[int, int, str]], n: int, scheme: str) -> list[str]:
    """The tags of non-overlapping spans (start, length, type) in a sentence of n tokens."""
    tags = ["O"] * n
    ends: dict[int, str] = {}
    for start, length, kind in spans:
        last = start + length - 1
        single = "U" if scheme == "bilou" else "S"
        final = "L" if scheme == "bilou" else "E"
        for i in range(start, last + 1):
            tags[i] = f"I-{kind}"
        if scheme in ("iob2", "bioes", "bilou"):
            tags[start] = f"B-{kind}"
        if scheme in ("ioe2", "bioes", "bilou") and (scheme == "ioe2" or length > 1):
            tags[last] = f"{'E' if scheme == 'ioe2' else final}-{kind}"
        if scheme in ("bioes", "bilou") and length == 1:
            tags[start] = f"{single}-{kind}"
        if scheme == "iob1" and ends.get(start - 1) == kind:
            tags[start] = f"B-{kind}"
        ends[last] = kind
    if scheme == "ioe1":  # E only where the next token starts a chunk of the same type
        starts = {s: k for s, _, k in spans}
        for s, length, kind in spans:
            if starts.get(s + length) == kind:
                tags[s + length - 1] = f"E-{kind}"
    return tags


@st.composite
def well_formed(draw: Any, scheme: str, n: int) -> list[str]:
    plan = draw(
        st.lists(st.tuples(st.integers(0, 4), st.sampled_from(TYPES)), min_size=n, max_size=n)
    )
    spans, i = [], 0
    for length, kind in plan:  # a span of that length starts here, or (0) a token is O
        if i >= n:
            break
        if length:
            length = min(length, n - i)
            spans.append((i, length, kind))
            i += length
        else:
            i += 1
    return write(spans, n, scheme)


def any_tag(scheme: str) -> st.SearchStrategy[str]:
    """O or any prefix of the scheme with any type."""
    prefixed = st.tuples(st.sampled_from(PREFIXES[scheme]), st.sampled_from(TYPES))
    return st.just("O") | prefixed.map(lambda pt: f"{pt[0]}-{pt[1]}")


@st.composite
def sentence(draw: Any, scheme: str, n: int) -> list[str]:
    """Well formed, lightly corrupted, or random."""
    style = draw(st.sampled_from(["well", "corrupt", "random"]))
    if style == "random":
        return draw(st.lists(any_tag(scheme), min_size=n, max_size=n))
    tags = draw(well_formed(scheme, n))
    if style == "corrupt" and n:
        swaps = draw(
            st.lists(st.tuples(st.integers(0, n - 1), any_tag(scheme)), min_size=1, max_size=3)
        )
        for i, tag in swaps:
            tags[i] = tag
    return tags


@st.composite
def prediction(draw: Any, scheme: str, gold: list[str]) -> list[str]:
    """Mostly the gold tags, some replaced (or a sentence of its own)."""
    if draw(st.integers(0, 4)) == 0:
        return draw(sentence(scheme, len(gold)))
    n = len(gold)
    swaps = draw(
        st.lists(st.tuples(st.integers(0, max(n - 1, 0)), any_tag(scheme)), max_size=n // 4 + 1)
    )
    tags = list(gold)
    for i, tag in swaps:
        if i < n:
            tags[i] = tag
    return tags


@st.composite
def corpora(
    draw: Any, scheme: str | None = None, max_sentences: int = 6, max_len: int = 12
) -> tuple[str, list[list[str]], list[list[str]]]:
    """(scheme, gold sentences, predicted sentences) with at least one token."""
    scheme = scheme or draw(st.sampled_from(SCHEMES))
    lengths = draw(st.lists(st.integers(0, max_len), min_size=1, max_size=max_sentences))
    if sum(lengths) == 0:
        lengths[0] = 1
    gold = [draw(sentence(scheme, n)) for n in lengths]
    pred = [draw(prediction(scheme, g)) for g in gold]
    return scheme, gold, pred
