"""Builds the compiled core: ext/core.pyx (with its .pxd and included .pxi files) becomes
the extension module gutenberg_ai._core."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("GUTENBERG_DEBUG") == "1"
extensions = [
    Extension(
        "gutenberg_ai._core",
        ["ext/core.pyx"],
        include_dirs=["ext"],
        extra_compile_args=["-O0", "-g"] if debug else ["-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["ext"],
        compiler_directives={"language_level": "3", "embedsignature": True},
        annotate=os.environ.get("GUTENBERG_ANNOTATE") == "1",
    ),
)
