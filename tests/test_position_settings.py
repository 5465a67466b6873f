"""A position says what game it is: at every door where a position and settings meet
(load_game(position=...), an OpenSpiel game string, a record's game), a setting given
that contradicts the file is refused in the words positionfile.position_game uses, even
when it is the setting's default, and a setting not given takes the file's value."""
from pathlib import Path

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.games.records import GameRecord, RecordError, load_record, seat_entry

GAMES = Path(__file__).resolve().parent.parent / "gutenberg_ai" / "games"
# (game, a shipped 3-player position of it): 2 players is every game's default.
THREE_PLAYERS = [("gutenberg", "gutenberg/data/positions/turn-inks-round3-3p.json"),
                 ("printing-press", "printing_press/data/positions/cards-round2-3p.json"),
                 ("lead-letter-printers", "lead_letter_printers/data/positions/table-3p.json")]
SAID = "players: 2, but the position is a game with players 3"


@pytest.mark.parametrize("game, path", THREE_PLAYERS)
def test_load_game_refuses_the_default_players_given_against_the_file(game, path):
    position = str(GAMES / path)
    assert gutenberg_ai.load_game(game, position=position).num_players() == 3
    assert gutenberg_ai.load_game(game, position=position, players=3).num_players() == 3
    with pytest.raises(gutenberg_ai.ParameterError, match=SAID):
        gutenberg_ai.load_game(game, position=position, players=2)


@pytest.mark.parametrize("game, path", THREE_PLAYERS)
def test_a_game_string_refuses_the_default_players_given_against_the_file(game, path):
    g = gutenberg_ai.games.get(game)
    position = str(GAMES / path)
    assert pyspiel.load_game(f"{g.spiel_name}(position={position})").num_players() == 3
    with pytest.raises(pyspiel.SpielError, match=SAID):
        pyspiel.load_game(f"{g.spiel_name}(players=2,position={position})")
    if g.shell_name:
        # pyspiel fills a Python game's defaults in before the game sees them: there a
        # default cannot be told from a setting given, and gives way to the file's.
        assert pyspiel.load_game(f"{g.shell_name}(players=2,position={position})").num_players() == 3
        with pytest.raises(pyspiel.SpielError, match="players: 4, but the position is a game with players 3"):
            pyspiel.load_game(f"{g.shell_name}(players=4,position={position})")


def test_gutenberg_refuses_its_default_rounds_given_against_the_file(tmp_path):
    short = tmp_path / "short.json"
    short.write_text((GAMES / "gutenberg/data/positions/turn-inks-round3-3p.json").read_text()
                     .replace('"rounds": 6', '"rounds": 4'))
    assert gutenberg_ai.load_game(position=str(short)).get_parameters()["rounds"] == 4
    with pytest.raises(gutenberg_ai.ParameterError, match="rounds: 6, but the position plays 4 rounds"):
        gutenberg_ai.load_game(position=str(short), rounds=6)


def test_a_record_whose_game_contradicts_its_position_is_refused_naming_the_field():
    game = gutenberg_ai.load_game(position=str(GAMES / THREE_PLAYERS[0][1]))
    data = GameRecord(game, 1, [seat_entry(s, "random", s, {}) for s in range(3)], command="test").to_dict()
    assert load_record(data)["game"]["players"] == 3
    data["game"]["players"] = 2
    with pytest.raises(RecordError, match="game.players: 2, but the position is a game with players 3"):
        load_record(data)


def test_a_printing_press_position_says_its_solo_options_even_when_it_leaves_them_out(tmp_path):
    state = gutenberg_ai.load_game("printing-press", players=1).new_initial_state()
    path = tmp_path / "solo.json"
    for _ in range(200):        # the setup played to the first decision a position records
        try:
            data = gutenberg_ai.save_position(state, path)
            break
        except gutenberg_ai.PositionError:
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    assert "hard_board" not in data["game"]             # off: the file leaves it out
    game = gutenberg_ai.load_game("printing-press", position=str(path))
    assert game.get_parameters()["hard_board"] is False
    with pytest.raises(gutenberg_ai.ParameterError,
                       match="hard_board: true, but the position is a game with hard_board false"):
        gutenberg_ai.load_game("printing-press", position=str(path), hard_board=True)


def test_lead_letter_printers_whole_game_is_named_so_when_rounds_contradict_it():
    """Its positions play the whole game (rounds 0): a --rounds given against one says so
    in words, not as "rounds 0"."""
    position = GAMES / "lead_letter_printers/data/positions/round2-3p.json"
    with pytest.raises(gutenberg_ai.ParameterError, match="rounds: 2, but the position plays the whole game"):
        gutenberg_ai.load_game("lead-letter-printers", position=str(position), rounds=2)


@pytest.mark.parametrize("path", ["gutenberg/data/positions/plan-round1-2p.json",
                                  "printing_press/data/positions/close-round1-2p.json",
                                  "lead_letter_printers/data/positions/round2-3p.json"])
def test_save_position_refuses_a_viewer_that_is_not_a_seat_before_writing(tmp_path, path):
    """A file its own loader would refuse is never written: the viewer is a seat."""
    g, _ = gutenberg_ai.games.positionfile.load_position(str(GAMES / path))
    state = g.load(position=str(GAMES / path)).new_initial_state()
    for viewer in (99, -1, True, 1.0):
        with pytest.raises(ValueError, match=f"viewer: {viewer!r} is not a seat of this game"):
            gutenberg_ai.save_position(state, tmp_path / "p.json", viewer=viewer)
        assert not (tmp_path / "p.json").exists()
    to_act = state.current_player()
    gutenberg_ai.save_position(state, tmp_path / "p.json", viewer=to_act)
    assert gutenberg_ai.load_position(str(tmp_path / "p.json")) is not None


def test_save_position_writes_no_view_its_loader_refuses(tmp_path):
    """Printing Press: a position is the player to decide's; another's view hides their
    own tokens from them, which the loader refuses: a ValueError, nothing written."""
    path = GAMES / "printing_press/data/positions/close-round1-2p.json"
    state = gutenberg_ai.load_game("printing-press", position=str(path)).new_initial_state()
    other = 1 - state.current_player()
    (tmp_path / "p.json").write_text("mine")
    with pytest.raises(ValueError, match=f"viewer: the position as player {other} knows it is not one a position "
                                         "file holds"):
        gutenberg_ai.save_position(state, tmp_path / "p.json", viewer=other)
    assert (tmp_path / "p.json").read_text() == "mine" and len(list(tmp_path.iterdir())) == 1


def test_save_position_with_a_viewer_refuses_a_state_no_position_records_as_without_one(tmp_path):
    """A state in the setup is no position for anyone: the state's problem, not the viewer's."""
    state = gutenberg_ai.load_game("printing-press", players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for viewer in (None, 0, 1):
        with pytest.raises(gutenberg_ai.PositionError) as info:
            gutenberg_ai.save_position(state, tmp_path / "p.json", viewer=viewer)
        assert str(info.value) == "state: the state is in the setup; positions start at the first Select Orders"
    assert not (tmp_path / "p.json").exists()


def test_a_device_given_as_a_file_is_named_so_and_replay_checks_its_counts(tmp_path):
    with pytest.raises(gutenberg_ai.ParameterError, match="position: '/dev/zero' is not a file .a pipe or a device"):
        gutenberg_ai.load_game(position="/dev/zero")
    game = gutenberg_ai.load_game(position=str(GAMES / THREE_PLAYERS[0][1]))
    record = load_record(GameRecord(game, 1, [seat_entry(s, "random", s, {}) for s in range(3)],
                                    command="test").to_dict())
    with pytest.raises(ValueError, match="to: 'x' is not a whole number of actions"):
        gutenberg_ai.replay(record, to="x")
    with pytest.raises(ValueError, match="dealt: -1 is not a whole number from 0"):
        gutenberg_ai.replay(record, dealt=-1)
