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
MIN_SHARE = 0.01
FORMAT = "gutenberg-ai-suite"


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


def reference_search(state, iterations: int, seed: int, bot: str = "smmcts", threads: int = 1,
                     root_action=None) -> dict:
    """The long search of a position: its root statistics (the hint's search)."""
    core = core_of(state)
    g = games.of(core)
    solo = core.num_players == 1
    options = {"returns": "score" if solo else "win"}
    if root_action is not None:
        options["root_action"] = root_action
    return g.core.search(core, bot, iterations=iterations, seed=seed, threads=threads,
                         batches=g.core.BATCHES, **options)


def make_suite(key: str, per_kind: int = 4, games_: int = 4, bot: str = "smmcts", bot_iterations: int = 300,
               reference_iterations: int = 20000, seed: int = 0, params: dict | None = None,
               progress=None) -> dict:
    """Build a suite: `games_` self-play games of `bot` (`bot_iterations` a move, chance
    seeds seed..), their decisions with more than one move grouped by kind, `per_kind`
    of each kind drawn with `seed`, each searched for `reference_iterations`."""
    from gutenberg_ai.search.bots import make_bot
    from gutenberg_ai.games.records import CHANCE, draw_chance, state_digest
    g = games.get(key)
    params = dict(params or {"players": 2})
    game = g.load(**params)
    by_kind: dict[str, list[tuple[int, list[int]]]] = {}
    for n in range(games_):
        chance_seed = seed + n
        bots = [make_bot(bot, game, p, seed=chance_seed * 8 + p, iterations=bot_iterations)
                for p in range(game.num_players())]
        state = game.new_initial_state()
        actions: list[int] = []
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                a = draw_chance(state, chance_seed)
            else:
                if len(state.legal_actions()) > 1:
                    by_kind.setdefault(position_kind(core_of(state)), []).append((chance_seed, list(actions)))
                a = bots[p].step(state)
            actions.append(int(a))
            state.apply_action(a)
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
        measure = "fame" if core.num_players == 1 else "win"
        total = sum(m["visits"] for m in result["moves"])
        positions.append({
            "id": f"{kind.replace(' ', '-')}-{i + 1}", "kind": kind, "chance_seed": chance_seed,
            "round": core.round, "step": core.step_name(), "player": p, "legal": len(state.legal_actions()),
            "actions": actions, "digest": state_digest(core),
            "reference": {"bot": "smmcts", "iterations": result["iterations"], "seed": ref_seed,
                          "best": result["moves"][0]["action"],
                          "best_text": state.action_to_string(p, result["moves"][0]["action"]),
                          "moves": [{"action": m["action"], "text": state.action_to_string(p, m["action"]),
                                     "share": m["visits"] / total, "value": m[measure][p]}
                                    for m in result["moves"] if m["visits"] >= MIN_SHARE * total]}})
        if progress:
            progress(k + 1, len(chosen))
    return {"format": FORMAT, "version": current_version(key), "game": key, "params": params,
            "measure": "expected score" if game.num_players() == 1 else "win probability",
            "made_by": {"bot": bot, "bot_iterations": bot_iterations, "games": games_, "seed": seed,
                        "per_kind": per_kind, "reference_iterations": reference_iterations},
            "positions": positions}


def load_suite(key: str, version: int | None = None, path: str | None = None) -> dict:
    """A game's suite, checked: the format, the game, and every position's actions
    replaying to its digest (SuiteError names the position otherwise)."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    path = path or suite_path(key, version)
    data, _, _ = read_json(path, FileDataError, 64 << 20, "a benchmark suite")
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != key:
        raise ValueError(f"{path}: not a benchmark suite of {key}")
    return data


def position_state(suite: dict, pos: dict):
    """The state of a suite position (its actions replayed), checked against its digest."""
    from gutenberg_ai.games.records import state_digest
    game = games.get(suite["game"]).load(**suite["params"])
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
                   factory=None) -> dict:
    """The bot's move at the suite's position k (seeded seed + k) and what it loses: the
    row of one position, the same wherever it is computed (this process or a Ray worker)."""
    from gutenberg_ai.search.bots import make_bot
    suite = load_suite(key, version)
    pos = suite["positions"][k]
    state = position_state(suite, pos)
    p = state.current_player()
    bot = make_bot(factory or bot_name, state.get_game(), p, seed=seed + k, **budget)
    action = int(bot.step(state))
    ref = pos["reference"]
    values = {m["action"]: m["value"] for m in ref["moves"]}
    best_value = values[ref["best"]]
    if action == ref["best"]:
        value, method = best_value, "best"
    elif action in values:
        value, method = values[action], "reference"
    else:
        forced = reference_search(state, ref["iterations"], ref["seed"], root_action=action)
        measure = "fame" if state.get_game().num_players() == 1 else "win"
        value, method = forced["moves"][0][measure][p], "searched alone"
    return {"id": pos["id"], "kind": pos["kind"], "action": action,
            "text": state.action_to_string(p, action), "best": ref["best"],
            "agree": action == ref["best"], "lost": max(0.0, best_value - value), "method": method}


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
                out: str | None = None, jobs: int = 1, ray: str | None = None) -> list:
    """Every position's row, in the suite's order: found in `out` (rows written by an
    earlier run of the same settings), else scored here or, with `ray`, on a Ray cluster
    (gutenberg_ai.tools.cluster: "local" or an address; a task on a lost worker is run
    again). With `out`, each row is written there as it is scored: run again to resume."""
    from gutenberg_ai.games.records import write_json
    suite = load_suite(key, version)
    tasks = [{"bot": bot_label(bot_name), "game": key, "suite_version": suite["version"], "seed": seed, "budget": budget,
              "index": k, "id": pos["id"]} for k, pos in enumerate(suite["positions"])]
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
            keep(k, score_position(bot_name, key, version, k, seed, budget, factory))
        return rows
    if factory is not None or not isinstance(bot_name, str):
        raise ValueError("ray: a bot object plays in this process only; give its name or module:factory")
    from gutenberg_ai.tools import cluster
    remote_ray, started = cluster.connect(ray, jobs)
    remote = remote_ray.remote(max_retries=cluster.MAX_RETRIES, num_cpus=1)(score_position)
    pending = {remote.remote(bot_name, key, version, k, seed, budget): k for k in todo}
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


def score_bot(bot_name, key: str, seed: int = 0, version: int | None = None, progress=None,
              factory=None, out: str | None = None, jobs: int = 1, ray: str | None = None, **budget) -> dict:
    """Score a bot (a name, module:factory, or `factory`) on a game's suite: agreement
    with the reference move and win chance lost, per position and per kind. `out`, `jobs`
    and `ray`: where the rows are kept (resumable) and where they are scored (scored_rows)."""
    suite = load_suite(key, version)
    rows = scored_rows(bot_name, key, seed, version, progress, factory, budget, out, jobs, ray)
    kinds: dict[str, list[dict]] = {}
    for r in rows:
        kinds.setdefault(r["kind"], []).append(r)

    def agg(rs):
        return {"positions": len(rs), "agreement": sum(r["agree"] for r in rs) / len(rs),
                "mean_lost": sum(r["lost"] for r in rs) / len(rs)}
    return {"game": key, "suite_version": suite["version"], "bot": bot_label(bot_name), "budget": budget, "seed": seed,
            "measure": suite["measure"], "overall": agg(rows),
            "kinds": {k: agg(v) for k, v in sorted(kinds.items())}, "positions": rows}


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
