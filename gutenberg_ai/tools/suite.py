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
is the share of positions where it plays the reference's best move; *win chance lost*
is, as in a game review, the reference value of the best move less that of the bot's
move: from the reference's statistics when the reference gave that move at least
MIN_SHARE of its search, else measured now by a search of the same budget and seed with
that move forced at the root. Hidden information is handled as in the review: the
reference searched from the information state of the player to move.
"""
from __future__ import annotations

import os
import random

from gutenberg_ai import games
from gutenberg_ai.games import core_of

# The current suite of each game. Lead Letter Printers is at v2: its v1 positions were
# played under rules since corrected (a shop shared at setup), so their actions no longer
# replay. Printing Press is at v3: its v1 (a bonus marker beside a lone "1", an empty
# window) and its v2 (setup tokens only at the player's own decisions, none before a
# step's order) likewise.
SUITE_VERSIONS = {"gutenberg": 1, "printing-press": 3, "lead-letter-printers": 2}
# The suites from strong play (suite_work: the learned bot's games at 2, 3, 4 players and
# solo, two references of independent seeds a position) are version 4 in every game: the
# first number no game has used (Printing Press ships a v3 made the old way), so one
# number names one method. A game's default moves to 4 when its file ships.
STRONG_VERSION = 4
MIN_SHARE = 0.01
FORMAT = "gutenberg-ai-suite"
MAX_POSITIONS = 10_000        # positions a suite file may hold
MAX_ACTIONS = 100_000         # actions leading to one position
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


def reference_record(state, result: dict) -> dict:
    """A long search's root statistics as a suite keeps them: its best move (the most
    searched) and each move given at least MIN_SHARE of the search, with its share and
    value (the measure of the player to move)."""
    p = state.current_player()
    statistic, _ = measure_of(state.get_game().num_players())
    total = sum(m["visits"] for m in result["moves"])
    return {"best": result["moves"][0]["action"],
            "best_text": state.action_to_string(p, result["moves"][0]["action"]),
            "moves": [{"action": m["action"], "text": state.action_to_string(p, m["action"]),
                       "share": m["visits"] / total, "value": m[statistic][p]}
                      for m in result["moves"] if m["visits"] >= MIN_SHARE * total]}


def make_suite(key: str, per_kind: int = 4, games_: int = 4, bot: str = "smmcts", bot_iterations: int = 300,
               reference_iterations: int = 20000, seed: int = 0, params: dict | None = None,
               progress=None) -> dict:
    """Build a suite: `games_` self-play games of `bot` (`bot_iterations` a move, chance
    seeds seed..), their decisions with more than one move grouped by kind, `per_kind`
    of each kind drawn with `seed`, each searched for `reference_iterations`."""
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
    return {"format": FORMAT, "version": current_version(key), "game": key, "params": params,
            "measure": measure_of(game.num_players())[1],
            "made_by": {"bot": bot, "bot_iterations": bot_iterations, "games": games_, "seed": seed,
                        "per_kind": per_kind, "reference_iterations": reference_iterations},
            "positions": positions}


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
_POSITION = {
    "type": "object", "required": ["id", "kind", "player", "actions", "digest"],
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
               "errorMessage": "an id is 1-64 letters, digits, '-', '_' or '.' (it names a file)"},
        "kind": {"type": "string", "maxLength": 100}, "chance_seed": _WHOLE, "round": _WHOLE, "step": _TEXT,
        "player": {"type": "integer", "minimum": 0, "maximum": 63}, "legal": _WHOLE,
        "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": _WHOLE},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$", "errorMessage": "a digest is 64 hex digits"},
        "reference": _REFERENCE, "references": {"type": "array", "minItems": 2, "maxItems": 2, "items": _REFERENCE},
        "agree": {"type": "boolean"}, "params": _PARAMS, "measure": {"enum": _MEASURES},
        "players": {"type": "integer", "minimum": 1, "maximum": 64}}}


def suite_schema(version: int) -> dict:
    """The JSON Schema of a suite file of `version`."""
    old = version < STRONG_VERSION
    position = dict(_POSITION, required=_POSITION["required"] + (
        ["reference"] if old else ["references", "agree", "params", "measure", "players"]))
    return {"type": "object", "required": ["format", "version", "game", "measure", "positions"] + (["params"] if old else []),
            "properties": {"format": {"const": FORMAT}, "version": {"type": "integer", "minimum": 1, "maximum": 99},
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
    `path`), checked whole: FileDataError names every problem (suite_problems) and the
    file; the actions are replayed by position_state."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    if path is None:
        version = version or current_version(key)
        if version not in shipped_versions(key):
            raise ValueError(f"{games.get(key).title} has no suite v{version} (shipped: "
                             + ", ".join(f"v{v}" for v in shipped_versions(key)) + ")")
        path = suite_path(key, version)
    data, source, shown = read_json(path, FileDataError, 64 << 20, "a benchmark suite")
    problems = suite_problems(data)
    if not problems and data["game"] != key:
        problems = [("game", f"this is a suite of {data['game']}, not of {key}")]
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


def position_state(suite: dict, pos: dict):
    """The state of a suite position (its actions replayed), checked against its digest."""
    from gutenberg_ai.games.records import state_digest
    game = games.get(suite["game"]).load(**pos.get("params", suite.get("params", {})))
    state = game.new_initial_state()
    for a in pos["actions"]:
        legal = [x for x, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if a not in legal:
            raise ValueError(f"suite position {pos['id']}: action {a} is not legal here (another engine version?)")
        state.apply_action(a)
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
    state = position_state(suite, pos)
    p = state.current_player()
    bot = make_bot(factory or bot_name, state.get_game(), p, seed=seed + k, **budget)
    action = int(bot.step(state))
    values = move_values(pos)
    best = best_move(pos)
    if action == best:
        value, method = values[best], "best"
    elif action in values:
        value, method = values[action], "reference"
    else:
        ref = references_of(pos)[0]
        forced = reference_search(state, ref["iterations"], ref["seed"], bot=ref["bot"],
                                  threads=ref.get("threads", 1), root_action=action)
        value, method = forced["moves"][0][measure_of(state.get_game().num_players())[0]][p], "searched alone"
    row = {"id": pos["id"], "kind": pos["kind"], "action": action,
           "text": state.action_to_string(p, action), "best": best,
           "agree": action == best, "lost": max(0.0, values[best] - value), "method": method}
    if "references" in pos:
        row.update(players=pos["players"], measure=pos["measure"],
                   scored="agreement and win chance lost" if pos["agree"] else "win chance lost only")
    return row


def bot_label(bot_name) -> str:
    """A bot's name in a report: its name, or a factory's function name."""
    return bot_name if isinstance(bot_name, str) else getattr(bot_name, "__name__", "bot")


def row_path(out: str, pos_id) -> str:
    return os.path.join(out, "positions", f"{pos_id}.json")


def found_row(out: str | None, task: dict):
    """The row written in `out` for this very task (bot, budget, seed, suite version and
    position), else None: a row of other settings is scored again."""
    if not out or not os.path.exists(row_path(out, task["id"])):
        return None
    import json
    try:
        with open(row_path(out, task["id"])) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data.get("row") if isinstance(data, dict) and data.get("task") == task else None


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
    rows = [found_row(out, task) for task in tasks]
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
    them in versions 1-3; `agreement_over` says how many where some do not), and the mean
    lost in `measure`, the suite's (a solo row's expected score lost: `mean_score_lost`)."""
    judged = [r for r in rows if r.get("scored", "agreement") != "win chance lost only"]
    same = [r["lost"] for r in rows if r.get("measure", measure) == measure]
    solo = [r["lost"] for r in rows if r.get("measure", measure) != measure]
    out = {"positions": len(rows),
           "agreement": sum(r["agree"] for r in judged) / len(judged) if judged else None,
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


def write_suite(data: dict, path: str):
    from gutenberg_ai.games.records import write_json
    write_json(path, data)


def main(argv=None):
    """Remake a game's suite file: python -m gutenberg_ai.tools.suite --game G (the settings
    that made Gutenberg's v1 are the defaults; a changed suite is a new version)."""
    import argparse
    p = argparse.ArgumentParser(prog="python -m gutenberg_ai.tools.suite", description=main.__doc__)
    p.add_argument("--game", default="gutenberg")
    p.add_argument("--per-kind", type=int, default=4)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--bot-iterations", type=int, default=300)
    p.add_argument("--reference-iterations", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="default: the game's data/suite-vN.json")
    args = p.parse_args(argv)
    data = make_suite(args.game, per_kind=args.per_kind, games_=args.games, bot_iterations=args.bot_iterations,
                      reference_iterations=args.reference_iterations, seed=args.seed,
                      progress=lambda d, n: print(f"{d}/{n} positions searched", flush=True))
    write_suite(data, args.out or suite_path(args.game))
    print(f"{len(data['positions'])} positions written to {args.out or suite_path(args.game)}")


if __name__ == "__main__":
    main()
