"""Plots of reviews, arenas and studies, drawn with matplotlib (the Agg backend: no
display needed), each written as PNG and SVG. The files are reproducible: no date in
them, a fixed SVG hash salt.

    from gutenberg_ai.tools import plots
    plots.review_plot(review, "game-review")          # game-review.png, game-review.svg
    plots.arena_plots(summary, "results/")            # ratings, plackett-luce, head-to-head .png/.svg
"""
from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "gutenberg-ai"
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
MARK_STYLE = {"blunder": ("X", 90), "mistake": ("o", 50), "inaccuracy": (".", 40)}


def save(fig, base: str) -> list:
    """Write `fig` to base.png and base.svg (without dates), close it, return the paths."""
    folder = os.path.dirname(os.path.abspath(base))
    os.makedirs(folder, exist_ok=True)
    paths = [base + ".png", base + ".svg"]
    fig.savefig(paths[0], dpi=110, bbox_inches="tight", metadata={"Software": None})
    fig.savefig(paths[1], bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return paths


def curves(review: dict) -> dict:
    """Each player's evaluation over the game: {"x": decision indices, "seats": [[...]]}
    from the decisions with a search (the player to move's search gives every seat's)."""
    xs: list[int] = []
    seats: list[list[float]] = [[] for _ in range(review["players"])]
    for d in review["decisions"]:
        if d["evaluation"] is None:
            continue
        xs.append(d["index"])
        for p, v in enumerate(d["evaluation"]):
            seats[p].append(v)
    return {"x": xs, "seats": seats}


def review_plot(review: dict, base: str) -> list:
    """Each player's win chance (solo: expected score) over the game, from the search at
    every reviewed decision; the mistakes marked on the curve of the player who made them."""
    c = curves(review)
    fig, ax = plt.subplots(figsize=(9, 4))
    solo = review["players"] == 1
    for p, ys in enumerate(c["seats"]):
        ax.plot(c["x"], ys, color=COLOURS[p % len(COLOURS)], label=f"player {p}", linewidth=1.4)
    for d in review["decisions"]:
        if d["mark"] in MARK_STYLE and d["evaluation"] is not None:     # the mistakes, not "level"
            marker, size = MARK_STYLE[d["mark"]]
            ax.scatter([d["index"]], [d["evaluation"][d["player"]]], marker=marker, s=size,
                       color=COLOURS[d["player"] % len(COLOURS)], edgecolors="black", linewidths=0.5, zorder=3)
    for name, (marker, size) in MARK_STYLE.items():     # the legend of the marks
        ax.scatter([], [], marker=marker, s=size, color="grey", edgecolors="black", linewidths=0.5, label=name)
    ax.set_xlabel("action in the record")
    ax.set_ylabel("expected final score" if solo else "chance to win")
    if not solo:
        ax.set_ylim(-0.02, 1.02)
    budget = review["budget"]
    what = f"{budget['iterations']} iterations" if "iterations" in budget else f"{budget['seconds']:g} s"
    ax.set_title(f"Review of {os.path.basename(str(review['record']))} ({review['bot']}, {what} a decision)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="best", ncol=2)
    ax.grid(alpha=0.3)
    return save(fig, base)


def ratings_plot(standings: list, base: str, title: str) -> list:
    """Bradley-Terry ratings with their 95% intervals; a side with no bound (a bot that
    won or lost every game) drawn as an arrow to the edge and said in the label."""
    rows = list(reversed(standings))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    finite = [v for r in rows for v in (r["rating"], r["rating_low"], r["rating_high"])
              if v is not None and math.isfinite(v)]
    lo_edge, hi_edge = min(finite) - 100, max(finite) + 100
    for y, r in enumerate(rows):
        low = r["rating_low"] if r["rating_low"] is not None else lo_edge
        high = r["rating_high"] if r["rating_high"] is not None else hi_edge
        ax.plot([low, high], [y, y], color="black", linewidth=1.5)
        ax.plot([r["rating"]], [y], "o", color=COLOURS[0])
        if r["rating_high"] is None:
            ax.annotate("", xy=(hi_edge, y), xytext=(r["rating"], y), arrowprops=dict(arrowstyle="->"))
        if r["rating_low"] is None:
            ax.annotate("", xy=(lo_edge, y), xytext=(r["rating"], y), arrowprops=dict(arrowstyle="->"))
    labels = [r["bot"] + (f"\n({r['rating_note']})" if r.get("rating_note") else "") for r in rows]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.set_xlim(lo_edge, hi_edge)
    ax.set_xlabel("rating (Elo scale) with 95% interval")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return save(fig, base)


def plackett_luce_plot(rows: list, base: str, title: str) -> list:
    """Plackett-Luce ratings (mu) with their 95% intervals (mu +- 1.96 sigma), best on top."""
    rows = list(reversed(rows))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    for y, r in enumerate(rows):
        ax.plot([r["low"], r["high"]], [y, y], color="black", linewidth=1.5)
        ax.plot([r["mu"]], [y], "o", color=COLOURS[1])
    ax.set_yticks(range(len(rows)), [r["bot"] for r in rows], fontsize=8)
    ax.set_xlabel("Plackett-Luce rating (openskill mu) with 95% interval")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return save(fig, base)


def matrix_plot(bots: list, pairings: list, base: str, title: str) -> list:
    """The head-to-head matrix: row bot's score against the column bot."""
    import numpy as np
    n = len(bots)
    m = np.full((n, n), np.nan)
    games = np.zeros((n, n), dtype=int)
    for p in pairings:
        i, j = bots.index(p["a"]), bots.index(p["b"])
        m[i, j], m[j, i] = p["a_rate"], 1 - p["a_rate"]
        games[i, j] = games[j, i] = p["games"]
    fig, ax = plt.subplots(figsize=(1.2 * n + 2, 1.0 * n + 1.5))
    im = ax.imshow(m, cmap="RdYlGn", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.0%}\n{games[i, j]} g", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(n), bots, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(n), bots, fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, label="row's score against column")
    return save(fig, base)


def arena_plots(summary: dict, out: str) -> list:
    """ratings, plackett-luce and head-to-head (.png and .svg) in `out` for an arena's summary."""
    if not summary["standings"]:
        return []
    s = summary["settings"]
    title = f"{summary['games']} games"
    paths = ratings_plot(summary["standings"], os.path.join(out, "ratings"), f"Ratings ({title})")
    if summary.get("plackett_luce"):
        paths += plackett_luce_plot(summary["plackett_luce"], os.path.join(out, "plackett-luce"),
                                    f"Plackett-Luce ratings from finishing orders ({title}, {s['players']} players)")
    if summary["pairings"]:
        paths += matrix_plot(list(s["bots"]), summary["pairings"], os.path.join(out, "head-to-head"),
                             f"Head to head ({title})")
    return paths


def bars_plot(rows: list, label_key: str, value_key: str, low_key: str, high_key: str, base: str,
              title: str, xlabel: str, reference: float | None = None) -> list:
    """Horizontal bars with 95% intervals (a balance study's win rates or scores)."""
    fig, ax = plt.subplots(figsize=(7, 0.4 * len(rows) + 1.5))
    ys = range(len(rows))
    values = [r[value_key] for r in rows]
    err = [[max(0.0, v - r[low_key]) for v, r in zip(values, rows)],
           [max(0.0, r[high_key] - v) for v, r in zip(values, rows)]]
    ax.barh(list(ys), values, xerr=err, color=COLOURS[0], alpha=0.7, capsize=3)
    ax.set_yticks(list(ys), [str(r[label_key]) for r in rows], fontsize=8)
    if reference is not None:
        ax.axvline(reference, color="black", linestyle="--", linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return save(fig, base)


def histogram_plot(values_by_label: dict, base: str, title: str, xlabel: str) -> list:
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for k, (label, values) in enumerate(values_by_label.items()):
        ax.hist(values, bins=20, alpha=0.5, label=label, color=COLOURS[k % len(COLOURS)])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    return save(fig, base)


def scaling_plot(rows: list, base: str, title: str, xlabel: str) -> list:
    """Win rate (with 95% interval) and rating against the budget, log scale."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    xs = [r["budget_value"] for r in rows]
    rate = [r["win_rate"] for r in rows]
    # max(0, ...): an interval's end may sit on its point (a bootstrap's percentile may
    # even pass it), and matplotlib takes no negative error bar.
    ax1.errorbar(xs, rate, yerr=[[max(0.0, v - r["win_rate_low"]) for v, r in zip(rate, rows)],
                                 [max(0.0, r["win_rate_high"] - v) for v, r in zip(rate, rows)]],
                 marker="o", capsize=3, color=COLOURS[0])
    ax1.axhline(0.5, color="black", linestyle="--", linewidth=1)
    ax1.set_ylim(-0.02, 1.02)
    ax1.set_ylabel("score against the reference")
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.minorticks_off()
        ax.set_xticks(xs, [f"{x:g}" for x in xs])
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
    ratings = [r["rating"] for r in rows]
    lows = [r["rating_low"] if r["rating_low"] is not None else r["rating"] for r in rows]
    highs = [r["rating_high"] if r["rating_high"] is not None else r["rating"] for r in rows]
    ax2.errorbar(xs, ratings, yerr=[[max(0.0, v - lo) for v, lo in zip(ratings, lows)],
                                    [max(0.0, hi - v) for v, hi in zip(ratings, highs)]],
                 marker="o", capsize=3, color=COLOURS[1])
    for x, r in zip(xs, rows):      # an open side: an arrow, and the words
        if r["rating_high"] is None:
            ax2.annotate("no upper\nbound", xy=(x, r["rating"]), xytext=(x, r["rating"] + 150), fontsize=7,
                         ha="center", arrowprops=dict(arrowstyle="<-", color=COLOURS[1]))
        if r["rating_low"] is None:
            ax2.annotate("no lower\nbound", xy=(x, r["rating"]), xytext=(x, r["rating"] - 150), fontsize=7,
                         ha="center", arrowprops=dict(arrowstyle="<-", color=COLOURS[1]))
    ax2.axhline(0, color="black", linestyle="--", linewidth=1)
    ax2.set_ylabel("rating against the reference (Elo scale)")
    fig.suptitle(title, fontsize=10)
    return save(fig, base)
