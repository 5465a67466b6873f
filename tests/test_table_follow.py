"""At the table: a recorded game followed entry by entry through the terminal loop, as a
person at a real table would enter it (gutenberg_ai.interfaces.table)."""
import io

import pytest
from rich.console import Console

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.games.records import GameRecord, final_result, load_record, play_bots, seat_entry
from gutenberg_ai.interfaces.table import EntryRefused, FollowedGame, resume
from gutenberg_ai.interfaces.table_terminal import TableSession
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.search.hints import hint


def recorded(key, players, seed=3):
    """A game of heuristic bots (fast and seeded): (game, record, final state)."""
    params = {"players": players}
    if players == 1 and "automa" in games.get(key).rules_module.DEFAULTS:
        params["automa"] = 1
    game = games.get(key).load(**params)
    bots = [make_bot("heuristic", game, s, seed=s) for s in range(players)]
    record = GameRecord(game, seed, [seat_entry(s, "heuristic", s) for s in range(players)], "test")
    final = play_bots(game, bots, seed, record)
    return game, record, final


def script(actions, session_box, extra=None):
    """read_line answering every prompt with the recorded entry's words (a reveal: the
    recorded value of the entry shown); `extra(prompt, followed)` may answer first."""
    def read_line(prompt):
        followed = session_box[0].followed
        if extra is not None:
            line = extra(prompt, followed)
            if line is not None:
                return line
        kind, value = followed.next_turn()
        return actions[value if kind == "reveal" else len(followed.entries)]["text"]
    return read_line


def follow(game, record, seat, tmp_path, extra=None, width=100):
    console = Console(file=io.StringIO(), width=width, height=40)
    box = []
    session = TableSession(FollowedGame(game, seat, seed=5), console, script(record.actions, box, extra),
                           save=str(tmp_path / "table.json"), budget={"iterations": 50})
    box.append(session)
    return session, session.run(), console.file.getvalue()


@pytest.mark.parametrize("key,players,seat", [("gutenberg", 2, 1), ("printing-press", 3, 2),
                                              ("lead-letter-printers", 4, 0), ("gutenberg", 1, 0),
                                              ("printing-press", 1, 0)])
def test_a_recorded_game_followed_by_hand_ends_in_the_recorded_scores(key, players, seat, tmp_path):
    game, record, final = recorded(key, players)
    session, code, text = follow(game, record, seat, tmp_path)
    assert code == 0, text[-2000:]
    state = session.followed.state
    assert state.is_terminal()
    assert final_result(state)["scores"] == record.result["scores"]
    assert "End of the game" in text
    saved = load_record(tmp_path / "table.json")      # the autosave: what the person saw
    assert saved["viewer"] == seat and saved["command"] == "table"
    assert [e.get("action") for e in saved["actions"] if not e.get("hidden")] == \
        [e["action"] for e, mine in zip(record.actions, session.followed.entries) if mine.entered]
