"""A bot of your own, as a researcher would bring one: flat Monte Carlo, written with
OpenSpiel's API only (nothing of this project's internals), so it plays every game of
the games table and any other OpenSpiel game.

For each legal move it plays random games to the end (the draws sampled by their
probabilities, every decision uniformly random) and keeps the mean return of the player
to move; it plays the move with the best mean. The budget is shared out over the moves
round-robin: `iterations` rollouts a move decision, or rollouts until `seconds` are
spent. Seeded: the same seed, position and iteration budget give the same move.

It sees the true state, hidden parts included (a real researcher's bot would resample
them: `state.resample_from_infostate(player, sampler)`; option `resample=True` does).

Use it (docs/your-bot.md):

    gutenberg-ai arena --bots gutenberg_ai.examples.flat_mc:make_bot,random --games 4 --iterations 20 --out r/
    gutenberg-ai suite --game printing-press --bot gutenberg_ai.examples.flat_mc:make_bot --iterations 50

The factory is called as make_bot(game, seat, seed, budget, **options), with `budget`
{"iterations": n} or {"seconds": s}, and returns a pyspiel.Bot.
"""
from __future__ import annotations

import random
import time

import pyspiel


class FlatMonteCarloBot(pyspiel.Bot):
    def __init__(self, game, seat, seed, iterations=None, seconds=None, resample=False):
        pyspiel.Bot.__init__(self)
        self.game, self.seat, self.seed = game, seat, seed
        self.iterations, self.seconds, self.resample = iterations, seconds, resample

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def _rollout(self, state, rng):
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state.returns()[self.seat]

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # A seed per position: the move number is public, so it reveals nothing hidden.
        rng = random.Random(f"{self.seed}/{state.move_number()}")
        totals, counts = [0.0] * len(legal), [0] * len(legal)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = 0
        while True:
            if deadline is None and n >= max(self.iterations, len(legal)):
                break
            if deadline is not None and n >= len(legal) and time.perf_counter() >= deadline:
                break
            i = n % len(legal)
            world = state
            if self.resample:
                world = state.resample_from_infostate(self.seat, lambda: rng.random())
            child = world.clone()
            child.apply_action(legal[i])
            totals[i] += self._rollout(child, rng)
            counts[i] += 1
            n += 1
        means = [t / c for t, c in zip(totals, counts)]
        return legal[max(range(len(legal)), key=lambda i: (means[i], -i))]


def make_bot(game, seat, seed, budget, resample=False):
    """The factory: game, seat, seed, budget ({"iterations": n} or {"seconds": s})."""
    if set(budget) - {"iterations", "seconds"} or len(budget) != 1:
        raise ValueError(f"budget: {budget!r} is not {{'iterations': n}} or {{'seconds': s}}")
    return FlatMonteCarloBot(game, seat, seed, resample=bool(resample), **budget)
