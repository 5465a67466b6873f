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
"""
from __future__ import annotations

import os
import sys

MAX_RETRIES = 3


class ClusterError(ValueError):
    """Ray is missing or the cluster cannot be reached."""


def _ray():
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray: Ray is not installed; install the extra: pip install -e '.[ray]' "
                           "(or pip install 'gutenberg-ai[ray]')") from None
    return ray


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


def _play(task: dict) -> dict:
    """On a worker: play the task's game and return its record (data)."""
    import gutenberg_ai  # noqa: F401  (registers the games in the worker)
    from gutenberg_ai.arena import play_record
    return play_record(task)


def run_tasks(tasks: list, out: str, address: str, jobs: int, finished):
    """Run scheduled games on Ray; `finished(outcome)` for each (arena.run_task's outcome
    dicts). Records found in `out` count without being played; the rest are claimed,
    played on the cluster, written here as they arrive."""
    from gutenberg_ai.arena import CLAIM_SUFFIX, examine, release_claim, summary_of_task, take_claim
    from gutenberg_ai.records import write_json
    ray, started = connect(address, jobs)
    remote = ray.remote(max_retries=MAX_RETRIES, num_cpus=1)(_play)
    pending = {}     # object ref -> (task, claim, reason)
    try:
        for task in tasks:
            path = os.path.join(out, task["path"])
            found, reason = examine(path, task)
            if found is not None:
                finished(dict(task=task, status="found", summary=found, reason=None))
                continue
            claim = path[:-len(".json")] + CLAIM_SUFFIX
            if not take_claim(claim):
                finished(dict(task=task, status="elsewhere", summary=None, reason=None))
                continue
            pending[remote.remote(task)] = (task, claim, reason)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            task, claim, reason = pending[ref]
            data = ray.get(ref)          # a game that failed raises here: its claim is given back below
            write_json(os.path.join(out, task["path"]), data)
            del pending[ref]
            release_claim(claim)
            finished(dict(task=task, status="replayed" if reason else "played",
                          summary=summary_of_task(task, data), reason=reason))
    finally:
        # Interrupted (or a game failed): the games not written are given back, and those
        # still running are cancelled. Not with force: a worker killed just as its game
        # ends sends a reply the driver no longer expects, and Ray 2.60's driver aborts on
        # it ("An unexpected system state", task_manager.cc; seen in CI). A cancelled game
        # stops at its next move.
        for ref, (task, claim, _) in pending.items():
            ray.cancel(ref)
            release_claim(claim)
        if started:
            ray.shutdown()
