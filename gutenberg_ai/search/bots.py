"""Bots that play the printing games, as `pyspiel.Bot`s, so `pyspiel.evaluate_bots`
mixes them freely with OpenSpiel's own. Each bot works on any game of
gutenberg_ai.games: it calls the compiled core of the game it is given.

    import pyspiel, gutenberg_ai
    from gutenberg_ai.search.bots import make_bot
    game = gutenberg_ai.load_game(players=2)
    bots = [make_bot("smmcts", game, 0, seed=1, seconds=0.2), make_bot("heuristic", game, 1)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)

Bots (`make_bot(name, game, player, seed=0, **options)`):

    random            uniformly random legal moves
    heuristic         the game's compiled heuristic player; options epsilon, weights
    ismcts            native single-observer ISMCTS (ext/engine/search.pxi, docs/search.md)
    learned           ismcts with the game's learned evaluation and priors (the weights it
                      ships, trained on self-play: docs/learning.md) and LEARNED_OPTIONS;
                      option model=FILE for other weights
    smmcts            native ISMCTS with a simultaneous step (Gutenberg's plan) as one
                      simultaneous move, regret matching by default (option
                      selection="rm" | "rm+" | "exp3" | "uct")
    openspiel-ismcts  OpenSpiel's Python ISMCTSBot, random-rollout evaluator, on our
                      game through resample_from_infostate
    openspiel-ismcts-cpp
                      OpenSpiel's C++ ISMCTSBot, random-rollout evaluator, on the native
                      game through its ResampleFromInfostate: the anchor a researcher
                      would pick (options uct_c, returns and final_policy; their
                      defaults: the game's reference settings, below); native game only
    openspiel-mcts    OpenSpiel's Python MCTSBot, random-rollout evaluator. It searches
                      the true state, so it sees the plans committed before its own: it
                      cheats on hidden plans (a reference point, not a fair opponent).
    openspiel-mcts-cpp
                      OpenSpiel's C++ MCTSBot on the native game (the same caveat)
    module:factory    a bot of your own: factory(game, seat, seed, budget, **options)
                      returns a pyspiel.Bot (docs/your-bot.md); register_bot names one
                      from Python

A budget can follow a name: `smmcts@500` (iterations a move), `smmcts@0.5s` (seconds).
The C++ reference bots search with REFERENCE_SETTINGS (returns in points, "score", and
uct_c 10, 30 for Printing Press's ISMCTS: measured to play best on each game) unless told
otherwise (options returns, uct_c); a game with none measured (Lead Letter Printers)
gets DEFAULT_REFERENCE ("margin" returns, uct_c 10).

Search budgets per move: `seconds=` or `iterations=` (default: 1 second). The native bots
also take `threads=` and every search option of the core's SEARCH_OPTIONS
(rollout, cutoff, uct_c, selection, gamma, plan_candidates, ...); their `returns`
defaults to the game's. In a game whose evaluation names its weights (Lead Letter
Printers: the core's HEURISTIC_WEIGHTS), `weights={name: number}` searches with those
over the game's searches' own (games.search_weights; the heuristic player's: over the
core's), set for the bot's searches only (games.evaluation_weights). OpenSpiel's Python bots have no time budget of their own: here
they run simulations until the seconds are spent (a wrapper around their search loop);
the C++ ISMCTSBot has one (max_wall_clock_time).

Every bot is deterministic for its seed: a search bot seeds each move from its seed and
the move number, so the same position gets the same move. One exception: OpenSpiel's C++
ISMCTSBot breaks ties inside its search in hash-map order (CppISMCTSBot).
"""
from __future__ import annotations

import importlib
import os
import random
import re
import sys
import time
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel

from gutenberg_ai import games
from gutenberg_ai.common import limits
from gutenberg_ai.common.words import listed
from gutenberg_ai.games import core_of, returns_mode_of

BOT_NAMES = ("random", "heuristic", "ismcts", "smmcts", "learned", "cfr", "openspiel-ismcts",
             "openspiel-ismcts-cpp", "openspiel-mcts", "openspiel-mcts-cpp")
DEFAULT_SECONDS = 1.0
# The bots that search and so take a budget (seconds= or iterations=) per move.
SEARCH_BOTS = ("ismcts", "smmcts", "learned", "openspiel-ismcts", "openspiel-ismcts-cpp", "openspiel-mcts",
               "openspiel-mcts-cpp")


# The learned bot's search: the game's shipped model, with the rollouts it was measured
# best with (benchmarks/README.md, "Learned bots"). In a game of one person, the
# game's core adds its GAME_SOLO_LEARNED_DEFAULTS (Gutenberg: the network plays the rollouts).
LEARNED_OPTIONS = dict(model="default")


def native_search(name: str, options: dict, core_module: ModuleType, solo: bool) -> tuple[str, dict]:
    """The core's search a native search bot runs in a game of `core_module` (`solo`: of
    one person): (algorithm, options); the learned bot is ismcts with LEARNED_OPTIONS,
    solo with the game's GAME_SOLO_LEARNED_DEFAULTS too, under the given ones."""
    if name != "learned":
        return name, options
    own = {**LEARNED_OPTIONS, **(core_module.GAME_SOLO_LEARNED_DEFAULTS if solo else {})}
    networks = options.get("model", own["model"]) or options.get("rollout_model")
    if own.get("rollout") == "learned" and not networks:
        del own["rollout"]    # no model asked for: no network to roll out with
    return "ismcts", {**own, **options}


def checked_search_options(core_module: ModuleType, options: dict, where: str = "") -> tuple[dict, dict | None]:
    """A native search's options, checked before any search: the evaluation's `weights`
    (the game's searches' own with these over them: games.search_weights) and the rest,
    the core's search options (its search_config). Returns (the search options, the
    weights); a ValueError names `where` first where it is given."""
    prefix = f"{where}: " if where else ""
    weights = games.search_weights(core_module, options.get("weights"), f"{prefix}weights")
    rest = {k: v for k, v in options.items() if k != "weights"}
    try:
        core_module.search_config(**rest)
    except ValueError as e:
        raise ValueError(f"{prefix}{e}") from None
    return rest, weights


def refusal(name: str, error: Exception) -> str:
    """What a bot `name` refused, named once: the built-in bots name themselves in their
    errors, a factory of your own may not."""
    said = str(error)
    for own in (name, name.rpartition("@")[0] or name):   # a budget in the name (split_budget): its kind
        if said.startswith(f"{own}: "):
            return name + said[len(own):]
    return f"{name}: {said}"


def budget_options(name: str, seconds: float | None = None, iterations: int | None = None) -> dict:
    """The budget options of bot `name`: {"iterations": n} or {"seconds": s} for a
    searching bot (iterations win when both are given; a budget in the name, `NAME@500`
    or `NAME@0.5s`, wins over both), {} for the others. A bot of your own
    (`module:factory`) always gets a budget."""
    base, own = split_budget(name)
    if base in BOT_NAMES and base not in SEARCH_BOTS:
        return {}
    if own:
        return own
    if iterations is not None:
        return {"iterations": iterations}
    return {"seconds": seconds if seconds is not None else DEFAULT_SECONDS}


# -- bots of your own: module:factory, and a budget in the name ----------------------------
_SPEC = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*):([A-Za-z_][A-Za-z0-9_]*)")
_BUDGET = re.compile(r"([0-9]+)|([0-9]*\.?[0-9]+)s")
# Factories registered from Python (register_bot): name -> factory.
CUSTOM_BOTS: dict = {}


def is_external(name: object) -> bool:
    """Whether `name` names a bot of your own: `module:factory`, or a registered name."""
    return isinstance(name, str) and (":" in split_budget(name)[0] or split_budget(name)[0] in CUSTOM_BOTS)


def takes_budget(name: str) -> bool:
    """Whether bot `name` searches with a budget (seconds or iterations)."""
    return budget_options(name, 1.0) != {}


def budget_not_taken(names: Collection[str], seconds: float | None = None,
                     iterations: int | None = None) -> str | None:
    """The problem of a budget (seconds or iterations) given for bots `names` none of
    which takes it: none searches ("random does not search: it takes no budget"), or each
    that searches names its own (`smmcts@50`, which wins over it); None when none is given
    or a bot takes it. The one rule of a useless budget: refused where it is given (a
    command's option, a hint's argument, a bot's `@500`), never left unused."""
    if seconds is None and iterations is None:
        return None
    searching = [n for n in names if takes_budget(n)]
    if not searching:
        bots = list(dict.fromkeys(split_budget(n)[0] for n in names))
        return f"{listed(bots)} does not search: it takes no budget" if len(bots) == 1 else \
            f"{listed(bots)} do not search: they take no budget"
    if all(split_budget(n)[1] for n in searching):
        searching = list(dict.fromkeys(searching))
        return f"{listed(searching)} names its own budget" if len(searching) == 1 else \
            f"{listed(searching)} each name their own budget"
    return None


def named_budget(name: str, seconds: float | None = None, iterations: int | None = None) -> tuple:
    """(the bot's name, seconds, iterations): a budget in the name (`smmcts@500`) taken
    out of it; ValueError where a budget is given beside it (budget_not_taken's words)."""
    base, own = split_budget(name)
    if not own:
        return name, seconds, iterations
    if seconds is not None or iterations is not None:
        raise ValueError(f"{budget_not_taken([name], seconds, iterations)} (leave out seconds and iterations)")
    return base, own.get("seconds"), own.get("iterations")


def split_budget(name: str) -> tuple[str, dict | None]:
    """(the bot's name, its own budget or None) of `NAME` or `NAME@BUDGET`: `@500` is 500
    iterations a move, `@0.5s` half a second. ValueError for a budget that is neither."""
    if not isinstance(name, str) or "@" not in name:
        return name, None
    base, _, text = name.rpartition("@")
    m = _BUDGET.fullmatch(text)
    if not base or m is None:
        raise ValueError(f"bot {name!r}: the budget after @ is a number of iterations (@500) or of "
                         "seconds (@0.5s)")
    try:
        own: dict = {"iterations": limits.check_iterations(int(m.group(1)))} if m.group(1) is not None else \
            {"seconds": limits.check_seconds(float(m.group(2)))}
    except ValueError as e:
        raise ValueError(f"bot {name!r}: {e}") from None
    problem = budget_not_taken([base], **own)
    if problem:
        raise ValueError(f"bot {name!r}: {problem} (leave out @{text})")
    return base, own


def check_name(name: str, allowed: Collection[str] | None = None) -> str:
    """`name` if it names a bot (a built-in one, `allowed` if given; `module:factory`; a
    registered one; each with an optional @budget), else ValueError saying why. A
    `module:factory` is imported here, so that a wrong one is named before any game."""
    from gutenberg_ai.games.records import MAX_NAME
    if isinstance(name, str) and len(name) > MAX_NAME:
        raise ValueError(f"bot {name[:40]!r}...: {len(name)} characters, at most {MAX_NAME} (a record names it)")
    base, _ = split_budget(name)
    if isinstance(base, str) and ":" in base:
        load_factory(base)
        return name
    if base in CUSTOM_BOTS:
        return name
    names = allowed if allowed is not None else BOT_NAMES
    if base not in names:
        raise ValueError(f"bot {name!r} is not one of {', '.join(names)}, nor module:factory (a bot of "
                         "your own: docs/your-bot.md)")
    return name


def load_factory(spec: str) -> Callable[..., pyspiel.Bot]:
    """The factory of a `module:factory` spec (a dotted module importable from Python's
    path or the working folder, and a name in it). ValueError names what is wrong; the
    module is imported (it is code you asked for), nothing else in the text is run."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        raise ValueError(f"bot {spec!r}: a bot of your own is module:factory, e.g. "
                         "gutenberg_ai.examples.flat_mc:make_bot (dotted module, then a name)")
    module_name, factory_name = m.groups()
    # The working folder, as `python -m` and `python script.py` look there: the
    # gutenberg-ai script's own folder is on the path instead. Last, so that it never
    # shadows an installed module; worker processes inherit the path.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"bot {spec!r}: cannot import {module_name!r}: {e}") from None
    except Exception as e:          # the module's own error, as one line
        raise ValueError(f"bot {spec!r}: importing {module_name!r} failed: {type(e).__name__}: {e}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise ValueError(f"bot {spec!r}: {module_name} has no callable {factory_name!r}")
    return factory


def register_bot(name: str, factory: Callable[..., pyspiel.Bot]) -> None:
    """Make `name` a bot of the arena, the studies and hint in this process:
    `factory(game, seat, seed, budget, **options)` returns a pyspiel.Bot (budget:
    {"seconds": s} or {"iterations": n}). For runs in other processes (jobs > 1, Ray)
    the factory must be importable (a module-level function), or use module:factory."""
    if not isinstance(name, str) or not name or ":" in name or "@" in name or name in BOT_NAMES:
        raise ValueError(f"register_bot: {name!r}: a new name without ':' or '@'")
    if not callable(factory):
        raise ValueError(f"register_bot: the factory for {name!r} is not callable")
    CUSTOM_BOTS[name] = factory


FACTORY_SEEDS = 2**32     # a bot of your own gets a seed below this


def _external_bot(factory: Callable[..., pyspiel.Bot], label: str, game: pyspiel.Game, player: int,
                  seed: int, options: dict) -> pyspiel.Bot:
    budget = {k: options.pop(k) for k in ("seconds", "iterations") if k in options}
    limits.check_budget(budget.get("seconds"), budget.get("iterations"), f"{label}: ")
    if not budget:
        budget = {"seconds": DEFAULT_SECONDS}
    try:
        # A 32-bit seed: what OpenSpiel's Python bots (numpy's RandomState) and its C++
        # bots take; the arena's seeds run to limits.MAX_SEED.
        bot = factory(game, player, seed % FACTORY_SEEDS, budget, **options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{label}: {e}") from None
    if not isinstance(bot, pyspiel.Bot):
        raise ValueError(f"{label}: the factory returned {type(bot).__name__}, not a pyspiel.Bot")
    return bot


def _check_decision(state: pyspiel.State, player: int, game: pyspiel.Game) -> None:
    """ValueError unless `state` is a decision of `player` in a state of `game`'s kind (the
    same game, the same players: a state of another game would be read as this one's)."""
    if not isinstance(state, pyspiel.State):
        raise ValueError(f"{type(state).__name__} is not a game state")
    try:
        mine, theirs = games.of(game), games.of(state)
    except TypeError as e:
        raise ValueError(f"a state of another game: {e}") from None
    if mine is not theirs or state.num_players() != game.num_players():
        raise ValueError(f"a state of {theirs.title} for {state.num_players()} players, not of this bot's game "
                         f"({mine.title} for {game.num_players()})")
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("a bot moves at decision nodes only (this is a chance node or the end)")
    if state.current_player() != player:
        raise ValueError(f"it is player {state.current_player()}'s move, not player {player}'s")


def _budget(options: dict, name: str) -> tuple[int | None, float | None]:
    """(iterations, seconds) from the options; the default is DEFAULT_SECONDS."""
    iterations = options.pop("iterations", None)
    seconds = options.pop("seconds", None)
    seconds, iterations = limits.check_budget(seconds, iterations, f"{name}: ")
    if iterations is None and seconds is None:
        seconds = DEFAULT_SECONDS
    return iterations, seconds


def _no_options(options: dict, name: str, known: tuple[str, ...] = ()) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"{name}: unknown option(s) {', '.join(unknown)}"
                         + (f"; known: {', '.join(known)}" if known else "; it takes none"))


def _move_seed(seed: int, state: pyspiel.State) -> int:
    # The move number is public, so the seed says nothing about hidden plans.
    move = state.move_number() if hasattr(state, "move_number") else 0
    return (seed * 0x9E3779B1 + move * 1000003) & 0xFFFFFFFFFFFFFFFF


class _PrintingBot(pyspiel.Bot):
    """What our bots share: a seat, a seed, and nothing to remember between moves."""

    name = "?"

    def __init__(self, game: pyspiel.Game, player: int, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        if not 0 <= player < game.num_players():
            raise ValueError(f"{self.name}: player {player} is out of range (0-{game.num_players() - 1})")
        self.game = game
        self.core = games.of(game).core   # the game's compiled core
        self.player = player
        self.seed = seed

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}(player={self.player}, seed={self.seed})"


class RandomBot(_PrintingBot):
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, game: pyspiel.Game, player: int, seed: int = 0) -> None:
        super().__init__(game, player, seed)
        self._rng = random.Random(seed)

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        return self._rng.choice(state.legal_actions())

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state: pyspiel.State) -> tuple[list, int]:
        """Its policy, uniform over the legal moves, and the move drawn (the one step draws)."""
        _check_decision(state, self.player, self.game)
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal], self._rng.choice(legal)


class HeuristicBot(_PrintingBot):
    """The compiled heuristic player: the legal move it values most."""

    name = "heuristic"

    def __init__(self, game: pyspiel.Game, player: int, seed: int = 0, epsilon: float = 0.0,
                 weights: dict | None = None) -> None:
        super().__init__(game, player, seed)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 <= epsilon <= 1:
            raise ValueError(f"heuristic: epsilon: {epsilon!r} is not a number in [0, 1]")
        self.epsilon = float(epsilon)
        self.weights = games.check_evaluation_weights(self.core, weights, "heuristic: weights")

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        with games.evaluation_weights(self.core, self.weights):
            return self.core.heuristic_move(core_of(state), _move_seed(self.seed, state), self.epsilon)


class SearchBot(_PrintingBot):
    """Native ISMCTS or SM-MCTS (the core's `search`): the most visited move. The result of the
    last search is kept in `last` (root statistics, iterations, seconds)."""

    def __init__(self, game: pyspiel.Game, player: int, algorithm: str, seed: int = 0, threads: int = 1,
                 label: str | None = None, **options: Any) -> None:
        self.name = label or algorithm
        super().__init__(game, player, seed)
        self.algorithm = algorithm
        self.iterations, self.seconds = _budget(options, self.name)
        self.threads = limits.check_threads(threads, f"{self.name}: threads")
        # The evaluation's weights (a game that names them) are set for each search only.
        options.setdefault("returns", returns_mode_of(game))
        self.options, self.weights = checked_search_options(self.core, options, self.name)
        self.last: dict | None = None
        # The state the last search was from (None: the move was not searched, being the
        # only one): with `last`, what the move weighed (hints.weighed).
        self.searched: Any = None
        # Called as progress(iterations, seconds) while a search runs (the core's search:
        # a few times a second, in the searching thread); an exception it raises stops
        # the search and comes out of step() (the web page stops a search this way).
        self.progress: Callable[[int, float], object] | None = None

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        core = core_of(state)
        legal = core.legal_actions()
        self.searched = None
        if len(legal) == 1:
            self.last = None
            return legal[0]
        # The lines and batches a hint asks for: the move's root statistics are then the
        # hint's at this seed and budget (the batches split the same iterations, so the
        # move is the same as without them).
        with games.evaluation_weights(self.core, self.weights):
            self.last = self.core.search(core, self.algorithm, iterations=self.iterations, seconds=self.seconds,
                                     seed=_move_seed(self.seed, state), threads=self.threads,
                                     progress=self.progress, lines=HINT_TOP, line_length=HINT_LINE_LENGTH,
                                     batches=self.core.BATCHES, **self.options)
        self.searched = core.clone()
        return self.last["chosen"]


class CppISMCTSBot(_PrintingBot):
    """OpenSpiel's C++ ISMCTSBot (open_spiel/algorithms/is_mcts.cc) with its random-rollout
    evaluator (one rollout to the end of the game), unlimited world samples (every
    simulation resamples the root through the native game's ResampleFromInfostate), UCT
    with `uct_c` on the game's returns. With `seconds` it runs its own wall-clock budget
    (max_wall_clock_time), with `iterations` that many simulations.

    The search sees the game's returns through `returns` ("win", "score" or "margin"):
    the default is reference_settings's, the settings measured to play best on the game
    (docs/your-bot.md); the search then runs on a copy of the state in the same game with
    those returns (the move it finds is a move of the game played).

    C++ bots run on a native game only: on the Python shell ("gutenberg_py") they crash
    (they call back into Python without the GIL; docs/native.md). A new C++ bot is made
    for every move, seeded from the bot's seed and the move number like ours.

    The move is chosen here from the search's visit shares, sorted by action:
    `final_policy` "max_visit_count" (default: the most visited move, as our bots play;
    ties: the lowest action) or "normalized_visit_count" (OpenSpiel's default: a move
    drawn in proportion to the visits, with a generator seeded like the search). The C++
    bot's own choice walks its hash map, whose order is not fixed by the seed. So is its
    UCT's tie-breaking inside the search: once a node has more simulations than moves,
    equal UCB values (frequent with win/loss returns) are broken in the order of an
    absl::flat_hash_map, which changes from one table to the next. With an iteration
    budget the bot is therefore reproducible only while no node is past that point (a
    few dozen simulations at a plan step); benchmarks/README.md, "Search strength"."""

    name = "openspiel-ismcts-cpp"
    FINAL_POLICIES = ("max_visit_count", "normalized_visit_count")

    def __init__(self, game: pyspiel.Game, player: int, seed: int = 0, uct_c: float | None = None,
                 final_policy: str = "max_visit_count", returns: str | None = None, **budget: Any) -> None:
        super().__init__(game, player, seed)
        _native_only(game, self.name)
        self.iterations, self.seconds = _budget(budget, self.name)
        _no_options(budget, self.name, ("seconds", "iterations", "uct_c", "final_policy", "returns"))
        self.returns, self.uct_c, self.search_game = _reference_settings(self.name, game, returns, uct_c)
        if final_policy not in self.FINAL_POLICIES:
            raise ValueError(f"{self.name}: final_policy: {final_policy!r} is not one of "
                             f"{', '.join(self.FINAL_POLICIES)}")
        self.final_policy = final_policy

    def settings(self) -> dict:
        """What the bot searches with, for a figure's caption."""
        return {"returns": self.returns, "uct_c": self.uct_c, "final_policy": self.final_policy}

    def search_bot(self, state: pyspiel.State) -> pyspiel.Bot:
        """The C++ bot for this move (seeded from the bot's seed and the move number)."""
        seed = _move_seed(self.seed, state)
        # C++ takes 32-bit seeds; the evaluator gets its own stream.
        evaluator = pyspiel.RandomRolloutEvaluator(1, (seed >> 32) % 2_147_483_647)
        timed = self.iterations is None
        return pyspiel.ISMCTSBot(seed % 2_147_483_647, evaluator, self.uct_c,
                                 1 if timed else self.iterations, -1,
                                 pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False,
                                 self.seconds if timed else -1.0)

    def policy(self, state: pyspiel.State) -> list[tuple[int, float]]:
        """The search's visit shares, [(action, share)] sorted by action."""
        return sorted(self.search_bot(state).get_policy(_in_game(self.search_game, state)))

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        policy = self.policy(state)
        if self.final_policy == "max_visit_count":
            top = max(p for _, p in policy)
            return next(a for a, p in policy if p == top)
        rng = random.Random(_move_seed(self.seed, state))
        return rng.choices([a for a, _ in policy], [p for _, p in policy])[0]


class CppMCTSBot(_PrintingBot):
    """OpenSpiel's C++ MCTSBot (open_spiel/algorithms/mcts.cc) with its random-rollout
    evaluator: UCT on the true state, so it sees what the player to act could not (the
    plans committed before its own, the others' hidden tiles and tokens). It cheats on
    the hidden information: a reference point for a perfect-information search, not a
    fair opponent. `returns` and `uct_c` as for CppISMCTSBot (reference_settings); with
    `seconds`, its own wall-clock budget (max_wall_clock_time). A new C++ bot is made for
    every move, seeded from the bot's seed and the move number; the move is the most
    visited child (MCTSBot's own choice)."""

    name = "openspiel-mcts-cpp"

    def __init__(self, game: pyspiel.Game, player: int, seed: int = 0, uct_c: float | None = None,
                 returns: str | None = None, **budget: Any) -> None:
        super().__init__(game, player, seed)
        _native_only(game, self.name)
        self.iterations, self.seconds = _budget(budget, self.name)
        _no_options(budget, self.name, ("seconds", "iterations", "uct_c", "returns"))
        self.returns, self.uct_c, self.search_game = _reference_settings(self.name, game, returns, uct_c)

    def settings(self) -> dict:
        return {"returns": self.returns, "uct_c": self.uct_c}

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seed = _move_seed(self.seed, state)
        evaluator = pyspiel.RandomRolloutEvaluator(1, (seed >> 32) % 2_147_483_647)
        timed = self.iterations is None
        bot = pyspiel.MCTSBot(self.search_game, evaluator, self.uct_c, 1_000_000_000 if timed else self.iterations,
                              1000, False, seed % 2_147_483_647, False, pyspiel.ChildSelectionPolicy.UCT,
                              self.seconds if timed else -1.0)
        return bot.step(_in_game(self.search_game, state))


# The settings of OpenSpiel's C++ bots as reference opponents, per game: measured on our
# games (benchmarks/reference_bots.py; docs/your-bot.md, "The reference bots"). With the
# game's "win" returns the random rollouts almost never tell a win from a loss early on
# and the search plays nearly at random; returns in points ("score", or "margin": the
# points less the others' mean) with an exploration constant on that scale play far
# better (Printing Press: "score" and "margin" within noise of each other, the best
# measured mean kept). A game not measured yet gets DEFAULT_REFERENCE.
DEFAULT_REFERENCE = {"returns": "margin", "uct_c": 10.0}
REFERENCE_SETTINGS = {
    "gutenberg": {"openspiel-ismcts-cpp": {"returns": "score", "uct_c": 10.0},
                  "openspiel-mcts-cpp": {"returns": "score", "uct_c": 10.0}},
    "printing-press": {"openspiel-ismcts-cpp": {"returns": "score", "uct_c": 30.0},
                       "openspiel-mcts-cpp": {"returns": "score", "uct_c": 10.0}},
}


def _native_only(game: pyspiel.Game, name: str) -> None:
    """A C++ bot plays the native game only: on a Python game it would crash."""
    native = games.of(game).spiel_name
    if game.get_type().short_name != native:
        raise ValueError(f"{name}: plays the native game {native!r} only, not "
                         f"{game.get_type().short_name!r} (C++ bots crash on a Python game)")


def reference_settings(name: str, game: pyspiel.Game) -> dict:
    """The reference settings of C++ bot `name` on `game` (REFERENCE_SETTINGS)."""
    return REFERENCE_SETTINGS.get(games.of(game).key, {}).get(name, DEFAULT_REFERENCE)


RETURNS_MODES = ("win", "score", "margin")


def _reference_settings(name: str, game: pyspiel.Game, returns: str | None,
                        uct_c: float | None) -> tuple[str, float, pyspiel.Game]:
    """(returns, uct_c, the game the search runs on) of a C++ reference bot."""
    ref = reference_settings(name, game)
    returns = ref["returns"] if returns is None else returns
    uct_c = ref["uct_c"] if uct_c is None else uct_c
    if returns not in RETURNS_MODES:
        raise ValueError(f"{name}: returns: {returns!r} is not one of {', '.join(RETURNS_MODES)}")
    _check_uct_c(name, uct_c)
    if game.num_players() == 1:
        returns = "score"      # the solo game returns its score whatever the mode
    return returns, float(uct_c), game_with_returns(game, returns)


def _check_uct_c(name: str, uct_c: Any) -> None:
    """An OpenSpiel bot's exploration constant: a number >= 0 (not nan, not a bool)."""
    if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not uct_c >= 0:
        raise ValueError(f"{name}: uct_c: {uct_c!r} is not a number >= 0")


def game_with_returns(game: pyspiel.Game, returns: str) -> pyspiel.Game:
    """The same game (its parameters, catalogue, position) with `returns` instead of its
    own; the game itself when they are already those."""
    if returns_mode_of(game) == returns or game.num_players() == 1:
        return game
    params = dict(game.get_parameters())
    params["returns"] = returns
    return pyspiel.load_game(game.get_type().short_name, params)


def _in_game(search_game: pyspiel.Game, state: pyspiel.State) -> pyspiel.State:
    """`state` as a state of `search_game` (the same game with other returns): rebuilt
    from its history, so the search sees the same position."""
    if state.get_game() == search_game or search_game is state.get_game():
        return state
    return search_game.deserialize_state(state.serialize())


# What a searching bot's move keeps of its search, for its hints (hints.weighed): the lines
# of its most searched moves, each so many steps long; hints show as many by default.
HINT_TOP = 5
HINT_LINE_LENGTH = 8


# -- OpenSpiel's bots with a time budget --------------------------------------------------
class _Timed:
    """OpenSpiel's Python search bots with a time budget: `seconds` (None: their own
    number of simulations), and how many simulations the last search ran."""

    def __init__(self, game: pyspiel.Game, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(game, *args, **kwargs)  # type: ignore[call-arg]
        self.seconds = seconds
        self.last_simulations = 0
        self.game = game
        self.player = 0      # (the seat make_bot gives it)

    def step(self, state: pyspiel.State) -> int:
        _check_decision(state, self.player, self.game)
        return super().step(state)  # type: ignore[misc]


def _openspiel_ismcts_class() -> type:
    from open_spiel.python.algorithms import ismcts

    class TimedISMCTSBot(_Timed, ismcts.ISMCTSBot):
        """OpenSpiel's Python ISMCTSBot; with `seconds`, it runs simulations until the time
        is spent instead of a fixed number (its run_search, with a clock)."""

        def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
            if self.seconds is None:
                self.last_simulations = self._max_simulations
                return super().run_search(state)
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.perf_counter() + self.seconds
            n = 0
            while n == 0 or time.perf_counter() < deadline:
                self.run_simulation(self.sample_root_state(state))
                n += 1
            self.last_simulations = n
            return self.get_final_policy(state, self._root_node)

        def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
            # OpenSpiel's draws its world with an unseeded sampler; this one with the bot's
            # seeded generator, so that the bot is reproducible for its seed.
            return state.resample_from_infostate(state.current_player(), self._random_state.uniform)

    return TimedISMCTSBot


def _openspiel_mcts_class() -> type:
    from open_spiel.python.algorithms import mcts

    class TimedMCTSBot(_Timed, mcts.MCTSBot):
        """OpenSpiel's Python MCTSBot; with `seconds`, simulations run until the time is
        spent (its search loop with a clock, without the solver)."""

        def mcts_search(self, state: pyspiel.State) -> Any:
            if self.seconds is None:
                root = super().mcts_search(state)
                self.last_simulations = root.explore_count
                return root
            root = mcts.SearchNode(None, state.current_player(), 1)
            deadline = time.perf_counter() + self.seconds
            while root.explore_count == 0 or time.perf_counter() < deadline:
                visit_path, working_state = self._apply_tree_policy(root, state)
                if working_state.is_terminal():
                    returns = working_state.returns()
                else:
                    returns = self.evaluator.evaluate(working_state)
                while visit_path:
                    # A chance node's value is for the player who decided before it.
                    decider = -1
                    while visit_path[decider].player == pyspiel.PlayerId.CHANCE:
                        decider -= 1
                    target = returns[visit_path[decider].player]
                    node = visit_path.pop()
                    node.total_reward += target
                    node.explore_count += 1
            self.last_simulations = root.explore_count
            return root

    return TimedMCTSBot


def _openspiel_bot(name: str, game: pyspiel.Game, player: int, seed: int, options: dict) -> pyspiel.Bot:
    iterations, seconds = _budget(options, name)
    uct_c = options.pop("uct_c", 2.0)
    _no_options(options, name, ("seconds", "iterations", "uct_c"))
    _check_uct_c(name, uct_c)
    rs = np.random.RandomState(seed % (1 << 32))
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
    evaluator = RandomRolloutEvaluator(1, np.random.RandomState((seed + 1) % (1 << 32)))
    sims = iterations if iterations is not None else 1
    if name == "openspiel-ismcts":
        bot = _openspiel_ismcts_class()(game, evaluator, uct_c, sims, random_state=rs,
                                        seconds=None if iterations is not None else seconds)
    else:
        bot = _openspiel_mcts_class()(game, uct_c, sims, evaluator, solve=False, random_state=rs,
                                      seconds=None if iterations is not None else seconds)
    bot.player = player
    return bot


def make_bot(name: str | pyspiel.Bot | Callable[..., pyspiel.Bot], game: pyspiel.Game, player: int,
             seed: int = 0, **options: Any) -> pyspiel.Bot:
    """A bot `name` for `player` of `game`, seeded; `options` as in the module docstring.
    `name` is one of BOT_NAMES, `module:factory` or a registered name (a bot of your own,
    register_bot), each with an optional budget (`smmcts@500`, `smmcts@0.5s`), a
    factory itself (a callable: factory(game, seat, seed, budget, **options)), or a
    bot object (a pyspiel.Bot: returned as it is, after restart_at the game's start).
    A bad name or option raises ValueError naming it."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= limits.MAX_SEED:
        raise ValueError(f"{name}: seed: {seed!r} is not a seed (a whole number 0 to {limits.MAX_SEED})")
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"{name}: game: {type(game).__name__} is not a game (gutenberg_ai.load_game makes one)")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players():
        raise ValueError(f"{name}: player: {player!r} is not a seat of this game (0-{game.num_players() - 1})")
    if isinstance(name, pyspiel.Bot):
        # A bot object (the Python API): it plays as it is, told the game starts anew.
        name.restart_at(game.new_initial_state())
        return name
    if callable(name):
        return _external_bot(name, getattr(name, "__name__", "bot"), game, player, seed, dict(options))
    if not isinstance(name, str):
        raise ValueError(f"bot: {name!r} is not a bot's name")
    named, (name, own) = name, split_budget(name)
    if own:
        given = {k: options[k] for k in ("seconds", "iterations") if options.get(k) is not None}
        if given and given != own:
            raise ValueError(f"bot {named!r} names its budget, and the options give {given}: give one")
        options = {**options, **own}
    if ":" in name or name in CUSTOM_BOTS:
        factory = CUSTOM_BOTS[name] if name in CUSTOM_BOTS else load_factory(name)
        return _external_bot(factory, name, game, player, seed, dict(options))
    if name not in BOT_NAMES:
        raise ValueError(f"bot: {name!r} is not one of {', '.join(BOT_NAMES)}")
    if name == "random":
        _no_options(options, name)
        return RandomBot(game, player, seed)
    if name == "heuristic":
        _no_options(options, name, ("epsilon", "weights"))
        return HeuristicBot(game, player, seed, **options)
    if name in ("ismcts", "smmcts"):
        return SearchBot(game, player, name, seed, **options)
    if name == "learned":
        algorithm, options = native_search(name, options, games.of(game).core, game.num_players() == 1)
        return SearchBot(game, player, algorithm, seed, label=name, **options)
    if name == "cfr":
        from gutenberg_ai.search import cfr
        _no_options(dict(options), name, ("algorithm", "iterations"))
        return cfr.make_cfr_bot(game, player, seed, **options)
    if name == "openspiel-ismcts-cpp":
        return CppISMCTSBot(game, player, seed, **options)
    if name == "openspiel-mcts-cpp":
        return CppMCTSBot(game, player, seed, **options)
    return _openspiel_bot(name, game, player, seed, dict(options))
