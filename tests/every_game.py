"""What the tests share across the games: the table's games as test parameters
(`KEYS`, `per_game`), seeded random play through OpenSpiel (`random_step`, `play_random`)
and in a compiled core (`mixed_move`, `play_core`), the check of a resampled state, the
command line run in this process (`cli`) and a decision's screen in a 100x40 terminal.
A test written once over `KEYS` covers a new game as soon as the game is in
gutenberg_ai.games.GAMES; a table of per-game cases names what differs, with a default
for a game it does not name."""
from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys

import numpy as np
import pytest

import gutenberg_ai
from gutenberg_ai import games
from gutenberg_ai.interfaces.cli import main

KEYS = list(games.GAMES)


def per_game(table: dict, default=({},), keys=None) -> list:
    """pytest parameters (game key, case) for every game of the table (or of `keys`):
    its cases in `table` (a list each), or `default` for a game the table does not name."""
    return [pytest.param(key, case, id=f"{key}-{i}")
            for key in (keys or KEYS) for i, case in enumerate(table.get(key, default))]


def random_step(state, rng, prefer=None) -> int:
    """One seeded random action of an OpenSpiel state (a draw by its probabilities);
    prefer(legal) may narrow the choices. Returns the action, not yet applied."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        return rng.choices(outcomes, probs)[0]
    legal = state.legal_actions()
    return rng.choice((prefer(legal) if prefer else None) or legal)


def play_random(state, rng, stop=None, prefer=None):
    """Seeded random play of an OpenSpiel state (`rng` a random.Random) until the end or
    stop(state); prefer(legal) may narrow the choices. Returns the state."""
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(random_step(state, rng, prefer))
    return state


def check_resample(game, state, player, seed):
    """A state resampled for `player` looks the same to them (strings, tensors, legal
    actions when it is their turn), is whole, and survives serialization. Returns
    whether anything was redrawn."""
    r = state.resample_from_infostate(player, random.Random(seed).random)
    assert r.information_state_string(player) == state.information_state_string(player)
    assert r.observation_string(player) == state.observation_string(player)
    assert np.array_equal(r.information_state_tensor(player), state.information_state_tensor(player))
    assert np.array_equal(r.observation_tensor(player), state.observation_tensor(player))
    if not r.is_terminal():
        assert r.legal_actions() == state.legal_actions() or r.current_player() != player
    assert gutenberg_ai.core_of(r).problems() == []
    again = game.deserialize_state(r.serialize())
    assert again.serialize() == r.serialize() and again.history() == r.history()
    return r.history() != state.history()


def mixed_move(s, rng, heuristic, epsilon=None) -> int:
    """The next action of a compiled state `s` in a seeded game: a draw by its
    probabilities; else, with probability `heuristic`, the game's heuristic move (its
    `epsilon`, default the policy's own), else a uniformly random legal move."""
    if s.is_chance():
        outcomes = s.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    if rng.random() < heuristic:
        return games.of(s).core.heuristic_move(s, rng.getrandbits(64), epsilon)
    return rng.choice(s.legal_actions())


def edit(rules, s, fn):
    """A copy of compiled state `s` with fn(its dict) applied, read back by the rules
    (rules.state_from_dict checks it)."""
    d = s.to_dict()
    fn(d)
    return rules.state_from_dict(d)


def random_history(rules, seed, length):
    """A seeded random game in a compiled core of at most `length` actions: (its state,
    its history as (actor, action) pairs, actor -1 for a draw)."""
    rng = random.Random(seed)
    s = rules.new_state()
    hist = []
    while not s.is_terminal() and len(hist) < length:
        if s.is_chance():
            outcomes, probs = zip(*s.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(s.legal_actions())
        hist.append((s.current_player(), a))
        s.apply(a)
    return s, hist


def play_core(rules, seed, check=None, policy=None, max_length=None):
    """One seeded random game in a compiled core (rules.new_state()), checking at every
    step that draws are distinct with probabilities summing to 1 and that the legal
    actions are sorted, distinct, in range and never empty; `policy(state, rng)` picks
    the moves (random by default), `check(state)` runs after every step, and the game
    ends within `max_length` moves (default rules.max_game_length). Returns the final
    state and the actions played."""
    rng = random.Random(seed)
    core = sys.modules[type(rules).__module__]
    num_actions = getattr(core, "NUM_ACTIONS", None) or core.ACTIONS["NUM_ACTIONS"]
    max_legal = getattr(core, "MAX_LEGAL_ACTIONS", num_actions)
    max_length = max_length or rules.max_game_length
    s = rules.new_state()
    actions = []
    while not s.is_terminal():
        if s.is_chance():
            outcomes, probs = zip(*s.chance_outcomes())
            assert abs(sum(probs) - 1.0) < 1e-9 and all(p > 0 for p in probs)
            assert list(outcomes) == sorted(set(outcomes))
            a = rng.choices(outcomes, probs)[0]
        else:
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal)) and len(legal) <= max_legal
            assert all(0 <= x < num_actions for x in legal)
            a = policy(s, rng) if policy else rng.choice(legal)
            assert a in legal
        s.apply(a)
        actions.append(a)
        if check:
            check(s)
        assert len(actions) <= max_length
    return s, actions


def cli(*args, stdin=""):
    """The command run in this process (main() with stdin, stdout and stderr replaced):
    what a user sees, without starting Python again for every case."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:   # argparse's errors and --help
                code = e.code
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def decision_screen(core, seat, seat_names=None, width=100, height=40) -> str:
    """A decision's screen as the terminal table draws it (the rule, the table fitted to
    the room left, the moves, the prompt) for `seat`, checked to fit width x height with
    the prompt's line. Returns the screen's text."""
    from rich.console import Console
    from gutenberg_ai.interfaces import tui
    view = games.of(core).view
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False)
    legal = core.legal_actions()
    texts = [tui.move_text(core, a, core.action_to_string(a)) for a in legal]
    menu = view.menu(core, seat, legal, texts, width) or tui.menu_text(texts, core.step_name(), width)
    below = len(console.render_lines(menu, pad=False)) + 3
    console.rule(f"Your decision: {core.step_name()}")
    console.print(tui.fit_decision(console, core, seat, seat_names, below, height))
    console.print(menu)
    console.print("Type a move number, or help (board: the whole table).")
    lines = out.getvalue().rstrip("\n").split("\n")
    shown = "\n".join(lines)
    assert len(lines) + 1 <= height, f"{core.step_name()}: {len(lines) + 1} lines\n{shown}"
    assert max(len(line) for line in lines) <= width, shown
    return shown

