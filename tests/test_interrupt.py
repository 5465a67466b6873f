"""Ctrl-C stops a search promptly, with a message and no traceback, in `hint`, `play` and
`arena` (the compiled search runs without the GIL, in slices between which it looks
for signals: ext/gutenberg/heuristic.pxi, SearchTree.run).

Each test starts the command in a process of its own with a search budget of minutes,
waits until the search has begun (search_probe.py: the search's first progress report
creates a marker file), sends SIGINT and checks that the process ends well before the
budget would have (a generous bound: these tests are about stopping at all, not about
speed) with exit status 130 and a message."""
import pathlib
import signal
import subprocess
import sys
import threading
import time

import gutenberg_ai

PROBE = pathlib.Path(__file__).with_name("search_probe.py")
POSITIONS = pathlib.Path(gutenberg_ai.__file__).parent / "games" / "gutenberg" / "data" / "positions"
BUDGET = 600          # seconds the search would take if nothing stopped it
STOPS_WITHIN = 60     # a bound far below the budget; a stopped search ends in a fraction of a second


class Running:
    """A command in a process of its own, its output read as it comes; `marker` appears
    once a search is running in it."""

    def __init__(self, marker, *args, stdin=None):
        self.marker = marker
        # Ctrl-C as a terminal gives it: the child's SIGINT at its default (an ignored
        # SIGINT is inherited through exec, and Python then installs no KeyboardInterrupt).
        self.proc = subprocess.Popen([sys.executable, "-u", str(PROBE), str(marker), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        if stdin:
            self.proc.stdin.write(stdin)
            self.proc.stdin.flush()
        self.out, self.err = [], []
        # Both streams read as they come: a full stderr pipe would stop the child.
        self.reader = threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True)
        self.err_reader = threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True)
        self.reader.start()
        self.err_reader.start()

    @staticmethod
    def _read(stream, lines):
        for line in stream:
            lines.append(line)

    def wait_for(self, predicate, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return
            assert self.proc.poll() is None, "".join(self.err)
            time.sleep(0.05)
        raise AssertionError("the command did not get there: " + "".join(self.out))

    def interrupt(self):
        self.wait_for(lambda r: r.marker.exists())   # inside the search, not before it
        sent = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(STOPS_WITHIN)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        self.reader.join(5)
        self.err_reader.join(5)
        return time.monotonic() - sent, "".join(self.out), "".join(self.err)


def test_ctrl_c_stops_a_hint(tmp_path):
    run = Running(tmp_path / "searching", "hint", str(POSITIONS / "plan-round1-2p.json"),
                  "--seconds", str(BUDGET), "--board", "--threads", "2")
    run.wait_for(lambda r: "patronage rewards" in "".join(r.out))   # the board is shown, then it searches
    took, out, err = run.interrupt()
    assert run.proc.returncode == 130, err
    assert took < STOPS_WITHIN
    assert "interrupted" in err and "Traceback" not in err + out


def test_ctrl_c_stops_the_ai_thinking_in_play(tmp_path):
    record = tmp_path / "cut.json"
    # seat 1: the AI at seat 0 chooses its character first, and thinks for minutes
    run = Running(tmp_path / "searching", "play", "--seat", "1", "--seconds", str(BUDGET),
                  "--seed", "3", "--save", str(record), stdin="")
    run.wait_for(lambda r: "dealt:" in "".join(r.out))
    took, out, err = run.interrupt()
    assert run.proc.returncode == 130, err
    assert took < STOPS_WITHIN
    assert "Interrupted." in out and "Traceback" not in err + out
    assert record.exists()   # the game so far is saved on the way out


def test_ctrl_c_stops_an_arena(tmp_path):
    out_dir = tmp_path / "arena"
    run = Running(tmp_path / "searching", "arena", "--bots", "smmcts,random", "--games", "1",
                  "--rounds", "1", "--seconds", str(BUDGET), "--jobs", "1", "--out", str(out_dir))
    run.wait_for(lambda r: (out_dir / "arena.json").exists())   # settings written: the games begin
    took, out, err = run.interrupt()
    assert run.proc.returncode == 130, err
    assert took < STOPS_WITHIN
    assert "Interrupted." in out and "Traceback" not in err + out
    assert not list(out_dir.rglob("game-*.json"))   # the game cut short left no record
