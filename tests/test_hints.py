"""Hints: ranked moves with shares that sum to one, the fields filled in, deterministic
for a seed and an iteration budget, for pyspiel states and core states alike."""
import random

import pytest

import gutenberg_ai
import positions as P
from test_bots import winning_fulfilment

from gutenberg_ai.search.hints import MIN_VISITS, interval_of, level_with
from every_game import play_random


def at_plan(seed=2, commit=True):
    """A pyspiel state at the first plan step; with `commit`, the first player has
    committed, so player 1's hint must not see that plan."""
    game = gutenberg_ai.load_game(players=2)
    state = game.new_initial_state()
    rng = random.Random(seed)
    # (past the free actions before it)
    play_random(state, rng, stop=lambda s: gutenberg_ai.core_of(s).step_name() == "plan")
    if commit:
        state.apply_action(state.legal_actions()[17])
    return state


@pytest.mark.parametrize("bot", ["smmcts", "ismcts"])
def test_hints_are_ranked_and_shares_sum_to_one(bot):
    state = at_plan()
    hints = gutenberg_ai.hint(state, bot=bot, iterations=1600, top=1000)   # 400 a tree
    assert len(hints) > 1
    assert sum(h.share for h in hints) == pytest.approx(1.0)
    # The moves with an interval first, by their chance to win; then the others, most
    # searched first.
    measured = [h for h in hints if h.interval is not None]
    assert measured and hints[:len(measured)] == measured
    wins = [h.win_probability for h in measured]
    assert wins == sorted(wins, reverse=True)
    shares = [h.share for h in hints[len(measured):]]
    assert shares == sorted(shares, reverse=True)
    legal = state.legal_actions()
    for h in hints:
        assert h.action in legal
        assert h.text == state.action_to_string(state.current_player(), h.action)
        if h.share > 0:
            assert 0.0 <= h.win_probability <= 1.0 and h.expected_fame > 0
        else:    # never tried: no estimates
            assert h.win_probability is None and h.expected_fame is None
        assert isinstance(h.line, list) and all(isinstance(x, str) for x in h.line)
    assert hints[0].line and hints[0].line[0].startswith("player ")
    assert set(hints[0].as_dict()) == {"action", "text", "share", "win_probability", "expected_fame", "interval",
                                       "level", "line", "standing"}
    assert hints.iterations == 1600 and hints.measure == "win"


def test_a_search_whose_time_ran_out_before_an_iteration_shares_nothing():
    # Every move's share is its part of the visits: none made, none shared out.
    hints = gutenberg_ai.hint(at_plan(), seconds=1e-300, top=1000)
    assert hints.iterations == 0 and len(hints) > 1
    assert all(h.share == 0.0 and h.win_probability is None and h.interval is None for h in hints)
    assert {h.standing for h in hints} == {"too few samples"}


def test_hints_say_how_sure_they_are():
    """Each tried move's win chance comes with a 95% interval around it, from the
    search's batch means; a move is level with the best when their difference is within
    the 95% test of a difference.
    A forced win leaves no doubt; at a plan early in the game the search cannot tell
    many plans apart (level, or searched too little for an interval), and says so."""
    sure = gutenberg_ai.hint(winning_fulfilment(), iterations=2000, top=3)
    best = sure[0]
    lo, hi = best.interval
    assert lo <= best.win_probability <= hi and hi - lo < 0.05
    assert all(h.level is False for h in sure[1:] if h.interval and h.interval[1] < lo)
    unsure = gutenberg_ai.hint(at_plan(), iterations=400, top=8)
    for h in unsure[1:]:
        if h.interval is not None:
            assert h.interval[0] <= h.win_probability <= h.interval[1]
            assert h.level == level_with(unsure[0].win_probability, unsure[0].interval, h.win_probability,
                                         h.interval)
    # 400 iterations over hundreds of plans: some within noise, or too few samples to say.
    assert any(h.standing in ("level", "too few samples") for h in unsure[1:])
    wider = gutenberg_ai.hint(at_plan(), iterations=400, top=1)[0].interval
    narrower = gutenberg_ai.hint(at_plan(), iterations=3000, top=1)[0].interval
    assert narrower[1] - narrower[0] < wider[1] - wider[0]   # more search, surer


def test_hints_are_deterministic_for_a_seed_and_budget():
    state = at_plan()
    a = gutenberg_ai.hint(state, iterations=300, seed=4)
    b = gutenberg_ai.hint(state, iterations=300, seed=4)
    assert a == b and len(a) == 5


def test_a_hint_bot_plays_the_hints_first_move():
    """HintBot (a hint as a player, for harnesses that score bots) plays what the hint
    with its settings ranks first, at each seed; with top=1, the most searched move."""
    from gutenberg_ai.search.hints import HintBot
    state = at_plan(commit=False)
    for seed in (1, 2, 3):
        bot = HintBot(state.get_game(), 0, seed=seed, iterations=300, threads=1)
        shown = gutenberg_ai.hint(state, iterations=300, seed=seed, threads=1)
        assert bot.step(state) == shown[0].action
        most = max(shown, key=lambda h: h.share)
        assert HintBot(state.get_game(), 0, seed=seed, iterations=300, threads=1, top=1).step(state) == most.action
    moves = {HintBot(state.get_game(), 0, seed=s, iterations=50, threads=1, bot="ismcts").step(state) for s in range(6)}
    assert moves <= set(state.legal_actions())


def test_hints_do_not_depend_on_the_hidden_plan():
    # Player 1 hints the same whatever player 0 committed: that plan is unseen.
    one, other = at_plan(commit=False), at_plan(commit=False)
    one.apply_action(one.legal_actions()[0])
    other.apply_action(other.legal_actions()[-1])
    for bot in ("smmcts", "ismcts"):
        assert (gutenberg_ai.hint(one, bot=bot, iterations=300) ==
                gutenberg_ai.hint(other, bot=bot, iterations=300))


def test_hints_for_a_core_state_and_the_winning_fulfilment():
    core = winning_fulfilment()
    hints = gutenberg_ai.hint(core, iterations=200, top=5)
    assert hints[0].action == P.fulfil(0, "both")
    assert hints[0].win_probability == pytest.approx(1.0)
    assert hints[0].text == "fulfil: order 1 print+both"


def test_hint_errors_name_the_problem():
    state = at_plan()
    with pytest.raises(ValueError, match="player 0 is not to act"):
        gutenberg_ai.hint(state, player=0)
    with pytest.raises(ValueError, match="bot: 'alphazero'"):
        gutenberg_ai.hint(state, bot="alphazero")
    # Another bot than the search gives its own move (docs/your-bot.md), no made-up odds.
    other = gutenberg_ai.hint(state, bot="random", seed=3, top=1000)
    assert other.measure == "policy" and other[0].win_probability is None
    # The random bot's policy is uniform, its own move one of them (not a made-up 100%).
    n = len(state.legal_actions())
    assert len(other) == n and all(h.share == pytest.approx(1 / n) for h in other)
    with pytest.raises(ValueError, match="top"):
        gutenberg_ai.hint(state, top=0)
    with pytest.raises(ValueError, match="chance"):
        gutenberg_ai.hint(gutenberg_ai.load_game().new_initial_state())


def test_solo_hints_speak_of_expected_fame_not_of_winning():
    """Solo there is nobody to beat: a hint has no win probability (not a meaningless
    1), and its interval and level are about the expected fame, a real projection at
    the start of a solo game (the solo games of benchmarks/solo.py end near 140)."""
    game = gutenberg_ai.load_game(players=1, automa=1)
    state = game.new_initial_state()
    rng = random.Random(2)
    play_random(state, rng, stop=lambda s: not s.is_chance_node() and len(s.legal_actions()) >= 3)
    hints = gutenberg_ai.hint(state, iterations=600, top=3, seed=1)
    assert hints.measure == "fame"
    assert [h.win_probability for h in hints] == [None, None, None]
    assert all(60 < h.expected_fame < 200 for h in hints)
    assert hints[0].interval is not None
    for h in hints:
        if h.interval is not None:
            assert h.interval[0] <= h.expected_fame <= h.interval[1] and h.interval[1] > 1.0   # fame, not a share


@pytest.mark.parametrize("bot", ["smmcts", "ismcts"])
def test_hints_do_not_depend_on_the_tile_another_player_put_back(bot):
    """3 players drawing characters: player 0 kept one tile (shown) and put the other
    back face down; player 1 cannot tell which, and player 2 will draw from what is
    left, so player 1's hints are the same whichever tile it was."""
    game = gutenberg_ai.load_game(players=3)
    state = game.new_initial_state()
    rng = random.Random(5)
    play_random(state, rng, stop=lambda s: not s.is_chance_node() and s.current_player() == 1
                and gutenberg_ai.core_of(s).phase == "characters")
    core = gutenberg_ai.core_of(state)
    d = core.to_dict()
    p0 = d["players"][0]
    put_back = next(x for x in p0["character_drawn"] if x != p0["character"])
    other = next(x for x in range(10) if d["character_pool"] >> x & 1)
    p0["character_drawn"] = [other if x == put_back else x for x in p0["character_drawn"]]
    d["character_pool"] = d["character_pool"] & ~(1 << other) | (1 << put_back)
    twin = core.rules.state_from_dict(d)
    assert twin.observation_string(1) == core.observation_string(1)
    assert gutenberg_ai.hint(core, bot=bot, iterations=300) == gutenberg_ai.hint(twin, bot=bot, iterations=300)


POSITIONS = "gutenberg_ai/games/gutenberg/data/positions/"


def _position(name):
    import os
    from gutenberg_ai.games.gutenberg.position import load_position
    path = os.path.join(os.path.dirname(__file__), "..", POSITIONS, name)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return load_position(path), text


@pytest.mark.parametrize("name", ["turn-inks-round3-3p.json", "solo-automa-round4.json"])
def test_the_expected_line_names_only_what_the_player_can_know(name):
    """The line the search expects stops at the first draw: the tree's most visited
    outcome there is one of its own redraws, so any card it names after it would be a
    card nobody has drawn. Every card the line names is one on the table (the position
    file names every card in view), and a draw is said as one."""
    import re
    pos, text = _position(name)
    on_table = set(re.findall(r'"([PRSGC]\d+)"', text))
    hints = gutenberg_ai.hint(pos.state, iterations=3000, top=3, line_length=40)
    drawn = [h for h in hints if h.line and h.line[-1] == "a draw, not known yet"]
    assert drawn, [h.line for h in hints]           # these lines reach a draw within 40 steps
    for h in hints:
        assert "a draw, not known yet" not in h.line[:-1]       # nothing after the draw
        for step in h.line:
            assert set(re.findall(r"\b([PRSGC]\d+)\b", step)) <= on_table, step


def test_the_best_move_has_the_highest_measure_and_no_interval_is_zero_wide():
    """At the winning fulfilment (tests/test_bots.py) the best move wins every
    simulation, and the others are tried a few times and lose them all. Batches that
    all agree give no spread to measure: no move shows a zero-width interval as if
    certain (the best: the Wilson interval of its 2,000-odd wins; a move tried a few
    times: no interval at all, not (0-0%)), the moves are ordered by their chance to
    win among those measured, "best" is the first of them, no move marked level or
    behind shows a higher chance than the best, and a move with no interval is said to
    be tried too little."""
    hints = gutenberg_ai.hint(winning_fulfilment(), iterations=2000, top=5)
    measured = [h for h in hints if h.interval is not None]
    assert measured and hints[:len(measured)] == measured      # the measured first
    assert [h.win_probability for h in measured] == sorted((h.win_probability for h in measured), reverse=True)
    assert hints[0].standing == "best"
    for h in hints:
        if h.interval is not None:
            assert h.interval[1] - h.interval[0] > 0.0
            assert h.interval[0] <= h.win_probability <= h.interval[1]
        else:
            assert h.standing == "too few samples"
    for h in hints[1:]:
        assert h.win_probability is None or h.win_probability <= hints[0].win_probability
        assert h.standing in ("level", "behind", "too few samples")
    few = [h for h in hints if 0 < h.share * hints.iterations < MIN_VISITS]
    assert few and all(h.interval is None and h.win_probability == 0.0 for h in few)   # tried, never won


def test_an_interval_from_few_batches_is_wide_however_well_they_agree():
    """Two batches whose means agree to within a standard error of 0.01 are not a sure
    measure: Student's t for 1 degree of freedom (12.7) makes the interval +-0.127, not
    the normal +-0.0196; sixteen batches give +-0.0213."""
    lo, hi = interval_of(0.5, 0.01, "win", 200, 2)
    assert (hi - lo) / 2 == pytest.approx(0.127, abs=1e-3)
    lo, hi = interval_of(0.5, 0.01, "win", 200, 16)
    assert (hi - lo) / 2 == pytest.approx(0.0213, abs=1e-3)
    assert interval_of(0.5, 0.01, "win", 200, 1) is None      # one batch: no spread to tell
    assert interval_of(0.5, 0.0, "win", 200, 16)[1] > 0.5       # all agree: Wilson, not zero-wide


def test_level_is_the_test_of_a_difference_not_overlapping_intervals():
    """Best 60% (55-65%), another 52% (47-57%): the intervals overlap, but the difference,
    8 points, is beyond sqrt(5^2 + 5^2) = 7.1 points: the search tells them apart. At
    57% (52-62%), 3 points apart, it does not."""
    assert level_with(0.60, (0.55, 0.65), 0.52, (0.47, 0.57)) is False
    assert level_with(0.60, (0.55, 0.65), 0.57, (0.52, 0.62)) is True
    assert level_with(0.60, (0.55, 0.65), 0.57, None) is None


def test_a_narrow_interval_is_written_with_the_decimals_that_tell_its_ends_apart():
    """The terminal's words for a hint: an interval narrower than a whole percent (or a
    point of score, solo) would round to "72-72%", which reads as certain; a decimal more
    is shown, the measure's too, until its ends differ. A wide one keeps whole units."""
    from types import SimpleNamespace

    from gutenberg_ai.interfaces.tui import measure_text
    narrow = SimpleNamespace(win_probability=0.7204, interval=(0.7161, 0.7247), expected_fame=None)
    assert measure_text(narrow, False) == "chance to win 72.0% (71.6-72.5%)"
    wide = SimpleNamespace(win_probability=0.54, interval=(0.47, 0.61), expected_fame=None)
    assert measure_text(wide, False) == "chance to win 54% (47-61%)"
    solo = SimpleNamespace(win_probability=None, interval=(73.02, 73.04), expected_fame=73.03)
    assert measure_text(solo, True, "points") == "expected final points 73.03 (73.02-73.04)"
    assert measure_text(SimpleNamespace(win_probability=0.5, interval=None, expected_fame=None), False) \
        == "chance to win 50% (too few samples for an interval)"


def test_a_progress_that_is_not_a_function_is_refused_before_the_search():
    """It was called during the search, a TypeError after some of it had run."""
    state = gutenberg_ai.load_game().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="progress: 5 is not a function"):
        gutenberg_ai.hint(state, iterations=10, progress=5)
