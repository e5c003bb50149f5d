"""Killable child processes: one generator streamed, or several raced."""

from __future__ import annotations

import time

import pytest

from satnono.child import race, stream
from satnono.errors import SatnonoError, SearchTimeout


def _after(delay: float, items: list):
    time.sleep(delay)
    yield from items


def _one_then_stall():
    yield 1
    time.sleep(30)
    yield 2


def _broken():
    yield 1
    raise ValueError("boom")


def test_the_first_job_to_answer_wins_and_the_others_are_killed():
    start = time.monotonic()
    got = list(race([(_after, (30, ["slow"])), (_after, (0.1, ["fast", "still fast"]))],
                    None, 0))
    assert got == ["fast", "still fast"]
    assert time.monotonic() - start < 10  # the slow job was not waited for


def test_a_job_that_ends_with_nothing_also_wins():
    assert list(race([(_after, (30, ["slow"])), (_after, (0, []))], None, 0)) == []


def test_the_deadline_stops_a_race_and_counts_what_was_yielded():
    items = []
    with pytest.raises(SearchTimeout) as err:
        for item in race([(_after, (30, [1])), (_after, (30, [2]))],
                         time.monotonic() + 0.5, 0.5):
            items.append(item)
    assert items == [] and err.value.found == 0
    with pytest.raises(SearchTimeout) as err:
        for item in stream(_one_then_stall, (), time.monotonic() + 1, 1):
            items.append(item)
    assert items == [1] and err.value.found == 1


def test_an_error_in_the_child_is_reported_after_what_it_yielded():
    got = []
    with pytest.raises(SatnonoError, match="the solver failed: ValueError: boom"):
        for item in race([(_broken, ())], None, 0):
            got.append(item)
    assert got == [1]
