"""The arena's sequential test (gutenberg_ai.tools.sprt): Fishtest's pentanomial GSPRT
on paired deals."""
import json
import math

import pytest

from gutenberg_ai.interfaces.cli import main
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.tools import arena, sprt


def constrained_log_likelihood(counts, s):
    """max sum_i phat_i log p_i over distributions p on a_i = i/4 with mean s, by a
    general optimiser (SLSQP), not the secular equation: an independent check."""
    optimize = pytest.importorskip("scipy.optimize")
    n, pdf = sprt.distribution(counts)
    a = [x for x, _ in pdf]
    phat = [p for _, p in pdf]
    res = optimize.minimize(lambda p: -sum(h * math.log(max(q, 1e-300)) for h, q in zip(phat, p)),
                            [1 / len(a)] * len(a), method="SLSQP", bounds=[(1e-12, 1)] * len(a),
                            constraints=[{"type": "eq", "fun": lambda p: sum(p) - 1},
                                         {"type": "eq", "fun": lambda p: sum(x * q for x, q in zip(a, p)) - s}],
                            options={"ftol": 1e-14, "maxiter": 500})
    return n, -res.fun


@pytest.mark.parametrize("counts", [[3, 10, 25, 14, 6], [0, 0, 1, 0, 22], [20, 0, 0, 0, 0], [1, 4, 40, 5, 2],
                                    [12, 30, 41, 27, 9]])
def test_the_llr_is_the_generalized_likelihood_ratio(counts):
    elo0, elo1 = 0.0, 50.0
    n, l0 = constrained_log_likelihood(counts, sprt.expected_score(elo0))
    _, l1 = constrained_log_likelihood(counts, sprt.expected_score(elo1))
    assert sprt.llr(counts, elo0, elo1) == pytest.approx(n * (l1 - l0), abs=1e-4)


def test_the_llr_on_known_counts():
    # symmetric results are as far from +e as from -e
    assert sprt.llr([5, 10, 20, 10, 5], -20, 20) == pytest.approx(0.0, abs=1e-9)
    # many pairs: the normal approximation (Fishtest's LLR_alt2: N (s1-s0)(2s-s0-s1) / (2 var))
    counts = [100, 400, 1000, 500, 120]
    n, pdf = sprt.distribution(counts)
    mean = sum(a * p for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    s0, s1 = sprt.expected_score(0), sprt.expected_score(10)
    assert sprt.llr(counts, 0, 10) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / var / 2, rel=0.02)
    # a score of exactly 0.5 a pair, always: H0 (elo 0) is the likelier
    assert sprt.llr([0, 0, 30, 0, 0], 0, 50) < sprt.bounds(0.05, 0.05)[0]
    assert sprt.expected_score(0) == 0.5 and sprt.expected_score(400) == pytest.approx(10 / 11)


def test_bounds_and_decisions():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    v = sprt.decide([2.0] * 100, 0, 50, 0.05, 0.05)
    assert v["result"] == "H1" and v["pairs"] < 100 and v["games"] == 2 * v["pairs"] and v["llr"] >= upper
    assert sprt.decide([1.0, 1.5, 0.5], 0, 50, 0.05, 0.05)["result"] == "inconclusive"
    assert sprt.decide([0.0, 0.5, 1.0, 1.5, 2.0], 0, 50, 0.05, 0.05)["counts"] == [1, 1, 1, 1, 1]


@pytest.mark.parametrize("bad, words", [((50, 0, 0.05, 0.05), "less than ELO1"), ((0, 50, 0.5, 0.05), "alpha"),
                                        ((0, math.inf, 0.05, 0.05), "elo1"), ((0, 50, 0.05, 0), "beta")])
def test_bad_tests_are_refused(bad, words):
    with pytest.raises(sprt.SprtError, match=words):
        sprt.check_test(*bad)


def settings(bots, games=400):
    return arena.ArenaSettings(bots=bots, players=2, games=games, rounds=1, seconds=None)


def test_it_accepts_h1_for_a_clearly_stronger_bot_and_resumes(tmp_path):
    v = sprt.run_sprt(settings(["heuristic", "random"]), str(tmp_path), 0, 50)
    assert v["result"] == "H1" and v["games"] < 400 and v["games"] == 2 * sum(v["counts"])
    assert v["games"] == v["run"]["played"]
    assert json.loads((tmp_path / "sprt.json").read_text())["result"] == "H1"
    again = sprt.run_sprt(settings(["heuristic", "random"]), str(tmp_path), 0, 50)
    assert again["run"]["played"] == 0 and again["games"] == v["games"] and again["llr"] == v["llr"]


def twin(game, seat, seed, budget, **options):
    """The random bot under another name: a bot against itself."""
    return make_bot("random", game, seat, seed=seed)


def test_it_accepts_h0_for_a_bot_against_itself(tmp_path):
    v = sprt.run_sprt(settings(["random", "random-twin"], games=2000), str(tmp_path), 0, 50,
                      factories={"random-twin": twin})
    assert v["result"] == "H0", v["words"]


def test_it_is_inconclusive_at_the_cap(tmp_path):
    v = sprt.run_sprt(settings(["heuristic", "random"], games=4), str(tmp_path), 0, 50)
    assert v["result"] == "inconclusive" and v["games"] == 4 and "inconclusive at the cap of 4 games" in v["words"]


def test_it_refuses_what_is_not_a_test_of_two_bots(tmp_path):
    with pytest.raises(sprt.SprtError, match="two bots"):
        sprt.run_sprt(settings(["heuristic", "random", "smmcts"]), str(tmp_path), 0, 50)
    with pytest.raises(sprt.SprtError, match="pair of games"):
        sprt.run_sprt(settings(["heuristic", "random"], games=1), str(tmp_path), 0, 50)


def test_the_command_line_says_which_hypothesis_and_after_how_many_games(tmp_path, capsys):
    args = ["arena", "--bots", "heuristic,random", "--sprt", "0,50", "--games", "400", "--rounds", "1",
            "--jobs", "1", "--out", str(tmp_path)]
    assert main(args) == 0
    said = " ".join(capsys.readouterr().out.split())   # the console wraps at its width
    v = json.loads((tmp_path / "sprt.json").read_text())
    assert "H1 accepted" in said and f"after {v['games']} games" in said
    for bad, words in ((["--sprt", "50"], "ELO0,ELO1"), (["--alpha", "0.7"], "error rate")):
        with pytest.raises(SystemExit):
            main(args + bad)
        assert words in capsys.readouterr().err
    assert main(args + ["--ray"]) != 0 and "not on Ray" in capsys.readouterr().err
    assert main(args + ["--players", "3"]) != 0 and "two bots" in capsys.readouterr().err
