"""The command line, `gutenberg-ai` (or `python -m gutenberg_ai`), for every game of the
games table (gutenberg_ai.games): `--game printing-press` plays Printing Press; Gutenberg
is the default, and a record or position file says its own game.

    gutenberg-ai demo --bots smmcts,heuristic        a full game between bots (default random), printed
    gutenberg-ai play --players 2 --ai smmcts        a game against AI opponents in the terminal
    gutenberg-ai table --players 3 --seat 1          follow a real game at the table, hints at any moment
    gutenberg-ai hint POSITION.json                  the best moves at a position from your table
    gutenberg-ai replay RECORD.json                  a recorded game, action by action
    gutenberg-ai arena --bots smmcts,heuristic ...   a round robin between bots, with ratings
    gutenberg-ai cards A I I U 5 guilders            a card's id (for a position) from what it shows
    gutenberg-ai serve                               play, hints and review in a web page
    gutenberg-ai review RECORD.json                  how well a recorded game was played, decision by decision
    gutenberg-ai study balance --game G ...          seats, first player, characters: win rates and scores
    gutenberg-ai suite --game G --bot B              score a bot on the game's benchmark positions
    gutenberg-ai selfplay --game G --out DIR         self-play records: training data
    gutenberg-ai train DIR --out WEIGHTS.npz         a learned evaluation and priors (PyTorch)

Every subcommand has --help. Errors (a bad parameter, a malformed position or record)
print one line naming what is wrong and exit with status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import math
import os
import shlex
import sys
import textwrap
import time

import pyspiel
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from gutenberg_ai._version import __version__
from gutenberg_ai.common import limits
from gutenberg_ai.common.draw import seat_label
from gutenberg_ai.common.words import budget_words
from gutenberg_ai.games import core_of
from gutenberg_ai import games
from gutenberg_ai.interfaces import tui
from gutenberg_ai.interfaces.choices import (NEW_DEAL, NEW_STAND_INS, RECORD_FILES, UsageError, WrittenOver,
                                             check_folder, check_output, chosen_seed, fresh_seed, known_params,
                                             load_game, of_formats, printing_game, same_game)
from gutenberg_ai.search.bots import BOT_NAMES, budget_not_taken, budget_options, make_bot
from gutenberg_ai.search.hints import DEFAULT_ITERATIONS as HINT_ITERATIONS
from gutenberg_ai.search.hints import HINT_BOTS, hint
from gutenberg_ai.search.learn.train import MAX_EPOCHS as TRAIN_MAX_EPOCHS, MAX_HIDDEN as TRAIN_MAX_HIDDEN
from gutenberg_ai.tools import arena, ratings, sprt, tune
from gutenberg_ai.tools.suite import SUITE_VERSIONS
from gutenberg_ai.tools.review import DEFAULT_ITERATIONS as REVIEW_ITERATIONS
from gutenberg_ai.common.jsonfile import FileDataError, plain_text
from gutenberg_ai.games.records import CHANCE, GameRecord, RecordError, play_bots, seat_entry
from gutenberg_ai.games.printing_press.names import SOLO_DIFFICULTY
from gutenberg_ai.common.pool import PoolError

PROG = "gutenberg-ai"
# What a user can get wrong: each names the field or parameter and the reason (a game's
# ParameterError is a ValueError; a catalogue's, position's or record's a FileDataError).
USER_ERRORS = (FileDataError, RecordError, pyspiel.SpielError, ValueError, OSError, PoolError)   # ArenaError,
# the cluster's ClusterError, a study's errors and learn's (SelfPlayError, DataError, TrainError,
# ModelError) are ValueErrors; PoolError: a process of --jobs that died (said, not a traceback)


# ---------------------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------------------
# A searching bot's budget a move in a demo, per game: iterations (the same game on any
# machine), as many as play a 2-player game of smmcts against the heuristic player in
# about 4 s of CPU (measured 2026-11-27, seed 7: Gutenberg 3.6 s at 1,000, Printing Press
# 3.7 s and Lead Letter Printers 3.9 s at 100; their moves cost more, and their games
# have more of them).
DEMO_ITERATIONS = {"gutenberg": 1000, "printing-press": 100, "lead-letter-printers": 100}

def play_demo(players: int = 2, seed: int = 7, rounds: int | None = None, catalogue: str = "",
              characters: bool | None = None, automa: bool = False, out=None, verbose: bool = True,
              record: bool = False, bots=("random",), seconds=None, iterations=None,
              game: str | None = None, variant: str | None = None, announce: str | None = None,
              progress=None, settings: dict | None = None):
    """Play one game of `game` (a games-table key; Gutenberg by default) between bots
    (names from BOT_NAMES: one for every seat, or one per seat; seeded from `seed`,
    chance drawn with it) and print it round by round with the final score sheet.
    Searching bots get `seconds` or `iterations` a move (default: the game's
    DEMO_ITERATIONS).
    `announce` (the seed's line) is printed once the game and the bots are checked.
    `progress(state, player, action)`, where the game is not printed, is called after
    every action. `settings`: the game's other parameters by name, None for a default
    (Lead Letter Printers' `factory_tops`, Printing Press's solo difficulty, ...).
    Returns the final state, or (state, GameRecord) with record=True."""
    out = out or sys.stdout
    params = {"players": players, "rounds": rounds, "catalogue": catalogue, "characters": characters,
              "automa": int(automa) if automa else None, "variant": variant, **(settings or {})}
    g = printing_game(game)
    game = load_game(known_params(g, params), g.key)
    names = list(bots)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise UsageError(f"--bots: {len(names)} bots for {players} players; name one for all or one per player")
    if seconds is None and iterations is None:
        iterations = DEMO_ITERATIONS[g.key]
    budgets = [budget_options(name, seconds, iterations) for name in names]
    bots = [make_bot(name, game, seat, seed=seed + 1 + seat, **budget)
            for seat, (name, budget) in enumerate(zip(names, budgets))]
    log = GameRecord(game, seed, [seat_entry(seat, name, seed + 1 + seat, budget)
                                  for seat, (name, budget) in enumerate(zip(names, budgets))], command="demo")
    if announce:
        print(announce, file=out)
    last_round = [-1]
    view = games.of(game).view

    # Each move is flushed as it is played: a person watches the game go, piped too.
    def show(state, player, action):
        core = core_of(state)
        text = state.action_to_string(player, action)
        if player == CHANCE:
            line = view.chance_note(core, action, text)   # the automa's cards; other draws are quiet
        else:
            line = f"player {player}: {text}"
        # Where the automa's rules chose as this action is played (the patronage card it
        # takes, the markers it passes or receives with the first player token).
        automa = view.automa_note(core, action)
        if not line and not automa:
            return
        # A round's heading above its first line: quiet draws open none (Lead Letter
        # Printers' last preparation counts as the next round until the game ends).
        if core.round != last_round[0]:
            last_round[0] = core.round
            print(f"\n=== {'Setup' if core.round == 0 else f'Round {core.round}'} ===", file=out, flush=True)
        for note in (line or "").split("\n") + (automa or "").split("\n"):
            if note:
                print(f"  {note}", file=out, flush=True)

    state = play_bots(game, bots, seed, log, on_action=show if verbose else progress)
    if verbose:
        draws = sum(1 for a in log.actions if a["player"] == CHANCE)
        print(f"\n=== End of the game ({draws} draws) ===", file=out)
        print(score_sheet(state), file=out)
    return (state, log) if record else state


def score_sheet(state) -> str:
    """The final score sheet as plain text, in the game's own columns (its view)."""
    return tui.score_sheet(core_of(state))


@contextlib.contextmanager
def demo_progress(console, quiet: bool):
    """With --quiet at a terminal, a line that says how far the game is (the round, the
    moves played), gone when it ends; yields play_demo's `progress` (None otherwise)."""
    if not quiet or not console.is_terminal:
        yield None
        return
    with Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("setup", total=None)
        moves = [0]

        def progress(state, player, action):
            moves[0] += player != CHANCE
            rnd = core_of(state).round
            bar.update(task, description=f"{'setup' if rnd == 0 else f'round {rnd}'}, {moves[0]} moves played")

        yield progress


PATH_OPTIONS = ("out", "save", "resume", "position")   # files or folders whose "" is no path (not "none")
FOLDER_OUT = ("arena", "study", "selfplay", "tune", "suite")   # the commands whose --out is a folder


def check_paths(args) -> None:
    """A command's files checked before any work: an empty path is refused, the record
    --save will write must be writable there (check_output), and a folder --out must
    be one that can be made or written into (check_folder)."""
    for option in PATH_OPTIONS:
        if option == "position" and args.command == "hint":
            continue     # hint's POSITION.json is an argument, not an option: its loader names it
        if getattr(args, option, None) == "":
            raise UsageError(f"--{option}: an empty path")
    if args.command in FOLDER_OUT and args.out is not None:
        check_folder(args.out, "--out")
    if getattr(args, "save", None) is not None:
        position = getattr(args, "position", None)
        check_output(args.save, "--save", reads=(position,) if position else (), replaces=RECORD_FILES)


# Where an earlier run into a command's --out folder recorded its seed: the files (a glob
# in the folder; the first in name order is read) and the keys to the seed in their JSON,
# the first found. A match's first game is dealt with the run's seed itself (arena.schedule),
# so its record says it where the settings file is gone.
GAMES_SEED = ((arena.SETTINGS_FILE, ("settings", "seed")),
              (os.path.join(arena.GAMES_DIR, "*", "game-0000.json"), ("seed",)))
SEED_RECORDS = {"arena": GAMES_SEED, "study": GAMES_SEED, "selfplay": GAMES_SEED,
                "tune": ((tune.SETTINGS_FILE, ("seed",)),),
                "suite": ((os.path.join("positions", "*.json"), ("task", "seed")),)}
FRESH_SEEDS = ("hint", "review", "train", *SEED_RECORDS)   # commands whose seed is new unless given or recorded


def recorded_seed(args) -> int | None:
    """The seed an earlier run of this command into the same --out folder recorded, or
    None. A file that cannot be read gives none here: the command's own check of the
    folder says what is wrong with it."""
    import glob
    from gutenberg_ai.common.jsonfile import read_json
    out = getattr(args, "out", None)
    if not out or not os.path.isdir(out):
        return None
    for pattern, keys in SEED_RECORDS.get(args.command, ()):
        found = sorted(glob.glob(os.path.join(glob.escape(out), pattern)))
        if not found:
            continue
        try:
            value, _, _ = read_json(found[0], FileDataError, 1 << 22, "settings")
        except FileDataError:
            return None
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        try:
            return limits.check_seed(value)
        except ValueError:
            return None
    return None


def settle_seed(args) -> str:
    """A command of FRESH_SEEDS without --seed takes the seed of its earlier run into the
    same folder, else a new one; returns the line that says which (main prints it on
    stderr when the command has done its work: stdout keeps what the command prints, its
    JSON too), empty when the seed was given."""
    if args.command not in FRESH_SEEDS:
        return ""
    where = getattr(args, "out", None) or ""
    args.seed, line = chosen_seed(args.seed, recorded_seed(args) if args.seed is None else None, where)
    return line


def cmd_demo(args) -> int:
    # Gutenberg's solo game is the automa; Printing Press's brings its own.
    automa = args.automa or (args.players == 1 and "automa" in printing_game(args.game).rules_module.DEFAULTS)
    bots = bot_names(args.bots, [n for n in BOT_NAMES if n != "cfr"])
    no_budget_unless_one_searches(bots, args)
    seed, said = chosen_seed(args.seed, new=NEW_DEAL)
    with demo_progress(Console(stderr=True), args.quiet) as progress:
        state, log = play_demo(args.players, seed, args.rounds, args.catalogue, characters=args.characters,
                               automa=automa, verbose=not args.quiet, record=True, bots=bots,
                               seconds=args.seconds, iterations=args.iterations, game=args.game,
                               variant=args.variant, announce=said or f"Seed {seed}",
                               progress=progress,
                               settings={"factory_tops": args.factory_tops, **solo_difficulty(args)})
    if args.quiet:
        print(score_sheet(state))
    if args.save:
        log.save(args.save)
        print(f"Game record written to {args.save}")
    return 0


# ---------------------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------------------
def game_params(args, g) -> dict:
    """The parameters of a new game of `g` from play/table options (those given, 2 players
    unless told; a game from a position file is position_start_game's); an option the
    game does not know is a UsageError."""
    params = {"players": args.players, "rounds": args.rounds, "characters": args.characters,
              "variant": getattr(args, "variant", None), "catalogue": getattr(args, "catalogue", ""),
              "factory_tops": getattr(args, "factory_tops", None), **solo_difficulty(args)}
    if args.players is None:
        params["players"] = 2
    automa = "automa" in g.rules_module.DEFAULTS
    if args.automa or (automa and params.get("players") == 1):
        params["automa"] = 1
    return known_params(g, params)


def position_start_game(args, seed: int):
    """The game of --position (play, table): (the game's games-table entry, the
    Position, the game starting at the position, presets, note), as positionfile.position_game makes it;
    --players, --rounds, --characters, --variant and --automa may only repeat the file's."""
    from gutenberg_ai.games.gamedata import ParameterError
    from gutenberg_ai.games.positionfile import position_game
    settings = {"players": args.players, "rounds": args.rounds, "characters": args.characters,
                "variant": getattr(args, "variant", None), "automa": 1 if args.automa else None,
                "factory_tops": getattr(args, "factory_tops", None), **solo_difficulty(args)}
    try:
        return position_game(args.position, args.game, args.catalogue or None, seed, settings, args.command)
    except ParameterError as e:
        raise UsageError(f"--{e}") from None


def comma_list(text: str, what: str = "bot name") -> list[str]:
    """The items of a comma-separated option, stripped; UsageError for none at all or an
    empty one (`what`: what an item is)."""
    items = [n.strip() for n in text.split(",")]
    if not any(items):
        raise UsageError(f"name at least one {what.removesuffix(' name')}")
    if not all(items):
        raise UsageError(f"{text!r}: an empty {what} (they are separated by commas)")
    return items


def bot_names(text: str, allowed=BOT_NAMES) -> list[str]:
    names = comma_list(text)
    for n in names:
        if n not in allowed:
            raise UsageError(f"bot {n!r} is not one of {', '.join(allowed)}")
    return names


def no_budget_unless_one_searches(bots: list[str], args) -> None:
    """UsageError for --seconds/--iterations given where none of `bots` takes a budget
    (none searches: bots.budget_not_taken), rather than leaving them unused."""
    given = [f"--{k}" for k in ("seconds", "iterations") if getattr(args, k, None) is not None]
    problem = budget_not_taken(bots, args.seconds, args.iterations)
    if problem:
        raise UsageError(f"{given[0]}: {problem} (leave {given[0]} out)")


PLAY_SECONDS = 3.0   # a searching AI's time a move in play, unless told


def cmd_play(args) -> int:
    from gutenberg_ai.interfaces.play import Session, Settings
    console = Console(highlight=False)
    if args.resume:
        return resume_play(args, console)
    seed, said = chosen_seed(args.seed, new=NEW_DEAL)
    seconds = args.seconds if args.seconds is not None or args.iterations is not None else PLAY_SECONDS
    g = printing_game(args.game)
    presets, note = [], ""
    names: tuple[str | None, ...] = ()
    if args.position:
        # What the file hides is not a stand-in to play with: the game's position_start
        # makes it playable (Gutenberg: the hidden plans planned again; Printing Press:
        # the others' hidden tokens dealt with the seed).
        g, pos, game, presets, note = position_start_game(args, seed)
        names = tuple(plain_text(n) if n is not None else None for n in (pos.names or ()))
    else:
        game = load_game(game_params(args, g), g.key)
    if args.ai is not None and game.num_players() == 1:
        raise UsageError("--ai: a game of one person has no AI seat to give a bot")
    allowed = [n for n in BOT_NAMES if n != "cfr"]
    settings = Settings(human=args.seat if args.seat is not None else 0,
                        ai=tuple(bot_names("smmcts" if args.ai is None else args.ai, allowed)),
                        seconds=seconds, iterations=args.iterations, seed=seed, save=args.save, presets=presets,
                        names=names)
    try:
        session = Session(game, settings, console)
    except ValueError as e:
        raise UsageError(str(e)) from None
    console.print(Text(said or f"Seed {seed}", style="dim"))
    if note:
        console.print(Text(note, style="dim"))
    return session.run()


def resume_play(args, console) -> int:
    """play --resume RECORD: the game of a record, continued. The game, the seats and
    (for a full record) the seed are the record's; --ai, --seconds/--iterations and
    --seed may change them. A record saved by a player (hidden entries) is continued by
    that player, its hidden draws dealt at random as they fit the record and the plans
    hidden at its end chosen again (records.fill_hidden)."""
    from gutenberg_ai.interfaces.play import Session, Settings
    from gutenberg_ai.games.records import fill_hidden, game_of, load_record, printing_game_of, replay
    for option, value in (("--position", args.position or None), ("--players", args.players), ("--rounds", args.rounds),
                          ("--characters/--no-characters", args.characters), ("--automa", args.automa or None),
                          ("--variant", args.variant), ("--catalogue", args.catalogue or None)):
        if value is not None:
            raise UsageError(f"--resume: the game is the record's; leave out {option}")
    record = load_record(args.resume)
    same_game(args.game, printing_game_of(record), f"the record {args.resume}")
    viewer = record.get("viewer")
    humans = [e["seat"] for e in record["seats"] if e["player"] == "human"]
    human = viewer if viewer is not None else (args.seat if args.seat is not None else (humans or [0])[0])
    if viewer is not None and args.seat is not None and args.seat != viewer:
        raise UsageError(f"--seat: {args.seat}, but the record was saved by player {viewer} and hides what "
                         "the others saw")
    if args.seed is not None:
        seed, given = args.seed, True
    elif viewer is None and record.get("seed") is not None:
        seed, given = record["seed"], True
    else:
        seed, given = fresh_seed(), False
    game = game_of(record)
    # Checked as replay and review check it (each action's player, legality and text; a
    # finished game's result) before anything is played from it.
    replay(record)
    allowed = [n for n in BOT_NAMES if n != "cfr"]
    others = sorted((e for e in record["seats"] if e["seat"] != human), key=lambda e: e["seat"])
    if args.ai is not None:
        ai = bot_names(args.ai, allowed)
    else:
        ai = [e["player"] if e["player"] in allowed else "smmcts" for e in others] or ["smmcts"]
    seconds, iterations = args.seconds, args.iterations
    if seconds is None and iterations is None:
        budget = next((e.get("options") for e in others if e.get("options")), None) or {}
        seconds, iterations = budget.get("seconds"), budget.get("iterations")
        if seconds is None and iterations is None:
            seconds = PLAY_SECONDS
    entries, dropped = fill_hidden(record, game, seed)
    settings = Settings(human=human, ai=tuple(ai), seconds=seconds, iterations=iterations, seed=seed, save=args.save)
    try:
        session = Session(game, settings, console, start=entries)
    except ValueError as e:
        raise UsageError(str(e)) from None
    # A new seed here draws what the record hides and what comes next: the same again
    # takes --resume with it, not --seed alone (a new game).
    console.print(Text(f"Seed {seed}" if given else
                       plain_text(f"Seed {seed}, a new one for what the record hides and the draws to come (the "
                                  f"same again: play --resume {shlex.quote(args.resume)} --seed {seed})"),
                       style="dim"))
    draws = sum(1 for e in entries if e.get("filled") and e["player"] == CHANCE)
    moves = sum(1 for e in entries if e.get("filled") and e["player"] != CHANCE)
    said = [f"Resumed {args.resume}: {len(entries)} actions replayed"]
    if draws:
        said.append(f"{draws} draws you had not seen dealt at random, as they fit the record")
    if moves:
        said.append(f"{moves} moves you had not seen chosen at random, as they fit the record")
    if dropped:
        said.append(games.of(game).view.dropped_text(dropped))
    console.print(Text("; ".join(said) + ".", style="dim"))
    return session.run()


# ---------------------------------------------------------------------------------------
# table
# ---------------------------------------------------------------------------------------
def cmd_table(args) -> int:
    """A real game followed entry by entry (gutenberg_ai.interfaces.table_terminal)."""
    from gutenberg_ai.interfaces.table import FollowedGame, position_name, resume
    from gutenberg_ai.interfaces.table_terminal import TableSession
    console = Console(highlight=False)
    # A new table's seed is new unless given; a resumed one's is its record's.
    seed, seed_said = chosen_seed(args.seed, new=NEW_STAND_INS) if not args.resume else (args.seed, "")
    budget = {"seconds": args.seconds} if args.seconds is not None else \
        {"iterations": args.iterations or HINT_ITERATIONS}
    if args.resume:
        for option, value in (("--players", args.players), ("--rounds", args.rounds), ("--seat", args.seat),
                              ("--characters/--no-characters", args.characters), ("--automa", args.automa or None),
                              ("--variant", args.variant), ("--catalogue", args.catalogue or None),
                              ("--names", args.names), ("--position", args.position or None)):
            if value is not None:
                raise UsageError(f"--resume: the game is the record's; leave out {option}")
        followed, note = resume(args.resume, seed), ""
        same_game(args.game, followed.printing_game, f"the record {args.resume}")
        if seed is not None and followed.saved_seed not in (None, seed):
            # The save's placeholders and hints were drawn with its seed.
            raise UsageError(f"--resume: the seed is the saved game's ({followed.saved_seed}); leave out --seed")
        save = args.save or args.resume
        said = f"Resumed {args.resume}: {len(followed.entries)} entries"
        command = followed.resumed_from
        if command != "table":
            # A game of `play` (or another command) goes on at a real table: say so, the
            # AI seats are people now.
            note = (f"{args.resume} is a game of gutenberg-ai {command or 'another command'}; from here it is "
                    f"followed as a game at a real table, its other seats entered as they play (against the AI: "
                    f"gutenberg-ai play --resume {shlex.quote(args.resume)}).")
    else:
        g, note = printing_game(args.game), ""
        names = [n.strip() for n in args.names.split(",")] if args.names is not None else None
        source = None       # the position whose names the table takes
        if args.position:
            # The game under way: the file's game, players and settings; what it hides
            # dealt with the seed (placeholders, as the person's unseen entries are).
            g, pos, game, _, note = position_start_game(args, seed)
            source = pos.source if names is None else None
            names = names or pos.names
        else:
            game = load_game(game_params(args, g), g.key)
        try:
            followed = FollowedGame(game, args.seat or 0, seed, names,
                                    **({"name_field": position_name} if source else {}))
        except ValueError as e:
            raise UsageError(f"{source}: {e} (the table's names can be given with --names)" if source
                             else str(e)) from None
        save = args.save or f"table-{g.key}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        said = f"{g.title}, {game.num_players()} player{'s' if game.num_players() > 1 else ''}, you in seat " \
               f"{followed.seat}" + (f", from the position {args.position}" if args.position else "")
    session = TableSession(followed, console, save=save, budget=budget)
    for line in (note, seed_said, f"{said}. Saved after every entry to {save} (continue: gutenberg-ai table --resume "
                       f"{shlex.quote(save)}). Type help for the commands."):
        if line:
            session.note(line)
    return session.run()


# ---------------------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------------------
def cmd_replay(args) -> int:
    from gutenberg_ai.games.records import load_record, printing_game_of, replay
    console = tui.output_console()
    record = load_record(args.record)
    same_game(args.game, printing_game_of(record), f"the record {args.record}")
    if args.to is not None and args.to > len(record["actions"]):
        raise UsageError(f"--to {args.to}: the record {args.record} has {len(record['actions'])} actions")
    labels = {e["seat"]: f"player {e['seat']} ({e['player']})" for e in record["seats"]}
    stepping = [args.step]

    def show(i, state, entry):
        who = "chance" if entry["player"] == CHANCE else labels.get(entry["player"], f"player {entry['player']}")
        if not args.quiet:
            text = state.action_to_string(entry["player"], entry["action"])
            if entry.get("filled"):
                what = "a draw" if entry["player"] == CHANCE else "a move"
                text = f"{what} player {record['viewer']} did not see (dealt at random: {text})"
            console.print(Text(f"{i + 1:>5}  {who}: {text}", style="dim" if entry["player"] == CHANCE else ""))
        if stepping[0] and entry["player"] != CHANCE:
            try:
                answer = input("  [Enter: next, c: continue to the end, q: stop] ")
            except EOFError:
                answer = "c"
            if answer.strip().lower() == "q":
                raise _StopReplay(i + 1)
            if answer.strip().lower() == "c":
                stepping[0] = False

    try:
        state = replay(record, to=args.to, on_action=show)
        stopped = None
    except _StopReplay as stop:   # q while stepping: the table where the person stopped
        state, stopped = replay(record, to=stop.at), stop.at
    core = core_of(state)
    seat_names = [labels.get(seat, f"player {seat}") for seat in range(core.num_players)]
    n = len(record["actions"])
    done = stopped if stopped is not None else (n if args.to is None else args.to)
    console.rule(f"After {done} of {n} actions")
    console.print(tui.game_view(core, -1, seat_names))
    if state.is_terminal():
        console.print(tui.score_table(core, seat_names))
        if record.get("result") is not None:
            console.print(Text("The replay reaches the recorded final state (scores, returns, winners "
                               "and the state's digest agree).", style="green"))
    return 0


class _StopReplay(Exception):
    def __init__(self, at: int):
        super().__init__(at)
        self.at = at


# ---------------------------------------------------------------------------------------
# hint
# ---------------------------------------------------------------------------------------
# The hint's parameters that are flags of the command.
HINT_FLAGS = ("seconds", "iterations", "seed", "threads", "top")


def cmd_hint(args) -> int:
    from gutenberg_ai.games.positionfile import load_position, seat_names as named_seats
    from gutenberg_ai.search.bots import named_budget, split_budget
    try:
        if split_budget(args.bot)[0] in HINT_BOTS:      # smmcts@500: the search with that budget
            args.bot, args.seconds, args.iterations = named_budget(args.bot, args.seconds, args.iterations)
    except ValueError as e:
        raise UsageError(f"--bot: {e}") from None
    options = options_json(args.options, "--options", 'the search\'s options, e.g. {"uct_c": 2}')
    if options and args.bot not in HINT_BOTS:
        raise UsageError(f"--options: search options, for the built-in searches ({', '.join(HINT_BOTS)}); "
                         "a bot of your own takes its options when it is made")
    g, pos = load_position(args.position, game=args.game, catalogue=args.catalogue or None)
    # The hint's own parameters are not search options (the core names any other unknown one).
    own = sorted(options.keys() & inspect.signature(hint).parameters.keys())
    if own:
        raise UsageError(f"--options: {own[0]}: " + (f"given by its own flag (--{own[0]})" if own[0] in HINT_FLAGS
                                                      else "not a search option"))
    player = pos.current_player
    budget = {"seconds": args.seconds} if args.seconds is not None else {"iterations": args.iterations}
    solo = pos.game_params["players"] == 1
    seat_names = named_seats(pos.names)
    console = tui.output_console()
    if args.board and not args.json:
        console.print(tui.game_view(pos.state, player, seat_names))
    if args.bot not in HINT_BOTS:
        # A bot of your own (or another built-in one): its move and policy, on the
        # position as an OpenSpiel state.
        from gutenberg_ai.search.bots import budget_options, check_name
        try:
            check_name(args.bot)
        except ValueError as e:
            raise UsageError(f"--bot: {e}") from None
        if args.threads not in (None, 1):
            raise UsageError(f"--threads: only the built-in searches ({', '.join(HINT_BOTS)}) search in threads")
        no_budget_unless_one_searches([args.bot], args)
        budget = budget_options(args.bot, args.seconds, args.iterations if args.seconds is None else None)
        params = {**pos.game_params, "position": os.path.abspath(args.position)}
        if args.catalogue:      # the same game as the board and the built-in searches see
            params["catalogue"] = os.path.abspath(args.catalogue)
        state = g.load(**params).new_initial_state()
        hints = hint(state, bot=args.bot, top=args.top, seed=args.seed, **budget)
    else:
        with tui.search_progress(Console(stderr=True), "searching", **budget) as progress:
            hints = hint(pos.state, bot=args.bot, top=args.top, seed=args.seed, threads=args.threads,
                         progress=progress, **{"returns": "score" if solo else "win", **options, **budget})
    hidden = getattr(pos, "hidden", 0)
    # A Lead Letter Printers table's factories written "hidden".
    note = (f"The position hides {hidden} factor{'y' if hidden == 1 else 'ies'}: drawn at random (seed "
            f"{pos.data.get('seed', 0)}), and the search draws them again in each iteration.") if hidden else ""
    if args.json:
        # No elapsed time: the output of an iteration budget is the same on every run.
        measure = ("policy" if hints.measure == "policy" else
                   f"expected {g.score_word}" if solo else "win probability")
        out = {"game": g.key, "position": args.position, "player": player, "step": pos.step, "bot": args.bot,
               "budget": budget, "iterations": hints.iterations, "seed": args.seed, "options": options,
               "measure": measure,
               "hints": [h.as_dict() for h in hints]}
        if note:
            out["note"] = note
        print(json.dumps(out, indent=2))
        return 0
    if hints.measure == "policy":     # a bot that is not one of the searches: its move and policy
        what = f", {budget_words(budget)} a move" if budget else ""
        title = f"{seat_label(player, seat_names)} to decide: {pos.state.step_name()} ({args.bot}{what})"
        console.print(tui.policy_table(hints, title=title))
        return 0
    what = f"{hints.iterations:,} iterations" if args.seconds is None else \
        f"{args.seconds:g} s, {hints.iterations:,} iterations"
    title = f"{seat_label(player, seat_names)} to decide: {pos.state.step_name()} ({args.bot}, {what}, seed {args.seed})"
    console.print(tui.hints_table(hints, title=title, solo=solo, score_word=g.score_word, seat_names=seat_names))
    if note:
        console.print(Text(note, style="dim"))
    return 0


# ---------------------------------------------------------------------------------------
# arena
# ---------------------------------------------------------------------------------------
def _pairing(text: str, bots: list) -> tuple:
    """A:B, two of the --bots: split at the colon that leaves a bot on each side (a bot of
    your own, module:factory, has a colon of its own)."""
    splits = [(text[:i], text[i + 1:]) for i, ch in enumerate(text) if ch == ":"]
    named = [pair for pair in splits if pair[0] in bots and pair[1] in bots]
    if len(named) == 1:
        return named[0]
    if len(splits) == 1:
        return splits[0]        # the arena says which of the two is not among the bots
    raise UsageError(f"pairings: {text!r} is not two of the --bots as A:B (pairs comma-separated)")


def options_json(text: str, flag: str, an_object_of: str | None = None):
    """The JSON of an --options flag, read as a file's JSON is (jsonfile.decode_json); a
    UsageError, named `flag`, for text that is not JSON, nests deeper than any options do,
    or gives a key twice (plain json keeps the last, silently), or, with `an_object_of`
    (what it holds, with an example), for JSON that is not an object."""
    from gutenberg_ai.common.jsonfile import decode_json
    try:    # surrogateescape: the bytes of an argument that is not UTF-8, which decode_json names
        data = decode_json(text.encode("utf-8", "surrogateescape"), flag, FileDataError)
    except FileDataError as e:
        raise UsageError(str(e)) from None
    if an_object_of and not isinstance(data, dict):
        raise UsageError(f"{flag}: an object of {an_object_of}")
    return data


def arena_settings(args) -> arena.ArenaSettings:
    options = options_json(args.options, "options")
    if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
        raise UsageError('options: an object of options per bot, e.g. {"smmcts": {"cutoff": 60}}')
    bots = comma_list(args.bots)
    no_budget_unless_one_searches(bots, args)
    if args.pairings is not None and not args.pairings.strip():
        raise UsageError("--pairings: none named (leave it out for the whole round robin)")
    pairings = [_pairing(p, bots) for p in comma_list(args.pairings, "pairing")] if args.pairings is not None else None
    seconds = args.seconds if args.seconds is not None or args.iterations is not None else 0.2
    g = printing_game(args.game)
    rounds = args.rounds if args.rounds is not None else g.rules_module.DEFAULTS["rounds"]
    return arena.ArenaSettings(bots=bots, players=args.players,
                               game=g.key, variant=args.variant or "", factory_tops=factory_tops(args, g),
                               games=args.games, seconds=None if args.iterations else seconds,
                               iterations=args.iterations, rounds=rounds, characters=args.characters,
                               automa=args.automa, seed=args.seed, options=options,
                               pairings=[list(p) for p in pairings] if pairings else None,
                               catalogue=os.path.abspath(args.catalogue) if args.catalogue else "")


def _sprt(text: str) -> tuple:
    """An argparse type: --sprt ELO0,ELO1, two numbers (sprt.check_test bounds them)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not ELO0,ELO1 (two numbers, e.g. 0,50)") from None


def _error_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"{text!r} is not an error rate more than 0 and less than 0.5")
    return value


def cmd_sprt(args, s: arena.ArenaSettings) -> int:
    """The arena's sequential test (--sprt): pairs of games until it decides."""
    if args.ray is not None:
        raise UsageError("--sprt plays here, --jobs pairs at a time, not on Ray: leave out --ray")
    console = tui.output_console()

    def progress(v):
        if console.is_terminal:
            console.print(f"{v['games']} games: LLR {v['llr']:+.2f} ({v['lower']:.2f}, {v['upper']:.2f})")

    try:
        elo0, elo1 = args.sprt
        rates = {k: v for k, v in (("alpha", args.alpha), ("beta", args.beta)) if v is not None}
        v = sprt.run_sprt(s, args.out, elo0, elo1, jobs=args.jobs, **rates,
                          progress=progress)
    except KeyboardInterrupt:
        console.print(f"Interrupted. The finished games are in {args.out}; run the same command to resume.")
        return 130
    console.print(v["words"])
    console.print(f"Test: {os.path.join(args.out, sprt.SPRT_FILE)}")
    return 0


def cmd_arena(args) -> int:
    if args.sprt is None and (args.alpha is not None or args.beta is not None):
        raise UsageError("--alpha and --beta are the error rates of the test --sprt ELO0,ELO1: give --sprt too, "
                         "or leave them out")
    s = arena_settings(args)
    if args.sprt is not None:
        return cmd_sprt(args, s)
    console = tui.output_console()
    arena.validate(s)       # (run_arena checks again): a bad setting is said before any note on it
    note = arena.rotation_note(s.games, s.players, s.pairings)
    if note:
        console.print(Text(f"Note: {note}.", style="yellow"))
    with _progress_bar(console, "arena") as bar:
        task = bar.add_task("games", total=None)

        def progress(done, total):
            bar.update(task, completed=done, total=total)

        try:
            summary = arena.run_arena(s, args.out, args.jobs, progress, ray=args.ray)
        except KeyboardInterrupt:
            bar.stop()
            console.print(f"Interrupted. The finished games are in {args.out}; run the same command to resume.")
            return 130
    run = summary["run"]
    console.print(f"{summary['games']} games: {run['played']} played now ({run['seconds']:.0f} s), "
                  f"{run['skipped']} found finished in {args.out}")
    for m in run["mismatches"]:     # records that did not check out: played again
        console.print(Text(f"played again: {m['path']}: {m['reason']}", style="yellow"))
    if run["elsewhere"]:
        console.print(f"{run['elsewhere']} games are being played by another arena on {args.out}: "
                      "run again when it is done to count them")
    # With fewer bots than seats a bot may sit twice in a game: its rows count seats.
    repeats = not s.pairings and len(s.bots) < s.players
    t = Table(title="Standings (95% intervals)" + ("; a bot's seats played, twice in a game where it sat twice"
                                                   if repeats else ""), title_justify="left")
    for column in ("bot", "seats" if repeats else "games", "win rate", f"mean {printing_game(args.game).score_word}",
                   "rating"):
        t.add_column(column, justify="left" if column == "bot" else "right")
    for r in summary["standings"]:
        t.add_row(r["bot"], str(r["games"]),
                  f"{r['win_rate']:.1%} ({r['win_rate_low']:.1%}-{r['win_rate_high']:.1%})",
                  f"{r['mean_fame']:.1f}", arena.rating_text(r))
    console.print(t)
    pl = Table(title="Plackett-Luce from finishing orders (95% intervals)", title_justify="left")
    for column in ("bot", "games", "rating"):
        pl.add_column(column, justify="left" if column == "bot" else "right")
    for r in summary["plackett_luce"]:
        pl.add_row(r["bot"], str(r["games"]), ratings.text(r))
    console.print(pl)
    console.print(f"Tables: {os.path.join(args.out, 'summary.md')}, standings.csv, pairings.csv, summary.json; "
                  f"plots: {', '.join(summary.get('plots', [])) or 'none'}")
    return 0


# ---------------------------------------------------------------------------------------
# review
# ---------------------------------------------------------------------------------------
REVIEW_STEP_WIDTH = 100    # the review's table has a column for the step from this width on
REVIEW_STEP_MIN = 14       # and gives it this much at least


def cmd_review(args) -> int:
    from gutenberg_ai.games.records import load_record, printing_game_of
    from gutenberg_ai.tools.review import review_record, write_review
    record = load_record(args.record)
    same_game(args.game, printing_game_of(record), f"the record {args.record}")
    base = args.out if args.out is not None else \
        (args.record[:-5] if args.record.endswith(".json") else args.record) + "-review"
    check_output(base + ".json", "--out", reads=(args.record,))
    budget = {"seconds": args.seconds} if args.seconds is not None else {"iterations": args.iterations}
    console = tui.output_console(stderr=args.json)
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    # Transient: the table takes the bar's place, no line of it left behind.
    with Progress(*columns, console=Console(stderr=True), disable=not Console(stderr=True).is_terminal,
                  transient=True) as bar:
        task = bar.add_task("decisions", total=None)
        result = review_record(record, player=args.player, bot=args.bot, seed=args.seed, threads=args.threads,
                               progress=lambda done, total: bar.update(task, completed=done, total=total), **budget)
    written = write_review(result, base + ".json", base)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    g = printing_game(result["game"])
    solo = result["players"] == 1
    unit = (lambda v: f"{v:.1f}") if solo else (lambda v: f"{v:.0%}")
    t = Table(title=f"Review of {args.record} ({result['bot']}, {budget_words(budget)} a decision, "
                    f"seed {args.seed})", title_justify="left", box=box.SIMPLE_HEAD)
    # A narrow terminal leaves the moves the room of the step's column (their words say the
    # step); past REVIEW_STEP_WIDTH a quarter of each column more goes to the step.
    with_step = console.width >= REVIEW_STEP_WIDTH
    longest_step = max((len(d["step"]) for d in result["decisions"]), default=0)
    for column in ("#", "player", "round", "step", "played", "best", "eval" if solo else "win", "lost", ""):
        if column in ("step",):
            if with_step:
                room = REVIEW_STEP_MIN + (console.width - REVIEW_STEP_WIDTH) // 4
                t.add_column(column, max_width=max(REVIEW_STEP_MIN, min(longest_step, room)), no_wrap=True,
                             overflow="ellipsis")
        elif column in ("played", "best"):
            t.add_column(column, ratio=1, min_width=12)
        else:
            t.add_column(column, no_wrap=True,
                         justify="right" if column in ("#", "player", "round", "win", "eval", "lost") else "left")
    styles = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "level": "dim", "too few samples": "dim",
              "": ""}
    for d in result["decisions"]:
        if d["method"] == "only move" and not args.all:
            continue
        ev = d["evaluation"][d["player"]] if d["evaluation"] else None
        same = d["played"]["action"] == d["best"]["action"]
        move = (lambda text: tui.without_step(text, d["step"])) if with_step else (lambda text: text)
        t.add_row(str(d["index"]), str(d["player"]), str(d["round"]), *([Text(d["step"])] if with_step else []),
                  Text(move(d["played"]["text"])), Text("=" if same else move(d["best"]["text"])),
                  "-" if ev is None else unit(ev), unit(d["lost"]) if d["lost"] else "",
                  Text(d["mark"], style=styles[d["mark"]]))
    console.print(t)
    s = Table(title="Per player", title_justify="left")
    for column in ("player", "decisions", "best move", f"mean {'score' if solo else 'win chance'} lost",
                   "inaccuracies", "mistakes", "blunders", "level", "too few samples"):
        s.add_column(column, justify="right")
    for row in result["summary"]:
        s.add_row(str(row["player"]), str(row["decisions"]), f"{row['best_played']}",
                  f"{row['mean_lost']:.1f}" if solo else f"{row['mean_lost']:.1%}",
                  str(row["inaccuracies"]), str(row["mistakes"]), str(row["blunders"]), str(row["level"]),
                  str(row["too_few_samples"]))
    console.print(s)
    marks = ", ".join(f"{name} {limit:g} {g.score_word}" if solo else f"{name} {limit:.0%}"
                      for name, limit in result["thresholds"].items())
    console.print(Text(f"Lost: the {'expected score' if solo else 'chance to win'} of the best move less the "
                       f"played one's; marks from: {marks}, where the search tells the two moves apart (else "
                       f"level, or too few samples for an interval). {result['hidden_information']}", style="dim"))
    console.print(f"Written: {', '.join(written)}")
    return 0


# ---------------------------------------------------------------------------------------
# study
# ---------------------------------------------------------------------------------------
PROGRESS_EVERY = 30.0    # seconds between the plain progress lines


class _ProgressLines:
    """A progress bar's plain form where the output is not a terminal (a log, a pipe):
    a line on stderr at the start, every PROGRESS_EVERY seconds and at the end ("suite:
    positions 27/60, 2 min 40 s"), so a long run redirected to a file is not silent."""

    def __init__(self, label: str):
        self.label, self.start = label, time.monotonic()
        self.said: float | None = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, unit, total=None):
        self.unit = unit
        return 0

    def stop(self):
        pass

    def update(self, task, completed=0, total=None):
        now = time.monotonic()
        if total is None or (self.said is not None and now - self.said < PROGRESS_EVERY and completed < total):
            return
        self.said = now
        spent = int(now - self.start)
        print(f"{self.label}: {self.unit} {completed}/{total}, {spent // 60} min {spent % 60} s",
              file=sys.stderr, flush=True)


def _progress_bar(console, label, transient=False):
    """A rich progress bar at a terminal; elsewhere a line now and then (_ProgressLines)."""
    if not console.is_terminal:
        return _ProgressLines(label)
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    return Progress(*columns, console=console, transient=transient)


def _with_progress(console, label, unit, run, interrupted: str):
    """run(progress) under a progress bar counting `unit`s; on Ctrl-C, `interrupted` is
    printed and None returned (the command exits with 130)."""
    with _progress_bar(console, label) as bar:
        task = bar.add_task(unit, total=None)
        try:
            return run(lambda done, total: bar.update(task, completed=done, total=total))
        except KeyboardInterrupt:
            bar.stop()
            console.print(interrupted)
            return None


def cmd_study(args) -> int:
    from gutenberg_ai.tools import studies
    console = tui.output_console()
    options = options_json(args.options, "--options", 'the bot\'s options, e.g. {"cutoff": 60}')
    g = printing_game(args.game)
    face_up = factory_tops(args, g)
    with _progress_bar(console, args.kind) as bar:
        task = bar.add_task("games", total=None)

        def progress(done, total):
            bar.update(task, completed=done, total=total)

        try:
            if args.kind == "balance":
                if args.budgets or args.reference:
                    raise UsageError("--budgets and --reference are for study scaling")
                no_budget_unless_one_searches([args.bot], args)
                seconds = args.seconds
                iterations = args.iterations if args.iterations is not None or seconds is not None else 300
                s = studies.BalanceSettings(bot=args.bot, game=g.key, players=args.players, games=args.games,
                                            seconds=seconds if iterations is None else None, iterations=iterations,
                                            rounds=args.rounds, characters=args.characters, variant=args.variant or "",
                                            seed=args.seed, options=options, factory_tops=face_up)
                t = studies.run_balance(s, args.out, args.jobs, progress, ray=args.ray)
            else:
                if not args.budgets:
                    raise UsageError("--budgets: the budgets to study, e.g. 50,100,200,400 (iterations) or "
                                     "0.1s,0.2s (seconds)")
                budgets = comma_list(args.budgets, "budget")
                from gutenberg_ai.search.bots import split_budget
                for b in budgets:
                    try:
                        split_budget(f"x@{b}")
                    except ValueError:
                        raise UsageError(f"--budgets: {b!r} is not a number of iterations (500) or seconds (0.5s)") \
                            from None
                if args.players != 2:
                    raise UsageError("--players: a scaling study plays 2-player games")
                if args.iterations is not None or args.seconds is not None:
                    raise UsageError(f"--{'iterations' if args.iterations is not None else 'seconds'}: a scaling "
                                     "study's budgets are --budgets (e.g. 100,200 or 0.5s,1s)")
                t = studies.run_scaling(args.bot, budgets, args.reference or "heuristic", args.out, game=g.key,
                                        games_=args.games, seed=args.seed, jobs=args.jobs, progress=progress,
                                        ray=args.ray, rounds=args.rounds, characters=args.characters,
                                        variant=args.variant or "", options=options or None,
                                        factory_tops=face_up)
        except KeyboardInterrupt:
            bar.stop()
            console.print(f"Interrupted. The finished games are in {args.out}; run the same command to resume.")
            return 130
    report = os.path.join(args.out, f"{args.kind}.md")
    console.print(f"{t['run']['played']} games played now, {t['run']['skipped']} found in {args.out}. "
                  f"Report: {report}")
    with open(report, encoding="utf-8") as f:
        text = f.read()
    console.print(Text(text.split("\n![")[0].rstrip()))
    return 0


# ---------------------------------------------------------------------------------------
# suite
# ---------------------------------------------------------------------------------------
def cmd_suite(args) -> int:
    from gutenberg_ai.tools import suite
    from gutenberg_ai.search.bots import budget_options, check_name
    g = printing_game(args.game)
    try:
        check_name(args.bot, [n for n in BOT_NAMES if n != "cfr"])
    except ValueError as e:
        raise UsageError(f"--bot: {e}") from None
    no_budget_unless_one_searches([args.bot], args)
    if args.jobs is not None and args.ray is None:
        raise UsageError("--jobs: the suite's positions are scored one after another here; --jobs is the workers "
                         "of --ray local: give --ray too, or leave --jobs out")
    budget = budget_options(args.bot, args.seconds, args.iterations if args.iterations or args.seconds else 500)
    console = tui.output_console(stderr=args.json)
    with _progress_bar(Console(stderr=True), "suite", transient=True) as bar:
        task = bar.add_task("positions", total=None)
        result = suite.score_bot(args.bot, g.key, seed=args.seed, version=args.version,
                                 progress=lambda d, n: bar.update(task, completed=d, total=n),
                                 out=args.out, jobs=args.jobs or 1, ray=args.ray, path=args.suite, **budget)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    solo = result["measure"] == "expected score"
    fmt = (lambda v: f"{v:.2f}") if solo else (lambda v: f"{v:.1%}")
    mixed = "players" in result    # a suite of several player counts: a row each, solo in points
    t = Table(title=f"{args.bot} ({budget_words(budget) if budget else 'no budget'} a move, seed {args.seed}) on "
                    f"the {g.title} suite v{result['suite_version']}", title_justify="left")
    columns = ["kind", "positions", "agreement", "among the best", f"mean {'score' if solo else 'win chance'} lost"]
    for column in columns + (["solo: mean score lost"] if mixed else []):
        t.add_column(column, justify="left" if column == "kind" else "right")

    def cells(row):
        said = [str(row["positions"])] + ["-" if row[k] is None else f"{row[k]:.0%}"
                                          for k in ("agreement", "agreement_among_best")] + \
            ["-" if row["mean_lost"] is None else fmt(row["mean_lost"])]
        return said + ([f"{row['mean_score_lost']:.2f}" if "mean_score_lost" in row else "-"] if mixed else [])
    for kind, row in result["kinds"].items():
        t.add_row(kind, *cells(row))
    for count, row in result.get("players", {}).items():
        t.add_row(f"{count} player{'s' if count != '1' else ''}", *cells(row), style="italic")
    t.add_row("all", *cells(result["overall"]), style="bold")
    console.print(t)
    console.print(Text("Agreement: the share of positions where the bot played the reference's move (a long "
                       "search); among the best: a move the reference cannot tell from its best (their values "
                       "level). Lost: the reference's value of its best move less that of the bot's."
                       + (f" {result['note']}." if "note" in result else ""), style="dim"))
    return 0


# ---------------------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------------------
def words_not_shown(cards, query: str, kind, catalogue) -> list:
    """The words of `query` that no card (of `kind`) shows, each on its own: what the
    cards module did not understand, or a word of another kind of card."""
    # Shown as typed but escaped: a word is the person's text, and may hold escape codes.
    return [plain_text(w) for w in query.split() if not cards.find_cards(w, kind=kind, catalogue=catalogue)]


def cmd_cards(args) -> int:
    g = printing_game(args.game)
    cards = g.cards
    cat = cards.load_catalogue(args.catalogue or None)
    query = " ".join(args.words)
    kind = args.kind
    if kind is not None and kind not in cards.KINDS:
        raise UsageError(f"--kind: {kind!r} is not one of {', '.join(cards.KINDS)} ({g.title})")
    words = query.split()
    if words and words[0].lower().rstrip("s") in cards.KINDS and kind is None:
        kind = words[0].lower().rstrip("s")
        query = " ".join(words[1:])
    exact = {}
    for name in ("letters", "inks"):
        value = getattr(args, name)
        if value is not None:
            if name not in cards.EXACT:
                raise UsageError(f"--{name}: not for {g.title}'s cards")
            exact[name] = value
    if not query and not exact and kind is None:
        raise UsageError(f"say what the card shows, e.g. gutenberg-ai cards {cards.EXAMPLE}")
    matches = cards.find_cards(query, kind=kind, catalogue=cat, **exact)
    console = tui.output_console()
    if args.json:
        print(json.dumps([{"card": m.card, "kind": m.kind, "id": m.id, "text": m.text} for m in matches[:args.top]],
                         indent=2))
        unknown = [] if matches else words_not_shown(cards, query, kind, cat)
        if unknown:     # why nothing was found, beside the JSON (stdout stays JSON)
            tui.output_console(stderr=True).print(Text(f"Not understood (no {kind or ''} card shows it): "
                                                       .replace("  ", " ") + ", ".join(unknown)))
        return 0 if matches else 1
    if not matches:
        close = cards.closest_cards(query, kind=kind, catalogue=cat)
        console.print(Text(f"No {kind or ''} card shows {'all' if close else 'any'} of that.".replace("  ", " ")))
        unknown = words_not_shown(cards, query, kind, cat)
        if unknown:
            console.print(Text(f"Not understood (no {kind or ''} card shows it): ".replace("  ", " ")
                               + ", ".join(unknown)))
        if close:
            console.print(Text("The closest:"))
            for m in close:
                console.print(Text(f"  {m.card:<5} {m.text[len(m.card):].strip()}"))
        console.print(Text(cards.NOTE, style="dim"))
        return 1
    t = Table(box=None, show_header=True, padding=(0, 2))
    t.add_column("card", style="bold green", no_wrap=True)
    t.add_column("what it shows")
    for m in matches[:args.top]:
        t.add_row(m.card, Text(m.text[len(m.card):].lstrip(": ").strip() if m.text.startswith(m.card) else m.text))
    console.print(t)
    if len(matches) > args.top:
        console.print(Text(f"... and {len(matches) - args.top} more (--top N shows more; more words narrow it)",
                           style="dim"))
    console.print(Text(cards.NOTE, style="dim"))
    return 0


# ---------------------------------------------------------------------------------------
# serve
# ---------------------------------------------------------------------------------------
def cmd_serve(args) -> int:
    try:
        from gutenberg_ai.interfaces.web.app import serve
        from gutenberg_ai.interfaces.web.sessions import Limits
    except ImportError as e:   # the `web` extra is not installed
        raise UsageError(f"the web page needs FastAPI and uvicorn ({e.name} is missing): "
                         'pip install -e ".[web]"') from None
    if args.port > 65535:
        raise UsageError(f"--port: {args.port} is over 65535")
    limits = Limits(workers=args.workers)
    if args.max_seconds is not None:
        limits.max_ai_seconds = limits.max_hint_seconds = args.max_seconds
    return serve(args.host, args.port, limits)



# ---------------------------------------------------------------------------------------
# selfplay and train (gutenberg_ai/search/learn, docs/learning.md)
# ---------------------------------------------------------------------------------------
def cmd_selfplay(args) -> int:
    from gutenberg_ai.tools import selfplay
    options = options_json(args.options, "options", 'search options, e.g. {"model": "gen1.npz"}')
    g = printing_game(args.game)
    s = selfplay.settings(g.key, args.players, args.games, args.bot,
                          iterations=None if args.seconds else args.iterations, seconds=args.seconds,
                          seed=args.seed, rounds=args.rounds, automa=args.automa, variant=args.variant or "",
                          options=options, factory_tops=factory_tops(args, g))
    console = tui.output_console()
    run = _with_progress(console, "self-play", "games",
                         lambda progress: selfplay.run_selfplay(s, args.out, args.jobs, progress, ray=args.ray),
                         f"Interrupted. The finished games are in {args.out}; run the same command to resume.")
    if run is None:
        return 130
    console.print(f"{run['games']} games: {run['played']} played now ({run['seconds']:.0f} s), {run['skipped']} "
                  f"found finished in {args.out}. Train on them:")
    console.print(f"  gutenberg-ai train {args.out} --out WEIGHTS.npz", soft_wrap=True)   # one line, to copy
    return 0


def cmd_tune(args) -> int:
    space = options_json(args.space, "--space", 'option -> [low, high] or {"choices": [...]}, e.g. '
                                                '{"uct_c": [0.1, 4, "log"]}') if args.space else {}
    if args.space and not space:
        raise UsageError("--space: {} names no option to search; leave --space out for the default space")
    options = options_json(args.options, "--options")
    g = printing_game(args.game)
    known_params(g, {"variant": args.variant})   # given for a game without variants: refused
    s = tune.TuneSettings(bot=args.bot, reference=args.reference, game=g.key, players=args.players,
                          trials=args.trials, games=args.games, validate=args.validate,
                          iterations=None if args.seconds else (args.iterations or 200), seconds=args.seconds,
                          rounds=args.rounds, seed=args.seed, space=space, options=options,
                          variant=args.variant or "", factory_tops=factory_tops(args, g))
    console = tui.output_console()
    report = _with_progress(console, "tune", "trials",
                            lambda progress: tune.run_tune(s, args.out, args.jobs, progress, ray=args.ray),
                            f"Interrupted. The study is in {args.out}; run the same command to continue it.")
    if report is None:
        return 130
    console.print(tune.report_markdown(report), markup=False)
    console.print(f"Report: {os.path.join(args.out, 'tune.md')} and tune.json")
    return 0


def cmd_train(args) -> int:
    from gutenberg_ai.search.learn import dataset, model, train
    console = tui.output_console()
    seen: dict[str, str] = {}
    for folder in args.data:    # one folder twice would count its games twice (and in both halves)
        same = seen.setdefault(os.path.realpath(folder), folder)
        if same is not folder:
            raise UsageError(f"DIR: {folder} is {same} again: give each folder once")
    # Said before the training, not after it: nothing but weights and reports written over.
    check_output(args.out, "--out", replaces=WrittenOver("a weights file", model.is_weights_file))
    if args.report:
        check_output(args.report, "--report", replaces=of_formats("a training report", train.REPORT_FORMAT))
        if os.path.abspath(args.report) == os.path.abspath(args.out):
            raise UsageError(f"--report: {args.report} is the weights file (--out)")
    with _progress_bar(console, "train: reading") as bar:
        task = bar.add_task("records", total=None)
        data = dataset.build(args.data, lambda d, n: bar.update(task, completed=d, total=n))
    console.print(f"{data['meta']['games']} games, {data['meta']['value_rows']} positions, "
                  f"{data['meta']['policy_rows']} searched moves ({data['meta']['game']})")
    with _progress_bar(console, "training") as bar:
        task = bar.add_task("steps", total=None)
        report = train.train(data, args.out, epochs=args.epochs, hidden=args.hidden, hidden2=args.hidden,
                             seed=args.seed, generation=args.generation, threads=args.threads,
                             progress=lambda d, n: bar.update(task, completed=d, total=n))
    if args.report:
        from gutenberg_ai.games.records import write_json
        write_json(args.report, {"format": train.REPORT_FORMAT, **report})
    t = Table(title=f"Held out: {report['held_out_games']} of {report['games']} games "
                    f"({report['held_out_rows']} positions)", title_justify="left")
    for column in ("", "learned", "hand-written"):
        t.add_column(column, justify="left" if not column else "right")
    h = report["held_out"]
    rmse = report["score_rmse_fame"]
    t.add_row("final score: RMSE", f"{rmse['learned']:.1f}", f"{rmse['heuristic']:.1f}")
    if h["learned"]["win"] is not None:      # held-out games with somebody to beat
        t.add_row("win: cross-entropy", f"{h['learned']['win']:.3f}", f"{h['heuristic']['win']:.3f}")
        t.add_row("win: calibration error", f"{report['calibration']['learned']['ece']:.3f}",
                  f"{report['calibration']['heuristic']['ece']:.3f}")
    else:
        t.add_row("win", "-", "-")   # solo games held out only: the one person always "wins"; the score is the aim
    t.add_row("priors: cross-entropy", f"{h['learned']['policy']:.3f}", f"{h['heuristic']['policy']:.3f}")
    t.add_row("priors: top move = search's", f"{h['learned']['policy_top1']:.1%}",
              f"{h['heuristic']['policy_top1']:.1%}")
    console.print(t)
    console.print(f"Weights: {args.out} ({report['seconds']:.1f} s of training). Play with them:")
    console.print(f"  gutenberg-ai arena --game {data['meta']['game']} --bots ismcts,learned "
                  f"--options '{{\"learned\": {{\"model\": \"{args.out}\"}}}}' ...", soft_wrap=True)
    return 0

# ---------------------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------------------
def _whole_number(lowest: int, highest: int | None = None):
    """An argparse type: a whole number of at least `lowest` (and at most `highest`)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"{value} is negative" if lowest == 0 else f"{value} is not {lowest} or more")
        if highest is not None and value > highest:
            raise argparse.ArgumentTypeError(f"{value} is more than {highest:,}")
        return value
    return parse


_positive_int = _whole_number(1)
_non_negative_int = _whole_number(0)
# The bounds of gutenberg_ai.common.limits, on the command line too: refused before any work.
_iterations = _whole_number(1, limits.MAX_ITERATIONS)
_threads = _whole_number(1, limits.MAX_THREADS)
_games = _whole_number(1, limits.MAX_GAMES)
_jobs = _whole_number(1, limits.MAX_JOBS)
_top = _whole_number(1, limits.MAX_SEARCH_INT)
_seed = _whole_number(0, limits.MAX_SEED)


def _seconds(text):
    """An argparse type: a search's seconds (limits.check_seconds: finite, at most MAX_SECONDS)."""
    try:
        return limits.check_seconds(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds more than 0 and at most "
                                         f"{limits.MAX_SECONDS:g}") from None


def _subparser(sub, name, help_text, description, examples):
    return sub.add_parser(name, help=help_text, description=textwrap.fill(description, 88),
                          epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


GAME_HELP = f"the game: {', '.join(games.GAMES)} (default {games.DEFAULT_GAME})"
ROUNDS_HELP = "fewer rounds make a short game (" + "; ".join(
    f"{g.title} {g.rules_module.ROUNDS_WORDS}" for g in games.GAMES.values()) + ")"
KIND_HELP = "only cards of this kind (" + "; ".join(
    f"{g.title}: {', '.join(g.cards.KINDS)}" for g in games.GAMES.values() if g.cards_module) + ")"
VARIANT_HELP = "Printing Press: basic (6 card steps a round, the default) or advanced (5)"


def _game_option(p, from_file: str = ""):
    p.add_argument("--game", default=None, metavar="NAME",
                   help=GAME_HELP + (f"; {from_file} says its own, and another is refused" if from_file else ""))


def _ray_option(p):
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games on Ray: alone, a cluster on this machine (--jobs workers); with an "
                        "ADDRESS, an existing cluster (needs the extra: pip install -e '.[ray]'; docs/cluster.md)")


def _game_options(p, players_help):
    _game_option(p, "a --position or --resume file")
    p.add_argument("--players", type=int, default=None, help=players_help)
    p.add_argument("--rounds", type=int, default=None, help=ROUNDS_HELP)
    p.add_argument("--characters", action=argparse.BooleanOptionalAction, default=None,
                   help="play with character tiles (default: yes)")
    p.add_argument("--automa", action="store_true", help="Gutenberg: add the rulebook's automa (always on with 1 player)")
    p.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(p)
    _solo_difficulty_options(p)


def factory_tops(args, g) -> bool:
    """--factory-tops/--no-factory-tops: the piles face up unless told (given for a game
    without factory piles: a UsageError)."""
    known_params(g, {"factory_tops": args.factory_tops})
    return args.factory_tops is not False


def _solo_difficulty_options(p):
    """Printing Press's solo difficulty (names.SOLO_DIFFICULTY): its parameters, as options."""
    for name, words in SOLO_DIFFICULTY.items():
        p.add_argument("--" + name.replace("_", "-"), action="store_true", default=None,
                       help=f"Printing Press solo, harder (rulebook p.17): {words}")


def solo_difficulty(args) -> dict:
    """The solo difficulty options given (a game without them refuses them by name)."""
    return {name: getattr(args, name, None) for name in SOLO_DIFFICULTY}


def _factory_tops_option(p):
    p.add_argument("--factory-tops", action=argparse.BooleanOptionalAction, default=None,
                   help="Lead Letter Printers: the factory piles face up, each top in view (default: yes, the "
                        "rulebook's); --no-factory-tops: drawn as from a face-down deck")


def _search_budget(p, per: str, default_iterations: int):
    """--seconds or --iterations of a search (`per`: " a decision"), neither given: the
    iterations (reproducible)."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=_seconds, default=None, help=f"search time{per}")
    group.add_argument("--iterations", type=_iterations, default=None,
                       help=f"search iterations{per} (default {default_iterations}; reproducible)")


NEW_SEED = "(default: a new one, printed)"
RESUMED_SEED = "(default: the seed of the earlier run into --out, else a new one, printed)"


def _games_options(p, out_help: str, jobs_help: str):
    """The options of a command that plays many games into a folder: --jobs, --out, --seed,
    --rounds and --characters."""
    p.add_argument("--jobs", type=_jobs, default=max(1, os.cpu_count() or 1), help=jobs_help)
    p.add_argument("--out", required=True, metavar="DIR", help=out_help)
    p.add_argument("--seed", type=_seed, default=None, help="seed of the deals and the bots " + RESUMED_SEED)
    p.add_argument("--rounds", type=int, default=None, help=ROUNDS_HELP)
    p.add_argument("--characters", action=argparse.BooleanOptionalAction, default=True,
                   help="play with character tiles (default: yes)")


def _budget_options(p, seconds_default, what):
    group = p.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=_seconds, default=None,
                       help=f"seconds {what} (default {seconds_default:g})")
    group.add_argument("--iterations", type=_iterations, default=None,
                       help=f"search iterations {what}, instead of seconds (reproducible on any machine)")


class Parser(argparse.ArgumentParser):
    """The command line's parser (its subcommands' too): an error's words as plain text,
    since they quote what was typed (an unknown option: argparse writes it as given,
    escape codes included)."""

    def error(self, message):
        super().error(plain_text(message))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Gutenberg (Granna, 2022), Printing Press (Granna, 2023) and Lead Letter Printers (A-games): play against the AI, "
                    "hints for a real position, game records, tournaments between bots (--game chooses).",
        epilog="\n".join(__doc__.split("\n\n")[1].splitlines()[:10]).replace("    gutenberg-ai", "  gutenberg-ai")
        + "\n\nRun `gutenberg-ai COMMAND --help` for the options of a command.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = _subparser(sub, "demo", "play a full game between bots and print it",
                      "Play a full game between bots (uniformly random players unless --bots names "
                      "others), seeded, printed round by round, with the final score sheet.",
                      ["gutenberg-ai demo --seed 7 --bots smmcts,heuristic",
                       "gutenberg-ai demo --game printing-press --bots ismcts,heuristic",
                       "gutenberg-ai demo --players 1 --bots smmcts --quiet",
                       "gutenberg-ai demo --players 3 --rounds 2 --save game.json"])
    _game_option(demo)
    demo.add_argument("--bots", default="random", metavar="NAMES",
                      help="one bot for every player, or one per player, comma-separated (default random)")
    demo.add_argument("--players", type=int, default=2, help="1-4 (default 2; 1 plays solo against the automa)")
    demo.add_argument("--rounds", type=int, default=None, help=ROUNDS_HELP)
    demo.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(demo)
    _solo_difficulty_options(demo)
    demo.add_argument("--seed", type=_seed, default=None,
                      help="seed of every random choice and draw (default: a new one, printed)")
    demo.add_argument("--catalogue", default="", help="a catalogue JSON file (default: the built-in one)")
    demo.add_argument("--characters", action=argparse.BooleanOptionalAction, default=None,
                      help="play with character tiles (default: yes)")
    demo.add_argument("--automa", action="store_true",
                      help="Gutenberg: add the rulebook's automa (always on with 1 player)")
    demo.add_argument("--quiet", action="store_true", help="print only the score sheet")
    demo.add_argument("--save", metavar="FILE", help="write the game record to FILE")
    group = demo.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=_seconds, default=None, help="seconds a move of a searching bot")
    group.add_argument("--iterations", type=_iterations, default=None,
                       help="search iterations a move of a searching bot (default: " + ", ".join(
                           f"{n:,} for {games.get(key).title}" for key, n in DEMO_ITERATIONS.items()) + ")")
    demo.set_defaults(run=cmd_demo)

    play = _subparser(sub, "play", "play a game against AI opponents in the terminal",
                      "Play a game in the terminal against AI opponents. The table is shown as you "
                      "see it (the others' plans stay hidden until every plan is committed); choose "
                      "moves by number. At the prompt: hint, why (what the AI weighed), undo, board, "
                      "moves, save FILE (what you have seen), save --full FILE, save-position FILE, help, "
                      "quit. A new deal every "
                      "game unless --seed is given; the seed is printed.",
                      ["gutenberg-ai play --players 2 --ai smmcts --seconds 3",
                       "gutenberg-ai play --game printing-press --players 3 --ai ismcts",
                       "gutenberg-ai play --players 3 --ai smmcts,heuristic --seat 1 --no-characters",
                       "gutenberg-ai play --players 1                 (solo, against the automa)",
                       "gutenberg-ai play --position my_table.json --save game.json",
                       "gutenberg-ai play --resume game.json          (a game saved with save FILE)"])
    _game_options(play, "the players, you included: 1-4 (default 2; 1 is solo against the automa)")
    play.add_argument("--ai", default=None,
                      help="the AI opponents' bot, or one per AI seat comma-separated "
                           f"({', '.join(n for n in BOT_NAMES if n != 'cfr')}; default smmcts)")
    _budget_options(play, PLAY_SECONDS, "a move of a searching AI, and of a hint")
    play.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default 0)")
    play.add_argument("--seed", type=_seed, default=None,
                      help="seed of the draws and the AI (default: a new one, printed)")
    play.add_argument("--position", metavar="FILE", default=None,
                      help="start from a position file (plans it gives as hidden are planned again)")
    play.add_argument("--resume", metavar="RECORD", default=None,
                      help="continue the game of a record (save FILE, save --full FILE, --save)")
    play.add_argument("--catalogue", default="", metavar="FILE", help="a catalogue JSON file (default: the built-in one)")
    play.add_argument("--save", metavar="FILE",
                      help="write the game record to FILE when the game ends (if you leave before, what you have seen)")
    play.set_defaults(run=cmd_play)

    table = _subparser(sub, "table", "follow a real game at the table, with hints at any moment",
                       "Follow a game played at a real table: enter every draw and every move as it "
                       "happens (in the game's words, by number, a card by what it shows); what you "
                       "cannot see is held by a stand-in the hints never see. At the prompt: hint "
                       "[PLAYER], fix N, log, board, list, save FILE, position FILE, help, quit. Saved after every "
                       "entry.",
                       ["gutenberg-ai table --players 3 --seat 1 --names Ann,you,Tom",
                        "gutenberg-ai table --game printing-press --players 1",
                        "gutenberg-ai table --position my_table.json --seat 1   (a game under way)",
                        "gutenberg-ai table --resume table.json"])
    _game_options(table, "the players at the table, you included: 1-4 (default 2; 1 is solo)")
    _search_budget(table, " of a hint", HINT_ITERATIONS)
    table.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default 0)")
    table.add_argument("--names", default=None, help="the players' names in seat order, comma-separated")
    table.add_argument("--seed", type=_seed, default=None,
                       help="seed of the stand-ins for what you cannot see, and of the hints (default: a new one, "
                            "printed; resumed: the saved game's)")
    table.add_argument("--resume", metavar="FILE", default=None, help="continue a followed game from its save")
    table.add_argument("--position", metavar="FILE", default=None,
                       help="a game under way: start from a position file (its game, players and settings; "
                            "what it hides gets placeholders)")
    table.add_argument("--catalogue", default="", metavar="FILE", help="a catalogue JSON file (default: the built-in one)")
    table.add_argument("--save", metavar="FILE", help="where the game is saved after every entry "
                                                      "(default: table-GAME-DATE-TIME.json here)")
    table.set_defaults(run=cmd_table)

    replay = _subparser(sub, "replay", "replay a game record action by action",
                        "Replay a game record (written by play, demo, arena or save) action by action, "
                        "checking every action and the final state, and show the table at the end.",
                        ["gutenberg-ai replay game.json", "gutenberg-ai replay game.json --step",
                         "gutenberg-ai replay game.json --to 120 --quiet"])
    replay.add_argument("record", metavar="RECORD.json", help="a game record")
    _game_option(replay, "the record")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each player's action")
    replay.add_argument("--to", type=_non_negative_int, default=None, metavar="N", help="stop after the first N actions")
    replay.add_argument("--quiet", action="store_true", help="print only the table at the end")
    replay.set_defaults(run=cmd_replay)

    hint = _subparser(sub, "hint", "the best moves at a position (a position file)",
                      "Search a position (docs/gutenberg/positions.md) and print the best moves of the player to "
                      "decide, with the share of the search, the chance to win, the expected fame and "
                      "the expected line of play.",
                      ["gutenberg-ai hint my_table.json", "gutenberg-ai hint my_table.json --seconds 10 --top 3",
                       "gutenberg-ai hint my_table.json --json --iterations 20000 --seed 1"])
    hint.add_argument("position", metavar="POSITION.json", help="a position file")
    _game_option(hint, "the position file")
    _search_budget(hint, "", HINT_ITERATIONS)
    hint.add_argument("--top", type=_top, default=5, help="how many moves (default 5)")
    hint.add_argument("--bot", default="smmcts", metavar="BOT",
                      help=f"the search ({', '.join(HINT_BOTS)}; default smmcts), or any bot: another built-in one "
                           "or module:factory of your own (its move and policy: docs/your-bot.md)")
    hint.add_argument("--seed", type=_seed, default=None, help="the search's seed " + NEW_SEED)
    hint.add_argument("--options", default="{}", metavar="JSON",
                      help='the search\'s options over its defaults (docs/search.md), e.g. \'{"uct_c": 2}\'; '
                           'Lead Letter Printers\' evaluation weights as {"weights": {"NAME": number}}')
    hint.add_argument("--threads", type=_threads, default=None,
                      help="search threads (default: every core). With --iterations the hint is the same "
                           "whatever the threads and the machine (the threads grow a fixed number of trees); "
                           "with --seconds it depends on both")
    hint.add_argument("--json", action="store_true", help="print JSON instead of a table")
    hint.add_argument("--board", action="store_true", help="show the position's table first")
    hint.add_argument("--catalogue", default="", metavar="FILE",
                      help="the catalogue the position's card ids refer to (default: the built-in one)")
    hint.set_defaults(run=cmd_hint)

    arena_p = _subparser(sub, "arena", "a round robin between bots, with win rates and ratings",
                  "Play a round robin between bots: every lineup of --players different bots (with fewer "
                  "bots than seats, every mix of them in which one sits more than once, but not one bot "
                  "alone) plays --games games, seats rotated, each deal from every seat (--games a "
                  "multiple of --players). Games run in --jobs "
                  "processes and are written to OUT/games/ as they finish; run the same command again "
                  "to resume after an interruption. Writes OUT/standings.csv, OUT/pairings.csv, "
                  "OUT/summary.json and OUT/summary.md: win rates with 95% Wilson intervals, "
                  "Bradley-Terry ratings (Elo scale) with bootstrap intervals, and Plackett-Luce ratings "
                  "from the games' finishing orders. With --sprt ELO0,ELO1, a sequential test of two bots "
                  "on paired deals instead, stopped when it decides.",
                  ["gutenberg-ai arena --bots ismcts,smmcts,heuristic,random --games 200 --players 2 "
                   "--seconds 0.2 --jobs 2 --out results/",
                   "gutenberg-ai arena --bots smmcts,heuristic --games 20 --iterations 500 --out quick/",
                   "gutenberg-ai arena --bots smmcts,random,heuristic --pairings smmcts:random,smmcts:heuristic "
                   "--out s/",
                   "gutenberg-ai arena --bots heuristic,random --sprt 0,50 --games 400 --rounds 1 --out sprt/"])
    _game_option(arena_p)
    arena_p.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(arena_p)
    arena_p.add_argument("--bots", required=True, help="comma-separated bot names "
                   f"({', '.join(n for n in BOT_NAMES if n != 'cfr')})")
    arena_p.add_argument("--games", type=_games, default=200, help="games per match (default 200)")
    arena_p.add_argument("--players", type=int, default=2, help="players a game, 2-4 (default 2)")
    _budget_options(arena_p, 0.2, "a move of every searching bot")
    _games_options(arena_p, "where the records and tables go",
                   "parallel processes (default: the cores; no more than the idle cores with a time budget)")
    arena_p.add_argument("--automa", action="store_true", help="Gutenberg: add the rulebook's automa (2-3 players)")
    arena_p.add_argument("--options", default="{}", metavar="JSON",
                   help='extra options per bot, e.g. \'{"smmcts": {"cutoff": 60}}\'')
    arena_p.add_argument("--pairings", default=None, metavar="A:B,...",
                   help="play only these 2-player matches instead of the whole round robin")
    arena_p.add_argument("--catalogue", default="", metavar="FILE",
                   help="a catalogue JSON file (default: the built-in one)")
    _ray_option(arena_p)
    arena_p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1",
                         help="a sequential test of the two --bots on paired deals instead of the round robin: "
                              "stops when it accepts H0 (the first bot ELO0 Elo better) or H1 (ELO1), or "
                              "inconclusive at --games games (docs/ratings.md)")
    arena_p.add_argument("--alpha", type=_error_rate, default=None, help=f"--sprt: the false-H1 rate (default {sprt.ERROR_RATE})")
    arena_p.add_argument("--beta", type=_error_rate, default=None, help=f"--sprt: the false-H0 rate (default {sprt.ERROR_RATE})")
    arena_p.set_defaults(run=cmd_arena)

    review = _subparser(sub, "review", "how well a recorded game was played, decision by decision",
                        "Review a game record: at every decision (or one player's), the search's evaluation "
                        "for the player to move, its best move, the move played and the chance to win it "
                        "lost (solo: the expected score), mistakes marked by size where the search tells the moves "
                        "apart (else level, or too few samples); a table, RECORD-review.json "
                        "and a plot of each player's chance to win over the game (PNG and SVG). The search runs "
                        "on the information state of the player to move: what that player could not see is "
                        "redrawn, never taken from the record.",
                        ["gutenberg-ai review game.json", "gutenberg-ai review game.json --player 1 --iterations 5000",
                         "gutenberg-ai review game.json --seconds 0.5 --out my-review --json"])
    review.add_argument("record", metavar="RECORD.json", help="a game record")
    _game_option(review, "the record")
    _search_budget(review, " a decision", REVIEW_ITERATIONS)
    review.add_argument("--player", type=_non_negative_int, default=None, help="review only this player's decisions")
    review.add_argument("--bot", choices=HINT_BOTS, default="smmcts", help="the search (default smmcts)")
    review.add_argument("--seed", type=_seed, default=None, help="the searches' seed " + NEW_SEED)
    review.add_argument("--threads", type=_threads, default=1, help="search threads (default 1)")
    review.add_argument("--out", metavar="BASE", default=None,
                        help="write BASE.json, BASE.png and BASE.svg (default: RECORD-review)")
    review.add_argument("--all", action="store_true", help="list the decisions with one legal move too")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.set_defaults(run=cmd_review)

    study = _subparser(sub, "study", "balance and strength studies, with reports and plots",
                       "balance: self-play of one bot in every seat, with win rates and mean scores by seat, "
                       "first player, character (and side), and the spread of the scores, with 95% intervals. "
                       "scaling: a bot at growing budgets against a fixed reference, win rate and rating. "
                       "Both write a Markdown report with plots in --out and resume like the arena.",
                       ["gutenberg-ai study balance --game gutenberg --bot smmcts --iterations 300 --games 100 "
                        "--out bal/",
                        "gutenberg-ai study scaling --game printing-press --bot ismcts --budgets 50,100,200,400 "
                        "--reference heuristic --games 40 --out scal/"])
    study.add_argument("kind", choices=("balance", "scaling"), help="which study")
    _game_option(study)
    study.add_argument("--bot", default="smmcts", help="the bot studied (balance: in every seat; default smmcts)")
    study.add_argument("--budgets", default="", metavar="B,...",
                       help="scaling: the budgets, iterations (100) or seconds (0.5s), comma-separated")
    study.add_argument("--reference", default="", metavar="BOT",
                       help="scaling: the fixed opponent (default heuristic; a searching one with its budget, "
                            "e.g. smmcts@1000)")
    study.add_argument("--games", type=_games, default=100,
                       help="games (balance) or games a budget (scaling) (default 100)")
    study.add_argument("--players", type=int, default=2, help="players a game, 2-4 (default 2; scaling: 2)")
    group = study.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=_seconds, default=None, help="balance: seconds a move")
    group.add_argument("--iterations", type=_iterations, default=None,
                       help="balance: iterations a move (default 300)")
    _games_options(study, "where the records, the report and the plots go", "parallel processes")
    study.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(study)
    study.add_argument("--options", default="{}", metavar="JSON", help="the studied bot's options")
    _ray_option(study)
    study.set_defaults(run=cmd_study)

    sp = _subparser(sub, "selfplay", "games of a search bot against itself, kept as training data",
                    "Play games of one search bot in every seat and keep, with every move, what its "
                    "search found (the visits of each move, the win chance and fame it expects). The "
                    "records resume and run in parallel as the arena's do; `gutenberg-ai train` learns "
                    "from them (docs/learning.md).",
                    ["gutenberg-ai selfplay --game gutenberg --players 2 --games 1000 --iterations 200 --out sp-gen0/",
                     "gutenberg-ai selfplay --game gutenberg --players 1 --games 300 --out sp-solo/",
                     "gutenberg-ai selfplay --bot learned --options '{\"model\": \"gen1.npz\"}' --out sp-gen1/"])
    _game_option(sp)
    sp.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(sp)
    sp.add_argument("--players", type=int, default=2, help="players a game (default 2; 1: solo, with the automa)")
    sp.add_argument("--automa", action="store_true", help="Gutenberg: add the rulebook's automa (2-3 players)")
    sp.add_argument("--rounds", type=int, default=None, help=ROUNDS_HELP)
    sp.add_argument("--games", type=_games, default=100, help="games (default 100)")
    sp.add_argument("--bot", default="ismcts", help="the bot in every seat: ismcts, smmcts or learned (default ismcts)")
    group = sp.add_mutually_exclusive_group()
    group.add_argument("--iterations", type=_iterations, default=200, help="iterations a move (default 200)")
    group.add_argument("--seconds", type=_seconds, default=None, help="seconds a move instead")
    sp.add_argument("--options", default="{}", metavar="JSON", help="the bot's search options, as JSON")
    sp.add_argument("--seed", type=_seed, default=None, help="seed of the deals and the bots " + RESUMED_SEED)
    sp.add_argument("--jobs", type=_jobs, default=max(1, os.cpu_count() or 1),
                    help="games played at once (default: one per CPU)")
    sp.add_argument("--out", required=True, metavar="DIR", help="where the records go")
    _ray_option(sp)
    sp.set_defaults(run=cmd_selfplay)

    tu = _subparser(sub, "tune", "tune a search bot's options against a reference bot (Optuna)",
                    "Search a bot's options (exploration, cut-off, temperatures, a model's mixing) with "
                    "Optuna: each trial plays --games games against the reference on the same deals; the "
                    "best is then validated against the defaults on fresh deals. The study resumes from "
                    "OUT (SQLite). Writes OUT/tune.md and OUT/tune.json. Needs the extra: "
                    "pip install -e '.[tune]'.",
                    ["gutenberg-ai tune --bot smmcts --reference heuristic --trials 20 --games 8 --out tune-g/",
                     "gutenberg-ai tune --game printing-press --space '{\"uct_c\": [0.1, 4, \"log\"]}' --out tune-pp/"])
    _game_option(tu)
    tu.add_argument("--bot", default="smmcts", help="the bot tuned: a search bot (default smmcts)")
    tu.add_argument("--reference", default="heuristic", help="the bot it plays against (default heuristic)")
    tu.add_argument("--players", type=int, default=2, help="players a game, 2-4 (default 2)")
    tu.add_argument("--rounds", type=int, default=None, help=ROUNDS_HELP)
    tu.add_argument("--variant", choices=("basic", "advanced"), default=None, help=VARIANT_HELP)
    _factory_tops_option(tu)
    tu.add_argument("--trials", type=_positive_int, default=20, help="trials of the study in all (default 20)")
    tu.add_argument("--games", type=_games, default=8, help="games a trial (default 8)")
    tu.add_argument("--validate", type=_games, default=40, help="games of each validation match (default 40)")
    group = tu.add_mutually_exclusive_group()
    group.add_argument("--iterations", type=_iterations, default=None, help="iterations a move (default 200)")
    group.add_argument("--seconds", type=_seconds, default=None, help="seconds a move instead")
    tu.add_argument("--space", default="", metavar="JSON",
                    help='options to search, e.g. \'{"uct_c": [0.1, 4, "log"], "cutoff": [0, 100]}\' '
                         "(default: uct_c, cutoff, prior_temperature, eval_temperature, less those --options fixes); "
                         'Lead Letter Printers\' evaluation weights as "weights.NAME" (docs/tuning.md)')
    tu.add_argument("--options", default="{}", metavar="JSON", help="the tuned bot's fixed options")
    tu.add_argument("--seed", type=_seed, default=None, help="seed of the deals, the bots and the sampler " + RESUMED_SEED)
    tu.add_argument("--jobs", type=_jobs, default=1, help="games played at once (default 1)")
    tu.add_argument("--out", required=True, metavar="DIR", help="where the study, its games and the report go")
    _ray_option(tu)
    tu.set_defaults(run=cmd_tune)

    tr = _subparser(sub, "train", "train a learned evaluation and priors from self-play (PyTorch)",
                    "Fit a small network to self-play records: the final scores and win chances from each "
                    "position, and the search's visits as priors. A tenth of the games is held out; the "
                    "report compares the network with the hand-written evaluation on them. The weights "
                    "are a file the compiled search reads: the search option model=FILE, or the bot "
                    "`learned`. Needs the extra: pip install -e '.[learn]'.",
                    ["gutenberg-ai train sp-gen0/ --out gen1.npz",
                     "gutenberg-ai train sp-gen0/ sp-gen1/ --out gen2.npz --generation 2 --epochs 10"])
    tr.add_argument("data", nargs="+", metavar="DIR", help="self-play folders (gutenberg-ai selfplay), one game's")
    tr.add_argument("--out", required=True, metavar="FILE", help="the weights file to write (.npz)")
    tr.add_argument("--epochs", type=_whole_number(1, TRAIN_MAX_EPOCHS), default=4,
                    help=f"passes over the data (default 4, at most {TRAIN_MAX_EPOCHS:,})")
    tr.add_argument("--hidden", type=_whole_number(1, TRAIN_MAX_HIDDEN), default=64,
                    help=f"hidden units a layer (default 64, at most {TRAIN_MAX_HIDDEN})")
    tr.add_argument("--seed", type=_seed, default=None, help="seed of the split and the fit " + NEW_SEED)
    tr.add_argument("--generation", type=_positive_int, default=1, help="the generation it is (kept in the file)")
    tr.add_argument("--threads", type=_threads, default=1, help="PyTorch's threads (default 1)")
    tr.add_argument("--report", default=None, metavar="FILE", help="also write the report as JSON")
    tr.set_defaults(run=cmd_train)

    suite_p = _subparser(sub, "suite", "score a bot on the game's benchmark positions",
                         "Score a bot on the game's benchmark suite: fixed positions from real play (the "
                         "decisions of every kind), each with a reference evaluation from a long search. Says "
                         "how often the bot plays the reference's move and the chance to win its moves lose. "
                         "Scoring costs more than the bot's moves: a move the references did not measure is "
                         "searched alone, about 10 CPU seconds each, so a run takes minutes whatever the budget "
                         "(Gutenberg's suite, smmcts at 20 iterations: 4 min 48 s of CPU, 2026-12-01). --out keeps "
                         "each position's result as it is scored (the same command resumes); --ray local --jobs N "
                         "scores positions side by side.",
                         ["gutenberg-ai suite --game gutenberg --bot smmcts --iterations 500",
                          "gutenberg-ai suite --game printing-press --bot gutenberg_ai.examples.flat_mc:make_bot "
                          "--iterations 50"])
    _game_option(suite_p)
    suite_p.add_argument("--bot", required=True, help="a bot: a built-in name or module:factory")
    group = suite_p.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=_seconds, default=None, help="seconds a move")
    group.add_argument("--iterations", type=_iterations, default=None, help="iterations a move (default 500)")
    suite_p.add_argument("--seed", type=_seed, default=None, help="the bot's seed " + RESUMED_SEED)
    suite_p.add_argument("--version", type=_positive_int, default=None,
                         help="the suite's version (default the game's current one: " + ", ".join(
                             f"{games.get(key).title} {version}" for key, version in SUITE_VERSIONS.items())
                         + "); with --suite, the version the file must be")
    suite_p.add_argument("--suite", default=None, metavar="FILE",
                         help="a suite file of the game instead of a shipped version (one made by `python -m "
                              "gutenberg_ai.tools.suite make`)")
    suite_p.add_argument("--json", action="store_true", help="print JSON")
    suite_p.add_argument("--out", default=None, metavar="DIR",
                         help="keep each position's result here as it is scored; the same command resumes")
    suite_p.add_argument("--jobs", type=_jobs, default=None, help="with --ray local: the workers (default 1)")
    _ray_option(suite_p)
    suite_p.set_defaults(run=cmd_suite)

    cards = _subparser(sub, "cards", "look a card up by what it shows: its id for a position file",
                       "Find the cards that show what you name: letters, inks, specialties and their "
                       "levels, numbers with guilders or fame, gear rewards, or a card's id. Each card "
                       "found is printed with its id, which is how a position file names it. The "
                       "closest cards come first. When no card shows every word, the few that show the "
                       "most of them are shown; when none shows any, the words no card shows are named.",
                       ["gutenberg-ai cards A I I U 5 guilders",
                        "gutenberg-ai cards printing --letters A,I,O",
                        "gutenberg-ai cards refinement red 2f binding IV",
                        "gutenberg-ai cards gear gain red",
                        "gutenberg-ai cards patronage illuminating V"])
    cards.add_argument("words", nargs="*", metavar="WORD", help="what the card shows (the first may be its kind)")
    _game_option(cards)
    cards.add_argument("--kind", default=None, help=KIND_HELP)
    cards.add_argument("--letters", default=None, metavar="A,I,O",
                       help="exactly these letters (a printing card's, a patronage card's types)")
    cards.add_argument("--inks", default=None, metavar="red,red",
                       help="exactly these inks (a refinement card's colour part, a patronage card's inks)")
    cards.add_argument("--top", type=_positive_int, default=10, help="how many cards at most (default 10)")
    cards.add_argument("--catalogue", default="", metavar="FILE", help="a catalogue JSON file (default: the built-in one)")
    cards.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cards.set_defaults(run=cmd_cards)
    serve_p = _subparser(sub, "serve", "play, hints, your table and review in a web page",
                         "Serve the web page on HOST:PORT (127.0.0.1 by default: this machine only) and "
                         "print its address: play against the AI, hints at any decision, hints for a "
                         "position file, and review of a game record, for every game. Ctrl-C stops it.",
                         ["gutenberg-ai serve", "gutenberg-ai serve --port 8080",
                          "gutenberg-ai serve --port 0          (any free port, printed)"])
    serve_p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve_p.add_argument("--port", type=_non_negative_int, default=8000, help="the port (default 8000; 0: any free one)")
    serve_p.add_argument("--workers", type=_threads, default=max(1, min(4, os.cpu_count() or 1)),
                         help="searches run at once (default: the cores, at most 4)")
    serve_p.add_argument("--max-seconds", type=_seconds, default=None, metavar="S",
                         help="the longest search, an AI move or a hint, whatever its budget "
                              "(default 30 s an AI move, 60 s a hint)")
    serve_p.set_defaults(run=cmd_serve)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:   # `gutenberg-ai` alone: what it can do
        parser.print_help()
        return 0
    if args.command == "hint" and args.seconds is None and args.iterations is None and args.bot in HINT_BOTS:
        args.iterations = HINT_ITERATIONS
    if args.command == "review" and args.seconds is None and args.iterations is None:
        args.iterations = REVIEW_ITERATIONS
    try:
        check_paths(args)
        seed_said = settle_seed(args)
        code = args.run(args)
        if seed_said and code in (0, 130):     # after the output, not before an error
            print(plain_text(seed_said), file=sys.stderr)
        return code
    except BrokenPipeError:
        # The reader went away (`gutenberg-ai demo | head`): stop quietly, as `cat` does.
        # Python's own flush of stdout at exit would fail again, so stdout goes nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141   # 128 + SIGPIPE, what a shell reports for a program the pipe stopped
    except (UsageError, *USER_ERRORS) as e:
        if os.environ.get("GUTENBERG_AI_DEBUG"):   # a developer wants the traceback
            raise
        for line in str(e).split("\n"):    # a file's problems: one line each
            # plain text: a message may quote a path or a name as typed, escape codes and all
            print(f"{PROG} {args.command}: {plain_text(line)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG} {args.command}: interrupted", file=sys.stderr)
        return 130
