"""Training: the network of ext/engine/learned.pxi fitted to self-play data with PyTorch
(CPU), written as a weights file the compiled search reads (model.py).

    gutenberg-ai train sp-gen0/ --out gutenberg-gen1.npz --epochs 8 --seed 1

PyTorch is an optional extra (`pip install -e ".[learn]"`); playing with the weights
needs none. What is fitted, per value row (dataset.py), from the row's point of view:

    score   the final fame of each person, as a correction of the heuristic's projection
            (mean squared error, in units of `scale` fame)
    win     each person's share of the win (cross-entropy of the people's softmax), the
            game's outcome mixed with the search's estimate at that move (`search_mix`:
            a target with less noise than one game's result)
    policy  the search's visits over the moves it considered (cross-entropy), at the
            mover's rows

A tenth of the games (whole games, chosen by the seed) is held out. The report (returned,
and kept in the weights file's meta) gives the held-out losses beside the hand-written
judgement's on the same positions: the heuristic's projection for the score, its soft win
shares (the search's own eval_temperature) for the win, its priors for the policy; and
the calibration of the win chance (the games in each tenth of predicted chance, the
share they won). The win's figures are of the held-out games with more than one person
(None where there are none): the one person of a solo game always "wins".
"""
from __future__ import annotations

import math
import time

import numpy as np

from gutenberg_ai import games
from gutenberg_ai.common.extras import extra
from gutenberg_ai.search.learn import dataset, model as weights

SEATS = dataset.SEATS
MAX_HIDDEN = 256          # units a layer: the compiled search's bound
MAX_EPOCHS = 10_000       # passes over the data (hours for the largest self-play runs)
REPORT_FORMAT = "gutenberg-ai-train-report"


class TrainError(ValueError):
    """Training that cannot start (PyTorch missing, bad options, no data)."""


def _torch():
    return extra("torch", TrainError, "PyTorch is not installed; install the extra: pip install -e '.[learn]' "
                                      "(the CPU build: pip install torch==2.13.0)")


def _network(torch, obs_size: int, n_actions: int, hidden: int, hidden2: int, beta: float):
    nn = torch.nn

    class Net(nn.Module):  # type: ignore[name-defined]  # (torch is imported when called)
        def __init__(self):
            super().__init__()
            self.obs = nn.EmbeddingBag(obs_size, hidden, mode="sum")
            self.proj = nn.Linear(SEATS, hidden)           # its bias is b1
            self.l2 = nn.Linear(hidden, hidden2)
            self.score = nn.Linear(hidden2, SEATS)
            self.sharp = nn.Linear(hidden2, 1)
            self.policy = nn.Embedding(n_actions, hidden2)
            self.policy_bias = nn.Embedding(n_actions, 1)
            self.beta = nn.Parameter(torch.tensor(float(beta)))
            for p in (self.obs.weight, self.policy.weight):
                nn.init.normal_(p, std=0.01)
            nn.init.zeros_(self.policy_bias.weight)
            nn.init.zeros_(self.score.weight)
            nn.init.zeros_(self.score.bias)
            # Start near the hand-written softness (eval_temperature 5 fame of ~100).
            nn.init.zeros_(self.sharp.weight)
            nn.init.constant_(self.sharp.bias, 2.0)

        def trunk(self, index, offsets, values, proj):
            h1 = torch.relu(self.obs(index, offsets, per_sample_weights=values) + self.proj(proj))
            return torch.relu(self.l2(h1))

    return Net()


class _Batches:
    """Rows of the data as tensors, batch by batch."""

    def __init__(self, torch, data: dict, rows: np.ndarray, scale: float, search_mix: float):
        self.torch, self.d, self.rows, self.scale, self.mix = torch, data, rows, scale, search_mix
        self.policy_of = np.full(len(data["game"]), -1, dtype=np.int64)
        self.policy_of[data["row"]] = np.arange(len(data["row"]))

    def tensors(self, rows: np.ndarray) -> dict:
        torch, d = self.torch, self.d
        starts, ends = d["obs_start"][rows], d["obs_start"][rows + 1]
        lengths = ends - starts
        idx = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)]) if len(rows) else np.zeros(0, int)
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        people = d["people"][rows]
        win = (1.0 - self.mix) * d["win"][rows] + self.mix * d["search_win"][rows]
        out = dict(index=torch.from_numpy(d["obs_index"][idx].astype(np.int64)),
                   offsets=torch.from_numpy(offsets.astype(np.int64)),
                   values=torch.from_numpy(d["obs_value"][idx]),
                   proj=torch.from_numpy(d["proj"][rows] / self.scale),
                   score=torch.from_numpy((d["score"][rows] - d["proj"][rows]) / self.scale),
                   people=torch.from_numpy(people), win=torch.from_numpy(win.astype(np.float32)))
        # The policy rows among them: their moves, flat, with the batch row of each.
        prow = self.policy_of[rows]
        has = np.flatnonzero(prow >= 0)
        ms, me = d["move_start"][prow[has]], d["move_start"][prow[has] + 1]
        midx = np.concatenate([np.arange(s, e) for s, e in zip(ms, me)]) if len(has) else np.zeros(0, int)
        seg = np.repeat(np.arange(len(has)), me - ms)
        out.update(p_batch_row=torch.from_numpy(has.astype(np.int64)), p_seg=torch.from_numpy(seg.astype(np.int64)),
                   p_move=torch.from_numpy(d["move"][midx].astype(np.int64)),
                   p_value=torch.from_numpy(d["value"][midx]), p_visits=torch.from_numpy(d["visits"][midx]),
                   p_rows=len(has))
        return out


def _losses(torch, net, b: dict, dropout: float = 0.0, prior_weight: float = 1.0):
    """Per-row losses of a batch: score (MSE over people), win (cross-entropy), policy
    (cross-entropy of the priors the search makes of the policy: mixed with uniform at
    `prior_weight`). `dropout`: the share of observation features dropped at random
    (training only)."""
    values = b["values"]
    if dropout > 0:
        values = values * (torch.rand(values.shape) >= dropout) / (1.0 - dropout)
    h2 = net.trunk(b["index"], b["offsets"], values, b["proj"])
    people = b["people"]
    correction = net.score(h2)
    score_loss = (((correction - b["score"]) ** 2) * people).sum(1) / people.sum(1)
    # Win chances: a softmax of the predicted scores, at a sharpness of the position's.
    logits = ((b["proj"] + correction) * torch.exp(net.sharp(h2))).masked_fill(people == 0, -1e9)
    win_loss = -(b["win"] * torch.log_softmax(logits, 1)).sum(1)
    n = b["p_rows"]
    if n:
        seg = b["p_seg"]
        lg = _policy_logits(torch, net, b, h2)
        lmax = torch.zeros(n).scatter_reduce(0, seg, lg.detach(), "amax", include_self=False)
        lse = torch.zeros(n).index_add(0, seg, torch.exp(lg - lmax[seg])).log() + lmax
        moves = torch.zeros(n).index_add(0, seg, torch.ones(len(seg)))
        prior = prior_weight * torch.exp(lg - lse[seg]) + (1.0 - prior_weight) / moves[seg]
        policy_loss = -torch.zeros(n).index_add(0, seg, b["p_visits"] * torch.log(prior))
    else:
        policy_loss = torch.zeros(0)
    return score_loss, win_loss, policy_loss, torch.softmax(logits, 1)


def _baselines(d: dict, rows: np.ndarray, scale: float, eval_temperature: float, prior_temperature: float,
               prior_weight: float) -> dict:
    """The hand-written judgement's losses on the same rows: the projection as the score
    (a correction of 0), soft win shares of the projection, the heuristic's priors."""
    people = d["people"][rows]
    proj, score = d["proj"][rows], d["score"][rows]
    score_loss = float(np.mean((((score - proj) / scale) ** 2 * people).sum(1) / people.sum(1)))
    z = np.where(people > 0, proj / eval_temperature, -1e9)
    z = z - z.max(1, keepdims=True)
    p = np.exp(z) * people
    p /= p.sum(1, keepdims=True)
    win = d["win"][rows]
    contested = _contested(people)
    win_loss = (float(np.mean(-(win * np.log(np.clip(p, 1e-9, 1))).sum(1)[contested]))
                if contested.any() else None)
    policy_of = np.full(len(d["game"]), -1, dtype=np.int64)
    policy_of[d["row"]] = np.arange(len(d["row"]))
    losses, agree = [], []
    for r in policy_of[rows][policy_of[rows] >= 0]:
        s, e = d["move_start"][r], d["move_start"][r + 1]
        v, visits = d["value"][s:e].astype(np.float64), d["visits"][s:e]
        q = np.exp((v - v.max()) / prior_temperature)
        q = prior_weight * q / q.sum() + (1 - prior_weight) / len(v)
        losses.append(-(visits * np.log(q)).sum())
        agree.append(np.argmax(q) == np.argmax(visits))
    return dict(score=score_loss, win=win_loss, policy=float(np.mean(losses)) if losses else None,
                policy_top1=float(np.mean(agree)) if agree else None, win_probs=p)


def _contested(people: np.ndarray) -> np.ndarray:
    """The rows of a game with more than one person: a win is a measure only there (the
    one person of a solo game always "wins"; its score is the aim)."""
    return (people > 0).sum(1) > 1


def _calibration(probs: np.ndarray, outcome: np.ndarray, people: np.ndarray, bins: int = 10) -> dict:
    """The people's predicted win chances against their shares of the wins, in tenths;
    the expected calibration error (the mean gap, weighted by the bin's rows)."""
    mask = people > 0
    p, y = probs[mask], outcome[mask]
    table, ece = [], 0.0
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        sel = (p >= lo) & ((p < hi) if i < bins - 1 else (p <= hi))
        if sel.sum():
            gap = abs(p[sel].mean() - y[sel].mean())
            ece += gap * sel.sum() / len(p)
            table.append(dict(bin=f"{lo:.1f}-{hi:.1f}", rows=int(sel.sum()), predicted=round(float(p[sel].mean()), 3),
                              won=round(float(y[sel].mean()), 3)))
    return dict(bins=table, ece=round(float(ece), 4))


def train(data: dict, out: str, generation: int = 1, progress=None, **settings) -> dict:
    """Fit the network to `data` (dataset.build/load; `settings` as fit's), write the
    weights to `out`, and return the report (also in the file's meta)."""
    if isinstance(generation, bool) or not isinstance(generation, int) or generation < 1:
        raise TrainError(f"generation: {generation!r} is not a whole number >= 1")
    net, report, used = fit(data, progress=progress, **settings)
    export(net, data, out, report["scale"], dict(hidden=used["hidden"], hidden2=used["hidden2"],
                                                 generation=generation, data=data["meta"]["folders"],
                                                 report=report, training=used))
    return report


def fit(data: dict, epochs: int = 4, hidden: int = 64, hidden2: int = 64, batch: int = 512,
        lr: float = 2e-3, weight_decay: float = 1e-5, search_mix: float = 0.5, dropout: float = 0.3, seed: int = 0,
        held_out: float = 0.1, threads: int = 1, progress=None):
    """The network fitted to `data`: (the PyTorch module, the report, the settings used)."""
    torch = _torch()
    for name, count, least in (("epochs", epochs, 1), ("hidden", hidden, 1), ("hidden2", hidden2, 1),
                               ("batch", batch, 1), ("threads", threads, 1), ("seed", seed, 0)):
        if isinstance(count, bool) or not isinstance(count, int) or count < least:
            raise TrainError(f"{name}: {count!r} is not a whole number >= {least}")
    if max(hidden, hidden2) > MAX_HIDDEN:
        raise TrainError(f"hidden, hidden2: at most {MAX_HIDDEN} units (the compiled search's bound)")
    if epochs > MAX_EPOCHS:
        raise TrainError(f"epochs: {epochs} is more than {MAX_EPOCHS:,}")
    for name, value, lo, hi in (("lr", lr, 1e-9, 1.0), ("weight_decay", weight_decay, 0.0, 1.0),
                                ("search_mix", search_mix, 0.0, 1.0), ("held_out", held_out, 0.0, 0.9),
                                ("dropout", dropout, 0.0, 0.9)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise TrainError(f"{name}: {value!r} is not a number in [{lo:g}, {hi:g}]")
    meta = data["meta"]
    g = games.get(meta["game"])
    core = g.core
    if meta["obs_size"] != core.OBSERVATION_SIZE:
        raise TrainError(f"the data's observations have {meta['obs_size']} features, the game's "
                         f"{core.OBSERVATION_SIZE}: build the data again with this program")
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    game_ids = np.unique(data["game"])
    if len(game_ids) < 2:
        raise TrainError(f"{len(game_ids)} game in the data: at least 2 (one held out)")
    n_held = max(1, int(round(len(game_ids) * held_out))) if held_out > 0 else 0
    held_games = set(rng.choice(game_ids, n_held, replace=False).tolist()) if n_held else set()
    is_held = np.isin(data["game"], list(held_games))
    train_rows, test_rows = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    people = data["people"] > 0
    scale = float(max(10.0, round(float(np.abs(data["score"][people]).mean()))))
    opts = core.SEARCH_OPTIONS
    net = _network(torch, core.OBSERVATION_SIZE, core.NET_DIMENSIONS["n_actions"], hidden, hidden2,
                   1.0 / opts["prior_temperature"])
    optimiser = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    batches = _Batches(torch, data, train_rows, scale, search_mix)
    steps = max(1, math.ceil(len(train_rows) / batch))
    started = time.perf_counter()
    history = []
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        set_lr(optimiser, lr, epoch, epochs)
        total = np.zeros(3)
        for i in range(steps):
            b = batches.tensors(order[i * batch:(i + 1) * batch])
            s, w, p, _ = _losses(torch, net, b, dropout, opts["prior_weight"])
            loss = s.mean() + w.mean() + (p.mean() if len(p) else 0.0)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += [float(s.mean().detach()), float(w.mean().detach()), float(p.mean().detach()) if len(p) else 0.0]
            if progress:
                progress(epoch * steps + i + 1, epochs * steps)
        history.append(dict(epoch=epoch + 1, train=dict(zip(("score", "win", "policy"), (total / steps).round(4)))))
    report = evaluate(torch, net, data, test_rows, scale, opts) if len(test_rows) else {}
    report.update(games=len(game_ids), held_out_games=n_held, train_rows=int(len(train_rows)),
                  held_out_rows=int(len(test_rows)), epochs=history, seconds=round(time.perf_counter() - started, 1),
                  scale=scale, seed=seed)
    used = dict(epochs=epochs, hidden=hidden, hidden2=hidden2, batch=batch, lr=lr, weight_decay=weight_decay,
                search_mix=search_mix, dropout=dropout, seed=seed, held_out=held_out)
    return net, report, used


def set_lr(optimiser, lr: float, epoch: int, epochs: int):
    """A cosine learning rate over the epochs."""
    for group in optimiser.param_groups:
        group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * epoch / epochs))


def evaluate(torch, net, data: dict, rows: np.ndarray, scale: float, opts: dict) -> dict:
    """Held-out losses of the network and of the hand-written judgement, and calibration."""
    b = _Batches(torch, data, rows, scale, 0.0)
    totals: dict[str, list[np.ndarray]] = {"score": [], "win": [], "policy": []}
    batches: list[np.ndarray] = []
    top1: list[np.ndarray] = []
    with torch.no_grad():
        for i in range(0, len(rows), 4096):
            t = b.tensors(rows[i:i + 4096])
            s, w, p, pr = _losses(torch, net, t, 0.0, opts["prior_weight"])
            totals["score"].append(s.numpy())
            totals["win"].append(w.numpy())
            totals["policy"].append(p.numpy())
            batches.append(pr.numpy())
            top1.append(_policy_top1(torch, net, t))
    probs = np.concatenate(batches)
    people, outcome = data["people"][rows], data["win"][rows]
    contested = _contested(people)
    totals["win"] = [np.concatenate(totals["win"])[contested]]     # the win where there is somebody to beat
    learned = {k: round(float(np.concatenate(v).mean()), 4) if sum(len(x) for x in v) else None
               for k, v in totals.items()}
    learned["policy_top1"] = round(float(np.concatenate(top1).mean()), 4) if sum(len(x) for x in top1) else None
    base = _baselines(data, rows, scale, opts["eval_temperature"], opts["prior_temperature"], opts["prior_weight"])
    score = learned["score"]
    assert score is not None        # (rows is never empty: train's held-out games)
    return dict(held_out=dict(learned=learned,
                              heuristic={k: (round(v, 4) if v is not None else None) for k, v in base.items()
                                         if k != "win_probs"}),
                score_rmse_fame=dict(learned=round(math.sqrt(score) * scale, 2),
                                     heuristic=round(math.sqrt(base["score"]) * scale, 2)),
                calibration=None if not contested.any() else dict(
                    learned=_calibration(probs[contested], outcome[contested], people[contested]),
                    heuristic=_calibration(base["win_probs"][contested], outcome[contested], people[contested])))


def _policy_logits(torch, net, b: dict, h2):
    """The policy's logits of every move of the batch's policy rows (flat, b["p_seg"]
    says whose): beta (value - the row's best value) + W_policy h2 + b_policy."""
    seg = b["p_seg"]
    vmax = torch.zeros(b["p_rows"]).scatter_reduce(0, seg, b["p_value"], "amax", include_self=False)
    return (net.beta * (b["p_value"] - vmax[seg]) + (net.policy(b["p_move"]) * h2[b["p_batch_row"]][seg]).sum(1)
            + net.policy_bias(b["p_move"]).squeeze(1))


def _policy_top1(torch, net, b: dict) -> np.ndarray:
    """Per policy row: whether the network's best move is the search's most visited."""
    n = b["p_rows"]
    if not n:
        return np.zeros(0)
    lg = _policy_logits(torch, net, b, net.trunk(b["index"], b["offsets"], b["values"], b["proj"])).numpy()
    seg = b["p_seg"].numpy()
    visits = b["p_visits"].numpy()
    out = np.zeros(n, dtype=bool)
    starts = np.concatenate([[0], np.flatnonzero(np.diff(seg)) + 1, [len(seg)]])
    for k in range(n):
        s, e = starts[k], starts[k + 1]
        out[k] = np.argmax(lg[s:e]) == np.argmax(visits[s:e])
    return out


def export(net, data: dict, out: str, scale: float, meta: dict):
    """The weights as the compiled search reads them (model.py), W_obs cut to the
    features the data ever set."""
    g = games.get(data["meta"]["game"])
    core = g.core
    seen = np.zeros(core.OBSERVATION_SIZE, dtype=bool)
    seen[np.unique(data["obs_index"])] = True
    row_of = np.full(core.OBSERVATION_SIZE, -1, dtype=np.int32)
    row_of[seen] = np.arange(int(seen.sum()), dtype=np.int32)
    w_obs = net.obs.weight.detach().numpy()[seen]
    arrays = dict(row_of=row_of, w_obs=w_obs,
                  w_proj=net.proj.weight.detach().numpy().T, b1=net.proj.bias.detach().numpy(),
                  w2=net.l2.weight.detach().numpy(), b2=net.l2.bias.detach().numpy(),
                  w_score=net.score.weight.detach().numpy(), b_score=net.score.bias.detach().numpy(),
                  w_sharp=net.sharp.weight.detach().numpy()[0], b_sharp=net.sharp.bias.detach().numpy(),
                  w_policy=net.policy.weight.detach().numpy(), b_policy=net.policy_bias.weight.detach().numpy()[:, 0])
    dims = core.NET_DIMENSIONS
    weights.write(out, arrays, dict(game=g.key, obs_size=dims["obs_size"], n_actions=dims["n_actions"],
                                    seats=dims["seats"], beta=float(net.beta.detach()), scale=scale, **meta))
