"""What the benchmarks share: seeded random play to a position, the actions of random
games, and the mean length of random games in a core. It imports nothing of
gutenberg_ai, so a benchmark's child process can use it in any checkout."""
from __future__ import annotations

import random


def play_random(state, rng, stop=None, actions=None):
    """Seeded random moves and draws (draws by their probabilities) on an OpenSpiel state
    until the end or stop(state), each action applied appended to `actions` if given (a
    simultaneous game's history() is not the actions applied). Returns the state."""
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        if actions is not None:
            actions.append(a)
    return state


def first_plan(game, core_of, seed: int):
    """A state of Gutenberg `game` at its first plan step, by seeded random play
    (`core_of`: gutenberg_ai.core_of of the checkout measured)."""
    return play_random(game.new_initial_state(), random.Random(seed),
                       stop=lambda s: core_of(s).step_name() == "plan")


def random_games(game, n: int, seed: int) -> list:
    """The actions (chance included) of n seeded uniformly random games."""
    rng = random.Random(seed)
    games = [[] for _ in range(n)]
    for actions in games:
        play_random(game.new_initial_state(), rng, actions=actions)
    return games


def core_game_length(rules, n: int, seed: int) -> float:
    """The mean number of actions (chance included) of n uniformly random games in the
    core, as `Rules.random_games` plays them (the same rules, not the same seeds)."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(n):
        s = rules.new_state()
        while not s.is_terminal():
            s.apply(s.sample_chance(rng.getrandbits(64)) if s.is_chance() else rng.choice(s.legal_actions()))
            actions += 1
    return actions / n
