"""assay._parallel: results in input order on any number of threads, errors where their item
is, and ASSAY_THREADS read as documented."""

from __future__ import annotations

import time

import pytest

from assay._parallel import ordered_map, worker_count


def _slow_square(x: int) -> int:
    time.sleep(0.002 * (x % 3))  # later items often finish first
    return x * x


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_results_come_back_in_input_order(workers: int) -> None:
    assert list(ordered_map(_slow_square, range(20), workers=workers)) == [x * x for x in range(20)]


def test_an_error_is_raised_after_the_items_before_it() -> None:
    def fail_at_five(x: int) -> int:
        if x == 5:
            raise ValueError("five")
        return x

    results = ordered_map(fail_at_five, range(10), workers=3)
    assert [next(results) for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="five"):
        next(results)


def test_items_are_drawn_a_few_at_a_time() -> None:
    drawn: list[int] = []

    def items():  # type: ignore[no-untyped-def]
        for i in range(100):
            drawn.append(i)
            yield i

    first = next(iter(ordered_map(lambda x: x, items(), workers=2)))
    assert first == 0 and len(drawn) <= 4


def test_thread_count_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_THREADS", "3")
    assert worker_count() == 3
    for bad in ("0", "-2", "two", ""):
        monkeypatch.setenv("ASSAY_THREADS", bad)
        assert 1 <= worker_count() <= 4
