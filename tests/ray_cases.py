"""The Ray cases of tests/test_cluster.py. Each runs in a process of its own (that
file's test_on_ray runs `pytest ray_cases.py::CASE`): a Ray driver whose raylet dies
exits on the spot, and in the test run's own process it would take the whole run down
with it, with no summary."""
import json
import os

import pytest

from gutenberg_ai.tools import arena, cluster, selfplay, studies, suite


def records(out):
    found = {}
    for folder, _, files in os.walk(os.path.join(out, "games")):
        for name in files:
            if name.endswith(".json"):
                data = json.loads(open(os.path.join(folder, name)).read())
                data["arena"].pop("seconds")          # the time a game took: the machine's
                found[os.path.relpath(os.path.join(folder, name), out)] = data
    return found


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    cluster.connect("local", 2)
    yield ray
    ray.shutdown()


def test_ray_plays_the_same_games_as_the_pool_and_resumes(tmp_path, ray_local):
    s = arena.ArenaSettings(bots=["smmcts", "heuristic", "random"], games=2, iterations=8, rounds=1, seed=3)
    pool = arena.run_arena(s, str(tmp_path / "pool"), jobs=2, plots=False)
    on_ray = arena.run_arena(s, str(tmp_path / "ray"), jobs=2, ray="local", plots=False)
    assert on_ray["run"]["played"] == 6 and on_ray["run"]["ray"] == "local"
    assert records(tmp_path / "pool") == records(tmp_path / "ray")
    assert on_ray["standings"] == pool["standings"]
    # Interrupted: two records lost; the same command plays only those.
    lost = sorted(records(tmp_path / "ray"))[:2]
    for path in lost:
        os.unlink(tmp_path / "ray" / path)
    again = arena.run_arena(s, str(tmp_path / "ray"), jobs=2, ray="local", plots=False)
    assert again["run"]["played"] == 2 and again["run"]["skipped"] == 4
    assert records(tmp_path / "ray") == records(tmp_path / "pool")
    assert not [f for _, _, files in os.walk(tmp_path / "ray") for f in files if f.endswith(".claim")]


def test_a_study_on_ray(tmp_path, ray_local):
    s = studies.BalanceSettings(bot="heuristic", game="printing-press", games=2, rounds=1, seed=1)
    local = studies.run_balance(s, str(tmp_path / "a"))
    remote = studies.run_balance(s, str(tmp_path / "b"), jobs=2, ray="local")
    assert local["seats"] == remote["seats"] and local["groups"] == remote["groups"]


def test_selfplay_on_ray_writes_the_pools_records_and_resumes(tmp_path, ray_local):
    """selfplay --ray: the records (with each move's search) are those of the local pool;
    records lost are played again, the rest found."""
    s = selfplay.settings("printing-press", players=2, games=2, bot="smmcts", iterations=8, rounds=1, seed=4)
    selfplay.run_selfplay(s, str(tmp_path / "pool"), jobs=2)
    on_ray = selfplay.run_selfplay(s, str(tmp_path / "ray"), jobs=2, ray="local")
    assert on_ray["played"] == 2 and on_ray["ray"] == "local"
    assert records(tmp_path / "ray") == records(tmp_path / "pool")
    assert all(any("search" in entry for entry in r["actions"]) for r in records(tmp_path / "ray").values())
    os.unlink(tmp_path / "ray" / sorted(records(tmp_path / "ray"))[0])
    again = selfplay.run_selfplay(s, str(tmp_path / "ray"), jobs=2, ray="local")
    assert again["played"] == 1 and again["skipped"] == 1
    assert records(tmp_path / "ray") == records(tmp_path / "pool")


def test_the_suite_on_ray_scores_as_here_and_resumes(tmp_path, ray_local):
    """suite --ray: the rows of every position are those scored here; a row lost is
    scored again, the others are found in --out."""
    here = suite.score_bot("heuristic", "printing-press", seed=2, version=3, out=str(tmp_path / "here"))
    on_ray = suite.score_bot("heuristic", "printing-press", seed=2, version=3, out=str(tmp_path / "ray"), jobs=2,
                             ray="local")
    assert on_ray == here
    rows = sorted((tmp_path / "ray" / "positions").iterdir())
    assert len(rows) == len(here["positions"])
    rows[0].unlink()
    calls = []
    again = suite.score_bot("heuristic", "printing-press", seed=2, version=3, out=str(tmp_path / "ray"), jobs=2,
                            ray="local",
                            progress=lambda done, total: calls.append((done, total)))
    assert again == here and calls == [(len(rows), len(rows))]


def test_tuning_on_ray_finds_what_it_finds_here(tmp_path, ray_local):
    """tune --ray: a trial's games are arena games, so the study (seeded) is the same."""
    tune = pytest.importorskip("gutenberg_ai.tools.tune")
    pytest.importorskip("optuna")
    s = tune.TuneSettings(bot="smmcts", reference="random", trials=2, games=2, validate=2, iterations=4,
                          rounds=1, seed=3, space={"uct_c": [0.1, 4.0, "log"]})
    here = tune.run_tune(s, str(tmp_path / "here"))
    on_ray = tune.run_tune(s, str(tmp_path / "ray"), jobs=2, ray="local")
    assert on_ray["trials"] == here["trials"] and on_ray["validation"] == here["validation"]


def test_a_failing_game_gives_its_claims_back(tmp_path, ray_local, monkeypatch):
    s = arena.ArenaSettings(bots=["heuristic", "random"], games=2, rounds=1, seed=0)
    tasks = arena.schedule(s)
    tasks[0]["params"] = {**tasks[0]["params"], "players": 7}     # fails on the worker
    with pytest.raises(Exception):
        arena.run_tasks_on_ray(tasks, str(tmp_path), "local", 2, lambda outcome: None)
    assert not [f for _, _, files in os.walk(tmp_path) for f in files if f.endswith(".claim")]


def dies_once(game, seat, seed, budget, marker):
    """A bot of your own whose first making on a worker kills the worker (a lost worker
    or node); the test's own process, which checks the bots first, is spared."""
    from gutenberg_ai.examples.flat_mc import FlatMonteCarloBot
    with open(marker) as f:
        state, pid = f.read().split()
    if state == "armed" and int(pid) != os.getpid():
        # Written whole and renamed: another worker reading at the same moment sees the
        # old text or the new, never an empty file.
        with open(f"{marker}.{os.getpid()}", "w") as f:
            f.write(f"fired {os.getpid()}")
        os.replace(f"{marker}.{os.getpid()}", marker)
        os._exit(1)
    return FlatMonteCarloBot(game, seat, seed, **budget)


def test_a_lost_worker_loses_no_game(tmp_path, ray_local):
    marker = tmp_path / "marker"
    marker.write_text(f"armed {os.getpid()}")
    spec = "ray_cases:dies_once"
    s = arena.ArenaSettings(bots=[spec, "random"], games=2, iterations=2, rounds=1, seed=5,
                            options={spec: {"marker": str(marker)}})
    on_ray = arena.run_arena(s, str(tmp_path / "ray"), jobs=2, ray="local", plots=False)
    assert marker.read_text().startswith("fired")          # a worker died...
    assert on_ray["run"]["played"] == 2 and on_ray["games"] == 2   # ...and its game was played again
    arena.run_arena(s, str(tmp_path / "local"), jobs=1, plots=False)
    assert records(tmp_path / "ray") == records(tmp_path / "local")
