"""Balance and strength studies, for every game of the games table.

    gutenberg-ai study balance --game gutenberg --bot smmcts --iterations 300 --games 100 --out bal/
    gutenberg-ai study scaling --game printing-press --bot ismcts --budgets 50,100,200,400 \\
        --reference heuristic --games 40 --out scal/

**Balance**: self-play, the same bot in every seat, one deal a game (chance seed
seed + g), so that what differs between seats is the seat, the turn order and what was
dealt (characters, cards). Measured with 95% intervals: each seat's win rate (a win
shared by k counts 1/k; Wilson interval) and mean score (normal interval, 1.96 standard
errors); the first player's (the seat that makes the first decision of round 1); each
character's (Gutenberg) and character side's (Printing Press), over the seats that held
it; and the spread of the scores (their standard deviation, the winner's margin over the
runner-up). Written to OUT/balance.md (a Markdown report with the command that made it),
OUT/balance.json and plots (PNG and SVG).

**Scaling**: a bot at growing budgets (`smmcts@100`, `smmcts@200`, ...) each against a
fixed reference in 2-player games, seats swapped, through the arena (so records, resume
and Ray are the arena's): per budget the score against the reference with its Wilson
interval and the Bradley-Terry rating with the reference at 0 (bootstrap interval, open
where the results cannot bound it). OUT/scaling.md, OUT/scaling.json, OUT/scaling.png/svg.

Both resume like the arena (the games are in OUT/games/) and run on Ray with `ray`.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field

from gutenberg_ai.tools import arena
from gutenberg_ai import games
from gutenberg_ai.common import limits
from gutenberg_ai.common.stats import wilson
from gutenberg_ai.common.words import budget_words
from gutenberg_ai.tools.arena import ArenaError
from gutenberg_ai.search.bots import BOT_NAMES, SEARCH_BOTS, budget_options, check_name, split_budget

Z95 = 1.96


# ---------------------------------------------------------------------------------------
# Balance
# ---------------------------------------------------------------------------------------
@dataclass
class BalanceSettings:
    bot: str = "smmcts"
    game: str = "gutenberg"
    players: int = 2
    games: int = 100
    seconds: float | None = None
    iterations: int | None = 300
    rounds: int | None = None
    characters: bool = True
    variant: str = ""
    seed: int = 0
    options: dict = field(default_factory=dict)
    factory_tops: bool = True       # Lead Letter Printers: the factory piles face up

    def arena_settings(self) -> arena.ArenaSettings:
        """The same game as arena settings (the arena's checks and game parameters)."""
        g = games.get(self.game)
        rounds = self.rounds if self.rounds is not None else g.rules_module.DEFAULTS["rounds"]
        return arena.ArenaSettings(bots=[self.bot], game=self.game, players=self.players, games=self.games,
                                   seconds=self.seconds, iterations=self.iterations, rounds=rounds,
                                   characters=self.characters, variant=self.variant, seed=self.seed,
                                   options={self.bot: self.options} if self.options else {},
                                   factory_tops=self.factory_tops)


def balance_tasks(s: BalanceSettings) -> list:
    a = s.arena_settings()
    lineup = [s.bot] * s.players
    match = f"balance-{arena.match_id([s.bot])}"
    options = {**budget_options(s.bot, s.seconds, s.iterations), **s.options}
    return [dict(match=match, game=g, lineup=lineup, seats=list(lineup), chance_seed=s.seed + g,
                 bot_seeds=[(s.seed * 7919 + g) * 8 + seat for seat in range(s.players)],
                 bot_options=[dict(options) for _ in range(s.players)],
                 params=a.game_params(), printing_game=s.game, command="study",
                 facts="gutenberg_ai.tools.studies.balance_facts",
                 path=os.path.join(arena.GAMES_DIR, match, f"game-{g:04d}.json"))
            for g in range(s.games)]


def balance_facts(record: dict) -> dict:
    """What a balance study needs of a finished game beyond its result: the first
    player (who makes the first decision of round 1) and each seat's character and side
    (the game module's seat_facts; none for a game without characters)."""
    from gutenberg_ai.games import core_of
    from gutenberg_ai.games.records import CHANCE, game_of
    game = game_of(record)
    state = game.new_initial_state()
    first = None
    for entry in record["actions"]:
        if first is None and entry["player"] != CHANCE and core_of(state).round >= 1:
            first = entry["player"]
        state.apply_action(entry["action"])
    seat_facts = getattr(games.of(game).rules_module, "seat_facts", None)
    facts = seat_facts(core_of(state)) if seat_facts else [{} for _ in range(game.num_players())]
    return {"first_player": first, "seat_facts": facts}


def mean_interval(values: list) -> tuple:
    """(mean, low, high): the mean with its normal 95% interval (None for fewer than 2)."""
    n = len(values)
    if n == 0:
        return None, None, None
    mean = sum(values) / n
    if n < 2:
        return mean, None, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def _group_row(label, seat_games):
    """A row of the balance tables for (summary, seat) pairs."""
    n = len(seat_games)
    wins = sum(1.0 / len(r["winners"]) for r, k in seat_games if k in r["winners"])
    lo, hi = wilson(wins, n)
    mean, mlo, mhi = mean_interval([r["scores"][k] for r, k in seat_games])
    return {"group": label, "games": n, "wins": round(wins, 3), "win_rate": wins / n if n else None,
            "win_rate_low": lo, "win_rate_high": hi, "mean_score": mean, "mean_score_low": mlo,
            "mean_score_high": mhi}


def balance_tables(results: list, s: BalanceSettings) -> dict:
    results = sorted(results, key=lambda r: r["game"])
    n_players = s.players
    pairs = [(r, k) for r in results for k in range(n_players)]
    seats = [_group_row(f"seat {k}", [(r, j) for r, j in pairs if j == k]) for k in range(n_players)]
    first = [_group_row("first player", [(r, j) for r, j in pairs if r.get("first_player") == j]),
             _group_row("the others", [(r, j) for r, j in pairs if r.get("first_player") not in (None, j)])]
    by_fact: dict[str, dict] = {}       # fact -> its value -> [(result, seat)]
    for r, k in pairs:
        facts = (r.get("seat_facts") or [{}] * n_players)[k]
        for kind, value in facts.items():
            if value is not None:
                by_fact.setdefault(kind, {}).setdefault(value, []).append((r, k))
    groups = {kind: sorted((_group_row(value, sg) for value, sg in values.items()),
                           key=lambda row: -(row["win_rate"] or 0))
              for kind, values in sorted(by_fact.items())}
    scores = [r["scores"][k] for r, k in pairs]
    margins = [sorted(r["scores"], reverse=True)[0] - sorted(r["scores"], reverse=True)[1]
               for r in results if len(r["scores"]) > 1]
    sd = math.sqrt(sum((x - sum(scores) / len(scores)) ** 2 for x in scores) / (len(scores) - 1)) \
        if len(scores) > 1 else None
    m, mlo, mhi = mean_interval(margins)
    spread = {"scores": len(scores), "mean": sum(scores) / len(scores) if scores else None, "sd": sd,
              "min": min(scores) if scores else None, "max": max(scores) if scores else None,
              "winner_margin": m, "winner_margin_low": mlo, "winner_margin_high": mhi,
              "shared_wins": sum(1 for r in results if len(r["winners"]) > 1)}
    return {"settings": asdict(s), "games": len(results), "seats": seats, "first_player": first,
            "groups": groups, "spread": spread,
            "scores_by_seat": [[r["scores"][k] for r in results] for k in range(n_players)]}


def balance_budget(s: BalanceSettings) -> dict:
    """The budget the bot plays with: its own (NAME@BUDGET), the study's, or none (a bot
    that does not search)."""
    return budget_options(s.bot, s.seconds, s.iterations)


def balance_command(s: BalanceSettings, out: str) -> str:
    budget = {} if "@" in s.bot else balance_budget(s)     # a budget in the name goes with the name
    parts = ["gutenberg-ai study balance", f"--game {s.game}", f"--bot {s.bot}", f"--players {s.players}",
             f"--games {s.games}"]
    parts += arena.budget_flags(budget)
    parts.append(f"--out {out}")
    parts.append(f"--seed {s.seed}")     # always: without it a run takes a new seed
    if s.rounds is not None:
        parts.append(f"--rounds {s.rounds}")
    parts += arena.reading_flags(s.variant, s.characters, s.factory_tops)
    if s.options:
        parts.append(f"--options '{json.dumps(s.options)}'")
    return " ".join(parts)


def _pct(row, key="win_rate"):
    if row[key] is None:
        return "-"
    return f"{row[key]:.1%} ({row[key + '_low']:.1%}-{row[key + '_high']:.1%})"


def _num(row, key="mean_score"):
    if row[key] is None:
        return "-"
    if row[key + "_low"] is None:
        return f"{row[key]:.1f}"
    return f"{row[key]:.1f} ({row[key + '_low']:.1f}-{row[key + '_high']:.1f})"


def balance_markdown(t: dict, out: str, plots: list) -> str:
    s = BalanceSettings(**t["settings"])
    g = games.get(s.game)
    characters = ("" if "characters" not in g.rules_module.DEFAULTS else
                  ", with characters" if s.characters else ", without characters")
    budget = balance_budget(s)
    spent = f"{budget_words(budget)} a move" if budget else "no search"
    lines = [f"# Balance of {g.title}: {s.players} players, self-play of {s.bot} ({spent})", "",
             f"{t['games']} games, one deal each (chance seeds {s.seed} to {s.seed + s.games - 1}), the same bot in "
             f"every seat{characters}{'' if s.factory_tops else ', ' + arena.FACE_DOWN}.", "",
             f"    {balance_command(s, out)}", "",
             f"| | games | win rate (95% interval) | mean {g.score_word} (95% interval) |",
             "| --- | --- | --- | --- |"]
    for row in t["seats"] + t["first_player"]:
        lines.append(f"| {row['group']} | {row['games']} | {_pct(row)} | {_num(row)} |")
    for kind, rows in t["groups"].items():
        lines += ["", f"| {kind} | seats | win rate (95% interval) | mean {g.score_word} (95% interval) |",
                  "| --- | --- | --- | --- |"]
        for row in rows:
            lines.append(f"| {row['group']} | {row['games']} | {_pct(row)} | {_num(row)} |")
    sp = t["spread"]
    if sp["scores"]:
        lines += ["", f"Spread of the scores: mean {sp['mean']:.1f}, standard deviation "
                      f"{sp['sd']:.1f}, from {sp['min']} to {sp['max']}"
                  + (f"; the winner's margin over the runner-up {_num(sp, 'winner_margin')}"
                     if sp["winner_margin"] is not None else "")
                  + f"; {sp['shared_wins']} shared win{'' if sp['shared_wins'] == 1 else 's'}."]
    lines += ["", "A win shared by k counts 1/k. Win rates: Wilson's 95% interval; mean scores: "
              "1.96 standard errors. A character's (or side's) rows count the seats that held it, "
              "so their games add up to games x players. With one bot in every seat a rate away "
              "from 1/players is the game's (or the bot's way of playing it), not a stronger player's."]
    if plots:
        lines += [""] + [f"![{os.path.basename(p)}]({os.path.basename(p)})" for p in plots if p.endswith(".png")]
    return "\n".join(lines) + "\n"


def run_balance(s: BalanceSettings, out: str, jobs: int = 1, progress=None, ray=None) -> dict:
    """Play the balance study's games not yet in `out`, write the report; the tables."""
    validate_balance(s)
    arena.check_count(jobs, "jobs", limits.MAX_JOBS)
    arena.check_settings(out, _settings_key(s))
    arena.write_settings(out, _settings_key(s))
    tasks = balance_tasks(s)
    started = time.perf_counter()
    done = arena.run_tasks(tasks, out, jobs, progress, ray)
    t = balance_tables([o["summary"] for o in done if o["summary"] is not None], s)
    t["run"] = arena.run_counts(done, started, jobs, ray)
    from gutenberg_ai.tools import plots
    paths = []
    if t["games"]:
        paths += plots.bars_plot(t["seats"] + t["first_player"], "group", "win_rate", "win_rate_low",
                                 "win_rate_high", os.path.join(out, "balance-seats"),
                                 f"Win rate by seat ({t['games']} games)", "win rate (95% interval)",
                                 reference=1 / s.players)
        for kind, rows in t["groups"].items():
            paths += plots.bars_plot(rows, "group", "win_rate", "win_rate_low", "win_rate_high",
                                     os.path.join(out, f"balance-{kind.replace(' ', '-')}"),
                                     f"Win rate by {kind}", "win rate (95% interval)", reference=1 / s.players)
        paths += plots.histogram_plot({f"seat {k}": v for k, v in enumerate(t["scores_by_seat"])},
                                      os.path.join(out, "balance-scores"), "Final scores by seat",
                                      games.get(s.game).score_word)
    t["plots"] = [os.path.basename(p) for p in paths]
    with open(os.path.join(out, "balance.json"), "w", encoding="utf-8") as f:
        json.dump(t, f, indent=2)
    with open(os.path.join(out, "balance.md"), "w", encoding="utf-8") as f:
        f.write(balance_markdown(t, out, paths))
    return t


class _settings_key:
    """The balance settings as what must not change between runs into one OUT (what
    arena.check_settings and write_settings ask of settings)."""

    def __init__(self, s: BalanceSettings):
        self._s = s

    def resumable_part(self):
        d = asdict(self._s)
        d.pop("games")
        return {"study": "balance", **arena.recorded(d, ("factory_tops",))}

    @property
    def games(self):
        return self._s.games


def validate_balance(s: BalanceSettings):
    arena.check_count(s.games, "games", limits.MAX_GAMES)     # before any game
    if isinstance(s.players, bool) or not isinstance(s.players, int) or not 2 <= s.players <= 4:
        raise ArenaError(f"players: {s.players!r} is out of range (2-4)")
    try:
        check_name(s.bot)
    except ValueError as e:
        raise ArenaError(f"bot: {e}") from None
    a = s.arena_settings()
    g = games.get(s.game)
    a.check_game_settings(ArenaError)
    g.rules_module.check_parameters(a.game_params())
    from gutenberg_ai.search.bots import make_bot, refusal
    try:
        make_bot(s.bot, g.load(**a.game_params()), 0, seed=0,
                 **{**budget_options(s.bot, s.seconds, s.iterations), **s.options})
    except (TypeError, ValueError) as e:
        raise ArenaError(f"bot: {refusal(s.bot, e)}") from None


# ---------------------------------------------------------------------------------------
# Scaling
# ---------------------------------------------------------------------------------------
def budget_names(bot: str, budgets: list) -> list:
    """`bot@budget` for each budget ("100": iterations, "0.5s": seconds)."""
    return [f"{bot}@{b}" for b in budgets]


def run_scaling(bot: str, budgets: list, reference: str, out: str, game: str = "gutenberg", games_: int = 20,
                seed: int = 0, jobs: int = 1, progress=None, ray=None, rounds=None, characters=True,
                variant="", options=None, factory_tops: bool = True) -> dict:
    """`bot` at each of `budgets` against `reference` (a bot name, with its own @budget
    if it searches), 2 players, `games_` games a budget, through the arena in `out`;
    `options`: the studied bot's options, at every budget; `factory_tops`: Lead Letter
    Printers' factory piles face up."""
    names = budget_names(bot, budgets)
    twice = sorted({str(b) for b, name in zip(budgets, names) if names.count(name) > 1})
    if twice:
        raise ArenaError(f"budgets: {', '.join(twice)} given twice")
    if reference in names:
        raise ArenaError(f"reference: {reference!r} is one of the budgets studied")
    kinds = {kind for n in names for kind in split_budget(n)[1] or ()}    # seconds, iterations
    if len(kinds) > 1:
        raise ArenaError(f"budgets: {', '.join(map(str, budgets))} mix seconds and iterations: one axis is one or "
                         "the other")
    g = games.get(game)
    s = arena.ArenaSettings(bots=names + [reference], game=game, players=2, games=games_, seconds=None,
                            iterations=None, rounds=rounds if rounds is not None else g.rules_module.DEFAULTS["rounds"],
                            characters=characters, variant=variant, seed=seed,
                            options={n: dict(options) for n in names} if options else {},
                            pairings=[[n, reference] for n in names], factory_tops=factory_tops)
    playing = [n for n in BOT_NAMES if n != "cfr"]     # the arena's bots
    for what, name in (("bot", bot), ("reference", reference)):
        try:
            check_name(name, playing)
        except ValueError as e:
            raise ArenaError(f"{what}: {e}") from None
    if "@" not in reference and (":" in reference or reference.split("@")[0] in SEARCH_BOTS):
        raise ArenaError(f"reference: {reference!r} searches: give its budget, e.g. {reference}@1000")
    summary = arena.run_arena(s, out, jobs, progress, ray, plots=False)
    results = _arena_results(out, s)
    t = arena.tables(results, s, anchor_name=reference)
    rows = []
    for name, b in zip(names, budgets):
        h = arena.head_to_head(t, name, reference)
        st = next(r for r in t["standings"] if r["bot"] == name)
        unit, value = _budget_value(b)
        rows.append({"bot": name, "budget": b, "unit": unit, "budget_value": value, "games": h["games"] if h else 0,
                     "win_rate": h["a_rate"] if h else None, "win_rate_low": h["a_rate_low"] if h else None,
                     "win_rate_high": h["a_rate_high"] if h else None,
                     "mean_score": h["mean_fame_a"] if h else None, "reference_mean_score": h["mean_fame_b"] if h else None,
                     "rating": st["rating"], "rating_low": st["rating_low"], "rating_high": st["rating_high"],
                     "rating_note": st["rating_note"]})
    from gutenberg_ai.tools import plots
    unit = rows[0]["unit"] if rows else "iterations"
    paths = plots.scaling_plot(rows, os.path.join(out, "scaling"),
                               f"{bot} against {reference} ({g.title}, {games_} games a budget)",
                               f"budget ({unit} a move)") if rows else []
    result = {"game": game, "bot": bot, "reference": reference, "budgets": budgets, "games": games_,
              "seed": seed, "rows": rows, "run": summary["run"], "plots": [os.path.basename(p) for p in paths],
              "command": scaling_command(bot, budgets, reference, out, game, games_, seed, rounds, variant,
                                         characters, options, factory_tops)}
    with open(os.path.join(out, "scaling.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
    with open(os.path.join(out, "scaling.md"), "w", encoding="utf-8") as f:
        f.write(scaling_markdown(result))
    return result


def _arena_results(out: str, s: arena.ArenaSettings) -> list:
    from gutenberg_ai.games.records import load_record
    results = []
    for task in arena.schedule(s):
        path = os.path.join(out, task["path"])
        if os.path.exists(path):
            results.append(arena.summary_of(load_record(path)))
    return results


def _budget_value(b: str):
    text = str(b)
    return ("seconds", float(text[:-1])) if text.endswith("s") else ("iterations", int(text))


def scaling_command(bot, budgets, reference, out, game, games_, seed, rounds, variant, characters, options,
                    factory_tops=True) -> str:
    parts = ["gutenberg-ai study scaling", f"--game {game}", f"--bot {bot}", f"--budgets {','.join(map(str, budgets))}",
             f"--reference {reference}", f"--games {games_}", f"--out {out}"]
    parts.append(f"--seed {seed}")
    if rounds is not None:
        parts.append(f"--rounds {rounds}")
    parts += arena.reading_flags(variant, characters, factory_tops)
    if options:
        parts.append(f"--options '{json.dumps(options)}'")
    return " ".join(parts)


def scaling_markdown(r: dict) -> str:
    g = games.get(r["game"])
    lines = [f"# Scaling of {r['bot']} against {r['reference']} ({g.title}, 2 players)", "",
             f"{r['games']} games a budget, seats swapped (each deal from both seats).", "",
             f"    {r['command']}", "",
             f"| budget | games | score against {r['reference']} (95% interval) | mean {g.score_word} "
             f"(reference's) | rating, {r['reference']} at 0 (95% interval) |",
             "| --- | --- | --- | --- | --- |"]
    for row in r["rows"]:
        rating = arena.rating_text(row)
        lines.append(f"| {row['budget']} | {row['games']} | {_pct(row)} | {row['mean_score']:.1f} "
                     f"({row['reference_mean_score']:.1f}) | {rating} |")
    lines += ["", "Score: 1 a game ahead, 1/2 level, with Wilson's interval. Rating: Bradley-Terry on "
              "the Elo scale from these games, bootstrap interval; a side the results cannot bound "
              "(a bot never outscored) is open and said so."]
    lines += [""] + [f"![{p}]({p})" for p in r["plots"] if p.endswith(".png")]
    return "\n".join(lines) + "\n"
