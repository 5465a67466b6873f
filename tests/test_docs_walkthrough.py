"""docs/at-the-table.md's walkthrough excerpts are what the code prints: each block
docs/at-the-table/walkthrough.py makes (the recorded games followed through the terminal
loop, the doc's words typed, hints at the doc's budget) stands in the doc as it is. A
change of the search, the hints' table or the loop's words fails this test until the
excerpts are made again (`python docs/at-the-table/walkthrough.py --game G`)."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "at-the-table.md"


def walkthrough():
    spec = importlib.util.spec_from_file_location("walkthrough", ROOT / "docs" / "at-the-table" / "walkthrough.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("key", ["gutenberg", "printing-press", "lead-letter-printers"])
def test_the_docs_walkthrough_excerpts_are_what_the_code_prints(key):
    doc = DOC.read_text(encoding="utf-8")
    for block in walkthrough().excerpts(key):
        assert block in doc, f"{key}: an excerpt not in {DOC.name} as printed:\n{block}"
