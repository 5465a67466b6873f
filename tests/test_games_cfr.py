"""Every game's small variant (cfr-mini, gutenberg_ai.search.cfr.VARIANTS) and OpenSpiel's CFR
family on it, written once: the shipped position is its script's, the tree is fit for the
solvers, CFR+ lowers the exploitability, the cfr bot plays the variant and only it. Each
game's file keeps what is its own (tests/test_cfr.py, test_pp_cfr.py, test_llp_cfr.py)."""
import importlib
import json

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr
from gutenberg_ai import games
from every_game import per_game

KEYS = [key for key in games.GAMES if key in cfr.VARIANTS]


@pytest.fixture(scope="module")
def variant():
    """The small variant of each game, loaded once."""
    loaded = {}
    return lambda key: loaded.setdefault(key, cfr.variant_game(game=key))


# The function of the game's variants module that writes its shipped position.
SCRIPTS = {"printing-press": ["cfr_mini_start"], "lead-letter-printers": ["cfr_mini_position"]}


@pytest.mark.parametrize("key, script", per_game(SCRIPTS, default=[], keys=KEYS))
def test_the_shipped_position_is_the_scripts(key, script):
    variants = importlib.import_module(games.get(key).rules_module.__name__.rsplit(".", 1)[0] + ".variants")
    with open(cfr.variant_path(key)) as f:
        assert json.load(f) == getattr(variants, script)()


# The tree's (decision nodes, chance nodes, terminals) and whether a player's information
# state merges histories (a draw they have not seen). Gutenberg's tree is audited in
# test_cfr.py with strings only: its tensors are long.
TREES = {"gutenberg": [],
         "printing-press": [((3987, 6, 56310), True)],
         "lead-letter-printers": [((1196, 12, 347), False)]}


@pytest.mark.parametrize("key, tree", per_game(TREES, keys=KEYS))
def test_the_tree_is_small_and_fit_for_the_solvers(key, tree, variant):
    audit = cfr.audit_tree(variant(key), tensors=True)
    assert audit.ok, (audit.recall_violations[:1], audit.legal_mismatches[:1], audit.tensor_mismatches[:1])
    if tree:
        counts, merged = tree
        assert (audit.decision_nodes, audit.chance_nodes, audit.terminals) == counts
        assert (max(audit.histories_per_info_state) > 1) == merged
    assert set(audit.info_states) == {0, 1}            # both players decide


# CFR+'s iterations and checkpoints and the exploitability it must get below; the uniform
# policy's exploitability where it was measured; the iterations of vanilla CFR that CFR+
# must beat. Measured (docs/search.md, benchmarks/README.md): Gutenberg's CFR+ 0.068 in 20
# iterations (uniform play 0.97); Printing Press's CFR+ 0.0135 in 20, CFR 0.082 (uniform
# 0.83); Lead Letter Printers' CFR+ about 3e-5 in 100, CFR 5e-4 in 300.
SOLVES = {
    "gutenberg": [dict(iterations=20, checkpoints=0, below=0.10)],
    "printing-press": [dict(iterations=20, checkpoints=4, below=0.02, uniform=0.832, vanilla=10)],
    "lead-letter-printers": [dict(iterations=50, checkpoints=5, below=0.01, vanilla=10)],
}


@pytest.mark.parametrize("key, solve", per_game(SOLVES, keys=KEYS,
                                                default=[dict(iterations=20, checkpoints=2, below=0.5)]))
def test_cfr_plus_lowers_exploitability(key, solve, variant):
    game = variant(key)
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    if "uniform" in solve:
        assert uniform == pytest.approx(solve["uniform"], abs=1e-3)
    plus = cfr.solve(game, "cfr+", iterations=solve["iterations"], checkpoints=solve["checkpoints"])
    values = [v for _, _, v in plus.curve]
    assert values == sorted(values, reverse=True) and values[-1] < solve["below"] < uniform
    assert plus.curve[-1][0] == solve["iterations"] and plus.seconds > 0
    if "vanilla" in solve:
        vanilla = cfr.solve(game, "cfr", iterations=solve["vanilla"])
        assert plus.exploitability < vanilla.exploitability < uniform


# The cfr bot's iterations.
BOT_ITERATIONS = {"gutenberg": [5], "printing-press": [5], "lead-letter-printers": [20]}


@pytest.mark.parametrize("key, iterations", per_game(BOT_ITERATIONS, default=[5], keys=KEYS))
def test_the_cfr_bot_plays_the_variant_only(key, iterations, variant):
    game = variant(key)
    # One seed for both players and the step below: the solve is made once (cfr caches it).
    bots = [gutenberg_ai.make_bot("cfr", game, p, iterations=iterations, seed=9) for p in range(2)]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, 4)
    assert sum(returns) == pytest.approx(0.0) and state.is_terminal()
    start = game.new_initial_state()
    moves = {gutenberg_ai.make_bot("cfr", game, start.current_player(), iterations=iterations, seed=9).step(start)
             for _ in range(2)}
    assert len(moves) == 1 and moves <= set(start.legal_actions())
    with pytest.raises(ValueError, match=rf"small variant only .*game='{key}'"):
        gutenberg_ai.make_bot("cfr", games.get(key).load(), 0)
