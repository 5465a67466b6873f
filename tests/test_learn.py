"""Learned evaluations: self-play records, training data, the weights file, and the network
evaluated inside the compiled search (docs/learning.md)."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from gutenberg_ai import games
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.games import core_of
from gutenberg_ai.search.learn import dataset, model as weights
from gutenberg_ai.tools import selfplay
from gutenberg_ai.games.records import RecordError, load_record, replay

CORE = games.get("gutenberg").core


@pytest.fixture(scope="module")
def selfplay_dir(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("sp"))
    s = selfplay.settings("gutenberg", players=2, games=3, iterations=20, seed=5, rounds=1)
    run = selfplay.run_selfplay(s, out, jobs=1)
    assert run["played"] == 3
    return out


@pytest.fixture(scope="module")
def data(selfplay_dir):
    return dataset.build([selfplay_dir])


@pytest.fixture(scope="module")
def trained(data, tmp_path_factory):
    pytest.importorskip("torch", reason="training needs the [learn] extra (PyTorch)")
    from gutenberg_ai.search.learn import train
    net, report, used = train.fit(data, epochs=1, hidden=8, hidden2=6, held_out=0.34, seed=3)
    path = str(tmp_path_factory.mktemp("w") / "w.npz")
    train.export(net, data, path, report["scale"], dict(hidden=8, hidden2=6, generation=1, data=[], report=report,
                                                        training=used))
    return net, report, path


def _records(folder):
    return [load_record(p) for p in dataset.record_paths(folder)]


# ---------------------------------------------------------------------------------------
# Self-play records
# ---------------------------------------------------------------------------------------
def test_selfplay_records_keep_what_each_search_found(selfplay_dir):
    for record in _records(selfplay_dir):
        searched = [e for e in record["actions"] if "search" in e]
        assert searched, "a self-play game keeps its searches"
        for e in searched:
            s = e["search"]
            assert s["iterations"] == 20
            visits = {a: v for a, v in s["moves"]}
            assert e["action"] == max(visits, key=lambda a: (visits[a], -a)) or visits[e["action"]] == max(visits.values())
            assert 0 < sum(visits.values()) <= 20
            assert len(s["win"]) == 2 and abs(sum(s["win"]) - 1.0) < 1e-3
        # A forced move (one legal move) has no search.
        assert all(e["player"] == -1 or "search" in e or e["by"] == "ismcts" for e in record["actions"])


def test_selfplay_is_reproducible_from_its_seed(selfplay_dir, tmp_path):
    s = selfplay.settings("gutenberg", players=2, games=1, iterations=20, seed=5, rounds=1)
    selfplay.run_selfplay(s, str(tmp_path), jobs=1)
    again = _records(str(tmp_path))[0]
    first = _records(selfplay_dir)[0]
    assert again["actions"] == first["actions"]


def test_selfplay_refuses_a_bot_that_keeps_no_search():
    with pytest.raises(selfplay.SelfPlayError, match="self-play records the searches of"):
        selfplay.settings("gutenberg", bot="heuristic")
    with pytest.raises(selfplay.SelfPlayError, match="players"):
        selfplay.settings("lead-letter-printers", players=1)


def test_a_record_with_a_broken_search_entry_is_refused_with_its_place(selfplay_dir, tmp_path):
    path = dataset.record_paths(selfplay_dir)[0]
    with open(path) as f:
        data = json.load(f)
    i = next(k for k, e in enumerate(data["actions"]) if "search" in e)
    data["actions"][i]["search"]["moves"] = [[1, -3]]
    data["actions"][i]["search"]["win"] = "most"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(RecordError) as e:
        load_record(str(bad))
    text = str(e.value)
    assert f"actions[{i}].search.moves" in text and f"actions[{i}].search.win" in text


# ---------------------------------------------------------------------------------------
# Training data
# ---------------------------------------------------------------------------------------
def test_the_data_has_a_row_per_person_and_searched_move_with_the_outcome_seen_from_each(selfplay_dir, data):
    records = _records(selfplay_dir)
    searched = sum(1 for r in records for e in r["actions"] if "search" in e)
    assert data["meta"]["games"] == 3
    assert len(data["game"]) == 2 * searched and len(data["row"]) == searched
    first = records[0]
    rows = np.flatnonzero(data["game"] == 0)
    scores = first["result"]["scores"]
    # Rows alternate between the two points of view: seat 0 sees (s0, s1), seat 1 (s1, s0).
    assert list(data["score"][rows[0]][:2]) == [scores[0], scores[1]]
    assert list(data["score"][rows[1]][:2]) == [scores[1], scores[0]]
    assert list(data["people"][rows[0]]) == [1, 1, 0, 0]
    winner = first["result"]["winners"]
    assert data["win"][rows[0]][0] == (1.0 / len(winner) if 0 in winner else 0.0)
    # The policy rows: the visits are shares that sum to 1, over the moves the search had.
    for r in range(len(data["row"])):
        s, e = data["move_start"][r], data["move_start"][r + 1]
        assert abs(data["visits"][s:e].sum() - 1.0) < 1e-5
        assert data["mover"][data["row"][r]]


def test_a_rows_features_are_the_observation_at_that_move(selfplay_dir, data):
    record = _records(selfplay_dir)[0]
    at = [i for i, e in enumerate(record["actions"]) if "search" in e][3]
    state = replay(record, to=at)
    core = core_of(state)
    n_before = sum(1 for e in record["actions"][:at] if "search" in e)
    row = 2 * n_before + 1            # seat 1's point of view at that move
    obs = np.zeros(CORE.OBSERVATION_SIZE, dtype=np.float32)
    core.write_observation(1, obs)
    s, e = data["obs_start"][row], data["obs_start"][row + 1]
    dense = np.zeros_like(obs)
    dense[data["obs_index"][s:e]] = data["obs_value"][s:e]
    assert np.array_equal(dense, obs)
    proj = CORE.evaluate_state(core)
    assert list(data["proj"][row][:2]) == pytest.approx([proj[1], proj[0]])


def test_every_broken_record_of_the_data_is_named_by_its_path(selfplay_dir, tmp_path):
    copy = tmp_path / "sp"
    shutil.copytree(selfplay_dir, copy)
    first, second = dataset.record_paths(str(copy))[:2]
    with open(first) as f:
        data = json.load(f)
    data["actions"][5]["action"] = 999999            # not a move of that position
    with open(first, "w") as f:
        json.dump(data, f)
    with open(second, "w") as f:
        f.write("{not json")
    with pytest.raises(dataset.DataError) as e:
        dataset.build([str(copy)])
    lines = str(e.value).splitlines()
    # Both files, each by its path (every pairing's folder has a game-0000.json), at once.
    assert len(lines) == 2
    assert lines[0].startswith(f"{first}: actions[5].action")
    assert lines[1].startswith(f"{second}: ") and "invalid JSON" in lines[1]


def test_a_folder_without_records_is_refused(tmp_path):
    with pytest.raises(dataset.DataError, match="no game records"):
        dataset.build([str(tmp_path)])
    with pytest.raises(dataset.DataError, match="no such folder"):
        dataset.build([str(tmp_path / "nowhere")])
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(dataset.DataError) as info:     # there, but not a folder: said as --out says it
        dataset.build([str(afile)])
    assert str(info.value) == f"{afile} is a file, not a folder"


# ---------------------------------------------------------------------------------------
# The network: PyTorch, the weights file and the compiled search agree
# ---------------------------------------------------------------------------------------
def _forward(a, meta, obs, proj_rel, people):
    """The network of ext/engine/learned.pxi in NumPy, from its documented formula."""
    scale = meta["scale"]
    h1 = a["b1"].astype(np.float64).copy()
    for i in np.flatnonzero(obs):
        if a["row_of"][i] >= 0:
            h1 += obs[i] * a["w_obs"][a["row_of"][i]]
    h1 += (np.asarray(proj_rel) / scale) @ a["w_proj"]
    h1 = np.maximum(h1, 0)
    h2 = np.maximum(a["w2"] @ h1 + a["b2"], 0)
    score = np.asarray(proj_rel) + scale * (a["w_score"] @ h2 + a["b_score"])
    sharp = np.exp(a["w_sharp"] @ h2 + a["b_sharp"][0])
    z = np.where(people, score / scale * sharp, -np.inf)
    win = np.exp(z - z.max())
    return score, win / win.sum(), h2


def test_the_weights_file_holds_the_network_pytorch_trained(data, trained):
    import torch
    net, report, path = trained
    a, meta = weights.read(path, "gutenberg", CORE)
    assert meta["game"] == "gutenberg" and meta["hidden"] == 8 and meta["hidden2"] == 6
    for row in (0, 7, 31):
        s, e = data["obs_start"][row], data["obs_start"][row + 1]
        obs = np.zeros(CORE.OBSERVATION_SIZE)
        obs[data["obs_index"][s:e]] = data["obs_value"][s:e]
        score, _, h2 = _forward(a, meta, obs, data["proj"][row], data["people"][row] > 0)
        with torch.no_grad():
            t_h2 = net.trunk(torch.tensor(data["obs_index"][s:e], dtype=torch.long), torch.tensor([0]),
                             torch.tensor(data["obs_value"][s:e]),
                             torch.tensor(data["proj"][row:row + 1] / meta["scale"])).numpy()[0]
            t_corr = net.score(torch.tensor(t_h2)).numpy()
        assert h2 == pytest.approx(t_h2, abs=2e-3)
        assert score == pytest.approx(data["proj"][row] + meta["scale"] * t_corr, abs=0.5)


def test_the_search_evaluates_the_network_as_written(selfplay_dir, trained):
    _, _, path = trained
    a, meta = weights.read(path, "gutenberg", CORE)
    m = CORE.learned_model(path)
    record = _records(selfplay_dir)[1]
    at = [i for i, e in enumerate(record["actions"]) if "search" in e][5]
    core = core_of(replay(record, to=at))
    proj = CORE.evaluate_state(core)
    for p in (0, 1):
        obs = np.zeros(CORE.OBSERVATION_SIZE, dtype=np.float32)
        core.write_observation(p, obs)
        rel = [proj[(p + k) % 2] for k in range(2)] + [0.0, 0.0]
        score, win, h2 = _forward(a, meta, obs, rel, np.array([1, 1, 0, 0]) > 0)
        c_score, c_win = m.value(core, p)
        assert [c_score[(p + k) % 2] for k in range(2)] == pytest.approx(score[:2], rel=1e-4, abs=1e-3)
        assert [c_win[(p + k) % 2] for k in range(2)] == pytest.approx(win[:2], abs=1e-4)
    moves, values = zip(*CORE.root_move_values(core))
    logits = m.logits(core, list(moves), list(values))
    p = core.current_player()
    obs = np.zeros(CORE.OBSERVATION_SIZE, dtype=np.float32)
    core.write_observation(p, obs)
    _, _, h2 = _forward(a, meta, obs, [proj[(p + k) % 2] for k in range(2)] + [0.0, 0.0], np.array([1, 1, 0, 0]) > 0)
    expected = [meta["beta"] * (v - max(values)) + a["w_policy"][mv] @ h2 + a["b_policy"][mv]
                for mv, v in zip(moves, values)]
    assert logits == pytest.approx(expected, abs=1e-3)


def test_the_report_compares_with_the_hand_written_judgement(trained):
    _, report, path = trained
    held = report["held_out"]
    for side in ("learned", "heuristic"):
        assert set(held[side]) >= {"score", "win", "policy", "policy_top1"}
        assert held[side]["score"] >= 0 and held[side]["win"] >= 0
    assert report["held_out_games"] == 1 and report["games"] == 3
    cal = report["calibration"]["learned"]
    assert sum(b["rows"] for b in cal["bins"]) == 2 * report["held_out_rows"]   # both people, every row
    assert weights.meta_of(path)["report"]["held_out_rows"] == report["held_out_rows"]


def test_the_win_is_measured_on_the_games_with_somebody_to_beat(data, trained):
    """Rows of a solo game (one person, who always "wins") held out beside others: the
    win's figures are of the others only; with none of the others, there are none."""
    import torch
    from gutenberg_ai.search.learn import train
    net, report, _ = trained
    rows = np.arange(len(data["game"]))
    solo_rows, others = rows[: len(rows) // 2], rows[len(rows) // 2:]
    mixed = dict(data, people=data["people"].copy(), win=data["win"].copy())
    mixed["people"][solo_rows, 1:] = 0
    mixed["win"][solo_rows] = 0
    mixed["win"][solo_rows, 0] = 1
    opts = dict(eval_temperature=4.0, prior_temperature=1.0, prior_weight=0.5)
    both = train.evaluate(torch, net, mixed, rows, report["scale"], opts)
    alone = train.evaluate(torch, net, data, others, report["scale"], opts)
    for side in ("learned", "heuristic"):
        assert both["held_out"][side]["win"] == pytest.approx(alone["held_out"][side]["win"], abs=1e-4)
    assert both["calibration"] == alone["calibration"]
    only_solo = train.evaluate(torch, net, mixed, solo_rows, report["scale"], opts)
    assert only_solo["held_out"]["learned"]["win"] is None and only_solo["calibration"] is None
    assert only_solo["held_out"]["heuristic"]["win"] is None


# ---------------------------------------------------------------------------------------
# The search with a model
# ---------------------------------------------------------------------------------------
def _decision(key="gutenberg", players=2, at_least=3, plan=False):
    """The first state of game `key` where the player to act has `at_least` moves (with
    `plan`: Gutenberg's plan step, where the search considers the heuristic's best plans)."""
    state = games.get(key).load(players=players).new_initial_state()
    while (state.is_chance_node() or len(state.legal_actions()) < at_least
           or (plan and not (core_of(state).phase == "plan" and len(state.legal_actions()) > 32))):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    return core_of(state)


def _visits(result):
    return [(m["action"], m["visits"]) for m in result["moves"]]


def test_a_model_with_both_parts_off_searches_as_the_hand_written_search(trained):
    _, _, path = trained
    core = _decision()
    plain = CORE.search(core, iterations=300, seed=4)
    off = CORE.search(core, iterations=300, seed=4, model=path, model_value=False, model_priors=False)
    assert _visits(plain) == _visits(off)
    on = CORE.search(core, iterations=300, seed=4, model=path, cutoff=5)
    assert _visits(on) != _visits(CORE.search(core, iterations=300, seed=4, cutoff=5))
    assert _visits(on) == _visits(CORE.search(core, iterations=300, seed=4, model=path, cutoff=5))   # seeded


def test_without_rollouts_the_leaf_is_evaluated_where_it_is(trained):
    _, _, path = trained
    core = _decision()
    r = CORE.search(core, iterations=200, seed=1, model=path, rollout="none")
    assert r["iterations"] == 200 and sum(m["visits"] for m in r["moves"]) == 200
    with pytest.raises(ValueError, match="rollout"):
        CORE.search_config(rollout="sometimes")


@pytest.mark.parametrize("key, plan", [("gutenberg", False), ("gutenberg", True), ("printing-press", False),
                                       ("lead-letter-printers", False)])
def test_the_learned_policy_plays_the_network_s_best_move(key, plan):
    """`rollout="learned"` plays `learned_move`: the move of the highest logit among the
    moves the search considers (at Gutenberg's plan step, the heuristic's best plans)."""
    core_module = games.get(key).core
    core = _decision(key, plan=plan)
    moves, values = zip(*core_module.root_move_values(core))
    logits = core_module.learned_model("default").logits(core, list(moves), list(values))
    best = moves[max(range(len(moves)), key=lambda i: logits[i])]
    assert core_module.learned_move(core) == best
    if plan:
        assert len(moves) == 32 < len(core.legal_actions())   # the heuristic's best plans only
    assert core_module.learned_move(core, seed=9) == best   # no randomness at epsilon 0
    # At epsilon 1 every move is a uniformly random legal one.
    drawn = {core_module.learned_move(core, seed=s, epsilon=1.0) for s in range(40)}
    assert drawn <= set(core.legal_actions()) and len(drawn) > 2


def test_learned_rollouts_play_the_network_s_moves_and_need_a_model():
    core = _decision("gutenberg")
    learned = CORE.search(core, iterations=200, seed=2, model="default", rollout="learned", cutoff=20)
    heuristic = CORE.search(core, iterations=200, seed=2, model="default", cutoff=20)
    assert _visits(learned) != _visits(heuristic)
    assert _visits(learned) == _visits(CORE.search(core, iterations=200, seed=2, model="default",
                                                   rollout="learned", cutoff=20))   # seeded
    with pytest.raises(ValueError, match="give a model"):
        CORE.search(core, iterations=10, rollout="learned")
    with pytest.raises(ValueError, match="weights file"):
        CORE.learned_move(core, model="")
    with pytest.raises(ValueError, match="decision"):
        state = games.get("gutenberg").load(players=2).new_initial_state()   # a chance node
        CORE.learned_move(core_of(state))


def test_the_rollouts_can_play_other_weights_than_the_priors(trained):
    """rollout_model: the rollouts play that file's moves, whatever model gives the
    priors and values (or none)."""
    _, _, path = trained
    core = _decision("gutenberg")
    only_rollouts = dict(iterations=200, seed=2, rollout="learned", cutoff=20, model_value=False, model_priors=False)
    shipped = _visits(CORE.search(core, model="default", **only_rollouts))
    assert _visits(CORE.search(core, model=path, rollout_model="default", **only_rollouts)) == shipped
    assert _visits(CORE.search(core, model=path, **only_rollouts)) != shipped
    # No model: the hand-written priors and values, the network's rollouts.
    bare = dict(only_rollouts, model_value=True, model_priors=True)
    assert _visits(CORE.search(core, rollout_model="default", **bare)) == shipped
    # The priors from one file and the rollouts from another: neither file's search alone.
    mixed = _visits(CORE.search(core, iterations=200, seed=2, rollout="learned", cutoff=20, model=path,
                                rollout_model="default"))
    assert mixed != _visits(CORE.search(core, iterations=200, seed=2, rollout="learned", cutoff=20, model=path))
    assert mixed != _visits(CORE.search(core, iterations=200, seed=2, rollout="learned", cutoff=20,
                                        model="default"))
    with pytest.raises(ValueError, match='rollout_model: only rollout="learned"'):
        CORE.search_config(rollout_model="default")
    with pytest.raises(ValueError, match="rollout_model: 3 is not a weights file"):
        CORE.search_config(rollout="learned", rollout_model=3)
    with pytest.raises(ValueError, match="no such file"):
        CORE.search_config(rollout="learned", rollout_model="/nonexistent/w.npz")


def test_bad_weight_files_are_refused_with_every_problem(trained, tmp_path):
    _, _, path = trained
    with pytest.raises(ValueError, match="no such file"):
        CORE.search_config(model=str(tmp_path / "missing.npz"))
    text = tmp_path / "text.npz"
    text.write_text("weights, honestly")
    with pytest.raises(weights.ModelError, match="not a weights file"):
        weights.read(str(text), "gutenberg", CORE)
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays.pop("meta")))
    arrays["b2"] = np.full_like(arrays["b2"], np.nan)
    arrays.pop("w_sharp")
    meta["game"] = "printing-press"
    meta["beta"] = "warm"
    bad = tmp_path / "bad.npz"
    np.savez(bad, meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(weights.ModelError) as e:
        weights.read(str(bad), "gutenberg", CORE)
    lines = str(e.value).splitlines()
    assert any("meta.game" in line for line in lines) and any("meta.beta" in line for line in lines)
    assert any("b2: holds a NaN" in line for line in lines) and any("w_sharp: missing" in line for line in lines)
    # A NaN does not hide a wrong shape elsewhere (nor its own).
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    h2 = arrays["b2"].shape[0]
    arrays["b1"] = np.full_like(arrays["b1"], np.nan)
    arrays["w2"] = np.zeros((3, 3), dtype=np.float32)
    np.savez(bad, **arrays)
    with pytest.raises(weights.ModelError) as e:
        weights.read(str(bad), "gutenberg", CORE)
    lines = str(e.value).splitlines()
    assert any("b1: holds a NaN" in line for line in lines), lines
    assert any(f"w2: shape (3, 3), not ({h2}, {arrays['b1'].shape[0]})" in line for line in lines), lines
    # Another game's weights are refused by shape even when the meta is edited to pass.
    pp = games.get("printing-press").core
    with pytest.raises(weights.ModelError, match="obs_size"):
        weights.read(path, "gutenberg", pp)


def test_the_learned_bot_searches_with_the_game_s_shipped_weights():
    assert weights.has_shipped("gutenberg")
    game = games.get("gutenberg").load(players=2)
    bot = make_bot("learned", game, 0, seed=1, iterations=50)
    assert bot.options["model"] == "default" and bot.name == "learned"
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert bot.step(state) in state.legal_actions()
    assert CORE.learned_model("default").name == "gutenberg default"


def test_the_solo_game_searches_with_the_solo_weights_gutenberg_ships():
    """Gutenberg ships weights of its own for the solo game (trained on solo self-play):
    "default" means them in a game of one person, the game's weights in a game of two;
    Printing Press ships none apart, so its solo game takes the game's."""
    solo_path = weights.shipped_path("gutenberg", solo=True)
    assert os.path.basename(solo_path) == weights.SHIPPED_SOLO and os.path.exists(solo_path)
    assert weights.shipped_path("gutenberg") != solo_path
    assert weights.shipped_path("printing-press", solo=True) == weights.shipped_path("printing-press")
    assert weights.meta_of(solo_path)["game"] == "gutenberg"
    assert CORE.learned_model("default", True).name == "gutenberg default (solo)"
    assert CORE.learned_model("default").name == "gutenberg default"

    state = games.get("gutenberg").load(players=1).new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    core = core_of(state)

    def visits(model):
        result = CORE.search(core, "ismcts", iterations=200, seed=5, model=model)
        return [(m["action"], m["visits"]) for m in result["moves"]]

    assert visits("default") == visits(solo_path)
    assert visits("default") != visits(weights.shipped_path("gutenberg"))


def test_every_game_ships_weights_its_learned_bot_plays_with():
    for key in games.GAMES:
        assert weights.has_shipped(key), key
        g = games.get(key)
        game = g.load(players=2)
        state = game.new_initial_state()
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
        assert make_bot("learned", game, state.current_player(), seed=2, iterations=30).step(state) in \
            state.legal_actions()
        assert weights.meta_of(weights.shipped_path(key))["game"] == key


def test_a_game_without_shipped_weights_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(weights, "shipped_path", lambda key, solo=False: str(tmp_path / f"{key}.npz"))
    with pytest.raises(ValueError, match="ships no learned weights"):
        games.get("printing-press").core.search_config(model="default")


# ---------------------------------------------------------------------------------------
# The commands
# ---------------------------------------------------------------------------------------
def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def test_selfplay_and_train_from_the_command_line(tmp_path):
    pytest.importorskip("torch", reason="training needs the [learn] extra (PyTorch)")
    out = tmp_path / "sp"
    r = run("selfplay", "--games", "2", "--rounds", "1", "--iterations", "10", "--jobs", "1", "--seed", "3",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "2 games: 2 played now" in r.stdout
    w = tmp_path / "w.npz"
    r = run("train", str(out), "--out", str(w), "--epochs", "1", "--hidden", "8", "--report", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stderr
    assert "Held out: 1 of 2 games" in r.stdout and "final score: RMSE" in r.stdout
    assert weights.meta_of(str(w))["generation"] == 1
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 2
    assert "win: cross-entropy" in r.stdout


def test_training_on_solo_games_reports_no_win_chances(tmp_path):
    """In a solo game the one person always has the whole win: a win cross-entropy of 0
    would say nothing, so the report leaves the win out and keeps the score."""
    pytest.importorskip("torch", reason="training needs the [learn] extra (PyTorch)")
    out = tmp_path / "sp1"
    r = run("selfplay", "--players", "1", "--games", "2", "--rounds", "1", "--iterations", "10", "--jobs", "1",
            "--seed", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    r = run("train", str(out), "--out", str(tmp_path / "w1.npz"), "--epochs", "1", "--hidden", "8")
    assert r.returncode == 0, r.stderr
    assert "final score: RMSE" in r.stdout and "win: cross-entropy" not in r.stdout


def test_the_commands_name_what_is_wrong(tmp_path):
    r = run("selfplay", "--bot", "random", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "self-play records the searches of" in r.stderr and "Traceback" not in r.stderr
    r = run("train", str(tmp_path / "nothing"), "--out", str(tmp_path / "w.npz"))
    assert r.returncode == 2 and "no such folder" in r.stderr and "Traceback" not in r.stderr
    r = run("arena", "--bots", "ismcts,learned", "--games", "1", "--iterations", "5", "--out", str(tmp_path / "a"),
            "--options", json.dumps({"learned": {"model": str(tmp_path / "none.npz")}}))
    assert r.returncode == 2 and "none.npz: no such file" in r.stderr


def test_train_without_pytorch_says_how_to_get_it(selfplay_dir, tmp_path):
    code = ("import sys; sys.modules['torch'] = None; from gutenberg_ai.interfaces.cli import main; "
            f"sys.exit(main(['train', {selfplay_dir!r}, '--out', {str(tmp_path / 'w.npz')!r}]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "pip install -e '.[learn]'" in r.stderr
    assert not os.path.exists(tmp_path / "w.npz")


def test_the_learned_bot_rolls_out_with_the_solo_network_in_solo_gutenberg():
    """Solo Gutenberg's learned bot plays its rollouts with the solo network (the game's
    GAME_SOLO_LEARNED_DEFAULTS: benchmarks/README.md, "The learned bot's solo rollouts");
    a game of two, and Printing Press's solo game, keep the heuristic's. What is asked for
    wins, and without a model there is no network to roll out with."""
    import gutenberg_ai
    solo = games.get("gutenberg").load(players=1)
    assert make_bot("learned", solo, 0, iterations=50).options["rollout"] == "learned"
    assert make_bot("learned", solo, 0, iterations=50, rollout="heuristic").options["rollout"] == "heuristic"
    assert "rollout" not in make_bot("learned", solo, 0, iterations=50, model="").options
    assert "rollout" not in make_bot("learned", games.get("gutenberg").load(players=2), 0, iterations=50).options
    assert "rollout" not in make_bot("learned", games.get("printing-press").load(players=1), 0,
                                     iterations=50).options
    # A hint searches as the bot plays: the same estimates as the search with the
    # network's rollouts spelt out, not those of the heuristic's.
    state = solo.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])

    def estimates(bot, **options):
        return [(h.action, h.share, h.expected_fame) for h in
                gutenberg_ai.hint(state, bot=bot, iterations=150, top=10, seed=4, **options)]

    learned = estimates("learned")
    assert learned == estimates("ismcts", model="default", rollout="learned")
    assert learned != estimates("ismcts", model="default")


def test_hints_and_reviews_can_search_with_the_learned_evaluation():
    import gutenberg_ai
    from gutenberg_ai.games.gutenberg.position import load_position
    pos = load_position("gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json")
    learned = gutenberg_ai.hint(pos.state, bot="learned", iterations=300, top=3, seed=1)
    plain = gutenberg_ai.hint(pos.state, bot="ismcts", iterations=300, top=3, seed=1)
    assert learned.iterations == 300 and learned[0].win_probability is not None
    assert [h.action for h in learned] and all(h.action in pos.state.legal_actions() for h in learned)
    # The learned evaluation changes the estimates (the same seed, the same tree budget).
    assert [h.expected_fame for h in learned] != [h.expected_fame for h in plain]
    r = run("hint", "gutenberg_ai/games/gutenberg/data/positions/fulfil-round6-2p.json", "--bot", "learned",
            "--iterations", "200", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["bot"] == "learned"


@pytest.mark.parametrize("key, players", [("gutenberg", 1), ("gutenberg", 2), ("printing-press", 2),
                                          ("lead-letter-printers", 3)])
def test_the_rollouts_incremental_passes_give_the_whole_pass_s_logits(key, players):
    """The network's rollouts update the last pass's first layer by the features that
    changed; along a game (across the seats' turns too) that is the whole pass's logits."""
    core_module = games.get(key).core
    arrays, meta = weights.read(weights.resolve("default", key, players == 1), key, core_module)
    stepwise, whole = (core_module.LearnedModel(arrays, meta["beta"], meta["scale"]) for _ in range(2))
    state = games.get(key).load(players=players).new_initial_state()
    rng = np.random.default_rng(3)
    compared = 0
    while not state.is_terminal() and compared < 300:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=np.array(probs) / sum(probs))))
            continue
        core = core_of(state)
        moves, values = zip(*core_module.root_move_values(core))
        if len(moves) > 1:
            assert (stepwise.logits(core, list(moves), list(values), incremental=True)
                    == pytest.approx(whole.logits(core, list(moves), list(values)), abs=1e-3))
            compared += 1
        state.apply_action(core_module.heuristic_move(core, int(rng.integers(1 << 30)), 0.2))
    assert compared >= 50
