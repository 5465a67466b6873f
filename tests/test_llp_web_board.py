"""Lead Letter Printers's table for the web page (view.web_board, the contract of
docs/web.md on the web branch): plain JSON data of sections, groups and items; every
move an item offers is legal for its viewer at that decision and a viewer not to act is
offered none; the Shop and Reset moves are all on the board; what the viewer may not
see is a hidden item."""
import json
import random

from gutenberg_ai.games.lead_letter_printers import _core, position, view
from gutenberg_ai.games.lead_letter_printers.catalogue import default_catalogue

CAT = default_catalogue()
A = _core.ACTIONS
EXAMPLE = position.__file__.rsplit("/", 1)[0] + "/data/positions/table-3p.json"


def offered(board) -> set:
    out = set()
    for sec in board["sections"]:
        for g in sec["groups"]:
            for it in g["items"]:
                out |= set(it.get("actions", []))
                if it["kind"] == "grid":
                    out |= {a for row in it["cells"] for c in row for a in c["actions"]}
    return out


def items(board, kind):
    return [it for sec in board["sections"] for g in sec["groups"] for it in g["items"] if it["kind"] == kind]


def test_every_offered_move_is_legal_and_the_shop_and_reset_moves_are_all_there():
    for players, seed in ((2, 3), (4, 7)):
        rng = random.Random(seed)
        st = _core.Rules(CAT, players=players).new_state()
        decisions = 0
        while not st.is_terminal():
            if st.is_chance():
                st.apply(rng.choice(st.chance_outcomes())[0])
                continue
            q = st.current_player()
            board = view.web_board(st, q, [f"P{i}" for i in range(players)])
            assert json.loads(json.dumps(board)) == board
            assert board["sections"][0]["title"] == "City board"
            assert [sec.get("seat") for sec in board["sections"] if "seat" in sec][0] == q    # the viewer first
            legal = set(st.legal_actions())
            got = offered(board)
            assert got <= legal
            main = {a for a in legal if A["MOVE"] <= a < A["KEEP"] or A["SETUP"] <= a < A["MOVE"]}
            assert main <= got
            other = view.web_board(st, (q + 1) % players)
            assert offered(other) == set()
            decisions += 1
            st.apply(rng.choice(sorted(legal)))
        assert decisions > 100


def test_the_factories_a_player_has_not_seen_are_hidden():
    pos = position.load_position(EXAMPLE)            # player 0's view: 2 factories put back by player 2
    mine = view.web_board(pos.state, 0)
    theirs = view.web_board(pos.state, 2)
    everything = view.web_board(pos.state, -1)
    assert [it["text"] for it in items(mine, "hidden")] == ["factory III", "factory III"]
    assert items(theirs, "hidden") == [] and items(everything, "hidden") == []
    under = [g for sec in theirs["sections"] for g in sec["groups"] if g["label"] == "factories under the piles"]
    assert len(under[0]["items"]) == 2 and all(it["id"].startswith("factory ") for it in under[0]["items"])
