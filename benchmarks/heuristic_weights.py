"""Two evaluations compared in games: the same search (smmcts at the game's defaults, or
with `--bot heuristic` the greedy heuristic player, which moves by the same evaluation)
with the heuristic weights A in one seat and B in the other, seats swapped, played by the
arena (records, resuming, Wilson intervals). Lead Letter Printers' core names its
weights (`_core.HEURISTIC_WEIGHTS`, ext/lead_letter_printers/heuristic.pxi).

    python benchmarks/heuristic_weights.py --a '{}' \\
        --b '{"MARK_PER_ROUND": 0.05, "RESOURCE_PER_ROUND": 0.05}' \\
        --games 200 --iterations 400 --seed 23 --out DIR

A weight not named is the bot's own: the game's searches' (SEARCH_WEIGHTS of
gutenberg_ai/games/lead_letter_printers/game.py) for smmcts, the core's for the heuristic. Each bot is the search with its own weights (the bot
option `weights`, set for its searches only: gutenberg_ai.games.evaluation_weights); the
games run in this process, one at a time (jobs 1). With --iterations both sides search
alike whatever the load (a weight costs nothing to change), so two such runs may share the
machine.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.search.bots import SearchBot, make_bot  # noqa: E402
from gutenberg_ai.tools import arena  # noqa: E402

GAMES_WITH_WEIGHTS = ("lead-letter-printers",)


def weighted_search(game, player, seed, budget, weights=None, **options):
    """smmcts with the evaluation's weights `weights` over the build's."""
    return SearchBot(game, player, "smmcts", seed=seed, label="smmcts", weights=weights or {}, **budget, **options)


def weighted_heuristic(game, player, seed, budget, weights=None, **options):
    """The heuristic player with the evaluation's weights `weights` over the build's (it
    takes no budget)."""
    return make_bot("heuristic", game, player, seed=seed, weights=weights or {}, **options)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="lead-letter-printers", choices=GAMES_WITH_WEIGHTS)
    ap.add_argument("--bot", default="smmcts", choices=("smmcts", "heuristic"),
                    help="the player both sides are (default smmcts)")
    ap.add_argument("--a", default="{}", help="JSON: weights of bot A (weights-a), {name: number}")
    ap.add_argument("--b", default="{}", help="JSON: weights of bot B (weights-b)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200, help="games (seats rotated)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds a move")
    ap.add_argument("--iterations", type=int, default=400, help="iterations a move (unless --seconds)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="the arena's directory (default: a temporary one)")
    args = ap.parse_args(argv)
    try:
        weights = {"weights-a": json.loads(args.a), "weights-b": json.loads(args.b)}
    except json.JSONDecodeError as e:
        raise SystemExit(f"--a/--b: not JSON ({e})") from None
    rules = games.get(args.game).rules_module
    settings = arena.ArenaSettings(bots=list(weights), game=args.game, players=args.players, games=args.games,
                                   seconds=args.seconds, iterations=None if args.seconds else args.iterations,
                                   seed=args.seed, rounds=rules.DEFAULTS["rounds"],
                                   options={name: {"weights": w} for name, w in weights.items()})
    out = args.out or tempfile.mkdtemp(prefix="weights-")
    try:
        summary = arena.run_arena(settings, out, jobs=1, plots=False,
                                  factories={name: weighted_heuristic if args.bot == "heuristic" else weighted_search
                                             for name in weights})
    except ValueError as e:
        raise SystemExit(str(e)) from None
    p = arena.head_to_head(summary, "weights-a", "weights-b") if args.players == 2 else None
    print(f"A {args.a}\nB {args.b}")
    if p:
        print(f"A's rate {p['a_rate']:.1%} ({p['a_rate_low']:.1%}-{p['a_rate_high']:.1%}) over {p['games']} games: "
              f"{p['a_wins']} ahead, {p['shared']} equal, {p['a_losses']} behind; "
              f"mean points {p['mean_fame_a']:.1f}-{p['mean_fame_b']:.1f}")
    print(f"{summary['games']} games, {arena.budget_text(summary['settings'])} a move; records and tables in {out}")


if __name__ == "__main__":
    main()
