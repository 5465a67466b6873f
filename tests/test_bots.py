"""Bots: legal moves in every kind of decision, determinism, options, OpenSpiel interplay,
and a search that sees a winning fulfilment takes it. Strength is measured in
benchmarks/, never asserted here (beyond a safe heuristic-vs-random check)."""
import random

import pyspiel
import pytest

import gutenberg_ai
import positions as P
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.search.bots import BOT_NAMES, make_bot
from every_game import random_step

FAST = {"ismcts": dict(iterations=40), "smmcts": dict(iterations=40),
        "openspiel-ismcts": dict(iterations=2), "openspiel-ismcts-cpp": dict(iterations=30),
        "openspiel-mcts": dict(iterations=2)}


def signature(core):
    """What kind of decision a state asks for: phase, row, sub-step, pending kind/stage,
    fulfil cursor."""
    d = core.to_dict()
    if d["n_pending"]:
        q = d["pending"][0]
        return ("pending", q["kind"], q["stage"])
    if d["phase"] == P.PH["TURN"]:
        return ("turn", d["row"], d["sub"])
    if d["phase"] == P.PH["FULFIL"]:
        return ("fulfil", min(d["fulfil_slot"], P.FM["APPLIED_SLOT"]))
    if d["phase"] == P.PH["PLAN"] and d["sub"] >= 0:
        return ("plan", "free actions")    # a window before the plans, not a plan
    return (core.phase,)


def decision_states(game, games=4, seed=11):
    """One pyspiel state for each kind of decision met in a few seeded random games."""
    rng = random.Random(seed)
    found = {}
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_step(state, rng))
                continue
            found.setdefault(signature(gutenberg_ai.core_of(state)), state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.fixture(scope="module")
def game():
    return gutenberg_ai.load_game(players=2)


@pytest.fixture(scope="module")
def states(game):
    return decision_states(game)


def test_positions_cover_every_kind_of_decision(states):
    kinds = set(states)
    assert ("plan",) in kinds and ("draft",) in kinds and ("types",) in kinds
    for row in range(5):
        assert ("turn", row, P.SUB["CHOOSE"]) in kinds
    assert ("turn", P.ORDERS, P.SUB["REFINEMENT"]) in kinds
    assert ("turn", P.GEAR_ROW, P.SUB["PLACE"]) in kinds
    pending = {k[1] for k in kinds if k[0] == "pending"}
    assert {P.PD["INK"], P.PD["SPECIALTY"], P.PD["ORDER"]} <= pending
    assert any(k[0] == "fulfil" and k[1] < P.FM["FINISH_SLOT"] for k in kinds)
    # The free actions before the plans and after printing.
    assert ("plan", "free actions") in kinds and ("fulfil", P.FM["APPLIED_SLOT"]) in kinds


@pytest.mark.parametrize("name", [n for n in BOT_NAMES if n != "cfr"])  # cfr: tests/test_cfr.py
def test_every_bot_returns_legal_moves_in_every_kind_of_decision(game, states, name):
    for kind, state in states.items():
        bot = make_bot(name, game, state.current_player(), seed=3, **FAST.get(name, {}))
        action = bot.step(state.clone())
        assert action in state.legal_actions(), (name, kind, action)


# openspiel-ismcts-cpp: reproducible only up to OpenSpiel's tie-breaks (test below).
@pytest.mark.parametrize("name", ["random", "heuristic", "ismcts", "smmcts"])
def test_the_same_seed_gives_the_same_move(game, states, name):
    for kind in [("plan",), ("turn", 0, P.SUB["CHOOSE"]), ("turn", 2, P.SUB["CHOOSE"])]:
        state = states[kind]
        player = state.current_player()
        moves = {make_bot(name, game, player, seed=5, **FAST.get(name, {})).step(state.clone())
                 for _ in range(2)}
        assert len(moves) == 1, (name, kind, moves)


def test_search_is_deterministic_with_threads(states):
    core = gutenberg_ai.core_of(states[("plan",)])
    a = _core.search(core, "smmcts", iterations=300, seed=9, threads=2)
    b = _core.search(core, "smmcts", iterations=300, seed=9, threads=2)
    assert a["moves"] == b["moves"] and a["iterations"] == 300


def test_bad_names_and_options_are_named(game):
    with pytest.raises(ValueError, match="'alphazero'"):
        make_bot("alphazero", game, 0)
    with pytest.raises(ValueError, match="frobnicate"):
        make_bot("smmcts", game, 0, frobnicate=1)
    with pytest.raises(ValueError, match="frobnicate"):
        make_bot("openspiel-ismcts", game, 0, frobnicate=1)
    with pytest.raises(ValueError, match="seconds"):
        make_bot("ismcts", game, 0, seconds=-1)
    with pytest.raises(ValueError, match="selection"):
        make_bot("smmcts", game, 0, selection="cfr")
    with pytest.raises(ValueError, match="epsilon"):
        make_bot("heuristic", game, 0, epsilon=2)
    with pytest.raises(ValueError, match="player: 5 is not a seat of this game"):
        make_bot("random", game, 5)
    with pytest.raises(ValueError, match="player: '0' is not a seat"):
        make_bot("smmcts", game, "0")
    with pytest.raises(ValueError, match="game: NoneType is not a game"):
        make_bot("smmcts", None, 0)
    for name in ("smmcts", "heuristic", "random"):    # every bot, one bound: a record's seeds
        with pytest.raises(ValueError, match="seed: 18446744073709551616 is not a seed"):
            make_bot(name, game, 0, seed=2**64)
    with pytest.raises(ValueError, match="'smmcts@500' names its budget, and the options give"):
        make_bot("smmcts@500", game, 0, iterations=200)
    assert make_bot("smmcts@500", game, 0, iterations=500).iterations == 500


def test_a_hint_takes_a_budget_in_the_bots_name_and_refuses_what_it_would_not_use(game, states):
    from gutenberg_ai.search.hints import hint
    state = states[("plan",)]
    assert hint(state, bot="smmcts@120", seed=1).iterations == 120
    with pytest.raises(ValueError, match=r"^smmcts@120 names its own budget \(leave out seconds and iterations\)$"):
        hint(state, bot="smmcts@120", iterations=50)
    with pytest.raises(ValueError, match="uct_c: search options, for the built-in searches"):
        hint(state, bot="heuristic", uct_c=3)
    with pytest.raises(ValueError, match="heuristic does not search: it takes no budget"):
        hint(state, bot="heuristic", iterations=50)
    # A budget in the name of a bot that does not search: the same words, wherever it is named.
    with pytest.raises(ValueError, match="bot 'heuristic@5': heuristic does not search: it takes no budget "
                                         r"\(leave out @5\)"):
        hint(state, bot="heuristic@5")
    with pytest.raises(ValueError, match="bot 'random@0.5s': random does not search: it takes no budget"):
        make_bot("random@0.5s", game, 0)


def test_cpp_ismcts_is_seeded_and_plays_the_native_game_only(game, states):
    state = states[("plan",)]
    player = state.current_player()
    # 200 simulations at a plan step (hundreds of plans): every simulation expands a new
    # move at the root, so OpenSpiel's hash-map tie-breaks inside the search never act
    # and the seed decides the tree (CppISMCTSBot's docstring).
    bot = make_bot("openspiel-ismcts-cpp", game, player, seed=5, iterations=200)
    policy = bot.policy(state)
    assert policy == make_bot("openspiel-ismcts-cpp", game, player, seed=5, iterations=200).policy(state)
    assert policy != make_bot("openspiel-ismcts-cpp", game, player, seed=6, iterations=200).policy(state)
    # The most visited move, ties to the lowest action (not the C++ bot's hash-map order).
    top = max(p for _, p in policy)
    assert bot.step(state.clone()) == min(a for a, p in policy if p == top)
    drawn = make_bot("openspiel-ismcts-cpp", game, player, seed=5, iterations=200,
                     final_policy="normalized_visit_count").step(state.clone())
    assert dict(policy)[drawn] > 0
    with pytest.raises(ValueError, match="native game"):
        make_bot("openspiel-ismcts-cpp", pyspiel.load_game("gutenberg_py"), 0)
    with pytest.raises(ValueError, match="final_policy"):
        make_bot("openspiel-ismcts-cpp", game, 0, final_policy="best")
    with pytest.raises(ValueError, match="frobnicate"):
        make_bot("openspiel-ismcts-cpp", game, 0, frobnicate=1)


def test_our_bots_and_openspiels_play_a_game_through_evaluate_bots():
    game = gutenberg_ai.load_game(players=2, rounds=1)
    for opponent, budget in (("openspiel-ismcts", 2), ("openspiel-ismcts-cpp", 20)):
        bots = [make_bot("smmcts", game, 0, seed=1, iterations=30),
                make_bot(opponent, game, 1, seed=2, iterations=budget)]
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, 4)
        assert state.is_terminal() and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_heuristic_beats_random():
    game = gutenberg_ai.load_game(players=2)
    wins = 0
    for g in range(10):
        seat = g % 2
        bots = [make_bot("random", game, 0, seed=g), make_bot("random", game, 1, seed=g)]
        bots[seat] = make_bot("heuristic", game, seat, seed=g)
        wins += pyspiel.evaluate_bots(game.new_initial_state(), bots, 100 + g)[seat] > 0
    assert wins >= 8


def expected_returns(core, mode):
    """The returns as the game's parameter defines them, computed independently here."""
    scores = core.final_scores()
    n = len(scores)
    if mode == "score":
        return [float(v) for v in scores]
    if mode == "margin":
        return [v - (sum(scores) - v) / (n - 1) for v in scores]
    keys = [core.ranking_key(i) for i in range(n)]
    won = [i for i in range(n) if keys[i] == max(keys)]
    k = len(won)
    if k == n:
        return [0.0] * n
    return [(n - k) / (k * (n - 1)) if i in won else -1 / (n - 1) for i in range(n)]


def returns_of(core, mode):
    return core.returns(mode)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_in_c_equal_the_games(players):
    rules = P.rules(players)
    for seed in range(20):
        core = rules.new_state()
        core.play_random(seed)
        for mode in ("win", "score", "margin"):
            assert _core.returns_of_final(core, mode) == pytest.approx(expected_returns(core, mode))
            assert core.returns(mode) == pytest.approx(expected_returns(core, mode))
    # Ties on fame are broken by fewer types, then fewer inks, else shared.
    d = core.to_dict()
    final = core.final_scores()
    for seat in range(players):
        d["players"][seat]["fame"] += 100 - final[seat]
    for step in ("types", "inks"):
        for seat in range(players):
            p = d["players"][seat]
            if step == "types":
                p["types"] = [1, 1, 1, 0]
            else:    # no inks left anywhere but in the bag: a shared win
                d["bag"] = [b + i for b, i in zip(d["bag"], p["inks"])]
                p["inks"] = [0] * 4
        tied = rules.state_from_dict(d)
        assert len(set(tied.final_scores())) == 1
        assert _core.returns_of_final(tied, "win") == pytest.approx(returns_of(tied, "win"))
    assert returns_of(tied, "win") == [0.0] * players


def winning_fulfilment():
    """Last round, player 0's fulfil turn, 10 fame behind: only fulfilling the one order
    with both refinement parts (+11 fame) wins; anything less loses."""
    rules = P.rules()
    d = P.blank(rules, round=6, types="II", guilders=0)
    P.player(d, 0, fame=20, levels={"binding": 3, "illuminating": 4}, inks={"blue": 2})
    P.player(d, 1, fame=30)
    P.give_order(d, 0, printing=3, refinement=15)    # P3 [I I] 3g; R15 blue+blue 5f, III/IV 6f
    for seat in range(2):
        d["players"][seat]["plan"] = [2, 2, 2, 1, 0] if seat == 0 else [2, 2, 2, 1, 1]
    return P.at_fulfil(rules, d, 0)


@pytest.mark.parametrize("name", ["ismcts", "smmcts"])
def test_a_search_takes_the_winning_fulfilment(name):
    core = winning_fulfilment()
    both = P.fulfil(0, "both")
    assert both in core.legal_actions() and len(core.legal_actions()) == 5
    result = _core.search(core, name, iterations=200, seed=1)
    best = result["moves"][0]
    assert best["action"] == both
    assert best["win"][0] == pytest.approx(1.0)
    assert all(m["win"][0] == pytest.approx(0.0) for m in result["moves"][1:] if m["visits"])


@pytest.mark.parametrize("players,automa", [(2, 0), (3, 0), (1, 1), (2, 1)])
def test_every_search_iteration_reaches_the_tree_in_every_kind_of_decision(players, automa):
    """Every iteration gets past the root (its visits sum to the iterations) and no move
    in the tree fails to fit its sampled state. With an automa, a simultaneous plan step
    holds the players' plans only: the automa's plan is a card revealed by chance (a
    tree that gave the automa a plan of its own once wasted every iteration there)."""
    game = gutenberg_ai.load_game(players=players, automa=automa)
    for kind, state in decision_states(game, games=2, seed=5).items():
        core = gutenberg_ai.core_of(state)
        if len(core.legal_actions()) < 2:
            continue
        for algorithm in ("ismcts", "smmcts"):
            result = _core.search(core, algorithm, iterations=60, seed=1)
            assert result["mismatches"] == 0, (algorithm, kind)
            assert sum(m["visits"] for m in result["moves"]) == 60, (algorithm, kind)


def test_an_open_loop_search_keeps_one_node_whatever_the_draws():
    """open_loop: the draws after a move do not split the node it leads to. In the solo
    game the automa's planning card is drawn once the plan is committed: closed loop, a
    plan's visits spread over a child per card; open loop, one child takes them all, and
    its moves are counted by availability (their legality differs between the draws)."""
    game = gutenberg_ai.load_game(players=1, automa=1)
    states = decision_states(game, games=2, seed=5)
    core = gutenberg_ai.core_of(states[("plan",)])
    for open_loop in (False, True):
        tree = _core.SearchTree(core, "ismcts", 1, **_core.search_config(solo=True, open_loop=open_loop))
        tree.run(300)
        assert tree.mismatches == 0
        best = max(tree.root_stats(), key=lambda m: m["visits"])
        child = tree.child_arms(best["action"])
        selections = sum(a["visits"] for a in child["arms"])
        if open_loop:
            assert child["visits"] == best["visits"]
            assert all(a["avail"] >= a["visits"] for a in child["arms"])
            assert sum(a["avail"] for a in child["arms"]) > selections > 0
        else:
            assert child["visits"] < best["visits"] / 2
            assert all(a["avail"] == 0 for a in child["arms"])
    for kind, state in states.items():
        core = gutenberg_ai.core_of(state)
        if len(core.legal_actions()) < 2:
            continue
        result = _core.search(core, "ismcts", iterations=60, seed=1, open_loop=True)
        assert result["mismatches"] == 0, kind
        assert sum(m["visits"] for m in result["moves"]) == 60, kind
    with pytest.raises(ValueError, match="open_loop: only ismcts"):
        _core.search(core, "smmcts", iterations=10, open_loop=True)
    with pytest.raises(ValueError, match="open_loop: 'yes' is not true or false"):
        _core.search(core, "ismcts", iterations=10, open_loop="yes")


def solo_fulfilment():
    """The solo game's last round, the player's fulfil turn: fulfilling the order with
    both refinement parts brings the most fame (+11), the other ways less or nothing."""
    rules = P.rules(players=1, automa=True)
    d = P.blank(rules, round=6, first_player=1, types="II", guilders=0)
    P.player(d, 0, fame=20, levels={"binding": 3, "illuminating": 4}, inks={"blue": 2})
    P.give_order(d, 0, printing=3, refinement=15)    # P3 [I I] 3g; R15 blue+blue 5f, III/IV 6f
    d["players"][0]["plan"] = [2, 2, 2, 1, 1]
    P.automa(d, plan=[2, 1, 2, 1, 1])
    return P.at_fulfil(rules, d, 0)


@pytest.mark.parametrize("returns", ["score", "win"])   # the solo game returns its score whatever the mode
@pytest.mark.parametrize("name", ["ismcts", "smmcts"])
def test_a_solo_search_sees_the_fame_of_its_moves(name, returns):
    """The solo game returns its score: the search must tell 11 fame from 0. With a
    uniform prior and UCT the visits follow the values alone, so a mapping of returns
    that saturates (every return 1, as when the bots once searched the solo game for
    "win") would spread them evenly over the 5 moves."""
    core = solo_fulfilment()
    both = P.fulfil(0, "both")
    assert both in core.legal_actions() and len(core.legal_actions()) == 5
    result = _core.search(core, name, iterations=400, seed=1, returns=returns,
                          tree_policy="uct", prior_weight=0.0)
    best = result["moves"][0]
    assert best["action"] == both
    assert best["visits"] >= 2 * result["moves"][1]["visits"]
    assert best["fame"][0] == pytest.approx(max(m["fame"][0] for m in result["moves"] if m["visits"]))


def test_the_solo_game_searches_with_its_own_defaults():
    """A search of the solo game starts from the game's solo defaults (less exploration,
    rollouts to the end: benchmarks/README.md) unless told otherwise; a game of two keeps
    the game's own. Same seed, same visits: the defaults are the options spelt out."""
    core = _core
    solo = dict(core.GAME_SOLO_SEARCH_DEFAULTS)
    assert solo and all(core.SEARCH_OPTIONS[k] != v for k, v in solo.items())
    assert core.search_config(solo=True) == {**core.SEARCH_OPTIONS, **solo}
    assert core.search_config(solo=True, cutoff=7)["cutoff"] == 7      # what is said wins

    def visits(state, **options):
        result = core.search(state, "ismcts", iterations=300, seed=3, **options)
        return [(m["action"], m["visits"]) for m in result["moves"]]

    def first_choice(game):
        state = game.new_initial_state()
        while state.is_chance_node() or len(state.legal_actions()) < 3:
            state.apply_action(state.legal_actions()[0])
        return gutenberg_ai.core_of(state)

    solo_state = first_choice(gutenberg_ai.load_game(players=1, automa=1))
    shared = {k: core.SEARCH_OPTIONS[k] for k in solo}
    assert visits(solo_state) == visits(solo_state, **solo)
    assert visits(solo_state) != visits(solo_state, **shared)

    duel = first_choice(gutenberg_ai.load_game(players=2))
    assert visits(duel) == visits(duel, **shared)
    assert visits(duel) != visits(duel, **solo)


def test_search_bots_take_the_games_returns():
    """A native game keeps its returns in its parameters: the bots and hints search for
    them (the solo game: its score; not the 2-player default, win)."""
    for params, mode in [(dict(players=1, automa=1), "score"), (dict(players=2, returns="margin"), "margin"),
                         (dict(players=2), "win")]:
        game = gutenberg_ai.load_game(**params)
        assert gutenberg_ai.games.gutenberg.game.returns_mode_of(game) == mode
        assert make_bot("smmcts", game, 0).options["returns"] == mode


def test_every_selection_rule_searches_the_plan_step(states):
    """Regret matching, regret matching+, Exp3 and decoupled UCT at a simultaneous plan
    step: every iteration reaches the tree, and the rules are really different ones."""
    core = gutenberg_ai.core_of(states[("plan",)])
    shares = {}
    for selection in ("rm", "rm+", "exp3", "uct"):
        result = _core.search(core, "smmcts", iterations=300, seed=4, selection=selection)
        assert result["mismatches"] == 0 and sum(m["visits"] for m in result["moves"]) == 300
        assert result["moves"][0]["action"] in core.legal_actions()
        shares[selection] = [(m["action"], m["visits"]) for m in result["moves"]]
    assert len({tuple(v) for v in shares.values()}) == 4


@pytest.mark.parametrize("name", ["ismcts", "smmcts"])
def test_with_no_heuristic_in_the_priors_a_plan_nodes_moves_are_tried_in_a_random_order(states, name):
    """prior_weight 0 with UCT (smmcts: decoupled UCT at the plan step): every plan once,
    in an order drawn by the seed (as OpenSpiel's ISMCTSBot expands), not the legal order
    nor the heuristic's. With fewer iterations than plans, the plans visited are the first
    ones of that order."""
    core = gutenberg_ai.core_of(states[("plan",)])
    legal = core.legal_actions()
    assert len(legal) > 100

    def visited(seed, prior_weight):
        result = _core.search(core, name, iterations=40, seed=seed, tree_policy="uct", selection="uct",
                              plan_candidates=0, prior_weight=prior_weight, rollout="random", cutoff=0)
        return {m["action"] for m in result["moves"] if m["visits"]}

    first, second = visited(1, 0.0), visited(2, 0.0)
    assert len(first) == len(second) == 40       # 40 iterations, 40 plans each tried once
    assert first != second                       # the order is drawn
    assert first != set(legal[:40])              # ... not the legal order
    assert visited(1, 0.9) == visited(2, 0.9)    # the heuristic's order is the seed's too


@pytest.mark.parametrize("name", ["random", "heuristic", "ismcts", "openspiel-mcts", "openspiel-ismcts",
                                  "openspiel-mcts-cpp", "openspiel-ismcts-cpp"])
def test_a_bot_refuses_a_state_of_another_game(name):
    """A state of another OpenSpiel game (or of this game with other players) would be
    read as one of the bot's game (the C++ MCTS bot crashed on one): a ValueError, every
    bot alike."""
    g = gutenberg_ai.load_game("gutenberg")
    budget = {} if name in ("random", "heuristic") else {"iterations": 5}
    bot = gutenberg_ai.make_bot(name, g, 0, **budget)
    with pytest.raises(ValueError, match="a state of another game: not a game of this project"):
        bot.step(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(ValueError, match="a state of Gutenberg for 3 players, not of this bot's game"):
        bot.step(gutenberg_ai.load_game("gutenberg", players=3).new_initial_state())


def test_options_a_bot_does_not_take_are_named_not_a_type_error():
    """cfr's unknown options and OpenSpiel's Python bots' uct_c out of range: ValueErrors
    naming them (a TypeError and a silent nan before)."""
    from gutenberg_ai.search.cfr import variant_game
    with pytest.raises(ValueError, match="cfr: unknown option.s. foo; known: algorithm, iterations"):
        make_bot("cfr", variant_game(game="gutenberg"), 0, foo=1)
    game = gutenberg_ai.load_game()
    for name in ("openspiel-mcts", "openspiel-ismcts"):
        for uct_c in (float("nan"), -1, True):
            with pytest.raises(ValueError, match=f"{name}: uct_c: {uct_c!r} is not a number >= 0"):
                make_bot(name, game, 0, iterations=5, uct_c=uct_c)
