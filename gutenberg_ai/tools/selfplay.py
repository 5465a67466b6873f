"""Self-play: games of one search bot in every seat, each of its moves recorded with what
its search found (the root moves' visits, the root's estimate of win chance and fame per
seat). The records are arena records (arena.py): written as each game ends, resumable,
checked when found, played in a process pool or on Ray, and reproducible from the seed.

    gutenberg-ai selfplay --game gutenberg --players 2 --games 400 --iterations 200 --out sp/

A record's action entry gets `search`: {"iterations", "moves": [[action, visits], ...],
"win": [...], "fame": [...]} (records.search_entry); dataset.py turns the records into
training data.
"""
from __future__ import annotations

from gutenberg_ai.tools import arena
from gutenberg_ai import games as game_table
from gutenberg_ai.search.bots import check_name, make_bot, split_budget

# The searches whose statistics a record can keep: the native ones (and the learned bot).
SELFPLAY_BOTS = ("ismcts", "smmcts", "learned")
DEFAULT_ITERATIONS = 200


class SelfPlayError(ValueError):
    """Settings that cannot run."""


def settings(game: str = "gutenberg", players: int = 2, games: int = 100, bot: str = "ismcts",
             iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None, seed: int = 0,
             rounds: int | None = None, automa: bool = False, variant: str = "",
             options: dict | None = None, factory_tops: bool = True) -> arena.ArenaSettings:
    """The arena settings of a self-play run: `bot` in every seat (a solo game: the one
    seat), its search statistics kept; `options` are the bot's search options (a model
    of an earlier generation: {"model": "gen1.npz"}); `factory_tops`: Lead Letter
    Printers' factory piles face up."""
    g = game_table.get(game)
    name, own = split_budget(bot)
    if name not in SELFPLAY_BOTS:
        raise SelfPlayError(f"bot: {bot!r}: self-play records the searches of {', '.join(SELFPLAY_BOTS)}")
    if own:
        iterations, seconds = own.get("iterations"), own.get("seconds")
    if players == 1 and "automa" in g.rules_module.DEFAULTS:
        automa = True    # Gutenberg's solo game is against its automa
    s = arena.ArenaSettings(bots=[bot], game=g.key, players=players, games=games,
                            seconds=seconds if iterations is None else None, iterations=iterations,
                            rounds=rounds if rounds is not None else g.rules_module.DEFAULTS["rounds"],
                            automa=automa, seed=seed, options={bot: dict(options)} if options else {},
                            pairings=[[bot] * players], variant=variant, search_stats=True,
                            factory_tops=factory_tops)
    validate(s)
    return s


def validate(s: arena.ArenaSettings):
    """The game's parameters and the bot with its options, before anything is written."""
    g = game_table.get(s.game)
    if isinstance(s.games, bool) or not isinstance(s.games, int) or s.games < 1:
        raise SelfPlayError(f"games: {s.games!r} is not a whole number >= 1")
    s.check_game_settings(SelfPlayError)
    try:
        params = g.rules_module.check_parameters(s.game_params())
    except ValueError as e:
        raise SelfPlayError(str(e)) from None
    bot = s.bots[0]
    try:
        check_name(bot, list(SELFPLAY_BOTS))
        game = g.load(**params)
        make_bot(bot, game, 0, seed=0, **arena.budget_options(bot, s.seconds, s.iterations),
                 **s.options.get(bot, {}))
    except (TypeError, ValueError) as e:
        raise SelfPlayError(f"bot: {e}") from None


def run_selfplay(s: arena.ArenaSettings, out: str, jobs: int = 1, progress=None, ray=None) -> dict:
    """Play the games not yet in `out` (as the arena does: found records are checked and
    kept). Returns {"games", "played", "skipped", "seconds", "out"}."""
    import time
    validate(s)
    arena.check_settings(out, s)
    arena.write_settings(out, s)
    started = time.perf_counter()
    done = arena.run_tasks(arena.schedule(s), out, jobs, progress, ray)
    counts = arena.run_counts(done, started, jobs, ray)
    return {"games": len(done), **counts, "out": out}
