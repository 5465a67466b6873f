"""The command line: `gutenberg-ai` (or `python -m gutenberg_ai`).

    gutenberg-ai demo --players 2 --seed 7     a full game between built-in players, printed
"""
from __future__ import annotations

import argparse
import random
import sys

import pyspiel

import gutenberg_ai
from gutenberg_ai.game import ParameterError


def play_demo(players: int = 2, seed: int = 7, rounds: int = 6, catalogue: str = "",
              characters: bool = True, automa: bool = False, out=sys.stdout, verbose: bool = True):
    """Play one game between uniformly random players, every draw seeded by `seed`, and
    print it round by round with the final score sheet. Returns the final state."""
    game = gutenberg_ai.load_game(players=players, rounds=rounds, catalogue=catalogue,
                                  characters=characters, automa=int(automa))
    rng = random.Random(seed)
    state = game.new_initial_state()
    last_round = -1
    draws = 0
    while not state.is_terminal():
        core = gutenberg_ai.core_of(state)   # a copy of the native state's struct, to read
        if core.round != last_round:
            last_round = core.round
            if verbose:
                title = "Setup" if core.round == 0 else f"Round {core.round}"
                print(f"\n=== {title} ===", file=out)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
            draws += 1
            if verbose and core.step_name().startswith("automa"):   # the automa's cards
                print(f"  automa: {state.action_to_string(pyspiel.PlayerId.CHANCE, action)}", file=out)
        else:
            player = state.current_player()
            action = rng.choice(state.legal_actions())
            if verbose:
                print(f"  player {player}: {state.action_to_string(player, action)}", file=out)
        state.apply_action(action)
    if verbose:
        print(f"\n=== End of the game ({draws} draws) ===", file=out)
        print(score_sheet(state), file=out)
    return state


def score_sheet(state) -> str:
    """The final score sheet: fame track, specialties, patronage, guilders, total."""
    core = gutenberg_ai.core_of(state)
    rows = [f"{'player':<8}{'fame':>6}{'special.':>10}{'patron.':>9}{'guilders':>10}{'total':>7}"]
    for seat in range(core.num_players):
        b = core.score_breakdown(seat)
        rows.append(f"{seat:<8}{b['fame']:>6}{b['specialties']:>10}{b['patronage']:>9}"
                    f"{b['guilders']:>10}{b['total']:>7}")
    rows += [f"player {seat} played {core.character(seat)}" for seat in range(core.num_players)
             if core.character(seat)]
    if core.num_players == 1:
        total = core.final_scores()[0]
        rows.append(f"Solo title: {gutenberg_ai.solo_title(total)}")
        return "\n".join(rows)
    winners = core.winners()
    who = " and ".join(f"player {w}" for w in winners)
    rows.append(f"{'Winner' if len(winners) == 1 else 'Shared win'}: {who}")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="gutenberg-ai", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a full game between built-in (random) players and print it")
    demo.add_argument("--players", type=int, default=2, help="1-4 (default 2; 1 plays solo against the automa)")
    demo.add_argument("--rounds", type=int, default=6, help="1-6 (default 6)")
    demo.add_argument("--seed", type=int, default=7, help="seed of every random choice and draw (default 7)")
    demo.add_argument("--catalogue", default="", help="a catalogue JSON file (default: the built-in one)")
    demo.add_argument("--characters", action=argparse.BooleanOptionalAction, default=True,
                      help="play with character tiles (default: yes)")
    demo.add_argument("--automa", action="store_true",
                      help="add the rulebook's automa (always on with 1 player)")
    demo.add_argument("--quiet", action="store_true", help="print only the score sheet")
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        if args.command is None:
            args = demo.parse_args([])
        try:
            state = play_demo(args.players, args.seed, args.rounds, args.catalogue,
                              characters=args.characters, automa=args.automa or args.players == 1,
                              verbose=not args.quiet)
        except (ParameterError, gutenberg_ai.CatalogueError, pyspiel.SpielError) as e:
            print(f"gutenberg-ai: {e}", file=sys.stderr)
            return 2
        if args.quiet:
            print(score_sheet(state))
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
