"""The bounds of what a user can ask the searches for: one place, checked before any work.

A thread count, a budget or a size comes from a person (the command line, a bot's
options, a record's seat, a web request), and a search started with an absurd one
either never ends (`seconds=inf`, `iterations=2**63`) or takes the machine (a tree per
thread: `threads=1000000`). Every entry checks against these: the command line's
options (gutenberg_ai.interfaces.cli), make_bot and its bots (gutenberg_ai.search.bots), hint, review, the
arena's and the studies' settings, and the compiled search itself (the core's `search`
and `search_config`), so that nothing gets past by another road. The web page's request
models take the same constants.

    MAX_SECONDS      3600     seconds of one search (a move, a hint, a reviewed decision)
    MAX_ITERATIONS   10**9    iterations of one search (hours at the cores' speed)
    MAX_THREADS      64       search threads (one tree each)
    MAX_NODES        50_000_000  nodes of one search tree (max_nodes; the default is 2,000,000)
    MAX_SEARCH_INT   2**31-1  any other whole-number search option (cutoff, plan_candidates, ...)
    MAX_GAMES        100_000  games of an arena's match, a study, a self-play run
    MAX_JOBS         256      processes playing games at once
    MAX_SEED         2**63-1  a seed (the searches take 64-bit seeds, offsets added)

Each check_* returns the value, or raises ValueError naming `what` and the bound.
"""
from __future__ import annotations

import math

MAX_SECONDS = 3600.0
MAX_ITERATIONS = 10**9
MAX_THREADS = 64
MAX_NODES = 50_000_000
MAX_SEARCH_INT = 2**31 - 1
MAX_GAMES = 100_000
MAX_JOBS = 256
MAX_SEED = 2**63 - 1

__all__ = ["MAX_SECONDS", "MAX_ITERATIONS", "MAX_THREADS", "MAX_NODES", "MAX_SEARCH_INT", "MAX_GAMES",
           "MAX_JOBS", "MAX_SEED", "check_seconds", "check_iterations", "check_threads", "every_core", "check_whole", "check_budget", "check_seed"]


def check_whole(value, what: str, lowest: int, highest: int) -> int:
    """`value` if it is a whole number (not a bool) from `lowest` to `highest`."""
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= highest:
        raise ValueError(f"{what}: {_shown(value)} is not a whole number from {lowest} to {highest:,}")
    return value


def check_seconds(value, what: str = "seconds") -> float:
    """`value` as seconds of a search: a finite number more than 0, at most MAX_SECONDS."""
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 < value <= MAX_SECONDS):
        raise ValueError(f"{what}: {_shown(value)} is not a number of seconds more than 0 and at most "
                         f"{MAX_SECONDS:g}")
    return float(value)


def check_iterations(value, what: str = "iterations") -> int:
    return check_whole(value, what, 1, MAX_ITERATIONS)


def check_threads(value, what: str = "threads") -> int:
    return check_whole(value, what, 1, MAX_THREADS)


def every_core() -> int:
    """The threads a search takes when none are asked for (hints): every core of the
    machine, at most MAX_THREADS."""
    import os
    return max(1, min(os.cpu_count() or 1, MAX_THREADS))


def check_seed(value, what: str = "seed") -> int:
    return check_whole(value, what, 0, MAX_SEED)


def check_budget(seconds=None, iterations=None, prefix: str = "") -> tuple:
    """(seconds, iterations), each checked where given (None where not)."""
    return (None if seconds is None else check_seconds(seconds, prefix + "seconds"),
            None if iterations is None else check_iterations(iterations, prefix + "iterations"))


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
