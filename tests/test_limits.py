"""Nothing a user gives can hang the machine or crash a tool: every thread count, budget
and size is bounded before any work (gutenberg_ai.common.limits), and a game parameter the
bindings cannot carry is refused like any other bad value."""
import math

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.tools import arena
from gutenberg_ai import games
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.interfaces.cli import build_parser

POSITION = "gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json"
BIG = 2**63          # past every bound, and past a C long long


# ---------------------------------------------------------------------------------------
# Budgets, threads and sizes
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["hint", POSITION, "--seconds", "inf"],
    ["hint", POSITION, "--seconds", "1e9"],
    ["hint", POSITION, "--iterations", str(BIG)],
    ["hint", POSITION, "--threads", "1000000"],
    ["hint", POSITION, "--seed", str(2**64)],
    ["review", "game.json", "--threads", "1000000"],
    ["review", "game.json", "--iterations", str(BIG)],
    ["play", "--seconds", "inf"],
    ["demo", "--iterations", str(BIG)],
    ["arena", "--bots", "smmcts,heuristic", "--out", "x", "--seconds", "inf"],
    ["arena", "--bots", "smmcts,heuristic", "--out", "x", "--games", str(BIG)],
    ["arena", "--bots", "smmcts,heuristic", "--out", "x", "--jobs", "1000000"],
    ["study", "balance", "--out", "x", "--seconds", "inf"],
    ["selfplay", "--out", "x", "--iterations", str(BIG)],
    ["suite", "--bot", "smmcts", "--seconds", "inf"],
    ["serve", "--max-seconds", "inf"],
])
def test_the_command_line_refuses_an_unbounded_budget_before_any_work(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument --" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["arena", "--bots", "smmcts,heuristic"], ["study", "balance"], ["selfplay"]])
def test_deeply_nested_options_are_refused_without_a_traceback(command, tmp_path):
    from test_cli import cli
    for text in ("[" * 5000 + "]" * 5000, '{"a": ' * 40 + "1" + "}" * 40):
        out = cli(*command, "--out", str(tmp_path / "out"), "--options", text)
        assert out.returncode == 2 and "nested more than" in out.stderr, out.stderr[-300:]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("options", [
    {"seconds": math.inf}, {"seconds": math.nan}, {"seconds": 1e9}, {"iterations": BIG},
    {"iterations": 10**10}, {"threads": 1_000_000}, {"threads": BIG}, {"max_nodes": 2**40},
    {"cutoff": BIG}, {"plan_candidates": 2**31},
])
@pytest.mark.parametrize("bot", ["smmcts", "ismcts", "learned"])
def test_make_bot_refuses_an_unbounded_budget(bot, options):
    game = gutenberg_ai.load_game(players=2)
    with pytest.raises(ValueError) as e:
        make_bot(bot, game, 0, **options)
    assert next(iter(options)) in str(e.value)


@pytest.mark.parametrize("name", ["smmcts@99999999999999999999", "smmcts@9999999999s",
                                  "openspiel-mcts-cpp@99999999999999999999"])
def test_a_budget_in_a_bots_name_is_bounded(name):
    game = gutenberg_ai.load_game(players=2)
    with pytest.raises(ValueError, match=r"is not a (whole )?number"):
        make_bot(name, game, 0)


@pytest.mark.parametrize("bot", ["openspiel-ismcts-cpp", "openspiel-mcts", "cfr"])
def test_the_other_searching_bots_refuse_an_unbounded_budget(bot, monkeypatch):
    from gutenberg_ai.search import cfr

    def solved(*args):
        raise AssertionError("cfr started solving before its iterations were refused")
    monkeypatch.setattr(cfr, "_solved", solved)
    game = cfr.variant_game() if bot == "cfr" else gutenberg_ai.load_game(players=2)
    with pytest.raises(ValueError, match="iterations"):
        make_bot(bot, game, 0, iterations=BIG)


# Each of these returns at once or raises another error on the code before the bounds
# (no search runs long): NaN seconds made a search of no iteration, 2**80 iterations
# overflowed inside the search (2**63 split in batches searched without end), 65
# threads searched.
@pytest.mark.parametrize("budget", [{"seconds": math.nan}, {"iterations": 2**80},
                                    {"iterations": 10, "threads": 65}, {"iterations": 10, "top": BIG},
                                    {"iterations": 10, "seed": 2**64}])
def test_hint_refuses_an_unbounded_budget(budget):
    from gutenberg_ai.games.positionfile import load_position
    _, pos = load_position(POSITION)
    with pytest.raises(ValueError) as e:
        gutenberg_ai.hint(pos.state, **budget)
    assert next(iter(k for k in budget if k != "iterations" or len(budget) == 1)) in str(e.value)


@pytest.mark.parametrize("budget", [{"seconds": math.nan}, {"iterations": BIG}, {"iterations": 10, "threads": 65},
                                    {"iterations": 10, "batches": BIG}])
def test_the_cores_search_checks_the_bounds_itself(budget):
    from gutenberg_ai.games.positionfile import load_position
    g, pos = load_position(POSITION)
    with pytest.raises(ValueError):
        g.core.search(pos.state, "smmcts", **budget)
    with pytest.raises(ValueError, match="max_nodes"):
        g.core.search_config(max_nodes=2**40)


@pytest.fixture
def no_games(monkeypatch):
    """Any game scheduled or any process pool started fails the test at once (before the
    bounds, a billion games were scheduled and a million processes started)."""
    from gutenberg_ai.tools import studies

    def started(*args, **kwargs):
        raise AssertionError("work started before the settings were refused")
    monkeypatch.setattr(arena, "schedule", started)
    monkeypatch.setattr(studies, "balance_tasks", started)
    monkeypatch.setattr(arena, "run_each", started)


@pytest.mark.parametrize("change, jobs", [({"games": 10**9}, 1), ({"seconds": math.inf}, 1),
                                          ({"seconds": None, "iterations": BIG}, 1), ({"games": 1}, 10**6)])
def test_the_arena_refuses_unbounded_settings_before_anything_is_written(change, jobs, tmp_path, no_games):
    s = arena.ArenaSettings(bots=["heuristic", "ismcts"], **change)
    with pytest.raises(arena.ArenaError, match="games|seconds|iterations|jobs"):
        arena.run_arena(s, str(tmp_path / "out"), jobs=jobs)
    assert not (tmp_path / "out").exists()


def test_the_arena_bounds_its_games_in_all_before_anything_is_scheduled(tmp_path, no_games):
    """Each match's games are bounded, and so are all of them: ten bots in 4-player
    lineups (210 lineups) of 100,000 games each are 21 million games, refused naming the
    product before a schedule is made (it was made, task by task, past a gigabyte)."""
    bots = [f"smmcts@{k}" for k in range(1, 11)]
    s = arena.ArenaSettings(bots=bots, players=4, rounds=1, iterations=None, games=100_000)
    with pytest.raises(arena.ArenaError, match=r"210 lineups of 100,000 games are 21,000,000 games"):
        arena.run_arena(s, str(tmp_path / "out"), jobs=1)
    assert not (tmp_path / "out").exists()
    assert arena.lineup_count(bots, 4) == 210


@pytest.mark.parametrize("pairings, why", [([["heuristic", "heuristic"], ["heuristic", "random"]], "with itself"),
                                           ([["heuristic", "random"], ["random", "heuristic"]], "paired twice")])
def test_the_arena_refuses_a_bot_paired_with_itself_or_a_pair_named_twice(pairings, why, tmp_path, no_games):
    s = arena.ArenaSettings(bots=["heuristic", "random"], rounds=1, iterations=None, pairings=pairings)
    with pytest.raises(arena.ArenaError, match=why):
        arena.run_arena(s, str(tmp_path / "out"), jobs=1)


@pytest.mark.parametrize("change, jobs", [({"games": 10**9}, 1), ({}, 10**6)])
def test_the_balance_study_refuses_unbounded_settings_before_anything_is_written(change, jobs, tmp_path, no_games):
    from gutenberg_ai.tools import studies
    s = studies.BalanceSettings(bot="heuristic", rounds=1, iterations=None, **change)
    with pytest.raises(arena.ArenaError, match="games|jobs"):
        studies.run_balance(s, str(tmp_path / "out"), jobs=jobs)
    assert not (tmp_path / "out").exists()


def test_the_bounds_are_exported_for_other_entries():
    from gutenberg_ai.common import limits
    assert limits.check_seconds(limits.MAX_SECONDS) == limits.MAX_SECONDS
    assert limits.check_iterations(limits.MAX_ITERATIONS) == limits.MAX_ITERATIONS
    assert limits.check_threads(limits.MAX_THREADS) == limits.MAX_THREADS
    for check, bad in ((limits.check_seconds, math.inf), (limits.check_seconds, 0), (limits.check_seconds, True),
                       (limits.check_iterations, limits.MAX_ITERATIONS + 1), (limits.check_iterations, 1.0),
                       (limits.check_threads, limits.MAX_THREADS + 1)):
        with pytest.raises(ValueError, match="at most|to "):
            check(bad)


# ---------------------------------------------------------------------------------------
# Game parameters the bindings cannot carry (a C int)
# ---------------------------------------------------------------------------------------
def _integer_parameters():
    for g in games.GAMES.values():
        for name, default in g.rules_module.DEFAULTS.items():
            if isinstance(default, int) and not isinstance(default, bool):
                yield g.key, name


@pytest.mark.parametrize("value", [2**31, -2**31 - 1, BIG])
@pytest.mark.parametrize("key, name", list(_integer_parameters()))
def test_a_wide_game_parameter_is_refused_like_any_bad_value(key, name, value):
    g = games.get(key)
    with pytest.raises(pyspiel.SpielError) as e:
        g.load(**{name: value})
    assert str(e.value).startswith(f"{g.spiel_name}: {name}: {value}")
    assert "cast" not in str(e.value)


def test_the_python_shell_refuses_parameters_with_the_native_games_error_type():
    from gutenberg_ai.games.gutenberg.game import GutenbergGame
    for params in ({"players": 7}, {"rounds": 0}, {"automa": 2}):
        with pytest.raises(pyspiel.SpielError, match=next(iter(params))):
            pyspiel.load_game("gutenberg_py", params)
        with pytest.raises(pyspiel.SpielError, match=next(iter(params))):
            pyspiel.load_game("gutenberg", params)
    for name in ("players", "rounds", "automa"):
        with pytest.raises(pyspiel.SpielError, match=f"{name}: {2**31}"):
            GutenbergGame({name: 2**31})
    with pytest.raises(pyspiel.SpielError, match="players"):
        gutenberg_ai.load_game(players=2**31)


# ---------------------------------------------------------------------------------------
# Weights files: sizes and shapes from the headers, before anything is read
# ---------------------------------------------------------------------------------------
def _shipped_arrays():
    import numpy as np
    from gutenberg_ai.search.learn import model as weights
    with np.load(weights.shipped_path("gutenberg"), allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def _refusal(path):
    from gutenberg_ai.search.learn import model as weights
    core = games.get("gutenberg").core
    with pytest.raises(weights.ModelError) as e:
        weights.read(str(path), "gutenberg", core)
    return str(e.value)


def test_a_small_weights_file_that_unpacks_to_a_gibibyte_is_refused_unread(tmp_path):
    import resource
    import zipfile
    import numpy as np
    arrays = _shipped_arrays()
    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, a in arrays.items():
            if name != "w_obs":
                with z.open(f"{name}.npy", "w") as f:
                    np.lib.format.write_array(f, a)
        # 1 GiB of zeros, written in pieces: a file of about 1 MB
        with z.open("w_obs.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False,
                                                     "shape": (1 << 28,)})
            block = bytes(1 << 24)
            for _ in range(64):
                f.write(block)
    assert path.stat().st_size < 4 << 20
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    message = _refusal(path)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before     # kB
    assert "w_obs" in message and "bytes unpacked" in message
    assert grown < 200 << 10, f"the process grew by {grown} kB"


def test_a_header_claiming_a_huge_shape_is_refused_without_a_memory_error(tmp_path):
    import zipfile
    import numpy as np
    arrays = _shipped_arrays()
    path = tmp_path / "huge.npz"
    with zipfile.ZipFile(path, "w") as z:
        for name, a in arrays.items():
            with z.open(f"{name}.npy", "w") as f:
                if name == "b1":    # a header saying 2**40 floats, and 16 bytes of them
                    np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False,
                                                             "shape": (1 << 40,)})
                    f.write(bytes(16))
                else:
                    np.lib.format.write_array(f, a)
    message = _refusal(path)
    assert "b1: its header says shape (1099511627776,)" in message


def test_a_deeply_nested_meta_is_refused_without_a_recursion_error(tmp_path):
    import numpy as np
    arrays = _shipped_arrays()
    arrays["meta"] = np.array("[" * 100_000 + "]" * 100_000)
    path = tmp_path / "deep.npz"
    np.savez(path, **arrays)
    assert "meta: nested more than" in _refusal(path)
    arrays["meta"] = np.array('{"a": ' * 50 + "1" + "}" * 50)     # deeper than any meta, within Python's limit
    np.savez(path, **arrays)
    assert "meta: nested more than" in _refusal(path)


def test_a_meta_that_is_json_null_is_refused_as_not_an_object(tmp_path):
    import numpy as np
    arrays = _shipped_arrays()
    arrays["meta"] = np.array("null")
    path = tmp_path / "null.npz"
    np.savez(path, **arrays)
    message = _refusal(path)
    assert "meta: not a JSON object" in message and "nested" not in message


def test_a_weights_file_of_many_members_or_an_object_array_is_refused(tmp_path):
    import zipfile
    import numpy as np
    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as z:
        for i in range(1000):
            z.writestr(f"x{i}.npy", b"")
    assert "1000 members" in _refusal(path)
    arrays = _shipped_arrays()
    arrays["b2"] = np.array([{"a": 1}], dtype=object)
    np.savez(path, **arrays)
    assert "b2: its header says" in _refusal(path)


def test_a_worker_that_dies_stops_the_pool_with_its_reason_not_a_wait():
    """A job whose process ends (killed; a script that spawns without its __main__
    guard) is PoolError, where a pool would start another worker and wait forever."""
    import os
    from gutenberg_ai.common.pool import PoolError, run_each
    assert sorted(run_each(pow, [(2, 3), (3, 2), (2, 2)], processes=2)) == [4, 8, 9]
    with pytest.raises(PoolError, match="a worker process ended before its job did"):
        run_each(os._exit, [(3,), (3,)], processes=2)
