"""Why outcome-sampling MCCFR freezes on the small variant: the measurements.

    python benchmarks/mccfr_outcome.py                  # about 2 minutes of CPU
    python benchmarks/mccfr_outcome.py --quick          # about a minute
    python benchmarks/mccfr_outcome.py --games "variant;kuhn_poker"

For each game (default: the variant, gutenberg_ai.search.cfr.variant_game(), and OpenSpiel's
dots_and_boxes on a 1x2 board, a small perfect-information game):

1. The tree, audited (gutenberg_ai.search.cfr.audit_tree): perfect recall of the
   information-state strings and tensors, chance probabilities, histories per
   information state, outcomes per chance node, the smallest chance reach of a terminal.
2. OpenSpiel's C++ solvers: outcome sampling (the update player's exploration epsilon
   0.2, 0.6 (OpenSpiel's default) and 1) and external sampling.
3. The same outcome sampler re-written over the tree and instrumented
   (gutenberg_ai.search.cfr.OutcomeSamplingStudy), one run: the exploitability of OpenSpiel's
   average ("update": at the update player's nodes, weighted by its reach over the
   sample's), of the current policy (regret matching), and of the average taken at the
   other player's nodes ("other") from the same episodes.
4. What the updates were, per information state, at the end of that run: how many, how
   long ago the last, which of those not updated in the second half the other player's
   current policy no longer reaches, how large the averaging weights, and what the
   exploitability becomes when the "update" average is replaced by the "other" one at
   the stale states only, or at the states with the largest weights only.

Exploitability is OpenSpiel's (pyspiel.exploitability). Prints Markdown.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import pyspiel  # noqa: E402

from gutenberg_ai.search import cfr  # noqa: E402

DEFAULT_GAMES = ("variant", "dots_and_boxes(num_rows=1,num_cols=2)")


def load(name):
    return cfr.variant_game() if name == "variant" else pyspiel.load_game(name)


def audit(game):
    t = time.perf_counter()
    a = cfr.audit_tree(game)
    print(f"Audit ({time.perf_counter() - t:.0f} s): {a.decision_nodes:,} decision nodes, "
          f"{a.chance_nodes:,} chance nodes, {a.terminals:,} terminals, information states "
          f"{', '.join(f'player {p}: {n:,}' for p, n in sorted(a.info_states.items()))}; "
          f"histories per information state {a.histories_per_info_state}; outcomes per chance "
          f"node {a.outcomes_per_chance_node}; smallest chance reach of a terminal "
          f"{a.min_chance_reach:.3g}; longest history {a.longest_history}.")
    print(f"Perfect recall violations {len(a.recall_violations)}, legal-action mismatches "
          f"{len(a.legal_mismatches)}, tensor mismatches {len(a.tensor_mismatches)}, chance "
          f"errors {len(a.chance_errors)}.\n")


def openspiel_solvers(game, outcome_marks, external_marks, seed, epsilons):
    print("| OpenSpiel C++ solver | iterations | exploitability |")
    print("| --- | --- | --- |")
    runs = [(f"outcome sampling, epsilon {eps:g}", outcome_marks,
             pyspiel.OutcomeSamplingMCCFRSolver(game, epsilon=eps, seed=seed)) for eps in epsilons]
    runs.append(("external sampling", external_marks, pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)))
    for name, marks, solver in runs:
        done = 0
        for n in marks:
            for _ in range(n - done):
                solver.run_iteration()
            done = n
            print(f"| {name} | {n:,} | {pyspiel.exploitability(game, solver.average_policy()):.4f} |")
    print()


def tabular(study, choose):
    return pyspiel.TabularPolicy({key: list(zip(study.actions[i], choose(i)))
                                  for i, key in enumerate(study.keys)})


def normalised(table):
    total = sum(table)
    return [x / total for x in table]


def other_reach_now(study):
    """Per information state: the largest reach of the other player's current policy
    over its histories (0: the other player's current policy never leads there)."""
    reach = {}
    stack = [(0, (1.0, 1.0))]
    while stack:
        node, r = stack.pop()
        kind = study._kind[node]
        if kind == 0:
            continue
        if kind == 1:
            stack.extend((child, r) for child in study._children[node])
            continue
        i = study._info[node]
        p = study.players[i]
        reach[i] = max(reach.get(i, 0.0), r[1 - p])
        policy = study._current(i)
        for j, child in enumerate(study._children[node]):
            rr = list(r)
            rr[p] *= policy[j]
            stack.append((child, tuple(rr)))
    return reach


def decade(n):
    return "0" if n == 0 else f"{10 ** int(math.log10(n)):,}-{10 ** (int(math.log10(n)) + 1) - 1:,}"


def by_decade(values):
    """{decade label: count}, in increasing order."""
    counts = {}
    for v in values:
        counts[decade(v)] = counts.get(decade(v), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: int(kv[0].split("-")[0].replace(",", ""))))


def study(game, marks, seed):
    t = time.perf_counter()
    s = cfr.OutcomeSamplingStudy(game, seed=seed)
    print(f"Outcome sampling re-written over the tree ({s.nodes():,} nodes, {len(s.keys):,} "
          f"information states, built in {time.perf_counter() - t:.1f} s), epsilon 0.6, seed {seed}:\n")
    print("| iterations | seconds | OpenSpiel's average (\"update\") | current policy | average at the other player's nodes (\"other\") |")
    print("| --- | --- | --- | --- | --- |")
    spent = 0.0
    for n in marks:
        t = time.perf_counter()
        s.run(n - s.iterations)
        spent += time.perf_counter() - t
        values = [pyspiel.exploitability(game, p)
                  for p in (s.average_policy("update"), s.current_policy(), s.average_policy("other"))]
        print(f"| {n:,} | {spent:.0f} | " + " | ".join(f"{v:.4f}" for v in values) + " |")

    m, total = len(s.keys), s.iterations
    print(f"\nAfter {total:,} iterations, per information state (updates: visits as the update player):\n")
    counts = by_decade(s.updates)
    print("| updates | " + " | ".join(counts) + " |")
    print("| --- |" + " --- |" * len(counts))
    print("| information states | " + " | ".join(f"{c:,}" for c in counts.values()) + " |")

    reach = other_reach_now(s)
    updated = [i for i in range(m) if s.updates[i]]
    stale = [i for i in updated if s.last_update[i] < total / 2]
    fresh = [i for i in updated if s.last_update[i] >= total / 2]
    unreached = sum(1 for i in stale if reach.get(i, 0.0) == 0.0)
    zero_weight = sum(1 for i in updated if s.weight_sum[i] == 0)
    print(f"\nNever updated: {m - len(updated):,} of {m:,}. Updated, but not in the second half of the "
          f"run: {len(stale):,}; of these, the other player's current policy still reaches "
          f"{len(stale) - unreached:,} and no longer reaches {unreached:,}. Updated in the second half: "
          f"{len(fresh):,}. Updated only with the player's own reach 0 (weight 0): {zero_weight:,}.")
    weights = by_decade(int(s.weight_max[i]) for i in updated if s.weight_max[i] > 0)
    lowest = min((s.min_other_reach[i] for i in updated), default=1.0)
    print(f"Largest single averaging weight per information state (rounded down): "
          f"{', '.join(f'{k}: {v:,}' for k, v in weights.items())}; the smallest reach of the "
          f"other player's policy at an update: {lowest:.2g}.\n")

    update, other = s.average["update"], s.average["other"]
    stale_set = set(stale)
    heavy = {i for i in updated if s.weight_max[i] > 1000}
    print("| the \"update\" average, replaced by the \"other\" one at | information states | exploitability |")
    print("| --- | --- | --- |")
    for label, where in (("none", set()),
                         ("the states not updated in the second half", stale_set),
                         ("the states with a single weight above 1,000", heavy),
                         ("all", set(range(m)))):
        policy = tabular(s, lambda i: normalised(other[i]) if i in where else normalised(update[i]))
        print(f"| {label} | {len(where):,} | {pyspiel.exploitability(game, policy):.4f} |")
    print()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=";".join(DEFAULT_GAMES),
                    help='";"-separated games: "variant" or an OpenSpiel game string')
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(";") if g]
    outcome = [10_000, 100_000] if args.quick else [10_000, 100_000, 400_000]
    external = [1_000] if args.quick else [1_000, 10_000]
    marks = [10_000, 50_000] if args.quick else [10_000, 50_000, 200_000, 1_000_000]
    for name in games:
        print(f"## {name}\n")
        game = load(name)
        audit(game)
        openspiel_solvers(game, outcome, external, args.seed, [0.6] if args.quick else [0.2, 0.6, 1.0])
        study(game, marks, args.seed)


if __name__ == "__main__":
    main()
