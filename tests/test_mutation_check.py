"""benchmarks/mutation_check.py's choice of mutants (the builds and test runs it drives
are not run here): each kind of change, and no change in a comment, a string, a
declaration, a docstring, a signature or a test helper."""
import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "mutation_check", pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "mutation_check.py")
mc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mc)

SOURCE = '''\
cdef int total(const GameState* s,
               int seat) noexcept nogil:
    """A docstring with a < b and 3 + 4."""
    cdef int n = 0, k
    cdef int a[4]
    for k in range(4):   # a comment: k < 4 and 1 + 2
        if s.x[k] >= 2 and s.y != seat:
            n += s.x[k]
    return n - s.base * 2


cdef void play_random(GameState* s) noexcept nogil:
    if s.n < 3:
        s.n += 1


cdef void say(GameState* s):
    print("a < b or 5")
'''


def changes(kind=None):
    found = mc.file_mutants("ext/g/core.pyx", SOURCE)
    return sorted((m.line, m.change(SOURCE).split("  ->  ")[1]) for m in found if kind in (None, m.kind))


def test_each_kind_of_change():
    assert changes("comparison") == [(7, "if s.x[k] > 2 and s.y != seat:"),
                                     (7, "if s.x[k] >= 2 and s.y == seat:")]
    assert changes("constant") == [(4, "cdef int n = 1, k"), (6, "for k in range(5):   # a comment: k < 4 and 1 + 2"),
                                   (7, "if s.x[k] >= 3 and s.y != seat:"), (9, "return n - s.base * 3")]
    assert changes("logic") == [(7, "if s.x[k] >= 2 or s.y != seat:")]
    # the term dropped is the whole product, not its first factor
    assert changes("term") == [(8, "pass"), (9, "return n")]


def test_no_change_outside_the_rule_functions_code():
    lines = {line for line, _ in changes()}
    assert lines == {4, 6, 7, 8, 9}      # not the signature, docstring, declaration, helper
    assert all("print" not in text for _, text in changes())   # a string is not code


def test_a_mutant_changes_one_line_and_the_choice_is_seeded():
    found = mc.file_mutants("ext/g/core.pyx", SOURCE)
    for m in found:
        before, after = SOURCE.split("\n"), m.apply(SOURCE).split("\n")
        assert [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [m.line - 1]
    assert mc.seeded_order(found, 1, "g") == mc.seeded_order(list(reversed(found)), 1, "g")
    assert mc.seeded_order(found, 1, "g") != mc.seeded_order(found, 2, "g")


def test_every_game_has_mutants_and_tests():
    root = pathlib.Path(mc.ROOT)
    for game in mc.GAMES:
        assert len(mc.game_mutants(root, game, None)) > 500, game
        assert any("rules" in f for f in mc.test_files(root, game)), game


@pytest.mark.parametrize("argv, message", [
    (["--mutants", "0"], "--mutants: 0 is not between"),
    (["--sources", "../setup.py"], "--sources: '../setup.py' is not"),
    (["--functions", "("], "--functions: '(' is not a regular expression"),
    (["--timeout", "-1"], "--timeout: -1.0 is not"),
])
def test_bad_options_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        mc.parse_args(argv)
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_a_results_file_of_another_seed_or_kind_is_refused(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"seed": 1, "games": {}}')
    with pytest.raises(mc.SettingsError, match="--seed 1, not 2"):
        mc.load_results(path, 2)
    path.write_text("[1, 2")
    with pytest.raises(mc.SettingsError, match="not a results file"):
        mc.load_results(path, 1)
    path.write_text('{"seed": 1, "games": {"chess": {}}}')
    with pytest.raises(mc.SettingsError, match="games.chess"):
        mc.load_results(path, 1)
