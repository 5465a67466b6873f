"""Every game's position files in the tools, written once: a file of another game, a game
record or a file nested too deep is refused, saying what it is. Each game's file keeps
its own position files (tests/test_position.py, test_pp_tools.py, test_llp_tools.py)."""
import json

import pytest

from gutenberg_ai import games
from gutenberg_ai.games.positionfile import PositionError, load_position
from every_game import KEYS


@pytest.mark.parametrize("key, other", [(k, o) for k in KEYS for o in KEYS if o != k])
def test_a_position_of_another_game_is_refused_saying_what_it_is(key, other):
    wanted, found = games.get(key), games.get(other)
    data = {"format": found.position_format, "players": []}
    with pytest.raises(PositionError, match=f"a position of {found.title}, not of {wanted.title}"):
        load_position(data, game=key)
    with pytest.raises(PositionError, match=f"a position of {found.title}"):
        wanted.positions.load_position(data)          # the game's own loader


@pytest.mark.parametrize("key", KEYS)
def test_a_record_or_a_file_nested_too_deep_is_not_a_position(key, tmp_path):
    own = games.get(key).positions.load_position
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"format": "gutenberg-record", "version": 3}))
    with pytest.raises(PositionError, match="this is a game record"):
        own(record)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100 + "]" * 100)
    with pytest.raises(PositionError, match="nested more than"):
        own(deep)
