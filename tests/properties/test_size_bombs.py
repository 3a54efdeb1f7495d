"""Size bombs in the suite: a few dozen inputs under a megabyte that claim a huge amount of
work (tests/strategies/bombs.py: gzip, zip and Parquet bombs, lying .npy headers, feature
indices of 10**8, thousands of metric names, classes, columns, raters, clusters, tokens),
each command run in its own process under a 2 GiB address-space limit and a timeout
(tests/support/sandbox.py). Each must finish (exit 0) or be refused in one line (exit 2):
never an internal error, a traceback, an out-of-memory message or a kill. The census over
many more is tests/properties/bomb_census.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategies.bombs import FAMILIES, cases
from support.sandbox import Outcome, run_commands

#: Cases of each family: the whole suite part takes about half a minute of one core.
PER_FAMILY = 2


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Outcome]]:
    root = tmp_path_factory.mktemp("bombs")
    drawn = cases(seed=25, examples=PER_FAMILY * len(FAMILIES), root=root)
    assert all(c.input_bytes < 1 << 20 for c in drawn)
    done = run_commands([c.argv for c in drawn], cwd=root)
    return [(c.family, o) for c, o in zip(drawn, done, strict=True)]


def test_every_family_is_drawn(outcomes: list[tuple[str, Outcome]]) -> None:
    assert {family for family, _ in outcomes} == set(FAMILIES)


@pytest.mark.parametrize("index", range(PER_FAMILY * len(FAMILIES)))
def test_a_bomb_finishes_or_is_refused_in_one_line(
    outcomes: list[tuple[str, Outcome]], index: int
) -> None:
    family, o = outcomes[index]
    where = (family, " ".join(o.argv)[:300], o.stderr[-600:])
    assert o.signal is None, where  # not killed by the timeout
    assert o.code in (0, 2), where
    assert "Traceback" not in o.stderr and "out of memory" not in o.stderr, where
    errors = [line for line in o.stderr.splitlines() if not line.startswith("assay: warning:")]
    if o.code == 2:
        assert len(errors) == 1 and errors[0].startswith("assay: error: "), where
    else:
        assert errors == [], where


def test_the_sandbox_sees_a_command_over_its_memory(tmp_path: Path) -> None:
    """The harness itself: a command runs, and one starved of memory is seen to fail."""
    data = tmp_path / "train.txt"
    data.write_text("".join(f"{i % 2} qid:{i // 4} 1:{i} 2:0.5\n" for i in range(400)))
    fed, starved = (
        run_commands([["ltr", "stats", str(data)], ["ltr", "stats", str(data)]], cwd=tmp_path)[0],
        run_commands([["ltr", "stats", str(data)]], cwd=tmp_path, memory=64 << 20)[0],
    )
    assert fed.code == 0 and fed.stdout_bytes > 0 and fed.max_rss_mb > 0
    assert starved.code != 0 or starved.signal is not None
