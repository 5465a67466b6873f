"""Lead Letter Printers: games per second inside the compiled core.

    python benchmarks/llp_core_speed.py            # about 20 seconds; --quick: a few

Plays whole games in C without the GIL, for 2, 3 and 4 players: uniformly random
(`Rules.random_games`), random with every invariant checked after every action
(`Rules.check_random_games`) and the heuristic against itself (`policy_games`). The
reference, measured in the same process, is Gutenberg's random 2-player games
(`gutenberg_ai.games.gutenberg._core`), so the ratios do not depend on the machine. Best of 3 runs.
"""
import argparse
import time

from gutenberg_ai.games.gutenberg.game import rules_for
from gutenberg_ai.games.lead_letter_printers import _core, make_rules


def best_rate(fn, n, runs=3):
    best = 0.0
    for _ in range(runs):
        t = time.perf_counter()
        fn(n)
        best = max(best, n / (time.perf_counter() - t))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games")
    args = ap.parse_args()
    k = 0.2 if args.quick else 1.0
    g = rules_for({"players": 2})
    ref = best_rate(lambda n: g.random_games(n, 1), int(2000 * k))
    print(f"reference: Gutenberg, random 2-player games: {ref:,.0f} games/s")
    print("| players | random games/s | ratio | checked games/s | heuristic games/s | actions a game |")
    print("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 3, 4):
        R = make_rules({"players": players})
        rnd = best_rate(lambda n: R.random_games(n, 7), int(3000 * k))
        chk = best_rate(lambda n: R.check_random_games(n, 7), int(3000 * k))
        heu = best_rate(lambda n: _core.policy_games(R, ["heuristic"] * players, n, 7), max(2, int(40 * k / players)))
        _, actions, _ = R.check_random_games(200, 9)
        print(f"| {players} | {rnd:,.0f} | {rnd / ref:.2f}x | {chk:,.0f} | {heu:,.1f} | {actions / 200:.0f} |")


if __name__ == "__main__":
    main()
