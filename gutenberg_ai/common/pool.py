"""Independent, seeded jobs run in this process or in a pool of spawned processes.

The arena's games, a suite's games and references and a benchmark's games are each a
module-level function called with its arguments, writing or returning its own result:
what it gives does not depend on how many ran at once, so one runner serves them all.

    >>> from gutenberg_ai.common.pool import run_each
    >>> run_each(pow, [(2, 3), (3, 2)], processes=1)
    [8, 9]
"""
from __future__ import annotations

import multiprocessing
import signal
from typing import Any, Callable, Sequence


def _ignore_interrupt() -> None:
    # Ctrl-C is the parent's to handle (leaving the pool ends the workers); a worker would
    # only print a traceback. A job cut short leaves no file: files are written atomically.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(job: tuple) -> Any:
    fn, args = job
    return fn(*args)


def run_each(fn: Callable, jobs: Sequence[tuple], processes: int = 1,
             finished: Callable[[Any], None] | None = None) -> list:
    """`fn(*args)` for each `args` of `jobs`: in their order in this process (`processes`
    at most 1, or a single job), else in `processes` spawned processes (spawn, not fork:
    the parent may run a progress thread, and a fork copies its locks). `finished(result)`
    as each ends. Returns the results in the order they ended; an exception of a job is
    raised here, and the pool's processes end with it."""
    results: list = []

    def ended(result: Any) -> None:
        results.append(result)
        if finished is not None:
            finished(result)

    if processes <= 1 or len(jobs) <= 1:
        for args in jobs:
            ended(fn(*args))
        return results
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(processes, len(jobs)), initializer=_ignore_interrupt) as pool:
        for result in pool.imap_unordered(_call, [(fn, tuple(args)) for args in jobs]):
            ended(result)
    return results
