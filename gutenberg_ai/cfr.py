"""CFR-style solvers on a small variant of Gutenberg, and a bot that plays their policy.

The whole game is far too large for counterfactual regret minimisation, which walks the
complete game tree every iteration. The small variant is a position shipped with the
package (data/positions/cfr-mini.json): the last and only round of a 2-player game, one
initiative marker each, two printing and two refinement cards, one ink set, one specialty
card and one gear on the board, one order each, the rest of the cards out of the game.
The plan step is still a hidden simultaneous commitment, and the rest of the round (the
five actions, rewards, fulfilment) is the real game: about 32,000 decision nodes.

    from gutenberg_ai import cfr
    game = cfr.variant_game()
    result = cfr.solve(game, "cfr+", iterations=200)
    print(result.exploitability, result.seconds)

OpenSpiel's C++ solvers run on the game directly: CFR, CFR+, and outcome- or
external-sampling Monte Carlo CFR; OpenSpiel computes the exploitability of the
average policy (`pyspiel.exploitability`, in the game's win/loss utility).
"""
from __future__ import annotations

import functools
import os
import random
import time
from dataclasses import dataclass, field
from importlib import resources

import pyspiel

import gutenberg_ai

VARIANT = "cfr-mini.json"
SOLVERS = ("cfr", "cfr+", "mccfr-outcome", "mccfr-external")


def variant_path() -> str:
    """The path of the shipped small-variant position."""
    return str(resources.files("gutenberg_ai").joinpath("data/positions", VARIANT))


def variant_game(returns: str = "win"):
    """The small variant as an OpenSpiel game (the game "gutenberg" started from the
    shipped position)."""
    return gutenberg_ai.load_game(position=variant_path(), returns=returns)


def _solver(game, algorithm: str, seed: int):
    if algorithm == "cfr":
        return pyspiel.CFRSolver(game)
    if algorithm == "cfr+":
        return pyspiel.CFRPlusSolver(game)
    if algorithm == "mccfr-outcome":
        return pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)
    if algorithm == "mccfr-external":
        return pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
    raise ValueError(f"algorithm: {algorithm!r} is not one of {', '.join(SOLVERS)}")


@dataclass
class SolveResult:
    """An average policy and how good it is."""

    algorithm: str
    iterations: int
    seconds: float
    policy: object                 # a pyspiel policy: action_probabilities(state)
    exploitability: float
    curve: list = field(default_factory=list)   # (iterations, seconds, exploitability)
    solver: object = None          # kept alive: an MCCFR average policy reads its tables


def solve(game=None, algorithm: str = "cfr+", iterations: int = 100, seed: int = 0,
          checkpoints: int = 0) -> SolveResult:
    """Run an OpenSpiel solver for `iterations` and return its average policy with its
    exploitability; `checkpoints` > 0 also records the exploitability that many times
    along the way (each costs a best-response computation)."""
    game = game or variant_game()
    if iterations < 1:
        raise ValueError(f"iterations: {iterations} is not a positive number")
    solver = _solver(game, algorithm, seed)
    sampled = algorithm.startswith("mccfr")
    marks = set()
    if checkpoints:
        marks = {max(1, round(iterations * (k + 1) / checkpoints)) for k in range(checkpoints)}
    curve = []
    start = time.perf_counter()
    spent = 0.0
    for it in range(1, iterations + 1):
        if sampled:
            solver.run_iteration()
        else:
            solver.evaluate_and_update_policy()
        if it in marks and it != iterations:
            spent += time.perf_counter() - start
            curve.append((it, spent, pyspiel.exploitability(game, solver.average_policy())))
            start = time.perf_counter()
    spent += time.perf_counter() - start
    # CFR and CFR+ can copy their average policy out; MCCFR's refers to the solver.
    policy = solver.tabular_average_policy() if not sampled else solver.average_policy()
    value = pyspiel.exploitability(game, policy)
    curve.append((iterations, spent, value))
    return SolveResult(algorithm, iterations, spent, policy, value, curve, solver)


@functools.lru_cache(maxsize=8)
def _solved(returns: str, algorithm: str, iterations: int, seed: int) -> SolveResult:
    return solve(variant_game(returns), algorithm, iterations, seed)


def make_cfr_bot(game, player: int, seed: int = 0, algorithm: str = "cfr+", iterations: int = 100):
    """The "cfr" bot of gutenberg_ai.make_bot: solves the small variant once per process
    (per algorithm and iterations) and plays the average policy. `game` must be the small
    variant (variant_game()); the whole game is far too large for CFR."""
    params = game.get_parameters()
    if os.path.abspath(params.get("position", "") or "/") != variant_path():
        raise ValueError("cfr: plays the small variant only (gutenberg_ai.cfr.variant_game()); "
                         "use ismcts or smmcts for the whole game")
    if algorithm not in SOLVERS:
        raise ValueError(f"cfr: algorithm: {algorithm!r} is not one of {', '.join(SOLVERS)}")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"cfr: iterations: {iterations!r} is not a positive integer")
    result = _solved(params["returns"], algorithm, iterations, seed)
    return CFRBot(game, player, result.policy, seed)


class CFRBot(pyspiel.Bot):
    """Plays a solved average policy of the small variant (sampling its action
    probabilities with a seeded generator)."""

    def __init__(self, game, player: int, policy, seed: int = 0):
        super().__init__()
        self._player = player
        self._policy = policy
        self._rng = random.Random(seed)

    def step(self, state):
        probs = self._policy.action_probabilities(state)
        actions = sorted(probs)
        weights = [probs[a] for a in actions]
        if sum(weights) <= 0:
            return self._rng.choice(state.legal_actions())
        return self._rng.choices(actions, weights)[0]

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return True

    def step_with_policy(self, state):
        probs = self._policy.action_probabilities(state)
        action = self.step(state)
        return list(probs.items()), action
