"""How many planted rule mistakes each game's tests catch: a mutation check of the
compiled cores.

For each game, single-line changes ("mutants") are planted, one at a time, in the
functions of its compiled core that apply the rules and score (ext/GAME/core.pyx; not
its test helpers nor the functions that deal hidden information again for a search,
which are not rules and which these tests do not judge; --sources adds other files of
ext/GAME/, such as hidden.pxi):

    comparison   a < b -> a <= b, a <= b -> a < b (and > >=), a == b <-> a != b
    constant     an integer literal n -> n + 1
    term         a + b -> a, a - b -> a (a term of a sum dropped); x += y -> pass
    logic        and <-> or

Each mutant is built in a scratch copy of the tree (`python setup.py build_ext
--inplace`: the working tree is never changed; the other games' cores are copied built,
with their times, so only the mutated game is compiled; at -O1 unless --opt-level says
otherwise, for speed), then the game's tests run
(its rules, digest and invariants tests, `pytest -x`, under a time bound). A mutant is
caught when the tests fail (or time out, or crash); it survives when they pass. A
mutant that does not compile is set aside and the next one in the seeded order is
taken, so each game gets `--mutants` built mutants.

    python benchmarks/mutation_check.py --mutants 8                       # every game
    python benchmarks/mutation_check.py --game printing-press --mutants 20 --seed 3
    python benchmarks/mutation_check.py --list --game gutenberg           # the choice only
    python benchmarks/mutation_check.py --report --out results/mutation.json

The results are written to `--out` (JSON) after every mutant; running the same command
again continues where it stopped (same `--seed`: the same mutants in the same order), and
a larger `--mutants` extends a run. At the end (and with `--report`) a table per game:
mutants built, caught, survived, the share caught, and every survivor (file, line,
function, change). Not part of the test suite: a run costs a core build per mutant
(1-2 minutes each on 2 cores).
"""
import argparse
import dataclasses
import json
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A game: its folder under ext/ and gutenberg_ai/games/, and the tests that judge its
# rules (file name patterns under tests/; another engineer's new digest or scoring tests
# of the game are picked up by the patterns). test_games_invariants.py holds the
# invariants every game's core shares (its other games' cases take a second or two).
GAMES = {
    "gutenberg": ("gutenberg", ["test_rules.py", "test_core_digest.py", "test_invariants.py",
                                "test_games_invariants.py", "test_digest*.py", "test_scoring*.py"]),
    "printing-press": ("printing_press", ["test_pp_rules*.py", "test_pp_*digest*.py",
                                          "test_pp_invariants.py", "test_games_invariants.py",
                                          "test_pp_scor*.py"]),
    "lead-letter-printers": ("lead_letter_printers", ["test_llp_rules*.py", "test_llp_*digest*.py",
                                                      "test_llp_invariants.py", "test_games_invariants.py",
                                                      "test_llp_scor*.py"]),
}
SOURCES = ["core.pyx"]        # in ext/GAME/
# Functions of core.pyx that are not rules: the test helpers compiled into the core, and
# the search's dealing again of what a player has not seen.
NOT_RULES = re.compile(r"play_random|check_random_game|state_bad|resample_\w+|determinize|draw_plan"
                       r"|draw_characters|entry_hidden|plan_seen")
MAX_MUTANTS = 10_000
TIMEOUT_FACTOR = 5          # a mutant's tests may take this many times the unmutated tests' time (+ 60 s)
ATTEMPTS_PER_MUTANT = 4     # candidates tried per mutant wanted, at most (some do not compile)


@dataclasses.dataclass(frozen=True)
class Mutant:
    file: str          # relative to the tree
    line: int          # 1-based
    col: int           # 0-based, in the line
    kind: str
    old: str
    new: str
    function: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.col}:{self.kind}:{self.old}->{self.new}"

    def apply(self, text: str) -> str:
        lines = text.split("\n")
        line = lines[self.line - 1]
        assert line[self.col:self.col + len(self.old)] == self.old, (self.id, line)
        lines[self.line - 1] = line[:self.col] + self.new + line[self.col + len(self.old):]
        return "\n".join(lines)

    def change(self, text: str) -> str:
        """The line before and after, for a person."""
        before = text.split("\n")[self.line - 1]
        after = self.apply(text).split("\n")[self.line - 1]
        return f"{before.strip()}  ->  {after.strip()}"


# ---------------------------------------------------------------------------------------
# Finding the mutants
# ---------------------------------------------------------------------------------------
def code_part(line: str) -> str:
    """The line with its comment cut and its string literals blanked (same length up to
    the comment), so that no mutant lands in either."""
    out, quote, i = [], None, 0
    while i < len(line):
        ch = line[i]
        if quote:
            out.append(" ")
            if ch == "\\":
                out.append(" ")
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            out.append(" ")
        elif ch == "#":
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)[:len(line)]


FUNCTION = re.compile(r"^(?:cdef|cpdef|def)\s+(?:[\w*\[\]]+\s+)*?\**(\w+)\s*\(")
COMPARISONS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
COMPARISON = re.compile(r"(?<=\s)(<=|>=|==|!=|<|>)(?=\s)")
CONSTANT = re.compile(r"(?<![\w.])\d+(?![\w.])")
LOGIC = re.compile(r"(?<=\s)(and|or)(?=\s)")
TERM = re.compile(r"\s[+-]\s")
AUGMENTED = re.compile(r"^(\s*)([\w.\[\]>-]+\s*[+-]=\s*.+?)\s*$")


def _operand_end(code: str, i: int) -> int:
    """The end of the operand that starts at code[i] (a name or number with its
    attributes, indices and calls, or a parenthesised expression), or -1."""
    n = len(code)
    if i < n and code[i] == "-":
        i += 1
    if i < n and code[i] == "(":
        i = _close(code, i)
        if i < 0:
            return -1
    else:
        m = re.match(r"[\w.]+", code[i:])
        if not m:
            return -1
        i += m.end()
    while i < n and code[i] in "[(":
        i = _close(code, i)
        if i < 0:
            return -1
        m = re.match(r"\.\w+", code[i:])
        if m:
            i += m.end()
    return i


TIGHTER = re.compile(r"\s*(\*\*|//|[*/%])\s*")


def _term_end(code: str, i: int) -> int:
    """The end of the term that starts at code[i]: operands joined by operators that bind
    tighter than + and - (a - b * c drops b * c, not b), or -1."""
    end = _operand_end(code, i)
    while end > 0:
        m = TIGHTER.match(code, end)
        if not m:
            break
        end = _operand_end(code, m.end())
    return end


def _close(code: str, i: int) -> int:
    """The index after the bracket that closes code[i], or -1 (not on this line)."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] in "([":
            depth += 1
        elif code[j] in ")]":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def _is_binary(code: str, at: int) -> bool:
    """Whether the operator at code[at] has an operand on its left (not a unary minus)."""
    left = code[:at].rstrip()
    return bool(left) and (left[-1].isalnum() or left[-1] in "_)]")


def line_mutants(file: str, number: int, line: str, function: str) -> list[Mutant]:
    """Every mutant of one line of a function's body."""
    code = code_part(line)
    stripped = code.strip()
    if not stripped or stripped.startswith(("cdef ", "ctypedef ", "include ", "from ", "cimport ", "@")):
        # declarations: only what a `cdef T x = value` computes
        if not stripped.startswith("cdef ") or " = " not in code:
            return []
    start = code.index(" = ") + 3 if stripped.startswith("cdef ") else 0

    def made(col, kind, old, new):
        return Mutant(file, number, col, kind, old, new, function)

    found = []
    for m in COMPARISON.finditer(code, start):
        found.append(made(m.start(), "comparison", m[1], COMPARISONS[m[1]]))
    for m in CONSTANT.finditer(code, start):
        found.append(made(m.start(), "constant", m[0], str(int(m[0]) + 1)))
    for m in LOGIC.finditer(code, start):
        found.append(made(m.start(), "logic", m[1], "or" if m[1] == "and" else "and"))
    for m in TERM.finditer(code, start):
        if not _is_binary(code, m.start()):
            continue
        end = _term_end(code, m.end())
        if end > 0 and (end == len(code) or code[end] in " ),]:"):
            found.append(made(m.start(), "term", line[m.start():end], ""))
    m = AUGMENTED.match(code)
    if m and start == 0 and not stripped.endswith(":"):
        found.append(made(len(m[1]), "term", line[len(m[1]):len(m[1]) + len(m[2])], "pass"))
    return found


def file_mutants(file: str, text: str) -> list[Mutant]:
    """Every mutant in the rule functions of one source file, in file order."""
    found, function, in_doc, signature = [], None, False, 0
    for number, line in enumerate(text.split("\n"), 1):
        code = code_part(line)
        if line and not line[0].isspace() and not line.startswith("#"):
            m = FUNCTION.match(line)
            function = m[1] if m else None
            if function and NOT_RULES.fullmatch(function):
                function = None
            signature = code.count("(") - code.count(")")
            continue
        if signature > 0:                 # the signature's continuation lines
            signature += code.count("(") - code.count(")")
            continue
        if function is None:
            continue
        if line.count('"""') % 2 == 1:
            in_doc = not in_doc
            continue
        if in_doc or '"""' in line:
            continue
        found += line_mutants(file, number, line, function)
    return found


def game_mutants(tree: pathlib.Path, game: str, functions: str | None, sources=SOURCES) -> list[Mutant]:
    folder = GAMES[game][0]
    found = []
    for name in sources:
        path = tree / "ext" / folder / name
        if path.exists():
            found += file_mutants(path.relative_to(tree).as_posix(), path.read_text(encoding="utf-8"))
    if functions:
        found = [m for m in found if re.search(functions, m.function)]
    return found


def seeded_order(mutants: list[Mutant], seed: int, game: str) -> list[Mutant]:
    order = sorted(mutants, key=lambda m: m.id)
    random.Random(f"{seed}:{game}").shuffle(order)
    return order


# ---------------------------------------------------------------------------------------
# Building and testing in a scratch copy
# ---------------------------------------------------------------------------------------
SKIP = shutil.ignore_patterns(".git", "build", "__pycache__", ".pytest_cache", "results",
                              "test-artifacts", "*.egg-info", ".venv")


def scratch_copy(parent: str | None) -> pathlib.Path:
    """A copy of the tree whose files keep their times, so that a build there compiles
    only what a mutant changed."""
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="mutation-", dir=parent))
    tree = scratch / "tree"
    shutil.copytree(ROOT, tree, ignore=SKIP, copy_function=shutil.copy2, symlinks=True)
    return tree


def compiler_wrappers(tree: pathlib.Path, level: str) -> dict:
    """CC and CXX for the scratch builds: the compilers with `-O<level> -g0` last on the
    line, so that they win over the build's own -O3 and -g (a mutant's core compiles
    several times faster at -O1 than at -O3, and a rule is the same rule at any level)."""
    env = {}
    for var, compiler in (("CC", "gcc"), ("CXX", "g++")):
        wrapper = tree.parent / f"{compiler}-O{level}"
        wrapper.write_text(f'#!/bin/sh\nexec {compiler} "$@" -O{level} -g0\n', encoding="utf-8")
        wrapper.chmod(0o755)
        env[var] = str(wrapper)
    return env


ENV_EXTRA: dict = {}      # set once per run: the compiler wrappers


def _env(tree: pathlib.Path) -> dict:
    return {**os.environ, **ENV_EXTRA, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}


def _run(cmd: list, tree: pathlib.Path, timeout: float) -> tuple[int | None, str]:
    """Run `cmd` in `tree` in a process group of its own; (exit status or None on time
    out, the output's last lines)."""
    proc = subprocess.Popen(cmd, cwd=tree, env=_env(tree), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out[-2000:]
    except BaseException:          # interrupted: its group goes too (it has a session of its own)
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    return proc.returncode, out[-2000:]


def core_library(tree: pathlib.Path, game: str) -> pathlib.Path | None:
    found = sorted((tree / "gutenberg_ai" / "games" / GAMES[game][0]).glob("_core*.so"))
    return found[0] if found else None


def build(tree: pathlib.Path, game: str, timeout: float) -> tuple[bool, str]:
    """Build the tree's cores; (whether the game's core was compiled anew, why not)."""
    before = core_library(tree, game)
    stamp = before.stat().st_mtime_ns if before else None
    code, out = _run([sys.executable, "setup.py", "build_ext", "--inplace"], tree, timeout)
    if code != 0:
        return False, "does not compile" if code is not None else "build timed out"
    after = core_library(tree, game)
    if after is None or after.stat().st_mtime_ns == stamp:
        return False, "the build did not compile the game's core again"
    return True, ""


def test_files(tree: pathlib.Path, game: str) -> list[str]:
    names = set()
    for pattern in GAMES[game][1]:
        names.update(p.name for p in (tree / "tests").glob(pattern))
    return [f"tests/{n}" for n in sorted(names)]


def run_tests(tree: pathlib.Path, files: list[str], timeout: float) -> dict:
    """The game's tests on the tree as built: caught (they fail, crash or time out) or
    not, with the first failure's line."""
    started = time.monotonic()
    code, out = _run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *files],
                     tree, timeout)
    seconds = round(time.monotonic() - started, 1)
    if code is None:
        return {"status": "caught", "how": f"timed out after {timeout:g} s", "seconds": seconds}
    if code == 0:
        return {"status": "survived", "seconds": seconds}
    if code in (4, 5):     # pytest's usage error, no tests collected: nothing was judged
        return {"status": "error", "how": f"pytest exit {code}: {out.strip().splitlines()[-1:]}",
                "seconds": seconds}
    failed = [line for line in out.splitlines() if line.startswith(("FAILED", "ERROR"))]
    how = failed[0][:300] if failed else (f"exit {code}" if code > 0 else f"signal {-code}")
    return {"status": "caught", "how": how, "seconds": seconds}


# ---------------------------------------------------------------------------------------
# The results file
# ---------------------------------------------------------------------------------------
class SettingsError(Exception):
    pass


def load_results(path: pathlib.Path, seed: int) -> dict:
    if not path.exists():
        return {"seed": seed, "games": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SettingsError(f"{path}: not a results file of this script ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("games"), dict) or "seed" not in data:
        raise SettingsError(f"{path}: not a results file of this script (no seed and games)")
    if data["seed"] != seed:
        raise SettingsError(f"{path}: written with --seed {data['seed']!r}, not {seed}: "
                            "give that seed or another --out")
    for game, entry in data["games"].items():
        if game not in GAMES or not isinstance(entry, dict) or not isinstance(entry.get("mutants"), list):
            raise SettingsError(f"{path}: games.{game}: not a game's results")
    return data


def save_results(path: pathlib.Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".part")
    temp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temp, path)


def summary(data: dict) -> dict:
    """Per game: built, caught, survived, share caught, the survivors."""
    out = {}
    for game, entry in data["games"].items():
        judged = [m for m in entry["mutants"] if m["status"] in ("caught", "survived")]
        caught = sum(m["status"] == "caught" for m in judged)
        out[game] = {"built": len(judged), "caught": caught, "survived": len(judged) - caught,
                     "share": round(caught / len(judged), 3) if judged else None,
                     "not built": sum(m["status"] == "not built" for m in entry["mutants"]),
                     "survivors": [m for m in judged if m["status"] == "survived"]}
    return out


def table(data: dict) -> str:
    rows = ["| game | mutants built | caught | survived | share caught | set aside (not built) |",
            "| --- | --- | --- | --- | --- | --- |"]
    lines = []
    for game, s in summary(data).items():
        share = f"{100 * s['share']:.0f}%" if s["share"] is not None else "-"
        rows.append(f"| {game} | {s['built']} | {s['caught']} | {s['survived']} | {share} | {s['not built']} |")
        for m in s["survivors"]:
            lines.append(f"  {game}: {m['file']}:{m['line']} {m['function']}(): {m['change']}")
    return "\n".join(rows + (["", "Survivors:"] + lines if lines else []))


# ---------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------
def check_game(game: str, args, data: dict, out: pathlib.Path, log) -> None:
    entry = data["games"].setdefault(game, {"mutants": []})
    done = {m["id"] for m in entry["mutants"]}
    judged = sum(m["status"] in ("caught", "survived") for m in entry["mutants"])
    order = seeded_order(game_mutants(ROOT, game, args.functions, args.sources), args.seed, game)
    entry["candidates"] = len(order)
    todo = [m for m in order[:args.mutants * ATTEMPTS_PER_MUTANT] if m.id not in done]
    if judged >= args.mutants or not todo:
        log(f"{game}: {judged} mutants already judged in {out}")
        return
    tree = scratch_copy(args.scratch)
    ENV_EXTRA.update(compiler_wrappers(tree, args.opt_level))
    try:
        files = test_files(tree, game)
        entry["tests"] = files
        baseline = run_tests(tree, files, args.timeout or 3600)
        if baseline["status"] != "survived":
            raise SettingsError(f"{game}: its tests fail on the tree as it is ({baseline.get('how')}): "
                                "a mutation check needs them passing")
        # A mutant that makes a game go on for ever is caught by the time bound.
        timeout = args.timeout or round(TIMEOUT_FACTOR * baseline["seconds"] + 60)
        entry["timeout"] = timeout
        log(f"{game}: {len(order)} candidates; tests {' '.join(files)} pass in {baseline['seconds']} s "
            f"(a mutant's: {timeout} s at most)")
        for mutant in todo:
            if judged >= args.mutants:
                break
            source = tree / mutant.file
            text = source.read_text(encoding="utf-8")
            record = {**dataclasses.asdict(mutant), "id": mutant.id, "change": mutant.change(text)}
            source.write_text(mutant.apply(text), encoding="utf-8")
            try:
                started = time.monotonic()
                built, why = build(tree, game, args.build_timeout)
                record["build_seconds"] = round(time.monotonic() - started, 1)
                if built:
                    record.update(run_tests(tree, files, timeout))
                else:
                    record.update(status="not built", how=why)
            finally:
                source.write_text(text, encoding="utf-8")
            judged += record["status"] in ("caught", "survived")
            entry["mutants"].append(record)
            save_results(out, data)
            log(f"{game} {judged}/{args.mutants}: {record['status']:9} {mutant.file}:{mutant.line} "
                f"{record['change']}")
    finally:
        if not args.keep_scratch:
            shutil.rmtree(tree.parent, ignore_errors=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES),
                    help="a game to check (again for more; default: every game)")
    ap.add_argument("--mutants", type=int, default=8, help="mutants built and tested per game (8)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the mutants' choice (0)")
    ap.add_argument("--out", default="results/mutation.json", help="the results file (results/mutation.json)")
    ap.add_argument("--sources", type=lambda text: text.split(","), default=SOURCES,
                    help="the files of ext/GAME/ to plant mutants in, comma-separated (core.pyx)")
    ap.add_argument("--functions", help="only functions whose name matches this regular expression")
    ap.add_argument("--timeout", type=float, default=None,
                    help=f"seconds for a mutant's tests (default: {TIMEOUT_FACTOR} times the unmutated tests' + 60)")
    ap.add_argument("--build-timeout", type=float, default=1800, help="seconds for a build (1800)")
    ap.add_argument("--opt-level", default="1", choices=["0", "1", "2", "3"],
                    help="the compilers' optimisation level for the mutants' builds (1: at 0 the build is "
                         "faster still but Gutenberg's tests take ten times as long)")
    ap.add_argument("--scratch", help="where the scratch copies go (the system's temporary folder)")
    ap.add_argument("--keep-scratch", action="store_true", help="keep the scratch copies")
    ap.add_argument("--list", action="store_true", help="print the chosen mutants; build nothing")
    ap.add_argument("--report", action="store_true", help="print the table of --out; build nothing")
    args = ap.parse_args(argv)
    if not 1 <= args.mutants <= MAX_MUTANTS:
        ap.error(f"--mutants: {args.mutants} is not between 1 and {MAX_MUTANTS}")
    for name in ("timeout", "build_timeout"):
        if getattr(args, name) is not None and not 0 < getattr(args, name) <= 86400:
            ap.error(f"--{name.replace('_', '-')}: {getattr(args, name)} is not a number of seconds in (0, 86400]")
    if args.functions is not None:
        try:
            re.compile(args.functions)
        except re.error as e:
            ap.error(f"--functions: {args.functions!r} is not a regular expression ({e})")
    for name in args.sources:
        if not re.fullmatch(r"[\w-]+\.(pyx|pxi)", name):
            ap.error(f"--sources: {name!r} is not the name of a .pyx or .pxi file of ext/GAME/")
    args.game = args.game or list(GAMES)
    return args


def _stop(signum, frame):
    raise KeyboardInterrupt     # a kill stops the running build or tests and removes the scratch copy


def main(argv=None) -> int:
    args = parse_args(argv)
    out = pathlib.Path(args.out)
    signal.signal(signal.SIGTERM, _stop)

    def log(text):
        print(text, flush=True)

    try:
        if args.list:
            for game in args.game:
                order = seeded_order(game_mutants(ROOT, game, args.functions, args.sources), args.seed, game)
                log(f"{game}: {len(order)} candidates; the first {args.mutants} in the seeded order:")
                texts = {}
                for m in order[:args.mutants]:
                    text = texts.setdefault(m.file, (ROOT / m.file).read_text(encoding="utf-8"))
                    log(f"  {m.file}:{m.line} {m.function}() [{m.kind}] {m.change(text)}")
            return 0
        data = load_results(out, args.seed)
        if not args.report:
            for game in args.game:
                check_game(game, args, data, out, log)
        log(table(data))
    except SettingsError as e:
        print(f"mutation_check: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mutation_check: interrupted; the results so far are in {out}", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
