"""Run a generator in a forked process that is killed at a deadline.

SAT solvers and model counters inside pysat and pyganak cannot be interrupted in the middle
of one call, so a time limit is only honest if the work runs where it can be killed.
Items cross back through a pipe as soon as they are made, so nothing found is lost. With
one job and no deadline there is nothing to kill, and the generator runs in this process.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ChildDied, SearchTimeout, SolverFailed
from .deadline import Deadline

if TYPE_CHECKING:  # multiprocessing is imported when a child is started, not before
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

_END = "__end__"


def cores() -> int:
    """The processors this process may run on: work split between more processes than
    that only adds the cost of starting them."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class CpuSample:
    """How much processor time the whole machine (``busy``, all processors, from
    ``/proc/stat``) and this process (``own``) had spent at ``when`` (seconds each): two
    samples tell what other work used between them."""

    when: float
    busy: float
    own: float

    @classmethod
    def now(cls) -> CpuSample | None:
        """A sample, or None where the kernel does not say (not Linux)."""
        try:
            with open("/proc/stat") as f:
                fields = f.readline().split()
        except OSError:  # pragma: no cover - not on Linux
            return None
        if not fields or fields[0] != "cpu":  # pragma: no cover
            return None
        ticks = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal
        busy = sum(ticks) - ticks[3] - ticks[4]
        own = os.times()
        return cls(time.monotonic(), busy / os.sysconf("SC_CLK_TCK"), own.user + own.system)


#: the shortest time between two samples that says how busy the machine is (the kernel
#: counts in hundredths of a second)
SAMPLE_SPAN = 0.2


def free_cores(since: CpuSample | None = None) -> int:
    """The processors this process may run on less those other work keeps busy: how many
    searches a hard puzzle may race without taking a core another program is using.
    Other work is measured over the time since ``since`` (the processors' busy time less
    this process's own; at least :data:`SAMPLE_SPAN`, waited for when less has passed),
    else by the machine's load over the last minute, which counts this process's own
    recent work too (a solve just before this one). At least one.

    >>> 1 <= free_cores() <= cores()
    True
    """
    now = CpuSample.now() if since is not None else None
    if since is not None and now is not None:
        if now.when - since.when < SAMPLE_SPAN:
            time.sleep(SAMPLE_SPAN - (now.when - since.when))
            now = CpuSample.now() or now
        others = (now.busy - since.busy) - (now.own - since.own)
        busy = max(0.0, others / (now.when - since.when))
    else:
        try:
            busy = os.getloadavg()[0]
        except OSError:  # pragma: no cover - no load average here
            busy = 0.0
    return max(1, cores() - int(busy + 0.5))


def tie_to_parent(parent: int) -> None:
    """What every child process does first, so that it never outlives its purpose:

    * it dies with its parent, whatever ends the parent (SIGKILL included: the kernel's
      parent-death signal, ``prctl(PR_SET_PDEATHSIG)``), and at once if the parent is
      already gone;
    * it leaves Ctrl-C and SIGTERM to the parent, which stops its children and reports
      what was found;
    * it is the one the kernel kills first when memory runs out, so that the parent lives
      to say what happened instead of vanishing with it.

    Each step needs no privilege; where one cannot be done (not Linux), it is skipped.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)  # held while it was forked
    libc = _libc()
    if libc is not None:
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:  # pragma: no cover - not Linux, or no /proc
        pass


def _libc() -> Any:
    """The C library, for prctl (None where ctypes cannot load it)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return None


def dies_with_this_process() -> Callable[[], None]:
    """A ``preexec_fn`` for every program satnono starts (Kissat, a benchmark's peer): the
    program is killed when the process that started it ends, whatever ends it (a time
    limit's SIGKILL, Ctrl-C, ``kill -9``), and at once if that process is already gone.
    Without it such a program, started with Ctrl-C ignored like the child that runs it,
    outlived satnono and went on using a core for minutes. The kernel's parent-death
    signal is tied to the thread that starts the program, which waits for it."""
    parent = os.getpid()
    libc = _libc()  # loaded here: the new process only calls it

    def preexec() -> None:
        if libc is not None:
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)

    return preexec


#: the signals held back while a child is forked (:func:`held`)
HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back in this thread while a child is started and recorded:
    the child begins with them blocked until :func:`tie_to_parent` has set it up (a Ctrl-C to the
    whole process group once reached a child inside Python's at-fork handlers, which
    printed a traceback), and this thread gets a held signal once the child is on record,
    so that it is stopped with the others."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def fork(target: Callable[..., None], args: tuple[Any, ...],
         keep: Callable[[BaseProcess, Connection], object], *, duplex: bool = False,
         daemon: bool = True) -> None:
    """Start a child process running ``target(conn, parent_pid, *args)`` (a target that
    begins with :func:`tie_to_parent`), and hand it and this end of its pipe to ``keep`` while
    Ctrl-C and SIGTERM are :func:`held`: no signal finds a child started and not yet on
    record, where nothing would stop it. Every place that forks goes through here."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    mine, theirs = ctx.Pipe(duplex=duplex)
    proc = ctx.Process(target=target, args=(theirs, os.getpid(), *args), daemon=daemon)
    try:
        with held():
            proc.start()
            keep(proc, mine)
    except BaseException:
        mine.close()
        raise
    finally:
        theirs.close()


def allow_children() -> None:
    """Let this process start processes of its own even when it runs as a daemon (Dask
    starts its workers so, and Python refuses a daemon children): the processes satnono
    starts are killed by their parent at their time limit and die with it (:func:`tie_to_parent`),
    which is what the rule guards against."""
    import multiprocessing as mp

    config = getattr(mp.current_process(), "_config", None)
    if isinstance(config, dict) and config.get("daemon"):
        config["daemon"] = False


def death(proc: BaseProcess) -> str:
    """How a child that closed its pipe without a word ended, for an error message."""
    proc.join(5)
    code = proc.exitcode
    if code is None:
        return "stopped answering"
    if code == -signal.SIGKILL:
        return ("was killed (SIGKILL: by the system when memory ran out, or by another "
                "process)")
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"ended with exit status {code}"


Job = tuple[Callable[..., Iterator[Any]], tuple[Any, ...]]
"""A generator function and its arguments, to run in a child."""


def _child(conn: Connection, parent: int, fn: Callable[..., Iterator[Any]],
           args: tuple[Any, ...]) -> None:
    tie_to_parent(parent)
    try:
        for item in fn(*args):
            conn.send(item)
        conn.send(_END)
    except SearchTimeout:  # the child's own clock ran out first: the parent's answer
        conn.send(("__timeout__", ""))
    except BaseException as exc:  # pragma: no cover - reported to the parent
        conn.send(("__error__", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def stream(fn: Callable[..., Iterator[Any]], args: tuple[Any, ...], deadline: Deadline,
           what: str = "solver", size: str = "", always: bool = False,
           stopped: Callable[[], bool] | None = None,
           bound: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Yield what ``fn(*args)`` yields, computed in a child when there is a deadline (or
    ``always``: for a solver that cannot be stopped otherwise); SearchTimeout at
    ``deadline`` (its ``found`` is the number of items yielded before it); ``stopped`` and
    ``bound`` as for :func:`race`."""
    return race([(fn, args)], deadline, what, size, always, stopped, bound)


#: seconds between two looks at a race's ``stopped``
STOP_POLL = 0.1


def race(jobs: list[Job], deadline: Deadline, what: str = "solver", size: str = "",
         always: bool = False, stopped: Callable[[], bool] | None = None,
         bound: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Start every job's generator in its own child; the first child to yield goes on
    alone and the others are killed. One job with no deadline runs in this process unless
    ``always`` (for work in C that no signal interrupts: only a child can be stopped). For
    jobs that yield the same items by different searches (a portfolio), this takes the
    luckiest search on each input: what one
    search gains on one puzzle another often loses on the next. A child that dies before
    yielding drops out of the race; ChildDied when none is left, or when the winner dies
    (``size``, what the children were given, is added to its message). ``stopped``, looked
    at every :data:`STOP_POLL` seconds until a child yields, ends the race from outside
    (a request cancelled, a racer on another machine that won): the children are killed
    and nothing is yielded. An item for which ``bound`` is true is not an answer but what
    a racer knows so far (a counter's lower bound): the racer races on and may say more
    (a later bound replaces its earlier one, an answer wins as any other), and the
    SearchTimeout at the deadline, or when every racer is done, carries each racer's
    latest bound in its ``bounds``."""
    if len(jobs) == 1 and not deadline.limited and not always and stopped is None \
            and bound is None:
        # nothing to race or kill
        fn, args = jobs[0]
        yield from fn(*args)
        return
    from multiprocessing.connection import wait

    procs: list[BaseProcess] = []
    conns: list[Connection] = []

    def keep(proc: BaseProcess, conn: Connection) -> None:
        procs.append(proc)
        conns.append(conn)

    try:
        for fn, args in jobs:
            fork(_child, (fn, args), keep)
        pending = dict(zip(conns, procs))
        winner: Connection | None = None
        item: Any = None
        died: list[str] = []
        bounds: dict[Connection, Any] = {}  # each racer's latest bound

        def out_of_time() -> SearchTimeout:
            error = deadline.expired()
            error.bounds = tuple(bounds.values())
            return error

        while winner is None:  # a racer that dies before yielding leaves the others be
            left = deadline.remaining()
            if stopped is not None:
                left = STOP_POLL if left is None else min(left, STOP_POLL)
            ready = wait(list(pending), left)
            if not ready:
                if stopped is not None and stopped():
                    return
                if deadline.remaining() == 0:
                    raise out_of_time()
                continue
            for ready_conn in ready:
                conn = pending_conn(pending, ready_conn)
                try:
                    item = conn.recv()
                except EOFError:
                    died.append(death(pending.pop(conn)))
                    if not pending:
                        if bounds:
                            raise out_of_time() from None
                        raise ChildDied(_died(what, died, size)) from None
                    continue
                if bound is not None and bound(item):
                    bounds[conn] = item  # what that racer knows so far: it races on
                    continue
                if conn in bounds and item == _END:  # it said bounds only, and is done
                    pending.pop(conn)
                    if not pending:
                        raise out_of_time()
                    continue
                winner = conn
                break
        for racer, racer_conn in zip(procs, conns):
            if racer_conn is not winner and racer.is_alive():
                racer.kill()
        found = 0
        while True:
            if item == _END:
                return
            if isinstance(item, tuple) and len(item) == 2 and item[0] == "__timeout__":
                raise deadline.expired(found)
            if isinstance(item, tuple) and len(item) == 2 and item[0] == "__error__":
                raise SolverFailed(f"the {what} failed: {item[1]}")
            found += 1
            yield item
            if deadline.limited:
                left = deadline.remaining()
                if not left or not winner.poll(left):
                    raise deadline.expired(found)
            try:
                item = winner.recv()
            except EOFError:
                raise ChildDied(_died(what, [death(pending[winner])], size)) from None
    finally:
        stop(procs, conns)


def pending_conn(pending: dict[Connection, BaseProcess], ready: object) -> Connection:
    """The connection ``wait`` says is ready, as the pipe it is (``wait`` types its
    answers as any waitable)."""
    for conn in pending:
        if conn is ready:
            return conn
    raise AssertionError("wait() returned a connection it was not given")  # pragma: no cover


def _died(what: str, reasons: list[str], size: str) -> str:
    if len(reasons) == 1:
        message = f"the {what} process {reasons[0]}"
    else:
        message = f"all {len(reasons)} {what} processes ended; the first {reasons[0]}"
    return f"{message} ({size})" if size else message


def stop(procs: Sequence[BaseProcess], conns: Sequence[Connection]) -> None:
    """Kill the children still running (a search nobody waits for any more), reap them
    all and close their pipes."""
    for proc in procs:
        if proc.is_alive():
            proc.kill()
        proc.join()
    for conn in conns:
        conn.close()
