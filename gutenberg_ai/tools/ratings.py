"""Plackett-Luce ratings from finishing orders: every seat's place in every game, for
arenas of 2, 3 and 4 players, next to the arena's pairwise Bradley-Terry ratings.

    from gutenberg_ai.tools import ratings
    ratings.plackett_luce(results, ["heuristic", "random", "smmcts"])
    # [{"bot": "heuristic", "games": 60, "mu": 31.2, "sigma": 1.9, "low": 27.5, "high": 34.9}, ...]

The model is openskill's PlackettLuce (Weng and Lin 2011, Algorithm 4): a rating is a
normal belief (mu, sigma) about a bot's skill, updated game by game from the game's
ranks (equal ranks are ties, as the rulebooks' tie-breaks leave them). The updates
depend on the order of the games, so the games are taken in one fixed order (the match's
name as text, then the game number), not in the order they finished: the same records
give the same ratings. The interval is mu +- 1.96 sigma, on openskill's scale (every bot starts at
mu 25, sigma 25/3). A bot that sits twice in one game (fewer bots than seats) is
updated as each of its seats would be, the updates averaged.
"""
from __future__ import annotations

Z95 = 1.96


def schedule_order(results: list) -> list:
    """The finished games in one fixed order: the match's name (as text), then the game
    number."""
    return sorted(results, key=lambda r: (r["match"], r["game"]))


def plackett_luce(results: list, bots: list) -> list[dict]:
    """Each bot's Plackett-Luce rating from the games' ranks, best first (by mu, then
    name): {"bot", "games", "mu", "sigma", "low", "high"}."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    current = {b: model.rating(name=b) for b in bots}
    games = dict.fromkeys(bots, 0)
    for r in schedule_order(results):
        teams = [[model.create_rating([current[b].mu, current[b].sigma], name=b)] for b in r["seats"]]
        rated = model.rate(teams, ranks=[float(x) for x in r["ranks"]])
        for b in set(r["seats"]):
            mine = [team[0] for team, name in zip(rated, r["seats"]) if name == b]
            current[b] = model.create_rating([sum(x.mu for x in mine) / len(mine),
                                              sum(x.sigma for x in mine) / len(mine)], name=b)
            games[b] += 1
    rows = [dict(bot=b, games=games[b], mu=float(current[b].mu), sigma=float(current[b].sigma),
                 low=float(current[b].mu - Z95 * current[b].sigma),
                 high=float(current[b].mu + Z95 * current[b].sigma)) for b in bots]
    rows.sort(key=lambda row: (-row["mu"], row["bot"]))
    return rows


def text(row: dict) -> str:
    """A Plackett-Luce rating with its interval: '31.2 (27.5 to 34.9)'."""
    return f"{row['mu']:.1f} ({row['low']:.1f} to {row['high']:.1f})"
