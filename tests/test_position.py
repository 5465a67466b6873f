"""Position files (gutenberg_ai/games/gutenberg/position.py): the shipped examples load at exactly their
decision point, round-trip through position_of, play on legally to the end; inline
cards are used by the engine; malformed positions are rejected naming the field and the
reason; states reached in real games are written and read back at every supported
decision point."""
from __future__ import annotations

import copy
import json
import pathlib
import random

import jsonschema
import pytest

import gutenberg_ai
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg.catalogue import default_catalogue
from gutenberg_ai.games.gutenberg.position import (
    PositionError, load_position, position_of, position_schema, save_position,
)
from json_places import delete_at, set_at

A = _core.ACTIONS
PASS = A["PASS"]
DATA = pathlib.Path(gutenberg_ai.__file__).parent / "games" / "gutenberg" / "data"
EXAMPLES = sorted((DATA / "positions").glob("*.json"))
BY_NAME = {p.stem: p for p in EXAMPLES}


def example(name: str) -> dict:
    return json.loads(BY_NAME[name].read_text(encoding="utf-8"))


def strings(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play_out(state, seed: int, check=True):
    """Random legal moves (chance by the core's sampler) to the end; the state stays
    consistent at every step."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if check:
            assert state.problems() == [], state.problems()
        if state.is_chance():
            state.apply(state.sample_chance(rng.getrandbits(64)))
        else:
            legal = state.legal_actions()
            assert legal, state.step_name()
            state.apply(rng.choice(legal))
        steps += 1
        assert steps < 20000
    assert state.problems() == []
    return state


# ---------------------------------------------------------------------------------------
# The shipped examples
# ---------------------------------------------------------------------------------------
def test_the_examples_cover_the_brief():
    assert set(BY_NAME) >= {"plan-round1-2p", "turn-inks-round3-3p", "fulfil-round6-2p",
                            "solo-automa-round4", "inline-cards-2p"}


def test_the_schema_is_a_valid_draft_2020_12_schema():
    schema = position_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)

    # Every field has a description.
    def walk(node, where):
        if isinstance(node, dict):
            for key in ("properties",):
                for name, sub in node.get(key, {}).items():
                    assert isinstance(sub, dict) and "description" in sub, f"{where}.{name}"
            for k, v in node.items():
                if k != "if":           # conditions, not fields
                    walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}[{i}]")
    walk(schema, "schema")
    for name, sub in schema["$defs"].items():
        assert "description" in sub, name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_is_valid_under_the_schema(path):
    jsonschema.validate(json.loads(path.read_text()), position_schema(),
                        cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_loads_and_round_trips(path):
    pos = load_position(path)
    assert pos.state.problems() == []
    assert pos.source == path.name
    saved = position_of(pos.state)
    jsonschema.validate(saved, position_schema(), cls=jsonschema.Draft202012Validator)
    again = load_position(json.loads(json.dumps(saved)))
    # Equivalent: the very same engine state and catalogue, and a fixed point.
    assert again.state == pos.state
    assert again.catalogue == pos.catalogue
    assert again.step == pos.step
    assert position_of(again.state) == saved
    # The position says what the file says.
    data = json.loads(path.read_text())
    assert saved["round"] == data["round"]
    assert saved["first_player"] == data["first_player"]
    assert saved["step"] == {**data["step"], "player": pos.step["player"]}
    for mine, theirs in zip(saved["players"], data["players"]):
        for key in ("fame", "guilders"):
            assert mine[key] == theirs[key]
        assert sorted(mine["types"]) == sorted(theirs["types"])
    assert pos.game_params == {"players": data["game"]["players"],
                               "rounds": data["game"].get("rounds", 6),
                               "characters": any(p.get("character") for p in data["players"]),
                               "automa": int(data["game"].get("automa", False))}
    gutenberg_ai.load_game(**pos.game_params)   # the OpenSpiel game of the position


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2])
def test_example_plays_on_legally_to_the_end(path, seed):
    pos = load_position(path)
    state = play_out(pos.state.clone(), seed)
    assert len(state.final_scores()) == pos.game_params["players"]


def test_save_position_writes_a_file_that_loads(tmp_path):
    pos = load_position(BY_NAME["turn-inks-round3-3p"])
    out = tmp_path / "saved.json"
    data = save_position(pos.state, out, names=pos.names)
    assert json.loads(out.read_text()) == data
    assert [p.get("name") for p in data["players"]] == ["Kate", "Tom", "John"]
    back = load_position(out)
    assert back.state == pos.state
    assert back.names == ("Kate", "Tom", "John")


# ---------------------------------------------------------------------------------------
# Exactly at the stated decision point
# ---------------------------------------------------------------------------------------
def plans_of(markers: int) -> int:
    return sum(1 for a in range(A["PRINTING"]) if sum(_core.plan_of(a)) == markers)


def test_plan_step_round_1():
    pos = load_position(BY_NAME["plan-round1-2p"])
    s = pos.state
    assert (s.phase, s.round, s.current_player(), s.step_name()) == ("plan", 1, 0, "plan")
    legal = s.legal_actions()
    assert all(sum(_core.plan_of(a)) == 7 for a in legal)       # the first player's 7 markers
    assert len(legal) == plans_of(7)
    assert pos.names == ("Anna", "Tom")
    # Anna plans; Tom (8 markers) is next.
    s.apply(_core.plan_index([2, 2, 1, 1, 1]))
    assert s.current_player() == 1
    assert all(sum(_core.plan_of(a)) == 8 for a in s.legal_actions())


def test_plan_step_with_a_hidden_committed_plan():
    data = example("plan-round1-2p")
    data["step"] = {"kind": "plan", "player": 1}
    data["players"][0]["plan"] = "hidden"
    pos = load_position(data)
    s = pos.state
    assert pos.hidden_plans == (0,)
    assert s.current_player() == 1 and s.phase == "plan"
    assert sum(s.to_dict()["players"][0]["plan"]) == 7
    assert "hidden" in s.observation_string(1)
    # The player to plan is the first without a plan when `player` is left out.
    data["step"] = {"kind": "plan"}
    assert load_position(data).state.current_player() == 1
    # A known committed plan is kept as given.
    data["players"][0]["plan"] = {"orders": 3, "inks": 4}
    assert load_position(data).state.to_dict()["players"][0]["plan"] == [3, 4, 0, 0, 0]


def test_turn_at_take_inks_shows_the_board_inks_with_their_costs():
    pos = load_position(BY_NAME["turn-inks-round3-3p"])
    s = pos.state
    assert (s.phase, s.round, s.current_player(), s.step_name()) == ("execute", 3, 1, "take inks")
    d = s.to_dict()
    # Take Inks: Kate 3 markers, Tom 2, John 1; Kate has had her turn.
    assert d["turn_order"][:d["n_turns"]] == [0, 1, 2] and d["turn"] == 1
    inks = [t for t in strings(s) if t.startswith("take inks: set")]
    assert inks == [
        "take inks: set 1, 1 ink, pay 0", "take inks: set 1, 2 inks, pay 1",
        "take inks: set 1, 3 inks, pay 3",
        "take inks: set 2, 1 ink, pay 0", "take inks: set 2, 2 inks, pay 1",
        "take inks: set 2, 3 inks, pay 3",
        "take inks: set 3, 1 ink, pay 2",            # only the right-hand red is left
        "take inks: set 4, 1 ink, pay 0", "take inks: set 4, 2 inks, pay 1",
        "take inks: set 4, 3 inks, pay 3",
    ]
    assert "take inks: pass" in strings(s)
    # Tom (Schoeffer) used gear 1 once this round: he may use it a second time.
    assert A["USE_GEAR"] in s.legal_actions() and A["USE_GEAR"] + 1 in s.legal_actions()
    assert [s.character(i) for i in range(3)] == ["William Caxton", "Peter Schoeffer",
                                                  "Christophe Plantin"]
    # Tom takes set 3's red for 2 guilders; John's turn follows.
    s.apply(A["INKS"] + 2 * 3)
    after = s.to_dict()
    assert after["players"][1]["guilders"] == 7 and after["players"][1]["inks"][3] == 1
    assert s.current_player() == 2


def test_fulfil_turn_in_round_6_where_fulfilling_both_orders_wins():
    pos = load_position(BY_NAME["fulfil-round6-2p"])
    s = pos.state
    assert (s.phase, s.round, s.current_player()) == ("fulfil", 6, 0)
    fulfil = A["FULFIL"]
    assert s.legal_actions() == [fulfil + m for m in range(5)]   # order 1: skip .. both

    win = s.clone()
    for a in (fulfil + 4, fulfil + 5 + 4):          # orders 1 and 2 print+both
        win.apply(a)
    assert win.legal_actions() == [A["USE_GEAR"], PASS]
    win.apply(A["USE_GEAR"])                        # colour fame silver/red: +2
    # Nothing else to decide: the orders are fulfilled and the rewards come.
    assert win.step_name() == "specialty of choice"
    win.apply(A["SPECIALTY_UP"])                    # typesetting V -> VI
    assert PASS not in win.legal_actions()          # the reward track's free type is taken
    win.apply(A["LETTER"])                          # an A
    while not win.is_terminal():                    # done after printing (no type bought)
        win.apply(PASS)
    assert win.is_terminal()
    assert win.final_scores() == [100, 99] and win.winners() == [0]

    lose = s.clone()
    lose.apply(fulfil + 0)                          # skip both
    lose.apply(fulfil + 5 + 0)                      # nothing left to decide: the end
    assert lose.is_terminal() and lose.winners() == [1]


def test_solo_game_against_the_automa():
    pos = load_position(BY_NAME["solo-automa-round4"])
    s = pos.state
    assert pos.game_params == {"players": 1, "rounds": 6, "characters": False, "automa": 1}
    assert (s.phase, s.round, s.current_player(), s.step_name()) == (
        "execute", 4, 0, "develop specialties")
    d = s.to_dict()
    assert d["automa_seat"] == 1 and d["automa_card"] == 5
    assert d["players"][1]["markers"] == 8 and d["players"][0]["markers"] == 7
    texts = strings(s)
    assert "develop specialties: S8 binding+binding, its icons" in texts
    assert "use gear 1" in texts and "use gear 2" not in texts    # gear 2 used this round
    # After the player's turn the automa's execution card is drawn (chance).
    s.apply(A["SPECIALTY"] + 8 * 5)
    assert s.is_chance() and s.step_name() == "automa: execution card"


def test_inline_cards_are_used_by_the_engine():
    pos = load_position(BY_NAME["inline-cards-2p"])
    s = pos.state
    cat = pos.catalogue
    assert cat != default_catalogue()
    # The inline printing card on the board and in Tom's order, the inline refinement
    # card, and Anna's inline gear, each in the place of an unused catalogue card.
    board_card = next(c for c in cat.printing if c.letters == "AIOUU")
    assert board_card.guilders == 8
    texts = strings(s)
    assert f"take orders: printing P{board_card.id} [A I O U U] 8g" in texts
    s.apply(A["PRINTING"] + board_card.id)
    texts = strings(s)
    assert any("colour gold+red 4f, deco binding I+illuminating II 2f, reward 2g" in t
               for t in texts)
    anna_gear = s.to_dict()["players"][0]["gear"][0]
    assert [x.reward for x in cat.gears[anna_gear].sectors] == ["gain_ink", "round_fame",
                                                               "type_discount"]
    # Fulfilment with the inline card of Tom's order: it pays its 6 guilders.
    data = example("inline-cards-2p")
    data["step"] = {"kind": "fulfil", "player": 1}
    for key in ("printing", "refinement", "inks", "specialty", "gears"):
        data["board"].pop(key)
    fpos = load_position(data)
    f = fpos.state
    order = f.to_dict()["players"][1]
    tom_card = fpos.catalogue.printing[order["order_printing"][0]]
    assert (tom_card.letters, tom_card.guilders) == ("AAOO", 6)
    assert f"P{tom_card.id} [A A O O] 6g" in str(f)
    guilders, fame = order["guilders"], order["fame"]
    f.apply(A["FULFIL"] + 2)           # order 1 print+colour (silver; illuminating II missing)
    f.apply(A["FULFIL"] + 5 + 0)       # order 2 skip; nothing else to decide: printed
    assert f.step_name() == "fulfil: after printing" and f.current_player() == 1
    f.apply(PASS)                      # no free action after printing
    assert f.current_player() == 0     # Anna's fulfil turn: Tom's is resolved
    tom = f.to_dict()["players"][1]
    assert tom["guilders"] == guilders + 6 and tom["fame"] == fame + 2
    # The gear's round-fame sector gives Anna the round number, 2.
    g = load_position(example("inline-cards-2p")).state
    g.apply(PASS)                      # Tom passes at take orders; Anna's turn
    assert g.current_player() == 0
    before = g.to_dict()["players"][0]["fame"]
    g.apply(A["USE_GEAR"])
    assert g.to_dict()["players"][0]["fame"] == before + 2


def test_an_inline_card_equal_to_an_unused_catalogue_card_takes_its_id():
    data = example("plan-round1-2p")
    data["board"]["printing"][0] = {"letters": "IOOU", "guilders": 5}   # the rulebook's P37
    pos = load_position(data)
    assert pos.state.to_dict()["printing_space"][0] == 37
    assert pos.catalogue == default_catalogue()
    assert position_of(pos.state)["board"]["printing"][0] == "P37"


def test_wild_ink_and_shift_steps():
    data = example("turn-inks-round3-3p")
    data["step"] = {"kind": "wild_ink"}
    for p in data["players"]:
        p.pop("plan")
        for g in p.get("gears", []):
            g.pop("used", None)
    pos = load_position(data)
    s = pos.state
    assert s.current_player() == 0 and s.step_name() == "Caxton's wild ink"
    assert s.legal_actions() == [A["INK"] + c for c in range(4)]
    s.apply(A["INK"] + 1)
    # John, the first player: his free actions before the plans, then his plan.
    assert s.current_player() == 2 and s.step_name() == "free actions before the plans"
    while s.step_name() != "plan":
        s.apply(PASS)
    assert s.phase == "plan" and s.current_player() == 2
    assert position_of(pos.state) == position_of(load_position(position_of(pos.state)).state)

    data = example("turn-inks-round3-3p")
    data["step"] = {"kind": "shift"}
    data["players"][2]["character"] = "Gutenberg"
    data["players"][1]["gears"][0].pop("used")
    pos = load_position(data)
    s = pos.state
    assert s.current_player() == 2 and s.step_name() == "Gutenberg's shift"
    assert PASS in s.legal_actions() and A["SHIFT"] + 0 * 5 + 1 in s.legal_actions()
    assert load_position(position_of(s)).state == s


def test_free_actions_before_the_plans_load_there_and_hint_every_move_and_done():
    # "A gear's active sector has a reward that a player can gain at any time" (p.10):
    # before planning, Anna asks whether to use a gear (or swap) first, or be done.
    pos = load_position(BY_NAME["free-actions-round3-3p"])
    s = pos.state
    assert pos.step == {"kind": "free_actions", "player": 0}
    assert s.current_player() == 0 and s.step_name() == "free actions before the plans"
    d = s.to_dict()
    assert d["sub"] == 1 and d["step"] == 0      # John (first player) has had his window
    assert {"use gear 1", "use gear 2", "free actions before the plans: done"} <= set(strings(s))
    hints = gutenberg_ai.hint(s, iterations=400, top=len(s.legal_actions()), seed=1)
    assert {h.action for h in hints} == set(s.legal_actions())
    assert all(h.win_probability is not None for h in hints)
    # Done: Tom's window (nothing he can do is skipped), then the plans from John.
    s.apply(PASS)
    assert s.step_name() in ("free actions before the plans", "plan")
    # The player defaults to the first player's window; the windows before are over.
    data = example("free-actions-round3-3p")
    data["step"] = {"kind": "free_actions"}
    first = load_position(data)
    assert first.step == {"kind": "free_actions", "player": 2} and first.state.current_player() == 2


def test_free_actions_step_checks_what_it_implies():
    data = example("free-actions-round3-3p")
    data["players"][1]["gears"] = [{"gear": "G30", "active": 1, "used": True}]
    with pytest.raises(PositionError, match=r"players\[1\]\.gears\[0\]\.used: no gear is used before"):
        load_position(data)
    data = example("free-actions-round3-3p")
    data["players"][2]["plan"] = [3, 2, 1, 1, 0]
    with pytest.raises(PositionError, match=r"players\[2\]\.plan: nobody has planned yet"):
        load_position(data)
    # A window with nothing to do is skipped by the engine: not a decision.
    data = example("plan-round1-2p")
    data["step"] = {"kind": "free_actions", "player": 1}
    data["players"][1]["guilders"] = 0
    with pytest.raises(PositionError, match="nothing to decide at the free actions before the plans"):
        load_position(data)


def test_save_position_in_the_free_actions_before_the_plans_loads_back_there(tmp_path):
    import io
    from rich.console import Console
    from gutenberg_ai.interfaces.play import Session, Settings
    console = Console(file=io.StringIO(), width=100)
    game = gutenberg_ai.load_game(players=2, rounds=1)
    saved = tmp_path / "window.json"
    seen = []

    def answer(prompt):
        core = gutenberg_ai.core_of(session.state)
        if core.step_name() == "free actions before the plans" and not seen:
            seen.append(core.clone())
            return f"save-position {saved}"
        return "quit" if seen else "1"      # asked once: a save refused ends the test too

    session = Session(game, Settings(human=0, ai=("heuristic",), iterations=20, seed=3), console,
                      read_line=answer)
    session.run()
    assert seen and saved.exists(), console.file.getvalue()
    back = load_position(saved)
    assert back.step == {"kind": "free_actions", "player": 0}
    assert back.state.step_name() == "free actions before the plans"
    assert back.state.legal_actions() == seen[0].legal_actions()
    assert back.state.observation_string(0) == seen[0].observation_string(0)


# ---------------------------------------------------------------------------------------
# Malformed positions: the field and the reason, nothing half-loaded
# ---------------------------------------------------------------------------------------
_set, _pop = set_at, delete_at     # edits of a position's data (json_places)


def _all(*edits):
    def edit(d):
        for e in edits:
            e(d)
    return edit


INKS3 = "turn-inks-round3-3p"
PLAN2 = "plan-round1-2p"
SOLO = "solo-automa-round4"
FULFIL = "fulfil-round6-2p"

MALFORMED = [
    # --- the JSON Schema
    ("missing step", INKS3, _pop(["step"]), "top level", "missing key 'step'"),
    ("format name", INKS3, _set(["format"], "gutenberg"), "format",
     "must be 'gutenberg-position'"),
    ("unknown key", INKS3, _set(["players", 1, "guilder"], 3), "players[1]",
     "unknown key 'guilder'"),
    ("guilders type", INKS3, _set(["players", 1, "guilders"], "nine"), "players[1].guilders",
     "must be a whole number, got 'nine'"),
    ("bad letter", INKS3, _set(["players", 1, "types"], "AXE"), "players[1].types",
     "only the letters A, I, O, U"),
    ("level VII", INKS3, _set(["players", 1, "specialties", "typesetting"], "VII"),
     "players[1].specialties.typesetting", "'VII' is not one of 0, I, II, III, IV, V, VI"),
    ("level 7", INKS3, _set(["players", 1, "specialties", "typesetting"], 7),
     "players[1].specialties.typesetting", "7 is out of range (0-6)"),
    ("five orders", INKS3, lambda d: d["players"][1]["orders"].extend(
        [["P5", "R5"], ["P6", "R6"], ["P7", "R7"]]), "players[1].orders", "at most 4"),
    ("four gears", INKS3, lambda d: d["players"][1]["gears"].extend(
        [{"gear": "G30", "active": 1}, {"gear": "G28", "active": 1}]), "players[1].gears",
     "at most 3"),
    ("ink set of 2", INKS3, _set(["board", "inks", 0], ["blue", "red"]), "board.inks[0]",
     "3 needed"),
    ("ink colour", INKS3, _set(["board", "inks", 0, 2], "teal"), "board.inks[0][2]",
     "'teal' is not one of blue, silver, gold, red"),
    ("plan row over 6", INKS3, _set(["players", 1, "plan", "orders"], 7),
     "players[1].plan.orders", "7 is out of range (0-6)"),
    ("action outside a turn", INKS3, _set(["step", "kind"], "fulfil"), "step.action",
     "'action' belongs to a 'turn' step only"),
    ("no such action", INKS3, _set(["step", "action"], "bribes"), "step.action",
     "'bribes' is not one of orders, inks, specialties, gears, patronage"),
    ("inline printing letters", INKS3,
     _set(["players", 1, "orders", 0, 0], {"letters": "AB", "guilders": 3}),
     "players[1].orders[0][0].letters", "only the letters A, I, O, U"),
    ("card number type", PLAN2, _set(["board", "printing", 0], 3.5), "board.printing[0]",
     "got 3.5"),
    # --- consistency
    ("refinement id out of range", INKS3, _set(["players", 1, "orders", 0, 1], "R77"),
     "players[1].orders[0][1]", "'R77' is not a refinement card (R0-R49)"),
    ("card of the wrong kind", INKS3, _set(["players", 1, "orders", 0, 1], "P3"),
     "players[1].orders[0][1]", "'P3' is not a refinement card (R0-R49)"),
    ("card in two places", INKS3, _set(["players", 1, "orders", 0, 0], "P13"),
     "players[1].orders[0][0]", "P13 is also at players[0].orders[0][0]"),
    ("bag with 13 red", INKS3, _set(["bag"], {"blue": 7, "silver": 9, "gold": 9, "red": 9}),
     "bag", "13 red inks in all (bag, board, players), the game has 12"),
    ("too many inks held", INKS3, _set(["players", 0, "inks"], {"red": 13}), "players[0].inks.red",
     "red inks on the board and with the players (board.inks 3, players[0].inks.red 13), the game has 12"),
    ("first player a name", INKS3, _set(["first_player"], "Anna"), "first_player",
     "'Anna': not a seat (a player's number 0-3, or 'automa')"),
    ("fame of 31 digits", INKS3, _set(["players", 0, "fame"], 10 ** 30), "players[0].fame",
     "1000000000000000000000000000000 is out of range (0-999)"),
    ("plan does not add up", INKS3, _set(["players", 1, "plan"], [2, 2, 2, 2, 2]),
     "players[1].plan", "10 markers placed, players[1] has 9 this round"),
    ("no marker on the row", INKS3, _all(_set(["step", "player"], 2),
                                         _set(["players", 2, "plan"], [3, 0, 2, 1, 1])),
     "step.player", "players[2] has no initiative marker on inks"),
    ("row already over", INKS3, _set(["board", "printing"], ["P5"]), "board.printing[0]",
     "the take orders action is over"),
    ("unknown character", INKS3, _set(["players", 1, "character"], "Gutenberg Jr"),
     "players[1].character", "'Gutenberg Jr' is not a character"),
    ("character twice", INKS3, _set(["players", 1, "character"], "caxton"),
     "players[1].character", "William Caxton is also players[0]'s"),
    ("missing character", INKS3, _pop(["players", 1, "character"]), "players[1].character",
     "every player keeps one"),
    ("Caxton's wild ink missing", INKS3, _pop(["players", 0, "wild_ink"]),
     "players[0].wild_ink", "William Caxton chooses his wild ink"),
    ("patronage space emptied", INKS3, _set(["board", "patronage", 0], None), "board.patronage",
     "1 of the 8 spaces are empty, but the players have taken 0 patronage cards"),
    ("patronage reward taken too early", INKS3,
     _set(["board", "patronage_rewards"], [0, None, None, None]),
     "board.patronage_rewards[0]", "taken by players[0], who has had no patronage turn"),
    ("reward track ahead", INKS3, _set(["players", 1, "track"], 3), "players[1].track",
     "the highest specialty (III) reaches 1"),
    ("first player", INKS3, _set(["first_player"], 3), "first_player", "3 is not a seat"),
    ("players count", INKS3, _set(["game", "players"], 4), "players",
     "3 players listed, game.players is 4"),
    ("Schoeffer only", INKS3, _set(["players", 2, "gears", 0, "used"], 2),
     "players[2].gears[0].used", "only Peter Schoeffer uses a gear twice"),
    ("white-line gear with 2", PLAN2, _set(["board", "gears", 0], "G2"), "board.gears[0]",
     "G2 has white lines: it is not used with 2 participants"),
    ("board space beyond the layout", PLAN2, lambda d: d["board"]["gears"].append("G0"),
     "board.gears[3]", "the board has 3 gears spaces with 2 participants"),
    ("gear used before the free actions", INKS3,
     _all(_set(["step"], {"kind": "wild_ink"}), _pop(["players", 0, "wild_ink"]),
          *[_pop(["players", k, "plan"]) for k in range(3)]),
     "players[1].gears[0].used", "no gear is used before the free actions before the plans"),
    ("plan of a later player", PLAN2, _set(["players", 1, "plan"], "hidden"),
     "players[1].plan", "players[1] has not planned yet"),
    ("missing committed plan", PLAN2, _set(["step", "player"], 1), "players[0].plan",
     "players[0] plans before players[1]"),
    ("inline gear kind", PLAN2, _set(["board", "gears", 0], {"sectors": [
        {"reward": "gain_ink", "inks": ["red", "blue"]}, {"reward": "order"},
        {"reward": "round_fame"}]}), "board.gears[0].sectors[0]",
     "gain_ink indicates exactly one ink, got 2"),
    ("inline card with no place left", PLAN2, _all(
        _set(["discard", "printing"], ["P%d" % i for i in range(50)
                                       if i not in (3, 27, 18, 11, 6, 14, 4)] + ["P3"]),
        _set(["board", "printing", 0], {"letters": "AAAAAA", "guilders": 9})),
     "board.printing[0]", "no catalogue printing card is left for this inline card"),
    ("automa without automa", PLAN2, _set(["automa"], {"plan": [2, 1, 2, 1, 1]}), "automa",
     "there is no automa in this game"),
    ("automa plan", SOLO, _set(["automa", "plan"], [2, 1, 2, 1, 1]), "automa.plan",
     "7 markers, the automa has 8 this round"),
    ("automa card missing", SOLO, _set(["automa", "card"], None), "automa.card",
     "this round's planning card was revealed"),
    ("automa card used", SOLO, _set(["automa", "card"], 3), "automa.card",
     "planning card 3 is also in automa.used_cards"),
    ("round beyond the game", FULFIL, _set(["game", "rounds"], 5), "round",
     "round 6, but the game has 5 rounds"),
    ("nothing to decide", FULFIL, _all(_set(["players", 0, "orders"], []),
                                       _set(["discard", "printing"], ["P25", "P7"]),
                                       _set(["discard", "refinement"], ["R25", "R9"])),
     "step", "players[0] has nothing to decide at fulfil orders"),
]


@pytest.mark.parametrize("name,base,edit,where,reason", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_position_is_rejected_naming_field_and_reason(name, base, edit, where, reason):
    data = example(base)
    edit(data)
    frozen = copy.deepcopy(data)
    result = None
    with pytest.raises(PositionError) as info:
        result = load_position(data)
    assert result is None                      # nothing half-loaded
    e = info.value
    assert isinstance(e, ValueError)
    assert e.where == where, str(e)
    assert reason in e.reason, str(e)
    assert str(e) == f"position: {where}: {e.reason}"
    assert data == frozen                      # the input is left as it was


def test_every_independent_problem_of_a_file_comes_in_one_error():
    # A hand-written table with five mistakes: all five at once, each at its field.
    data = example(INKS3)
    data["players"][1]["orders"][0][0] = "P13"           # Kate holds P13 too
    data["players"][2]["character"] = "Nobody"           # not a character
    data["board"]["patronage"][0] = None                 # a space emptied, nobody took it
    del data["players"][0]["wild_ink"]                   # Caxton's wild ink
    data["players"][1]["plan"]["orders"] = 5             # 12 markers, Tom has 9
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert [where for where, _ in info.value.problems] == [
        "players[1].orders[0][0]", "players[2].character", "board.patronage",
        "players[1].plan", "players[0].wild_ink"]
    assert len(str(info.value).splitlines()) == 5
    # A card that is not one leaves its place empty for the checks that follow.
    data = example(INKS3)
    data["players"][1]["orders"][0][1] = "R77"
    data["bag"] = {"red": 13}
    data["players"][0]["specialties"] = {"woodcutting": "II", "binding": "I"}
    data["players"][0]["track"] = 4
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert [where for where, _ in info.value.problems] == [
        "players[1].orders[0][1]", "players[0].track", "bag"]


def test_card_ids_come_with_the_schemas_problems():
    # The schema refuses three values; the card ids elsewhere are told in the same error,
    # and a card place at a refused value is not checked again.
    data = example(INKS3)
    data["players"][0]["guilders"] = -5                  # schema: out of range
    data["players"][1]["fame"] = "x"                     # schema: not a number
    data["players"][0]["orders"][0][0] = -3              # schema: a card id below 0
    data["board"]["specialty"][0] = 999                  # not a specialty card
    data["board"]["specialty"][1] = data["board"]["specialty"][2]   # one card in two places
    data["players"][1]["orders"][0][0] = "P999"          # beside players[1].fame's problem
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert [where for where, _ in info.value.problems] == [
        "players[0].guilders", "players[0].orders[0][0]", "players[1].fame",
        "board.specialty[0]", "board.specialty[2]", "players[1].orders[0][0]"]
    reasons = dict(info.value.problems)
    assert reasons["board.specialty[0]"] == "999 is not a specialty card (S0-S9)"
    assert reasons["players[1].orders[0][0]"] == "'P999' is not a printing card (P0-P49)"
    # A player whose whole entry is refused has its cards passed over.
    data = example(INKS3)
    data["players"][2] = 7
    data["board"]["specialty"][0] = 999
    with pytest.raises(PositionError) as info:
        load_position(data)
    wheres = [where for where, _ in info.value.problems]
    assert wheres[-1] == "board.specialty[0]" and not any(w.startswith("players[2].") for w in wheres)


def test_enough_malformed_cases():
    assert len(MALFORMED) >= 15
    assert sum(1 for m in MALFORMED if m[1] in (INKS3, PLAN2, SOLO, FULFIL)) == len(MALFORMED)


def test_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "position.json"
    data = example(INKS3)
    data["players"][1]["orders"][0][1] = "R77"
    bad.write_text(json.dumps(data))
    with pytest.raises(PositionError) as info:
        load_position(bad)
    assert str(info.value) == ("position.json: players[1].orders[0][1]: "
                               "'R77' is not a refinement card (R0-R49)")

    bad.write_text('{"format": "gutenberg-position",\n  "version": 1,,}')
    with pytest.raises(PositionError, match=r"^position.json: line 2, column 16: invalid JSON"):
        load_position(bad)

    bad.write_text('{"format": "gutenberg-position", "format": "x"}')
    with pytest.raises(PositionError,
                       match=r"^position.json: top level: key 'format' is given twice"):
        load_position(bad)

    with pytest.raises(PositionError, match=r"^missing.json: cannot read"):
        load_position(tmp_path / "missing.json")


def test_position_of_refuses_points_the_format_does_not_record():
    pos = load_position(BY_NAME["inline-cards-2p"])
    s = pos.state.clone()
    s.apply(A["PRINTING"] + s.legal_actions()[0] - A["PRINTING"])   # a printing card chosen
    with pytest.raises(PositionError, match="middle of a turn"):
        position_of(s, catalogue=pos.catalogue)
    solo = load_position(BY_NAME["solo-automa-round4"]).state
    solo.apply(A["SPECIALTY"] + 8 * 5)
    with pytest.raises(PositionError, match="chance node"):
        position_of(solo)
    rules = _core.Rules(default_catalogue(), 2)
    with pytest.raises(PositionError, match="chance node|setup"):
        position_of(rules.new_state())


# ---------------------------------------------------------------------------------------
# States from real games: written and read back at every supported decision point
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,characters,automa", [(2, False, False), (4, True, False),
                                                       (1, False, True), (2, True, True)])
def test_real_game_states_round_trip(players, characters, automa):
    rules = _core.Rules(default_catalogue(), players, 6, characters, automa)
    s = rules.new_state()
    rng = random.Random(players * 10 + characters + 2 * automa)
    kinds = set()
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
            continue
        try:
            saved = position_of(s)
        except PositionError:
            saved = None
        if saved is not None:
            kinds.add(saved["step"]["kind"])
            loaded = load_position(json.loads(json.dumps(saved))).state
            assert loaded.current_player() == s.current_player()
            assert loaded.legal_actions() == s.legal_actions()
            assert str(loaded) == str(s)
            assert position_of(loaded) == saved
        s.apply(rng.choice(s.legal_actions()))
    assert {"plan", "turn", "fulfil"} <= kinds
