"""A position written at any recordable decision of any game loads back to the same state.

Seeded games of random legal moves (draws by their probabilities) are played in each
game of the table below. At every decision the position is written as `save-position`
writes it (the game's position writer, for the player to move) and as it is written
whole (no viewer), and each is loaded back. A decision the format does not record
(`position_of` refuses it, saying why) is skipped; the share of recorded decisions is
checked so that a writer that refuses everything cannot pass.

"The same state" means:

- written whole: the loaded state is at the same decision (player to act, legal moves),
  shows every seat the same (each seat's observation string and observation tensor:
  together they hold every fact the rules and the players can tell apart, the decks and
  the bag included), reads the same (`str`), and writes the same position again; and the
  move played next leads both to the same next node (its draws with their
  probabilities, or its legal moves);
- written for the player to move, the others' hidden facts written "hidden" (Gutenberg's
  plans not yet seen, Printing Press's tokens in hand or face down, Lead Letter
  Printers' factories under the piles): the loaded state (whose stand-ins for the hidden
  facts are the loader's) is at the same decision and that player's information state is
  identical: their observation string and tensor;
- written whole, also the game's own state dict (`CoreState.to_dict()`) is the same, but
  for the bookkeeping a decision does not read (`facts` below, game by game): what is
  left over from a step that is over (Gutenberg's card of a finished turn, pending
  decisions beyond the open ones, the turn order of the last action, the fulfil slots
  outside a fulfil turn, the reveal stage; Printing Press's counters of the offer dealt
  in another step; Lead Letter Printers' effect frames beyond the open ones, the seat
  sequence beyond its phase's), the order in which Gutenberg's two character tiles were
  drawn (which was kept and which put back is the fact), which patronage cards are in
  Gutenberg's box rather than taken (the state counts a player's patronage cards, not
  which; a position cannot say either), and Lead Letter Printers' entry stamps, of which
  only the order counts (who entered a room first);

and, where the writer can write the loaded state (not Lead Letter Printers' moves form,
which needs the game's history), writing it again gives the same file.
"""
from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.games.positionfile import PositionError

GAMES_PER_CASE = 2
MAX_DECISIONS = 400        # per game: a bound on the work, not on the rules

# (game, parameters): player counts 1-4 where the game has them, variants, characters.
CASES = [
    ("gutenberg", {"players": 1}),
    ("gutenberg", {"players": 2, "characters": False}),
    ("gutenberg", {"players": 2, "automa": 1}),
    ("gutenberg", {"players": 3}),
    ("gutenberg", {"players": 4}),
    ("printing-press", {"players": 1}),
    ("printing-press", {"players": 1, "one_token": True, "hard_board": True, "automa_wins_ties": True}),
    ("printing-press", {"players": 2, "characters": False}),
    ("printing-press", {"players": 3, "variant": "advanced"}),
    ("printing-press", {"players": 4}),
    ("lead-letter-printers", {"players": 2}),
    ("lead-letter-printers", {"players": 3, "rounds": 3}),
    ("lead-letter-printers", {"players": 4, "rounds": 2}),
]


def observation(core, seat: int) -> np.ndarray:
    module = sys.modules[type(core).__module__]
    out = np.zeros(module.OBSERVATION_SIZE, dtype=np.float32)
    core.write_observation(seat, out)
    return out


def seats(core) -> range:
    return range(core.to_dict()["num_players"])


def same_view(loaded, real, seat: int, where: str):
    assert loaded.observation_string(seat) == real.observation_string(seat), f"{where}: seat {seat}'s observation"
    difference = np.nonzero(observation(loaded, seat) != observation(real, seat))[0]
    assert difference.size == 0, f"{where}: seat {seat}'s observation tensor differs at {difference[:8]}"


def same_decision(loaded, real, where: str):
    assert loaded.current_player() == real.current_player(), where
    assert loaded.legal_actions() == real.legal_actions(), where


def gutenberg_facts(d: dict) -> dict:
    from gutenberg_ai.games.gutenberg import _core
    phase = _core.PHASES
    d["pending"] = d["pending"][:d["n_pending"]]
    for p in d["players"]:
        p["character_drawn"] = sorted(p["character_drawn"])
    d["turn_order"] = d["turn_order"][:d["n_turns"]]
    del d["sub_card"], d["patronage_box"]
    if d["phase"] != phase["FULFIL"]:
        del d["fulfil_mode"], d["fulfil_slot"]
    if d["phase"] not in (phase["TURN"], phase["FULFIL"]):
        del d["turn_order"], d["row"], d["n_turns"], d["turn"]
    if d["phase"] != phase["REVEAL"]:
        del d["reveal_stage"]
    return d


def printing_press_facts(d: dict) -> dict:
    from gutenberg_ai.games.printing_press import _core
    d["turn_order"] = d["turn_order"][:d["n_turns"]]
    if d["phase"] != _core.PHASES["ORDERS"]:
        del d["n_orders"]
    if d["phase"] != _core.PHASES["CARDS"]:
        del d["n_deal"]
    return d


def lead_letter_printers_facts(d: dict) -> dict:
    from gutenberg_ai.games.lead_letter_printers import _core
    n = d["num_players"]
    d["frames"] = d["frames"][:d["n_frames"]]
    d["seq"] = d["seq"][:2 * n if d["phase"] == _core.PHASES["ACTIONS"] else n]
    stamps = sorted((p["entered"][t], q, t) for q, p in enumerate(d["players"]) for t in range(len(p["entered"])))
    rank = {(q, t): i for i, (_, q, t) in enumerate(stamps)}
    for q, p in enumerate(d["players"]):
        p["entered"] = [rank[q, t] for t in range(len(p["entered"]))]
    del d["stamp"]
    return d


FACTS = {"gutenberg": gutenberg_facts, "printing-press": printing_press_facts,
         "lead-letter-printers": lead_letter_printers_facts}


def same_facts(key: str, loaded, real, where: str):
    mine, theirs = FACTS[key](loaded.to_dict()), FACTS[key](real.to_dict())
    differ = [k for k in theirs if mine[k] != theirs[k]]
    assert not differ, f"{where}: the state differs at {differ}"


def next_node(core):
    if core.is_terminal():
        return "end"
    if core.is_chance():
        return sorted(core.chance_outcomes())
    return (core.current_player(), core.legal_actions())


def rewrite(module, saved: dict, loaded, viewer):
    """The position the writer gives for the loaded state (None where it cannot: Lead
    Letter Printers' moves form writes a game's history, which a loaded state lacks)."""
    if saved.get("form") == "moves":
        return None
    return module.position_of(loaded, viewer=viewer)


def play(key: str, params: dict, seed: int):
    """Decisions of a seeded game of random moves: (pyspiel state, the move played)."""
    game = games.get(key).load(**params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal() and decisions < MAX_DECISIONS:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        move = rng.choice(state.legal_actions())
        yield state, move
        state.apply_action(move)
        decisions += 1


@pytest.mark.parametrize("key,params", CASES, ids=[f"{k}-{json.dumps(p, sort_keys=True)}" for k, p in CASES])
def test_every_recorded_decision_loads_back_to_the_same_state(key, params):
    module = games.get(key).positions
    written = decisions = 0
    for seed in range(GAMES_PER_CASE):
        for state, move in play(key, params, seed):
            decisions += 1
            real = core_of(state)
            to_move = real.current_player()
            for viewer in (None, to_move):
                try:
                    saved = module.position_of(state, viewer=viewer)
                except PositionError:
                    continue            # a decision the format does not record
                where = f"seed {seed}, {real.step_name()}, viewer {viewer}"
                loaded = module.load_position(json.loads(json.dumps(saved))).state
                same_decision(loaded, real, where)
                for seat in (seats(real) if viewer is None else [viewer]):
                    same_view(loaded, real, seat, where)
                again = rewrite(module, saved, loaded, viewer)
                assert again is None or again == saved, where
                if viewer is None:
                    assert str(loaded) == str(real), where
                    same_facts(key, loaded, real, where)
                    after, then = loaded.clone(), real.clone()
                    after.apply(move)
                    then.apply(move)
                    assert next_node(after) == next_node(then), where
                written += 1
    assert decisions > 50 and written > decisions // 3, (written, decisions)


# ---------------------------------------------------------------------------------------
# The losses the round trip found, one by one
# ---------------------------------------------------------------------------------------
def printing_press_game(character: str, side: str, prefer, seed: int = 0):
    """Decisions of a 2-player Printing Press game in which seat 0 plays `character` on
    `side` and takes the first of `prefer(state, legal)` when there is one (else random
    moves): (CoreState, the move), the state before the move."""
    from gutenberg_ai.games.printing_press import _core, make_rules, names
    tile, A = names.CHARACTERS.index(character), _core.ACTIONS
    s = make_rules({"players": 2}).new_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance():
            outcomes = [a for a, _ in s.chance_outcomes()]
            mine = s.step_name() == "character tiles" and s.to_dict()["players"][0]["character"] < 0
            s.apply(tile if mine and tile in outcomes else s.sample_chance(rng.getrandbits(64)))
            continue
        legal = s.legal_actions()
        wanted = [a for a in legal if a == A["SIDE"] + "AB".index(side)] or prefer(s, legal) \
            if s.current_player() == 0 else []
        move = wanted[0] if wanted else rng.choice(legal)
        yield s, move
        s.apply(move)


def recorded(decisions, when):
    """The first decision the format records at which `when(state)` holds, and its position."""
    from gutenberg_ai.games.printing_press import position as P
    for s, _ in decisions:
        if s.current_player() >= 0 and when(s):
            try:
                return s.clone(), P.position_of(s)
            except PositionError:
                continue
    raise AssertionError("the game never reached the decision")


def test_caxton_side_b_keeps_the_token_he_took_from_the_bag():
    from gutenberg_ai.games.printing_press import _core, names
    from gutenberg_ai.games.printing_press import position as P
    A, slots = _core.ACTIONS, _core.SLOTS
    give = lambda s, legal: [a for a in legal if A["CAXTON_GIVE"] <= a < A["TOKEN_AT"]]
    state, data = recorded(printing_press_game("William Caxton", "B", give),
                           lambda s: s.to_dict()["players"][0]["slot"][4] == slots["HAND"])
    taken = names.SYMBOLS[state.to_dict()["players"][0]["hand"][4]]
    caxton = data["players"][0]
    assert caxton["ability"] is False and caxton["setup_tokens"][3] == taken
    assert [list(x) for x in caxton["setup_tokens"][:3] if isinstance(x, dict)] == [["returned"]] * 2
    loaded = P.load_position(json.loads(json.dumps(data))).state
    assert loaded.to_dict()["bag"] == state.to_dict()["bag"]        # not back in the bag
    assert loaded.to_dict()["players"][0]["slot"] == state.to_dict()["players"][0]["slot"]
    same_view(loaded, state, 0, "Caxton")
    same_view(loaded, state, 1, "Caxton")
    # The other player never saw it: "hidden" when he saves, and a stand-in in the hand.
    state, _ = recorded(printing_press_game("William Caxton", "B", give),
                        lambda s: s.to_dict()["players"][0]["slot"][4] == slots["HAND"] and s.current_player() == 1)
    seen_by_1 = P.position_of(state, viewer=1)
    assert seen_by_1["players"][0]["setup_tokens"][3] == "hidden"
    same_view(P.load_position(seen_by_1).state, state, 1, "Caxton seen by player 1")
    # His ability used and no token from the bag (or the other way round) is named.
    del caxton["setup_tokens"][3]
    with pytest.raises(PositionError, match=r"players\[0\]\.setup_tokens: 3 tokens: Caxton takes one"):
        P.load_position(data)


def test_gutenberg_side_b_extra_marker_placed_is_read_from_the_frame_with_two_markers():
    from gutenberg_ai.games.printing_press import _core
    from gutenberg_ai.games.printing_press import position as P
    A = _core.ACTIONS
    with_extra = lambda s, legal: [a for a in legal if A["MARKER"] <= a < A["WINDOW"] and (a - A["MARKER"]) // 2 == 2]
    state, data = recorded(printing_press_game("Johannes Gutenberg", "B", with_extra, seed=1),
                           lambda s: s.to_dict()["players"][0]["marker13"] == 0)
    gutenberg = data["players"][0]
    assert sorted(m["value"] for m in gutenberg["bonus_markers"] if m["round"] == 1) == [1, 2]
    del gutenberg["markers_left"]                     # as a person writes it: derived
    loaded = P.load_position(data).state.to_dict()["players"][0]
    real = state.to_dict()["players"][0]
    assert (loaded["markers"], loaded["marker13"]) == (real["markers"], real["marker13"]) == (2, 0)


def test_printing_press_writes_how_each_setup_token_was_used_and_the_pieces_placed():
    from gutenberg_ai.games.printing_press import _core
    from gutenberg_ai.games.printing_press import position as P
    A, slots = _core.ACTIONS, _core.SLOTS
    def down_then_up(s, legal):      # a setup token initiative side up, then one symbol side up
        downs = [a for a in legal if A["SETUP_DOWN"] <= a < A["GUILLARD"]]
        ups = [a for a in legal if A["SETUP_UP"] <= a < A["SETUP_DOWN"]]
        return ups + downs if slots["DOWN"] in s.to_dict()["players"][0]["slot"] else downs

    state, data = recorded(printing_press_game("Helena Ungler", "A", down_then_up),
                           lambda s: slots["DOWN"] in s.to_dict()["players"][0]["slot"]
                           and slots["UP"] in s.to_dict()["players"][0]["slot"])
    hand = data["players"][0]["setup_tokens"]
    assert {"down", "up"} <= {next(iter(x)) for x in hand if isinstance(x, dict)}
    loaded = P.load_position(json.loads(json.dumps(data))).state
    for key in ("slot", "hand", "hidden_out", "pieces"):
        assert loaded.to_dict()["players"][0][key] == state.to_dict()["players"][0][key], key
    same_view(loaded, state, 0, "setup tokens")
    same_view(loaded, state, 1, "setup tokens")


def test_pieces_a_tableau_does_not_show_are_written():
    from gutenberg_ai.games.printing_press import position as P
    for s, _ in printing_press_game("Charlotte Guillard", "A", lambda s, legal: [], seed=2):
        p = s.to_dict()["players"][0]
        if s.current_player() < 0 or p["pieces"] == P.derived_pieces(p["grid"]):
            continue
        try:
            data = P.position_of(s)
        except PositionError:
            continue
        assert data["players"][0]["pieces"] == p["pieces"]      # covered cards
        assert P.load_position(data).state.to_dict()["players"][0]["pieces"] == p["pieces"]
        data["players"][0]["pieces"] = P.derived_pieces(p["grid"]) - 1
        with pytest.raises(PositionError, match=r"players\[0\]\.pieces: .* the tableau shows at least"):
            P.load_position(data)
        return
    raise AssertionError("no card was covered in the game")


def test_gutenberg_writes_the_character_tile_put_back_for_its_player():
    from gutenberg_ai.games.gutenberg import position as G
    for state, _ in play("gutenberg", {"players": 3}, 0):
        try:
            G.position_of(state)
        except PositionError:
            continue
        break
    real = core_of(state)
    drawn = real.to_dict()["players"][1]["character_drawn"]
    back = next(x for x in drawn if x != real.to_dict()["players"][1]["character"])
    seen_by_1 = G.position_of(state, viewer=1)
    from gutenberg_ai.games.gutenberg.names import CHARACTERS
    assert seen_by_1["players"][1]["character_put_back"] == CHARACTERS[back]
    assert all("character_put_back" not in p for seat, p in enumerate(seen_by_1["players"]) if seat != 1)
    same_view(G.load_position(seen_by_1).state, real, 1, "the tile put back")
    data = G.position_of(state)
    data["players"][0]["character_put_back"] = data["players"][2]["character"]
    with pytest.raises(PositionError, match=r"players\[0\]\.character_put_back: .* is players\[2\]'s"):
        G.load_position(data)


def test_lead_letter_printers_small_variant_table_at_the_final_phase_loads():
    module = games.get("lead-letter-printers").positions
    for state, _ in play("lead-letter-printers", {"players": 2, "rounds": 1}, 0):
        if core_of(state).step_name().startswith("game end"):
            data = module.position_of(state)
            assert data["form"] == "table" and data["phase"] == "final" and data["round"] == 2
            same_view(module.load_position(data).state, core_of(state), 0, "final phase")
            return
    raise AssertionError("the game did not reach its final phase")


def test_lead_letter_printers_counts_the_purchases_whose_space_was_refilled():
    # An effect's purchase refills its display space at once; the Preparation still
    # counts it (fewer spaces discarded), so the table says how many were bought.
    module = games.get("lead-letter-printers").positions
    # (seed 28 the first such game since the factory piles lie face up)
    for state, _ in (d for seed in range(32) for d in play("lead-letter-printers", {"players": 2}, seed)):
        real = core_of(state)
        try:
            data = module.position_of(state)
        except PositionError:
            continue
        if data.get("form") == "table" and "bought" in data["displays"]:
            assert data["displays"]["bought"] == dict(zip(("orders", "contracts"), real.to_dict()["taken"]))
            assert module.load_position(data).state.to_dict()["taken"] == real.to_dict()["taken"]
            data["displays"]["bought"] = {"orders": 0, "contracts": 0}
            data["displays"]["orders"][0] = "taken"
            with pytest.raises(PositionError, match=r"displays\.bought\.orders: 0, but 1 spaces"):
                module.load_position(data)
            return
    raise AssertionError("no purchase by an effect in the game")
