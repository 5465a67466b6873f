"""The README's and the docs' snippets work as written.

Every ```python block runs as it stands, as a script in a new Python, from a folder of its own
in which the package's folder is in view (the snippets name the shipped files by their
paths in the repository, and what they write lands in that folder). Every command of a
```sh block runs the same way (`gutenberg-ai ...` as `python -m gutenberg_ai ...`) and
must exit with status 0, unless SKIPPED says why not: it plays a whole game or
tournament, waits for a person or serves until stopped, installs, or needs a file of
the reader's own. A command that is neither run nor skipped with a reason fails the
test, so a new snippet is either checked or says why it is not.
"""
from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
TIMEOUT = 120    # seconds a command may take before it counts as a hang

# A command's start (its words after `gutenberg-ai`, or the program) -> why it is not run.
SKIPPED = {
    "python3 -m venv": "installs the package (what the test suite runs in already)",
    "pip install": "installs packages",
    "python -m pytest": "the test suite itself",
    "python benchmarks/": "a benchmark: minutes on a quiet machine",
    "ray start": "starts a Ray cluster",
    "mkdocs serve": "serves the documentation site until stopped",
    "mkdocs build": "builds the documentation site (.ci/run does, strictly)",
    "gutenberg-ai play": "waits for a person at the terminal",
    "gutenberg-ai serve": "serves until stopped",
    "gutenberg-ai replay": "replays demo.json, the record of a whole game (tests/test_cli.py replays records)",
    "gutenberg-ai review": "reviews a whole game at a search a decision: minutes",
    "gutenberg-ai arena": "a tournament of many games",
    "gutenberg-ai study": "a study of many games",
    "gutenberg-ai selfplay": "self-play of many games",
    "gutenberg-ai train": "trains a network on self-play records",
    "gutenberg-ai suite": "searches every position of a benchmark suite",
    "gutenberg-ai demo --seed 7": "a whole game with a search a move (timed in README.md)",
    "gutenberg-ai demo --game printing-press --seed 7": "a whole game with a search a move (docs/review.md)",
    "gutenberg-ai hint my_table.json": "a position file of the reader's own",
    "gutenberg-ai cards gear gain red --catalogue my_box.json": "a catalogue of the reader's own",
}


def blocks(language: str):
    """(page, number, text) of every ```language block of the pages."""
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        # A block may be indented (inside a list item): its lines lose that indentation.
        for k, m in enumerate(re.finditer(r"^([ \t]*)```" + language + r"\n(.*?)^[ \t]*```", text, re.S | re.M)):
            indent = len(m.group(1))
            yield page, k, "".join(line[indent:] if line[:indent].isspace() else line
                                   for line in m.group(2).splitlines(keepends=True))


def commands(text: str) -> list[str]:
    """The commands of a shell block: a line each (continued by a backslash), comments
    and the indentation of a list item dropped."""
    out = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(shlex.join(shlex.split(line, comments=True)))
    return out


def skip_reason(command: str) -> str | None:
    return next((why for start, why in SKIPPED.items() if command.startswith(start)), None)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder of its own with the package's folder in view, as the current one."""
    (tmp_path / "gutenberg_ai").symlink_to(ROOT / "gutenberg_ai")
    monkeypatch.chdir(tmp_path)
    return tmp_path


PYTHON = list(blocks("python"))
SHELL = [(page, k, c) for page, k, text in blocks("sh") for c in commands(text)]


def test_the_pages_have_snippets():
    assert len(PYTHON) >= 8 and len(SHELL) >= 30
    assert any("gutenberg_ai.hint" in text for _, _, text in PYTHON)


def stated_values_checked(text: str) -> str:
    """A snippet whose lines `EXPRESSION  # VALUE` state a value (a Python literal after
    the #: `pos.step  # {"kind": "fulfil", "player": 0}`) assert it after the line: a
    page states what the code gives, and a stated value that the code no longer gives
    fails. Comments that are words are left as they are."""
    out = []
    for line in text.splitlines():
        out.append(line)
        code, _, comment = line.partition("  #")
        try:
            value = ast.literal_eval(comment.strip())
            ast.parse(code.strip(), mode="eval")
        except (SyntaxError, ValueError):
            continue
        out.append(f"assert ({code.strip()}) == {value!r}, {code.strip()!r} + ' is ' + repr({code.strip()})")
    return "\n".join(out) + "\n"


def test_a_stated_value_is_checked():
    checked = stated_values_checked('x = {"a": 1}\nx  # {"a": 2}\nx  # an object\n')
    assert "assert (x) == {'a': 2}" in checked and checked.count("assert") == 1


@pytest.mark.parametrize("page,number,text", PYTHON, ids=[f"{p}#{k}" for p, k, _ in PYTHON])
def test_a_python_snippet_runs_as_written(page, number, text, folder):
    """As a reader runs it: a script of its own in a new Python, so a block that leaves
    out an import it needs (gutenberg_ai, which registers the games with OpenSpiel)
    fails here too."""
    script = folder / f"block_{number}.py"
    script.write_text(stated_values_checked(text), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, script.name], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{page} (python block {number})\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


RUN = [(page, k, c) for page, k, c in SHELL if skip_reason(c) is None]


@pytest.mark.parametrize("page,number,command", RUN, ids=[c[:60] for _, _, c in RUN])
def test_a_quick_command_runs_as_written(page, number, command, folder):
    words = shlex.split(command)
    assert words[0] == "gutenberg-ai", f"{page}: {command!r} is neither run nor skipped with a reason (SKIPPED)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "gutenberg_ai", *words[1:]], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{page}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr


def test_every_skipped_command_is_in_the_pages():
    """No reason is left over for a command the pages no longer show."""
    shown = [c for _, _, c in SHELL]
    for start in SKIPPED:
        assert any(c.startswith(start) for c in shown), start
