"""Builds the native OpenSpiel game prototype: gutenberg_native._native, one extension
made of ext/core.pyx (included by src/_native.pyx, compiled as C++) and the OpenSpiel
glue src/gutenberg_spiel.cc, in one translation unit (src/unity.cpp).

    cd prototypes/native && python setup.py build_ext --inplace

The rules come from ../../ext (the working tree), or from the folder named by the
environment variable GUTENBERG_EXT (holding core.pyx, api.pxi, gutenberg_types.pxd),
e.g. a snapshot of a commit while ext/ is being edited (see README.md).

It compiles against the headers that the open_spiel wheel ships and links to the
wheel's pyspiel.so (-l:pyspiel.so, with an rpath to its folder): the result only loads
with that exact open_spiel build (2.0.2 here).
"""
import importlib.metadata
import os
import re

import pyspiel
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
EXT = os.path.abspath(os.environ.get("GUTENBERG_EXT") or os.path.join(HERE, "..", "..", "ext"))
SITE = os.path.dirname(pyspiel.__file__)          # pyspiel.so lives here
OS_DIR = os.path.join(SITE, "open_spiel")
CYTHON_OUT = os.path.join("build", "cython")


def core_directives():
    """The `# cython:` directives of ext/core.pyx (they do not apply to an included
    file, and cdivision/boundscheck change what the rules compute or cost)."""
    with open(os.path.join(EXT, "core.pyx")) as f:
        first = f.readline()
    m = re.match(r"#\s*cython:\s*(.*)", first)
    directives = {}
    for item in (m.group(1).split(",") if m else []):
        key, value = (part.strip() for part in item.split("="))
        directives[key] = {"True": True, "False": False}.get(value, value)
    return directives


ext = Extension(
    "gutenberg_native._native",
    ["src/_native.pyx"],
    language="c++",
    include_dirs=[EXT, "src"],
)
# Cython writes build/cython/src/_native.cpp; the extension compiles src/unity.cpp,
# which includes it and then the glue.
(ext,) = cythonize([ext], include_path=[EXT], build_dir=CYTHON_OUT,
                   compiler_directives={"language_level": "3", **core_directives()})
ext.sources = ["src/unity.cpp"]
ext.depends = ["src/gutenberg_spiel.cc", "src/gutenberg_spiel.h",
               os.path.join(CYTHON_OUT, "src", "_native.cpp")]
ext.include_dirs = [
    os.path.join(CYTHON_OUT, "src"), "src", EXT,
    SITE,                                        # "open_spiel/spiel.h"
    os.path.join(OS_DIR, "abseil-cpp"),          # "absl/..."
    os.path.join(OS_DIR, "json", "include"),     # "nlohmann/json.hpp"
]
# pyspiel.so was built by GCC 14 as C++20: the same standard keeps abseil's
# std-or-absl choices (optional, string_view, ordering) identical.
ext.extra_compile_args = ["-std=c++20", "-O3", "-Wno-unused-function",
                          "-Wno-deprecated-enum-enum-conversion", "-Wno-sign-compare"]
ext.library_dirs = [SITE]
ext.libraries = [":pyspiel.so"]
ext.runtime_library_dirs = [SITE]

# What the extension was built against, checked by gutenberg_native/__init__.py before
# the extension is loaded (a different open_spiel would load and then misbehave).
with open(os.path.join(HERE, "gutenberg_native", "_build_info.py"), "w") as f:
    f.write(f"OPEN_SPIEL_VERSION = {importlib.metadata.version('open_spiel')!r}\n"
            f"PYSPIEL_SO = {os.path.join(SITE, 'pyspiel.so')!r}\n"
            f"RULES = {EXT!r}\n")

setup(name="gutenberg-native-prototype", ext_modules=[ext], packages=["gutenberg_native"])
