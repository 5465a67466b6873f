"""Self-play records as training data.

Each record (selfplay.py) is replayed and checked (records.replay). At every move a
search made, one value row per person p (the position from p's point of view) and one
policy row (the mover's):

value rows      obs       the observation of p (the core's write_observation), sparse
                proj      the heuristic's projected final fame per seat, seats relative
                          to p (p first), 0 past the seats
                score     the final fame of each person (relative to p); `people` marks
                          the seats that are people (an automa's fame is not recorded)
                win       each person's share of the win (1/k of a win shared by k)
                search_win, search_fame   the search's estimate at that move
                game      the record's index (held-out sets are whole games)
policy rows     row       the mover's value row
                moves     the moves the search considered (core.root_move_values), with
                          the heuristic's `values` and the share of the visits each got

Arrays of variable length are flat with an `*_start` index (CSR). `build` returns them
as a dict of numpy arrays; `save` and `load` keep them in a .npz next to the records.
"""
from __future__ import annotations

import glob
import json
import os

import numpy as np

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.common.jsonfile import capped_lines, not_a_folder
from gutenberg_ai.games.records import RecordError, load_record, replay

SEATS = 4   # MAX_SEATS of every game's core


class DataError(ValueError):
    """A self-play folder that cannot be used."""


def record_paths(folder: str) -> list[str]:
    """The self-play records in a folder (an arena's layout: games/MATCH/game-NNNN.json)."""
    if not folder:
        raise DataError("an empty path: name a self-play folder")
    problem = not_a_folder(folder)
    if problem:
        raise DataError(problem)
    if not os.path.isdir(folder):
        raise DataError(f"{folder}: no such folder")
    paths = sorted(glob.glob(os.path.join(folder, "games", "*", "game-*.json")))
    if not paths:
        raise DataError(f"{folder}: no game records in it (games/*/game-*.json: run gutenberg-ai selfplay)")
    return paths


def _game_of_folder(folder: str) -> str:
    """The game a self-play folder holds (its arena.json, untrusted)."""
    from gutenberg_ai.common.jsonfile import FileDataError, read_json
    path = os.path.join(folder, "arena.json")
    if not os.path.exists(path):
        raise DataError(f"{folder}: no arena.json in it (a folder written by gutenberg-ai selfplay)")
    try:
        data, _, _ = read_json(path, FileDataError, 1 << 20, "self-play settings")
    except FileDataError as e:
        raise DataError(str(e)) from None
    settings = data.get("settings") if isinstance(data, dict) else None
    key = settings.get("game", "gutenberg") if isinstance(settings, dict) else None
    if key not in games.GAMES:
        raise DataError(f"{path}: settings.game: {key!r} is not one of {', '.join(games.GAMES)}")
    return key


def _rotate(values, p: int, n: int, fill=0.0):
    """Per-seat values made relative to seat p (p first), padded to SEATS."""
    out = [fill] * SEATS
    for k in range(n):
        if (p + k) % n < len(values):
            out[k] = values[(p + k) % n]
    return out


class _Builder:
    def __init__(self, game_key: str):
        self.g = games.get(game_key)
        self.core = self.g.core
        self.obs_size = self.core.OBSERVATION_SIZE
        self.buf = np.zeros(self.obs_size, dtype=np.float32)
        self.cols: dict[str, list] = {k: [] for k in ("obs_index", "obs_value", "obs_start", "proj", "score", "people", "win",
                                     "search_win", "search_fame", "game", "mover")}
        self.pol: dict[str, list] = {k: [] for k in ("row", "move", "value", "visits", "move_start")}
        self.n_obs = 0
        self.n_moves = 0
        self.skipped = 0

    def add_record(self, index: int, record: dict):
        pending = []   # value rows of this game, waiting for its result

        def on_action(i, state, entry):
            if "search" not in entry:
                return
            core = core_of(state)
            proj = self.core.evaluate_state(core)     # one a seat, an automa's too
            n_seats, people = len(proj), core.num_players
            search = entry["search"]
            mover_row = None
            for p in range(people):
                self.buf[:] = 0.0
                core.write_observation(p, self.buf)
                nz = np.flatnonzero(self.buf)
                self.cols["obs_start"].append(self.n_obs)
                self.cols["obs_index"].append(nz.astype(np.int32))
                self.cols["obs_value"].append(self.buf[nz].astype(np.float32))
                self.n_obs += len(nz)
                self.cols["proj"].append(_rotate(proj, p, n_seats))
                self.cols["people"].append([1.0 if (p + k) % n_seats < people and k < n_seats else 0.0
                                            for k in range(SEATS)])
                self.cols["search_win"].append(_rotate(search["win"], p, n_seats))
                self.cols["search_fame"].append(_rotate(search["fame"], p, n_seats))
                self.cols["game"].append(index)
                self.cols["mover"].append(p == entry["player"])
                row = len(self.cols["game"]) - 1
                pending.append((row, p, n_seats))
                if p == entry["player"]:
                    mover_row = row
            values = dict(self.core.root_move_values(core))
            visits = dict((a, v) for a, v in search["moves"])
            total = sum(visits.values())
            if mover_row is None or total == 0 or not set(visits) <= set(values):
                self.skipped += 1
                return
            self.pol["row"].append(mover_row)
            self.pol["move_start"].append(self.n_moves)
            for a, v in values.items():
                self.pol["move"].append(a)
                self.pol["value"].append(v)
                self.pol["visits"].append(visits.get(a, 0) / total)
            self.n_moves += len(values)

        replay(record, on_action=on_action)
        result = record["result"]
        people = len(result["scores"])
        shares = [0.0] * people
        for w in result["winners"]:
            shares[w] = 1.0 / len(result["winners"])
        for row, p, n_seats in pending:
            self.cols["score"].append(_rotate(result["scores"], p, n_seats))
            self.cols["win"].append(_rotate(shares, p, n_seats))

    def arrays(self) -> dict:
        c, pol = self.cols, self.pol
        out = {
            "obs_index": np.concatenate(c["obs_index"]) if c["obs_index"] else np.zeros(0, np.int32),
            "obs_value": np.concatenate(c["obs_value"]) if c["obs_value"] else np.zeros(0, np.float32),
            "obs_start": np.array(c["obs_start"] + [self.n_obs], dtype=np.int64),
            "move": np.array(pol["move"], dtype=np.int32),
            "value": np.array(pol["value"], dtype=np.float32),
            "visits": np.array(pol["visits"], dtype=np.float32),
            "move_start": np.array(pol["move_start"] + [self.n_moves], dtype=np.int64),
            "row": np.array(pol["row"], dtype=np.int64),
            "mover": np.array(c["mover"], dtype=bool),
            "game": np.array(c["game"], dtype=np.int32),
        }
        for key in ("proj", "score", "people", "win", "search_win", "search_fame"):
            out[key] = np.array(c[key], dtype=np.float32).reshape(-1, SEATS)
        return out


def build(folders, progress=None) -> dict:
    """The training data of self-play folders (all of one game): a dict of arrays (the
    module's docstring), plus `meta` (the game, the folders, games and rows)."""
    paths, game_key = [], None
    for folder in folders:
        found = record_paths(folder)
        key = _game_of_folder(folder)
        if game_key is not None and key != game_key:
            raise DataError(f"{folder}: self-play of {key}, but {folders[0]} is of {game_key}")
        game_key = key
        paths += found
    if game_key is None:
        raise DataError("no self-play folder given")
    b = _Builder(game_key)
    used, broken = 0, []
    for i, path in enumerate(paths):
        # Every record is read and replayed, and every broken one named by its path (the
        # same file name is in every pairing's folder); with any, nothing is returned.
        try:
            record = load_record(path)
            if not record.get("finished"):
                continue
            if not any("search" in e for e in record["actions"]):
                broken.append(f"{path}: no search statistics in it (self-play records have them: "
                              "gutenberg-ai selfplay)")
                continue
            b.add_record(i, record)
            used += 1
        except RecordError as e:
            broken += [f"{path}: {w}: {r}" if w else f"{path}: {r}" for w, r in e.problems]
        finally:
            if progress:
                progress(i + 1, len(paths))
    if broken:
        raise DataError("\n".join(capped_lines(broken)))
    out = b.arrays()
    out["meta"] = {"game": game_key, "folders": [os.path.abspath(f) for f in folders], "games": used,
                   "value_rows": int(len(out["game"])), "policy_rows": int(len(out["row"])),
                   "skipped_policy_rows": b.skipped, "obs_size": b.obs_size}
    return out


def save(path: str, data: dict):
    arrays = {k: v for k, v in data.items() if k != "meta"}
    np.savez_compressed(path, meta=np.array(json.dumps(data["meta"])), **arrays)


def load(path: str) -> dict:
    with np.load(path, allow_pickle=False) as f:
        data = {k: f[k] for k in f.files if k != "meta"}
        data["meta"] = json.loads(str(f["meta"]))
    return data
