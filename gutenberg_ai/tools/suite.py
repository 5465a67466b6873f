"""A benchmark suite per game: fixed positions from real play, each with a reference
evaluation from a long search, and the score of a bot on them, so that search
algorithms can be compared without playing thousands of games.

    gutenberg-ai suite --game gutenberg --bot smmcts --iterations 500
    gutenberg-ai suite --game printing-press --bot mypkg.mybot:make --seconds 0.2 --json

The suite of a game is its `data/suite-vN.json`, N its current version (SUITE_VERSIONS; a
new version is a new file, and an old one is never changed: figures quoted with "suite
v1" stay comparable). A rule change that makes a suite's actions reach other states
retires it: the game's next version replaces it.
Each position is a game (the game's parameters, the chance seed) and the actions that
lead to it from the start, taken from self-play of a strong bot (`make_suite`), with
the kind of decision it is (the game module's `position_kind`: Gutenberg's plan, action,
fulfil and endgame steps; Printing Press's card selection, frames and endgame), the
state's digest (so that an engine that plays the actions differently is caught, not
scored against), and the reference: the root statistics of a long search (the hint's
search, its budget and seed given) of the position: its best move and the value
(chance to win; solo, expected score) of each move it measured.

Scoring a bot (`score_bot`): at each position the bot moves once (seeded). *Agreement*
is the share of positions where it plays the reference's best move, *agreement among the
best* the share where it plays a move the references cannot tell from the best
(`best_moves`: their values level by the hints' rule); *win chance lost*
is, as in a game review, the reference value of the best move less that of the bot's
move: from the reference's statistics when the reference gave that move at least
MIN_SHARE of its search, else measured now by a search of the same budget (in a strong
suite at most alone_iterations) and seed with that move forced at the root; in a strong
suite a move the references searched little and valued far below their best is searched
so for their whole budget (rechecked). Hidden
information is handled as in the review: the
reference searched from the information state of the player to move.

Version 4 (STRONG_VERSION, `make_strong_suite`, `python -m gutenberg_ai.tools.suite make`):
positions from games of the learned bot at every player count, solo included, balanced
over player counts and kinds, each with two references of independent seeds (a minute
each by default), made resumably in a work folder. A position whose references disagree
on the best move is scored by win chance lost only. A strong suite remade takes the next
number (`make --version`: Printing Press's v5 raised v4's references where iterations
are cheap; Lead Letter Printers' v5 searched v4's positions again after its evaluation
changed). `suite_page` writes a suite's page (docs/suites/). docs/benchmark-suite.md
says why the strong suites are version 4.
"""
from __future__ import annotations

import os
import random
import sys

from gutenberg_ai import games
from gutenberg_ai.common.pool import run_each
from gutenberg_ai.games import core_of
from gutenberg_ai.games.positionfile import SUITE_FORMAT, program_file

# The current suite of each game: its strong suite. Of the older ones, Lead Letter
# Printers' v1 positions were played under rules since corrected (a shop shared at
# setup), so their actions no longer replay; Printing Press's v1 (a bonus marker beside
# a lone "1", an empty window) and v2 (setup tokens only at the player's own decisions,
# none before a step's order) likewise.
SUITE_VERSIONS = {"gutenberg": 4, "printing-press": 5, "lead-letter-printers": 6}
# The suites from strong play (make_strong_suite: the learned bot's games at 2, 3, 4 players and
# solo, two references of independent seeds a position) are version 4 in every game: the
# first number no game has used (Printing Press ships a v3 made the old way), so one
# number names one method; a game's strong suite remade (its references raised, say)
# takes the next number, as any changed suite does.
STRONG_VERSION = 4
MIN_SHARE = 0.01
# A move a strong suite's references did not measure is searched alone for at most this
# many iterations, or ALONE_HINTS times a 2-second hint's at the position where the
# suite measured that and it is more (some 10 CPU seconds wherever iterations are cheap,
# as in an endgame, where 20,000 iterations find none of what the references found);
# the references' own budget in versions 1-3, so their figures stand. One move's value
# needs far fewer than a ranking of every move, and a bot that often plays such moves
# (random, say) is scored in minutes, not hours.
ALONE_ITERATIONS = 20_000
ALONE_HINTS = 5
# A move a strong suite's references measured with less than RECHECK_SHARE of their
# search and valued more than RECHECK_GAP below their best (chance to win) is searched
# again, alone, for their budget (rechecked): such a value comes from a search some thirty
# times shorter than the best's, which can miss a deep line (docs/benchmark-suite.md,
# "The score", has the position that showed it and how many such moves each suite has).
RECHECK_GAP = 0.05
RECHECK_SHARE = 0.1
FORMAT = SUITE_FORMAT
MAX_POSITIONS = 1_000         # positions a suite file may hold (the shipped ones: 60-66)
MAX_SUITE_BYTES = 8 << 20     # a suite file's size (the shipped ones: under 250 KB; 1,000 positions fit)
MAX_ACTIONS = 100_000         # actions leading to one position
MAX_VERSION = 99              # a suite file's version
MAX_MOVES = 10_000            # moves of one reference


def current_version(key: str) -> int:
    return SUITE_VERSIONS.get(games.get(key).key, 1)


def suite_path(key: str, version: int | None = None) -> str:
    """The file of a game's suite: `version` (default the current one)."""
    g = games.get(key)
    version = version or current_version(key)
    return os.path.join(g.data_folder, f"suite-v{version}.json")


def position_kind(core) -> str:
    """The kind of decision (the game module's position_kind, else its step's name)."""
    kind = getattr(games.of(core).rules_module, "position_kind", None)
    return kind(core) if kind else core.step_name().split(":")[0]


def reference_search(state, iterations: int | None, seed: int, bot: str = "smmcts", threads: int = 1,
                     root_action=None, seconds: float | None = None) -> dict:
    """The long search of a position: its root statistics (the hint's search; `bot` one of
    the hint's bots, hints.HINT_BOTS)."""
    from gutenberg_ai.search.bots import native_search
    core = core_of(state)
    g = games.of(core)
    solo = core.num_players == 1
    options = {"returns": "score" if solo else "win"}
    if root_action is not None:
        options["root_action"] = root_action
    algorithm, options = native_search(bot, options, g.core, solo)
    with games.searching(g.core):
        return g.core.search(core, algorithm, iterations=iterations, seconds=seconds, seed=seed, threads=threads,
                             batches=g.core.BATCHES, **options)


def measure_of(num_players: int) -> tuple[str, str]:
    """(the search's statistic, its name in a suite) of a game of `num_players`: the
    chance to win, solo the expected score."""
    return ("fame", "expected score") if num_players == 1 else ("win", "win probability")


def decisions_of_game(game, bot: str, chance_seed: int, **budget) -> tuple[list[int], list[tuple[int, str]]]:
    """A game of `bot` in every seat (seat p seeded chance_seed * 8 + p), chance drawn
    with `chance_seed`: its actions, and (the number of actions before it, its kind) of
    each decision with more than one move."""
    from gutenberg_ai.search.bots import make_bot
    from gutenberg_ai.games.records import CHANCE, play_bots
    bots = [make_bot(bot, game, p, seed=chance_seed * 8 + p, **budget) for p in range(game.num_players())]
    actions: list[int] = []
    decisions: list[tuple[int, str]] = []

    def seen(state, player, action):
        if player != CHANCE and len(state.legal_actions()) > 1:
            decisions.append((len(actions), position_kind(core_of(state))))
        actions.append(int(action))
    play_bots(game, bots, chance_seed, on_action=seen)
    return actions, decisions


def reference_record(state, result: dict, intervals: bool = False) -> dict:
    """A long search's root statistics as a suite keeps them: its best move (the most
    searched) and each move given at least MIN_SHARE of the search, with its share and
    value (the measure of the player to move) and, with `intervals`, the value's 95%
    interval as a hint gives it (None: too few samples)."""
    from gutenberg_ai.search.hints import interval_of
    p = state.current_player()
    statistic, _ = measure_of(state.get_game().num_players())
    total = sum(m["visits"] for m in result["moves"])

    def move(m):
        out = {"action": m["action"], "text": state.action_to_string(p, m["action"]),
               "share": m["visits"] / total, "value": m[statistic][p]}
        if intervals:
            iv = interval_of(m[statistic][p], m["se"][statistic][p] if m["se"] else None, statistic, m["visits"],
                             m["parts"])
            out["interval"] = list(iv) if iv is not None else None
        return out
    return {"best": result["moves"][0]["action"],
            "best_text": state.action_to_string(p, result["moves"][0]["action"]),
            "moves": [move(m) for m in result["moves"] if m["visits"] >= MIN_SHARE * total]}


def make_suite(key: str, per_kind: int = 4, games_: int = 4, bot: str = "smmcts", bot_iterations: int = 300,
               reference_iterations: int = 20000, seed: int = 0, params: dict | None = None,
               progress=None, version: int = 1) -> dict:
    """Build a suite of the first versions' form (one reference a position; `version`
    1 to STRONG_VERSION - 1): `games_` self-play games of `bot` (`bot_iterations` a move,
    chance seeds seed..), their decisions with more than one move grouped by kind,
    `per_kind` of each kind drawn with `seed`, each searched for `reference_iterations`."""
    if not 1 <= version < STRONG_VERSION:
        raise ValueError(f"version: {version}: this form is versions 1 to {STRONG_VERSION - 1}'s "
                         f"(version {STRONG_VERSION} on: make_strong_suite)")
    from gutenberg_ai.games.records import state_digest
    g = games.get(key)
    params = dict(params or {"players": 2})
    game = g.load(**params)
    by_kind: dict[str, list[tuple[int, list[int]]]] = {}
    for n in range(games_):
        chance_seed = seed + n
        actions, decisions = decisions_of_game(game, bot, chance_seed, iterations=bot_iterations)
        for at, kind in decisions:
            by_kind.setdefault(kind, []).append((chance_seed, actions[:at]))
    rng = random.Random(f"suite/{key}/{seed}")
    chosen = []
    for kind in sorted(by_kind):
        picks = rng.sample(by_kind[kind], min(per_kind, len(by_kind[kind])))
        chosen += [(kind, i, cs, acts) for i, (cs, acts) in enumerate(sorted(picks, key=lambda x: (x[0], len(x[1]))))]
    positions = []
    for k, (kind, i, chance_seed, actions) in enumerate(chosen):
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        core = core_of(state)
        p = state.current_player()
        ref_seed = seed * 1000 + k
        result = reference_search(state, reference_iterations, ref_seed)
        positions.append({
            "id": f"{kind.replace(' ', '-')}-{i + 1}", "kind": kind, "chance_seed": chance_seed,
            "round": core.round, "step": core.step_name(), "player": p, "legal": len(state.legal_actions()),
            "actions": actions, "digest": state_digest(core),
            "reference": {"bot": "smmcts", "iterations": result["iterations"], "seed": ref_seed,
                          **reference_record(state, result)}})
        if progress:
            progress(k + 1, len(chosen))
    return {"format": FORMAT, "version": version, "game": key, "params": params,
            "measure": measure_of(game.num_players())[1],
            "made_by": {"bot": bot, "bot_iterations": bot_iterations, "games": games_, "seed": seed,
                        "per_kind": per_kind, "reference_iterations": reference_iterations},
            "positions": positions}


def refuse_shipped(key: str, out: str) -> None:
    """ValueError where `out` is a suite file shipped with the game: a version is never
    changed once shipped (a remade suite is written elsewhere, or is a new version)."""
    if not os.path.exists(out):
        return
    for v in shipped_versions(key):
        if os.path.samefile(out, suite_path(key, v)):
            raise ValueError(f"--out: {out} is the shipped suite v{v} of {games.get(key).title}, which is never "
                             "changed: write to another file")


def shipped_versions(key: str) -> list[int]:
    """The versions of a game's suite shipped in its data folder."""
    folder = games.get(key).data_folder
    found = [name[len("suite-v"):-len(".json")] for name in os.listdir(folder)
             if name.startswith("suite-v") and name.endswith(".json")]
    return sorted(int(v) for v in found if v.isdigit())


# The shape of a suite file (JSON Schema): versions 1-3 keep one reference a position and
# the suite's parameters; version 4 gives each position its parameters, its measure and
# two references of independent seeds. Every count and size is bounded.
_WHOLE = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
_TEXT = {"type": "string", "maxLength": 1000}
_PARAMS = {"type": "object", "maxProperties": 32,
           "additionalProperties": {"type": ["integer", "string", "boolean"], "maxLength": 1000,
                                    "minimum": -2**31, "maximum": 2**31 - 1}}
_MEASURES = ["win probability", "expected score"]
_REFERENCE = {
    "type": "object", "required": ["bot", "iterations", "seed", "best", "moves"],
    "properties": {
        "bot": {"type": "string", "maxLength": 100}, "iterations": {"type": "integer", "minimum": 1, "maximum": 10**9},
        "seed": _WHOLE, "threads": {"type": "integer", "minimum": 1, "maximum": 64}, "best": _WHOLE,
        "best_text": _TEXT, "wall_seconds": {"type": "number", "minimum": 0}, "cpu_seconds": {"type": "number", "minimum": 0},
        "moves": {"type": "array", "minItems": 1, "maxItems": MAX_MOVES, "items": {
            "type": "object", "required": ["action", "share", "value"],
            "properties": {"action": _WHOLE, "text": _TEXT, "share": {"type": "number", "minimum": 0, "maximum": 1},
                           "value": {"type": "number"},
                           "interval": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"type": "number"},
                                                                      "minItems": 2, "maxItems": 2}]}}}}}}
_POSITION_KEYS = ["id", "kind", "player", "actions", "digest"]     # required in every version
_POSITION = {
    "type": "object", "required": _POSITION_KEYS,
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
               "errorMessage": "an id is 1-64 letters, digits, '-', '_' or '.' (it names a file)"},
        "kind": {"type": "string", "maxLength": 100}, "chance_seed": _WHOLE, "round": _WHOLE, "step": _TEXT,
        "player": {"type": "integer", "minimum": 0, "maximum": 63}, "legal": _WHOLE,
        "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": _WHOLE},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$", "errorMessage": "a digest is 64 hex digits"},
        "reference": _REFERENCE, "references": {"type": "array", "minItems": 2, "maxItems": 2, "items": _REFERENCE},
        "agree": {"type": "boolean"}, "params": _PARAMS, "measure": {"enum": _MEASURES},
        "players": {"type": "integer", "minimum": 1, "maximum": 64}, "hint_iterations": _WHOLE}}


def suite_schema(version: int) -> dict:
    """The JSON Schema of a suite file of `version`."""
    old = version < STRONG_VERSION
    position = dict(_POSITION, required=_POSITION_KEYS + (
        ["reference"] if old else ["references", "agree", "params", "measure", "players"]))
    return {"type": "object", "required": ["format", "version", "game", "measure", "positions"] + (["params"] if old else []),
            "properties": {"format": {"const": FORMAT}, "version": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION},
                           "game": {"enum": list(games.GAMES)}, "params": _PARAMS, "measure": {"enum": _MEASURES},
                           "made_by": {"type": "object"},
                           "positions": {"type": "array", "minItems": 1, "maxItems": MAX_POSITIONS, "items": position}}}


def suite_problems(data) -> list[tuple[str, str]]:
    """Every problem of a suite file's data: its shape (suite_schema), then what a shape
    cannot say (ids given twice, a best move its reference did not list, an agreement
    that is not the references')."""
    from gutenberg_ai.common.jsonfile import SchemaChecker
    if not isinstance(data, dict):
        return [("", "a suite file is a JSON object {...}")]
    version = data.get("version")
    problems = SchemaChecker(suite_schema(version if isinstance(version, int) else 1)).problems(data)
    if problems:
        return problems
    seen: set[str] = set()
    for k, pos in enumerate(data["positions"]):
        if pos["id"] in seen:
            problems.append((f"positions[{k}].id", f"{pos['id']!r} is given twice"))
        seen.add(pos["id"])
        refs = references_of(pos)
        for j, ref in enumerate(refs):
            if ref["best"] not in {m["action"] for m in ref["moves"]}:
                where = f"positions[{k}].reference" if "reference" in pos else f"positions[{k}].references[{j}]"
                problems.append((f"{where}.best", f"{ref['best']} is not among its moves"))
        if "agree" in pos and pos["agree"] != (refs[0]["best"] == refs[-1]["best"]):
            problems.append((f"positions[{k}].agree", f"must be {str(not pos['agree']).lower()}: "
                                                      "whether the references' best moves are the same"))
    return problems


def load_suite(key: str, version: int | None = None, path: str | None = None) -> dict:
    """A game's suite (the file of `version`, default the current one, or the file at
    `path`, which must then be of `version` where one is given), checked whole:
    FileDataError names every problem (suite_problems) and the file; the actions are
    replayed by position_state."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    asked = version
    if path is None:
        version = version or current_version(key)
        if version not in shipped_versions(key):
            raise ValueError(f"{games.get(key).title} has no suite v{version} (shipped: "
                             + ", ".join(f"v{v}" for v in shipped_versions(key)) + ")")
        path = suite_path(key, version)
    data, source, shown = read_json(path, FileDataError, MAX_SUITE_BYTES, "a benchmark suite")
    kind = program_file(data, besides=FORMAT)
    if kind is not None:
        problems = [("format", f"this is {kind.what}, not a benchmark suite (a suite is made by "
                               "`python -m gutenberg_ai.tools.suite make`)")]
    else:
        problems = suite_problems(data)
    if not problems and data["game"] != key:
        problems = [("game", f"this is a suite of {data['game']}, not of {key}")]
    if not problems and asked is not None and data["version"] != asked:
        problems = [("version", f"this is suite v{data['version']}, not the v{asked} asked for")]
    if problems:
        raise FileDataError.of(source, problems, shown)
    return data


def references_of(pos: dict) -> list[dict]:
    """A position's references: one (versions 1-3), two of independent seeds (4)."""
    return pos["references"] if "references" in pos else [pos["reference"]]


def move_values(pos: dict) -> dict[int, float]:
    """Each move's value at a position: the mean over the references that measured it."""
    found: dict[int, list[float]] = {}
    for ref in references_of(pos):
        for m in ref["moves"]:
            found.setdefault(m["action"], []).append(m["value"])
    return {a: sum(v) / len(v) for a, v in found.items()}


def best_move(pos: dict) -> int:
    """The reference's best move; where two references disagree, the one of their best
    moves whose value (move_values) is the higher."""
    values = move_values(pos)
    return max((ref["best"] for ref in references_of(pos)), key=lambda a: (values[a], -a))


def best_moves(pos: dict) -> list[int]:
    """The best move (best_move), first, and every move the references cannot tell from their
    best: measured by each of them, with a value within the 95% test of a difference of
    its best's, or above it (the hints' rule for level moves, hints.level_with). Where
    two moves are worth the same to the references (a character's two sides a ten-
    thousandth of win chance apart, an endgame decided whatever is played), which of them
    the references searched most is chance; a bot that plays either is among the best.
    A reference without intervals (versions 1-3) gives the best move alone."""
    from gutenberg_ai.search.hints import level_with
    best = best_move(pos)
    level: set[int] | None = None
    for ref in references_of(pos):
        measured = {m["action"]: m for m in ref["moves"]}
        top = measured.get(ref["best"])
        if top is None or not top.get("interval"):
            return [best]
        here = {a for a, m in measured.items()
                if m.get("interval") and level_with(top["value"], tuple(top["interval"]), m["value"], tuple(m["interval"]))}
        level = here if level is None else level & here
    return [best] + sorted((level or set()) - {best})


def replayed(game, actions: list, what: str):
    """The state `actions` reach from the start of `game`, each checked legal first
    (ValueError naming `what` otherwise)."""
    state = game.new_initial_state()
    for a in actions:
        legal = [x for x, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if state.is_terminal() or a not in legal:
            raise ValueError(f"{what}: action {a} is not legal here (another engine version?)")
        state.apply_action(a)
    return state


def position_state(suite: dict, pos: dict):
    """The state of a suite position (its actions replayed), checked against its digest."""
    from gutenberg_ai.games.records import state_digest
    game = games.get(suite["game"]).load(**pos.get("params", suite.get("params", {})))
    state = replayed(game, pos["actions"], f"suite position {pos['id']}")
    if state_digest(core_of(state)) != pos["digest"]:
        raise ValueError(f"suite position {pos['id']}: the actions lead elsewhere than when the suite "
                         "was made (another engine version?)")
    return state


def score_position(bot_name, key: str, version: int | None, k: int, seed: int, budget: dict,
                   factory=None, path: str | None = None) -> dict:
    """The bot's move at the suite's position k (seeded seed + k) and what it loses: the
    row of one position, the same wherever it is computed (this process or a Ray worker).
    Where the position's two references disagree on the best move, the row is scored by
    win chance lost only (`scored`)."""
    from gutenberg_ai.search.bots import make_bot
    suite = load_suite(key, version, path)
    pos = suite["positions"][k]
    strong = suite["version"] >= STRONG_VERSION     # two references a position, and ALONE_ITERATIONS
    state = position_state(suite, pos)
    p = state.current_player()
    bot = make_bot(factory or bot_name, state.get_game(), p, seed=seed + k, **budget)
    action = int(bot.step(state))
    values = move_values(pos)
    among = best_moves(pos)     # the best move first
    best = among[0]
    recheck = strong and action in values and rechecked(pos, values, best, action)
    if action == best:
        value, method = values[best], "best"
    elif action in values and not recheck:
        value, method = values[action], "reference"
    else:
        ref = references_of(pos)[0]
        # A move they did not measure: a bounded budget; one they rechecked: their whole budget.
        iterations = min(ref["iterations"], alone_iterations(pos)) if strong and not recheck else ref["iterations"]
        forced = reference_search(state, iterations, ref["seed"], bot=ref["bot"],
                                  threads=ref.get("threads", 1), root_action=action)
        value = forced["moves"][0][measure_of(state.get_game().num_players())[0]][p]
        method = "searched alone at the references' budget" if recheck else "searched alone"
    row = {"id": pos["id"], "kind": pos["kind"], "action": action,
           "text": state.action_to_string(p, action), "best": best,
           "agree": action == best, "among_best": action in among,
           "lost": max(0.0, values[best] - value), "method": method}
    if strong:
        row.update(players=pos["players"], measure=pos["measure"],
                   scored="agreement and win chance lost" if pos["agree"] else "win chance lost only")
    return row


def rechecked(pos: dict, values: dict, best: int, action: int) -> bool:
    """Whether a strong suite scores `action`, a move its references measured, by a search
    of it alone for the references' whole budget rather than by their value of it
    (`values`: move_values): at a position of the chance to win, a move each reference
    gave less than RECHECK_SHARE of its search and that they valued more than RECHECK_GAP
    below their best move `best`. A reference spends most of its search on its best move,
    and a move it gave a few percent is valued by a search some thirty times shorter,
    which can miss a deep line (docs/benchmark-suite.md, "The score")."""
    return (pos.get("measure") == "win probability" and values[best] - values[action] > RECHECK_GAP
            and all(m["share"] < RECHECK_SHARE for ref in references_of(pos) for m in ref["moves"]
                    if m["action"] == action))


def alone_iterations(pos: dict) -> int:
    """A strong suite's budget for a move its references did not measure at `pos` (at most
    the references' own: score_position)."""
    return max(ALONE_ITERATIONS, ALONE_HINTS * pos.get("hint_iterations", 0))


def bot_label(bot_name) -> str:
    """A bot's name in a report: its name, or a factory's function name."""
    return bot_name if isinstance(bot_name, str) else getattr(bot_name, "__name__", "bot")


def row_path(out: str, pos_id) -> str:
    return os.path.join(out, "positions", f"{pos_id}.json")


def written_rows(out: str | None) -> dict:
    """The rows an earlier run wrote in `out`, read once: {position id: {"task", "row"}}.
    A file that cannot be read is left out (its position is scored again)."""
    import glob
    import json
    if not out:
        return {}
    written = {}
    for path in sorted(glob.glob(os.path.join(glob.escape(out), "positions", "*.json"))):
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("task"), dict):
            written[os.path.basename(path)[:-len(".json")]] = data
    return written


def found_row(written: dict, task: dict):
    """The row written (written_rows) for this very task (bot, budget, seed, suite
    version and position), else None: a row of other settings is scored again."""
    data = written.get(str(task["id"]))
    return data.get("row") if data is not None and data["task"] == task else None


def check_rows_settings(out: str, written: dict, task: dict) -> None:
    """ValueError where `out` holds rows (written_rows) scored with other settings
    (another bot, budget, seed, game or suite) than `task`'s: their scores would be
    replaced one by one, so the folder is refused, as the arena refuses another run's
    settings."""
    from gutenberg_ai.common.jsonfile import show
    same = {k: v for k, v in task.items() if k not in ("index", "id")}
    for data in written.values():
        theirs = data["task"]
        for key, value in same.items():
            if theirs.get(key) != value:
                raise ValueError(f"out: {out} holds rows scored with {key} = {show(theirs.get(key))}, not "
                                 f"{show(value)}: give the same settings to go on, or another --out")


def scored_rows(bot_name, key: str, seed: int, version: int | None, progress, factory, budget: dict,
                out: str | None = None, jobs: int = 1, ray: str | None = None, path: str | None = None) -> list:
    """Every position's row, in the suite's order: found in `out` (rows written by an
    earlier run of the same settings), else scored here or, with `ray`, on a Ray cluster
    (gutenberg_ai.tools.cluster: "local" or an address; a task on a lost worker is run
    again). With `out`, each row is written there as it is scored: run again to resume."""
    from gutenberg_ai.games.records import write_json
    suite = load_suite(key, version, path)
    tasks = [{"bot": bot_label(bot_name), "game": key, "suite_version": suite["version"], "seed": seed, "budget": budget,
              "index": k, "id": pos["id"], **({"suite": os.path.abspath(path)} if path else {})}
             for k, pos in enumerate(suite["positions"])]
    written = written_rows(out)
    if out:
        check_rows_settings(out, written, tasks[0] if tasks else {})
    rows = [found_row(written, task) for task in tasks]
    done = sum(r is not None for r in rows)

    def keep(k, row):
        nonlocal done
        rows[k] = row
        if out:
            write_json(row_path(out, tasks[k]["id"]), {"task": tasks[k], "row": row})
        done += 1
        if progress:
            progress(done, len(tasks))
    todo = [k for k, r in enumerate(rows) if r is None]
    if ray is None:
        for k in todo:
            keep(k, score_position(bot_name, key, version, k, seed, budget, factory, path))
        return rows
    if factory is not None or not isinstance(bot_name, str):
        raise ValueError("ray: a bot object plays in this process only; give its name or module:factory")
    from gutenberg_ai.tools import cluster
    remote_ray, started = cluster.connect(ray, jobs)
    remote = remote_ray.remote(max_retries=cluster.MAX_RETRIES, num_cpus=1)(score_position)
    pending = {remote.remote(bot_name, key, version, k, seed, budget, None, path): k for k in todo}
    try:
        while pending:
            ready, _ = remote_ray.wait(list(pending), num_returns=1)
            keep(pending.pop(ready[0]), remote_ray.get(ready[0]))
    finally:
        for ref in pending:
            remote_ray.cancel(ref)
        if started:
            remote_ray.shutdown()
    return rows


def aggregate(rows: list, measure: str) -> dict:
    """The score of some rows: agreement over the rows whose references agree (all of
    them in versions 1-3; `agreement_over` says how many where some do not), with the
    reference's best move (`agreement`) and with any move among the best (best_moves:
    `agreement_among_best`), and the mean lost in `measure`, the suite's (a solo row's
    expected score lost: `mean_score_lost`)."""
    judged = [r for r in rows if r.get("scored", "agreement") != "win chance lost only"]
    same = [r["lost"] for r in rows if r.get("measure", measure) == measure]
    solo = [r["lost"] for r in rows if r.get("measure", measure) != measure]
    out = {"positions": len(rows),
           "agreement": sum(r["agree"] for r in judged) / len(judged) if judged else None,
           "agreement_among_best": (sum(r.get("among_best", r["agree"]) for r in judged) / len(judged)
                                    if judged else None),
           "mean_lost": sum(same) / len(same) if same else None}
    if len(judged) < len(rows):
        out["agreement_over"] = len(judged)
    if solo:
        out["mean_score_lost"] = sum(solo) / len(solo)
    return out


def score_bot(bot_name, key: str, seed: int = 0, version: int | None = None, progress=None,
              factory=None, out: str | None = None, jobs: int = 1, ray: str | None = None,
              path: str | None = None, **budget) -> dict:
    """Score a bot (a name, module:factory, or `factory`) on a game's suite (of `version`,
    or the file at `path`): agreement with the reference move and win chance lost, per
    position, per kind and, in a suite of several player counts, per player count. `out`,
    `jobs` and `ray`: where the rows are kept (resumable) and where they are scored
    (scored_rows)."""
    suite = load_suite(key, version, path)
    rows = scored_rows(bot_name, key, seed, version, progress, factory, budget, out, jobs, ray, path)
    kinds: dict[str, list[dict]] = {}
    counts: dict[str, list[dict]] = {}
    for r in rows:
        kinds.setdefault(r["kind"], []).append(r)
        if "players" in r:
            counts.setdefault(str(r["players"]), []).append(r)
    measure = suite["measure"]
    result = {"game": key, "suite_version": suite["version"], "bot": bot_label(bot_name), "budget": budget,
              "seed": seed, "measure": measure, "overall": aggregate(rows, measure),
              "kinds": {k: aggregate(v, measure) for k, v in sorted(kinds.items())}}
    if counts:
        result["players"] = {k: aggregate(v, measure) for k, v in sorted(counts.items())}
    split = sum(r.get("scored") == "win chance lost only" for r in rows)
    if split:
        result["note"] = (f"{split} of {len(rows)} positions, whose two references disagree on the best move, "
                          "are scored by win chance lost only: agreement is over the others")
    result["positions"] = rows
    return result


# ---------------------------------------------------------------------------------------
# Version 4: a suite from strong play, made resumably in a work folder
# ---------------------------------------------------------------------------------------
MAX_GAMES_PER_COUNT = 1000
MAX_MAKE_SEED = 10**9          # a make's seed; the games' chance seeds are derived from it
HINT_SECONDS = 2.0             # the hint a reference is measured against: at least 30 times its budget
HINT_MULTIPLE = 30             # a reference's iterations: at least this many times a HINT_SECONDS hint's at its position
PROBE_SECONDS = 0.5            # the search that measures a position's iterations a CPU second
WORK_SETTINGS = "settings.json"


def player_counts(key: str) -> list[int]:
    """The player counts a game is played with (1: its solo game, where it has one)."""
    game_type = games.get(key).load().get_type()
    return list(range(game_type.min_num_players, game_type.max_num_players + 1))


def strong_settings(key: str, positions: int = 60, games_per_count: int = 3, players: list | None = None,
                    bot: str = "learned", bot_budget: dict | None = None, reference_bot: str = "smmcts",
                    reference_budget: dict | None = None, threads: int | None = None, seed: int = 0,
                    hint_multiple: int = HINT_MULTIPLE) -> dict:
    """The settings of a strong suite, every one checked and bounded before any work
    (ValueError naming it): `positions` drawn from `games_per_count` games of `bot`
    (`bot_budget` a move, default 1,000 iterations) at each count of `players` (default
    all the game's), each searched twice (two seeds) by `reference_bot` for
    `reference_budget` (default 60 seconds) with `threads` (default all cores). An
    iterations budget is a floor: a position where iterations are cheap gets at least
    `hint_multiple` times the iterations a HINT_SECONDS hint on one thread makes there
    (position_budget; 0: the floor only)."""
    from gutenberg_ai.common import limits
    from gutenberg_ai.search.hints import HINT_BOTS
    key = games.get(key).key
    counts = player_counts(key)
    players = sorted(set(players)) if players else counts
    for n in players:
        if n not in counts:
            raise ValueError(f"players: {n!r} is not a player count of {games.get(key).title} "
                             f"({', '.join(map(str, counts))})")
    for what, name in (("bot", bot), ("reference bot", reference_bot)):
        if name not in HINT_BOTS:
            raise ValueError(f"{what}: {name!r} is not one of {', '.join(HINT_BOTS)} (a search of the hint's)")

    def budget(given, default, what):
        given = dict(given or default)
        if set(given) - {"seconds", "iterations"} or len(given) != 1:
            raise ValueError(f"{what}: give seconds or iterations, not {sorted(given)}")
        limits.check_budget(given.get("seconds"), given.get("iterations"), prefix=f"{what} ")
        return given
    return {"game": key, "players": players,
            "games_per_count": limits.check_whole(games_per_count, "games per count", 1, MAX_GAMES_PER_COUNT),
            "positions": limits.check_whole(positions, "positions", 1, MAX_POSITIONS),
            "bot": bot, "bot_budget": budget(bot_budget, {"iterations": 1000}, "bot budget"),
            "reference_bot": reference_bot,
            "reference_budget": budget(reference_budget, {"seconds": 60.0}, "reference budget"),
            "threads": limits.check_threads(threads if threads is not None else (os.cpu_count() or 1)),
            "seed": limits.check_whole(seed, "seed", 0, MAX_MAKE_SEED),
            "hint_multiple": limits.check_whole(hint_multiple, "hint multiple", 0, 1000)}


def read_work_file(path: str):
    """A file of the work folder (written by this module), or None if absent; a file
    that is not what it wrote is an error naming it (remove it to make it again)."""
    import json
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a file of a suite's work folder ({e}): remove it to make it again") from None
    if not isinstance(data, dict) or "task" not in data:
        raise ValueError(f"{path}: not a file of a suite's work folder: remove it to make it again")
    return data


def open_work(work: str, settings: dict) -> dict:
    """The work folder's settings: those given, written with the day the work started;
    a folder started with other settings is refused (its files would not fit them)."""
    import datetime
    from gutenberg_ai.games.records import write_json
    path = os.path.join(work, WORK_SETTINGS)
    found = read_work_file(path)
    if found is None:
        found = {"task": settings, "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}
        write_json(path, found)
    elif found["task"] != settings:
        differ = [k for k in sorted(set(settings) | set(found["task"])) if settings.get(k) != found["task"].get(k)]
        raise ValueError(f"{work}: this work folder was started with other settings ("
                         + "; ".join(f"{k}: {found['task'].get(k)!r} there, {settings.get(k)!r} now" for k in differ)
                         + "): give the same ones to go on, or another folder")
    return found


def game_task(settings: dict, players: int, n: int) -> dict:
    """What the n-th game at `players` is: its parameters, chance seed and bot."""
    return {"params": {"players": players}, "chance_seed": settings["seed"] * 1000 + players * 100 + n,
            "bot": settings["bot"], "bot_budget": settings["bot_budget"]}


def do_work(fn, entries: list[tuple], shape, names: tuple[str, str, str], work: str, processes: int = 1,
            progress=None) -> list[dict]:
    """The files of a work folder, each made once: an entry (path, task, *args) whose file
    holds its task is read, the others made by `fn(path, *args, task)` (writing the file),
    in `processes` processes (1: in this one, in their order). A file holding the task but
    not the `shape` fn writes is an error naming it. `names`: (one file, the files, what
    making one does) for the messages; `progress` told "k of n <files> found" and "k/n
    <done>". The files of a work folder are independent and seeded, so they do not
    depend on how many were made at once. Returns the files, in the entries' order."""
    todo = []
    for path, task, *args in entries:
        found = read_work_file(path)
        if found is not None and found["task"] == task and not shape(found):
            raise ValueError(f"{path}: not {names[0]} this module wrote: remove it to make it again")
        if found is None or found["task"] != task:
            todo.append((path, *args, task))
    if progress and len(todo) < len(entries):
        progress(f"{len(entries) - len(todo)} of {len(entries)} {names[1]} found in {work}")
    ended = 0

    def finished(_) -> None:
        nonlocal ended
        ended += 1
        if progress:
            progress(f"{ended}/{len(todo)} {names[2]}")

    run_each(fn, todo, processes, finished)
    return [read_work_file(path) for path, *_ in entries]


def play_work_game(path: str, key: str, task: dict) -> None:
    """One game of a work folder (of the game `key`), played and written to `path`."""
    import time
    from gutenberg_ai.games.records import write_json
    started = time.process_time()
    actions, decisions = decisions_of_game(games.get(key).load(**task["params"]), task["bot"],
                                           task["chance_seed"], **task["bot_budget"])
    write_json(path, {"task": task, "actions": actions,
                      "decisions": [list(d) for d in decisions],
                      "cpu_seconds": round(time.process_time() - started, 3)})


def play_work_games(work: str, settings: dict, progress=None, processes: int = 1) -> list[dict]:
    """Every game of the settings, each played once and written as it ends
    (work/games/<players>p-<n>.json), in `processes` processes: a game found there is
    not played again."""
    entries = [(os.path.join(work, "games", f"{players}p-{n + 1}.json"), game_task(settings, players, n),
                settings["game"]) for players in settings["players"] for n in range(settings["games_per_count"])]
    return do_work(play_work_game, entries, work_game_shape,
                   ("a game", "games", "games played"), work, processes, progress)


def work_game_shape(found: dict) -> bool:
    """Whether a game file of the work folder has the shape written: actions (whole
    numbers) and decisions ([actions before it, its kind]) within them."""
    actions, decisions = found.get("actions"), found.get("decisions")
    return (isinstance(actions, list) and all(type(a) is int for a in actions) and isinstance(decisions, list)
            and all(isinstance(d, list) and len(d) == 2 and type(d[0]) is int and 0 <= d[0] < len(actions)
                    and isinstance(d[1], str) for d in decisions))


def choose_positions(settings: dict, played: list[dict]) -> list[tuple[int, str, dict, int]]:
    """The positions drawn from the games' decisions, balanced: the cells (player count,
    kind) take one position each in turn, each its next one in an order shuffled with the
    seed, until there are `positions` (a cell with none left gives its turn to the
    others); the turns go round the player counts first (each count's first kind, then
    each one's second...), so that a few positions still span every count.
    (players, kind, game, actions before it), in the order of the cells."""
    cells: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for k, game in enumerate(played):
        for at, kind in game["decisions"]:
            cells.setdefault((game["task"]["params"]["players"], kind), []).append((k, at))
    rng = random.Random(f"suite/{settings['game']}/{settings['seed']}")
    for cell in sorted(cells):
        rng.shuffle(cells[cell])
    chosen: dict[tuple[int, str], list[tuple[int, int]]] = {cell: [] for cell in cells}
    left = min(settings["positions"], sum(len(c) for c in cells.values()))
    rank = {cell: sorted(k for n, k in cells if n == cell[0]).index(cell[1]) for cell in cells}
    turns = sorted(cells, key=lambda cell: (rank[cell], cell[0]))
    while left:
        for cell in turns:
            if cells[cell] and left:
                chosen[cell].append(cells[cell].pop())
                left -= 1
    return [(players, kind, played[k], at) for (players, kind), picks in sorted(chosen.items())
            for k, at in sorted(picks)]


def strong_positions(settings: dict, played: list[dict]) -> list[dict]:
    """The chosen positions, each as the suite keeps it, without its references yet."""
    from gutenberg_ai.games.records import state_digest
    g = games.get(settings["game"])
    out = []
    numbers: dict[tuple[int, str], int] = {}
    for players, kind, game, at in choose_positions(settings, played):
        numbers[(players, kind)] = numbers.get((players, kind), 0) + 1
        params = game["task"]["params"]
        state = replayed(g.load(**params), game["actions"][:at],
                         f"the game of {players} players, chance seed {game['task']['chance_seed']}")
        core = core_of(state)
        out.append({"id": f"{players}p-{kind.replace(' ', '-')}-{numbers[(players, kind)]}", "kind": kind,
                    "players": players, "params": params, "chance_seed": game["task"]["chance_seed"],
                    "round": core.round, "step": core.step_name(), "player": state.current_player(),
                    "legal": len(state.legal_actions()), "actions": game["actions"][:at],
                    "digest": state_digest(core), "measure": measure_of(players)[1]})
    return out


def reference_seed(settings: dict, pos_id: str, j: int) -> int:
    """The seed of a position's j-th reference: independent of the other's."""
    return random.Random(f"suite-reference/{settings['seed']}/{pos_id}/{j}").getrandbits(62)


def hint_iterations(state, bot: str) -> int:
    """About the iterations a HINT_SECONDS hint on one thread makes at `state`: the
    iterations of a PROBE_SECONDS search of `bot` a CPU second (so that a busy machine
    does not lower it), times HINT_SECONDS."""
    import time
    cpu = time.process_time()
    result = reference_search(state, None, 0, bot=bot, seconds=PROBE_SECONDS)
    return round(HINT_SECONDS * result["iterations"] / max(time.process_time() - cpu, 1e-3))


def raised_by_hint(settings: dict) -> bool:
    """Whether the settings raise a position's references above their budget where a hint
    there makes many iterations: an iterations budget and a hint multiple."""
    return "iterations" in settings["reference_budget"] and settings["hint_multiple"] > 0


def position_budget(settings: dict, hint: int | None) -> dict:
    """A position's reference budget: the settings' (a seconds budget as it is); an
    iterations budget raised to `hint_multiple` times the position's `hint` iterations
    where that is more, in whole thousands, within limits.MAX_ITERATIONS."""
    from gutenberg_ai.common import limits
    budget = settings["reference_budget"]
    if not raised_by_hint(settings) or hint is None:
        return budget
    wanted = -(-settings["hint_multiple"] * hint // 1000) * 1000
    return {"iterations": min(max(budget["iterations"], wanted), limits.MAX_ITERATIONS)}


def suite_header(suite: dict) -> dict:
    """The suite without its positions: what a worker needs beside the one position it
    is given (the game, its parameters, how the suite is made)."""
    return {k: v for k, v in suite.items() if k != "positions"}


def probe_work_position(path: str, suite: dict, pos: dict, task: dict) -> None:
    """A position's hint iterations (hint_iterations), measured and written to `path`."""
    from gutenberg_ai.games.records import write_json
    write_json(path, {"task": task, "hint_iterations": hint_iterations(position_state(suite, pos), task["bot"])})


def probe_positions(work: str, settings: dict, suite: dict, progress=None, processes: int = 1) -> None:
    """Each position's hint iterations (pos["hint_iterations"]), measured once and written
    as it ends (work/probes/<id>.json), where the references' budget is in iterations and
    raised by them (settings' hint_multiple); a probe found there is not made again, so
    the budgets stay those of the first run."""
    if not raised_by_hint(settings):
        return
    header = suite_header(suite)
    entries = [(os.path.join(work, "probes", f"{pos['id']}.json"),
                {"id": pos["id"], "digest": pos["digest"], "bot": settings["reference_bot"],
                 "hint_seconds": HINT_SECONDS, "probe_seconds": PROBE_SECONDS}, header, pos)
               for pos in suite["positions"]]
    probes = do_work(probe_work_position, entries,
                     lambda found: type(found.get("hint_iterations")) is int and 1 <= found["hint_iterations"] <= 10**12,
                     ("a probe", "positions' hint iterations", "positions' hint iterations measured"),
                     work, processes, progress)
    for pos, probe in zip(suite["positions"], probes):
        pos["hint_iterations"] = probe["hint_iterations"]


def strong_reference(state, settings: dict, seed: int, budget: dict) -> dict:
    """One reference search of a position for `budget`, with what it took (CPU and wall
    seconds)."""
    import time
    wall, cpu = time.perf_counter(), time.process_time()
    result = reference_search(state, budget.get("iterations"), seed, bot=settings["reference_bot"],
                              threads=settings["threads"], seconds=budget.get("seconds"))
    return {"bot": settings["reference_bot"], "iterations": result["iterations"], "seed": seed,
            "threads": settings["threads"], "wall_seconds": round(time.perf_counter() - wall, 3),
            "cpu_seconds": round(time.process_time() - cpu, 3), **reference_record(state, result, intervals=True)}


def search_work_reference(path: str, suite: dict, pos: dict, settings: dict, task: dict) -> None:
    """One reference of a work folder, searched and written to `path`."""
    from gutenberg_ai.games.records import write_json
    write_json(path, {"task": task, "reference": strong_reference(position_state(suite, pos), settings, task["seed"],
                                                                  task["budget"])})


def make_references(work: str, settings: dict, suite: dict, progress=None, processes: int = 1) -> None:
    """Both references of every position, each searched once and written as it ends
    (work/references/<id>.<j>.json), in `processes` processes; then each position says
    whether they agree."""
    positions = suite["positions"]
    header = suite_header(suite)
    entries = [(os.path.join(work, "references", f"{pos['id']}.{j + 1}.json"),
                {"id": pos["id"], "digest": pos["digest"], "seed": reference_seed(settings, pos["id"], j),
                 "bot": settings["reference_bot"], "budget": position_budget(settings, pos.get("hint_iterations")),
                 "threads": settings["threads"]}, header, pos, settings)
               for pos in positions for j in range(2)]
    found = do_work(search_work_reference, entries,
                    lambda found: isinstance(found.get("reference"), dict) and "best" in found["reference"],
                    ("a reference", "references", "references searched"), work, processes, progress)
    for k, pos in enumerate(positions):
        pos["references"] = [f["reference"] for f in found[2 * k:2 * k + 2]]
        pos["agree"] = pos["references"][0]["best"] == pos["references"][1]["best"]


def make_strong_suite(key: str, work: str, progress=None, processes: int = 1, version: int = STRONG_VERSION,
                      **options) -> dict:
    """A strong suite (strong_settings's `options`) of `version` (STRONG_VERSION or a later
    one: a game's strong suite remade is a new version), made in the folder `work`: every
    game and every reference is written there as it ends, and the same call goes on from
    there after a stop (a kill included), giving the same suite as an uninterrupted run
    but for the seconds measured, whatever the `processes` the games and references are
    shared among. The header says how it was made."""
    from gutenberg_ai.common import limits
    settings = strong_settings(key, **options)
    processes = limits.check_whole(processes, "processes", 1, limits.MAX_JOBS)
    version = limits.check_whole(version, "version", STRONG_VERSION, MAX_VERSION)
    started = open_work(work, settings)["started"]
    played = play_work_games(work, settings, progress, processes)
    suite = {"format": FORMAT, "version": version, "game": settings["game"],
             "measure": measure_of(2 if any(n > 1 for n in settings["players"]) else 1)[1],
             "positions": strong_positions(settings, played)}
    probe_positions(work, settings, suite, progress, processes)
    make_references(work, settings, suite, progress, processes)
    refs = [r for pos in suite["positions"] for r in pos["references"]]
    hint_budget = {"seconds": HINT_SECONDS, "threads": settings["threads"]}
    suite["made_by"] = {
        "method": "strong play, two references of independent seeds a position", **settings,
        "games": len(played), "started": started, "hint_compared": hint_budget,
        "reference_seconds": {"references": len(refs), "wall": round(sum(r["wall_seconds"] for r in refs), 1),
                              "cpu": round(sum(r["cpu_seconds"] for r in refs), 1)},
        "agreement": {"positions": len(suite["positions"]), "agree": sum(p["agree"] for p in suite["positions"])}}
    suite["positions"] = suite.pop("positions")     # the header first
    problems = suite_problems(suite)
    if problems:    # a file of the work folder changed by hand: name it, write nothing
        ids = {f"positions[{k}]": pos["id"] for k, pos in enumerate(suite["positions"])}
        raise ValueError("\n".join(
            f"{work}: {where}" + (f" (references/{ids[where.split('.')[0]]}.1.json or .2.json)"
                                  if where.split(".")[0] in ids else "") + f": {why}" for where, why in problems))
    return suite


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.1f} s"


def suite_page(data: dict, source: str) -> str:
    """The Markdown page of a suite (docs/suites/): how it was made, its positions per
    kind and player count, how long its references took and how well the two seeds
    agree, written from the suite file `data` (named `source`), never by hand."""
    import json
    from gutenberg_ai.common.words import budget_words
    title = games.get(data["game"]).title
    positions = data["positions"]
    counts = sorted({p.get("players", data.get("params", {}).get("players", 2)) for p in positions})
    kinds = sorted({p["kind"] for p in positions})
    made = data.get("made_by", {})
    lines = [f"# {title}: benchmark suite v{data['version']}", "",
             f"Written by `python -m gutenberg_ai.tools.suite page {source}` from the suite file "
             f"`{source}`: remade from the file, not edited by hand. [The benchmark suite](../benchmark-suite.md) "
             "says how suites are made and scored.", "",
             f"{len(positions)} positions; the measure: {data['measure']}.", ""]
    # The game's parameters besides the players, which the positions replay under (a rule
    # added since, e.g. Lead Letter Printers's factory piles dealt face down).
    extra = sorted({f"`{k}` {json.dumps(v)}" for p in positions
                    for k, v in p.get("params", data.get("params", {})).items() if k != "players"})
    if extra:
        lines += ["The positions replay with these game parameters besides the players: "
                  + ", ".join(extra) + ".", ""]
    lines += ["## How it was made", ""]
    def shown(v):
        if isinstance(v, dict) and set(v) <= {"seconds", "iterations"}:
            return budget_words(v)
        return ", ".join(map(str, v)) if isinstance(v, list) else str(v)
    lines += [f"- {k.replace('_', ' ')}: {shown(v)}" for k, v in made.items()
              if k not in ("reference_seconds", "agreement", "hint_compared")]
    lines += ["", "## Positions per kind and player count", "",
              "| kind | " + " | ".join(f"{n} player{'s' if n > 1 else ''}" for n in counts) + " | all |",
              "| --- |" + " --- |" * (len(counts) + 1)]
    for kind in kinds + ["all"]:
        cells = [sum(1 for p in positions if (kind == "all" or p["kind"] == kind)
                     and p.get("players", counts[0] if len(counts) == 1 else None) == n) for n in counts]
        lines.append(f"| {kind} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    refs = [r for p in positions for r in references_of(p)]
    lines += ["", "## The references", ""]
    timed = [r for r in refs if "wall_seconds" in r]
    first = refs[0]
    lines.append(f"Each by `{first['bot']}`, " + (f"{len(references_of(positions[0]))} a position (independent seeds)"
                                                  if "references" in positions[0] else "one a position")
                 + f"; {min(r['iterations'] for r in refs):,} to {max(r['iterations'] for r in refs):,} iterations.")
    if timed:
        budget = made.get("reference_budget")
        if budget:
            ratio = f" ({budget['seconds'] / HINT_SECONDS:g} times a {HINT_SECONDS:g}-second hint's)" \
                if "seconds" in budget else ""
            lines.append(f"A budget of {budget_words(budget)} each{ratio}, {first.get('threads', 1)} thread(s).")
        probed = [p for p in positions if "hint_iterations" in p]
        if probed and made.get("hint_multiple"):
            raised = [p for p in probed if min(r["iterations"] for r in p["references"]) > budget["iterations"]]
            lines.append(f"At a position where iterations are cheap, at least {made['hint_multiple']} times the "
                         f"iterations of a {HINT_SECONDS:g}-second one-thread hint there (measured at each position: "
                         f"{min(p['hint_iterations'] for p in probed):,} to {max(p['hint_iterations'] for p in probed):,}); "
                         f"{len(raised)} of {len(positions)} positions were searched longer for it.")
        wall = [r["wall_seconds"] for r in timed]
        cpu = [r["cpu_seconds"] for r in timed]
        lines += ["", "| references | wall, in all | CPU, in all | wall a reference (least-most) | CPU a reference (least-most) |",
                  "| --- | --- | --- | --- | --- |",
                  f"| {len(timed)} | {_hours(sum(wall))} | {_hours(sum(cpu))} | {min(wall):.1f}-{max(wall):.1f} s "
                  f"| {min(cpu):.1f}-{max(cpu):.1f} s |"]
    else:
        lines.append("How long they took was not recorded (versions 1-3).")
    lines += ["", "## How well the two seeds agree", ""]
    paired = [p for p in positions if "references" in p]
    if not paired:
        lines.append("One reference a position: not measured (versions 1-3).")
    else:
        agree = sum(p["agree"] for p in paired)
        several = {p["id"] for p in paired if len(best_moves(p)) > 1}
        lines += [f"The two references chose the same best move at {agree} of {len(paired)} positions "
                  f"({agree / len(paired):.0%}); the others are scored by win chance lost only. At "
                  f"{len(several)} positions they cannot tell other moves from their best (values level "
                  "by the hints' rule: `best_moves`); a bot that plays one of those is among the best.", "",
                  "| kind | positions | same best move | more than one among the best |", "| --- | --- | --- | --- |"]
        for kind in kinds:
            ps = [p for p in paired if p["kind"] == kind]
            lines.append(f"| {kind} | {len(ps)} | {sum(p['agree'] for p in ps)} | {sum(p['id'] in several for p in ps)} |")
        split = [p for p in paired if not p["agree"]]
        if split:
            lines += ["", "Where they disagree:", ""]
            lines += [f"- `{p['id']}`: {p['references'][0]['best_text']} / {p['references'][1]['best_text']}"
                      for p in split]
    return "\n".join(lines) + "\n"


def page_name(data: dict) -> str:
    """The file name of a suite's page in docs/suites/."""
    return f"{data['game']}-v{data['version']}.md"


def write_suite(data: dict, path: str):
    from gutenberg_ai.games.records import write_json
    write_json(path, data)


def main_make(argv) -> int:
    """Make a game's strong suite (version 4, or --version) in a work folder: python -m
    gutenberg_ai.tools.suite make --game G --work DIR. Every game and every reference is
    written to DIR as it ends; the same command goes on after a stop. The suite file is
    written only once every reference is there."""
    import argparse
    p = argparse.ArgumentParser(prog="python -m gutenberg_ai.tools.suite make", description=main_make.__doc__)
    p.add_argument("--game", default="gutenberg")
    p.add_argument("--work", required=True, metavar="DIR", help="the work folder (made if absent)")
    p.add_argument("--out", default=None, metavar="FILE", help="the suite file (default DIR/suite-vN.json)")
    p.add_argument("--version", type=int, default=STRONG_VERSION,
                   help=f"the suite's version (default {STRONG_VERSION}; a game's strong suite remade takes the next one)")
    p.add_argument("--positions", type=int, default=60, help="positions (default 60)")
    p.add_argument("--games-per-count", type=int, default=3, help="games at each player count (default 3)")
    p.add_argument("--players", default=None, help="player counts, e.g. 2,3,4 (default all the game's, solo included)")
    p.add_argument("--bot", default="learned", help="the bot of the games (default learned)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--bot-iterations", type=int, default=None, help="its iterations a move (default 1000)")
    group.add_argument("--bot-seconds", type=float, default=None, help="its seconds a move")
    p.add_argument("--reference-bot", default="smmcts", help="the references' search (default smmcts, the hint's)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--reference-seconds", type=float, default=None, help="seconds a reference (default 60)")
    group.add_argument("--reference-iterations", type=int, default=None, help="iterations a reference")
    p.add_argument("--hint-multiple", type=int, default=HINT_MULTIPLE,
                   help=f"with --reference-iterations: at a position where iterations are cheap, at least this many "
                        f"times the iterations of a {HINT_SECONDS:g}-second one-thread hint there (default "
                        f"{HINT_MULTIPLE}; 0: the iterations given only)")
    p.add_argument("--threads", type=int, default=None, help="threads a reference (default all cores)")
    p.add_argument("--jobs", type=int, default=1,
                   help="games and references searched at once, each in a process of its own (default 1; "
                        "the suite is the same whatever the jobs)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    def budget(seconds, iterations):
        return {"seconds": seconds} if seconds is not None else {"iterations": iterations} if iterations is not None else None
    try:
        players = [int(n) for n in args.players.split(",")] if args.players else None
    except ValueError:
        return _refused("make", f"--players: {args.players!r} is not a list of player counts such as 2,3,4")
    from gutenberg_ai.common import limits
    try:
        limits.check_whole(args.jobs, "--jobs", 1, limits.MAX_JOBS)
    except ValueError as e:
        return _refused("make", str(e))
    try:
        if args.out:
            refuse_shipped(args.game, args.out)
        data = make_strong_suite(args.game, args.work, progress=lambda said: print(said, flush=True),
                                 positions=args.positions, games_per_count=args.games_per_count, players=players,
                                 bot=args.bot, bot_budget=budget(args.bot_seconds, args.bot_iterations),
                                 reference_bot=args.reference_bot, threads=args.threads, seed=args.seed,
                                 processes=args.jobs, hint_multiple=args.hint_multiple, version=args.version,
                                 reference_budget=budget(args.reference_seconds, args.reference_iterations))
        out = args.out or os.path.join(args.work, f"suite-v{data['version']}.json")
        write_suite(data, out)
    except (ValueError, OSError) as e:
        return _refused("make", str(e))
    except KeyboardInterrupt:
        print("suite make: interrupted; the same command goes on from there", file=sys.stderr)
        return 130
    print(f"{len(data['positions'])} positions written to {out}")
    return 0


def main_page(argv) -> int:
    """Write the Markdown page of a suite file (docs/suites/GAME-vN.md by default)."""
    import argparse
    p = argparse.ArgumentParser(prog="python -m gutenberg_ai.tools.suite page", description=main_page.__doc__)
    p.add_argument("suite", metavar="FILE", help="a suite file")
    p.add_argument("--out", default=None, metavar="FILE", help="the page (default docs/suites/GAME-vN.md)")
    args = p.parse_args(argv)
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    try:
        data, source, shown = read_json(args.suite, FileDataError, MAX_SUITE_BYTES, "a benchmark suite")
        problems = suite_problems(data)
        if problems:
            raise FileDataError.of(source, problems, shown)
        out = args.out or os.path.join("docs", "suites", page_name(data))
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(suite_page(data, args.suite))
    except (ValueError, OSError) as e:
        return _refused("page", str(e))
    print(f"written {out}")
    return 0


def _refused(command: str, why: str) -> int:
    for line in why.split("\n"):
        print(f"suite {command}: {line}", file=sys.stderr)
    return 2


def main(argv=None):
    """Make a suite of the first versions' form: python -m gutenberg_ai.tools.suite --game G
    --version N --out FILE (the settings that made Gutenberg's v1 are the defaults; those of
    any shipped version are its file's `made_by`). `make` makes a strong suite (version 4
    on, main_make), `page` a suite's page (main_page)."""
    import argparse
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["make"]:
        return main_make(argv[1:])
    if argv[:1] == ["page"]:
        return main_page(argv[1:])
    p = argparse.ArgumentParser(prog="python -m gutenberg_ai.tools.suite", description=main.__doc__)
    p.add_argument("--game", default="gutenberg")
    p.add_argument("--per-kind", type=int, default=4)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--bot-iterations", type=int, default=300)
    p.add_argument("--reference-iterations", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--version", type=int, default=1, help=f"the version it is (1 to {STRONG_VERSION - 1}; default 1)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the suite file to write (never a suite the game ships)")
    args = p.parse_args(argv)
    try:
        refuse_shipped(args.game, args.out)
        data = make_suite(args.game, per_kind=args.per_kind, games_=args.games, bot_iterations=args.bot_iterations,
                          reference_iterations=args.reference_iterations, seed=args.seed, version=args.version,
                          progress=lambda d, n: print(f"{d}/{n} positions searched", flush=True))
        write_suite(data, args.out)
    except (ValueError, OSError) as e:
        return _refused("remake", str(e))
    print(f"{len(data['positions'])} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
