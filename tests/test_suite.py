"""The benchmark suites: shipped, versioned, replayable positions with references, and
scoring a bot on them."""
import json
import re
import subprocess
import sys

import pytest

from gutenberg_ai.tools import suite
from gutenberg_ai.examples.flat_mc import FlatMonteCarloBot

KINDS = {"gutenberg": {"plan", "action", "fulfil", "endgame"},
         "printing-press": {"select cards", "close frames", "endgame"},
         "lead-letter-printers": {"action", "orders and contracts", "production"}}


@pytest.mark.parametrize("key", ["gutenberg", "printing-press", "lead-letter-printers"])
def test_the_shipped_suite_replays_and_has_every_kind(key):
    data = suite.load_suite(key)
    assert data["version"] == suite.current_version(key) == suite.SUITE_VERSIONS[key] and data["game"] == key
    assert suite.suite_path(key).endswith(f"suite-v{data['version']}.json")
    kinds = {p["kind"] for p in data["positions"]}
    assert KINDS[key] <= kinds
    ids = [p["id"] for p in data["positions"]]
    assert len(ids) == len(set(ids))
    for pos in data["positions"]:
        state = suite.position_state(data, pos)            # the actions reach the digest
        assert state.current_player() == pos["player"] and len(state.legal_actions()) == pos["legal"] > 1
        for ref in suite.references_of(pos):
            assert ref["iterations"] >= 1500
            moves = {m["action"]: m for m in ref["moves"]}
            assert ref["best"] in moves and moves[ref["best"]]["share"] == max(m["share"] for m in ref["moves"])
            assert all(a in state.legal_actions() for a in moves)
        assert suite.position_kind(__import__("gutenberg_ai").core_of(state)) == pos["kind"]


# A 2-second hint on one core at the shipped positions, iterations (docs/benchmark-suite.md):
# a strong suite's references search at least 30 times as long as the hint of that game.
HINT_ITERATIONS = {"gutenberg": 62_920, "printing-press": 13_160, "lead-letter-printers": 10_600}


STRONG_SUITES = [(key, v) for key in ("gutenberg", "printing-press", "lead-letter-printers")
                 for v in suite.shipped_versions(key) if v >= suite.STRONG_VERSION]


@pytest.mark.parametrize("key", ["gutenberg", "printing-press", "lead-letter-printers"])
def test_every_game_scores_on_a_strong_suite_by_default(key):
    """Each game's default suite is a strong one whose references are raised at its own
    positions (at least 30 times a 2-second hint there)."""
    data = suite.load_suite(key)
    assert data["version"] >= suite.STRONG_VERSION and data["made_by"]["hint_multiple"] >= 30
    assert all("hint_iterations" in pos for pos in data["positions"])


@pytest.mark.parametrize("key, version", STRONG_SUITES)
def test_a_shipped_strong_suite_is_balanced_and_searched_long(key, version):
    """A game's strong suite (v4 and after): at least 60 positions over every player count
    of the game (solo included), each kind at several counts, two references of
    independent seeds a position, each at least 30 times a 2-second hint (at the game's
    shipped positions, and at its own where the file says it was made so)."""
    data = suite.load_suite(key, version)
    positions = data["positions"]
    assert len(positions) >= 60 and data["made_by"]["bot"] == "learned"
    counts = {p["players"] for p in positions}
    assert counts == set(suite.player_counts(key))
    shares = [sum(p["players"] == n for p in positions) for n in counts]
    assert min(shares) >= len(positions) // (2 * len(counts))     # no player count left thin
    for pos in positions:
        first, second = pos["references"]
        assert first["seed"] != second["seed"]
        assert min(first["iterations"], second["iterations"]) >= 30 * HINT_ITERATIONS[key]
        if "hint_multiple" in data["made_by"]:    # Printing Press's v4 was made before the references were raised
            assert data["made_by"]["hint_multiple"] >= 30
            assert min(first["iterations"], second["iterations"]) >= 30 * pos["hint_iterations"]
        assert pos["agree"] == (first["best"] == second["best"])
    agreement = data["made_by"]["agreement"]
    assert agreement["positions"] == len(positions)
    assert agreement["agree"] == sum(p["agree"] for p in positions)


def test_a_position_from_another_engine_is_refused():
    data = suite.load_suite("gutenberg")
    pos = dict(data["positions"][0], digest="0" * 64)
    with pytest.raises(ValueError, match="another engine version"):
        suite.position_state(data, pos)


def oracle(rank, key="printing-press", version=None):
    """A factory whose bot plays the reference's move of that rank at each position."""
    data = suite.load_suite(key, version)
    by_history = {tuple(p["actions"]): p for p in data["positions"]}

    class Oracle(FlatMonteCarloBot):
        def step(self, state):
            pos = by_history[tuple(state.history())]
            if "reference" in pos:
                moves = sorted(pos["reference"]["moves"], key=lambda m: -m["share"])
                return moves[min(rank, len(moves) - 1)]["action"]
            # two references: the best move first, then the others by their mean value
            values = suite.move_values(pos)
            moves = sorted(values, key=lambda a: (a != suite.best_move(pos), -values[a], a))
            return moves[min(rank, len(moves) - 1)]

    return lambda game, seat, seed, budget: Oracle(game, seat, seed, iterations=1)


def test_a_folder_of_another_bots_or_seeds_rows_is_refused_not_overwritten(tmp_path):
    """--out keeps each position's row; a second run with the same settings finds them,
    one with another seed or bot is refused by name (its rows would be replaced)."""
    out = str(tmp_path / "rows")
    first = suite.score_bot("oracle", "printing-press", factory=oracle(0), iterations=1, seed=4, out=out)
    assert suite.score_bot("oracle", "printing-press", factory=oracle(0), iterations=1, seed=4, out=out) == first
    with pytest.raises(ValueError, match="holds rows scored with seed = 4, not 5"):
        suite.score_bot("oracle", "printing-press", factory=oracle(0), iterations=1, seed=5, out=out)
    with pytest.raises(ValueError, match="holds rows scored with bot = 'oracle', not 'heuristic'"):
        suite.score_bot("heuristic", "printing-press", seed=4, out=out)


def test_scoring_agrees_with_the_reference():
    best = suite.score_bot("oracle", "printing-press", factory=oracle(0), iterations=1)
    assert best["overall"]["agreement"] == 1.0 and best["overall"]["mean_lost"] == 0.0
    worse = suite.score_bot("oracle", "printing-press", factory=oracle(1), iterations=1)
    assert worse["overall"]["agreement"] < 1.0
    data = suite.load_suite("printing-press")
    for row, pos in zip(worse["positions"], data["positions"]):
        values = suite.move_values(pos)
        assert row["lost"] == pytest.approx(max(0.0, values[suite.best_move(pos)] - values[row["action"]]))
    assert worse["overall"]["mean_lost"] > 0


def _move(action, value, half, share=0.3):
    return {"action": action, "text": str(action), "share": share, "value": value,
            "interval": [value - half, value + half]}


def test_the_best_moves_are_those_no_reference_tells_from_its_best():
    # Level by the hints' rule: a difference within sqrt(h1^2 + h2^2) of the half-widths,
    # or a value above the best's (the most searched move need not have the highest).
    pos = {"references": [
        {"best": 1, "moves": [_move(1, 0.50, 0.01), _move(2, 0.51, 0.01), _move(3, 0.49, 0.01),
                              _move(4, 0.40, 0.01), _move(5, 0.485, 0.012)]},
        {"best": 1, "moves": [_move(1, 0.50, 0.01), _move(2, 0.50, 0.01), _move(3, 0.47, 0.01),
                              _move(4, 0.40, 0.01)]}]}
    # 2: above or equal in both; 3: level in the first (0.01 <= 0.0141), behind in the
    # second (0.03); 4: behind in both; 5: not measured by the second.
    assert suite.best_moves(pos) == [1, 2]
    one = {"references": [pos["references"][0]]}
    assert suite.best_moves(one) == [1, 2, 3, 5]     # 5: 0.015 <= sqrt(0.01^2 + 0.012^2)
    old = {"reference": {"best": 1, "moves": [{"action": 1, "share": 0.5, "value": 0.5},
                                               {"action": 2, "share": 0.5, "value": 0.5}]}}
    assert suite.best_moves(old) == [1]                # no intervals (versions 1-3): the best alone


def test_agreement_among_the_best_counts_a_level_move_and_only_on_judged_rows():
    rows = [{"agree": True, "among_best": True, "lost": 0.0, "scored": "agreement and win chance lost"},
            {"agree": False, "among_best": True, "lost": 0.0, "scored": "agreement and win chance lost"},
            {"agree": False, "among_best": False, "lost": 0.1, "scored": "agreement and win chance lost"},
            {"agree": False, "among_best": True, "lost": 0.0, "scored": "win chance lost only"}]
    out = suite.aggregate(rows, "win")
    assert out["agreement"] == pytest.approx(1 / 3) and out["agreement_among_best"] == pytest.approx(2 / 3)


def test_the_suite_command_scores_a_bot():
    """An older version by --version (Gutenberg's v1: 20 positions, one reference each)."""
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "suite", "--game", "gutenberg", "--version", "1",
                          "--bot", "heuristic", "--json"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["suite_version"] == 1 and len(result["positions"]) == 20
    assert 0 <= result["overall"]["agreement"] <= 1
    assert set(result["kinds"]) >= KINDS["gutenberg"]
    assert all(r["lost"] >= 0 for r in result["positions"])
    assert all(r["lost"] == 0 for r in result["positions"] if r["agree"])
    assert all(r["among_best"] == r["agree"] for r in result["positions"])    # version 1: no intervals


# -- version 4: strong suites made in a work folder -----------------------------------------
import copy
import os
import signal
import time

from gutenberg_ai.common.jsonfile import FileDataError

TINY = dict(positions=4, games_per_count=1, players=[1, 2], bot_budget={"iterations": 5},
            reference_budget={"iterations": 200}, threads=1, hint_multiple=0)
TIMINGS = ("wall_seconds", "cpu_seconds", "reference_seconds", "started")


def without_timings(data):
    """A suite without what a run measures (seconds, the day): the rest is determined."""
    if isinstance(data, dict):
        return {k: without_timings(v) for k, v in data.items() if k not in TIMINGS}
    if isinstance(data, list):
        return [without_timings(v) for v in data]
    return data


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A strong suite of Gutenberg at tiny budgets: 4 positions of a solo and a 2-player game."""
    work = tmp_path_factory.mktemp("work")
    data = suite.make_strong_suite("gutenberg", str(work), **TINY)
    path = work / "suite-v4.json"
    suite.write_suite(data, str(path))
    return data, path


def test_a_strong_suite_has_two_references_a_position_and_says_how_it_was_made(tiny):
    data, path = tiny
    assert data == suite.load_suite("gutenberg", path=str(path)) and data["version"] == suite.STRONG_VERSION == 4
    positions = data["positions"]
    # Balanced: the 4 positions go round the player counts first, then the kinds.
    assert [p["players"] for p in positions].count(1) == [p["players"] for p in positions].count(2) == 2
    assert len({(p["players"], p["kind"]) for p in positions}) == 4
    for pos in positions:
        state = suite.position_state(data, pos)
        assert pos["params"] == {"players": pos["players"]} and state.get_game().num_players() == pos["players"]
        assert pos["measure"] == ("expected score" if pos["players"] == 1 else "win probability")
        first, second = pos["references"]
        assert first["seed"] != second["seed"] and first["iterations"] == second["iterations"] == 200
        for ref in (first, second):
            assert ref["wall_seconds"] >= 0 and ref["cpu_seconds"] >= 0 and ref["threads"] == 1
            assert ref["best"] in {m["action"] for m in ref["moves"]}
            assert all("interval" in m for m in ref["moves"])
        assert pos["agree"] == (first["best"] == second["best"])
    made = data["made_by"]
    assert made["bot"] == "learned" and made["bot_budget"] == {"iterations": 5} and made["games"] == 2
    assert made["reference_seconds"]["references"] == 8 and made["reference_seconds"]["wall"] >= 0
    assert made["agreement"] == {"positions": 4, "agree": sum(p["agree"] for p in positions)}
    assert made["started"] == time.strftime("%Y-%m-%d", time.gmtime())


def test_a_strong_suite_remade_takes_a_later_version(tiny):
    """The same work folder written as version 5 (a game's strong suite remade): the same
    positions and references, nothing searched again; a version before 4 is refused."""
    data, path = tiny
    again = suite.make_strong_suite("gutenberg", str(path.parent), version=5, **TINY)
    assert again["version"] == 5 and without_timings(dict(again, version=4)) == without_timings(data)
    with pytest.raises(ValueError, match=re.escape("version: 3 is not a whole number from 4 to 99")):
        suite.make_strong_suite("gutenberg", str(path.parent), version=3, **TINY)


def test_a_killed_make_goes_on_and_gives_the_same_file(tmp_path):
    """kill -9 once a reference is written: the same command finishes the work (here in
    two processes, --jobs 2), and the file is that of an uninterrupted run in one but for
    the seconds measured."""
    command = [sys.executable, "-m", "gutenberg_ai.tools.suite", "make", "--game", "gutenberg", "--positions", "3",
               "--games-per-count", "1", "--players", "2", "--bot-iterations", "5", "--reference-iterations",
               "20000", "--hint-multiple", "0", "--threads", "1", "--work"]
    killed = tmp_path / "killed"
    run = subprocess.Popen(command + [str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300

    def written():      # a file being written is hidden (.NAME) until it is whole
        where = killed / "references"
        return [name for name in os.listdir(where) if not name.startswith(".")] if where.is_dir() else []
    while not written():
        assert run.poll() is None and time.monotonic() < deadline, run.stderr.read()
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL
    kept = {name: (killed / "references" / name).read_bytes() for name in written()}
    assert not (killed / "suite-v4.json").exists() and 1 <= len(kept) < 6
    again = subprocess.run(command + [str(killed), "--jobs", "2"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"{len(kept)} of 6 references found" in again.stdout and "6/6 references searched" not in again.stdout
    for name, raw in kept.items():              # what was done is not done again
        assert (killed / "references" / name).read_bytes() == raw
    whole = subprocess.run(command + [str(tmp_path / "whole")], capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    made = [json.loads((tmp_path / d / "suite-v4.json").read_text()) for d in ("killed", "whole")]
    assert len(made[0]["positions"]) == 3
    assert without_timings(made[0]) == without_timings(made[1])


def test_a_reference_is_at_least_the_multiple_of_a_hint_at_its_own_position(tmp_path, monkeypatch):
    """Where iterations are cheap, a position's references search at least hint_multiple
    times the iterations a 2-second hint makes there (measured once, kept in the work
    folder, not measured again when the make goes on); the floor stays where it is more."""
    monkeypatch.setattr(suite, "PROBE_SECONDS", 0.02)
    options = dict(TINY, positions=2, players=[2], hint_multiple=1)
    work = tmp_path / "work"
    data = suite.make_strong_suite("gutenberg", str(work), **options)
    probes = sorted(os.listdir(work / "probes"))
    assert probes == sorted(f"{p['id']}.json" for p in data["positions"])
    for pos in data["positions"]:
        hint = pos["hint_iterations"]
        assert hint > 200     # a 2-second hint makes far more than the floor of 200 iterations
        wanted = -(-hint // 1000) * 1000
        assert [r["iterations"] for r in pos["references"]] == [wanted, wanted]
        assert json.loads((work / "probes" / f"{pos['id']}.json").read_text())["hint_iterations"] == hint
    assert data["made_by"]["hint_multiple"] == 1
    page = suite.suite_page(data, "s.json")
    assert "at least 1 times the iterations of a 2-second one-thread hint there" in page
    assert "2 of 2 positions were searched longer for it" in page
    # Goes on from the folder: the probes are read, not made again, so the budgets stay.
    monkeypatch.setattr(suite, "hint_iterations", lambda *a: pytest.fail("probed again"))
    assert without_timings(suite.make_strong_suite("gutenberg", str(work), **options)) == without_timings(data)
    # The floor stays where a hint's multiple is less.
    assert suite.position_budget(suite.strong_settings("gutenberg", **dict(options, reference_budget={"iterations": 10**8})),
                                 5000) == {"iterations": 10**8}
    assert suite.position_budget(suite.strong_settings("gutenberg", **options), 5001) == {"iterations": 6000}
    assert suite.position_budget(suite.strong_settings("gutenberg", **dict(options, hint_multiple=0)), 5001) == \
        {"iterations": 200}


def test_a_work_folder_goes_on_only_with_its_own_settings(tmp_path):
    suite.open_work(str(tmp_path), suite.strong_settings("gutenberg", **TINY))
    with pytest.raises(ValueError, match=r"other settings \(positions: 4 there, 5 now\)"):
        suite.open_work(str(tmp_path), suite.strong_settings("gutenberg", **dict(TINY, positions=5)))


@pytest.mark.parametrize("options, said", [
    (dict(players=[5]), "players: 5 is not a player count of Gutenberg"),
    (dict(positions=0), "positions: 0 is not a whole number"),
    (dict(bot="random"), "bot: 'random' is not one of"),
    (dict(reference_budget={"seconds": float("inf")}), "reference budget seconds"),
    (dict(reference_budget={"seconds": 60, "iterations": 5}), "reference budget: give seconds or iterations"),
    (dict(threads=1000), "threads"),
    (dict(seed=-1), "seed"),
])
def test_a_make_with_bad_settings_is_refused_before_any_work(options, said):
    with pytest.raises(ValueError, match=re.escape(said)):
        suite.strong_settings("gutenberg", **options)


def test_the_make_command_refuses_lead_letter_printers_solo_in_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai.tools.suite", "make", "--game", "lead-letter-printers",
                          "--players", "1,2", "--work", str(tmp_path / "w")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == "suite make: players: 1 is not a player count of Lead Letter Printers (2, 3, 4)"
    assert not (tmp_path / "w").exists()


def test_the_make_command_bounds_its_jobs_before_any_work(tmp_path):
    for jobs in ("0", "100000"):
        out = subprocess.run([sys.executable, "-m", "gutenberg_ai.tools.suite", "make", "--jobs", jobs,
                              "--work", str(tmp_path / "w")], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and out.stderr.strip() == f"suite make: --jobs: {jobs} is not a whole number from 1 to 256"
        assert not (tmp_path / "w").exists()


def split_suite(tiny, tmp_path):
    """The tiny suite with its first 2-player position's references made to disagree:
    the second reference's best is another move, valued above the first's best."""
    data = copy.deepcopy(tiny[0])
    k = next(k for k, p in enumerate(data["positions"]) if p["players"] == 2)
    pos = data["positions"][k]
    first, second = pos["references"]
    state = suite.position_state(data, pos)
    other = next(a for a in state.legal_actions() if a != first["best"])
    best_value = next(m["value"] for m in first["moves"] if m["action"] == first["best"])
    second["moves"] = [{"action": other, "text": "", "share": 0.9, "value": best_value + 0.2},
                       {"action": first["best"], "text": "", "share": 0.1, "value": best_value}]
    first["moves"] = [m for m in first["moves"] if m["action"] != other]
    second["best"] = other
    pos["agree"] = False
    path = tmp_path / "split.json"
    suite.write_suite(data, str(path))
    return data, path, k, other, first["best"], best_value


def playing(action_at):
    """A factory whose bot plays action_at[history] where given, else the first legal move."""
    class Fixed(FlatMonteCarloBot):
        def step(self, state):
            return action_at.get(tuple(state.history()), state.legal_actions()[0])
    return lambda game, seat, seed, budget: Fixed(game, seat, seed, iterations=1)


def test_a_position_whose_references_disagree_is_scored_by_win_chance_lost_only(tiny, tmp_path):
    data, path, k, other, first_best, best_value = split_suite(tiny, tmp_path)
    pos = data["positions"][k]
    assert suite.best_move(pos) == other        # the higher of the two bests, by the mean of the references
    split = sum(not p["agree"] for p in data["positions"])
    # other: valued best_value + 0.2 by the second reference alone; first_best: best_value by both.
    for move, lost in ((other, 0.0), (first_best, 0.2)):
        result = suite.score_bot("fixed", "gutenberg", path=str(path), factory=playing({tuple(pos["actions"]): move}))
        row = result["positions"][k]
        assert row["scored"] == "win chance lost only" and row["action"] == move
        assert row["lost"] == pytest.approx(lost)
        judged = [r for r in result["positions"] if r["scored"] != "win chance lost only"]
        assert len(judged) == 4 - split and result["overall"]["agreement_over"] == len(judged)
        assert result["overall"]["agreement"] == (sum(r["agree"] for r in judged) / len(judged) if judged else None)
        assert result["note"].startswith(f"{split} of 4 positions, whose two references disagree")


def searches_asked(monkeypatch) -> list:
    """The searches score_position asks of reference_search, as (iterations, root action),
    each run for 50 iterations only."""
    asked = []
    real = suite.reference_search

    def counted(state, iterations, seed, **kw):
        asked.append((iterations, kw.get("root_action")))
        return real(state, 50, seed, **kw)
    monkeypatch.setattr(suite, "reference_search", counted)
    return asked


def test_a_move_no_reference_measured_is_searched_alone_at_a_bounded_budget(tiny, tmp_path, monkeypatch):
    """On a strong suite a move the references did not measure is valued by a search
    with that move forced at the root, for the references' iterations but at most
    ALONE_ITERATIONS, or ALONE_HINTS times the position's 2-second hint where that is
    more; an old suite's figures keep the reference's own budget."""
    def unmeasured_move(data, refs_of):
        for k, pos in enumerate(data["positions"]):
            measured = {m["action"] for ref in refs_of(pos) for m in ref["moves"]}
            for a in suite.position_state(data, pos).legal_actions():
                if a not in measured:
                    return k, pos, a
        raise AssertionError("every move measured")
    data = copy.deepcopy(tiny[0])
    k, pos, unmeasured = unmeasured_move(data, lambda p: p["references"])
    for ref in pos["references"]:
        ref["iterations"] = 10**6
    path = tmp_path / "long.json"
    suite.write_suite(data, str(path))
    asked = searches_asked(monkeypatch)
    result = suite.score_bot("fixed", "gutenberg", path=str(path), factory=playing({tuple(pos["actions"]): unmeasured}))
    assert asked == [(suite.ALONE_ITERATIONS, unmeasured)] and result["positions"][k]["method"] == "searched alone"
    # Where iterations are cheap (the position's 2-second hint measured), ALONE_HINTS hints' worth.
    pos["hint_iterations"] = 100_000
    suite.write_suite(data, str(path))
    asked.clear()
    suite.score_bot("fixed", "gutenberg", path=str(path), factory=playing({tuple(pos["actions"]): unmeasured}))
    assert asked == [(suite.ALONE_HINTS * 100_000, unmeasured)]
    old = suite.load_suite("gutenberg", 1)
    k, first, move = unmeasured_move(old, lambda p: [p["reference"]])
    monkeypatch.setattr(suite, "ALONE_ITERATIONS", 7)       # below any reference of the old suites
    asked.clear()
    suite.score_position("fixed", "gutenberg", 1, k, 0, {}, factory=playing({tuple(first["actions"]): move}))
    assert asked == [(first["reference"]["iterations"], move)]


def test_a_move_the_references_searched_little_and_valued_far_below_is_searched_again(tiny, tmp_path, monkeypatch):
    """A move each reference gave less than RECHECK_SHARE of its search and valued more
    than RECHECK_GAP below their best is valued by a search of it alone for the
    references' whole budget; a move they searched more keeps their value."""
    data = copy.deepcopy(tiny[0])
    k, pos = next((k, p) for k, p in enumerate(data["positions"])
                  if p["measure"] == "win probability" and len(suite.move_values(p)) > 1)
    best = suite.best_move(pos)
    move = next(a for a in suite.move_values(pos) if a != best)
    top = max(0.5, suite.move_values(pos)[best])     # room for a move 0.3 below it
    for ref in pos["references"]:
        ref["iterations"] = 10**6
        for m in ref["moves"]:
            if m["action"] == best:
                m["value"] = top
            if m["action"] == move:
                m["value"], m["share"] = top - 0.3, 0.02
    path = tmp_path / "little.json"
    suite.write_suite(data, str(path))
    asked = searches_asked(monkeypatch)
    # The others' best moves elsewhere: only this position's move is searched again.
    bot = playing({**{tuple(p["actions"]): suite.best_move(p) for p in data["positions"]},
                   tuple(pos["actions"]): move})
    row = suite.score_bot("fixed", "gutenberg", path=str(path), factory=bot)["positions"][k]
    assert asked == [(10**6, move)] and row["method"] == "searched alone at the references' budget"
    # Searched enough by a reference (RECHECK_SHARE of its search): its value stands.
    next(m for m in pos["references"][0]["moves"] if m["action"] == move)["share"] = 0.2
    suite.write_suite(data, str(path))
    asked.clear()
    row = suite.score_bot("fixed", "gutenberg", path=str(path), factory=bot)["positions"][k]
    assert asked == [] and row["method"] == "reference"
    assert row["lost"] == pytest.approx(top - suite.move_values(pos)[move])


def test_a_suite_whose_agreement_is_not_its_references_is_refused(tiny, tmp_path):
    data = copy.deepcopy(tiny[0])
    data["positions"][0]["agree"] = not data["positions"][0]["agree"]
    path = tmp_path / "lie.json"
    suite.write_suite(data, str(path))
    with pytest.raises(FileDataError, match=r"positions\[0\]\.agree: must be"):
        suite.load_suite("gutenberg", path=str(path))


HOSTILE = [
    ("[]", ["a suite file is a JSON object {...}"]),
    ('{"format": "gutenberg-ai-suite", "version": 4, "game": "gutenberg", "measure": "win probability", '
     '"positions": []}', ["positions: 0 entries, at least 1 needed"]),
]


def hostile_positions(tiny):
    """A suite with several faults at once: every one is named."""
    data = copy.deepcopy(tiny[0])
    data["positions"][0]["id"] = "../../outside"
    data["positions"][1]["digest"] = "zz"
    data["positions"][2]["references"] = data["positions"][2]["references"][:1]
    data["positions"][3]["actions"] = [0] * (suite.MAX_ACTIONS + 1)
    data["positions"][3]["references"][0]["best"] = -1
    return data


def test_a_hostile_suite_file_is_refused_with_every_problem_named(tiny, tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(hostile_positions(tiny)))
    with pytest.raises(FileDataError) as e:
        suite.load_suite("gutenberg", path=str(path))
    said = str(e.value).splitlines()
    assert said[0].startswith("hostile.json: positions[0].id: '../../outside': an id is 1-64 letters")
    assert any(line.startswith("hostile.json: positions[1].digest: 'zz': a digest is 64 hex digits") for line in said)
    assert any(line.startswith("hostile.json: positions[2].references: 1 entries, 2 needed") for line in said)
    assert any(line.startswith("hostile.json: positions[3].actions: 100001 entries, at most 100000") for line in said)
    assert any(line.startswith("hostile.json: positions[3].references[0].best: -1") for line in said)
    for text, lines in HOSTILE:
        path.write_text(text)
        with pytest.raises(FileDataError) as e:
            suite.load_suite("gutenberg", path=str(path))
        assert [line.split(": ", 1)[1] for line in str(e.value).splitlines()] == lines
    duplicate = copy.deepcopy(tiny[0])
    duplicate["positions"][1]["id"] = duplicate["positions"][0]["id"]
    path.write_text(json.dumps(duplicate))
    with pytest.raises(FileDataError, match=r"positions\[1\]\.id: '.*' is given twice"):
        suite.load_suite("gutenberg", path=str(path))


def test_the_suite_command_names_a_hostile_file_in_lines_without_a_traceback(tiny, tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(hostile_positions(tiny)))
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "suite", "--bot", "heuristic", "--suite", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.splitlines()) == 5
    assert all(line.startswith("gutenberg-ai suite: hostile.json: positions[") for line in out.stderr.splitlines())


def test_a_suite_file_given_with_a_version_must_be_of_that_version():
    path = str(suite.suite_path("gutenberg", 4))
    assert suite.load_suite("gutenberg", 4, path=path)["version"] == 4
    with pytest.raises(FileDataError, match="version: this is suite v4, not the v1 asked for"):
        suite.load_suite("gutenberg", 1, path=path)


@pytest.mark.parametrize("key, version", [("gutenberg", 1), ("lead-letter-printers", 2), ("printing-press", 3)])
def test_the_old_versions_load_by_number_score_and_a_missing_one_is_named(key, version):
    """Versions 1, 2 and 3 (one reference a position, the suite's parameters) still load
    and score: the reference's own moves agree and lose nothing, every position judged.
    A version the game does not ship is named with those it does."""
    assert suite.load_suite(key, version)["version"] == version
    result = suite.score_bot("oracle", key, version=version, factory=oracle(0, key, version), iterations=1)
    assert result["suite_version"] == version and result["overall"]["agreement"] == 1.0
    assert result["overall"]["mean_lost"] == 0.0 and "agreement_over" not in result["overall"]
    assert "players" not in result and "note" not in result
    assert version in suite.shipped_versions(key)
    with pytest.raises(ValueError, match=r"has no suite v9 \(shipped: v"):
        suite.load_suite(key, 9)


def test_the_suite_pages_are_the_tools_output():
    """docs/suites/ holds a page per shipped suite, each written by `suite page` from its
    file (so none is edited by hand)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for key in suite.SUITE_VERSIONS:
        for version in suite.shipped_versions(key):
            data = suite.load_suite(key, version)
            source = os.path.relpath(suite.suite_path(key, version), root)
            with open(os.path.join(root, "docs", "suites", suite.page_name(data)), encoding="utf-8") as f:
                assert f.read() == suite.suite_page(data, source), f"remake it: python -m gutenberg_ai.tools.suite page {source}"


def test_a_strong_suites_page_gives_its_kinds_counts_times_and_agreement(tiny):
    page = suite.suite_page(tiny[0], "suite-v4.json")
    assert "| kind | 1 player | 2 players | all |" in page
    assert "| all | 2 | 2 | 4 |" in page
    assert "| 8 |" in page                    # the references, with their time in all
    agree = tiny[0]["made_by"]["agreement"]["agree"]
    assert f"same best move at {agree} of 4 positions" in page


def test_a_work_folder_changed_by_hand_is_named_and_no_suite_written(tiny, tmp_path):
    import shutil
    work = tmp_path / "work"
    shutil.copytree(tiny[1].parent, work)
    pos = tiny[0]["positions"][1]
    ref_path = work / "references" / f"{pos['id']}.2.json"
    ref = json.loads(ref_path.read_text())
    ref["reference"]["best"] = 10**6
    ref_path.write_text(json.dumps(ref))
    with pytest.raises(ValueError, match=re.escape(f"positions[1].references[1].best (references/{pos['id']}.1.json "
                                                   "or .2.json): 1000000 is not among its moves")):
        suite.make_strong_suite("gutenberg", str(work), **TINY)
    game_path = work / "games" / "2p-1.json"
    game = json.loads(game_path.read_text())
    game["decisions"][0][0] = len(game["actions"]) + 5
    game_path.write_text(json.dumps(game))
    with pytest.raises(ValueError, match="2p-1.json: not a game this module wrote"):
        suite.make_strong_suite("gutenberg", str(work), **TINY)


def test_a_shipped_suite_is_never_written_over_and_the_first_form_keeps_its_version(tmp_path, capsys):
    """The first versions' remake and `make` refuse a shipped suite as --out (before any
    work); the first form's file says the version it is (1 to 3) and is read back."""
    shipped = suite.suite_path("gutenberg", 1)
    before = open(shipped, "rb").read()
    assert suite.main(["--game", "gutenberg", "--out", shipped]) == 2
    assert suite.main_make(["--game", "gutenberg", "--work", str(tmp_path / "w"),
                                 "--out", suite.suite_path("gutenberg")]) == 2
    assert "never changed" in capsys.readouterr().err
    assert open(shipped, "rb").read() == before and not (tmp_path / "w").exists()
    assert suite.main(["--game", "gutenberg", "--version", "4", "--out", str(tmp_path / "x.json")]) == 2
    out = tmp_path / "v1.json"
    assert suite.main(["--game", "gutenberg", "--per-kind", "1", "--games", "1", "--bot-iterations", "5",
                            "--reference-iterations", "20", "--out", str(out)]) == 0
    data = suite.load_suite("gutenberg", path=str(out))      # checked as a version 1 file
    assert data["version"] == 1 and data["positions"] and "reference" in data["positions"][0]
