"""What a learned model costs the search: iterations per CPU second with and without it,
side by side in one process, at positions of a seeded game (docs/learning.md).

    python benchmarks/learned.py --game gutenberg                  # the game's shipped weights
    python benchmarks/learned.py --game gutenberg --model gen2.npz
    python benchmarks/learned.py --game gutenberg --players 1     # solo: its weights and defaults

The positions: a 2-player game (`--players`) played by the heuristic player, every 40th
decision with more than one move. At each, for `--seconds` of CPU each, in turn,
`--trials` times:
- ismcts at the game's defaults (the reference, 1x);
- with the model at the leaves only, at the same cut-off;
- with the model at the leaves and as priors, at the same cut-off;
- the learned bot's settings (bots.native_search: solo, the game's own on top);
- with the model and no rollout at all (`rollout="none"`: every leaf evaluated at once);
- with the model as priors, at the leaves and playing the rollouts (`rollout="learned"`).
The table gives iterations per CPU second (the median over trials, summed over the
positions) and each one's ratio to the reference in the same trial. Also: one pass of
the network (LearnedModel.value) in microseconds, from Python (an upper bound: the call
itself is in it).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.search.bots import native_search  # noqa: E402
from gutenberg_ai.games import core_of  # noqa: E402


def positions(game_key: str, seed: int, every: int = 40, players: int = 2) -> list:
    """Core states of a game of `players` played by the heuristic player: every
    `every`-th decision with more than one move."""
    import random
    g = games.get(game_key)
    state = g.load(players=players).new_initial_state()
    rng = random.Random(seed)
    out, decisions = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if len(state.legal_actions()) > 1:
            decisions += 1
            if decisions % every == 1:
                out.append(state.clone())
        state.apply_action(g.core.heuristic_move(core_of(state), rng.randrange(1 << 30)))
    return [core_of(s) for s in out]


def rate(core, c, seconds: float, **options) -> float:
    """Iterations per CPU second of ismcts with `options` at core state `c`."""
    done, spent, seed = 0, 0.0, 1
    while spent < seconds:
        t = time.process_time()
        r = core.search(c, iterations=200, seed=seed, **options)
        spent += time.process_time() - t
        done += r["iterations"]
        seed += 1
    return done / spent


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="gutenberg", choices=sorted(games.GAMES))
    p.add_argument("--model", default="default")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--trials", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=2,
                   help="people in the game (1: the solo game, its own weights and search defaults)")
    args = p.parse_args()
    g = games.get(args.game)
    core = g.core
    solo = args.players == 1
    cutoff = core.search_config(solo=solo)["cutoff"]
    m = args.model
    _, learned = native_search("learned", {"model": m}, core, solo)
    shown = ", ".join(f"{k}={v}" for k, v in learned.items() if k != "model") or "model only"
    configs = [("hand-written (game defaults)", {}),
               ("model at the leaves", dict(model=m, model_priors=False)),
               ("model at the leaves and as priors", dict(model=m)),
               (f"learned bot ({shown})", learned),
               ("model, no rollout", dict(model=m, rollout="none")),
               ("model in the rollouts too (rollout=\"learned\")", dict(model=m, rollout="learned"))]
    states = positions(args.game, args.seed, players=args.players)
    rates = {name: [] for name, _ in configs}
    ratios = {name: [] for name, _ in configs}
    for _ in range(args.trials):
        trial = {name: sum(rate(core, c, args.seconds / len(states), **opts) for c in states)
                 for name, opts in configs}
        for name in trial:
            rates[name].append(trial[name])
            ratios[name].append(trial[name] / trial[configs[0][0]])
    model = core.learned_model(m, solo)
    c = states[len(states) // 2]
    n, t = 2000, time.process_time()
    for _ in range(n):
        model.value(c, 0)
    per_pass = (time.process_time() - t) / n * 1e6
    print(f"{g.title}{' solo' if solo else ''}: {len(states)} positions, {args.trials} trials of {args.seconds:g} CPU s per search "
          f"(cut-off {cutoff}), model {model.name} ({model.hidden}x{model.hidden2} units)\n")
    print("| search | iterations / CPU s | ratio |")
    print("| --- | --- | --- |")
    for name, _ in configs:
        print(f"| {name} | {statistics.median(rates[name]) / len(states):,.0f} | "
              f"{statistics.median(ratios[name]):.2f}x |")
    print(f"\nOne pass of the network from Python: {per_pass:.1f} µs")


if __name__ == "__main__":
    main()
