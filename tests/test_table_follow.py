"""At the table: a recorded game followed entry by entry through the terminal loop, as a
person at a real table would enter it (gutenberg_ai.interfaces.table)."""
import io

import pytest
from rich.console import Console
from rich.text import Text

from gutenberg_ai import games
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


def _true_state(game, actions, n):
    state = game.new_initial_state()
    for entry in actions[:n]:
        state.apply_action(entry["action"])
    return state


def test_a_hint_at_the_persons_decision_is_the_hint_on_the_real_table():
    # Gutenberg, 3 players, seat 0: the others' character tiles and plans are stand-ins
    # in the followed game; the search redraws them, so the hint is the real table's.
    game, record, _ = recorded("gutenberg", 3)
    acts = record.actions
    followed = FollowedGame(game, 0, seed=5)
    compared = 0
    while compared < 3:
        kind, value = followed.next_turn()
        if kind == "unseen":
            followed.place_unseen()
            continue
        if kind == "reveal":
            followed.reveal(value, acts[value]["action"])
            continue
        n = len(followed.entries)
        if kind == "own" and followed.hidden_count() and len(followed.state.legal_actions()) > 1:
            assert followed.state.history() != _true_state(game, acts, n).history()   # stand-ins differ
            mine = followed.hint(iterations=120, seed=4)
            real = hint(_true_state(game, acts, n), iterations=120, seed=4)
            assert [h.as_dict() for h in mine] == [h.as_dict() for h in real]
            compared += 1
        followed.enter(acts[n]["action"])
    # Another player's decision: searched from one world of what seat 0 knows.
    while followed.next_turn()[0] != "move":
        kind, value = followed.next_turn()
        if kind == "unseen":
            followed.place_unseen()
        elif kind == "reveal":
            followed.reveal(value, acts[value]["action"])
        else:
            followed.enter(acts[len(followed.entries)]["action"])
    to_act = followed.state.current_player()
    hints = followed.hint(to_act, iterations=60, seed=4)
    assert hints and all(h.action in followed.state.legal_actions() for h in hints)
    with pytest.raises(EntryRefused, match="is not to move now"):
        followed.hint(0, iterations=60)


def test_an_impossible_entry_is_refused_and_nothing_changes(tmp_path):
    game, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    tried = []

    def extra(prompt, followed):
        if len(followed.entries) == 1 and not tried:        # the first card drawn, again
            tried.append(followed.entries[:])
            return acts[0]["text"]
        if len(followed.entries) == 1 and len(tried) == 1:   # a move at a draw: none of its words
            tried.append(followed.entries[:])
            return "take orders"
        if len(followed.entries) == 3:
            return "quit"
        return None

    session, code, text = follow(game, record, 1, tmp_path, extra)
    assert code == 0
    assert "is none of what can be entered now" in text
    assert session.followed.entries[:1] == tried[0] == tried[1]
    assert [e.action for e in session.followed.entries] == [e["action"] for e in acts[:3]]
    followed = FollowedGame(game, 1, seed=5)
    followed.enter(acts[0]["action"])
    with pytest.raises(EntryRefused, match="not possible"):
        followed.enter(acts[0]["action"])       # by id: the card is already out
    assert len(followed.entries) == 1


def test_a_card_entered_by_what_it_shows_where_its_words_fit_several():
    """Printing Press: the deal of card 78 (woodcutting / O / illuminating), typed as the
    card shows it. Word by word it fits card 46 (- | woodcutting | illuminating) too
    ("o" is in "woodcutting"); the card lookup (`gutenberg-ai cards`) names card 78 only."""
    from gutenberg_ai.interfaces.table_terminal import find_entry
    game, record, _ = recorded("printing-press", 3)
    acts = record.actions
    followed = FollowedGame(game, 2, seed=5)
    while acts[len(followed.entries)]["text"] != "deal card 78 (woodcutting / O / illuminating)":
        kind, value = followed.next_turn()
        if kind == "unseen":
            followed.place_unseen()
        else:
            followed.enter(acts[len(followed.entries)]["action"])
    options = followed.options()
    card46 = next(a for a, t in options.items() if t.startswith("deal card 46 "))
    assert find_entry("- woodcutting illuminating", options, cards=games.get("printing-press").cards) == card46
    assert find_entry("woodcutting O illuminating", options, cards=games.get("printing-press").cards) == \
        acts[len(followed.entries)]["action"]


def test_a_correction_replays_and_names_what_no_longer_fits(tmp_path):
    game, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    asked = []

    def extra(prompt, followed):
        if len(followed.entries) == 40 and not asked:
            asked.append(prompt)
            return "fix 1"
        if prompt.startswith("entry 1 (was: "):
            asked.append(prompt)
            return acts[1]["text"]          # the card drawn second, said to be the first
        if len(asked) == 2:
            return "quit"
        return None

    session, code, text = follow(game, record, 1, tmp_path, extra)
    assert code == 0
    assert f"entry 1 (was: {acts[0]['text']}), corrected?" in text
    assert f"no longer fits, left out: entry 2 (chance: {acts[1]['text']})" in text
    entries = session.followed.entries
    assert entries[0].action == acts[1]["action"] and acts[1]["action"] not in [e.action for e in entries[1:5]]


def test_a_closed_session_resumes_from_the_autosave(tmp_path):
    game, record, _ = recorded("printing-press", 3)
    stop = {"at": 150}

    def extra(prompt, followed):
        return "quit" if len(followed.entries) >= stop["at"] else None

    session, code, _ = follow(game, record, 2, tmp_path, extra)
    assert code == 0 and len(session.followed.entries) >= 150
    first = session.followed
    again = resume(tmp_path / "table.json", seed=5)
    assert again.masked() == first.masked()       # the same game, as the person knows it
    assert [e.entered for e in again.entries] == [e.entered for e in first.entries]
    stop["at"] = 10 ** 6
    console = Console(file=io.StringIO(), width=100, height=40)
    box = []
    rest = TableSession(again, console, script(record.actions, box, extra), save=str(tmp_path / "table.json"))
    box.append(rest)
    assert rest.run() == 0
    assert final_result(again.state)["scores"] == record.result["scores"]


@pytest.mark.parametrize("key,players,seat", [("gutenberg", 2, 1), ("printing-press", 3, 2),
                                              ("lead-letter-printers", 2, 0)])
def test_every_step_of_a_followed_game_fits_a_100_by_40_terminal(key, players, seat, tmp_path):
    """What the table mode prints between two prompts (one step), with the prompt's line,
    fits 100 columns and 40 lines, like play's decisions (issue: "the screen of each step
    fits 100x40")."""
    game, record, _ = recorded(key, players)
    console = Console(file=io.StringIO(), width=100, height=40, highlight=False)
    box, screens, start, typed = [], [], [0], [0]
    answer = script(record.actions, box)

    def printed_since_the_entry():
        """The lines printed since the last prompt, less the echo of what was typed there
        (on a terminal that is the prompt's own line)."""
        lines = console.file.getvalue()[start[0]:].rstrip("\n").split("\n")
        rest = lines[typed[0]:]
        return rest if "".join(rest).strip() else []

    def read_line(prompt):
        screens.append(printed_since_the_entry() + [prompt])
        line = answer(prompt)
        start[0] = len(console.file.getvalue())
        typed[0] = len(console.render_lines(Text(prompt + line), pad=False))
        return line

    session = TableSession(FollowedGame(game, seat, seed=5), console, read_line,
                           save=str(tmp_path / "table.json"), budget={"iterations": 50})
    box.append(session)
    assert session.run() == 0 and session.followed.state.is_terminal()
    screens.append(printed_since_the_entry())   # the end of the game
    assert len(screens) > len(record.actions) // 2
    for n, lines in enumerate(screens):
        shown = "\n".join(lines)
        assert len(lines) <= 40, f"step {n}: {len(lines)} lines\n{shown}"
        assert max(len(line) for line in lines) <= 100, f"step {n}\n{shown}"
