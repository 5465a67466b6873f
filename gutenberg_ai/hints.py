"""Move hints: what a search thinks of each move of the player to act.

    import gutenberg_ai
    hints = gutenberg_ai.hint(state, iterations=5000)
    for h in hints:
        lo, hi = h.interval
        print(f"{h.share:5.1%}  win {h.win_probability:4.0%} ({lo:.0%}-{hi:.0%})"
              f"{'  level' if h.level else ''}  {h.text}")

A hint is one move of the player to act, best first (most searched). `share` is the
move's part of the search's visits (all moves' shares sum to one), `win_probability` and
`expected_fame` are the player's mean win share and final fame over the simulations
that began with it (a shared win counts 1/k; fame at a rollout cut-off is the
evaluation's projection; both None for a move the search never tried), and `line` is
the play the search expects after it (its most visited path, draws left out), in the
game's words.

How sure the search is: `interval` is a 95% interval of the move's measure (the win
probability; solo, where there is nobody to beat, the expected fame), from the search's
batch means (the core's search: the budget is run in parts and each move's mean
compared across them); None when the move was tried in too few parts to tell. `level`
says whether the move is within noise of the best one (the first hint): their
intervals overlap. For the best move, whether any other hint is level with it; None
where an interval is unknown. The list returned (Hints) also carries the search's
`iterations`, `seconds` and the `measure` ("win" or "fame").

Solo, `win_probability` is None: the solo game has no winner to be, only a score.

Deterministic for a given seed and iteration budget; with `seconds` the result depends
on the machine's speed.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pyspiel

from gutenberg_ai import games, limits
from gutenberg_ai.games import core_of, returns_mode_of

HINT_BOTS = ("smmcts", "ismcts", "learned")
DEFAULT_ITERATIONS = 4000
Z95 = 1.96   # a normal 95% interval: mean +- Z95 standard errors


@dataclass(frozen=True)
class Hint:
    action: int
    text: str
    share: float
    win_probability: float | None
    expected_fame: float | None
    interval: tuple | None = None
    level: bool | None = None
    line: list = field(default_factory=list)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["interval"] = list(self.interval) if self.interval is not None else None
        return out


class Hints(list):
    """The hints, best first, and what the search that made them spent: `iterations`,
    `seconds`, and `measure`, what `interval` and `level` are about: "win" (the win
    probability) or "fame" (the expected final fame, solo)."""

    def __init__(self, hints, iterations: int, seconds: float, measure: str):
        super().__init__(hints)
        self.iterations = iterations
        self.seconds = seconds
        self.measure = measure


def _interval(mean, se, measure):
    if mean is None or se is None:
        return None
    lo, hi = mean - Z95 * se, mean + Z95 * se
    if measure == "win":
        lo, hi = max(0.0, lo), min(1.0, hi)
    return (lo, hi)


def _overlap(a, b):
    if a is None or b is None:
        return None
    return a[0] <= b[1] and b[0] <= a[1]


def hint(state, player=None, bot="smmcts", seconds=None, iterations=None, top=5, seed=0,
         threads=1, line_length=8, progress=None, **options) -> Hints:
    """Ranked moves for the player to act in `state` (a pyspiel state of one of the
    games, or a compiled CoreState), best first, at most `top` of them.

    player      the player to act (None: whoever it is); another player is an error
    bot         "smmcts" (default), "ismcts" or "learned" (ismcts with the game's learned
                evaluation and priors: bots.LEARNED_OPTIONS, docs/learning.md)
    seconds, iterations   the search budget (default: DEFAULT_ITERATIONS iterations)
    seed        the search's seed; threads: root-parallel trees
    progress    called as progress(iterations, seconds) while the search runs
    options     search options (the core's SEARCH_OPTIONS); `returns` defaults to the
                game's

    Ctrl-C stops the search promptly (KeyboardInterrupt).

    Any other bot (a pyspiel.Bot object, a bot's name from gutenberg_ai.bots, a
    `module:factory` of your own) gives its own view instead: its move first, and each
    move's share of its policy where it gives one (step_with_policy), else the move
    alone; nothing a bot does not say (the win probability, the intervals) is made up:
    those are None and `measure` is "policy". `state` is then a pyspiel state.
    """
    # Every bound before any search (gutenberg_ai.limits).
    limits.check_budget(seconds, iterations)
    limits.check_threads(threads)
    limits.check_seed(seed)
    limits.check_whole(top, "top", 1, limits.MAX_SEARCH_INT)
    limits.check_whole(line_length, "line_length", 0, limits.MAX_SEARCH_INT)
    if bot not in HINT_BOTS:
        return _bot_hints(state, bot, player, seconds, iterations, top, seed)
    core = core_of(state)
    if core.is_terminal() or core.is_chance():
        raise ValueError("hints are for a player's decision (this is a chance node or the end)")
    to_act = core.current_player()
    if player is not None and player != to_act:
        raise ValueError(f"player {player} is not to act; player {to_act} is")
    if seconds is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    if isinstance(state, pyspiel.State):
        options.setdefault("returns", returns_mode_of(state.get_game()))
    core_module = games.of(core).core
    from gutenberg_ai.bots import native_search
    bot, options = native_search(bot, options, core_module, core.num_players == 1)
    result = core_module.search(core, bot, iterations=iterations, seconds=seconds, seed=seed,
                                threads=threads, lines=top, line_length=line_length,
                                progress=progress, batches=core_module.BATCHES, **options)
    solo = core.num_players == 1
    measure = "fame" if solo else "win"
    total = sum(m["visits"] for m in result["moves"])
    shown = result["moves"][:top]
    intervals = [_interval(m[measure][to_act] if m["visits"] else None,
                           m["se"][measure][to_act] if m["se"] else None, measure) for m in shown]
    levels = [_overlap(iv, intervals[0]) for iv in intervals]
    if levels:
        # The best move is level when another shown move is (or cannot be told apart).
        others = levels[1:]
        levels[0] = True if True in others else (None if None in others else False)
    hints = []
    for m, iv, level in zip(shown, intervals, levels):
        tried = m["visits"] > 0
        hints.append(Hint(
            action=m["action"],
            text=core.action_to_string(m["action"]),
            share=m["visits"] / total if total else 1.0 / len(result["moves"]),
            win_probability=m["win"][to_act] if tried and not solo else None,
            expected_fame=m["fame"][to_act] if tried else None,
            interval=iv,
            level=level,
            line=[f"player {seat}: {text}" for seat, _, text in m.get("line", [])],
        ))
    return Hints(hints, iterations=result["iterations"], seconds=result["seconds"], measure=measure)


def _bot_hints(state, bot, player, seconds, iterations, top, seed) -> Hints:
    """Hints from any pyspiel.Bot: its move, and its policy's shares if it gives one."""
    import time
    from gutenberg_ai.bots import budget_options, make_bot
    if not isinstance(state, pyspiel.State):
        raise ValueError("a hint from another bot needs a pyspiel state, not a compiled one")
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("hints are for a player's decision (this is a chance node or the end)")
    to_act = state.current_player()
    if player is not None and player != to_act:
        raise ValueError(f"player {player} is not to act; player {to_act} is")
    if not isinstance(bot, pyspiel.Bot):
        name = bot
        budget = budget_options(name, seconds, iterations) if isinstance(name, str) else \
            ({"iterations": iterations} if iterations is not None else {"seconds": seconds or 1.0})
        bot = make_bot(name, state.get_game(), to_act, seed=seed, **budget)
    started = time.perf_counter()
    policy = None
    try:
        if bot.provides_policy():
            policy, action = bot.step_with_policy(state)
    except (AttributeError, RuntimeError, NotImplementedError):
        policy = None
    if policy is None:
        action = bot.step(state)
    seconds_spent = time.perf_counter() - started
    shares = dict(policy or [])
    order = [action] + sorted((a for a in shares if a != action), key=lambda a: -shares[a])
    hints = [Hint(action=int(a), text=state.action_to_string(to_act, a),
                  share=float(shares.get(a, 1.0 if a == action and not shares else 0.0)),
                  win_probability=None, expected_fame=None) for a in order[:top]]
    return Hints(hints, iterations=0, seconds=seconds_spent, measure="policy")
