"""Builds the compiled core of each game (GAME_CORES below), e.g. gutenberg_ai.games.gutenberg._core: the
rules of ext/gutenberg/core.pyx (with its .pxd and included .pxi files, the shared search and
OpenSpiel face of ext/engine/ among them), compiled as C++ with the game's native
OpenSpiel glue ext/gutenberg/spiel.cc, which includes Cython's output: one translation
unit a game, one copy of its rules for the native game, the Python shell and Python.

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
import os
import platform
import sys

from Cython.Build import cythonize
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

# Each game's compiled core: its extension module, its Cython source (which includes the
# shared search and OpenSpiel face from ext/engine/) and its OpenSpiel glue, which
# includes the C++ that Cython writes beside the source (one translation unit a game;
# None: the core alone, not yet a native OpenSpiel game).
GAME_CORES = [
    ("gutenberg_ai.games.gutenberg._core", "ext/gutenberg/core.pyx", "ext/gutenberg/spiel.cc"),
    ("gutenberg_ai.games.printing_press._core", "ext/printing_press/core.pyx",
     "ext/printing_press/spiel.cc"),
    ("gutenberg_ai.games.lead_letter_printers._core", "ext/lead_letter_printers/core.pyx",
     "ext/lead_letter_printers/spiel.cc"),
]

include_dirs = [
    "ext",
    os.path.dirname(open_spiel_dir),                     # "open_spiel/spiel.h"
    os.path.join(open_spiel_dir, "abseil-cpp"),          # "absl/..."
    os.path.join(open_spiel_dir, "json", "include"),     # "nlohmann/json.hpp"
]
compile_args = [
    "-std=c++20", *(["-O0", "-g"] if debug else ["-O3"]),
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

# One cythonize call for every game: Cython caches its dependency tree across calls, so
# a second call would not see its own include path. Includes resolve in the including
# file's folder first, so each game finds its own api.pxi.
extensions = cythonize(
    [Extension(name, [source], language="c++") for name, source, _ in GAME_CORES],
    include_path=["ext", "ext/engine"],
    compiler_directives={"language_level": "3", "embedsignature": True},
    annotate=os.environ.get("GUTENBERG_ANNOTATE") == "1",
)
for ext, (name, source, glue) in zip(extensions, GAME_CORES):
    generated = os.path.splitext(source)[0] + ".cpp"
    if glue:
        # Cython writes <source>.cpp; the glue includes it and is what gets compiled.
        ext.sources = [glue]
        ext.depends = [generated, "ext/engine/native_game.h", "ext/engine/net_kernels.h"]
    ext.include_dirs = include_dirs + [os.path.dirname(source), "ext/engine"]
    ext.extra_compile_args = compile_args

# The games' cores compile in parallel (one C++ translation unit each).
setup(ext_modules=extensions, options={"build_ext": {"parallel": os.cpu_count() or 1}})
