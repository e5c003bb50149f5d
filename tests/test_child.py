"""Killable child processes: what a solver yields gets through, the deadline is kept."""

from __future__ import annotations

import os
import time

import pytest

from satnono.child import race, stream
from satnono.errors import SatnonoError, SearchTimeout


def _one_then_stall():
    yield 1
    time.sleep(30)
    yield 2


def _broken():
    yield 1
    raise ValueError("boom")


def test_items_stream_through_and_the_deadline_counts_what_was_yielded():
    assert list(stream(iter, ([1, 2, 3],), time.monotonic() + 30, 30)) == [1, 2, 3]
    items = []
    start = time.monotonic()
    with pytest.raises(SearchTimeout) as err:
        for item in stream(_one_then_stall, (), time.monotonic() + 1, 1):
            items.append(item)
    assert items == [1] and err.value.found == 1
    assert time.monotonic() - start < 10  # the stalled child was killed, not waited for


def _pid():
    yield os.getpid()


def test_one_job_without_a_deadline_runs_here_and_anything_else_in_a_child():
    # with nothing to kill at a deadline and nothing to race, no process is forked
    assert list(stream(_pid, (), None, None)) == [os.getpid()]
    assert list(stream(_pid, (), time.monotonic() + 30, 30)) != [os.getpid()]
    (pid,) = race([(_pid, ()), (_pid, ())], None, None)
    assert pid != os.getpid()


def test_an_error_in_the_child_is_reported_after_what_it_yielded():
    got = []
    with pytest.raises(SatnonoError, match="the solver failed: ValueError: boom"):
        for item in stream(_broken, (), time.monotonic() + 30, 30):
            got.append(item)
    assert got == [1]


def _slow(tag):
    time.sleep(30)
    yield tag


def _quick(tag):
    yield tag
    yield tag + "!"


def test_the_first_child_to_yield_wins_the_race_and_the_others_are_killed():
    start = time.monotonic()
    jobs = [(_slow, ("slow",)), (_quick, ("quick",)), (_slow, ("late",))]
    assert list(race(jobs, None, None)) == ["quick", "quick!"]
    assert time.monotonic() - start < 10  # the slow ones were killed, not waited for
    with pytest.raises(SearchTimeout) as err:
        list(race([(_slow, ("a",)), (_slow, ("b",))], time.monotonic() + 1, 1))
    assert err.value.found == 0
