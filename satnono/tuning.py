"""The measured numbers, one record: every number satnono's choices rest on that was
chosen by measuring, each field's docstring saying how (the history, with the sets, the
alternatives and the times, is in benchmarks/results/NOTES.md).

It sits below every stage that reads it, so that each takes a :class:`Tuning` as an
argument (the defaults, :data:`TUNING`, unless given) and none keeps a number of its own:
a caller that wants other numbers — an experiment, a test — passes its own record to
:func:`satnono.solve`, :func:`satnono.count` or a stage, and nothing reads or patches a
module global.

>>> Tuning(restarts=0).restarts, TUNING.restarts
(0, 300)
"""

from __future__ import annotations

from dataclasses import dataclass

from .model.verdict import LineCode


@dataclass(frozen=True)
class Tuning:
    """The measured numbers.

    **The sat backend.** ``budget``: the work (cells of the lines the compiled search
    solves; 200 million is about half a second on a 25×25) the compiled search may spend
    in black and white before the CNF stage takes over: chosen on tcga2015, taai2011 and
    icga2023, each puzzle with every budget in turn. ``colour_budget``: the same in
    colour. ``large_budget``: the same where Kissat follows (past ``kissat_cells``): the
    40×40s spent the whole of a larger one before they were handed over.
    ``kissat_cells``: open choices past which Kissat looks for the first solution; on
    fewer, starting a program and loading the CNF twice costs more than it saves.
    ``neighbour_after``: the work the compiled search looks on for a second solution
    before a 2×2 swap of the first is tried. ``code``: how the CNF stage gets the lines
    (the order encoding takes CaDiCaL to a first solution in half the automaton's time on
    what the compiled search hands over).

    **Belief propagation.** ``inform_rounds``: passes over the probed root (until no
    message moves by 0.001) that set the value the compiled search tries first at each
    cell, looking for one or two solutions (0: none); tournament sets take two thirds of
    the time with 20 to 50, more cost more than they save. ``bp_rounds``,
    ``bp_tolerance``: the SAT solver's first values, run to the tolerance, at most that
    many passes (0: none); Knotty's messages settle in 142 passes, and from 25 on its first
    solution takes 1,044 conflicts or none, against 14,410 after 20. With 30, the SAT
    stage takes the search's own beliefs (the same root) instead of computing them again:
    Knotty in its eight orientations 0.33–0.54 s against 0.38–0.63 s with 200 passes,
    colour-large's 128×96s 0.9 against 2.8 s. ``colour_phases``: whether colour puzzles
    get first values at all: on ``colour-random`` and ``colour-large`` (39 puzzles) no
    puzzle gained and the large ones lost (128×96 at density 0.65: 0.8–1.0 s against
    0.4–0.5 s; a colour line's marginals cost a value per colour, where its search is
    fast), so not.

    **The engine's search.** ``restarts``: looking for one or two solutions the search
    starts again from the root after this many nodes times the next term of Luby's
    sequence, from the third run on its branching shaken by ``noise`` (each score times 1
    + noise × a random number): 300 as in nonosolve, chosen on tcga2015 against 100, 500
    and 1,000. ``line_cache``: entries of its cache of line solves (a power of two).
    ``slice_work``, ``colour_slice_work``: work between two looks at the clock (a few
    milliseconds), in black and white's and colour's units. ``implications``: at most this
    many of probing's implications go to the SAT solver as clauses (Gettys, 99×59, has
    96,560). ``colour_implications``: whether colour CNFs get them too: on
    ``colour-random``'s three slowest 60×60s CaDiCaL took 7.1, 10.3 and 4.6 s with them
    against 6.3, 7.4 and 3.2 s without (the clauses, 15 % more, cost more to load and
    propagate than they save), so not.

    **Counting.** ``count_cache``: entries of the compiled counter's memory of parts
    (a power of two: 24 MB). ``probe_parts``: parts of fewer open cells only propagate
    before they branch (tcga2015 #400 and #469: 0.8 and 7.7 s against 1.1 and 9.9 s
    probing every part). ``threshold``: auto enumerates up to this many solutions, then
    races the counters. ``listed_at_most``: auto's enumerating racer gives up past this
    many (each costs a blocking clause; the counters count such numbers in seconds).
    ``d4_race_cores``: from this many cores, auto's race takes D4 in as a fourth racer (on
    tcga2015's 24 hardest counts D4 beat Ganak on 21, and alone finished #523, 3.6 s; on
    the survey's Center it did not finish in 120 s where Ganak took 1.6 s; on fewer cores
    a fourth process slows the three that usually win). ``counter_alone``: seconds the
    compiled counter races alone before Ganak and enumeration join it: on 30 puzzles past
    1,000 solutions drawn from the three count tables, each racer alone
    (``benchmarks.count_race``), the counter was the fastest on all 22 that any racer
    finished in 30 s, 21 of them within 5 s of CPU (tcga2015's confirmations: three
    quarters of its counts past 1,000 within 2.7 s), where a race of three on two cores
    gives it two thirds of a core and spends twice its time on the losers; a count that
    Ganak wins (the survey's Center in 1.6 s, tcga2015 #452 and #482 in 35–50 s) waits
    5 s longer.
    ``parts_per_worker``: parts per process of a split count. ``counter_code``: how Ganak
    and D4 get the lines (the order encoding: the survey's Center 2.8 → 1.2 s, tcga2015
    #524 71 → 52 s). ``exact_first``, ``approx_share``: an estimate waits this many
    seconds for an exact count; auto with a time limit keeps this share of it for
    ApproxMC.

    **CaDiCaL.** ``cadical``: its settings in every search (its own "sat" configuration:
    stay in stable mode, which suits satisfiable instances — nonograms given to the
    solver almost always have solutions, and the hardest tournament puzzles are several
    times faster so; the effort options carry CaDiCaL 1.9.5's names, and pysat passes a
    wrong one on without a word). ``cadical_focused``: a racing worker's other kind of
    search, its focused mode.

    **Logic in Python and encoding.** ``parallel_min_unknown``: probing in Python shares
    the work between processes from this many open cells (fewer cost more to fork than
    they save). ``check_every``: clauses between two looks at the memory left while a
    CNF is built.
    """

    budget: int = 200_000_000
    colour_budget: int = 100_000_000
    large_budget: int = 25_000_000
    kissat_cells: int = 1024
    neighbour_after: int = 2_000_000
    code: LineCode = LineCode.ORDER
    inform_rounds: int = 30
    bp_rounds: int = 30
    bp_tolerance: float = 1e-4
    colour_phases: bool = False
    restarts: int = 300
    noise: float = 0.5
    line_cache: int = 1 << 16
    slice_work: int = 250_000
    colour_slice_work: int = 250_000
    implications: int = 1 << 22
    colour_implications: bool = False
    count_cache: int = 1 << 20
    probe_parts: int = 12
    threshold: int = 1000
    listed_at_most: int = 100_000
    d4_race_cores: int = 4
    counter_alone: float = 5.0
    parts_per_worker: int = 8
    counter_code: LineCode = LineCode.ORDER
    exact_first: float = 5.0
    approx_share: float = 0.25
    cadical: tuple[tuple[str, int], ...] = (("stabilizeonly", 1), ("elimreleff", 10),
                                            ("subsumereleff", 60))
    cadical_focused: tuple[tuple[str, int], ...] = (("stabilizeonly", 0), ("stabilize", 0))
    parallel_min_unknown: int = 300
    check_every: int = 100_000


#: the numbers every run uses unless given others
TUNING = Tuning()
