#!/bin/sh
# Build the prototype (gutenberg_native/_native*.so).
#
#   ./build.sh                # against the working tree: ../../ext, ../../gutenberg_ai
#   ./build.sh f36fa50        # against a commit: its ext/ and gutenberg_ai/ extracted to
#                             # build/snapshot (git archive: read-only), with its own
#                             # gutenberg_ai._core built there, so that edits in progress
#                             # in the working tree do not get in the way. Then run
#                             # GUTENBERG_ROOT=build/snapshot python check.py (or bench.py).
set -e
cd "$(dirname "$0")"
if [ -n "$1" ]; then
    rm -rf build/snapshot && mkdir -p build/snapshot
    git -C ../.. archive "$1" ext gutenberg_ai benchmarks setup.py pyproject.toml README.md \
        | tar -x -C build/snapshot
    git -C ../.. rev-parse "$1" > build/snapshot/COMMIT
    (cd build/snapshot && python setup.py -q build_ext --inplace)
    export GUTENBERG_EXT="$PWD/build/snapshot/ext"
fi
# Always from scratch: the rules may come from another folder than last time.
rm -rf build/cython build/temp.* build/lib.*
python setup.py -q build_ext --inplace
