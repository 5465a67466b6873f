"""`gutenberg-ai tune` (gutenberg_ai/tools/tune.py): a tiny study finds options and writes
its report, the same command continues the same study, a bad space is refused by name."""
import json

import pytest

pytest.importorskip("optuna")

from gutenberg_ai.interfaces import cli
from gutenberg_ai.tools import tune

TINY = dict(bot="smmcts", reference="random", game="gutenberg", trials=2, games=2, validate=2,
            iterations=4, rounds=1, seed=3, space={"uct_c": [0.1, 4.0, "log"], "cutoff": [0, 40]})


def test_a_tiny_study_finds_options_and_writes_its_report(tmp_path):
    report = tune.run_tune(tune.TuneSettings(**TINY), str(tmp_path))
    assert len(report["trials"]) == 2
    best = report["best"]["options"]
    assert set(best) == {"uct_c", "cutoff"} and 0.1 <= best["uct_c"] <= 4.0 and isinstance(best["cutoff"], int)
    assert set(report["validation"]) == {"best", "defaults"}
    assert all(v["games"] == 2 for v in report["validation"].values())
    assert json.loads((tmp_path / "tune.json").read_text())["best"] == report["best"]
    text = (tmp_path / "tune.md").read_text()
    assert "Tuning smmcts against random" in text and "| validation |" in text
    assert (tmp_path / "study.db").exists()


def test_the_same_command_continues_the_study(tmp_path):
    first = tune.run_tune(tune.TuneSettings(**TINY), str(tmp_path))
    again = tune.run_tune(tune.TuneSettings(**{**TINY, "trials": 3}), str(tmp_path))
    assert [t["number"] for t in again["trials"]] == [0, 1, 2]
    assert again["trials"][:2] == first["trials"]          # the first two kept, not played again
    # The new trial asks new options, not the first trial's again (the sampler is seeded
    # by the seed and the trials already asked).
    assert again["trials"][2]["options"] not in [t["options"] for t in first["trials"]]
    with pytest.raises(tune.TuneError, match="other settings.*seed"):
        tune.run_tune(tune.TuneSettings(**{**TINY, "seed": 4}), str(tmp_path))


@pytest.mark.parametrize("space, named", [
    ({"uct_cc": [0.1, 1.0]}, "space.uct_cc: not a search option"),
    ({"uct_c": [2.0, 1.0]}, r"space.uct_c: \[2.0, 1.0\] is not a range"),
    ({"uct_c": [0.0, 1.0, "log"]}, "low > 0 on a log scale"),
    ({"cutoff": [0.5, 20.5]}, r"space.cutoff: takes whole numbers \(its default 100\): give a whole low and high, "
                              r"not \[0.5, 20.5\]"),
    ({"gamma": [0.5, 2.0]}, "space.gamma: 2.0: .*gamma"),
    ({"tree_policy": {"choices": ["puct", "wide"]}}, "space.tree_policy: 'wide'"),
    ({"uct_c": "big"}, "space.uct_c: 'big' is not"),
    (["uct_c"], "space: an object"),
    ({"cutoff": {"choices": list(range(65))}}, "space.cutoff: 65 choices .at most 64."),
    ({"open_loop": [0, 1]}, r"space.open_loop: a yes-or-no option \(its default (true|false)\): search it as "
                            r"\{\"choices\": \[true, false\]\}"),
])
def test_a_bad_space_is_refused_by_name_before_any_game(tmp_path, space, named):
    with pytest.raises(tune.TuneError, match=named):
        tune.run_tune(tune.TuneSettings(**{**TINY, "space": space}), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_an_end_the_bot_refuses_is_named_beside_the_other_entries_problems(tmp_path):
    space = {"uct_c": [5, 1], "nope": [0, 1], "prior_temperature": [-5, 2]}
    with pytest.raises(tune.TuneError) as info:
        tune.run_tune(tune.TuneSettings(**{**TINY, "space": space}), str(tmp_path / "out"))
    named = [part.split(":")[0] for part in str(info.value).split("; ")]
    assert named == ["space.uct_c", "space.nope", "space.prior_temperature"], str(info.value)
    assert not (tmp_path / "out").exists()


def test_the_command_line_refuses_a_bad_space_in_one_line(tmp_path, capsys):
    code = cli.main(["tune", "--bot", "smmcts", "--reference", "random", "--space", '{"uct_c": [1, 0]}',
                     "--out", str(tmp_path / "t")])
    assert code == 2 and "space.uct_c" in capsys.readouterr().err


def test_a_trial_cut_short_is_asked_again_with_its_options_and_its_games_are_found(tmp_path, monkeypatch):
    from gutenberg_ai.tools import arena
    run_arena = arena.run_arena
    calls = []

    def cut_short(s, out, *args, **kwargs):
        calls.append(out)
        summary = run_arena(s, out, *args, **kwargs)
        if len(calls) == 2:              # the second trial's games are played, then the run stops
            raise KeyboardInterrupt
        return summary
    monkeypatch.setattr(arena, "run_arena", cut_short)
    with pytest.raises(KeyboardInterrupt):
        tune.run_tune(tune.TuneSettings(**TINY), str(tmp_path))
    monkeypatch.setattr(arena, "run_arena", run_arena)
    played = []
    monkeypatch.setattr(arena, "run_arena", lambda *a, **k: played.append(run_arena(*a, **k)) or played[-1])
    report = tune.run_tune(tune.TuneSettings(**TINY), str(tmp_path))
    assert len(report["trials"]) == 2
    assert report["trials"][1]["number"] == 2               # trial 1 was closed as failed...
    optuna = pytest.importorskip("optuna")
    study = optuna.load_study(study_name=tune.STUDY_NAME, storage=f"sqlite:///{tmp_path / tune.STUDY_FILE}")
    assert study.trials[1].state == optuna.trial.TrialState.FAIL
    assert study.trials[1].params == report["trials"][1]["options"]   # ...and asked again
    assert played[0]["run"]["played"] == 0 and played[0]["run"]["skipped"] == 2    # its games found


@pytest.mark.parametrize("bot", ["heuristic", "openspiel-mcts"])
def test_a_bot_without_the_cores_search_options_is_refused(tmp_path, bot):
    with pytest.raises(tune.TuneError, match=f"bot: '{bot}' has no search options to tune"):
        tune.run_tune(tune.TuneSettings(**{**TINY, "bot": bot}), str(tmp_path / "out"))


def test_the_learned_bot_tunes_its_mixing_by_default():
    space = tune.space_of(tune.TuneSettings(bot="learned"))
    assert {"model_value", "model_priors", "uct_c"} <= set(space)
    assert "model_value" not in tune.space_of(tune.TuneSettings(bot="smmcts"))


def test_lead_letter_printers_evaluation_weights_are_searched_as_the_bots_own(tmp_path):
    # A space's weights.NAME is one of the game's named evaluation weights: the trial's bot
    # gets it in its `weights` option (beside any fixed there), and nothing else does.
    assert tune.bot_options({"weights": {"OPEN_SLOT": 1.0}, "cutoff": 20},
                            {"weights.PER_ROUND_TECH": 0.5, "uct_c": 2.0}) == \
        {"weights": {"OPEN_SLOT": 1.0, "PER_ROUND_TECH": 0.5}, "cutoff": 20, "uct_c": 2.0}
    s = dict(TINY, game="lead-letter-printers", reference="smmcts@4", rounds=1,
             space={"weights.PER_ROUND_TECH": [0.1, 0.8]})
    report = tune.run_tune(tune.TuneSettings(**s), str(tmp_path / "ok"))
    assert all(0.1 <= t["options"]["weights.PER_ROUND_TECH"] <= 0.8 for t in report["trials"])
    records = list((tmp_path / "ok" / "trials").rglob("*.json"))
    assert any('"PER_ROUND_TECH"' in r.read_text() for r in records)


@pytest.mark.parametrize("game, space, options, named", [
    ("lead-letter-printers", {"weights.NO_SUCH": [0.1, 1.0]}, {}, "space.weights.NO_SUCH: not a search option"),
    ("lead-letter-printers", {"weights.OPEN_SLOT": [0.1, 200.0]}, {}, "space.weights.OPEN_SLOT: 200.0: .*within"),
    ("lead-letter-printers", {"weights.OPEN_SLOT": [0.1, 1.0]}, {"weights": {"OPEN_SLOT": 0.5}},
     "space.weights.OPEN_SLOT: also a fixed option"),
    ("gutenberg", {"weights.OPEN_SLOT": [0.1, 1.0]}, {}, "space.weights.OPEN_SLOT: not a search option"),
])
def test_a_weight_that_is_not_one_is_refused_by_name(tmp_path, game, space, options, named):
    s = dict(TINY, game=game, reference="smmcts@4", space=space, options=options)
    with pytest.raises(tune.TuneError, match=named):
        tune.run_tune(tune.TuneSettings(**s), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()
