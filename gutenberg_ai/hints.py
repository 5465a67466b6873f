"""Move hints: what a search thinks of each move of the player to act.

    import gutenberg_ai
    for h in gutenberg_ai.hint(state, iterations=5000):
        print(f"{h.share:5.1%}  win {h.win_probability:4.0%}  fame {h.expected_fame:5.1f}  {h.text}")
        for step in h.line:
            print("        then", step)

A hint is one move of the player to act, best first (most searched). `share` is the
move's part of the search's visits (all moves' shares sum to one), `win_probability` and
`expected_fame` are the player's mean win share and final fame over the simulations
that began with it (a shared win counts 1/k; fame at a rollout cut-off is the
evaluation's projection; both None for a move the search never tried), and `line` is the play the search expects after it (its most
visited path, draws left out), in the game's words.

Deterministic for a given seed and iteration budget; with `seconds` the result depends
on the machine's speed.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pyspiel

from gutenberg_ai import games
from gutenberg_ai.games import core_of, returns_mode_of

HINT_BOTS = ("smmcts", "ismcts")
DEFAULT_ITERATIONS = 4000


@dataclass(frozen=True)
class Hint:
    action: int
    text: str
    share: float
    win_probability: float | None
    expected_fame: float | None
    line: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def hint(state, player=None, bot="smmcts", seconds=None, iterations=None, top=5, seed=0,
         threads=1, line_length=8, **options) -> list[Hint]:
    """Ranked moves for the player to act in `state` (a pyspiel state of one of the
    games, or a compiled CoreState), best first, at most `top` of them.

    player      the player to act (None: whoever it is); another player is an error
    bot         "smmcts" (default) or "ismcts"
    seconds, iterations   the search budget (default: DEFAULT_ITERATIONS iterations)
    seed        the search's seed; threads: root-parallel trees
    options     search options (the core's SEARCH_OPTIONS); `returns` defaults to the
                game's
    """
    if bot not in HINT_BOTS:
        raise ValueError(f"bot: {bot!r} is not one of {', '.join(HINT_BOTS)}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"top: {top!r} is not an integer >= 1")
    core = core_of(state)
    search = games.of(core).core.search
    if core.is_terminal() or core.is_chance():
        raise ValueError("hints are for a player's decision (this is a chance node or the end)")
    to_act = core.current_player()
    if player is not None and player != to_act:
        raise ValueError(f"player {player} is not to act; player {to_act} is")
    if seconds is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    if isinstance(state, pyspiel.State):
        options.setdefault("returns", returns_mode_of(state.get_game()))
    result = search(core, bot, iterations=iterations, seconds=seconds, seed=seed, threads=threads,
                          lines=top, line_length=line_length, **options)
    total = sum(m["visits"] for m in result["moves"])
    hints = []
    for m in result["moves"][:top]:
        hints.append(Hint(
            action=m["action"],
            text=core.action_to_string(m["action"]),
            share=m["visits"] / total if total else 1.0 / len(result["moves"]),
            win_probability=m["win"][to_act] if m["visits"] else None,
            expected_fame=m["fame"][to_act] if m["visits"] else None,
            line=[f"player {seat}: {text}" for seat, _, text in m.get("line", [])],
        ))
    return hints
