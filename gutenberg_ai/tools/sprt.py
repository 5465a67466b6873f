"""`gutenberg-ai arena --sprt ELO0,ELO1`: a sequential test between two bots on paired
deals, stopped as soon as it decides.

    gutenberg-ai arena --bots heuristic,random --sprt 0,50 --games 400 --rounds 1 --out sprt/

The games are the arena's (gutenberg_ai.tools.arena: records under --out, resumable, the
same schedule): with two players, games 2k and 2k+1 deal the same cards with the seats
swapped, so each pair of games is one deal played from both seats. The first bot's pair
scores 0, 1/2 or 1 a game (better place, equal, worse: arena.pairwise), and the pair's
total (0, 0.5, 1, 1.5, 2) is counted in one of five bins: the pentanomial results
[LL, LD+DL, LW+DD+WL, DW+WD, WW] that Fishtest counts.

The test is Fishtest's GSPRT on those counts (fishtest server/fishtest/stats/LLRcalc.py,
by Michel Van den Bergh: LLR_logistic, LLR, MLE_expected, secular, regularize): the
expected score of a game under Hi is si = 1 / (1 + 10^(-ELOi/400)) (logistic Elo); the
log-likelihood ratio is N * sum_i phat_i log(p1_i / p0_i), where phat is the observed
distribution of the pair scores a_i = i/4 (empty bins given a count of 1e-3), and p_s,
the distribution nearest phat with mean s, is phat_i / (1 + x (a_i - s)), x the root of
sum_i phat_i (a_i - s) / (1 + x (a_i - s)) = 0 (the "secular equation"; Van den Bergh,
"A note on the MLE of a multinomial distribution with given mean",
hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf, Proposition 1.1). The test stops
at LLR <= log(beta / (1 - alpha)) (H0 accepted: the first bot is at most ELO0 better) or
LLR >= log((1 - beta) / alpha) (H1 accepted: at least ELO1 better), Wald's bounds; at
the cap of games (--games, at most limits.MAX_GAMES) it is inconclusive.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict

from gutenberg_ai.common import limits

MAX_ELO = 1000.0          # |ELO0|, |ELO1| at most this: beyond it the scores are 0 or 1
REGULARIZE = 1e-3         # Fishtest's count for an empty bin (LLRcalc.regularize)
SPRT_FILE = "sprt.json"


class SprtError(ValueError):
    """Settings of a sequential test that cannot run."""


def expected_score(elo: float) -> float:
    """A game's expected score at a logistic Elo difference (Fishtest's L_)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds of the LLR: (accept H0 at or below, accept H1 at or above)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def distribution(counts) -> tuple[float, list]:
    """(N, [(a_i, phat_i)]): the pair scores a_i = i/4 and their observed shares, an empty
    bin counted as REGULARIZE (Fishtest's results_to_pdf)."""
    counts = [c if c else REGULARIZE for c in counts]
    n = float(sum(counts))
    return n, [(i / (len(counts) - 1), c / n) for i, c in enumerate(counts)]


def secular(pdf: list) -> float:
    """The root x of sum_i p_i a_i / (1 + x a_i) = 0 (the a_i of both signs), by bisection
    between the poles -1/max(a) and -1/min(a), where the sum falls from +inf to -inf."""
    low, high = -1.0 / max(a for a, _ in pdf), -1.0 / min(a for a, _ in pdf)
    low, high = low + 1e-12 * abs(low), high - 1e-12 * abs(high)
    for _ in range(200):
        mid = 0.5 * (low + high)
        if sum(p * a / (1.0 + mid * a) for a, p in pdf) > 0:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def nearest_with_mean(pdf: list, s: float) -> list:
    """The distribution on pdf's a_i with mean s of most likelihood for pdf (MLE_expected)."""
    x = secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def llr(counts, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (ELO1) against H0 (ELO0) for the pentanomial
    `counts` [pairs scoring 0, 0.5, 1, 1.5, 2] (Fishtest's LLR_logistic)."""
    if not any(counts):
        return 0.0
    n, pdf = distribution(counts)
    p0 = nearest_with_mean(pdf, expected_score(elo0))
    p1 = nearest_with_mean(pdf, expected_score(elo1))
    return n * sum(p * math.log(q1 / q0) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def pair_bin(score: float) -> int:
    """The pentanomial bin of a pair's total score (0, 0.5, 1, 1.5 or 2)."""
    return round(score * 2)


def check_test(elo0, elo1, alpha, beta) -> None:
    """SprtError naming what is wrong with the test's hypotheses and error rates."""
    problems = []
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or abs(value) > MAX_ELO:
            problems.append(f"sprt: {name} {value!r} is not a number from {-MAX_ELO:g} to {MAX_ELO:g}")
    if not problems and not elo0 < elo1:
        problems.append(f"sprt: ELO0 ({elo0:g}) must be less than ELO1 ({elo1:g})")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
            problems.append(f"{name}: {value!r} is not an error rate more than 0 and less than 0.5")
    if problems:
        raise SprtError("; ".join(problems))


def decide(pairs: list, elo0: float, elo1: float, alpha: float, beta: float) -> dict:
    """The test run over the pairs' total scores in schedule order, stopped at the first
    pair where the LLR leaves (lower, upper): {"result": "H0"/"H1"/"inconclusive",
    "pairs", "games", "counts", "llr", "lower", "upper"}."""
    lower, upper = bounds(alpha, beta)
    counts = [0] * 5
    value, result, used = 0.0, "inconclusive", 0
    for score in pairs:
        counts[pair_bin(score)] += 1
        used += 1
        value = llr(counts, elo0, elo1)
        if value <= lower or value >= upper:
            result = "H0" if value <= lower else "H1"
            break
    return dict(result=result, pairs=used, games=2 * used, counts=counts, llr=value, lower=lower, upper=upper)


def pair_scores(results: list, first: str, second: str) -> list:
    """The first bot's total score in each complete pair of games (2k, 2k+1), in order,
    up to the first pair not yet finished."""
    from gutenberg_ai.tools.arena import pairwise
    by_game = {r["game"]: r for r in results}
    scores = []
    k = 0
    while 2 * k in by_game and 2 * k + 1 in by_game:
        w = pairwise([by_game[2 * k], by_game[2 * k + 1]], [first, second])
        scores.append(float(w[:, 0, 1].sum()))
        k += 1
    return scores


ERROR_RATE = 0.05   # the false-H1 and false-H0 rates where none are given


def run_sprt(s, out: str, elo0: float, elo1: float, alpha: float = ERROR_RATE, beta: float = ERROR_RATE, jobs: int = 1,
             progress=None, factories=None) -> dict:
    """Play pairs of games of the arena settings `s` (two bots, two players; s.games the
    cap) into `out`, `jobs` pairs at a time, until the test decides; write OUT/sprt.json
    and return it. Games found in `out` are read back, not played (arena.run_task)."""
    from gutenberg_ai.tools import arena
    check_test(elo0, elo1, alpha, beta)
    if len(s.bots) != 2 or s.players != 2 or s.pairings:
        raise SprtError("sprt: a test between two bots (--bots A,B) with --players 2")
    if s.games < 2:
        raise SprtError(f"games: {s.games} is fewer than a pair of games (the cap of the test: at least 2)")
    if s.games % 2:
        raise SprtError(f"games: {s.games} is odd: the test plays pairs of games, one deal from both seats "
                        f"(give {s.games - 1} or {s.games + 1})")
    arena.validate(s, factories)
    arena.check_count(jobs, "jobs", limits.MAX_JOBS)
    arena.check_settings(out, s)
    arena.write_settings(out, s)
    tasks = arena.schedule(s)
    for task in tasks:
        if factories:
            task["factories"] = {name: factories[name] for name in task["seats"] if name in factories}
    started = time.perf_counter()
    done, results = [], []
    verdict = decide([], elo0, elo1, alpha, beta)
    step = 2 * max(1, jobs)
    for begin in range(0, len(tasks), step):
        batch = arena.run_tasks(tasks[begin:begin + step], out, jobs)
        done += batch
        results += [o["summary"] for o in batch if o["summary"] is not None]
        verdict = decide(pair_scores(results, *s.bots), elo0, elo1, alpha, beta)
        if progress:
            progress(verdict)
        if verdict["result"] != "inconclusive" or any(o["status"] == "elsewhere" for o in batch):
            break
    summary = dict(settings=asdict(s), bots=list(s.bots), elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                   **verdict, run=arena.run_counts(done, started, jobs), out=out)
    summary["words"] = verdict_text(summary)
    with open(os.path.join(out, SPRT_FILE), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    return summary


def verdict_text(v: dict) -> str:
    """The test's outcome in words."""
    a, b = v["bots"]
    hypotheses = f"H0: {a} is {v['elo0']:+g} Elo against {b}; H1: {v['elo1']:+g} Elo"
    what = {"H0": "H0 accepted", "H1": "H1 accepted",
            "inconclusive": f"inconclusive at the cap of {v['games']} games"}[v["result"]] + f" ({hypotheses})"
    return (f"{what}, after {v['games']} games ({v['pairs']} pairs); LLR {v['llr']:.2f} "
            f"(bounds {v['lower']:.2f}, {v['upper']:.2f}); pairs [0, 0.5, 1, 1.5, 2]: {v['counts']}")
