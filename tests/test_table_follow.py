"""At the table: a recorded game followed entry by entry through the terminal loop, as a
person at a real table would enter it (gutenberg_ai.interfaces.table)."""
import io
import json
import os
import pathlib
import random
import re

import pytest
from rich.console import Console
from rich.text import Text

from gutenberg_ai import core_of, games
from gutenberg_ai.games.gutenberg.names import ROWS
from gutenberg_ai.games.lead_letter_printers import _core as llp_core
from gutenberg_ai.games.positionfile import PositionError, load_position
from gutenberg_ai.games.records import GameRecord, final_result, load_record, play_bots, seat_entry
from gutenberg_ai.interfaces.table import EntryRefused, FollowedGame, resume
from gutenberg_ai.interfaces.cli import main
from gutenberg_ai.interfaces.table_terminal import TableSession
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.search.hints import hint

LLP = llp_core.ACTIONS


class FactoriesFirst:
    """Lead Letter Printers: a factory pile drawn from whenever the game offers it, else a
    seeded random move (the factories another player draws are the game's hidden
    information; the heuristic never draws them)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def step(self, state):
        legal = state.legal_actions()
        piles = [a for a in legal if LLP["FACTORY_PILE"] <= a < LLP["UP"]]
        return piles[0] if piles else self.rng.choice(legal)


def recorded(key, players, seed=3, factories=False):
    """A game of heuristic bots (fast and seeded): (game, record, final state);
    `factories`: bots that draw factories first (FactoriesFirst) instead."""
    params = {"players": players}
    if players == 1 and "automa" in games.get(key).rules_module.DEFAULTS:
        params["automa"] = 1
    game = games.get(key).load(**params)
    bots = [make_bot("heuristic", game, s, seed=s) for s in range(players)]
    if factories:
        bots = [FactoriesFirst(s) for s in range(players)]
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


def follow(game, record, seat, tmp_path, extra=None, width=100, names=None):
    console = Console(file=io.StringIO(), width=width, height=40)
    box = []
    session = TableSession(FollowedGame(game, seat, seed=5, names=names), console, script(record.actions, box, extra),
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


def own_decisions(followed, acts):
    """Follow the recorded game `acts`, placeholders placed and reveals entered as they
    came up; at each of the person's decisions with a choice while something is hidden
    from them, yield the entry's index, then enter the recorded move (a caller that stops
    leaves that decision pending)."""
    while True:
        kind, value = followed.next_turn()
        if kind == "end":
            return
        if kind == "unseen":
            followed.place_unseen()
            continue
        if kind == "reveal":
            followed.reveal(value, acts[value]["action"])
            continue
        n = len(followed.entries)
        if kind == "own" and followed.hidden_count() and len(followed.state.legal_actions()) > 1:
            yield n
        followed.enter(acts[n]["action"])


def _hints(hints):
    """Hints as JSON gives them back (share, win chance, interval, moves)."""
    return json.loads(json.dumps([h.as_dict() for h in hints]))


@pytest.mark.parametrize("key,players,seat", [("gutenberg", 3, 0), ("printing-press", 2, 1),
                                              ("printing-press", 3, 2), ("printing-press", 4, 3),
                                              ("lead-letter-printers", 2, 0)])
def test_a_hint_at_the_persons_decision_is_the_hint_on_the_real_table(key, players, seat):
    # What the person has not seen is a placeholder in the followed game (the others'
    # character tiles and plans, tokens, factories); the search redraws it from a
    # canonical order of what is unseen and takes the root's priors in such a redraw, so
    # the hint is the real table's, same seed and budget. Every third such decision from the third, 3 to 5.
    game, record, _ = recorded(key, players, factories=key == "lead-letter-printers")
    acts = record.actions
    followed = FollowedGame(game, seat, seed=5)
    compared = differ = 0
    for k, n in enumerate(own_decisions(followed, acts)):
        if k % 3 != 2:
            continue
        real = _true_state(game, acts, n)
        differ += followed.state.history() != real.history()      # stand-ins, not the truth
        assert _hints(followed.hint(iterations=40, seed=4)) == _hints(hint(real, iterations=40, seed=4)), n
        compared += 1
        if compared == 5:
            break
    assert compared >= 3 and differ == compared


@pytest.mark.parametrize("key,players,seat", [("gutenberg", 3, 0), ("printing-press", 3, 2)])
def test_a_hint_for_another_player_is_searched_from_what_the_person_knows(key, players, seat):
    # Another player's decision: searched from one world drawn from what the person knows
    # (the core's redraw, canonical), so the same as on the real table, same seed.
    game, record, _ = recorded(key, players)
    acts = record.actions
    followed = FollowedGame(game, seat, seed=5)
    for k, n in enumerate(own_decisions(followed, acts)):
        if k == 2:
            break
    while followed.next_turn()[0] != "move" or len(followed.state.legal_actions()) < 2:
        kind, value = followed.next_turn()
        if kind == "unseen":
            followed.place_unseen()
        elif kind == "reveal":
            followed.reveal(value, acts[value]["action"])
        else:
            followed.enter(acts[len(followed.entries)]["action"])
    n = len(followed.entries)
    real = FollowedGame(game, seat, seed=5, entries=[(e["player"], e["action"], True) for e in acts[:n]])
    assert followed.state.history() != real.state.history()      # stand-ins, not the truth
    to_act = followed.state.current_player()
    hints = followed.hint(to_act, iterations=60, seed=4)
    assert hints and all(h.action in followed.state.legal_actions() for h in hints)
    assert _hints(hints) == _hints(real.hint(to_act, iterations=60, seed=4))
    with pytest.raises(EntryRefused, match=f"^it is not your decision: {followed.name(to_act)} is to move$"):
        followed.hint(seat, iterations=60)


@pytest.mark.parametrize("key,players,seat", [("gutenberg", 2, 1), ("printing-press", 3, 0),
                                              ("lead-letter-printers", 2, 0), ("printing-press", 1, 0)])
def test_a_position_written_at_the_table_gives_the_tables_hint(key, players, seat, tmp_path, capsys):
    """`position FILE` writes what the person knows; `gutenberg-ai hint FILE` on it gives
    the table's hint (same seed and budget). At three of the person's decisions, 10
    entries apart at least, that the game's position format holds, with something hidden
    from the person (solo: nothing is)."""
    game, record, _ = recorded(key, players, factories=key == "lead-letter-printers")
    saved = []

    def writable(followed):
        try:
            followed.printing_game.positions.position_of(followed.state, viewer=followed.seat)
        except PositionError:
            return False
        return True

    def extra(prompt, followed):
        n = len(followed.entries)
        if len(saved) == 3:
            return "quit"
        if (followed.next_turn()[0] != "own" or (saved and n < saved[-1][0] + 10)
                or not (followed.hidden_count() or players == 1) or len(followed.state.legal_actions()) < 2
                or not writable(followed)):
            return None
        path = tmp_path / f"at-{n}.json"
        saved.append((n, path, _hints(followed.hint(iterations=40, seed=4))))
        return f"position {path}"

    names = ["Ann", "Bo", "Cy", "Di"][:players]
    session, code, text = follow(game, record, seat, tmp_path, extra, names=names)
    assert code == 0 and len(saved) == 3, text[-3000:]
    assert f"Saved this position to {saved[0][1]}; ask for a hint with: gutenberg-ai hint" in " ".join(text.split())
    for n, path, table in saved:
        assert list(load_position(path)[1].names) == names, n      # the players' names written
        capsys.readouterr()
        assert main(["hint", str(path), "--iterations", "40", "--seed", "4", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["hints"] == table, n


def test_position_says_why_not_and_writes_nothing(tmp_path):
    game, record, _ = recorded("gutenberg", 2)
    asked = []

    def extra(prompt, followed):
        if len(followed.entries) == 2 and len(asked) < 2:      # the setup's deal: a draw
            asked.append(prompt)
            return ["position", f"position {tmp_path / 'x.json'}"][len(asked) - 1]
        return "quit" if len(followed.entries) == 3 else None

    session, code, text = follow(game, record, 1, tmp_path, extra)
    text = " ".join(text.split())
    assert code == 0
    assert "position FILE: name the file, e.g. position table.json" in text
    assert "position: not here:" in text and "(save FILE keeps the game as you have seen it)" in text
    assert not (tmp_path / "x.json").exists()


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
    for typed, shown in (("0", "0"), ("99999999", "99999999"), ("9" * 5000, "999999999999...")):
        with pytest.raises(ValueError, match=re.escape(f"there is no entry {shown} in the list: they are numbered 1")):
            find_entry(typed, options)
    assert find_entry("woodcutting O illuminating", options, cards=games.get("printing-press").cards) == \
        acts[len(followed.entries)]["action"]


def test_tiles_printed_alike_are_one_entry_by_what_they_show():
    """Lead Letter Printers has two lead letters printed alike (AD, 1 paper: numbers 29
    and 30). Typed as the tile shows, either draw is the first of them (a person cannot
    tell which was drawn); words that fit tiles that differ are still refused."""
    from gutenberg_ai.interfaces.entries import find_entry
    cards = games.get("lead-letter-printers").cards
    options = {7: "draw lead letter 29 AD (1 paper)", 8: "draw lead letter 30 AD (1 paper)",
               9: "draw lead letter 31 AE (1 paper)"}
    assert find_entry("lead letter AD 1 paper", options, cards=cards) == 7
    assert find_entry("lead letter AD 1 paper", {8: options[8], 9: options[9]}, cards=cards) == 8
    with pytest.raises(ValueError, match="fits 3 entries"):
        find_entry("lead letter 1 paper", options, cards=cards)


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
                                              ("lead-letter-printers", 2, 0), ("gutenberg", 4, 0),
                                              ("lead-letter-printers", 4, 1)])
def test_every_step_of_a_followed_game_fits_a_100_by_40_terminal(key, players, seat, tmp_path):
    """What the table mode prints between two prompts (one step), with the prompt's line,
    fits 100 columns and 40 lines, like play's decisions (issue: "the screen of each step
    fits 100x40"): also a decision printed under a notice (the placeholders just placed,
    a refusal, a correction and the entries it left out)."""
    game, record, _ = recorded(key, players)
    console = Console(file=io.StringIO(), width=100, height=40, highlight=False)
    box, screens, start, typed = [], [], [0], [0]
    fixes = []

    def notices(prompt, followed):
        """At some of the person's decisions: a correction of the entry before (the same
        value again) or an entry refused first."""
        n = len(followed.entries)
        if prompt.startswith(f"entry {n} (was: "):
            return record.actions[n - 1]["text"]
        if followed.next_turn()[0] != "own" or n in fixes or n % 3:
            return None
        fixes.append(n)
        return f"fix {n}" if followed.entries[-1].entered and n % 2 else "#999999"
    answer = script(record.actions, box, notices)

    def printed_since_the_entry():
        """The lines printed since the last prompt, less the echo of what was typed there
        (on a terminal that is the prompt's own line)."""
        lines = console.file.getvalue()[start[0]:].rstrip("\n").split("\n")
        rest = lines[typed[0]:]
        return rest if "".join(rest).strip() else []

    def read_line(prompt):
        # a prompt longer than the terminal is wide takes more lines (a correction's)
        screens.append(printed_since_the_entry() + [prompt[i:i + 100] for i in range(0, len(prompt), 100)])
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
    decisions = [lines for lines in screens if any(line.startswith("─") and "Your decision" in line for line in lines)]
    view = games.get(key).view
    noticed = [lines for lines in decisions if lines and (
        lines[0].startswith(("not possible", "  no longer fits", view.UNSEEN_DRAW)) or "corrected to" in lines[0]
        or any(line.startswith(tuple(f"player {s} " for s in range(players))) for line in lines[:3]))]
    assert noticed, "no decision printed under a notice"


@pytest.mark.parametrize("names, why", [
    (["Bob", "Bob"], "names.1: 'Bob' is also names.0"),
    (["Tom", " TOM "], "names.1: ' TOM ' is names.0 ('Tom') in other letters: hint NAME reads a name whatever its case"),
    (["you", "Tom"], "names.0: 'you' is the person's own seat (seat 1)"),
    (["1", "Tom"], "names.0: '1' reads as a seat number"),
    (["", "Tom"], "names.0: an empty name"),
    (["chance", "Tom"], "names.0: 'chance' is how the log names the draws"),
    (["player 1", "Tom"], "names.0: 'player 1' is how the table names seat 1"),
    (["N" * 41, "Tom"], "names.0: 41 characters, at most 40 (a position file's bound)"),
])
def test_names_that_would_not_tell_the_seats_apart_are_refused(names, why):
    """The table's commands and messages name seats by these names (hint NAME, "NAME is
    not to move now"): two seats of one name, another seat called "you" or a name that
    reads as a seat number would make them ambiguous."""
    game = games.get("gutenberg").load(players=2)
    with pytest.raises(ValueError, match=__import__("re").escape(why)):
        FollowedGame(game, 1, names=names)
    assert FollowedGame(game, 1, names=["Ann", "you"]).names == ["Ann", "you"]
    assert FollowedGame(game, 1, names=["player 0", "N" * 40]).names == ["player 0", "N" * 40]


def test_a_position_the_table_writes_with_the_longest_names_is_read_back(tmp_path, monkeypatch):
    """Its names are bounded as a position file's are: `position FILE` writes one that
    hint reads, with the names."""
    from every_game import cli
    from gutenberg_ai.games.positionfile import load_position
    monkeypatch.chdir(tmp_path)
    start = pathlib.Path(games.__file__).parent / "gutenberg" / "data" / "positions" / "plan-round1-2p.json"
    out = cli("table", "--position", str(start), "--names", "T" * 40 + ",Ann", "--seed", "1",
              stdin="position p.json\nquit\n")
    assert out.returncode == 0, out.stderr
    assert list(load_position(str(tmp_path / "p.json"))[1].names) == ["T" * 40, "Ann"]
    out = cli("table", "--position", str(start), "--names", "T" * 41 + ",Ann")
    assert out.returncode == 2 and "41 characters, at most 40" in out.stderr


def test_a_file_that_is_not_a_record_is_not_written_over(tmp_path, monkeypatch):
    """--save, save FILE and position FILE write over a file of what they write (a
    record saved again, a position), never the position read nor a file of anything
    else."""
    from every_game import cli
    monkeypatch.chdir(tmp_path)
    shipped = pathlib.Path(games.__file__).parent / "printing_press" / "data" / "positions" / "close-round1-2p.json"
    (tmp_path / "mine.json").write_text(shipped.read_text())
    (tmp_path / "notes.txt").write_text("mine")
    for args, words in [(["--position", "mine.json", "--save", "mine.json"], "--save: mine.json is the file read"),
                        (["--save", "notes.txt"], "--save: notes.txt exists and is not a game record")]:
        out = cli("table", *args)
        assert out.returncode == 2 and words in out.stderr, out.stderr
    out = cli("table", "--save", "t.json", stdin="save notes.txt\nposition notes.txt\nsave t2.json\nquit\n")
    said = " ".join(out.stdout.split())
    assert "save: notes.txt exists and is not a game record: it is not written over" in said
    assert "position: notes.txt exists and is not a position file" in said
    assert json.loads((tmp_path / "t2.json").read_text())["format"] == "gutenberg-record"
    assert cli("table", "--save", "t2.json", stdin="quit\n").returncode == 0     # a record: saved again
    assert (tmp_path / "mine.json").read_text() == shipped.read_text()
    assert (tmp_path / "notes.txt").read_text() == "mine"
    os.mkfifo(tmp_path / "pipe")           # not opened to be looked at: nobody writes to it
    out = cli("table", "--save", "pipe", stdin="quit\n")
    assert out.returncode == 2 and "--save: pipe exists and is not a game record" in out.stderr


def test_a_resumed_save_is_checked_as_a_record_and_the_prompt_takes_no_wrong_count(tmp_path, monkeypatch):
    """A table's save whose entry says another move than its action, or names an action
    the game has not, is named at its place in the file; `log N` takes a count of 1 or
    more and says so otherwise; `fix N` answered with nothing leaves the entry."""
    from every_game import cli
    monkeypatch.chdir(tmp_path)
    out = cli("table", "--save", "t.json", stdin="0\n1\nquit\n")
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "t.json").read_text())
    for edit, words in [(lambda d: d["actions"][0].update(text="[red]lies[/red]"),
                         "t2.json: actions[0].text: '[red]lies[/red]', but this game reads action 0 as"),
                        (lambda d: d["actions"][0].update(action=999999),
                         "t2.json: actions[0].action: action 999999 is out of range")]:
        bad = json.loads(json.dumps(data))
        edit(bad)
        (tmp_path / "t2.json").write_text(json.dumps(bad))
        out = cli("table", "--resume", "t2.json", stdin="quit\n")
        assert out.returncode == 2 and words in out.stderr, out.stderr
    out = cli("table", "--resume", "t.json", stdin="log 1e9\nlog 0\nlog 1\nfix 1\n\nlog\nquit\n")
    said = " ".join(out.stdout.split())
    assert "log N: N is how many of the last entries to show, 1 or more (not '1e9')" in said
    assert "(not '0')" in said
    assert "1. left as it was: draw P0" in said
    assert json.loads((tmp_path / "t.json").read_text())["actions"] == data["actions"]


def test_a_game_of_play_resumed_at_the_table_says_it_is_followed_at_a_table_from_now(tmp_path, monkeypatch):
    """`table --resume` of a game `play` saved goes on with its AI seats as people at the
    table, and says so (it went on without a word); a table's own save says nothing of it."""
    from every_game import cli
    monkeypatch.chdir(tmp_path)
    out = cli("play", "--iterations", "20", "--seed", "2", stdin="1\n1\nsave g.json\nquit\n")
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "g.json").read_text())["command"] == "play"
    out = cli("table", "--resume", "g.json", stdin="quit\n")
    said = " ".join(out.stdout.split())
    assert out.returncode == 0, out.stderr
    assert "g.json is a game of gutenberg-ai play; from here it is followed as a game at a real table" in said
    assert "(against the AI: gutenberg-ai play --resume g.json)" in said
    out = cli("table", "--resume", "g.json", stdin="quit\n")     # the table's save now
    assert "is a game of gutenberg-ai" not in out.stdout


def test_an_entry_shown_but_not_entered_is_never_taken_for_the_truth():
    """At a reveal (another's hidden plan now shown) the state holds a stand-in until the
    person enters it: a hint refuses, the board says so, a position is not written."""
    game, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    followed = FollowedGame(game, 1, seed=5)
    while True:
        kind, value = followed.next_turn()
        assert kind != "end"
        if kind == "reveal":
            break
        if kind == "unseen":
            followed.place_unseen()
        else:
            followed.enter(acts[len(followed.entries)]["action"])
    assert f"entry {value + 1} (player 0's move) is shown now" in followed.shown_stand_ins()
    with pytest.raises(EntryRefused, match="enter what the table shows first"):
        followed.hint(iterations=20)
    lines = []
    session = TableSession(followed, console=Console(file=io.StringIO(), width=120),
                           read_line=lambda prompt: lines.pop(0))
    session._command("board", {})
    assert "the board shows a stand-in for it" in session.console.file.getvalue()
    with pytest.raises(ValueError, match="the file would hold a stand-in"):
        session._command("position never-written.json", {})
    followed.reveal(value, acts[value]["action"])
    assert followed.shown_stand_ins() == ""


def test_a_table_without_a_seed_takes_a_new_one_says_it_and_its_resume_keeps_it(tmp_path, monkeypatch):
    from every_game import cli
    monkeypatch.chdir(tmp_path)
    out = cli("table", "--save", "t.json", stdin="0\nquit\n")
    assert out.returncode == 0, out.stderr
    said = re.search(r"Seed (\d+), a new one for the stand-ins", " ".join(out.stdout.split()))
    assert said, out.stdout
    assert json.loads((tmp_path / "t.json").read_text())["table_seed"] == int(said.group(1))
    assert resume(tmp_path / "t.json").seed == int(said.group(1))         # the save's
    assert resume(tmp_path / "t.json", seed=3).seed == 3                  # unless given
    again = cli("table", "--resume", "t.json", stdin="quit\n")
    assert again.returncode == 0 and "a new one" not in again.stdout
    # The save's seed goes on: another is refused, as --players is, and the save is left as it was.
    saved = (tmp_path / "t.json").read_text()
    other = cli("table", "--resume", "t.json", "--seed", str(int(said.group(1)) + 1), stdin="quit\n")
    assert other.returncode == 2 and "--resume: the seed is the saved game's" in other.stderr
    assert "leave out --seed" in other.stderr and (tmp_path / "t.json").read_text() == saved
    assert cli("table", "--resume", "t.json", "--seed", said.group(1), stdin="quit\n").returncode == 0


def test_the_persons_own_name_is_kept_in_the_save_and_on_resume(tmp_path):
    game = games.get("gutenberg").load(players=2)
    followed = FollowedGame(game, 1, seed=2, names=["Tom", "Ann"])
    followed.save(tmp_path / "t.json")
    seats = {e["seat"]: e["player"] for e in json.loads((tmp_path / "t.json").read_text())["seats"]}
    assert seats == {0: "Tom", 1: "Ann"}
    again = resume(tmp_path / "t.json")
    assert again.names == ["Tom", "Ann"] and again.written_names() == ["Tom", "Ann"]
    # Without a name of their own the person is "you", as before.
    FollowedGame(game, 1, seed=2, names=["Tom", None]).save(tmp_path / "u.json")
    assert resume(tmp_path / "u.json").names == ["Tom", "you"]


def test_the_table_says_how_the_automas_rules_moved_its_markers(tmp_path):
    """Solo at a real table the person moves the automa's markers: after its planning card
    is entered, each arrow and the markers it leaves (the engine's own trace of the
    card), and at each round's end the marker it passed or received."""
    game, record, _ = recorded("gutenberg", 1)
    session, code, text = follow(game, record, 0, tmp_path)
    assert code == 0, text[-2000:]
    lines = " ".join(text.split())
    rounds = core_of(session.followed.state).round
    assert lines.count("its markers now:") == rounds          # one planning card a round
    assert lines.count("arrow 1,") == rounds
    assert lines.count("with the first player token") == rounds - 1   # not after the last round
    # The markers the log gives after the last card are those on the automa's board then.
    entries = session.followed.entries
    last = max(i for i, e in enumerate(entries) if session.followed.state_before(i).is_chance_node()
               and core_of(session.followed.state_before(i)).step_name() == "automa: planning card")
    plan = core_of(session.followed.state_before(last + 1)).to_dict()["players"][1]["plan"]
    said = lines.rsplit("its markers now: ", 1)[1].split(" ")[:10]
    assert " ".join(said).rstrip(",") == ", ".join(f"{r} {n}" for r, n in zip(ROWS, plan))


def test_the_log_command_repeats_the_automas_rule_notes_under_their_entries(tmp_path):
    """`log N` gives each entry's notes under it, as the page's log does: the planning
    card's arrows under the card's entry, not under any other."""
    game, record, _ = recorded("gutenberg", 1)
    session, code, _ = follow(game, record, 0, tmp_path)
    assert code == 0
    console = Console(file=io.StringIO(), width=100, height=40)
    session.console = console
    entries = session.followed.entry_lines()
    session._log([str(len(entries))])
    shown = console.file.getvalue().splitlines()
    cards = [i for i, (_, words, notes) in enumerate(entries) if any(n.strip().startswith("arrow 1,") for n in notes)]
    assert len(cards) == core_of(session.followed.state).round
    for i in cards:
        at = next(k for k, line in enumerate(shown) if line.lstrip().startswith(f"{i + 1}. "))
        assert shown[at + 1].strip() == entries[i][2][0].strip()          # its first note right under it
        assert any(line.strip().startswith("arrow 1,") for line in shown[at + 1:at + 1 + len(entries[i][2])])
    # Entries with no note have the next entry right under them.
    plain = next(i for i, (_, _, notes) in enumerate(entries[:-1]) if not notes)
    at = next(k for k, line in enumerate(shown) if line.lstrip().startswith(f"{plain + 1}. "))
    assert shown[at + 1].lstrip().startswith(f"{plain + 2}. ")
