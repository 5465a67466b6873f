"""Lead Letter Printers's factory piles lie face up (setup 2a: "Place the draw piles on the
travel board in the designated spots facing up"; rulings.md 27): each pile's top factory
is in everyone's view, a draw of three takes it first, and the pile's next top comes into
view at a public chance node. The parameter factory_tops=false keeps the reading before,
the piles drawn as from a face-down deck."""
import copy
import json
import random

import numpy as np
import pytest
import pyspiel

import gutenberg_ai  # noqa: F401  (registers the game)
from gutenberg_ai.games.lead_letter_printers import _core, position, table, view
from gutenberg_ai.games.lead_letter_printers.catalogue import default_catalogue
from gutenberg_ai.games.positionfile import PositionError
from llp_helpers import after_setup, factory_minded_step, rules

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES
F = _core.FRAMES
CAT = default_catalogue()
LEVELS = ("I", "II", "III", "IV")
EXAMPLE = position.__file__.rsplit("/", 1)[0] + "/data/positions/table-3p.json"


def obs(s, player):
    out = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)
    s.write_observation(player, out)
    return out


def level_of(x):
    return LEVELS.index(CAT.data["factories"][x]["level"])


def at_a_pile_choice(seed=0, players=2, built=0, **params):
    """The first seeded random game (from `seed` on), building factories where it can,
    that comes to a choice of factory pile after `built` factory draws: (rules, state,
    history)."""
    for k in range(seed, seed + 400):
        R = rules(players, **params)
        s = R.new_state()
        rng = random.Random(k)
        history = []
        draws = 0
        while not s.is_terminal():
            if not s.is_chance() and any(A["FACTORY_PILE"] <= a < A["FACTORY"] for a in s.legal_actions()):
                if draws >= built:
                    return R, s, history
                draws += 1
            history.append(factory_minded_step(s, rng, keen=0.9))
    raise LookupError("no factory pile offered")


def test_the_setup_shows_every_piles_top_to_every_player():
    R, s = after_setup(players=3)
    tops = s.to_dict()["factory_top"]
    assert [level_of(x) for x in tops] == [0, 1, 2, 3]
    d = s.to_dict()
    assert all(not (d["factory_pile"] >> x) & 1 for x in tops)        # out of the unseen pile
    for player in range(3):
        text = s.observation_string(player)
        assert all(CAT.describe_factory(x) in text for x in tops), text
        # The web page's board: a card a pile, its top.
        groups = [g for sec in view.web_board(s, player)["sections"] for g in sec["groups"]
                  if g["label"] == "factory piles"]
        assert [card["id"] for g in groups for card in g["items"]] == [f"factory {x + 1}" for x in tops]


def test_a_hand_made_position_shows_its_tops():
    R, s = after_setup()
    d = s.to_dict()
    chosen = [4, 13, 22, 35]          # factories 5, 14, 23 and 36: one of each level
    for lv, x in enumerate(chosen):
        d["factory_pile"] |= 1 << d["factory_top"][lv]      # the dealt top back into the pile
        d["factory_pile"] &= ~(1 << x)
        d["factory_top"][lv] = x
    s = R.state_from_dict(d)
    assert s.problems() == []
    for player in range(2):
        text = s.observation_string(player)
        line = next(row for row in text.splitlines() if row.startswith("Factory piles"))
        for lv, x in enumerate(chosen):
            assert f"{LEVELS[lv]}: {CAT.describe_factory(x)}" in line
        seen = obs(s, player)
        d2 = copy.deepcopy(d)
        d2["factory_pile"] |= 1 << chosen[0]
        d2["factory_top"][0] = -1
        assert not np.array_equal(obs(R.state_from_dict(d2), player), seen)   # the tensor shows it


def test_a_draw_takes_the_shown_top_first_and_the_new_top_is_public():
    R, s, history = at_a_pile_choice(seed=3)
    drawer = s.current_player()
    other = 1 - drawer
    pile = next(a for a in s.legal_actions() if A["FACTORY_PILE"] <= a < A["FACTORY"])
    lv = pile - A["FACTORY_PILE"]
    top = s.to_dict()["factory_top"][lv]
    assert top >= 0
    s.apply(pile)
    d = s.to_dict()
    assert d["drawn"][0] == top and d["drawn_seen"][0] == 0b11          # everyone saw which
    assert s.is_chance()
    assert all(o != C["FACTORY"] + drawer * 36 + top for o, _ in s.chance_outcomes())
    while s.to_dict()["factory_top"][lv] < 0 and s.is_chance():
        outs = s.chance_outcomes()
        if outs[0][0] >= C["FACTORY_TOP"]:
            break
        s.apply(outs[0][0])
    # The three are drawn: the pile's new top comes into view, from its unseen rest.
    outs = s.chance_outcomes()
    assert outs and all(C["FACTORY_TOP"] <= o < C["NUM_CHANCE"] for o, _ in outs)
    unseen = s.to_dict()["factory_pile"]
    assert all((unseen >> (o - C["FACTORY_TOP"])) & 1 and level_of(o - C["FACTORY_TOP"]) == lv for o, _ in outs)
    new = outs[-1][0]
    words = s.action_to_string(new)
    assert words == f"the level {LEVELS[lv]} factories' pile shows {CAT.describe_factory(new - C['FACTORY_TOP'])} on top"
    s.apply(new)
    assert s.to_dict()["factory_top"][lv] == new - C["FACTORY_TOP"]
    # The drawer keeps one of the three, the top among them.
    assert A["FACTORY"] + top in s.legal_actions()
    # Public: no player's history hides it, and the other sees the drawn top too.
    masked = s.mask_history(other, [(-1, new)])
    assert masked == [(-1, new)]
    assert CAT.describe_factory(top) in s.observation_string(other)
    assert CAT.describe_factory(new - C["FACTORY_TOP"]) in s.observation_string(other)


def test_the_new_top_is_in_both_players_information_states():
    R, s, history = at_a_pile_choice(seed=3)
    game = pyspiel.load_game("lead_letter_printers", {"players": 2})
    state = game.new_initial_state()
    for _, a in history:
        state.apply_action(a)
    pile = next(a for a in state.legal_actions() if A["FACTORY_PILE"] <= a < A["FACTORY"])
    state.apply_action(pile)
    while state.chance_outcomes()[0][0] < C["FACTORY_TOP"]:
        state.apply_action(state.chance_outcomes()[0][0])
    new = state.chance_outcomes()[-1][0]
    words = CAT.describe_factory(new - C["FACTORY_TOP"])
    state.apply_action(new)
    for player in range(2):
        # The entry unmasked in the history, and the top in the view.
        assert state.information_state_string(player).split(" | ")[0].endswith(f" -1:{new}")
        assert words in state.observation_string(player)


def test_factory_tops_false_is_the_face_down_deck():
    R, s, history = at_a_pile_choice(seed=0, factory_tops=False)
    assert R.params["factory_tops"] is False
    assert "factory_top" not in s.to_dict() and "factory_tops" not in s.to_dict()
    assert all(a < C["FACTORY_TOP"] for actor, a in history if actor == -1)
    # A draw takes three from the unseen pile at the drawer's chance nodes, and no top
    # comes into view after it.
    rng = random.Random(1)
    pile = next(a for a in s.legal_actions() if A["FACTORY_PILE"] <= a < A["FACTORY"])
    s.apply(pile)
    assert s.to_dict()["drawn"] == [-1, -1, -1]
    while s.is_chance():
        outs = s.chance_outcomes()
        assert all(C["FACTORY"] <= o < C["TOP"] for o, _ in outs)
        s.apply(rng.choice(outs)[0])
    assert s.frame() is not None and all(A["FACTORY"] <= a < A["UP"] for a in s.legal_actions())
    while not s.is_terminal():
        if s.is_chance():
            assert all(o < C["FACTORY_TOP"] for o, _ in s.chance_outcomes())
        factory_minded_step(s, rng, keen=0.9)
    game = pyspiel.load_game("lead_letter_printers", {"players": 2, "factory_tops": False})
    assert game.get_parameters()["factory_tops"] is False
    assert pyspiel.load_game("lead_letter_printers").get_parameters()["factory_tops"] is True


def test_a_redraw_never_touches_a_shown_top():
    R, s, history = at_a_pile_choice(seed=3, built=2)
    tops = s.to_dict()["factory_top"]
    for seed in range(10):
        t = s.determinize(s.current_player(), seed)
        assert t.to_dict()["factory_top"] == tops
        t, actions = s.resample_history(1 - s.current_player(), history, seed)
        assert t.to_dict()["factory_top"] == tops
        for (actor, a), b in zip(history, actions):
            if actor == -1 and a >= C["FACTORY_TOP"]:
                assert a == b


def test_a_position_file_with_a_bad_top_is_refused_with_every_problem():
    with open(EXAMPLE) as f:
        data = json.load(f)
    good = copy.deepcopy(data)
    good["displays"]["factory_pile_tops"] = {"I": "factory 2", "IV": "factory 30"}
    st = position.position_from_data(good, CAT).state
    assert st.to_dict()["factory_top"] == [1, -1, -1, 29]
    assert table.table_of(st)["displays"]["factory_pile_tops"] == {"I": "factory 2", "IV": "factory 30"}
    bad = copy.deepcopy(data)
    bad["displays"]["factory_pile_tops"] = {"I": "factory 20", "II": "factory 99", "III": "factory 25"}
    with pytest.raises(PositionError) as e:
        position.position_from_data(bad, CAT)
    found = dict(e.value.problems)
    assert "of level III, not on the pile of level I" in found["displays.factory_pile_tops.I"]
    assert "factory_pile_tops.II" in " ".join(found)
    assert any("also at displays.factory_pile_tops.III" in r for r in found.values())   # built in a workshop
    face_down = dict(copy.deepcopy(good), factory_tops=False)
    with pytest.raises(PositionError) as e:
        position.position_from_data(face_down, CAT)
    assert "lie face down" in dict(e.value.problems)["displays.factory_pile_tops.I"]


def test_following_a_real_game_asks_for_the_new_top():
    """At the table (gutenberg_ai.interfaces.table): the factories another player draws
    are placeholders, the top that comes into view after them is asked like any draw the
    person sees, and whatever the placeholders took, each factory of the pile may be it."""
    from gutenberg_ai.interfaces.table import FollowedGame
    R, s, history = at_a_pile_choice(seed=3)
    person = 1 - s.current_player()
    pile = next(a for a in s.legal_actions() if A["FACTORY_PILE"] <= a < A["FACTORY"])
    lv = pile - A["FACTORY_PILE"]
    followed = FollowedGame(pyspiel.load_game("lead_letter_printers", {"players": 2}), seat=person, seed=7)
    for _, a in history + [(None, pile)]:
        assert followed.next_turn()[0] in ("chance", "move", "own")
        followed.enter(a)
    placed = 0
    kind, _ = followed.next_turn()
    while kind == "unseen":            # the drawer's two draws after the top in view
        followed.place_unseen()
        placed += 1
        kind, _ = followed.next_turn()
    assert placed == 2 and kind == "chance"
    menu = followed.options()
    tops = [a for a in menu if C["FACTORY_TOP"] <= a]
    assert tops and all(level_of(a - C["FACTORY_TOP"]) == lv for a in tops)
    unseen_by_person = s.to_dict()["factory_pile"]
    every = [C["FACTORY_TOP"] + x for x in range(36) if (unseen_by_person >> x) & 1 and level_of(x) == lv]
    for a in every:        # each factory the person has not seen may come up, placeholders or not
        probe = FollowedGame(pyspiel.load_game("lead_letter_printers", {"players": 2}), seat=person, seed=7,
                             entries=[(e.player, e.action, e.entered) for e in followed.entries])
        probe.enter(a)
        assert probe.entries[-1].action == a and probe.entries[-1].entered


def test_the_command_line_plays_either_reading():
    """`gutenberg-ai play` (and table): --no-factory-tops deals the piles face down; a
    position file made that way refuses the other reading; another game has no such
    option."""
    from every_game import cli
    game = ("play", "--game", "lead-letter-printers", "--ai", "heuristic", "--seed", "1")
    up, down = cli(*game, stdin="board\nquit\n"), cli(*game, "--no-factory-tops", stdin="board\nquit\n")
    assert up.returncode == 0 and down.returncode == 0, (up.stderr, down.stderr)
    assert "Fact. piles" in up.stdout and "Fact. piles" not in down.stdout
    shipped = position.__file__.rsplit("/", 1)[0] + "/data/positions/round2-3p.json"     # made face down
    refused = cli("play", "--position", shipped, "--factory-tops", "--ai", "heuristic", stdin="quit\n")
    assert refused.returncode != 0 and "factory_tops" in refused.stderr
    other = cli("play", "--no-factory-tops", "--ai", "heuristic", stdin="quit\n")
    assert other.returncode != 0 and "--factory-tops: Gutenberg has no such parameter" in other.stderr


def test_a_demo_and_an_arena_play_the_reading_asked_for(tmp_path):
    """demo and arena take --factory-tops / --no-factory-tops as play does: the game
    recorded is of that reading, the arena's settings, summary and command to go on say
    so, and going on with the other reading is refused; Gutenberg has no such option."""
    from every_game import cli
    demo = cli("demo", "--game", "lead-letter-printers", "--no-factory-tops", "--seed", "3", "--quiet",
               "--save", str(tmp_path / "demo.json"))
    assert demo.returncode == 0, demo.stderr
    assert json.loads((tmp_path / "demo.json").read_text())["game"]["factory_tops"] is False
    arena = ("arena", "--game", "lead-letter-printers", "--bots", "heuristic,random", "--games", "2",
             "--jobs", "1", "--rounds", "1", "--seed", "3", "--out", str(tmp_path / "arena"))
    done = cli(*arena, "--no-factory-tops")
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "arena" / "summary.json").read_text())
    assert summary["settings"]["factory_tops"] is False
    text = (tmp_path / "arena" / "summary.md").read_text()
    assert "the factory piles face down" in text and "--no-factory-tops" in text
    records = sorted((tmp_path / "arena" / "games").rglob("*.json"))
    assert records and all(json.loads(r.read_text())["game"]["factory_tops"] is False for r in records)
    other = cli(*arena, "--games", "4")      # the default reading into the same --out
    assert other.returncode != 0 and "factory_tops" in other.stderr
    for command in (("demo", "--factory-tops", "--seed", "1", "--quiet"),
                    ("arena", "--bots", "heuristic,random", "--no-factory-tops", "--out", str(tmp_path / "g"))):
        refused = cli(*command)
        assert refused.returncode != 0 and "--factory-tops: Gutenberg has no such parameter" in refused.stderr


def test_studies_self_play_and_tuning_play_the_reading_asked_for(tmp_path):
    """study (balance, scaling), selfplay and tune take --no-factory-tops as the arena
    does: every game they play is of that reading, their reports and commands to go on
    say so, and going on with the other reading is refused; Gutenberg has no such option."""
    from every_game import cli

    def readings(folder):
        records = [json.loads(r.read_text()) for r in sorted(folder.rglob("game-*.json"))]
        assert records
        return {r["game"].get("factory_tops", True) for r in records}

    balance = ("study", "balance", "--game", "lead-letter-printers", "--bot", "random", "--games", "2",
               "--rounds", "1", "--seed", "3", "--jobs", "1", "--out", str(tmp_path / "balance"))
    done = cli(*balance, "--no-factory-tops")
    assert done.returncode == 0, done.stderr
    assert readings(tmp_path / "balance") == {False}
    text = (tmp_path / "balance" / "balance.md").read_text()
    assert "the factory piles face down" in text and "--no-factory-tops" in text
    other = cli(*balance, "--games", "3")      # the default reading into the same --out
    assert other.returncode != 0 and "factory_tops" in other.stderr

    done = cli("study", "scaling", "--game", "lead-letter-printers", "--bot", "ismcts", "--budgets", "2",
               "--reference", "random", "--games", "1", "--rounds", "1", "--seed", "3", "--jobs", "1",
               "--no-factory-tops", "--out", str(tmp_path / "scaling"))
    assert done.returncode == 0, done.stderr
    assert readings(tmp_path / "scaling") == {False}
    assert "--no-factory-tops" in json.loads((tmp_path / "scaling" / "scaling.json").read_text())["command"]

    done = cli("selfplay", "--game", "lead-letter-printers", "--bot", "ismcts", "--iterations", "2", "--games", "1",
               "--rounds", "1", "--seed", "3", "--jobs", "1", "--no-factory-tops", "--out", str(tmp_path / "sp"))
    assert done.returncode == 0, done.stderr
    assert readings(tmp_path / "sp") == {False}

    pytest.importorskip("optuna")
    tune = ("tune", "--game", "lead-letter-printers", "--bot", "smmcts", "--reference", "random",
            "--trials", "1", "--games", "1", "--validate", "1", "--iterations", "2", "--rounds", "1",
            "--seed", "3", "--space", '{"uct_c": [0.5, 2.0]}', "--out", str(tmp_path / "tune"))
    done = cli(*tune, "--no-factory-tops")
    assert done.returncode == 0, done.stderr
    assert readings(tmp_path / "tune") == {False}
    assert "the factory piles face down" in (tmp_path / "tune" / "tune.md").read_text()
    other = cli(*tune)
    assert other.returncode != 0 and "factory_tops" in other.stderr

    for command in (("study", "balance", "--bot", "random", "--no-factory-tops", "--out", str(tmp_path / "g1")),
                    ("selfplay", "--factory-tops", "--out", str(tmp_path / "g2")),
                    ("tune", "--no-factory-tops", "--out", str(tmp_path / "g3"))):
        refused = cli(*command)
        assert refused.returncode != 0 and "--factory-tops: Gutenberg has no such parameter" in refused.stderr
        assert not (tmp_path / command[-1]).exists()
