"""Search speed: iterations per second of the native ISMCTS and SM-MCTS against OpenSpiel's
C++ ISMCTSBot on the native game, side by side in one process, at several kinds of
decision with 2 and 3 players; against OpenSpiel's Python ISMCTS; two threads against one.

    python benchmarks/search_speed.py              # about 7 minutes of CPU
    python benchmarks/search_speed.py --quick      # under a minute of CPU
    python benchmarks/search_speed.py --game lead-letter-printers   # (b) only, on that game

Another game than Gutenberg (`--game`, a key of gutenberg_ai.games) has no plan step:
its positions are the first decision of round `--round` with more than one move and the
fifth such decision of the round, and the searches are ismcts only (its smmcts is
ismcts); (c) and (d) are Gutenberg's.

(a) The positions: a seeded game played by the heuristic player on the native game, 2
    and 3 players; in round `--round` (default 2): the plan step's last player to plan
    (the others' plans are hidden, so both searches resample them), the first main
    choice of an action turn, and the first decision of a fulfil turn.
(b) At each position, in turn, for `--seconds` of CPU each, `--trials` times:
    - OpenSpiel's C++ `ISMCTSBot` (open_spiel/algorithms/is_mcts.cc): its random-rollout
      evaluator (one uniformly random rollout to the end of the game), UCT with c = 2,
      every simulation on a fresh world drawn by the native game's ResampleFromInfostate;
      its defaults otherwise. Simulations per CPU second: the reference, 1x.
    - ismcts and smmcts like for like: uniformly random rollouts to the end of the game
      (`rollout="random", cutoff=0`), UCT (`tree_policy="uct"`; smmcts's plan step
      decoupled UCT, `selection="uct"`) with no priors (`prior_weight=0`: unvisited moves
      tried in a random order, as the C++ bot expands) and every legal plan
      (`plan_candidates=0`).
    - ismcts and smmcts at the bots' defaults (heuristic priors and PUCT, heuristic
      rollouts cut off after 100 decisions and evaluated, the heuristic's 32 best plans).
    In a trial the C++ bot runs before each of ours and after the last; each ratio is
    ours over the geometric mean of the C++ bot's runs just before and after it, so that
    the machine's speed, which drifts by a fifth from one second to the next on a shared
    virtual machine, moves both sides alike. The table gives the median over the trials
    and, from four trials on, the quartiles. Rates are per CPU second of this process
    (time.process_time), so other work on the machine does not bias them.
(c) OpenSpiel's Python ISMCTSBot (random-rollout evaluator) at the first plan of a
    2-player game, against ismcts in the same way (the figure of earlier versions).
(d) Root parallelism: iterations in `--seconds` of wall clock with 2 threads against 1,
    with the process's CPU seconds, so a busy machine shows (one core's worth of CPU for
    two threads means the other core was taken). Trials alternate; the best of each is
    reported.

Prints Markdown; the ratios do not depend on the machine's speed, the thread ratio does
depend on having two idle cores.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import gutenberg_ai  # noqa: E402
from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.games.gutenberg import _core  # noqa: E402
from _common import first_plan  # noqa: E402  (benchmarks/_common.py)

LIKE_FOR_LIKE = dict(rollout="random", cutoff=0, tree_policy="uct", selection="uct", plan_candidates=0,
                     prior_weight=0.0)
SEARCHES = (("ismcts", "like for like", LIKE_FOR_LIKE), ("smmcts", "like for like", LIKE_FOR_LIKE),
            ("ismcts", "bot defaults", {}), ("smmcts", "bot defaults", {}))


def decisions(game, seed: int, move):
    """Each decision (pyspiel state, its core) of a seeded game of `game` whose moves
    move(core, rng) picks and whose draws are random; the caller stops when it has seen
    enough."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        core = gutenberg_ai.core_of(state)
        yield state, core
        state.apply_action(move(core, rng))


def positions(players: int, round_: int, seed: int):
    """{kind: pyspiel state} from a seeded game of heuristic players on the native game."""
    game = gutenberg_ai.load_game(players=players)
    found, last_plan = {}, None
    heuristic = lambda core, rng: _core.heuristic_move(core, rng.randrange(1 << 30), 0.0)  # noqa: E731
    for state, core in decisions(game, seed, heuristic):
        if len(found) == 3:
            break
        if core.round == round_ and len(state.legal_actions()) > 1:
            d = core.to_dict()
            if core.step_name() == "plan":      # a plan, not the free actions before
                last_plan = state.clone()
            elif last_plan is not None and "plan" not in found:
                found["plan"] = last_plan
            if core.phase == "execute" and d["n_pending"] == 0 and d["sub"] == _core.SUBS["CHOOSE"]:
                found.setdefault("action turn", state.clone())
            if core.phase == "fulfil":
                found.setdefault("fulfil", state.clone())
    return game, found


def game_positions(g, players: int, round_: int, seed: int):
    """{kind: pyspiel state} of another game than Gutenberg: a seeded game of heuristic
    players on its native game, the first and the fifth decision of round `round_` with
    more than one move."""
    game = g.load(players=players)
    found, seen = {}, 0
    heuristic = lambda core, rng: g.core.heuristic_move(core, seed=rng.randrange(1 << 30))  # noqa: E731
    for state, core in decisions(game, seed, heuristic):
        if len(found) == 2:
            break
        if core.round == round_ and len(state.legal_actions()) > 1:
            seen += 1
            if seen in (1, 5):
                found[f"round {round_}, decision {seen}: {core.step_name()}"] = state.clone()
    return game, found


def cpu() -> float:
    return time.process_time()


def cpp_rate(state, seconds: float, seed: int) -> float:
    """Simulations per CPU second of OpenSpiel's C++ ISMCTSBot at `state`."""
    def run(simulations):
        bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed + 1), 2.0, simulations, -1,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
        start = cpu()
        bot.get_policy(state)
        return simulations / max(cpu() - start, 1e-9)
    probe = run(50)
    return run(max(50, int(probe * seconds)))


def our_rate(state, algorithm: str, seconds: float, seed: int, **options) -> float:
    """Iterations per CPU second of our search at `state` (its game's compiled search)."""
    core = gutenberg_ai.core_of(state)
    search = games.of(state).core.search
    probe = search(core, algorithm, iterations=100, seed=seed, **options)
    iterations = max(100, int(probe["iterations"] / probe["seconds"] * seconds))
    start = cpu()
    r = search(core, algorithm, iterations=iterations, seed=seed, **options)
    return r["iterations"] / max(cpu() - start, 1e-9)


def python_ismcts_rate(game, state, seconds: float) -> float:
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
    bot = ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 1,
                           random_state=np.random.RandomState(2))
    bot.reset()
    bot._root_node = bot.create_new_node(state)
    n = 0
    start = cpu()
    while cpu() - start < seconds:
        bot.run_simulation(bot.sample_root_state(state))
        n += 1
    return n / (cpu() - start)


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def wall_iterations(core, seconds, threads):
    before = cpu_seconds()
    r = _core.search(core, "ismcts", seconds=seconds, seed=1, threads=threads)
    return r["iterations"], cpu_seconds() - before


def spread(values) -> str:
    """The median of `values` and, for four or more, their quartiles: "5.12x (4.80-5.40x)"."""
    median = statistics.median(values)
    if len(values) < 4:
        return f"{median:.2f}x"
    low, _, high = statistics.quantiles(values, n=4)
    return f"{median:.2f}x ({low:.2f}-{high:.2f}x)"


def ratio_table(positions_of, searches, args):
    """(b): for 2 and 3 players, at each position of positions_of(players), the C++ bot's
    simulations per CPU second and each search's ratio to it, medians over the trials
    (with their quartiles from four trials on), as Markdown rows under a header. In a
    trial the C++ bot runs before each search and after the last, and a search's ratio
    is over the geometric mean of the two runs beside it: a machine whose speed drifts
    within a trial moves both sides of a ratio alike."""
    header = ["position", "C++ ISMCTSBot sims/s"] + [f"{a}, {label}" for a, label, _ in searches]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for players in (2, 3):
        game, found = positions_of(players)
        for kind, state in found.items():
            cpp, ratios = [], [[] for _ in searches]
            for trial in range(args.trials):
                before = cpp_rate(state, args.seconds, seed=args.seed + trial)
                cpp.append(before)
                for k, (algorithm, _, options) in enumerate(searches):
                    ours = our_rate(state, algorithm, args.seconds, args.seed + trial, **options)
                    after = cpp_rate(state, args.seconds, seed=args.seed + trial)
                    cpp.append(after)
                    ratios[k].append(ours / math.sqrt(before * after))
                    before = after
            cells = [f"{players} players, {kind} ({len(state.legal_actions())} moves)",
                     f"{statistics.median(cpp):,.0f}"] + [spread(r) for r in ratios]
            print("| " + " | ".join(cells) + " |", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--round", type=int, default=2, help="the round the positions are taken from")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--game", default="gutenberg", help="the game of the table (gutenberg_ai.games)")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.trials = 0.5, 1
    if args.game != "gutenberg":
        return other_game(games.get(args.game), args)

    ratio_table(lambda players: positions(players, args.round, args.seed), SEARCHES, args)
    print(f"\nRound {args.round} of a seeded heuristic game (seed {args.seed}); {args.seconds:g} CPU s per "
          f"measurement, median of {args.trials} trial(s) (quartiles from 4 on); ratios: iterations per CPU "
          f"second over the C++ bot's simulations per CPU second beside them (its runs just before and after).")

    game = gutenberg_ai.load_game(players=2)
    state = first_plan(game, gutenberg_ai.core_of, args.seed)
    py = python_ismcts_rate(game, state, args.seconds)
    ours = our_rate(state, "ismcts", args.seconds, 1, **LIKE_FOR_LIKE)
    defaults = our_rate(state, "ismcts", args.seconds, 1)
    print("\n| search (first plan of a 2-player game) | iterations per CPU s | vs OpenSpiel's Python ISMCTS |")
    print("| --- | --- | --- |")
    print(f"| OpenSpiel Python ISMCTSBot, random rollouts | {py:,.0f} | 1x |")
    print(f"| ismcts, like for like | {ours:,.0f} | {ours / py:,.0f}x |")
    print(f"| ismcts, bot defaults | {defaults:,.0f} | {defaults / py:,.0f}x |")

    core = gutenberg_ai.core_of(state)
    print("\n| threads (ismcts, bot defaults) | iterations | CPU s / wall s | ratio | bar |")
    print("| --- | --- | --- | --- | --- |")
    best = {1: (0, 0.0), 2: (0, 0.0)}
    for _ in range(args.trials):
        for threads in (1, 2):
            n, used = wall_iterations(core, args.seconds, threads)
            if n > best[threads][0]:
                best[threads] = (n, used / args.seconds)
    for threads in (1, 2):
        n, load = best[threads]
        print(f"| {threads} | {n:,} | {load:.2f} | {n / best[1][0]:.2f}x | {'>= 1.7x' if threads == 2 else ''} |")
    print(f"\n{args.seconds:g} s of wall clock per thread measurement, best of {args.trials}; load average "
          f"{os.getloadavg()[0]:.2f}")


def other_game(g, args) -> int:
    """(b) on another game: the C++ ISMCTSBot against ismcts like for like and at the
    bot's defaults."""
    searches = [("ismcts", "like for like", {k: v for k, v in LIKE_FOR_LIKE.items() if k != "plan_candidates"}),
                ("ismcts", "bot defaults", {})]
    print(f"{g.title}\n")
    ratio_table(lambda players: game_positions(g, players, args.round, args.seed), searches, args)
    print(f"\nA seeded heuristic game (seed {args.seed}); {args.seconds:g} CPU s per measurement, median of "
          f"{args.trials} trial(s) (quartiles from 4 on); ratios: iterations per CPU second over the C++ bot's "
          f"simulations per CPU second beside them (its runs just before and after).")
    return 0


if __name__ == "__main__":
    main()
