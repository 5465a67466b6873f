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


class PoolError(RuntimeError):
    """A worker process ended without finishing its job."""


def run_each(fn: Callable, jobs: Sequence[tuple], processes: int = 1,
             finished: Callable[[Any], None] | None = None) -> list:
    """`fn(*args)` for each `args` of `jobs`: in their order in this process (`processes`
    at most 1, or a single job), else in `processes` spawned processes (spawn, not fork:
    the parent may run a progress thread, and a fork copies its locks). `finished(result)`
    as each ends. Returns the results in the order they ended; an exception of a job is
    raised here, and the pool's processes end with it. A worker that dies (killed, or a
    script without `if __name__ == "__main__":`, which every spawned process runs again)
    is PoolError, not a pool waiting for it forever."""
    results: list = []

    def ended(result: Any) -> None:
        results.append(result)
        if finished is not None:
            finished(result)

    if processes <= 1 or len(jobs) <= 1:
        for args in jobs:
            ended(fn(*args))
        return results
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(min(processes, len(jobs)), mp_context=context, initializer=_ignore_interrupt)
    try:
        pending = {pool.submit(fn, *args) for args in jobs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                ended(future.result())
    except BrokenProcessPool:
        _end(pool)
        raise PoolError("a worker process ended before its job did (killed, or out of memory; a script "
                        "that runs jobs in processes must start them under `if __name__ == \"__main__\":`, "
                        "which the processes it spawns do not run)") from None
    except BaseException:
        _end(pool)      # Ctrl-C, or a job's exception: the others are not waited for
        raise
    pool.shutdown(wait=True)
    return results


def _end(pool) -> None:
    """The pool's processes ended now, not after their jobs (a game can take minutes)."""
    terminate = getattr(pool, "terminate_workers", None)     # Python 3.14
    if terminate is not None:
        terminate()
    else:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
