"""Builds the compiled core of each game (GAMES below), e.g. gutenberg_ai.games.gutenberg._core: the
rules of ext/gutenberg/core.pyx (with its .pxd and included .pxi files, the shared search and
OpenSpiel face of ext/engine/ among them), compiled as C++ with the game's native
OpenSpiel glue, which includes Cython's output: one translation unit a game, one copy of
its rules for the native game, the Python shell and Python. The glue is written here into
build/glue/<game>/spiel.cc from one template, ext/engine/spiel.cc.in, and the game's table
gutenberg_ai/games/<game>/data/native_game.json (names, players, parameter defaults; the
game's Python module reads the same table as its DEFAULTS).

    pip install -e .                    # or: python setup.py build_ext --inplace
    GUTENBERG_DEBUG=1 pip install -e .  # -O0 -g
    GUTENBERG_PORTABLE=1 pip install -e .  # no -mpopcnt on x86-64 (a processor before 2008), no AVX2 copies

How the extension meets OpenSpiel (more in docs/native.md):

* It compiles against the headers that the open_spiel wheel ships, as C++20 like
  pyspiel.so itself (abseil picks std or absl types by the language standard). open_spiel
  is a build requirement (pyproject.toml) pinned to the version the package depends on.
* It is NOT linked to pyspiel.so and records no path to it: pyspiel's symbols are left
  undefined in _core. At import, gutenberg_ai/__init__.py imports pyspiel, reopens the
  pyspiel.so that Python has loaded with RTLD_NOLOAD | RTLD_GLOBAL (which makes its
  symbols visible to the libraries loaded after it), then imports _core: every symbol
  resolves at once (Python loads extensions with RTLD_NOW) against that very library, so
  the game is registered where pyspiel looks. A runpath would not do: pip builds in an
  isolated environment with its own copy of open_spiel that is deleted after the build,
  so a runpath to the build's pyspiel.so dangles; an editable install leaves the
  extension in the source tree, at no fixed place relative to the environment; and a
  second pyspiel.so loaded from another place would split the game registry.
* It is tied to one open_spiel build (class layouts, symbols). The build writes the
  version and the size of pyspiel.so into gutenberg_ai/_build_info.py, and the package
  refuses to import under another one, before the extension is loaded.
"""
import importlib.metadata
import importlib.util
import json
import os
import platform
import string
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
debug = os.environ.get("GUTENBERG_DEBUG") == "1"

# The open_spiel compiled against, found without importing it (only headers are used).
pyspiel_so = importlib.util.find_spec("pyspiel").origin
open_spiel_dir = os.path.dirname(importlib.util.find_spec("open_spiel").origin)

with open(os.path.join(HERE, "gutenberg_ai", "_build_info.py"), "w") as f:
    f.write('"""Written by setup.py: the open_spiel that gutenberg_ai.games.gutenberg._core was built against."""\n'
            f"OPEN_SPIEL_VERSION = {importlib.metadata.version('open_spiel')!r}\n"
            f"PYSPIEL_SO_SIZE = {os.path.getsize(pyspiel_so)}\n")

# The games whose compiled core is built: the folder of each under ext/ (its Cython source
# core.pyx, which includes the shared search and OpenSpiel face from ext/engine/) and under
# gutenberg_ai/games/ (its package, whose data/native_game.json makes its OpenSpiel glue).
GAMES = ("gutenberg", "printing_press", "lead_letter_printers")

GLUE_TEMPLATE = os.path.join("ext", "engine", "spiel.cc.in")
# The table's fields, the JSON type each takes (a truth value is not a count) and its words.
NATIVE_GAME_FIELDS = {"short_name": (str, "text"), "long_name": (str, "text"),
                      "min_players": (int, "a whole number"), "max_players": (int, "a whole number"),
                      "defaults": (dict, "an object {...}")}


def _words(text) -> bool:
    """Whether `text` can stand in a C++ string as JSON quotes it: printable ASCII."""
    return isinstance(text, str) and text.isascii() and text.isprintable()


def native_game_problems(info) -> list[str]:
    """What is wrong with a game's table (native_game.json), one line a problem."""
    if not isinstance(info, dict):
        return ["the table is not a JSON object"]
    out = [f"{name}: missing" for name in NATIVE_GAME_FIELDS if name not in info]
    out += [f"{name}: not a field of the table" for name in info if name not in NATIVE_GAME_FIELDS]
    for name, (kind, words) in NATIVE_GAME_FIELDS.items():
        value = info.get(name)
        if name in info and (not isinstance(value, kind) or isinstance(value, bool)):
            out.append(f"{name}: {value!r} is not {words}")
    if isinstance(info.get("short_name"), str) and not info["short_name"].isidentifier():
        out.append(f"short_name: {info['short_name']!r} is not a C++ name")
    if isinstance(info.get("long_name"), str) and not _words(info["long_name"]):
        out.append(f"long_name: {info['long_name']!r} is not printable ASCII")
    defaults = info.get("defaults")
    for key, value in (defaults.items() if isinstance(defaults, dict) else ()):
        if not isinstance(value, (bool, int, str)):
            out.append(f"defaults.{key}: {value!r} is not a whole number, truth value or text")
        elif not _words(key) or (isinstance(value, str) and not _words(value)):
            out.append(f"defaults.{key}: not printable ASCII")
    return out


def parameter_cc(value) -> str:
    """A default as C++ (an OpenSpiel GameParameter); JSON's quoting is C++'s for ASCII."""
    if isinstance(value, bool):
        return f"GameParameter({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"GameParameter({value})"
    return f"GameParameter(std::string({json.dumps(value)}))"


def glue_text(folder: str) -> str:
    """The OpenSpiel glue of the game in `folder`, from the template and the game's table."""
    path = os.path.join("gutenberg_ai", "games", folder, "data", "native_game.json")
    try:
        with open(os.path.join(HERE, path), encoding="utf-8") as f:
            info = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: cannot be read: {e}")
    problems = native_game_problems(info)
    if problems:
        sys.exit(f"{path}:\n  " + "\n  ".join(problems))
    defaults = "\n".join(f"        {{{json.dumps(key)}, {parameter_cc(value)}}},"
                         for key, value in info["defaults"].items())
    with open(os.path.join(HERE, GLUE_TEMPLATE), encoding="utf-8") as f:
        template = string.Template(f.read())
    return template.substitute(info, folder=folder, defaults=defaults)


def write_glue(folder: str) -> str:
    """Writes the game's glue into the build tree and returns its path; an unchanged text
    is not rewritten, so its time stays and nothing is recompiled for it."""
    path = os.path.join("build", "glue", folder, "spiel.cc")
    text = glue_text(folder)
    full = os.path.join(HERE, path)
    try:
        with open(full, encoding="utf-8") as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)
    return path


include_dirs = [
    "ext",
    os.path.dirname(open_spiel_dir),                     # "open_spiel/spiel.h"
    os.path.join(open_spiel_dir, "abseil-cpp"),          # "absl/..."
    os.path.join(open_spiel_dir, "json", "include"),     # "nlohmann/json.hpp"
]
compile_args = [
    "-std=c++20", *(["-O0", "-g"] if debug else ["-O3"]),
    # Python's own flags bring -fwrapv, which CPython's C needs and the cores do not (their
    # hashes and random numbers are unsigned): without it an int index widens once per
    # loop, and the heuristic's games run about 6% faster (benchmarks/README.md).
    "-fno-wrapv",
    # Only the module's init function is exported: two games' cores define the same
    # `spiel_*` names (ext/engine/spiel.pxi).
    "-fvisibility=hidden",
    # Cython's unused helpers, and C++20's view of arithmetic between Cython's enums.
    "-Wno-unused-function", "-Wno-deprecated-enum-enum-conversion", "-Wno-sign-compare",
    "-Wno-deprecated-enum-float-conversion",
]
# Card sets are bit masks: without the instruction, every popcount is a call into libgcc.
# POPCNT is in every x86-64 processor since 2008 (x86-64-v2); elsewhere (aarch64, ...) the
# compiler has its own instruction for it. GUTENBERG_PORTABLE=1 leaves it out.
if (platform.machine().lower() in ("x86_64", "amd64")
        and os.environ.get("GUTENBERG_PORTABLE") != "1" and sys.platform != "win32"):
    compile_args.append("-mpopcnt")
# The network's hot loops get an AVX2 copy beside the baseline (ext/engine/net_kernels.h);
# GUTENBERG_PORTABLE=1 leaves it out too.
if os.environ.get("GUTENBERG_PORTABLE") == "1":
    compile_args.append("-DGUTENBERG_PORTABLE")

def compiled_extensions() -> list:
    """The games' cores, Cython's output and the glue written for them. One cythonize
    call for every game: Cython caches its dependency tree across calls, so a second call
    would not see its own include path. Includes resolve in the including file's folder
    first, so each game finds its own api.pxi."""
    from Cython.Build import cythonize   # a build requirement (pyproject.toml), not an sdist's
    extensions = cythonize(
        [Extension(f"gutenberg_ai.games.{game}._core", [f"ext/{game}/core.pyx"], language="c++")
         for game in GAMES],
        include_path=["ext", "ext/engine"],
        compiler_directives={"language_level": "3", "embedsignature": True},
        annotate=os.environ.get("GUTENBERG_ANNOTATE") == "1",
    )
    for ext, game in zip(extensions, GAMES):
        # Cython writes ext/<game>/core.cpp; the glue includes it and is what gets compiled.
        ext.sources = [write_glue(game)]
        ext.depends = [f"ext/{game}/core.cpp", "ext/engine/native_game.h", "ext/engine/net_kernels.h",
                       "ext/engine/uct_kernels.h"]
        ext.include_dirs = include_dirs + [f"ext/{game}", "ext/engine"]
        ext.extra_compile_args = compile_args
    return extensions


# A source distribution carries the sources (MANIFEST.in), not Cython's output or the
# glue: the build from it writes both again.
extensions = [] if "sdist" in sys.argv[1:] else compiled_extensions()

# The games' cores compile in parallel (one C++ translation unit each).
setup(ext_modules=extensions, options={"build_ext": {"parallel": os.cpu_count() or 1}})
