"""Lead Letter Printers' own search defaults (GAME_SEARCH_DEFAULTS in its search hooks) and
its rollout policy's shortcuts."""
import random

import pytest

from every_game import mixed_move
from gutenberg_ai import games
from gutenberg_ai.games.lead_letter_printers import make_rules


def decisions(players, seeds):
    """Every decision (not a draw) of seeded games of the core, the heuristic's moves
    mixed with random ones, one game a seed."""
    rules = make_rules({"players": players})
    for seed in seeds:
        rng = random.Random(seed)
        s = rules.new_state()
        while not s.is_terminal():
            if not s.is_chance():
                yield s
            s.apply(mixed_move(s, rng, 0.7))


def test_its_rollouts_stop_after_50_decisions_the_rest_shared():
    llp = games.get("lead-letter-printers").core
    assert llp.GAME_SEARCH_DEFAULTS == {"cutoff": 50}
    assert llp.SHARED_SEARCH_OPTIONS["cutoff"] == 100
    assert llp.search_config() == {**llp.SHARED_SEARCH_OPTIONS, "cutoff": 50}
    assert llp.search_config(cutoff=100) == llp.SHARED_SEARCH_OPTIONS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_heuristic_reusing_the_other_seats_values_gives_the_values_of_evaluating_all(players):
    # The rollout policy keeps the other seats' evaluations where an action leaves what
    # they read unchanged (OthersKnown in heuristic.pxi); the values must be the same
    # doubles as evaluating every seat afresh, at every decision of mixed seeded games.
    llp = games.get("lead-letter-printers")
    checked = 0
    for s in decisions(players, [100 * players + seed for seed in range(2)]):
        if len(s.legal_actions()) > 1:
            assert llp.core.heuristic_values(s) == llp.core.heuristic_values(s, reuse_others=False)
            checked += 1
    assert checked > 100


@pytest.fixture
def weights():
    """The evaluation's weights, put back after the test (they are the process's)."""
    core = games.get("lead-letter-printers").core
    before = core.heuristic_weights()
    yield core
    core.set_heuristic_weights(before)


def test_a_mark_and_a_resource_are_worth_a_fifth_of_a_point_and_more_per_round_left(weights):
    # seat_value counts each resource and mark at 1/SCORE_DIVISOR plus a per-round worth
    # for each round left (at most 4): raising the per-round worth by 0.1 raises a seat's
    # value by 0.1 * (its marks or resources) * min(rounds left, 4), and not at all once no
    # round is left.
    assert weights.heuristic_weights()["MARK_AT_END"] == weights.heuristic_weights()["RESOURCE_AT_END"] == 0.2
    seen_rounds = set()
    for s in decisions(3, [7]):
        d = s.to_dict()
        rl = min(s.rounds_left(), 4)
        for name, held in (("MARK_PER_ROUND", [p["marks"] for p in d["players"]]),
                           ("RESOURCE_PER_ROUND", [sum(p["res"]) for p in d["players"]])):
            before = weights.evaluate_state(s)
            w = weights.heuristic_weights()[name]
            weights.set_heuristic_weights({name: w + 0.1})
            after = weights.evaluate_state(s)
            weights.set_heuristic_weights({name: w})
            assert after == pytest.approx([b + 0.1 * h * rl for b, h in zip(before, held)])
        seen_rounds.add(rl)
    assert {0, 1, 4} <= seen_rounds


def test_heuristic_weights_are_checked_all_at_once_and_nothing_is_half_set(weights):
    before = weights.heuristic_weights()
    with pytest.raises(ValueError) as e:
        weights.set_heuristic_weights({"MARK_PER_ROUND": 0.01, "NO_SUCH": 1.0, "UNUSED_DISC": float("inf"),
                                       "OPEN_SLOT": "0.5", "LETTER_HELD": True, "HELD_CONTRACT": 1e6})
    message = str(e.value)
    for part in ("'NO_SUCH' is not a weight", "UNUSED_DISC: inf", "OPEN_SLOT: '0.5'", "LETTER_HELD: True",
                 "HELD_CONTRACT: 1000000.0"):
        assert part in message
    assert "MARK_PER_ROUND" not in message.split("known:")[0]
    assert weights.heuristic_weights() == before
    with pytest.raises(ValueError, match="a mapping"):
        weights.set_heuristic_weights([("MARK_PER_ROUND", 0.1)])
    weights.set_heuristic_weights({"MARK_PER_ROUND": 0.01})
    assert weights.heuristic_weights() == {**before, "MARK_PER_ROUND": 0.01}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_the_last_optional_actions_a_player_who_passed_is_worth_the_score_as_it_stands(players):
    # Game end: "The players in player order have the opportunity to perform all optional
    # actions once more. They may use all their unused signboards and/or city discs and
    # activate contracts", then the final scoring; nothing is produced any more. What a
    # player has not used when it passes scores nothing: its evaluation is then the final
    # scoring's lines with resources and cash at a fifth of a point unrounded (no worth
    # for unused signboards, discs, contracts held, letters or orders' stages). A player
    # still to act may still use them: worth at least that, and more while it holds any.
    core = games.get("lead-letter-printers").core
    passed = holding = 0
    for s in decisions(players, [300 * players + seed for seed in range(3)]):
        if not s.phase.startswith("game end: last optional actions"):
            continue
        values = core.evaluate_state(s)
        d = s.to_dict()
        for q in range(players):
            lines = s.score_breakdown(q)
            p = d["players"][q]
            exact = lines["total"] - lines["resources_and_cash"] + 0.2 * (sum(p["res"]) + p["marks"])
            if d["order"].index(q) < d["turn"]:
                assert values[q] == pytest.approx(exact)
                passed += 1
            else:
                assert values[q] >= exact - 1e-9
                holding += values[q] > exact + 1e-9
    assert passed >= 3 and holding >= 3


def last_actions_won_by_a_long_line():
    """Suite v4's 2p-endgame-1: player 0 (34 points as the game would count them now,
    against 36) at the last optional actions, whose win is a line of a dozen decisions
    (a free travel, a factory built on the way, a letter typeset, a contract activated
    in the slot it opens): no single move scores."""
    from gutenberg_ai.tools import suite
    data = suite.load_suite("lead-letter-printers", 4)
    pos = next(p for p in data["positions"] if p["id"] == "2p-endgame-1")
    return suite.core_of(suite.position_state(data, pos))


def test_a_solitary_turn_is_played_out_by_the_line_with_the_best_final_score():
    core = games.get("lead-letter-printers").core
    s = last_actions_won_by_a_long_line()
    assert s.current_player() == 0 and s.final_scores() == [34, 36]
    end, searched = core.play_solitary_turn(s, seed=3, nodes=16384)
    assert searched == 16384 and s.final_scores() == [34, 36]      # the state given is left alone
    assert end.current_player() == 1 and end.final_scores() == [43, 36]
    again, _ = core.play_solitary_turn(s, seed=3, nodes=16384)
    assert again.to_bytes() == end.to_bytes()                       # the same seed, the same line
    # A smaller search plays a line no worse than passing at once.
    small, searched = core.play_solitary_turn(s, seed=3, nodes=100)
    assert searched == 100 and small.current_player() == 1 and 34 <= small.final_scores()[0] < 43


def test_a_turn_that_is_not_solitary_or_a_bad_bound_is_refused():
    core = games.get("lead-letter-printers").core
    s = make_rules({"players": 2}).new_state()
    while s.is_chance():
        s.apply(s.legal_actions()[0] if not s.is_chance() else s.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not a solitary turn"):
        core.play_solitary_turn(s)
    for nodes in (0, -1, core.MAX_SOLITARY_TURN_NODES + 1):
        with pytest.raises(ValueError, match="nodes"):
            core.play_solitary_turn(last_actions_won_by_a_long_line(), nodes=nodes)
    for bad in (-1, core.MAX_SOLITARY_TURN_NODES + 1, 1.5, "9"):
        with pytest.raises((ValueError, TypeError), match="turn_nodes"):
            core.search_config(turn_nodes=bad)


def test_the_rollouts_play_a_solitary_turn_by_search_with_turn_nodes():
    # Move by move, the heuristic's rollouts never find the win of a long line (every
    # move's chance to win stays at 0); searched out in each rollout, they find it from
    # the first iterations.
    core = games.get("lead-letter-printers").core
    s = last_actions_won_by_a_long_line()
    plain = core.search(s, "smmcts", iterations=200, seed=1)
    searched = core.search(s, "smmcts", iterations=200, seed=1, turn_nodes=16384)
    assert max(m["win"][0] for m in plain["moves"]) < 0.05
    assert max(m["win"][0] for m in searched["moves"]) > 0.5


class _Watched:
    """A core module whose heuristic_move and search note the weights in force."""

    def __init__(self, core):
        self.core, self.seen = core, []

    def __getattr__(self, name):
        return getattr(self.core, name)

    def heuristic_move(self, *args):
        self.seen.append(self.core.heuristic_weights()["OPEN_SLOT"])
        return self.core.heuristic_move(*args)

    def search(self, *args, **kwargs):
        self.seen.append(self.core.heuristic_weights()["OPEN_SLOT"])
        return self.core.search(*args, **kwargs)


@pytest.mark.parametrize("bot_name", ["heuristic", "smmcts"])
def test_a_bot_with_its_own_weights_searches_with_them_and_leaves_the_process_s(weights, bot_name):
    # The weights are the process's: a bot given `weights` sets them for its own moves only,
    # so that another bot in the same process (an arena, a tuning study) keeps the others.
    from gutenberg_ai.search.bots import make_bot
    game = games.get("lead-letter-printers").load(players=2)
    budget = {"iterations": 20} if bot_name == "smmcts" else {}
    own = make_bot(bot_name, game, 0, seed=1, weights={"OPEN_SLOT": 7.5}, **budget)
    other = make_bot(bot_name, game, 1, seed=1, **budget)
    own.core = _Watched(own.core)
    other.core = _Watched(other.core)
    state = game.new_initial_state()
    while len(own.core.seen) < 2 or len(other.core.seen) < 2:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        bot = own if state.current_player() == 0 else other
        state.apply_action(bot.step(state))
    assert set(own.core.seen) == {7.5}
    # The others: a search with the game's searches' weights, the heuristic player with the core's.
    from gutenberg_ai.games.lead_letter_printers.game import SEARCH_WEIGHTS
    assert set(other.core.seen) == ({SEARCH_WEIGHTS["OPEN_SLOT"]} if bot_name == "smmcts" else {0.6})
    assert weights.heuristic_weights()["OPEN_SLOT"] == 0.6
    with pytest.raises(ValueError, match=r"weights: .*'NO_SUCH' is not a weight"):
        make_bot(bot_name, game, 0, weights={"NO_SUCH": 1.0}, **budget)
    assert weights.heuristic_weights()["OPEN_SLOT"] == 0.6


def test_the_searches_run_with_the_games_search_weights_the_heuristic_player_with_the_cores(
        weights, monkeypatch):
    # The weights tuned for the search make a weaker greedy player: the core keeps the
    # greedy player's, and every search of the game (bots, hints, a suite's references, a
    # review) runs with the game's own over them, leaving the process's as they were.
    from gutenberg_ai.games.lead_letter_printers.game import SEARCH_WEIGHTS
    from gutenberg_ai.search.bots import make_bot
    from gutenberg_ai.search.hints import hint
    from gutenberg_ai.tools import review, suite
    core = weights
    assert games.check_evaluation_weights(core, SEARCH_WEIGHTS) == SEARCH_WEIGHTS   # every name is one
    assert any(core.heuristic_weights()[name] != value for name, value in SEARCH_WEIGHTS.items())
    game = games.get("lead-letter-printers").load(players=2)
    assert make_bot("smmcts", game, 0, iterations=10).weights == SEARCH_WEIGHTS
    assert make_bot("smmcts", game, 0, iterations=10, weights={"OPEN_SLOT": 2.0}).weights == \
        {**SEARCH_WEIGHTS, "OPEN_SLOT": 2.0}
    assert make_bot("heuristic", game, 0).weights is None
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    def ranked(**more):
        return [(h.action, h.win_probability) for h in hint(state, iterations=300, seed=2, threads=1, **more)]
    assert ranked() == ranked(weights=SEARCH_WEIGHTS)
    assert ranked() != ranked(weights=core.heuristic_weights())
    seen = []
    search = core.search
    def watched(*args, **kwargs):
        seen.append(core.heuristic_weights()["OPEN_SLOT"])
        return search(*args, **kwargs)
    monkeypatch.setattr(core, "search", watched)
    suite.reference_search(state, 20, seed=1)
    assert seen == [SEARCH_WEIGHTS["OPEN_SLOT"]]
    review._search(core, games.core_of(state), "smmcts", {"iterations": 20}, 1, 1, {}, {"OPEN_SLOT": 3.0})
    assert seen[-1] == 3.0
    assert core.heuristic_weights()["OPEN_SLOT"] == 0.6


def test_weights_are_refused_in_a_game_whose_evaluation_names_none():
    from gutenberg_ai.search.bots import make_bot
    from gutenberg_ai.search.hints import hint
    game = games.get("gutenberg").load(players=2)
    with pytest.raises(ValueError, match="this game's evaluation has no named weights"):
        make_bot("smmcts", game, 0, iterations=10, weights={"OPEN_SLOT": 1.0})
    with pytest.raises(ValueError, match="this game's evaluation has no named weights"):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        hint(state, iterations=10, weights={"OPEN_SLOT": 1.0})
