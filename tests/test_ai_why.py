"""The AI says why: a searching bot's move keeps its search's root statistics as hints
(the same as `gutenberg-ai hint` at the same state, seed and budget, from the tree the
move was chosen with), `play` shows a line after the move and the whole list on `why`,
and the record keeps it, checked when read."""
import io
import json
import random
import sys

import pytest
from rich.console import Console

from every_game import KEYS
from gutenberg_ai import games
from gutenberg_ai.games.records import CHANCE, RecordError, load_record
from gutenberg_ai.games.seen import seen_hints
from gutenberg_ai.interfaces.play import Session, Settings
from gutenberg_ai.search.bots import _move_seed
from gutenberg_ai.search.hints import Hint, Hints, hint
from gutenberg_ai.interfaces import tui

ITERATIONS = 200
SEED = 3


def _played(key, bot="smmcts", answers=(), ai_moves=1, players=2):
    """A session of `key` (the person at seat 0, `bot` at the others) played with move 1
    at every decision until `ai_moves` AI moves were searched, then quit; `answers` are
    typed first at each prompt (before the move). Returns (session, output)."""
    game = games.get(key).load(players=players)
    console = Console(file=io.StringIO(), width=100, height=40)
    pending = []

    def answer(prompt):
        if not pending:
            if len(session.ai_moves()) >= ai_moves:
                return "quit"
            pending.extend(list(answers) + ["1"])
        return pending.pop(0)

    session = Session(game, Settings(human=0, ai=(bot,), iterations=ITERATIONS, seed=SEED), console,
                      read_line=answer)
    session.run()
    return session, console.file.getvalue()


def _state_before(session, index):
    state = session.game.new_initial_state()
    for entry in session.record.actions[:index]:
        state.apply_action(entry["action"])
    return state


@pytest.mark.parametrize("key", KEYS)
def test_an_ai_move_in_play_carries_what_a_hint_at_its_state_seed_and_budget_gives(key):
    session, text = _played(key)
    index = session.ai_moves()[0]
    entry = session.record.actions[index]
    state = _state_before(session, index)
    bot = session.bots[entry["player"]]
    # The bot grows one tree on one thread: the hint of that search.
    expected = hint(state, bot="smmcts", iterations=ITERATIONS, seed=_move_seed(bot.seed, state), threads=1, trees=1)
    assert entry["hints"] is not None and entry["action"] in [h["action"] for h in entry["hints"]["hints"]]
    assert entry["hints"] == expected.as_dict(seconds=False)
    # The line after the move: its chance to win with the interval, and how to see the rest.
    assert "(why 1: what it weighed)" in text and "chance to win" in text


@pytest.mark.parametrize("bot", ["ismcts", "learned"])
def test_every_searching_bot_keeps_its_search(bot):
    session, _ = _played("printing-press", bot=bot)
    index = session.ai_moves()[0]
    state = _state_before(session, index)
    seed = _move_seed(session.bots[1].seed, state)
    expected = hint(state, bot=bot, iterations=ITERATIONS, seed=seed, threads=1, trees=1)
    assert session.record.actions[index]["hints"] == expected.as_dict(seconds=False)


def test_why_prints_the_moves_weighed_without_searching_again(monkeypatch):
    session, _ = _played("printing-press")
    weighed = Hints.from_dict(session.record.actions[session.ai_moves()[0]]["hints"])

    def no_search(*args, **kwargs):
        raise AssertionError("why searched again")
    monkeypatch.setattr(games.get("printing-press").core, "search", no_search)
    session.console.file = io.StringIO()
    session._command("why", [], "why", [], [])
    text = session.console.file.getvalue()
    assert "AI move 1: player 1 (smmcts) played" in text and f"{weighed.iterations:,} iterations" in text
    for h in weighed:
        assert h.text[:40] in text.replace("\n", " ") or h.text.split()[0] in text
        assert h.standing in text
    assert "chance to win, with a 95% interval" in text
    assert len(text.splitlines()) < 40          # fits a 100x40 terminal with the prompt


def test_an_expected_line_names_the_seats_as_the_screen_does():
    """The steps of a line say "you" for the person's seat (play) and each player's own
    name at the table; a step of no seat (a draw) stays as it is."""
    from gutenberg_ai.games.seen import named_step
    assert named_step("player 1: take the red ink", ["Anna", "Ben"]) == "Ben: take the red ink"
    assert named_step("a draw, not known yet", ["Anna", "Ben"]) == "a draw, not known yet"
    assert named_step("player 7: pass", ["Anna", "Ben"]) == "player 7: pass"     # no such seat: as it was
    session, _ = _played("printing-press")
    weighed = Hints.from_dict(session.record.actions[session.ai_moves()[0]]["hints"])
    steps = [step for h in weighed for step in h.line[:4]]
    assert any(step.startswith("player 0: ") for step in steps)
    console = Console(file=io.StringIO(), width=100, height=40)
    console.print(tui.hints_table(weighed, seat_names=["[b]Anna[/b]", "Ben"]))
    text = console.file.getvalue()
    assert "[b]Anna[/b]: " in text and "player 0: " not in text     # a name is shown as typed, not as markup
    session.console.file = io.StringIO()
    session._command("why", [], "why", [], [])
    assert "you: " in session.console.file.getvalue() and "player 0: " not in session.console.file.getvalue()


def test_why_before_any_ai_move_says_so_and_a_bad_number_is_named():
    game = games.get("printing-press").load(players=2)
    console = Console(file=io.StringIO(), width=100)
    session = Session(game, Settings(human=0, iterations=ITERATIONS, seed=SEED), console,
                      read_line=lambda prompt: "quit")
    with pytest.raises(ValueError, match="why: no AI move yet"):
        session._command("why", [], "why", [], [])
    session, _ = _played("printing-press")
    with pytest.raises(ValueError, match="why 5: the AI moves so far are numbered 1 to 1"):
        session._command("why", ["5"], "why 5", [], [])
    with pytest.raises(ValueError, match="why 'x'"):
        session._command("why", ["x"], "why x", [], [])


def test_a_bot_that_does_not_search_says_so_once():
    session, text = _played("printing-press", bot="heuristic", ai_moves=3)
    index = session.ai_moves()[0]
    assert session.record.actions[index]["hints"] is None and "what it weighed" not in text
    assert text.count("player 1 (heuristic) plays without a search of ours, so it has no chances weighed") == 1
    with pytest.raises(ValueError, match="player 1 \\(heuristic\\) plays without a search of ours"):
        session.why()


def test_an_ai_plan_hidden_from_the_person_is_not_explained_until_revealed():
    # Gutenberg: the AI's plan committed before the person's stays hidden until theirs is in.
    game = games.get("gutenberg").load(players=2, rounds=1)
    console = Console(file=io.StringIO(), width=100)
    found = []

    def answer(prompt):
        core = games.core_of(session.state)
        if core.step_name() == "plan" and session.ai_moves() and not found:
            try:
                session.why()
            except ValueError as e:
                found.append(str(e))
            return "quit"
        return "1" if core.step_name() != "plan" else "quit"

    # With seed 5 the AI (seat 0) plans before the person (seat 1).
    session = Session(game, Settings(human=1, iterations=50, seed=5), console, read_line=answer)
    session.run()
    assert found and "hidden from you for now" in found[0]


def test_the_record_keeps_what_was_weighed_and_old_records_load(tmp_path):
    session, _ = _played("printing-press")
    path = tmp_path / "game.json"
    session.record.save(path)
    data = load_record(path)
    index = session.ai_moves()[0]
    assert data["actions"][index]["hints"] == session.record.actions[index]["hints"]
    weighed = Hints.from_dict(data["actions"][index]["hints"])
    assert weighed.as_dict(seconds=False) == session.record.actions[index]["hints"]
    # A record from before the field loads as it did.
    old = json.loads(path.read_text())
    for entry in old["actions"]:
        entry.pop("hints", None)
    load_record(old)
    # A game resumed from the record explains its earlier AI moves without a search.
    again = Session(session.game, Settings(human=0, iterations=ITERATIONS, seed=SEED),
                    Console(file=io.StringIO(), width=100), read_line=lambda p: "quit",
                    start=data["actions"])
    assert again.why(1)[1].as_dict() == weighed.as_dict()


def _hostile(tmp_path, edit):
    session, _ = _played("printing-press")
    data = session.record.to_dict()
    index = session.ai_moves()[0]
    edit(data, index)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data).replace('"NAN"', "NaN"))
    with pytest.raises(RecordError) as caught:
        load_record(path)
    return str(caught.value), index


def _set(field, value, move=0):
    def edit(data, i):
        data["actions"][i]["hints"]["hints"][move][field] = value
    return edit


@pytest.mark.parametrize("edit, where, words", [
    (lambda d, i: d["actions"][i].update(hints="lots"), "hints", "an object"),
    (lambda d, i: d["actions"][i]["hints"].update(hints=[]), "hints.hints", "a list of 1 to 16 moves"),
    (lambda d, i: d["actions"][i]["hints"].update(hints=d["actions"][i]["hints"]["hints"] * 20),
     "hints.hints", "a list of 1 to 16 moves"),
    (lambda d, i: d["actions"][i]["hints"].update(measure="luck"), "hints.measure", "'luck'"),
    (lambda d, i: d["actions"][i]["hints"].update(iterations=-1), "hints.iterations", "-1"),
    (lambda d, i: d["actions"][i]["hints"].update(extra=1), "hints", "unknown key 'extra'"),
    (lambda d, i: d["actions"][i]["hints"].update(others_hidden="no"), "hints.others_hidden", "only true"),
    (lambda d, i: d["actions"][i]["hints"].update(others_hidden=True, hints=d["actions"][i]["hints"]["hints"] * 20),
     "hints.hints", "a list of 0 to 16 moves"),
    (_set("share", 2), "hints.hints[0].share", "not a number from 0 to 1"),
    (_set("win_probability", "NAN"), "hints.hints[0].win_probability", "NaN"),
    (_set("interval", [0.9, 0.1]), "hints.hints[0].interval", "[0.9, 0.1]"),
    (_set("text", "\x1b[31mred"), "hints.hints[0].text", "control character"),
    (_set("line", ["step"] * 100), "hints.hints[0].line", "at most 32 steps"),
    (_set("line", [7]), "hints.hints[0].line[0]", "is not text"),
    (_set("standing", "<b>best</b>"), "hints.hints[0].standing", "is not one of"),
    (_set("level", "yes"), "hints.hints[0].level", "'yes'"),
])
def test_hostile_hints_in_a_record_are_refused_naming_the_field(tmp_path, edit, where, words):
    message, index = _hostile(tmp_path, edit)
    assert f"actions[{index}].{where}" in message and words in message


def test_every_problem_of_the_hints_is_named_at_once_and_a_draw_has_none(tmp_path):
    def edit(data, i):
        _set("share", -1)(data, i)
        _set("text", 5, move=1)(data, i)
        draw = next(k for k, e in enumerate(data["actions"]) if e["player"] == CHANCE)
        data["actions"][draw]["hints"] = data["actions"][i]["hints"]
    message, index = _hostile(tmp_path, edit)
    assert f"actions[{index}].hints.hints[0].share" in message
    assert f"actions[{index}].hints.hints[1].text" in message
    assert "a draw has no hints" in message


def test_the_log_says_which_rule_the_automa_took_its_card_by():
    """Printing Press solo: each card the automa takes gets a line naming the card and the
    rulebook's rule that chose it among those on offer (the page's log has the same)."""
    game = games.get("printing-press").load(players=1)
    console = Console(file=io.StringIO(), width=200)
    answers = iter(["1"] * 10)     # within the first round (the automa's columns are the round's)
    session = Session(game, Settings(human=0, iterations=20, seed=2), console,
                      read_line=lambda prompt: next(answers, "quit"))
    session.run()
    notes = [line for line in console.file.getvalue().splitlines() if line.startswith("automa: took card")]
    core = games.core_of(session.state)
    columns = core.to_dict()["players"][1]["columns"]
    assert core.round == 1 and notes and len(notes) == sum(columns)
    assert all(" the rule '" in line for line in notes)


# -- what the person may be shown of the AI's search (gutenberg_ai.games.seen) -------------
def _played_seen(key, ai_moves, **kwargs):
    """_played, with what `say` handed the page (the Why? data of each AI move)."""
    whys = []
    original = Session.say

    def say(self, text, style="", why=None):
        if why is not None:
            whys.append(why)
        original(self, text, style)
    Session.say = say
    try:
        session, text = _played(key, ai_moves=ai_moves, **kwargs)
    finally:
        Session.say = original
    return session, text, whys


def _texts(hints):
    return [h["text"] for h in hints["hints"]] + [step for h in hints["hints"] for step in h["line"]]


def test_the_ai_moves_at_a_token_window_do_not_name_its_hand_to_the_person(tmp_path):
    # Printing Press, seed 3: the AI's 4th move (take a card) was weighed against placing
    # its setup tokens 1 and 2: those name its hand, which the person has not seen.
    session, _, whys = _played_seen("printing-press", ai_moves=4)
    index = session.ai_moves()[3]
    whole = session.record.actions[index]["hints"]
    assert any("setup token" in t for t in _texts(whole))
    title, shown = session.why(4)
    assert [h.action for h in shown] == [session.record.actions[index]["action"]]
    assert "the other moves it weighed stay hidden" in title
    assert not any("setup token" in t for t in [h.text for h in shown] + [s for h in shown for s in h.line])
    page = whys[3]
    assert page["others_hidden"] and not any("setup token" in t for t in _texts(page))
    assert "stay hidden" in page["title"]
    seen = session.record.to_dict(viewer=0, state=session.state)["actions"][index]["hints"]
    assert seen["others_hidden"] and not any("setup token" in t for t in _texts(seen))
    # The record saved as seen reads back; the one with everything keeps the whole list.
    session.record.save(tmp_path / "seen.json", viewer=0, state=session.state)
    load_record(tmp_path / "seen.json")
    assert session.record.to_dict()["actions"][index]["hints"] == whole


def test_a_decision_with_nothing_hidden_still_shows_every_move_weighed():
    # The AI's first move (Charlotte Guillard's side) names nothing the person cannot see.
    session, _, whys = _played_seen("printing-press", ai_moves=1)
    index = session.ai_moves()[0]
    whole = session.record.actions[index]["hints"]
    assert len(whole["hints"]) > 1
    _, shown = session.why(1)
    assert shown.as_dict(seconds=False) == whole
    assert "others_hidden" not in whys[0] and whys[0]["hints"] == whole["hints"]
    assert session.record.to_dict(viewer=0, state=session.state)["actions"][index]["hints"] == whole


def test_gutenberg_the_ai_plan_its_drawn_characters_and_its_plans_ahead_stay_unnamed():
    # Gutenberg, seed 5: the AI (seat 0) keeps a character among the tiles it drew
    # (hidden from the person), and its expected line after its free actions names its
    # plan to come; then it commits its plan, hidden until the person's is in.
    game = games.get("gutenberg").load(players=2, rounds=1)
    console = Console(file=io.StringIO(), width=100)

    def answer(prompt):
        core = games.core_of(session.state)
        return "quit" if core.step_name() == "plan" else "1"
    session = Session(game, Settings(human=1, iterations=50, seed=5), console, read_line=answer)
    session.run()
    entries = session.record.actions
    seen = session.record.to_dict(viewer=1, state=session.state)["actions"]
    keep = next(i for i in session.ai_moves() if entries[i]["text"].startswith("characters: keep"))
    assert len(entries[keep]["hints"]["hints"]) > 1
    assert seen[keep]["hints"]["others_hidden"] and [h["action"] for h in seen[keep]["hints"]["hints"]] == \
        [entries[keep]["action"]]
    assert "stay hidden" in session.why(session.ai_moves().index(keep) + 1)[0]
    done = next(i for i in session.ai_moves() if "plan:" in " ".join(entries[i]["hints"]["hints"][0]["line"]))
    line = seen[done]["hints"]["hints"][0]["line"]
    assert line[-1] == "player 0: a move you do not see" and not any("plan:" in step for step in line)
    plan = next(i for i in session.ai_moves() if entries[i]["text"].startswith("plan:"))
    assert seen[plan] == {"player": 0, "by": entries[plan]["by"], "hidden": True}
    with pytest.raises(ValueError, match="hidden from you for now"):
        session.why(session.ai_moves().index(plan) + 1)


def test_after_the_end_why_and_the_record_as_seen_show_everything(monkeypatch):
    # Printing Press, seed 3, played to the end: the moves withheld during the game (the
    # AI's setup tokens named) are shown whole once nothing is hidden any more.
    monkeypatch.setattr(sys.modules[__name__], "ITERATIONS", 20)   # a whole game, quickly
    session, _, whys = _played_seen("printing-press", ai_moves=10**6)
    assert session.state.is_terminal() and any(w.get("others_hidden") for w in whys)
    index = next(i for i in session.ai_moves()
                 if any("setup token" in t for t in _texts(session.record.actions[i]["hints"])))
    whole = session.record.actions[index]["hints"]
    _, shown = session.why(session.ai_moves().index(index) + 1)
    assert shown.as_dict(seconds=False) == whole
    assert session.record.to_dict(viewer=0, state=session.state)["actions"][index]["hints"] == whole


def test_lead_letter_printers_the_factories_an_ai_drew_are_not_named():
    # Seeded random play to a player's "keep a factory" among the 3 it drew (hidden from
    # the other): the moves weighed name them, so only the move played is kept.
    game = games.get("lead-letter-printers").load(players=2)
    rng = random.Random(2)
    state = None
    while state is None:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            legal = s.legal_actions()
            if len(legal) > 1 and s.action_to_string(s.current_player(), legal[0]).startswith("keep factory"):
                state = s
                break
            s.apply_action(rng.choice(legal))
    actor, legal = state.current_player(), state.legal_actions()
    weighed = {"hints": [{"action": a, "text": state.action_to_string(actor, a), "share": 1 / len(legal),
                          "win_probability": None, "expected_fame": None, "interval": None, "level": None,
                          "line": [], "standing": ""} for a in legal], "iterations": 0, "measure": "win"}
    seen = seen_hints(state, weighed, legal[1], 1 - actor)
    assert seen["others_hidden"] and [h["action"] for h in seen["hints"]] == [legal[1]]
    assert seen_hints(state, weighed, legal[1], actor) == weighed      # its own view: all of it


@pytest.mark.parametrize("width", [60, 80])
def test_hints_on_a_narrow_console_keep_every_column_and_room_for_the_move(width):
    """On a narrow console the interval goes under its value: the move column keeps
    room to be read (not "fulfi..." a line) and "vs best" stays; a wide one keeps a
    hint on one line."""
    hint = Hint(action=1, text="plan: orders 0, inks 0, specialties 0, gears 1, patronage 0", share=0.89,
                win_probability=0.997, expected_fame=2.0, interval=(0.995, 0.998), standing="best")
    console = Console(file=io.StringIO(), width=width)
    console.print(tui.hints_table([hint]))
    text = console.file.getvalue()
    header = next(line for line in text.splitlines() if "move" in line and "searched" in line)
    assert "vs best" in header and "best" in text.split("─")[-1]
    assert header.index("searched") - header.index("move") >= 14, header
    assert "99.7%" in text and "(99.5-99.8%)" in text
    wide = Console(file=io.StringIO(), width=120)
    wide.print(tui.hints_table([hint]))
    assert "99.7% (99.5-99.8%)" in wide.file.getvalue()
