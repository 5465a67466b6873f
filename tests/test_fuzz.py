"""A seeded fuzz of every kind of input the program reads, for all three games: the
shipped example files mutated (positions, records, catalogues, the weights' metadata),
random game parameters (pyspiel.load_game), command lines (main(argv) in this process)
and web requests (FastAPI's TestClient).

The assertion is the project's promise about untrusted input: every input is either
accepted or refused with the project's clear error (one of its error types with a
message; exit status 2 with a message on stderr; a 4xx with a JSON error), never another
exception, a traceback, a 500 or a hang (each case runs under CASE_SECONDS).

The number of cases per kind is CASES (GUTENBERG_FUZZ_CASES=N for a longer run); the
same seed gives the same cases. With -s each test prints how many cases it tried, how
many were refused, accepted and broken (benchmarks/README.md keeps the figures;
GUTENBERG_FUZZ_SHOW=1 lists the broken cases).

Every defect the fuzz has found keeps its input in FOUND, a test of its own: each must be
refused with exit status 2 and a message, at once.
"""
import contextlib
import copy
import json
import os
import pathlib
import random
import signal

import numpy as np
import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai import games
from gutenberg_ai.tools.arena import ArenaError
from gutenberg_ai.interfaces.cli import UsageError, build_parser
from gutenberg_ai.games.gamedata import ParameterError
from gutenberg_ai.common.jsonfile import FileDataError
from gutenberg_ai.search.learn import model
from gutenberg_ai.search.learn.model import ModelError
from gutenberg_ai.games.positionfile import load_position
from gutenberg_ai.games.records import GameRecord, load_record, play_bots, replay, seat_entry
from every_game import cli
from json_places import at, places

SEED = 20261127
CASES = max(1, int(os.environ.get("GUTENBERG_FUZZ_CASES", "30")))
CASE_SECONDS = 30          # a bound no accepted case comes near (each takes a second or two)

# The project's errors for bad input: each carries a message for the user.
PROJECT_ERRORS = (FileDataError, ModelError, ParameterError, UsageError, ArenaError)

GAME_KEYS = list(games.GAMES)


# ---------------------------------------------------------------------------------------
# The machinery: a time bound, a tally, mutations of JSON data and of text
# ---------------------------------------------------------------------------------------
class CaseTimedOut(Exception):
    pass


@contextlib.contextmanager
def time_bound(seconds=CASE_SECONDS):
    """Raise CaseTimedOut in this (the main) thread after `seconds`: a hang is a defect.
    The compiled searches look for signals between slices, so they stop too."""
    def expire(signum, frame):
        raise CaseTimedOut(f"no answer within {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Tally:
    """Cases tried, refused and accepted, and the cases that broke the promise."""

    def __init__(self, kind):
        self.kind, self.tried, self.refused, self.accepted, self.broken = kind, 0, 0, 0, []

    def judge(self, case, run, refused_if=lambda e: isinstance(e, PROJECT_ERRORS)):
        """Run `run()`: accepted if it returns True, refused if it returns False or raises
        an error that `refused_if` says is the project's clear refusal (with a message)."""
        self.tried += 1
        try:
            with time_bound():
                accepted = run()
        except CaseTimedOut as e:
            self.broken.append((case, f"hang: {e}"))
            return
        except Exception as e:   # noqa: BLE001 - judged right here: refusal or defect
            if refused_if(e) and str(e).strip() and "Traceback" not in str(e):
                self.refused += 1
            else:
                self.broken.append((case, f"{type(e).__module__}.{type(e).__qualname__}: {str(e)[:300]}"))
            return
        if accepted:
            self.accepted += 1
        else:
            self.refused += 1

    def check(self):
        print(f"\nfuzz {self.kind}: {self.tried} tried, {self.refused} refused, {self.accepted} accepted, "
              f"{len(self.broken)} broken")
        assert self.tried == self.refused + self.accepted + len(self.broken)
        for case, why in self.broken if os.environ.get("GUTENBERG_FUZZ_SHOW") else ():
            print(f"  broken: {case!r:.300} -> {why[:200]}")
        assert not self.broken, "\n".join(f"{case!r:.500}\n    -> {why}" for case, why in self.broken[:10])


HOSTILE = [None, True, False, 0, -1, 1, 2, 7, 2 ** 31, 2 ** 63, -2 ** 63 - 1, 10 ** 40, 0.5, -0.0, 1e308,
           "", "x" * 300, "\x1b[2J", "\x00", "é", "A", "red", "hidden", [], {}, [[[[[[]]]]]], {"a": 1},
           [1, 2, 3], ["A", "B"]]


def mutate_data(data, rng: random.Random):
    """`data` with one to three random changes: a value replaced by a hostile or a
    plausible one (another value of the file), an entry deleted, added or repeated, a
    number moved by one."""
    data = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = [p for p in places(data) if p]
        if not paths:
            return rng.choice(HOSTILE)
        where = rng.choice(paths)
        parent, key = at(data, where[:-1]), where[-1]
        value = parent[key]
        op = rng.randrange(6)
        if op == 0:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
        elif op == 1:                            # plausible but wrong: another value of the file
            parent[key] = copy.deepcopy(at(data, rng.choice(paths)))
        elif op == 2:
            del parent[key]
        elif op == 3 and isinstance(value, (dict, list)):
            if isinstance(value, dict):
                value[rng.choice(["x", "id", "players", "version", "", "\x1b"])] = rng.choice(HOSTILE)
            else:
                value.append(copy.deepcopy(value[0]) if value else rng.choice(HOSTILE))
        elif op == 4 and isinstance(value, (int, float)) and not isinstance(value, bool):
            parent[key] = value + rng.choice((-1, 1, -1000, 1000))
        elif isinstance(value, list) and len(value) > 1:
            rng.shuffle(value)
        else:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
    return data


def mutate_text(text: str, rng: random.Random) -> bytes:
    """The file's bytes cut short, with a byte changed, a piece repeated or bytes that
    are not UTF-8."""
    raw = text.encode("utf-8")
    op = rng.randrange(4)
    i = rng.randrange(len(raw) + 1)
    if op == 0:
        return raw[:i]
    if op == 1:
        return raw[:i] + bytes([rng.randrange(256)]) + raw[i + 1:]
    if op == 2:
        j = min(len(raw), i + rng.randrange(1, 200))
        return raw[:j] + raw[i:]
    return raw[:i] + b"\xff\xfe\x80" + raw[i:]


def mutated_inputs(base: dict, rng: random.Random, n: int):
    """n inputs from `base`: mostly changed data, some changed bytes (as (kind, value))."""
    text = json.dumps(base)
    for i in range(n):
        if i % 4 == 3:
            yield "bytes", mutate_text(text, rng)
        else:
            yield "data", mutate_data(base, rng)


def write_input(tmp_path, i, kind, value) -> pathlib.Path:
    path = tmp_path / f"case-{i}.json"
    if kind == "bytes":
        path.write_bytes(value)
    else:
        path.write_text(json.dumps(value, allow_nan=True), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------
# Defects found: what each is, how the fuzz's broken cases show it, and one input
# ---------------------------------------------------------------------------------------
POSITION = str(pathlib.Path(games.get("gutenberg").positions.__file__).parent / "data" / "positions"
               / "plan-round1-2p.json")
BIG = "99999999999999999999"       # past a C long

# The inputs the fuzz found broken: name -> (what was wrong, the command line that showed it).
FOUND = {
    "hint-threads-past-c-long": (
        "an OverflowError traceback from the compiled search (threads is a C int)",
        ["hint", POSITION, "--threads", BIG]),
    "hint-top-past-c-long": (
        "an OverflowError traceback from the compiled search (its `lines`)",
        ["hint", POSITION, "--top", BIG, "--iterations", "20"]),
    "hint-seed-past-c-long": (
        "an OverflowError traceback from the compiled search (its seed is a C unsigned long)",
        ["hint", POSITION, "--seed", BIG, "--iterations", "20"]),
    "demo-iterations-past-c-long": (
        "an OverflowError traceback from SearchTree.run",
        ["demo", "--bots", "smmcts", "--iterations", BIG, "--rounds", "1"]),
    "hint-seconds-infinite": (
        "accepted, and the search never ended by itself",
        ["hint", POSITION, "--seconds", "inf"]),
    "hint-iterations-unbounded": (
        "accepted: a budget with no upper bound, the search ran for ever",
        ["hint", POSITION, "--iterations", BIG]),
    "arena-games-unbounded": (
        "accepted: no bound on the games scheduled before the work starts",
        ["arena", "--bots", "random,heuristic", "--games", BIG, "--rounds", "1", "--jobs", "1",
         "--out", "ARENA"]),
}
FOUND_SECONDS = 5    # a refusal is immediate; an input that starts the work is cut here


@pytest.mark.parametrize("name", sorted(FOUND))
def test_an_input_the_fuzz_found_is_refused(name, tmp_path, monkeypatch):
    """Each input the fuzz once found broken is refused with exit status 2 and a message."""
    monkeypatch.chdir(tmp_path)
    argv = [str(tmp_path / "arena") if a == "ARENA" else a for a in FOUND[name][1]]
    with time_bound(FOUND_SECONDS):
        code, out, err = run_cli(argv)
    assert code == 2 and err.strip() and "Traceback" not in out + err, (FOUND[name][0], code, err[-300:])


# ---------------------------------------------------------------------------------------
# Files: positions, catalogues, records and weights of every game
# ---------------------------------------------------------------------------------------
def shipped_positions():
    out = []
    for key in GAME_KEYS:
        folder = pathlib.Path(games.get(key).positions.__file__).parent / "data" / "positions"
        out += [pytest.param(p, id=f"{key}-{p.stem}") for p in sorted(folder.glob("*.json"))]
    return out


@pytest.mark.parametrize("path", shipped_positions())
def test_fuzz_position_files(path, tmp_path):
    base = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(f"{SEED}:{path.name}")
    tally = Tally(f"position {path.parent.parent.parent.name}/{path.name}")

    def loads(file):
        g, pos = load_position(str(file))
        pos.state.legal_actions()        # what every command asks next
        return True

    for i, (kind, value) in enumerate(mutated_inputs(base, rng, CASES)):
        file = write_input(tmp_path, i, kind, value)
        tally.judge((kind, value), lambda: loads(file))
    tally.check()


def catalogue_module(key):
    return __import__(f"{games.get(key).module.rsplit('.', 1)[0]}.catalogue", fromlist=["load_catalogue"])


@pytest.mark.parametrize("key", GAME_KEYS)
def test_fuzz_catalogue_files(key, tmp_path):
    cat = catalogue_module(key)
    base = json.loads((pathlib.Path(cat.__file__).parent / "data" / "catalogue.json").read_text(encoding="utf-8"))
    rng = random.Random(f"{SEED}:catalogue:{key}")
    tally = Tally(f"catalogue {key}")

    def loads(file):
        cat.load_catalogue(str(file))
        # and as the game parameter every command passes it as
        game = games.get(key).load(players=2, catalogue=str(file))
        return game.new_initial_state() is not None

    def refused(e):
        return isinstance(e, PROJECT_ERRORS) or isinstance(e, pyspiel.SpielError)

    for i, (kind, value) in enumerate(mutated_inputs(base, rng, CASES)):
        file = write_input(tmp_path, i, kind, value)
        tally.judge((kind, value), lambda: loads(file), refused)
    tally.check()


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A short finished game of each game, as its record's data."""
    out = {}
    for key in GAME_KEYS:
        game = games.get(key).load(players=2, rounds=1)
        bots = [gutenberg_ai.make_bot("random", game, seat, seed=seat) for seat in range(2)]
        log = GameRecord(game, 5, [seat_entry(seat, "random", seat) for seat in range(2)], command="demo")
        play_bots(game, bots, 5, log)
        path = tmp_path_factory.mktemp("records") / f"{key}.json"
        out[key] = log.save(str(path))
    return out


@pytest.mark.parametrize("key", GAME_KEYS)
def test_fuzz_record_files(key, records, tmp_path):
    base = records[key]
    rng = random.Random(f"{SEED}:record:{key}")
    tally = Tally(f"record {key}")

    def replays(file):
        state = replay(load_record(str(file)))
        return state is not None

    for i, (kind, value) in enumerate(mutated_inputs(base, rng, CASES)):
        file = write_input(tmp_path, i, kind, value)
        tally.judge((kind, value), lambda: replays(file))
    tally.check()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_fuzz_weights_metadata(key, tmp_path):
    """The shipped weights with their meta JSON mutated (and now and then an array's
    type or shape), read as `--options '{"model": FILE}'` reads them."""
    shipped = model.shipped_path(key)
    with np.load(shipped, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    rng = random.Random(f"{SEED}:weights:{key}")
    tally = Tally(f"weights {key}")
    core = games.get(key).core
    for i in range(CASES):
        changed = dict(arrays)
        changed["meta"] = np.array(json.dumps(mutate_data(meta, rng), allow_nan=True))
        if i % 5 == 4:
            name = rng.choice([k for k in arrays if k != "meta"])
            changed[name] = rng.choice([arrays[name].astype(np.int64), arrays[name][:1],
                                        np.full_like(arrays[name], np.nan, dtype=np.float32)])
        file = tmp_path / f"case-{i}.npz"
        np.savez(file, **changed)
        if i % 7 == 6:        # not a zip file at all, or one cut short
            raw = file.read_bytes()
            file.write_bytes(raw[:rng.randrange(len(raw))])
        tally.judge(changed["meta"].item(), lambda: model.read(str(file), key, core) is not None)
    tally.check()


# ---------------------------------------------------------------------------------------
# Game parameters: pyspiel.load_game
# ---------------------------------------------------------------------------------------
# Values of each parameter's own type (the game's checks are reached), and of others
# (OpenSpiel's are).
TYPED_VALUES = {
    bool: [True, False],
    int: [-2 ** 31, -1, 0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 99, 2 ** 31 - 1],
    float: [-1.0, 0.0, 0.5, 1.0, 1e30],
    str: ["", "x", "basic", "advanced", "win", "score", "winloss", "1", "\x1b[2J", "/nonexistent/cat.json",
          "é" * 40],
}
OTHER_VALUES = [True, 3, 0.5, "x"]


@pytest.mark.parametrize("key", GAME_KEYS)
def test_fuzz_game_parameters(key, tmp_path):
    name = games.get(key).spiel_name
    defaults = pyspiel.load_game(name).get_parameters()
    folder = pathlib.Path(games.get(key).positions.__file__).parent / "data"
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00{not json")
    files = [str(p) for p in sorted((folder / "positions").glob("*.json"))] + [
        str(folder / "catalogue.json"), str(garbage), str(tmp_path)]
    rng = random.Random(f"{SEED}:params:{key}")
    tally = Tally(f"parameters {key}")
    for _ in range(CASES * 2):
        params = {}
        for _ in range(rng.randrange(1, 4)):
            param = rng.choice(list(defaults) * 4 + ["x", "Players", "seed"])
            kind = type(defaults.get(param, ""))
            if rng.random() < 0.2:
                params[param] = rng.choice(OTHER_VALUES)
            elif kind is str and rng.random() < 0.5:
                params[param] = rng.choice(files)
            else:
                params[param] = rng.choice(TYPED_VALUES[kind])

        def load(params=params):
            g = pyspiel.load_game(name, params)
            state = g.new_initial_state()
            state.legal_actions() if not state.is_chance_node() else state.chance_outcomes()
            return True
        tally.judge(params, load, lambda e: isinstance(e, (pyspiel.SpielError, *PROJECT_ERRORS)))
    tally.check()


# ---------------------------------------------------------------------------------------
# Command lines: main(argv) in this process
# ---------------------------------------------------------------------------------------
# Commands that answer quickly with the options below; the others (serve, play, study,
# selfplay, train) start servers, wait for a person or train for minutes.
def base_command_lines(records_dir, positions):
    lines = []
    for key in GAME_KEYS:
        lines += [
            ["demo", "--game", key, "--bots", "random", "--rounds", "1", "--seed", "3", "--quiet"],
            ["hint", str(positions[key]), "--iterations", "30", "--top", "2"],
            ["replay", str(records_dir / f"{key}.json"), "--quiet"],
            ["arena", "--game", key, "--bots", "random,heuristic", "--games", "1", "--rounds", "1",
             "--jobs", "1", "--out", "ARENA"],
        ]
    lines += [["cards", "A", "I", "I", "U", "5", "guilders"], ["cards", "gear", "gain", "red"]]
    return lines


# Options that start work in proportion to their value: given only values that must be
# refused, so that a case never runs long or takes the machine's processes (FOUND has
# values past every bound).
RESOURCE_OPTIONS = {"--jobs", "--threads", "--workers", "--ray", "--games", "--iterations", "--seconds",
                    "--max-seconds", "--port", "--host"}
REFUSED_VALUES = ["-1", "0", "x", "", "nan", "-inf", "\x1b[2J"]
# Of those, the ones whose work a value past every bound would start at once.
HEAVY_OPTIONS = {"--jobs", "--workers", "--games", "--iterations", "--port"}
OPTION_VALUES = REFUSED_VALUES + ["1", "2", "3", "5", "random", "heuristic", "smmcts", "gutenberg",
                                  "printing-press", "lead-letter-printers", "advanced", "A,I", "red",
                                  "/nonexistent/file.json", "99999999999999999999", "é" * 50, "--quiet"]


def subcommand_options(command):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return [a for a in sub.choices[command]._actions if a.option_strings and a.dest != "help"]


def takes_whole_numbers(action) -> bool:
    try:
        return action.type is not None and type(action.type("7")) is int
    except Exception:   # noqa: BLE001 - argparse's type functions raise what they like
        return False


def mutate_command_line(argv, rng, files, tmp_path):
    argv = list(argv)
    options = subcommand_options(argv[0])
    numbers = [a for a in options if takes_whole_numbers(a) and not set(a.option_strings) & HEAVY_OPTIONS]
    for _ in range(rng.choice((1, 1, 2))):
        op = rng.randrange(6)
        if op == 5 and numbers:                    # a whole number past C's range
            argv += [rng.choice(rng.choice(numbers).option_strings), BIG]
            continue
        if op == 0 and len(argv) > 1:              # an argument dropped
            del argv[rng.randrange(1, len(argv))]
        elif op == 1 and len(argv) > 1:            # an argument's value replaced
            i = rng.randrange(1, len(argv))
            values = REFUSED_VALUES if argv[i - 1] in RESOURCE_OPTIONS else OPTION_VALUES + files
            argv[i] = rng.choice(values)
        elif op == 2 and options:                  # an option of the command added
            action = rng.choice(options)
            flag = rng.choice(action.option_strings)
            if action.nargs == 0:
                argv.append(flag)
            else:
                values = REFUSED_VALUES if flag in RESOURCE_OPTIONS else OPTION_VALUES + files
                argv += [flag, rng.choice(values)]
        elif op == 3:                              # an option no command has
            argv.insert(rng.randrange(1, len(argv) + 1), rng.choice(["--nope", "-z", "--", "---x", "--seed="]))
        else:                                      # the file argument replaced
            argv = [a if not a.endswith(".json") or a.startswith("/nonexistent") else rng.choice(files)
                    for a in argv]
    return [str(tmp_path / "arena") if a == "ARENA" else a for a in argv]


def run_cli(argv):
    """The command in this process with no input: its exit code, output and errors."""
    done = cli(*argv)
    return done.returncode, done.stdout, done.stderr


class CliRefused(Exception):
    pass


def test_fuzz_command_line(records, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # what a command writes where it is run (an --out of "5") stays here
    records_dir = tmp_path / "records"
    records_dir.mkdir()
    for key, data in records.items():
        (records_dir / f"{key}.json").write_text(json.dumps(data), encoding="utf-8")
    positions = {key: sorted((pathlib.Path(games.get(key).positions.__file__).parent / "data" / "positions")
                             .glob("*.json"))[-1] for key in GAME_KEYS}
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00{not json")
    files = [str(garbage), str(tmp_path), "/dev/null", str(positions["printing-press"]),
             str(records_dir / "gutenberg.json")]
    rng = random.Random(f"{SEED}:cli")
    tally = Tally("command line")
    bases = base_command_lines(records_dir, positions)
    for i in range(CASES * 4):
        argv = mutate_command_line(rng.choice(bases), rng, files, tmp_path / f"case-{i}")

        def run(argv=argv):
            code, out, err = run_cli(argv)
            if "Traceback" in out + err:
                raise AssertionError(f"a traceback: {err[-500:]}")
            if code == 2:
                if not err.strip():
                    raise AssertionError("exit status 2 without a message")
                raise CliRefused(err.strip().splitlines()[-1])
            if code not in (0, None) and not (argv[0] == "cards" and code == 1):   # 1: no card shows it
                raise AssertionError(f"exit status {code!r}: {err[-300:]}")
            return True
        tally.judge(argv, run, lambda e: isinstance(e, CliRefused))
    tally.check()


# ---------------------------------------------------------------------------------------
# Web requests: the JSON API
# ---------------------------------------------------------------------------------------
class WebRefused(Exception):
    pass


def test_fuzz_web_requests(records):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from web_client import page_client
    from gutenberg_ai.interfaces.web.app import create_app
    from gutenberg_ai.interfaces.web.sessions import Limits

    limits = Limits(workers=1, max_games=8, max_records=8, max_ai_seconds=1.0, max_hint_seconds=1.0,
                    max_iterations=2000, review_points=3, review_iterations=20, review_seconds=0.2)
    rng = random.Random(f"{SEED}:web")
    tally = Tally("web requests")
    positions = {key: json.loads(sorted((pathlib.Path(games.get(key).positions.__file__).parent / "data" /
                                         "positions").glob("*.json"))[-1].read_text(encoding="utf-8"))
                 for key in GAME_KEYS}
    with page_client(create_app(limits), raise_server_exceptions=False) as client:
        game_ids = []
        for key in GAME_KEYS:
            r = client.post("/api/games", json={"game": key, "players": 2, "ai": ["random"], "rounds": 1,
                                                "seed": 4})
            assert r.status_code == 201, r.text
            game_ids.append(r.json()["id"])
        record_ids = []
        for key in GAME_KEYS:
            r = client.post("/api/records", json={"text": json.dumps(records[key]), "name": f"{key}.json"})
            assert r.status_code == 201, r.text
            record_ids.append(r.json()["id"])

        def requests():
            key = rng.choice(GAME_KEYS)
            gid = rng.choice(game_ids + ["nope", "", "../etc", "x" * 300])
            rid = rng.choice(record_ids + ["nope", "%00"])
            body = {"game": key, "players": 2, "ai": ["random"], "rounds": 1, "seed": 4}
            budget = {"iterations": 50, "top": 3, "seed": 1}
            return rng.choice([
                ("POST", "/api/games", mutate_data(body, rng)),
                ("POST", f"/api/games/{gid}/move", mutate_data({"action": 0, "numbers": [1, 1, 1, 1, 1]}, rng)),
                ("POST", f"/api/games/{gid}/undo", None),
                ("GET", f"/api/games/{gid}", None),
                ("POST", f"/api/games/{gid}/hint", mutate_data(budget, rng)),
                ("GET", f"/api/games/{gid}/record?full={rng.choice(['true', 'x', '2'])}", None),
                ("GET", f"/api/games/{gid}/position", None),
                ("POST", "/api/positions/check", {"text": json.dumps(mutate_data(positions[key], rng)),
                                                  "name": rng.choice(["p.json", "\x1b[2J", "x" * 300])}),
                ("POST", "/api/positions/check", {"text": mutate_text(json.dumps(positions[key]), rng)
                                                  .decode("utf-8", "replace")}),
                ("POST", "/api/positions/hint", mutate_data({"text": json.dumps(positions[key]),
                                                             "iterations": 50, "top": 2}, rng)),
                ("POST", "/api/records", {"text": json.dumps(mutate_data(records[key], rng))}),
                ("GET", f"/api/records/{rid}/board?to={rng.choice(['0', '-1', '5', 'x', '99999999999'])}", None),
                ("GET", f"/api/records/{rid}", None),
                ("GET", f"/api/positions/examples/{rng.choice([key, 'x', '..'])}/{rng.choice(['x', '..%2F..'])}",
                 None),
                ("POST", "/api/games", rng.choice(HOSTILE)),
            ])

        for _ in range(CASES * 4):
            method, url, body = requests()

            def send(method=method, url=url, body=body):
                with client.stream(method, url, json=body) as r:
                    text = "".join(r.iter_text())
                    status, streamed = r.status_code, "ndjson" in r.headers.get("content-type", "")
                if status >= 500:
                    raise AssertionError(f"{status}: {text[:300]}")
                if status >= 400:
                    error = json.loads(text).get("error")
                    if not error:
                        raise AssertionError(f"{status} without a message: {text[:300]}")
                    raise WebRefused(error)
                for line in text.splitlines() if streamed else ():   # a search's events: no failure
                    event = json.loads(line)
                    if event.get("event") == "error" and event.get("status", 0) >= 500:
                        raise AssertionError(f"a stream's error event: {line[:300]}")
                return True
            tally.judge((method, url, body), send, lambda e: isinstance(e, WebRefused))
    tally.check()
