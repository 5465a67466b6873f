"""`python tests/search_probe.py MARKER ARGS...` runs `gutenberg-ai ARGS...` with every
game's search reporting that it runs: its first progress report (made from inside the
search, after its first slice of iterations) creates the file MARKER.

test_interrupt.py sends Ctrl-C once MARKER exists, so the signal certainly lands in a
running search rather than before it (a sleep would only make that likely)."""
import pathlib
import sys

from gutenberg_ai import games
from gutenberg_ai.interfaces.cli import main


def _reporting(search, marker: pathlib.Path):
    """`search` that creates `marker` at its first progress report, then reports on."""
    def probed(*args, progress=None, **options):
        def report(done, seconds):
            marker.touch()
            if progress is not None:
                progress(done, seconds)
        return search(*args, progress=report, **options)
    return probed


if __name__ == "__main__":
    marker = pathlib.Path(sys.argv[1])
    for game in games.GAMES.values():
        game.core.search = _reporting(game.core.search, marker)
    sys.exit(main(sys.argv[2:]))
