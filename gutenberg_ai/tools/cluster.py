"""Games on Ray: the arena, the studies and any bulk self-play past one machine.

    gutenberg-ai arena --bots smmcts,heuristic --games 100 --iterations 500 --out r/ --ray
    gutenberg-ai arena ... --ray ray://head-node:10001       (or HOST:6379: an existing cluster)

Ray is an optional extra (`pip install -e ".[ray]"`); the local process pool stays the
default. `--ray` alone starts a Ray cluster on this machine (its workers: --jobs);
`--ray ADDRESS` joins an existing cluster (docs/cluster.md).

What stays as with the pool. The schedule (arena.schedule, the studies' schedules) is the
same, and a game depends on nothing but its task (the seeds, the bots, the budget), so
the same tasks give the same records on Ray as in the pool (with an iteration budget:
on any machine). The driver, this process, keeps OUT: it examines the records already
there (a record counts only if it is the scheduled game and replays to its result),
claims each missing game (arena.take_claim) and sends it to the cluster; a worker plays
the game and sends its record back; the driver writes it (atomically) as it arrives and
releases the claim. So the workers need no shared disk, and:

- an interrupted run (Ctrl-C, the driver killed) keeps every game written so far, and the
  same command again plays only the rest (the dead driver's claims are taken over);
- a lost worker or node loses no finished game: Ray runs its unfinished games again
  elsewhere (a task is retried up to MAX_RETRIES times on a system failure: the same
  task, so the same game).

This module starts or joins the cluster (`connect`); the arena sends it the games
(arena.run_tasks_on_ray), the studies through the arena.
"""
from __future__ import annotations

import os
import sys

from gutenberg_ai.common.extras import extra

MAX_RETRIES = 3


class ClusterError(ValueError):
    """Ray is missing or the cluster cannot be reached."""


def _ray():
    return extra("ray", ClusterError, "--ray: Ray is not installed; install the extra: pip install -e '.[ray]' "
                                      "(or pip install 'gutenberg-ai[ray]')")


def check_installed() -> None:
    """ClusterError unless Ray can be imported: asked before a run writes anything."""
    _ray()


def connect(address: str, jobs: int):
    """Start (address "local": on this machine, `jobs` CPUs) or join a Ray cluster;
    (ray, whether this call started it). One already started in this process is used."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    # A bot of your own (module:factory) is imported by the workers: on this machine they
    # see the driver's path (its working folder first); on a cluster the module must be
    # installed on every node (docs/cluster.md).
    path = os.pathsep.join(p for p in [os.getcwd(), *sys.path] if p)
    env = {"env_vars": {"PYTHONPATH": path}}
    try:
        if address == "local":
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False,
                     runtime_env=env, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as e:     # Ray's own errors are many and not one class
        raise ClusterError(f"--ray {address}: cannot start or join the cluster: {type(e).__name__}: "
                           f"{str(e).splitlines()[0] if str(e) else ''}") from None
    return ray, True
