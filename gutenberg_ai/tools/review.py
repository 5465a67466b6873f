"""`gutenberg-ai review RECORD.json`: how well a recorded game was played, decision by
decision, like a chess engine's game review, for any game of the games table.

    from gutenberg_ai.games.records import load_record
    from gutenberg_ai.tools.review import review_record
    result = review_record(load_record("game.json"), iterations=2000, seed=0)
    for d in result["decisions"]:
        print(d["index"], d["player"], d["played"]["text"], d["lost"], d["mark"])

At every decision of the record (or of one player's: `player`) with more than one legal
move, the search (the hint's: `smmcts` by default) evaluates the position for the player
to move: its best move (the most searched) and that move's chance to win for every seat
(solo: the expected final score, there being nobody to beat), the *evaluation* of the
position. The move played is measured in the same search when the search gave it at
least MIN_SHARE of its iterations and the visits an interval needs (hints.MIN_VISITS);
otherwise by a second search of the same position and
budget with the played move forced at the root (the core's `root_action`), so that a
move the search hardly looked at is measured as carefully as the best. The *win chance
lost* is the best move's value less the played move's (0 when they are the same move;
a negative difference, which is noise, counts as 0). Mistakes are marked by size
(THRESHOLDS): an inaccuracy, a mistake, a blunder, where the search tells the two moves
apart: the hints' test (hints.interval_of, hints.level_with) on the two moves' 95%
intervals. A loss of that size that the search cannot tell from noise is marked "level"
(the difference within the test) or "too few samples" (a move searched too little for
an interval), never as a mistake (`mark_between`).

Hidden information. Each decision is searched from the information state of the player
to move, never from the record's full knowledge: every iteration of the search redraws
what that player could not see at that moment (Gutenberg: the plans the others had
committed in the same plan step; Printing Press: the symbols of the tokens the others
keep face down and of the tokens in the bag), and samples the draws to come. What the
record reveals later (the plans, the tokens, the cards drawn) is never used to judge a
move. The evaluation is therefore what the player could have known, not the outcome.

Reproducible: the search at decision k is seeded from `seed` and k; an iteration budget
gives the same review on every machine (a time budget depends on the machine).
"""
from __future__ import annotations

import json

from gutenberg_ai import games
from gutenberg_ai.common import limits
from gutenberg_ai.games import core_of, returns_mode_of
from gutenberg_ai.games.records import CHANCE, replay
from gutenberg_ai.search.hints import HINT_BOTS, MIN_VISITS, interval_of, level_with

DEFAULT_ITERATIONS = 2000
MIN_SHARE = 0.05         # the played move's share of the search below which it is searched alone
# Marks by the win chance lost (solo: the expected score lost, in points).
THRESHOLDS = {"win": (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05)),
              "score": (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))}
# A loss big enough for a mark that the search cannot tell from noise (the hints' words).
LEVEL, TOO_FEW = "level", "too few samples"
MARK_COUNTS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies",
               LEVEL: "level", TOO_FEW: "too_few_samples"}   # a summary's keys


def hidden_note(g) -> str:
    """How the review searched past what the player could not see, in the game's words
    (its module's HIDDEN_WORDS)."""
    return ("Each decision was searched from the information state of the player to move: every "
            f"iteration redraws what that player could not see then ({g.rules_module.HIDDEN_WORDS}) and "
            "samples the draws to come; what the record reveals later is never used.")


def _search(core_module, core, algorithm, budget, seed, threads, options, weights, root_action=None):
    """The core's search at `core`: `algorithm` with `options` and the evaluation's `weights`
    (as checked_search_options returns them)."""
    extra = {} if root_action is None else {"root_action": root_action}
    with games.searching(core_module, weights):
        return core_module.search(core, algorithm, seed=seed, threads=threads, batches=core_module.BATCHES,
                                  **budget, **options, **extra)


def mark_of(lost: float, measure: str) -> str:
    """'blunder', 'mistake', 'inaccuracy' or '' for a loss of `lost` (THRESHOLDS)."""
    for name, limit in THRESHOLDS[measure]:
        if lost >= limit:
            return name
    return ""


def measure_key(measure: str) -> str:
    """The key of a core search's row that holds `measure` ("score": the final fame or
    points; "win": the win share)."""
    return "fame" if measure == "score" else "win"


def interval_of_move(move: dict, player: int, measure: str) -> tuple[float, float] | None:
    """The 95% interval of `player`'s measure after `move`, a row of the core's search
    (`moves`: visits, parts, the measure and its standard error per seat), as the hints
    make it (hints.interval_of; None: searched too little)."""
    key = measure_key(measure)
    return interval_of(move[key][player] if move["visits"] else None,
                       move["se"][key][player] if move["se"] else None, key, move["visits"], move["parts"])


def mark_between(best: dict, played: dict, player: int, measure: str) -> tuple[float, str]:
    """(the loss, its mark) of the move `played` against the search's `best`, two rows of
    the core's search (interval_of_move) for `player`: the size's mark (mark_of) where the
    hints' test of a difference (hints.level_with) tells the two apart; where it does
    not, LEVEL (both intervals known, the difference within the test) or TOO_FEW (an
    interval unknown): a few visits' estimates are not a mistake."""
    return _marked(_measured(best, player, measure), _measured(played, player, measure), measure)


def _marked(best: dict, played: dict, measure: str) -> tuple[float, str]:
    """mark_between of two moves as _measured gives them (each interval made once)."""
    lost = max(0.0, best["value"] - played["value"])
    mark = mark_of(lost, measure)
    if mark:
        level = level_with(best["value"], best["interval"], played["value"], played["interval"])
        if level is not False:
            mark = LEVEL if level else TOO_FEW
    return lost, mark


def review_record(record: dict, seconds=None, iterations=None, player=None, bot="smmcts", seed=0,
                  threads=1, progress=None, **options) -> dict:
    """The review of a checked record (records.load_record) as JSON-ready data: settings,
    `decisions` (one per reviewed decision) and `summary` (per reviewed player). `progress`
    is called as progress(done, total) after each decision. The search options
    (`options`) default to the hint's; `returns` to the game's ("score" solo)."""
    from gutenberg_ai.search.bots import checked_search_options, native_search
    if bot not in HINT_BOTS:
        raise ValueError(f"bot: {bot!r} is not one of {', '.join(HINT_BOTS)}")
    if seconds is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    limits.check_budget(seconds, iterations)      # the bounds, before the record is replayed
    limits.check_threads(threads)
    budget = {"seconds": seconds} if seconds is not None else {"iterations": iterations}
    state = replay(record)                    # the whole record checked first
    game = state.get_game()
    g = games.of(game)
    n_players = game.num_players()
    if player is not None and not 0 <= player < n_players:
        raise ValueError(f"player: {player} is out of range (0-{n_players - 1})")
    solo = n_players == 1
    measure = "score" if solo else "win"
    options.setdefault("returns", "score" if solo else returns_mode_of(game))
    core_module = g.core
    # The search every decision runs, checked before any search.
    algorithm, search_options = native_search(bot, options, core_module, solo)
    search_options, weights = checked_search_options(core_module, search_options)
    # The decisions to review: (index in the actions, the state before it).
    entries = replay_entries(record)
    todo = [(i, s, e) for i, s, e in entries
            if e["player"] != CHANCE and (player is None or e["player"] == player)]
    total = len(todo)
    decisions = []
    key = measure_key(measure)
    for done, (i, before, entry) in enumerate(todo):
        core = core_of(before)
        p = entry["player"]
        legal = core.legal_actions()
        played = entry["action"]
        row = {"index": i, "player": p, "round": core.round, "step": core.step_name(),
               "legal": len(legal),
               "played": {"action": played, "text": before.action_to_string(p, played)}}
        if len(legal) == 1:
            row.update(best=dict(row["played"]), evaluation=None, lost=0.0, mark="", method="only move")
            row["played"]["value"] = row["best"]["value"] = None
            decisions.append(row)
            if progress:
                progress(done + 1, total)
            continue
        s = (seed * 1_000_003 + i) & 0xFFFFFFFF
        result = _search(core_module, core, algorithm, budget, s, threads, search_options, weights)
        moves = result["moves"]
        visits = sum(m["visits"] for m in moves)
        best = moves[0]
        mine = next((m for m in moves if m["action"] == played), None)
        if played == best["action"]:
            measured, method = best, "best"
        elif mine is not None and visits and mine["visits"] >= max(MIN_SHARE * visits, MIN_VISITS):
            measured, method = mine, "same search"
        else:
            forced = _search(core_module, core, algorithm, budget, s, threads, search_options, weights,
                             root_action=played)
            measured, method = forced["moves"][0], "searched alone"
        best_measured, played_measured = _measured(best, p, measure), _measured(measured, p, measure)
        lost, mark = _marked(best_measured, played_measured, measure) if measured is not best else (0.0, "")
        row.update(
            best={"action": best["action"], "text": before.action_to_string(p, best["action"]), **best_measured},
            evaluation=[float(x) for x in best[key]],
            lost=lost, mark=mark, method=method,
            iterations=result["iterations"])
        row["played"].update(played_measured)
        decisions.append(row)
        if progress:
            progress(done + 1, total)
    return {
        "game": g.key, "record": record.get("_source", "record"), "bot": bot, "budget": budget,
        "seed": seed, "threads": threads, "player": player, "players": n_players,
        "measure": "expected score" if solo else "win probability",
        "thresholds": {name: limit for name, limit in THRESHOLDS[measure]},
        "hidden_information": hidden_note(g), "search_options": options,
        "result": record.get("result"),
        "decisions": decisions, "summary": summarize(decisions, n_players, measure),
    }


def _measured(move: dict, player: int, measure: str) -> dict:
    """What a review row gives of a move the search measured (a row of the core's search):
    `player`'s value, its standard error, the move's visits and its 95% interval."""
    key = measure_key(measure)
    interval = interval_of_move(move, player, measure)
    return {"value": move[key][player], "se": move["se"][key][player] if move["se"] else None,
            "visits": move["visits"], "interval": None if interval is None else [float(x) for x in interval]}


def replay_entries(record: dict) -> list:
    """(index, state before the action, entry) for every action of a checked record (a
    record saved by a player has what they did not see filled in, records.fill_hidden)."""
    from gutenberg_ai.games.records import fill_hidden, game_of
    game = game_of(record)
    actions = record["actions"]
    if any(e.get("hidden") for e in actions):
        actions, _ = fill_hidden(record, game)
    state = game.new_initial_state()
    out = []
    for i, entry in enumerate(actions):
        out.append((i, state.clone(), entry))
        state.apply_action(entry["action"])
    return out


def summarize(decisions: list, n_players: int, measure: str) -> list:
    """Per player: decisions reviewed (more than one legal move), how often the best move
    was played, the mean and total win chance (or score) lost, and the marks (MARK_COUNTS:
    the mistakes and the losses the search could not tell from noise)."""
    out = []
    for p in range(n_players):
        mine = [d for d in decisions if d["player"] == p and d["method"] != "only move"]
        if not mine:
            continue
        lost = [d["lost"] for d in mine]
        row = {"player": p, "decisions": len(mine),
               "best_played": sum(1 for d in mine if d["played"]["action"] == d["best"]["action"]),
               "mean_lost": sum(lost) / len(lost), "total_lost": sum(lost)}
        for name, counted in MARK_COUNTS.items():
            row[counted] = sum(1 for d in mine if d["mark"] == name)
        out.append(row)
    return out


def write_review(review: dict, path_json: str | None = None, plot_base: str | None = None) -> list:
    """Write the JSON and the plot (PNG and SVG at `plot_base`.png/.svg); the paths."""
    written = []
    if path_json:
        with open(path_json, "w", encoding="utf-8") as f:
            json.dump(review, f, indent=2)
        written.append(path_json)
    if plot_base:
        from gutenberg_ai.tools import plots
        written += plots.review_plot(review, plot_base)
    return written
