"""`gutenberg-ai arena`: a round robin between bots, with seats rotated and seeds
recorded, in parallel processes, resumable, with win rates and ratings.

    gutenberg-ai arena --bots ismcts,smmcts,heuristic,random --games 200 --players 2 \\
        --seconds 0.2 --jobs 2 --out results/
    gutenberg-ai arena --game printing-press --bots ismcts,heuristic --games 20 --out pp/

Every game of the games table plays here alike (`game`, Gutenberg by default); the
game's own parameters are those of the settings its module knows (rounds, characters,
automa for Gutenberg; rounds, characters, variant for Printing Press).

The schedule. Every lineup of `players` different bots (every pair with 2 players; with
fewer bots than seats, every multiset that is not one bot alone) is a match of `--games`
games. Game g of a match seats the lineup rotated by g mod players, with the chance seed
seed + g // players: each deal is played from every rotation, so no bot owns a good seat
or a good deal. Bot seeds are recorded in each game's record (records.py).

Resuming. Every finished game is written to OUT/games/MATCH/game-NNNN.json as it ends
(atomically), and OUT/arena.json keeps the settings (written once they are checked). Run
the same command again after an interruption: the games already in OUT are read back,
not played. --games may grow to extend a run; other settings must stay as they were.

Trust. A record found in OUT is used only if it is the scheduled game (its match, game
number, bots, seats, seeds, options and parameters) and replays to its recorded result
(records.replay: every action legal, the scores, ranks and digest); a record that does
not is reported (`run.mismatches` in the summary) and the game is played again. Two
arenas may share an OUT: a game is claimed (an exclusive OUT/games/MATCH/game-NNNN.claim
file, holding the process and host) before it is played and released after, so no game
is played twice; a claim whose process has died is taken over.

What is reported (OUT/standings.csv, OUT/pairings.csv, OUT/summary.json, OUT/summary.md):
- per bot: games, win share (1 a win, 1/k of a win shared by k, else 0), the rate with
  its 95% Wilson interval, mean fame, and a Bradley-Terry rating on the Elo scale;
- per pair of bots: head to head over the games where both sat, each game counting as
  1 for the better place, 1/2 for equal places (score, then fewer types, then fewer inks:
  the rulebook's tie-breaks), 0 for the worse, with the Wilson interval;
- per bot, from every game's whole finishing order: a Plackett-Luce rating (openskill)
  with its interval (gutenberg_ai.tools.ratings), in summary["plackett_luce"].
The Bradley-Terry model is fitted to those pairwise results by minorization-maximization
(Hunter 2004), with one virtual draw between every pair that met (so that a bot that won
every game still gets a finite rating). Ratings are 400 log10 of the strengths, with the
anchor bot at 0 (random when it plays, else the mean of all); their 95% intervals come
from a bootstrap over games (the games resampled with replacement, the model refitted).
Where the results leave one side open (a bot that never lost has no upper bound), the
bootstrap cannot bound the other side either (every resample is unbeaten): that side is
the likelihood-ratio bound, the others held at their fitted ratings (likelihood_bound).
"""
from __future__ import annotations

import csv
import functools
import itertools
import math
import json
import os
import socket
import time
from dataclasses import asdict, dataclass, field
from typing import Protocol

import numpy as np

from gutenberg_ai.common import limits
from gutenberg_ai.common.pool import run_each
from gutenberg_ai.common.stats import wilson
from gutenberg_ai.common.words import rounds_words
from gutenberg_ai.search.bots import BOT_NAMES, SEARCH_BOTS, budget_not_taken, budget_options, refusal, split_budget

SETTINGS_FILE = "arena.json"
GAMES_DIR = "games"
CLAIM_SUFFIX = ".claim"


class ArenaError(ValueError):
    """Settings that cannot run (or cannot resume what is in --out)."""


class Resumable(Protocol):
    """Settings a run into OUT keeps (ArenaSettings, a study's): what must not change
    between runs, and the games a match plays."""

    @property
    def games(self) -> int: ...

    def resumable_part(self) -> dict: ...


# Settings a run's arena.json leaves out at these values (runs from before they were
# settings had none): a setting missing there is this.
UNRECORDED_DEFAULTS = {"catalogue": "", "game": "gutenberg", "variant": "", "search_stats": False,
                       "factory_tops": True}
FACE_DOWN = "the factory piles face down"     # how a report names factory_tops=False


def recorded(settings: dict, keys=tuple(UNRECORDED_DEFAULTS)) -> dict:
    """The settings less those of `keys` at their UNRECORDED_DEFAULTS, as runs (or a
    study's runs) from before they were settings recorded them."""
    return {k: v for k, v in settings.items() if not (k in keys and v == UNRECORDED_DEFAULTS[k])}


def reading_flags(variant: str, characters: bool, factory_tops: bool) -> list:
    """The command-line flags of a game's readings other than its defaults."""
    return (([f"--variant {variant}"] if variant else []) + ([] if characters else ["--no-characters"])
            + ([] if factory_tops else ["--no-factory-tops"]))


@dataclass
class ArenaSettings:
    bots: list
    game: str = "gutenberg"                       # a key of gutenberg_ai.games
    players: int = 2
    games: int = 200
    seconds: float | None = 0.2
    iterations: int | None = None
    rounds: int = 6
    characters: bool = True
    automa: bool = False
    seed: int = 0
    options: dict = field(default_factory=dict)   # extra options per bot name
    pairings: list | None = None                  # explicit 2-player lineups instead of all
    catalogue: str = ""                           # a catalogue file ("": the built-in one)
    variant: str = ""                             # Printing Press: "basic" or "advanced"
    factory_tops: bool = True                     # Lead Letter Printers: the factory piles face up
    search_stats: bool = False                    # records keep each search's visits (self-play)

    def resumable_part(self) -> dict:
        """What must not change between runs into the same --out (all but --games; the
        catalogue, the game, the variant and the factory piles only when they are not the
        defaults, as runs from before they were settings had none)."""
        d = asdict(self)
        d.pop("games")
        return recorded(d)

    def check_game_settings(self, error=ValueError) -> None:
        """Raise `error` naming the settings given that the game has no parameter for:
        game_params leaves them out, so they are refused rather than ignored."""
        from gutenberg_ai import games
        g = games.get(self.game)
        known = g.rules_module.DEFAULTS
        lacks = []
        if self.automa and "automa" not in known:
            lacks.append(f"automa: {g.title} has no automa setting "
                         "(a solo game of it plays its automa, if it has one)")
        if self.variant and "variant" not in known:
            lacks.append(f"variant: {g.title} has no variants")
        if not self.factory_tops and "factory_tops" not in known:
            lacks.append(f"factory_tops: {g.title} has no factory piles")
        if not self.characters and "characters" not in known:
            lacks.append(f"characters: {g.title} has no characters to leave out")
        if lacks:
            raise error("; ".join(lacks))

    def game_params(self) -> dict:
        """The game's parameters: the settings its module knows (games table)."""
        from gutenberg_ai import games
        known = games.get(self.game).rules_module.DEFAULTS
        given = dict(players=self.players, rounds=self.rounds, characters=self.characters,
                     automa=int(self.automa), variant=self.variant, catalogue=self.catalogue,
                     factory_tops=self.factory_tops)
        return {k: v for k, v in given.items() if k in known and not (k == "variant" and not v)}


# ---------------------------------------------------------------------------------------
# The schedule
# ---------------------------------------------------------------------------------------
def rotation_note(games: int, players: int, pairings=None) -> str | None:
    """What a count of games that is not a multiple of the seats leaves unbalanced
    (None when it is one): the last deal of each match is not played from every seat."""
    seats = len(pairings[0]) if pairings else players
    # (before the settings are checked: a count out of range is the checks' to name)
    if not isinstance(seats, int) or not isinstance(games, int) or seats < 2 or games < 1 or games % seats == 0:
        return None
    return (f"--games {games} is not a multiple of the {seats} seats: the last deal of each match is played "
            f"from {games % seats} of its {seats} seatings, so the seats are not balanced (give a multiple of {seats})")


def lineup_count(bots, players: int, pairings=None) -> int:
    """How many lineups `lineups` makes, counted without making them."""
    if pairings:
        return len(pairings)
    n = len(bots)
    if n >= players:
        return math.comb(n, players)
    return math.comb(n + players - 1, players) - n     # all of one bot left out


def lineups(bots, players: int, pairings=None) -> list[tuple]:
    """The matches: lineups of bots, in the order of `bots`."""
    if pairings:
        return [tuple(p) for p in pairings]
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    return [c for c in itertools.combinations_with_replacement(bots, players) if len(set(c)) > 1]


def _folder_name(bot: str) -> str:
    """A bot's name as part of a folder name: a module:factory's ':' and '/' made '~'."""
    return bot.replace(":", "~").replace("/", "~").replace(os.sep, "~")


def match_id(lineup) -> str:
    return "-vs-".join(_folder_name(b) for b in lineup)


def game_seats(lineup, g: int) -> list:
    """The bots in seat order in game g of a match: the lineup rotated by g."""
    r = g % len(lineup)
    return list(lineup[r:] + lineup[:r])


def schedule(s: ArenaSettings) -> list[dict]:
    """Every game of the round robin as a task for play_task."""
    tasks = []
    for lineup in lineups(s.bots, s.players, s.pairings):
        for g in range(s.games):
            seats = game_seats(lineup, g)
            tasks.append(dict(
                match=match_id(lineup), game=g, lineup=list(lineup), seats=seats,
                # Within the seeds a record takes (limits.MAX_SEED), whatever --seed is.
                chance_seed=(s.seed + g // len(lineup)) % (limits.MAX_SEED + 1),
                bot_seeds=[((s.seed * 7919 + g) * 8 + seat) % (limits.MAX_SEED + 1) for seat in range(len(seats))],
                bot_options=[{**budget_options(name, s.seconds, s.iterations), **s.options.get(name, {})}
                             for name in seats],
                params=s.game_params(), printing_game=s.game,
                path=os.path.join(GAMES_DIR, match_id(lineup), f"game-{g:04d}.json"),
                **({"search_stats": True} if s.search_stats else {})))
    return tasks


# ---------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------
def play_record(task: dict) -> dict:
    """Play one scheduled game and return its record (as data). Bots of your own come
    from the task's `factories` (name -> factory) or their module:factory name."""
    from gutenberg_ai import games
    from gutenberg_ai.search.bots import make_bot
    from gutenberg_ai.games.records import GameRecord, play_bots, seat_entry
    game = games.get(task.get("printing_game", "gutenberg")).load(**task["params"])
    factories = task.get("factories") or {}
    bots = [make_bot(factories.get(name, name), game, seat, seed=task["bot_seeds"][seat],
                     **task["bot_options"][seat])
            for seat, name in enumerate(task["seats"])]
    seats = [seat_entry(seat, name, task["bot_seeds"][seat], task["bot_options"][seat])
             for seat, name in enumerate(task["seats"])]
    extra = {"arena": {"match": task["match"], "game": task["game"], "lineup": task["lineup"]}}
    record = GameRecord(game, task["chance_seed"], seats, command=task.get("command", "arena"), extra=extra)
    started = time.perf_counter()
    play_bots(game, bots, task["chance_seed"], record, search_stats=task.get("search_stats", False))
    record.extra["arena"]["seconds"] = round(time.perf_counter() - started, 2)
    return record.to_dict()


def play_task(task: dict, out: str) -> dict:
    """Play one scheduled game, write its record under `out`, return its summary."""
    from gutenberg_ai.games.records import write_json
    data = play_record(task)
    write_json(os.path.join(out, task["path"]), data)
    return summary_of(data)


def run_task(task: dict, out: str) -> dict:
    """The scheduled game in `out`: its record if one is there and checks out (found),
    else played now under a claim (played; replayed when a record was there but did not
    check out, with the reason), or left to the arena that holds its claim (elsewhere).
    Returns {"task", "status", "summary", "reason"}."""
    path = os.path.join(out, task["path"])
    found, reason = examine(path, task)
    if found is not None:
        return dict(task=task, status="found", summary=found, reason=None)
    claim = path[:-len(".json")] + CLAIM_SUFFIX
    if not take_claim(claim):
        return dict(task=task, status="elsewhere", summary=None, reason=None)
    try:
        found, again = examine(path, task)      # finished by another arena meanwhile?
        if found is not None:
            return dict(task=task, status="found", summary=found, reason=None)
        from gutenberg_ai.games.records import write_json
        data = play_record(task)
        write_json(path, data)
        return dict(task=task, status="replayed" if reason else "played", summary=summary_of_task(task, data),
                    reason=reason)
    finally:
        release_claim(claim)


def summary_of(record: dict) -> dict:
    """What the tables need from a finished game's record."""
    return {"match": record["arena"]["match"], "game": record["arena"]["game"],
            "seats": [e["player"] for e in sorted(record["seats"], key=lambda e: e["seat"])],
            **{k: record["result"][k] for k in ("scores", "winners", "ranks")}}


def summary_of_task(task: dict, record: dict) -> dict:
    """The summary of a task's finished game: the arena's (summary_of), and what the
    task's `facts` function (a study's) adds from the record."""
    out = summary_of(record)
    facts = task.get("facts")
    if facts:
        module, _, name = facts.rpartition(".")
        import importlib
        out.update(getattr(importlib.import_module(module), name)(record))
    return out


def examine(path: str, task: dict) -> tuple[dict | None, str | None]:
    """(summary, None) if the record at `path` is the task's game, finished, and replays
    to its result; (None, why not) if a record is there but is not; (None, None) if
    there is none."""
    from gutenberg_ai.games.records import RecordError, load_record, replay
    if not os.path.exists(path):
        return None, None
    try:
        record = load_record(path)
        why = schedule_mismatch(record, task)
        if why:
            return None, why
        replay(record, dealt=task["chance_seed"])    # the scheduled deal's draws, not another's
    except RecordError as e:
        return None, str(e).split("\n")[0]
    return summary_of_task(task, record), None


@functools.lru_cache(maxsize=4)
def _catalogue_data(path: str, game: str = "gutenberg"):
    """The catalogue a record of the arena carries (records.GameRecord): the JSON of the
    arena's --catalogue as the game reads it, None for the built-in one."""
    if not path:
        return None
    from gutenberg_ai import games
    g = games.get(game)
    return g.rules_module.sources_of(g.load(catalogue=path))["catalogue"]


def schedule_mismatch(record: dict, task: dict) -> str | None:
    """Why a (checked) record is not the scheduled game `task`, or None."""
    from gutenberg_ai.games.records import printing_game_of
    seats = sorted(record["seats"], key=lambda e: e["seat"])
    game = task.get("printing_game", "gutenberg")
    keys = [k for k in task["params"] if k != "catalogue"]
    played = {k: record["game"].get(k) for k in keys}
    command = task.get("command", "arena")
    checks = [
        (record.get("command") == command, f"not a record of the {command}"),
        (isinstance(record.get("arena"), dict) and
         {k: record["arena"].get(k) for k in ("match", "game", "lineup")} ==
         {k: task[k] for k in ("match", "game", "lineup")}, "another match or game number"),
        (record.get("finished") is True, "an unfinished game"),
        (record.get("seed") == task["chance_seed"], f"chance seed {record.get('seed')!r}, "
                                                    f"scheduled {task['chance_seed']}"),
        ([e["seat"] for e in seats] == list(range(len(task["seats"]))) and
         [e["player"] for e in seats] == task["seats"], "other bots or seats"),
        ([e.get("seed") for e in seats] == task["bot_seeds"], "other bot seeds"),
        ([e.get("options", {}) for e in seats] == task["bot_options"], "other bot options"),
        (printing_game_of(record).key == game, f"a game of {printing_game_of(record).title}"),
        (played == {k: task["params"][k] for k in keys}, "other game parameters"),
        (record.get("catalogue") == _catalogue_data(task["params"].get("catalogue", ""), game) and
         record.get("position") is None, "another catalogue or a position"),
    ]
    for ok, why in checks:
        if not ok:
            return f"not the scheduled game: {why}"
    return None


# -- claims: two arenas on one OUT do not play a game twice ------------------------------
def _claim_text() -> str:
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname()})


def take_claim(claim: str) -> bool:
    """Claim a game: create `claim` if no live arena holds it (its content appears
    whole, by linking a complete temporary file in place)."""
    os.makedirs(os.path.dirname(claim), exist_ok=True)
    tmp = f"{claim}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(_claim_text())
    try:
        for _ in range(2):
            try:
                os.link(tmp, claim)
                return True
            except FileExistsError:
                if not _stale(claim):
                    return False
                try:
                    os.unlink(claim)          # its arena is gone: take it over
                except FileNotFoundError:
                    pass
        return False
    finally:
        os.unlink(tmp)


def _stale(claim: str) -> bool:
    """Whether the process that holds `claim` has died (on this host)."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    try:
        holder, _, _ = read_json(claim, FileDataError, 1000, "a claim")
        pid, host = holder["pid"], holder["host"]
    except (FileDataError, TypeError, KeyError):
        return True                           # not a claim this program wrote
    if host != socket.gethostname() or not isinstance(pid, int) or isinstance(pid, bool):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return False
    return False


def release_claim(claim: str):
    try:
        os.unlink(claim)
    except FileNotFoundError:
        pass


# -- the settings -----------------------------------------------------------------------
def check_settings(out: str, s: Resumable):
    """Check that a run into OUT used the same settings (OUT/arena.json, untrusted)."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    path = os.path.join(out, SETTINGS_FILE)
    if not os.path.exists(path):
        return
    mine = s.resumable_part()
    try:
        data, _, _ = read_json(path, FileDataError, 1 << 20, "arena settings")
    except FileDataError as e:
        raise ArenaError(f"{e} (the settings of the games in {out}: fix or delete it, or "
                         "choose another --out)") from None
    theirs = data.get("settings") if isinstance(data, dict) else None
    if not isinstance(theirs, dict):
        raise ArenaError(f"{path}: no settings in it (delete it, or choose another --out)")
    for key in list(mine) + [k for k in theirs if k not in mine]:
        value = mine.get(key)
        if theirs.get(key) != value:
            from gutenberg_ai.common.jsonfile import show
            raise ArenaError(f"{path}: the games in {out} were played with {key} = "
                             f"{show(theirs.get(key, UNRECORDED_DEFAULTS.get(key)))}, not "
                             f"{show(mine.get(key, UNRECORDED_DEFAULTS.get(key)))}; resume with the "
                             "same settings, or choose another --out")


def write_settings(out: str, s: Resumable):
    from gutenberg_ai.games.records import write_json
    write_json(os.path.join(out, SETTINGS_FILE), {"settings": s.resumable_part(),
                                                  "games_per_match": s.games})


def run_tasks(tasks: list, out: str, jobs: int = 1, progress=None, ray=None) -> list:
    """Run scheduled games (run_task: found in `out`, else played under a claim) in this
    process (jobs 1), a local process pool (jobs > 1) or on Ray (`ray`: "local" for a
    cluster on this machine, else the address of one: gutenberg_ai.tools.cluster). The same
    tasks give the same records whichever runs them. `progress(done, total)` after each
    game. Returns the outcomes (run_task's dicts), in the order they finished."""
    done = []
    if progress:
        progress(0, len(tasks))

    def finished(outcome):
        done.append(outcome)
        if progress:
            progress(len(done), len(tasks))

    if ray is not None:
        run_tasks_on_ray(tasks, out, ray, jobs, finished)
    else:
        # A game cut short by Ctrl-C leaves no record (records are written atomically) and
        # a claim that the next run takes over (its process is gone).
        run_each(run_task, [(task, out) for task in tasks], jobs, finished)
    return done


def run_tasks_on_ray(tasks: list, out: str, address: str, jobs: int, finished):
    """Run scheduled games on Ray; `finished(outcome)` for each (arena.run_task's outcome
    dicts; gutenberg_ai.tools.cluster starts or joins it). Records found in `out` count without being played; the rest are claimed,
    played on the cluster, written here as they arrive."""
    from gutenberg_ai.games.records import write_json
    from gutenberg_ai.tools import cluster
    ray, started = cluster.connect(address, jobs)
    remote = ray.remote(max_retries=cluster.MAX_RETRIES, num_cpus=1)(play_record)
    pending = {}     # object ref -> (task, claim, reason)
    try:
        for task in tasks:
            path = os.path.join(out, task["path"])
            found, reason = examine(path, task)
            if found is not None:
                finished(dict(task=task, status="found", summary=found, reason=None))
                continue
            claim = path[:-len(".json")] + CLAIM_SUFFIX
            if not take_claim(claim):
                finished(dict(task=task, status="elsewhere", summary=None, reason=None))
                continue
            pending[remote.remote(task)] = (task, claim, reason)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            task, claim, reason = pending[ref]
            data = ray.get(ref)          # a game that failed raises here: its claim is given back below
            write_json(os.path.join(out, task["path"]), data)
            del pending[ref]
            release_claim(claim)
            finished(dict(task=task, status="replayed" if reason else "played",
                          summary=summary_of_task(task, data), reason=reason))
    finally:
        # Interrupted (or a game failed): the games not written are given back, and those
        # still running are cancelled. Not with force: a worker killed just as its game
        # ends sends a reply the driver no longer expects, and Ray 2.60's driver aborts on
        # it ("An unexpected system state", task_manager.cc; seen in CI). A cancelled game
        # stops at its next move.
        for ref, (task, claim, _) in pending.items():
            ray.cancel(ref)
            release_claim(claim)
        if started:
            ray.shutdown()


def run_counts(done: list, started: float, jobs: int, ray=None) -> dict:
    """What a run did: played, found (skipped), replayed with the mismatches, elsewhere."""
    count = {k: sum(o["status"] == k for o in done) for k in ("played", "found", "replayed", "elsewhere")}
    return {"played": count["played"] + count["replayed"], "skipped": count["found"],
            "replayed": count["replayed"], "elsewhere": count["elsewhere"],
            "mismatches": sorted(({"path": o["task"]["path"], "reason": o["reason"]}
                                  for o in done if o["reason"]), key=lambda m: m["path"]),
            "seconds": round(time.perf_counter() - started, 1), "jobs": jobs,
            **({"ray": ray} if ray is not None else {})}


def run_arena(s: ArenaSettings, out: str, jobs: int = 1, progress=None, ray=None, factories=None,
              plots: bool = True) -> dict:
    """Play what is not yet in `out`, then compute and write the tables (and, with
    `plots`, ratings.png/svg and head-to-head.png/svg). `progress`, if given, is called
    as progress(done, total) after each game; `ray` runs the games on Ray (run_tasks).
    `factories` maps bot names of your own to factories (bots.register_bot; importable
    ones for jobs > 1 or Ray) or to bot objects (pyspiel.Bots, in this process only). Returns the summary; summary["run"] says what was played,
    found, replayed (with the mismatches) and left to another arena."""
    if not isinstance(out, (str, os.PathLike)) or not str(out):
        raise ArenaError(f"out: {out!r} is not a folder's path (the arena writes its games and tables there)")
    validate(s, factories)
    check_count(jobs, "jobs", limits.MAX_JOBS)
    import pyspiel
    objects = [name for name, f in (factories or {}).items() if isinstance(f, pyspiel.Bot)]
    if objects and (jobs > 1 or ray is not None):
        raise ArenaError(f"factories: {', '.join(objects)} is a bot object, which plays in this process only "
                         "(jobs 1, no Ray); give a factory to play in other processes")
    if ray is not None:
        from gutenberg_ai.tools import cluster
        cluster.check_installed()
    check_settings(out, s)
    write_settings(out, s)
    tasks = schedule(s)
    if factories:
        for task in tasks:
            task["factories"] = {name: factories[name] for name in task["seats"] if name in factories}
    started = time.perf_counter()
    done = run_tasks(tasks, out, jobs, progress, ray)
    results = [o["summary"] for o in done if o["summary"] is not None]
    summary = tables(results, s)
    summary["out"] = out
    summary["run"] = run_counts(done, started, jobs, ray)
    write_tables(summary, out)
    if plots:
        from gutenberg_ai.tools import plots as plotting
        summary["plots"] = [os.path.relpath(p, out) for p in plotting.arena_plots(summary, out)]
    return summary


def check_count(value, what: str, highest: int):
    """ArenaError unless `value` (games, jobs) is a whole number from 1 to `highest`
    (a bound of gutenberg_ai.common.limits)."""
    try:
        limits.check_whole(value, what, 1, highest)
    except ValueError as e:
        raise ArenaError(str(e)) from None


def validate(s: ArenaSettings, factories=None):
    """Every setting, down to each bot's options (each bot is made once), before
    anything is written. `factories`: bots of your own by name (run_arena)."""
    kinds: dict[str, tuple[type | tuple[type, ...], str]] = {"players": (int, "a whole number"), "games": (int, "a whole number"),
             "rounds": (int, "a whole number"), "seed": (int, "a whole number"),
             "characters": (bool, "true or false"), "automa": (bool, "true or false"),
             "factory_tops": (bool, "true or false"),
             "seconds": ((int, float, type(None)), "a number of seconds"),
             "game": (str, "a game's name"), "variant": (str, "text"),
             "iterations": ((int, type(None)), "a whole number")}
    for name, (kind, words) in kinds.items():
        value = getattr(s, name)
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise ArenaError(f"{name}: {value!r} is not {words}")
    try:
        limits.check_seed(s.seed)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    if not isinstance(s.bots, list) or not all(isinstance(b, str) for b in s.bots):
        raise ArenaError("bots: a list of bot names")
    from gutenberg_ai.search.bots import check_name
    factories = factories or {}
    for name in s.bots:
        if name in factories:
            continue
        try:
            check_name(name, [n for n in BOT_NAMES if n != "cfr"])
        except ValueError as e:
            raise ArenaError(f"bots: {e}") from None
    if len(set(s.bots)) != len(s.bots):
        raise ArenaError("bots: a bot is named twice")
    if s.pairings:
        if s.players != 2:
            raise ArenaError("pairings: only with 2 players")
        paired: set = set()
        for pair in s.pairings:
            if len(pair) != 2:
                raise ArenaError(f"pairings: {pair!r} is not a pair of bots")
            for name in pair:
                if name not in s.bots:
                    raise ArenaError(f"pairings: {name!r} is not among the bots")
            if pair[0] == pair[1]:
                raise ArenaError(f"pairings: {pair[0]!r} is paired with itself")
            if frozenset(pair) in paired:
                raise ArenaError(f"pairings: {pair[0]!r} and {pair[1]!r} are paired twice (a pair plays both seats)")
            paired.add(frozenset(pair))
        idle = [b for b in s.bots if not any(b in pair for pair in s.pairings)]
        if idle:
            them = "it" if len(idle) == 1 else "them"
            raise ArenaError(f"pairings: {', '.join(map(repr, idle))} would play no game: pair {them} "
                             f"or leave {them} out of the bots")
    elif len(s.bots) < 2:
        raise ArenaError("bots: a round robin needs at least 2 bots")
    if not 2 <= s.players <= 4:
        raise ArenaError(f"players: {s.players} is out of range (2-4)")
    try:     # the bounds of gutenberg_ai.common.limits, before any game
        limits.check_whole(s.games, "games", 1, limits.MAX_GAMES)
        limits.check_budget(s.seconds, s.iterations)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    matches = lineup_count(s.bots, s.players, s.pairings)
    if matches * s.games > limits.MAX_GAMES:      # counted, not listed: the schedule is made after
        raise ArenaError(f"games: {matches:,} lineups of {s.games:,} games are {matches * s.games:,} games, "
                         f"over the {limits.MAX_GAMES:,} an arena plays in all (fewer bots, or fewer games)")
    if not isinstance(s.options, dict) or not all(isinstance(v, dict) for v in s.options.values()):
        raise ArenaError('options: an object of options per bot, e.g. {"smmcts": {"cutoff": 60}}')
    for name in s.options:
        if name not in s.bots:
            raise ArenaError(f"options: {name!r} is not among the bots")
    from gutenberg_ai import games
    try:
        g = games.get(s.game)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    s.check_game_settings(ArenaError)
    params = s.game_params()
    g.rules_module.check_parameters(params)
    from gutenberg_ai.search.bots import make_bot
    game = g.load(**params)
    for name in s.bots:
        options = {**budget_options(name, s.seconds, s.iterations), **s.options.get(name, {})}
        try:
            make_bot(factories.get(name, name), game, 0, seed=0, **options)
        except (TypeError, ValueError, OSError) as e:     # OSError: a file an option names
            raise ArenaError(f"{'options' if s.options.get(name) else 'bots'}: {refusal(name, e)}") from None


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------
def pairwise(results, bots) -> np.ndarray:
    """W[g, i, j]: what bot i scored against bot j in game g (1 better place, 1/2 equal,
    0 worse; summed over the seats if a bot sat twice)."""
    index = {b: i for i, b in enumerate(bots)}
    w = np.zeros((len(results), len(bots), len(bots)))
    for g, r in enumerate(results):
        for s, t in itertools.permutations(range(len(r["seats"])), 2):
            i, j = index[r["seats"][s]], index[r["seats"][t]]
            if i != j:
                w[g, i, j] += 1.0 if r["ranks"][s] < r["ranks"][t] else 0.5 if r["ranks"][s] == r["ranks"][t] else 0.0
    return w


def bradley_terry(wins: np.ndarray, iterations: int = 1000) -> np.ndarray:
    """Strengths p (geometric mean 1) maximizing the Bradley-Terry likelihood of
    `wins[i, j]` (i's score against j), by Hunter's MM updates, after adding one virtual
    draw between every pair that met."""
    games = wins + wins.T
    met = games > 0
    w = wins + 0.5 * met
    n = games + met
    k = len(w)
    p = np.ones(k)
    total = w.sum(axis=1)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1), 1.0)
        new = np.where(new > 0, new, 1e-12)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < 1e-10:
            p = new
            break
        p = new
    return p


def unbounded(wins: np.ndarray, anchor: int | None) -> tuple[list, list]:
    """Which ratings have no upper and no lower bound: (no_upper, no_lower) per bot.

    The Bradley-Terry likelihood has no finite maximum where the results separate the
    bots: a bot that never lost has no upper bound. In general a rating relative to the
    anchor (or, without one, to the others) is bounded above only if a chain of results
    leads down to it from the anchor (the anchor took points from x1, x1 from x2, ...,
    someone from the bot), and below only if a chain leads from it to the anchor. The
    virtual draws keep the fitted rating finite; where a side has no bound the interval
    says so instead of showing the narrow one those draws would give."""
    k = len(wins)
    took = wins > 0                        # took[i, j]: i scored against j at least once
    reach = took.copy()
    for m in range(k):                     # transitive closure (Warshall)
        reach |= reach[:, m:m + 1] & reach[m:m + 1, :]
    no_upper, no_lower = [], []
    for b in range(k):
        others = [anchor] if anchor is not None and anchor != b else [i for i in range(k) if i != b]
        if anchor == b:
            no_upper.append(False)
            no_lower.append(False)
            continue
        no_upper.append(not any(reach[o, b] for o in others))
        no_lower.append(not any(reach[b, o] for o in others))
    return no_upper, no_lower


def likelihood_bound(wins: np.ndarray, ratings: np.ndarray, b: int, upper: bool) -> float:
    """The 95% likelihood-ratio bound of bot b's rating on one side, the others held at
    their fitted `ratings` (Elo scale; `wins[i, j]`: i's score against j, without the
    virtual draws): the furthest rating whose log-likelihood is within 1.92 (half of
    chi-square(1)'s 3.84) of the best, which for a bot that never lost lies at infinity."""
    others = [j for j in range(len(wins)) if j != b and wins[b, j] + wins[j, b] > 0]
    xs = ratings[b] + np.linspace(-4000.0, 4000.0, 8001)
    ll = np.zeros_like(xs)
    for j in others:
        p = 1.0 / (1.0 + 10.0 ** ((ratings[j] - xs) / 400.0))
        ll += wins[b, j] * np.log(np.clip(p, 1e-300, 1.0)) + wins[j, b] * np.log(np.clip(1.0 - p, 1e-300, 1.0))
    inside = xs[ll >= ll.max() - 1.92]
    return float(inside.max() if upper else inside.min())


def elo(strengths: np.ndarray, anchor: int | None) -> np.ndarray:
    r = 400.0 * np.log10(strengths)
    return r - (r[anchor] if anchor is not None else r.mean())


def tables(results, s: ArenaSettings, bootstrap: int = 1000, anchor_name: str | None = None) -> dict:
    """The standings (per bot) and the head-to-head (per pair) of finished games. The
    ratings' anchor (at 0): `anchor_name`, else random when it plays, else the mean."""
    bots = list(s.bots)
    results = sorted(results, key=lambda r: (r["match"], r["game"]))
    if anchor_name is None and "random" in bots:
        anchor_name = "random"
    anchor = bots.index(anchor_name) if anchor_name is not None else None
    w = pairwise(results, bots)
    ratings = elo(bradley_terry(w.sum(axis=0)), anchor)
    rng = np.random.default_rng(s.seed)
    samples = []
    for _ in range(bootstrap if results else 0):
        pick = rng.integers(0, len(results), len(results))
        samples.append(elo(bradley_terry(w[pick].sum(axis=0), iterations=300), anchor))
    low, high = (np.percentile(samples, [2.5, 97.5], axis=0) if samples else (ratings, ratings))
    totals = w.sum(axis=0)
    no_upper, no_lower = unbounded(totals, anchor)
    # Where a side is open the bootstrap's other side is no bound either: every resample
    # of a bot that never lost never loses, and its fit stays where the virtual draws put
    # it. That side comes from the likelihood instead (likelihood_bound).
    for i in range(len(bots)):
        if i == anchor or no_upper[i] == no_lower[i]:
            continue
        if no_upper[i]:
            low[i] = min(low[i], likelihood_bound(totals, ratings, i, upper=False))
        else:
            high[i] = max(high[i], likelihood_bound(totals, ratings, i, upper=True))
    standings = []
    for i, bot in enumerate(bots):
        seats = [(r, k) for r in results for k, name in enumerate(r["seats"]) if name == bot]
        share = sum(1.0 / len(r["winners"]) for r, k in seats if k in r["winners"])
        n = len(seats)
        lo, hi = wilson(share, n)
        standings.append(dict(bot=bot, games=n, wins=round(share, 3), win_rate=share / n if n else None,
                              win_rate_low=lo, win_rate_high=hi,
                              mean_fame=sum(r["scores"][k] for r, k in seats) / n if n else None,
                              rating=float(ratings[i]),
                              rating_low=None if no_lower[i] else float(low[i]),
                              rating_high=None if no_upper[i] else float(high[i]),
                              rating_note=bound_note(totals, i, no_upper[i], no_lower[i],
                                                     bots[anchor] if anchor is not None else None)))
    standings.sort(key=lambda row: -row["rating"])
    pairs = []
    for a, b in itertools.combinations(bots, 2):
        i, j = bots.index(a), bots.index(b)
        played = [g for g in range(len(results)) if w[g, i, j] + w[g, j, i] > 0]
        if not played:
            continue
        score = float(w[played, i, j].sum())
        meetings = float((w[played, i, j] + w[played, j, i]).sum())
        better = sum(1 for g in played if w[g, i, j] > w[g, j, i])
        worse = sum(1 for g in played if w[g, i, j] < w[g, j, i])
        # The interval counts games, not meetings: a bot that sits twice meets the other
        # twice in one game, and those two are not independent.
        lo, hi = wilson(score / meetings * len(played), len(played))
        fame = {name: [results[g]["scores"][k] for g in played for k, x in enumerate(results[g]["seats"]) if x == name]
                for name in (a, b)}
        pairs.append(dict(a=a, b=b, games=len(played), a_wins=better, shared=len(played) - better - worse,
                          a_losses=worse, a_rate=score / meetings, a_rate_low=lo, a_rate_high=hi,
                          mean_fame_a=sum(fame[a]) / len(fame[a]), mean_fame_b=sum(fame[b]) / len(fame[b])))
    from gutenberg_ai.tools.ratings import plackett_luce
    return {"settings": asdict(s), "games": len(results), "anchor": bots[anchor] if anchor is not None else "mean",
            "standings": standings, "pairings": pairs, "plackett_luce": plackett_luce(results, bots)}


def bound_note(wins: np.ndarray, b: int, no_upper: bool, no_lower: bool, anchor: str | None) -> str:
    """Why bot `b`'s rating has an open side, in words that are true of the results
    (`wins[i, j]`: i's score against j): "never outscored" only of a bot nobody scored
    against; a bot that was outscored, but by no chain of results from the anchor, is
    said to be so."""
    if no_upper and no_lower:
        return "results do not connect it to the others: no interval"
    others = [i for i in range(len(wins)) if i != b]
    if no_upper:
        if not any(wins[i, b] > 0 for i in others):
            return "never outscored: no upper bound"
        return f"no upper bound: no chain of results leads from {anchor} down to it"
    if no_lower:
        if not any(wins[b, i] > 0 for i in others):
            return "never scored: no lower bound"
        return f"no lower bound: no chain of results leads from it down to {anchor}"
    return ""


def rating_text(r: dict) -> str:
    """A standing's rating with its interval, an open side said in words."""
    low = f"{r['rating_low']:+.0f}" if r["rating_low"] is not None else "-inf"
    high = f"{r['rating_high']:+.0f}" if r["rating_high"] is not None else "+inf"
    note = f"; {r['rating_note']}" if r.get("rating_note") else ""
    return f"{r['rating']:+.0f} ({low} to {high}{note})"


def head_to_head(summary: dict, a: str, b: str) -> dict | None:
    """The pairings row of `a` against `b`, from a's side."""
    for p in summary["pairings"]:
        if (p["a"], p["b"]) == (a, b):
            return p
        if (p["a"], p["b"]) == (b, a):
            return dict(a=a, b=b, games=p["games"], a_wins=p["a_losses"], shared=p["shared"],
                        a_losses=p["a_wins"], a_rate=1 - p["a_rate"], a_rate_low=1 - p["a_rate_high"],
                        a_rate_high=1 - p["a_rate_low"], mean_fame_a=p["mean_fame_b"], mean_fame_b=p["mean_fame_a"])
    return None


# ---------------------------------------------------------------------------------------
# Writing the tables
# ---------------------------------------------------------------------------------------
STANDING_COLUMNS = ("bot", "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "mean_fame",
                    "rating", "rating_low", "rating_high", "rating_note")
PAIR_COLUMNS = ("a", "b", "games", "a_wins", "shared", "a_losses", "a_rate", "a_rate_low", "a_rate_high",
                "mean_fame_a", "mean_fame_b")


def _csv(path, columns, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()})


def budget_text(s: dict) -> str:
    """The searching bots' budget a move in words: the arena's, or their own where every
    searching bot is named with one (NAME@BUDGET), as a report states it."""
    own = "each bot's own budget (NAME@BUDGET)"
    searching = [split_budget(b) for b in s.get("bots", ()) if split_budget(b)[0] in SEARCH_BOTS]
    if searching and all(budget is not None for _, budget in searching):
        return own
    if s.get("iterations"):
        common = f"{s['iterations']} iterations"
    elif s.get("seconds") is None:
        return own
    else:
        common = f"{s['seconds']:g} s"
    return common + (" (NAME@BUDGET: its own)" if any(budget is not None for _, budget in searching) else "")


def budget_flags(budget: dict) -> list[str]:
    """A search budget ({"iterations": n} or {"seconds": s}) as command-line options."""
    if budget.get("iterations"):
        return [f"--iterations {budget['iterations']}"]
    if budget.get("seconds") is not None:
        return [f"--seconds {budget['seconds']:g}"]
    return []


def command_line(s: dict, out: str = "results/", jobs: int | None = None) -> str:
    """The arena command that plays these settings."""
    # The arena's budget only where a bot plays with it: the command refuses one no bot
    # takes (none searches, or each names its own).
    common = budget_flags(s) if budget_not_taken(s["bots"], s.get("seconds"), s.get("iterations")) is None else []
    parts = ["gutenberg-ai arena"] + ([f"--game {s['game']}"] if s.get("game", "gutenberg") != "gutenberg" else []) \
        + [f"--bots {','.join(s['bots'])}", f"--games {s['games']}", f"--players {s['players']}"] + common
    if jobs:
        parts.append(f"--jobs {jobs}")
    parts.append(f"--out {out}")
    parts.append(f"--seed {s['seed']}")     # always: without it a run takes a new seed
    from gutenberg_ai import games
    g = games.get(s.get("game", "gutenberg"))
    if s["rounds"] != g.rules_module.DEFAULTS["rounds"]:
        parts.append(f"--rounds {s['rounds']}")
    parts += reading_flags(s.get("variant", ""), s["characters"], s.get("factory_tops", True))
    if s["automa"]:
        parts.append("--automa")
    if s["options"]:
        parts.append(f"--options '{json.dumps(s['options'])}'")
    if s.get("pairings"):
        parts.append("--pairings " + ",".join(f"{a}:{b}" for a, b in s["pairings"]))
    if s.get("catalogue"):
        parts.append(f"--catalogue {s['catalogue']}")   # the same game again
    return " ".join(parts)


def markdown(summary: dict) -> str:
    s = summary["settings"]
    from gutenberg_ai import games
    g = games.get(s.get("game", "gutenberg"))
    rounds = rounds_words(s["rounds"])
    lines = [f"# Arena ({g.title}): {', '.join(s['bots'])}", "",
             f"{summary['games']} games, {s['players']} players, {rounds}, "
             + (f"{FACE_DOWN}, " if not s.get("factory_tops", True) else "")
             + f"{budget_text(s)} a move for the searching bots, seed {s['seed']}"
             + (f", options {json.dumps(s['options'])}" if s["options"] else "") + ".", "",
             f"    {command_line(s, summary.get('out', 'results/'), summary.get('run', {}).get('jobs'))}", "",
             f"| bot | games | win rate | 95% interval | mean {g.score_word} | rating | 95% interval |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in summary["standings"]:
        low = f"{r['rating_low']:+.0f}" if r["rating_low"] is not None else "-inf"
        high = f"{r['rating_high']:+.0f}" if r["rating_high"] is not None else "+inf"
        note = f" ({r['rating_note']})" if r.get("rating_note") else ""
        lines.append(f"| {r['bot']} | {r['games']} | {r['win_rate']:.1%} | {r['win_rate_low']:.1%}-"
                     f"{r['win_rate_high']:.1%} | {r['mean_fame']:.1f} | {r['rating']:+.0f} | "
                     f"{low} to {high}{note} |")
    lines += ["", f"| A | B | games | A ahead | equal | B ahead | A's score | 95% interval | mean {g.score_word} A-B |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for p in summary["pairings"]:
        lines.append(f"| {p['a']} | {p['b']} | {p['games']} | {p['a_wins']} | {p['shared']} | {p['a_losses']} | "
                     f"{p['a_rate']:.1%} | {p['a_rate_low']:.1%}-{p['a_rate_high']:.1%} | "
                     f"{p['mean_fame_a']:.1f}-{p['mean_fame_b']:.1f} |")
    anchor = summary["anchor"]
    lines += ["", "Games: the seats a bot played (with fewer bots than seats a bot may sit twice in a game). "
              "Win rate: the share of games won (a win shared by k counts 1/k), with Wilson's 95% "
              "interval. Rating: Bradley-Terry on the Elo scale from every pairwise result (better "
              "place 1, equal 1/2), " + (f"{anchor} at 0" if anchor != "mean" else "centred on the mean")
              + ", 95% interval by bootstrap over games; a side is open (inf) where the results "
              "cannot bound it (a bot never outscored, or outscored by no chain of results from the anchor, has no "
              "upper bound), and its other side is then the likelihood-ratio bound, the others held at their "
              "ratings. A's score: A's head-to-head result against B."]
    unbalanced = rotation_note(s["games"], s["players"], s.get("pairings"))
    if unbalanced:
        lines += ["", f"Note: {unbalanced}."]
    lines += plackett_luce_lines(summary.get("plackett_luce", []))
    return "\n".join(lines) + "\n"


def plackett_luce_lines(rows: list) -> list[str]:
    """The Markdown table of the Plackett-Luce ratings (gutenberg_ai.tools.ratings)."""
    if not rows:
        return []
    lines = ["", "| bot | games | Plackett-Luce mu | sigma | 95% interval |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {r['bot']} | {r['games']} | {r['mu']:.1f} | {r['sigma']:.1f} | {r['low']:.1f} to {r['high']:.1f} |"
              for r in rows]
    return lines + ["", "Plackett-Luce: openskill's rating from every game's finishing order (equal places "
                    "tied), games taken in the schedule's order; every bot starts at mu 25, sigma 8.3; "
                    "interval mu +- 1.96 sigma."]


def write_tables(summary: dict, out: str):
    _csv(os.path.join(out, "standings.csv"), STANDING_COLUMNS, summary["standings"])
    _csv(os.path.join(out, "pairings.csv"), PAIR_COLUMNS, summary["pairings"])
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write(markdown(summary))
