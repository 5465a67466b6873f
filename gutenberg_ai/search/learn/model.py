"""The weights file of a learned model, and the weights each game ships.

A weights file is a NumPy .npz (read with allow_pickle=False: nothing in it runs) with
the arrays of ext/engine/learned.pxi (NET_ARRAYS: row_of, w_obs, w_proj, b1, w2, b2,
w_score, b_score, w_sharp, b_sharp, w_policy, b_policy; stored as float16 or float32,
row_of as integers) and `meta`, a JSON text:

    {"format": "gutenberg-ai-weights", "version": 1, "game": "gutenberg",
     "obs_size": 3313, "n_actions": 3078, "seats": 4, "hidden": 64, "hidden2": 64,
     "beta": 0.9, "scale": 100.0, "generation": 1, "data": [...], "report": {...}}

`obs_size`, `n_actions` and `seats` must be the game's (a model of another game, or of an
older build whose observation differs, is refused); `data` names the self-play runs it
was trained on and `report` holds the held-out losses and calibration (train.py).

`default` names the weights the game ships: gutenberg_ai/games/<game>/data/learned.npz,
and in a game of one person data/learned-solo.npz where the game has it (docs/learning.md
says how they were made).
"""
from __future__ import annotations

import json
import math
import os
import zipfile
from typing import Any

import numpy as np

from gutenberg_ai import games
from gutenberg_ai.common.jsonfile import MAX_DEPTH, structure_problems

FORMAT = "gutenberg-ai-weights"
VERSION = 1
SHIPPED = "learned.npz"
# The solo game's own weights, where a game ships them: trained on solo self-play alone,
# whose aim (the most fame against the automa) the games of several people do not teach.
SHIPPED_SOLO = "learned-solo.npz"
MAX_FILE_BYTES = 64 << 20
# What the archive's own headers must say before anything is unpacked: a .npz is a zip,
# and a member of a few bytes can unpack to gigabytes, or declare a shape whose array
# would not fit in memory. The arrays are bounded by the game's largest network (its
# NET_DIMENSIONS with max_hidden units), 8 bytes an entry; the meta is a short JSON text.
MAX_MEMBERS = 64
MAX_META_BYTES = 1 << 20
NPY_HEADER_BYTES = 1 << 16     # a .npy header (numpy's own limit is 10,000 characters)


class ModelError(ValueError):
    """A weights file that cannot be used; the message lists every problem, each with its
    place: "<file>: <array or field>: <reason>"."""
_TOO_DEEP = object()     # what a meta too deep for Python's own parser reads as


def shipped_path(game_key: str, solo: bool = False) -> str:
    """Where game `game_key` keeps its shipped weights; with `solo`, those of its solo game
    where the game ships them apart (SHIPPED_SOLO), else the game's."""
    g = games.get(game_key)
    folder = g.data_folder
    if solo and os.path.exists(os.path.join(folder, SHIPPED_SOLO)):
        return os.path.join(folder, SHIPPED_SOLO)
    return os.path.join(folder, SHIPPED)


def has_shipped(game_key: str) -> bool:
    return os.path.exists(shipped_path(game_key))


def game_of_core(core_module: str) -> str:
    for key, g in games.GAMES.items():
        if g.core_module == core_module:
            return key
    raise ModelError(f"{core_module}: not the core of a game of the table")


def resolve(name: str, game_key: str, solo: bool = False) -> str:
    """The path a model's name means: "default" the game's shipped weights (with `solo`,
    its solo game's where it ships them)."""
    return shipped_path(game_key, solo) if name == "default" else name


def read(path: str, game_key: str, core) -> tuple[dict, dict]:
    """The arrays (float32, row_of int32) and the meta of a weights file, checked against
    the game's compiled `core` (its NET_DIMENSIONS, NET_ARRAYS and net_shapes); ModelError
    with every problem found."""
    dims, names = core.NET_DIMENSIONS, core.NET_ARRAYS
    shown = os.path.basename(path) if path.startswith(os.path.dirname(shipped_path(game_key))) else path
    if not os.path.isfile(path):
        if os.path.abspath(path) == shipped_path(game_key):
            raise ModelError(f"{games.get(game_key).title} ships no learned weights (no {shown})")
        raise ModelError(f"{shown}: no such file")
    if os.path.getsize(path) > MAX_FILE_BYTES:
        raise ModelError(f"{shown}: {os.path.getsize(path)} bytes; a weights file is at most {MAX_FILE_BYTES}")
    problems = []

    def add(where, reason):
        problems.append(f"{shown}: {where}: {reason}")

    try:
        members, refused = _members(path, core, add)
        with np.load(path, allow_pickle=False) as f:
            raw = {k: f[k] for k in members}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ModelError(f"{shown}: not a weights file (.npz): {e}") from None

    meta: Any = {}          # the JSON as decoded: anything until checked
    if "meta" not in raw:
        if "meta" not in refused:
            add("meta", "missing (the JSON that says which game and which shapes)")
    else:
        try:
            meta = json.loads(str(raw["meta"]))
        except ValueError as e:
            add("meta", f"not JSON: {e}")
        except RecursionError:
            meta = _TOO_DEEP
        if meta is _TOO_DEEP or (isinstance(meta, (dict, list)) and structure_problems(meta)):
            add("meta", f"nested more than {MAX_DEPTH} levels deep (no field needs it)")
            meta = {}
        if not isinstance(meta, dict):
            add("meta", "not a JSON object")
            meta = {}
    if meta:
        if meta.get("format") != FORMAT:
            add("meta.format", f"{meta.get('format')!r} is not {FORMAT!r}")
        if meta.get("version") != VERSION:
            add("meta.version", f"{meta.get('version')!r}: this program reads version {VERSION}")
        if meta.get("game") != game_key:
            add("meta.game", f"{meta.get('game')!r}: these weights are not {games.get(game_key).title}'s")
        for key in ("obs_size", "n_actions", "seats"):
            if meta.get(key) != dims[key]:
                add(f"meta.{key}", f"{meta.get(key)!r}, but the game has {dims[key]} (weights of another "
                                   "version of the game: train them again)")
        for key in ("beta", "scale"):
            value = meta.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                add(f"meta.{key}", f"{value!r} is not a number")
        if isinstance(meta.get("scale"), (int, float)) and not meta["scale"] > 0:
            add("meta.scale", f"{meta['scale']!r} is not > 0")
    arrays = {}
    for name in names:
        if name in refused:
            continue
        if name not in raw:
            add(name, "missing")
            continue
        a = raw[name]
        if name == "row_of":
            if a.dtype.kind not in "iu":
                add(name, f"{a.dtype} is not integers")
                continue
            arrays[name] = a.astype(np.int32)
        else:
            if a.dtype.kind != "f":
                add(name, f"{a.dtype} is not floating point")
                continue
            a = a.astype(np.float32)
            if not np.isfinite(a).all():
                add(name, "holds a NaN or an infinity")    # its shape is still checked below
            arrays[name] = a
    # The shapes, told by the hidden layers' sizes and w_obs's rows: every array read is
    # checked, beside the other problems.
    if {"b1", "b2", "w_obs", "row_of"} <= arrays.keys():
        H, H2 = arrays["b1"].shape[0] if arrays["b1"].ndim == 1 else -1, \
            arrays["b2"].shape[0] if arrays["b2"].ndim == 1 else -1
        rows = arrays["w_obs"].shape[0] if arrays["w_obs"].ndim == 2 else -1
        obs = dims["obs_size"]
        for name, shape in core.net_shapes(rows, H, H2).items():
            if name in arrays and arrays[name].shape != shape:
                add(name, f"shape {arrays[name].shape}, not {shape}")
        if not (1 <= H <= dims["max_hidden"] and 1 <= H2 <= dims["max_hidden"]):
            add("b1", f"{H} and {H2} hidden units: 1 to {dims['max_hidden']} each")
        r = arrays["row_of"]
        if r.shape == (obs,) and r.size and (r.min() < -1 or r.max() >= rows):
            add("row_of", f"names a row outside w_obs (0-{rows - 1}, or -1)")
    if problems:
        raise ModelError("\n".join(problems))
    return arrays, meta


def _members(path: str, core, add) -> tuple[list, set]:
    """(the members of the .npz at `path` to read, the names refused): each member's
    unpacked size (the zip's directory) and its .npy header (dtype, shape) checked
    against the game's largest network before any array is read; `add(where, reason)`
    takes each problem. Unknown members are named and never read."""
    dims, names = core.NET_DIMENSIONS, core.NET_ARRAYS
    largest = core.net_shapes(dims["obs_size"], dims["max_hidden"], dims["max_hidden"])
    with open(path, "rb") as fp:
        # The directory's own count, before it is read (zipfile's private helpers: not in its stubs).
        end = zipfile._EndRecData(fp)  # type: ignore[attr-defined]
    if end is None:
        raise zipfile.BadZipFile("File is not a zip file")
    total = end[zipfile._ECD_ENTRIES_TOTAL]  # type: ignore[attr-defined]
    if total > MAX_MEMBERS:
        add("", f"{total} members; a weights file has at most {MAX_MEMBERS}")
        return [], set(names) | {"meta"}
    members, refused = [], set()
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            if name not in names and name != "meta":
                add(name, "unknown array")
                continue
            entries = 1 if name == "meta" else math.prod(largest[name])
            most = MAX_META_BYTES if name == "meta" else NPY_HEADER_BYTES + 8 * entries
            if info.file_size > most:
                add(name, f"{info.file_size:,} bytes unpacked; at most {most:,} (the game's largest network)")
                refused.add(name)
                continue
            with z.open(info) as f:
                try:
                    version = np.lib.format.read_magic(f)
                    shape, _, dtype = (np.lib.format.read_array_header_1_0(f) if version == (1, 0)
                                       else np.lib.format.read_array_header_2_0(f))
                except ValueError as e:
                    add(name, f"not a .npy array: {e}")
                    refused.add(name)
                    continue
                held = info.file_size - f.tell()
            need = math.prod(shape) * dtype.itemsize
            if dtype.hasobject or need > held or (name != "meta" and math.prod(shape) > entries):
                add(name, f"its header says shape {shape} of {dtype}, {need:,} bytes; it holds {held:,}"
                          + ("" if name == "meta" else f" and the game's largest network has {entries:,} entries"))
                refused.add(name)
                continue
            members.append(name)
    return members, refused


def write(path: str, arrays: dict, meta: dict):
    """Write a weights file (float16 for the two wide arrays: half the size, and the
    search's float32 arithmetic reads them back within 1e-3 of the trained values)."""
    stored = {}
    for name, a in arrays.items():
        a = np.asarray(a)
        if name == "row_of":
            stored[name] = a.astype(np.int32)
        elif name in ("w_obs", "w_policy"):
            stored[name] = a.astype(np.float16)
        else:
            stored[name] = a.astype(np.float32)
    full = {"format": FORMAT, "version": VERSION, **meta}
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = path + ".tmp.npz"
    # (numpy's stubs type ** as if a member could be named allow_pickle; none is)
    np.savez_compressed(tmp, meta=np.array(json.dumps(full)), **stored)  # type: ignore[arg-type]
    os.replace(tmp, path)


def is_weights_file(path: str) -> bool:
    """Whether `path` is a weights file (write's: its meta names FORMAT), read no further."""
    try:
        return meta_of(path).get("format") == FORMAT
    except Exception:      # anything else: not a zip, no meta, not JSON (np.load raises many kinds)
        return False


def meta_of(path: str) -> dict:
    """The meta of a weights file (for reports), unchecked beyond being JSON."""
    with np.load(path, allow_pickle=False) as f:
        return json.loads(str(f["meta"]))
