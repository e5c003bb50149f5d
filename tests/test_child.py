"""Killable child processes: what a solver yields gets through, the deadline is kept."""

from __future__ import annotations

import os
import signal
import time

import pytest

from satnono.errors import ChildDied, SatnonoError, SearchTimeout
from satnono.runtime.child import race, stream
from satnono.runtime.deadline import NO_DEADLINE, Deadline


def _one_then_stall():
    yield 1
    time.sleep(30)
    yield 2


def _broken():
    yield 1
    raise ValueError("boom")


def test_items_stream_through_and_the_deadline_counts_what_was_yielded():
    assert list(stream(iter, ([1, 2, 3],), Deadline.after(30))) == [1, 2, 3]
    items = []
    start = time.monotonic()
    with pytest.raises(SearchTimeout) as err:
        for item in stream(_one_then_stall, (), Deadline.after(1)):
            items.append(item)
    assert items == [1] and err.value.found == 1
    assert time.monotonic() - start < 10  # the stalled child was killed, not waited for


def _pid():
    yield os.getpid()


def test_one_job_without_a_deadline_runs_here_and_anything_else_in_a_child():
    # with nothing to kill at a deadline and nothing to race, no process is forked
    assert list(stream(_pid, (), NO_DEADLINE)) == [os.getpid()]
    assert list(stream(_pid, (), Deadline.after(30))) != [os.getpid()]
    (pid,) = race([(_pid, ()), (_pid, ())], NO_DEADLINE)
    assert pid != os.getpid()


def test_an_error_in_the_child_is_reported_after_what_it_yielded():
    got = []
    with pytest.raises(SatnonoError, match="the solver failed: ValueError: boom"):
        for item in stream(_broken, (), Deadline.after(30)):
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
    assert list(race(jobs, NO_DEADLINE)) == ["quick", "quick!"]
    assert time.monotonic() - start < 10  # the slow ones were killed, not waited for
    with pytest.raises(SearchTimeout) as err:
        list(race([(_slow, ("a",)), (_slow, ("b",))], Deadline.after(1)))
    assert err.value.found == 0


def _bound(tag):
    yield ("bound", tag)  # what a racer knows so far, not an answer
    time.sleep(30)


def _bounds_then(tag, answer):
    yield ("bound", tag + "1")
    yield ("bound", tag + "2")  # replaces the first
    if answer:
        yield answer
    else:
        time.sleep(30)


def _bound_and_done(tag):
    yield ("bound", tag)  # and the racer ends: it is out, its bound kept


def test_a_racers_bound_is_not_an_answer_the_race_goes_on_and_the_timeout_carries_it():
    def is_bound(item):
        return isinstance(item, tuple) and item[0] == "bound"

    assert list(race([(_bound, ("a",)), (_late, ("answer",))], NO_DEADLINE,
                     bound=is_bound)) == ["answer"]
    start = time.monotonic()
    assert list(race([(_bounds_then, ("a", "answer"))], NO_DEADLINE, always=True,
                     bound=is_bound)) == ["answer"]  # an answer after bounds wins
    with pytest.raises(SearchTimeout) as err:  # every racer done: no need to wait
        list(race([(_bound_and_done, ("a",)), (_bound_and_done, ("b",))], Deadline.after(60),
                  bound=is_bound))
    assert sorted(err.value.bounds) == [("bound", "a"), ("bound", "b")]
    assert time.monotonic() - start < 30
    with pytest.raises(SearchTimeout) as err:  # the latest bound of each racer
        list(race([(_bounds_then, ("a", None)), (_bound, ("b",))], Deadline.after(4),
                  bound=is_bound))
    assert sorted(err.value.bounds) == [("bound", "a2"), ("bound", "b")]
    with pytest.raises(SearchTimeout) as err:  # the deadline, a bound said before it
        # (said at once: the deadline leaves a busy machine seconds to fork and send it)
        list(race([(_bound, ("a",)), (_slow, ("b",))], Deadline.after(4), bound=is_bound))
    assert err.value.bounds == (("bound", "a"),) and err.value.found == 0
    with pytest.raises(SearchTimeout) as err:  # alone, in a child
        list(stream(_bound_and_done, ("c",), NO_DEADLINE, always=True, bound=is_bound))
    assert err.value.bounds == (("bound", "c"),)


def _die(signum=signal.SIGKILL):
    os.kill(os.getpid(), signum)
    yield "never"


def _yield_then_die(tag):
    yield tag
    os.kill(os.getpid(), signal.SIGKILL)
    yield "never"


def _late(tag):
    time.sleep(0.5)
    yield tag


def _oom_score_adj():
    with open("/proc/self/oom_score_adj") as f:
        yield int(f.read())


def test_a_racer_that_dies_before_yielding_drops_out_and_the_others_go_on():
    assert list(race([(_die, ()), (_late, ("alive",))], NO_DEADLINE)) == ["alive"]


def test_when_every_racer_dies_the_error_says_how_and_what_they_held():
    with pytest.raises(ChildDied, match=r"all 2 SAT solver processes ended; the first was "
                       r"killed \(SIGKILL: by the system when memory ran out, or by "
                       r"another process\) \(7 clauses\)"):
        list(race([(_die, ()), (_die, ())], NO_DEADLINE, what="SAT solver", size="7 clauses"))
    with pytest.raises(ChildDied, match=r"^the model counter process was killed by SIGTERM$"):
        list(stream(_die, (signal.SIGTERM,), Deadline.after(30), what="model counter"))


def test_a_winner_that_dies_midway_is_an_error_after_what_it_yielded():
    got = []
    with pytest.raises(ChildDied, match="the solver process was killed"):
        for item in stream(_yield_then_die, ("first",), Deadline.after(30)):
            got.append(item)
    assert got == ["first"]


@pytest.mark.skipif(not os.path.exists("/proc/self/oom_score_adj"), reason="Linux only")
def test_children_are_the_first_the_kernel_kills_when_memory_runs_out():
    # so that the parent survives to report it
    assert list(stream(_oom_score_adj, (), Deadline.after(30))) == [1000]


def _pid_then_stall(path):
    with open(path, "w") as fh:
        fh.write(str(os.getpid()))
    time.sleep(30)
    yield 1


def test_a_race_stopped_from_outside_ends_with_nothing_and_kills_its_child(tmp_path):
    path = tmp_path / "pid"
    start = time.monotonic()
    asked = []

    def stopped():
        asked.append(1)
        return time.monotonic() - start > 0.5

    assert list(stream(_pid_then_stall, (str(path),), NO_DEADLINE, always=True,
                       stopped=stopped)) == []
    assert time.monotonic() - start < 5 and len(asked) >= 2
    pid = int(path.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
