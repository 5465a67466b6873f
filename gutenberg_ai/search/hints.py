"""Move hints: what a search thinks of each move of the player to act.

    import gutenberg_ai
    hints = gutenberg_ai.hint(state, iterations=5000)
    for h in hints:
        interval = "too few samples" if h.interval is None else f"{h.interval[0]:.0%}-{h.interval[1]:.0%}"
        win = "-" if h.win_probability is None else f"{h.win_probability:.0%}"
        print(f"{h.share:5.1%}  win {win} ({interval})  {h.standing}  {h.text}")

A hint is one move of the player to act. The search's `top` most searched moves are
shown best first: the best move is the one with the highest measure (the chance to win;
solo, the expected fame) among those whose interval is known, the others with a known
interval follow by their measure, and last the moves tried too little to tell, most
searched first. `share` is the move's part of the search's visits (all moves' shares
sum to one; all are 0 where the search ran no iteration, a time budget too short for
one: `iterations` 0, nothing was searched), `win_probability` and `expected_fame` are the player's mean win share and
final score (the game's: fame, points) over the simulations that began with it (a
shared win counts 1/k; the score at a rollout cut-off is the evaluation's projection;
both None for a move the search never tried), and `line` is the play the search expects after it (its most visited path), in
the game's words, as far as the player to act can know it: a move of another player it
does not see is "a move you do not see", and the line stops at the first draw ("a draw,
not known yet"), whose outcome in the search was one of its own redraws.

How sure the search is: `interval` is a 95% interval of the move's measure, from the
search's batch means (the core's search: the budget is run in parts and each move's
mean compared across them): the mean +- Student's t for the parts that tried the move
times their standard error, so a move tried in few parts gets a wide interval however
well they agree; where every part gave the same mean (no spread to measure), the chance
to win's Wilson interval over the move's visits, never a zero-width one; None when the
move was searched fewer than MIN_VISITS times or in too few parts to tell.
`level` says whether the move is within noise of the best one (the first hint): the
best's measure exceeds the move's by no more than the two intervals' half-widths
combined (the square root of the sum of their squares: the 95% test of a difference).
For the best move, whether any other hint is level with it; None where an interval is
unknown.
`standing` says it in a word: "best", "level", "behind" or "too few samples". The list
returned (Hints) also carries the search's `iterations`, `seconds` and the `measure`
("win" or "fame").

Solo, `win_probability` is None: the solo game has no winner to be, only a score.

Threads: every core by default (limits.every_core). With an iteration budget the search
grows HINT_TREES trees, whatever the threads (a thread grows its share of them in
turn), so a hint with `iterations` and `seed` is the same on every machine and with any
`threads` (unless a `seconds` given too stops it first); with `seconds` alone it grows
one tree per thread and depends on the machine.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import pyspiel

from gutenberg_ai import games
from gutenberg_ai.common import limits
from gutenberg_ai.games import core_of, returns_mode_of
from gutenberg_ai.games.seen import UNKNOWN_DRAW, UNSEEN_MOVE, step_text  # noqa: F401 (the words hints use)
from gutenberg_ai.search.bots import HINT_LINE_LENGTH, HINT_TOP, _PrintingBot

HINT_BOTS = ("smmcts", "ismcts", "learned")
DEFAULT_ITERATIONS = 4000
# A move searched fewer times has no interval: its mean would rank it among the others
# on a handful of simulations (two lucky wins would make it "best").
MIN_VISITS = 30
# Root-parallel trees of a hint with an iteration budget: fixed, so that the hint does not
# depend on the machine's cores (the threads grow these trees between them).
HINT_TREES = 4


@dataclass(frozen=True)
class Hint:
    action: int
    text: str
    share: float
    win_probability: float | None
    expected_fame: float | None
    interval: tuple[float, float] | None = None
    level: bool | None = None
    line: list[str] = field(default_factory=list)
    standing: str = ""      # "best", "level", "behind", "too few samples" ("" for a bot's policy)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["interval"] = list(self.interval) if self.interval is not None else None
        return out


NOTHING_SEARCHED = ("Nothing was searched: the search's time ran out before its first iteration; "
                    "ask again with more seconds.")


class Hints(list[Hint]):
    """The hints, best first, and what the search that made them spent: `iterations`,
    `seconds`, and `measure`, what `interval` and `level` are about: "win" (the win
    probability) or "fame" (the expected final fame, solo)."""

    def __init__(self, hints: Iterable[Hint], iterations: int, seconds: float, measure: str) -> None:
        super().__init__(hints)
        self.iterations = iterations
        self.seconds = seconds
        self.measure = measure

    @property
    def notice(self) -> str | None:
        """What a reader must be told before the hints (the terminal and the page say the
        same): NOTHING_SEARCHED when no iteration ran (every share is 0), else None."""
        return NOTHING_SEARCHED if self.iterations == 0 else None

    def as_dict(self, seconds: bool = True) -> dict:
        """As JSON: the page's hints and, without the `seconds` (the machine's, where a
        record is the same for the same seed and moves), a record's `hints` on an AI
        move (records.py checks it when a record is read)."""
        out = {"hints": [h.as_dict() for h in self], "iterations": int(self.iterations),
               "seconds": round(float(self.seconds), 2), "measure": self.measure}
        if not seconds:
            del out["seconds"]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Hints:
        """The hints as_dict wrote (checked: records.load_record)."""
        hints = [Hint(**{**h, "interval": None if h["interval"] is None else tuple(h["interval"]),
                         "line": list(h["line"])}) for h in data["hints"]]
        return cls(hints, iterations=data["iterations"], seconds=data.get("seconds", 0.0), measure=data["measure"])


def interval_of(mean: float | None, se: float | None, measure: str, visits: int,
              parts: int) -> tuple[float, float] | None:
    """The 95% interval of a move's measure from its batch means (None: unknown): the
    mean +- Student's t for `parts` - 1 degrees of freedom times the standard error, so
    that two or three parts that agree by chance do not look certain. Batches that all
    agree give no spread to measure (a standard error of 0), which is not certainty: a
    chance to win then gets the Wilson interval of its visits, an expected fame none. A
    move searched fewer than MIN_VISITS times, or in fewer than 2 parts, has none."""
    from gutenberg_ai.common.stats import t95, wilson
    if mean is None or se is None or visits < MIN_VISITS or parts < 2:
        return None
    if se == 0:
        return wilson(mean * visits, visits) if measure == "win" else None
    half = t95(parts - 1) * se
    lo, hi = mean - half, mean + half
    if measure == "win":
        lo, hi = max(0.0, lo), min(1.0, hi)
    return (lo, hi)


def ranked(moves: list, intervals: list, measure: str, to_act: int) -> list:
    """The order the hints are shown in, as indices into `moves` (the search's, most
    searched first): the moves whose interval is known by their measure, highest first
    (the best move is the first of them), then those tried too little to tell, most
    searched first."""
    known = sorted((i for i, iv in enumerate(intervals) if iv is not None),
                   key=lambda i: (-moves[i][measure][to_act], i))
    return known + [i for i, iv in enumerate(intervals) if iv is None]


def level_with(best: float, best_interval: tuple[float, float] | None, value: float,
               interval: tuple[float, float] | None) -> bool | None:
    """Whether a move of measure `value` is level with the best (measure `best`): the
    difference is within the 95% test of a difference, the square root of the sum of the
    squared half-widths of their intervals (None where an interval is unknown). Two
    intervals that merely overlap allow a difference up to the sum of the half-widths,
    which calls level moves that the search does tell apart."""
    if best_interval is None or interval is None:
        return None
    halves = [(hi - lo) / 2 for lo, hi in (best_interval, interval)]
    return best - value <= (halves[0] ** 2 + halves[1] ** 2) ** 0.5


# What the expected line says where the player to act cannot know what happens (the
# search's own redraw of a card, a move another player makes unseen): one step in words.
line_step = step_text


def judged(searched: list, measure: str, to_act: int, interval: Callable = interval_of,
           level: Callable = level_with) -> tuple[list, list, list]:
    """The search's moves (most searched first) as the hints show them: (the moves best
    first, their intervals, whether each is level with the best). `interval` and `level`
    are the rules (a benchmark compares others)."""
    intervals = [interval(m[measure][to_act] if m["visits"] else None,
                          m["se"][measure][to_act] if m["se"] else None, measure, m["visits"], m["parts"])
                 for m in searched]
    order = ranked(searched, intervals, measure, to_act)
    shown, intervals = [searched[i] for i in order], [intervals[i] for i in order]
    levels = [level(shown[0][measure][to_act], intervals[0], m[measure][to_act], iv)
              for m, iv in zip(shown, intervals)]
    if levels:
        # The best move is level when another shown move is (or cannot be told apart).
        others = levels[1:]
        levels[0] = True if True in others else (None if None in others else False)
    return shown, intervals, levels


TOO_FEW = "too few samples"


def standing(i: int, interval: tuple[float, float] | None, level: bool | None) -> str:
    """How the `i`-th hint stands against the best (the first): in a word."""
    if interval is None:
        return TOO_FEW
    if i == 0:
        return "best"
    return {True: "level", False: "behind", None: TOO_FEW}[level]


def hint(state: pyspiel.State | Any, player: int | None = None,
         bot: str | pyspiel.Bot | Callable[..., pyspiel.Bot] = "smmcts",
         seconds: float | None = None, iterations: int | None = None, top: int = HINT_TOP, seed: int = 0,
         threads: int | None = None, line_length: int = HINT_LINE_LENGTH,
         progress: Callable[[int, float], object] | None = None, trees: int | None = None,
         **options: Any) -> Hints:
    """Ranked moves for the player to act in `state` (a pyspiel state of one of the
    games, or a compiled CoreState), best first, at most `top` of them.

    player      the player to act (None: whoever it is); another player is an error
    bot         "smmcts" (default), "ismcts" or "learned" (ismcts with the game's learned
                evaluation and priors: bots.LEARNED_OPTIONS, docs/learning.md)
    seconds, iterations   the search budget (default: DEFAULT_ITERATIONS iterations)
    seed        the search's seed
    threads     search threads (None: every core, limits.every_core()); with `iterations`
                they grow HINT_TREES trees between them, so the hint does not depend on
                them; with `seconds` alone, one tree each
    trees       independent root-parallel trees (None: as just said); a bot's search
                grows one a thread, so `trees=1, threads=1` gives its view of a move
    progress    called as progress(iterations, seconds) while the search runs
    options     search options (the core's SEARCH_OPTIONS); `returns` defaults to the
                game's; `weights` the evaluation's named weights over the game's searches'
                own (Lead Letter Printers: games.search_weights)

    Ctrl-C stops the search promptly (KeyboardInterrupt).

    Any other bot (a pyspiel.Bot object, a bot's name from gutenberg_ai.search.bots, a
    `module:factory` of your own) gives its own view instead: its move first, and each
    move's share of its policy where it gives one (step_with_policy), else the move
    alone; nothing a bot does not say (the win probability, the intervals) is made up:
    those are None and `measure` is "policy". `state` is then a pyspiel state.
    """
    # Every bound before any search (gutenberg_ai.common.limits).
    limits.check_budget(seconds, iterations)
    threads = limits.every_core() if threads is None else limits.check_threads(threads)
    limits.check_seed(seed)
    limits.check_whole(top, "top", 1, limits.MAX_SEARCH_INT)
    limits.check_whole(line_length, "line_length", 0, limits.MAX_SEARCH_INT)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress: {progress!r} is not a function (called as progress(iterations, seconds))")
    if isinstance(bot, str):      # smmcts@500, as the command line's bots take one: that budget
        from gutenberg_ai.search.bots import named_budget
        bot, seconds, iterations = named_budget(bot, seconds, iterations)
    if not isinstance(bot, str) or bot not in HINT_BOTS:
        if options:
            raise ValueError(f"{', '.join(sorted(options))}: search options, for the built-in searches "
                             f"({', '.join(HINT_BOTS)}); another bot takes its options when it is made")
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
    weights = options.pop("weights", None)
    from gutenberg_ai.search.bots import native_search
    bot, options = native_search(bot, options, core_module, core.num_players == 1)
    if trees is None:
        trees = HINT_TREES if iterations is not None else threads
    with games.searching(core_module, weights):
        result = core_module.search(core, bot, iterations=iterations, seconds=seconds, seed=seed,
                                    threads=threads, trees=trees, lines=top, line_length=line_length,
                                    progress=progress, batches=core_module.BATCHES, **options)
    return hints_of(core, result, top)


def hints_of(core: Any, result: dict, top: int = HINT_TOP) -> Hints:
    """The hints of a search already run (the core's `search` at `core`, with `lines` and
    `batches` for the lines and intervals): its `top` moves ranked."""
    to_act = core.current_player()
    solo = core.num_players == 1
    measure = "fame" if solo else "win"
    total = sum(m["visits"] for m in result["moves"])
    shown, intervals, levels = judged(result["moves"][:top], measure, to_act)
    hints = []
    for i, (m, iv, level) in enumerate(zip(shown, intervals, levels)):
        tried = m["visits"] > 0
        hints.append(Hint(
            action=m["action"],
            text=core.action_to_string(m["action"]),
            # No visits at all (a time budget too short for an iteration): nothing was searched.
            share=m["visits"] / total if total else 0.0,
            win_probability=m["win"][to_act] if tried and not solo else None,
            expected_fame=m["fame"][to_act] if tried else None,
            interval=iv,
            level=level,
            line=[line_step(seat, text) for seat, _, text in m.get("line", [])],
            standing=standing(i, iv, level),
        ))
    return Hints(hints, iterations=result["iterations"], seconds=result["seconds"], measure=measure)


def weighed(bot: pyspiel.Bot) -> Hints | None:
    """What `bot`'s last move weighed: the hints of the search it chose the move with
    (a native search bot, bots.SearchBot, keeps its root statistics: nothing is searched
    again), or None from a bot that does not search or a move it did not search."""
    searched, result = getattr(bot, "searched", None), getattr(bot, "last", None)
    if searched is None or not isinstance(result, dict):
        return None
    return hints_of(searched, result)


class HintBot(_PrintingBot):
    """A player whose move is the first of a hint: `hint(state, seed=seed, top=top,
    **hint_options)` at each decision, so that a harness that scores bots (the benchmark
    suite, benchmarks/hint_quality.py) scores the hint a person reads (`top` HINT_TOP, its
    default) or the search's most searched move (`top` 1: nothing to rank it against).

        bot = HintBot(game, 0, seed=3, seconds=2.0, threads=1)
        action = bot.step(state)
    """

    name = "hint"

    def __init__(self, game: pyspiel.Game, player: int, seed: int = 0, top: int = HINT_TOP, **hint_options: Any):
        super().__init__(game, player, seed)
        self.hint_options = dict(hint_options, top=top, line_length=0)

    def step(self, state: pyspiel.State) -> int:
        return hint(state, seed=self.seed, **self.hint_options)[0].action


def _bot_hints(state: pyspiel.State, bot: str | pyspiel.Bot | Callable[..., pyspiel.Bot],
               player: int | None, seconds: float | None, iterations: int | None, top: int,
               seed: int) -> Hints:
    """Hints from any pyspiel.Bot: its move, and its policy's shares if it gives one."""
    import time
    from gutenberg_ai.search.bots import budget_not_taken, budget_options, make_bot
    if not isinstance(state, pyspiel.State):
        raise ValueError("a hint from another bot needs a pyspiel state, not a compiled one")
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("hints are for a player's decision (this is a chance node or the end)")
    to_act = state.current_player()
    if player is not None and player != to_act:
        raise ValueError(f"player {player} is not to act; player {to_act} is")
    if not isinstance(bot, pyspiel.Bot):
        name = bot
        problem = budget_not_taken([name], seconds, iterations) if isinstance(name, str) else None
        if problem:
            raise ValueError(f"{problem} (leave out seconds and iterations)")
        budget: dict[str, Any] = budget_options(name, seconds, iterations) if isinstance(name, str) else \
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
