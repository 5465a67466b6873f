"""Bots of your own (module:factory, register_bot, objects), budgets in a name, and
OpenSpiel's C++ reference bots with their settings."""
import json
import os
import subprocess
import sys

import pyspiel
import pytest

from gutenberg_ai.tools import arena
from gutenberg_ai import games
from gutenberg_ai.search.bots import (DEFAULT_REFERENCE, REFERENCE_SETTINGS, budget_options, check_name, make_bot,
                               reference_settings, register_bot, split_budget)
from gutenberg_ai.examples.flat_mc import FlatMonteCarloBot
from gutenberg_ai.search.hints import hint

SPEC = "gutenberg_ai.examples.flat_mc:make_bot"


@pytest.mark.parametrize("key", ["gutenberg", "printing-press"])
def test_the_example_bot_through_its_spec_plays_every_game(key):
    game = games.get(key).load(players=2, rounds=1)
    bot = make_bot(SPEC, game, 1, seed=3, iterations=6)
    assert isinstance(bot, FlatMonteCarloBot) and bot.seat == 1 and bot.iterations == 6
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 1 or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    move = bot.step(state)
    assert move in state.legal_actions()
    assert make_bot(SPEC, game, 1, seed=3, iterations=6).step(state) == move     # seeded


def test_flat_monte_carlo_prefers_the_winning_move():
    # Tic-tac-toe, x to play and win at once: flat MC must find it.
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for a in (0, 3, 1, 4):      # x: 0, 1; o: 3, 4 -> x wins at 2
        state.apply_action(a)
    bot = make_bot(SPEC, game, 0, seed=0, iterations=200)
    assert bot.step(state) == 2


def test_the_factory_gets_game_seat_seed_and_budget():
    seen = {}

    def factory(game, seat, seed, budget, **options):
        seen.update(game=game, seat=seat, seed=seed, budget=budget, options=options)
        return FlatMonteCarloBot(game, seat, seed, iterations=1)

    game = games.get("gutenberg").load(players=2)
    make_bot(factory, game, 1, seed=9, seconds=0.5, colour="red")
    assert seen == {"game": game, "seat": 1, "seed": 9, "budget": {"seconds": 0.5}, "options": {"colour": "red"}}
    make_bot(factory, game, 0, seed=2)
    assert seen["budget"] == {"seconds": 1.0}


def test_bad_specs_are_named():
    game = games.get("gutenberg").load(players=2)
    for spec, words in (("no_such_module_xyz:make", "cannot import 'no_such_module_xyz'"),
                        ("gutenberg_ai.examples.flat_mc:nothing", "no callable 'nothing'"),
                        ("gutenberg_ai.examples.flat_mc:make bot", "module:factory"),
                        ("../evil:make", "module:factory"),
                        ("os:getcwd", "os:getcwd: .*argument")):
        with pytest.raises(ValueError, match=words):
            make_bot(spec, game, 0, iterations=1)
    with pytest.raises(ValueError, match="not a pyspiel.Bot"):
        make_bot(lambda *a: "a string", game, 0)
    with pytest.raises(ValueError, match="is not one of"):
        check_name("alphazero")
    assert check_name(SPEC) == SPEC and check_name("smmcts@20") == "smmcts@20"


def test_budgets_in_a_name():
    assert split_budget("smmcts@500") == ("smmcts", {"iterations": 500})
    assert split_budget("ismcts@0.25s") == ("ismcts", {"seconds": 0.25})
    assert split_budget(SPEC + "@3") == (SPEC, {"iterations": 3})
    assert budget_options("smmcts@500", seconds=1.0) == {"iterations": 500}
    assert budget_options("heuristic", seconds=1.0) == {}
    assert budget_options(SPEC, iterations=7) == {"iterations": 7}
    for bad in ("smmcts@", "smmcts@fast", "smmcts@0", "@5"):
        with pytest.raises(ValueError):
            split_budget(bad)
    game = games.get("gutenberg").load(players=2)
    assert make_bot("smmcts@17", game, 0).iterations == 17


def test_register_bot_and_objects_in_the_arena(tmp_path):
    def mine(game, seat, seed, budget):
        return FlatMonteCarloBot(game, seat, seed, **budget)

    s = arena.ArenaSettings(bots=["mine", "random"], games=2, iterations=2, rounds=1, seed=1)
    summary = arena.run_arena(s, str(tmp_path), factories={"mine": mine})
    assert summary["games"] == 2 and {r["bot"] for r in summary["standings"]} == {"mine", "random"}
    # A bot object plays in this process (it acts for whoever is to move).
    class Anyone(FlatMonteCarloBot):
        def step(self, state):
            return state.legal_actions()[0]

    obj = Anyone(None, 0, 0, iterations=1)
    s2 = arena.ArenaSettings(bots=["obj", "random"], games=2, rounds=1, seed=1)
    assert arena.run_arena(s2, str(tmp_path / "obj"), factories={"obj": obj})["games"] == 2
    with pytest.raises(arena.ArenaError, match="in this process only"):
        arena.run_arena(s2, str(tmp_path / "obj2"), jobs=2, factories={"obj": obj})
    register_bot("mine2", mine)
    assert check_name("mine2") == "mine2"
    with pytest.raises(ValueError):
        register_bot("smmcts", mine)


def test_the_arena_plays_a_spec_the_same_in_processes(tmp_path):
    s = arena.ArenaSettings(bots=[SPEC, "random"], games=2, iterations=2, rounds=1, seed=2)
    one = arena.run_arena(s, str(tmp_path / "one"), jobs=1, plots=False)
    two = arena.run_arena(s, str(tmp_path / "two"), jobs=2, plots=False)
    assert one["standings"] == two["standings"]
    folder = tmp_path / "one" / "games"
    (match,) = os.listdir(folder)
    assert ":" not in match and "flat_mc" in match
    record = json.loads((folder / match / "game-0000.json").read_text())
    assert {e["player"] for e in record["seats"]} == {SPEC, "random"}


def test_hint_from_a_bot_of_your_own():
    game = games.get("gutenberg").load(players=2, rounds=1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    hints = hint(state, bot=SPEC, iterations=4, seed=1)
    assert hints.measure == "policy" and len(hints) == 1
    assert hints[0].action == make_bot(SPEC, game, state.current_player(), seed=1, iterations=4).step(state)
    assert hints[0].win_probability is None and hints[0].interval is None
    cpp = make_bot("openspiel-ismcts-cpp", game, state.current_player(), seed=1, iterations=50)
    hints = hint(state, bot=cpp, top=3)                   # an object: its move first, its policy's shares
    assert hints[0].action in state.legal_actions() and hints[0].share >= hints[-1].share


def test_a_hint_by_a_bot_of_your_own_plays_the_catalogue_given(tmp_path):
    """`hint --catalogue` gives a bot of your own the game the board shows, as it does
    the built-in searches."""
    import shutil
    shutil.copy(os.path.join(os.path.dirname(games.get("gutenberg").rules_module.__file__), "data",
                             "catalogue.json"), tmp_path / "mine.json")
    (tmp_path / "seenbot.py").write_text(
        "import json\n"
        "from gutenberg_ai.examples.flat_mc import make_bot as flat\n"
        "def make_bot(game, seat, seed, budget, **options):\n"
        "    with open('seen.json', 'w') as f:\n"
        "        json.dump(game.get_parameters().get('catalogue', ''), f)\n"
        "    return flat(game, seat, seed, budget, **options)\n")
    position = os.path.abspath("gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json")
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "hint", position, "--bot", "seenbot:make_bot",
                          "--iterations", "2", "--catalogue", "mine.json"], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "seen.json").read_text()) == str(tmp_path / "mine.json")


def test_the_cpp_reference_bots_and_their_settings():
    game = games.get("gutenberg").load(players=2, rounds=1)
    # Measured (docs/your-bot.md): returns in points and uct_c 10, per game.
    ref = REFERENCE_SETTINGS["gutenberg"]["openspiel-ismcts-cpp"]
    assert ref["returns"] in ("score", "margin") and ref["uct_c"] == 10.0
    assert reference_settings("openspiel-mcts-cpp", game) == REFERENCE_SETTINGS["gutenberg"]["openspiel-mcts-cpp"]
    assert DEFAULT_REFERENCE == {"returns": "margin", "uct_c": 10.0}
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    for name in ("openspiel-ismcts-cpp", "openspiel-mcts-cpp"):
        bot = make_bot(name, game, state.current_player(), seed=1, iterations=30)
        ref = reference_settings(name, game)
        assert bot.settings()["returns"] == ref["returns"] and bot.settings()["uct_c"] == ref["uct_c"]
        assert bot.search_game.get_parameters()["returns"] == ref["returns"] != "win"
        assert bot.step(state) in state.legal_actions()
        win = make_bot(name, game, 0, seed=1, iterations=30, returns="win", uct_c=2)
        assert win.settings()["returns"] == "win" and win.search_game is game or \
            win.search_game.get_parameters()["returns"] == "win"
        with pytest.raises(ValueError, match="returns"):
            make_bot(name, game, 0, returns="glory")
        with pytest.raises(ValueError, match="uct_c"):
            make_bot(name, game, 0, uct_c=-1)
    # The margin copy is the same position: same history, same moves.
    bot = make_bot("openspiel-ismcts-cpp", game, 0, iterations=5, returns="margin")
    from gutenberg_ai.search.bots import _in_game
    copy = _in_game(bot.search_game, state)
    assert copy.history() == state.history() and copy.legal_actions() == state.legal_actions()


def run(*args):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_command_line_takes_a_spec(tmp_path):
    out = run("arena", "--bots", f"{SPEC},random", "--games", "2", "--iterations", "2", "--rounds", "1",
              "--jobs", "1", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "flat_mc" in (tmp_path / "summary.md").read_text()
    # --pairings names a bot of your own by its spec (its colon is its own).
    out = run("arena", "--bots", f"{SPEC},heuristic,random", "--pairings", f"{SPEC}:heuristic,{SPEC}:random",
              "--games", "1", "--iterations", "2", "--rounds", "1", "--jobs", "1", "--out", str(tmp_path / "p"))
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "p" / "games").iterdir()) == [
        "gutenberg_ai.examples.flat_mc~make_bot-vs-heuristic", "gutenberg_ai.examples.flat_mc~make_bot-vs-random"]
    out = run("arena", "--bots", f"{SPEC},heuristic,random", "--pairings", f"{SPEC}:heuristic",
              "--out", str(tmp_path / "q"))
    assert out.returncode == 2 and "'random' would play no game" in out.stderr and not (tmp_path / "q").exists()
    out = run("arena", "--bots", "nosuchthing_xyz:make,random", "--out", str(tmp_path / "b"))
    assert out.returncode == 2 and "cannot import" in out.stderr and "Traceback" not in out.stderr
    out = run("hint", "gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json", "--bot", SPEC,
              "--iterations", "3")
    assert out.returncode == 0, out.stderr
    # Its policy, not a search's numbers: no win chance, no "searched", its budget said.
    assert "policy" in out.stdout and " ".join(out.stdout.split()).count("3 iterations a move") == 1
    assert "win" not in out.stdout
    out = run("hint", "gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json", "--bot", "heuristic",
              "--json")
    said = json.loads(out.stdout)
    assert said["measure"] == "policy" and said["budget"] == {} and said["hints"][0]["share"] > 0
    out = run("hint", "gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json", "--bot", "heuristic",
              "--threads", "2")
    assert out.returncode == 2 and "--threads: only the built-in searches" in out.stderr
