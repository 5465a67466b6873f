"""What a viewer may be shown of an AI move's search (its `hints`: hints.Hints.as_dict).

The search weighed its moves from the AI's own view: its other moves and its expected
line can name what it holds hidden (Printing Press's setup tokens in its hand, a
Gutenberg plan not yet revealed). For a viewer (the person playing against it):

- where the AI's moves at the decision depend on what the viewer cannot see (one of
  the moves it weighed would be unseen by the viewer, or its legal moves differ between the viewer's
  redraws of what they have not seen: the core's `smmcts_redraw`), only the move played
  is kept, with `others_hidden`: true;
- each line kept stops at the first step the viewer would not see, said as
  "a move you do not see" (a draw already ends a line: "a draw, not known yet").

The move played itself, when the viewer has not seen it, is not for this module: the
record leaves such an entry out for the viewer (records.to_dict), `play` says it is
hidden.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

import pyspiel

from gutenberg_ai.games import core_of

# What a line says where the player to act cannot know what happens: the search's own
# redraw of a card, or a move another player makes unseen.
UNKNOWN_DRAW = "a draw, not known yet"
UNSEEN_MOVE = "a move you do not see"
OTHERS_HIDDEN = "the other moves it weighed stay hidden: they name what you cannot see"
REDRAWS = 16     # the viewer's redraws the AI's legal moves are compared across


def step_text(seat: int, text: str | None) -> str:
    """One step of an expected line in words (seat -1: a draw; text None: unseen)."""
    if seat < 0:
        return UNKNOWN_DRAW
    return f"player {seat}: {UNSEEN_MOVE if text is None else text}"


def named_step(step: str, names: Sequence[str]) -> str:
    """A line's step with its seat said by the seat's name (`names`, one a seat), as a
    table or a game names its players: "player 1: ..." -> "Anna: ..."."""
    found = re.match(r"player (\d+): ", step)
    if found and int(found.group(1)) < len(names):
        return f"{names[int(found.group(1))]}: {step[found.end():]}"
    return step


def _unseen(state: pyspiel.State, viewer: int) -> bool:
    """Whether `viewer` has not seen the last move of `state`'s history."""
    history = [(h.player, h.action) for h in state.full_history()]
    return core_of(state).mask_history(viewer, history)[-1][1] < 0


def _after(state: pyspiel.State, action: int) -> pyspiel.State:
    child = state.clone()
    child.apply_action(action)
    return child


def moves_name_unseen(state: pyspiel.State, viewer: int, weighed: list[int]) -> bool:
    """Whether the moves of the player to act at `state` name what `viewer` cannot see:
    one of the moves `weighed` would be unseen by the viewer, or the legal moves differ
    between the viewer's redraws of what they have not seen."""
    actor = state.current_player()
    if actor == viewer:
        return False
    legal = state.legal_actions()
    if any(_unseen(_after(state, a), viewer) for a in weighed if a in legal):
        return True
    # The core's redraw for the viewer, the one its search makes before each iteration
    # (Gutenberg: the character tiles drawn; Printing Press: the tokens in hand; Lead
    # Letter Printers: the factories).
    core = core_of(state)
    return any(sorted(core.smmcts_redraw(viewer, seed).legal_actions()) != sorted(legal) for seed in range(REDRAWS))


def seen_line(state: pyspiel.State, line: list[str], viewer: int) -> list[str]:
    """A move's expected line (its steps in words, from `state` after the move) up to the
    first step `viewer` would not see, that step said as unseen. A step whose move is
    not found among the legal moves (the search's own redraw of another player's hand)
    is one the viewer cannot be shown either."""
    out: list[str] = []
    for step in line:
        if state.is_terminal() or state.is_chance_node() or step == UNKNOWN_DRAW:
            return out + [step] if step == UNKNOWN_DRAW else out
        seat = state.current_player()
        prefix = f"player {seat}: "
        text = step[len(prefix):] if step.startswith(prefix) else None
        found = [a for a in state.legal_actions() if text is not None and state.action_to_string(seat, a) == text]
        if len(found) != 1 or text == UNSEEN_MOVE:
            return out + [step_text(seat, None)]
        state = _after(state, found[0])
        if _unseen(state, viewer):
            return out + [step_text(seat, None)]
        out.append(step)
    return out


def seen_hints(state: pyspiel.State, hints: dict, played: int, viewer: int) -> dict:
    """An AI move's `hints` (at `state`, its decision; `played` its move) as `viewer` may
    be shown them: only the move played where the moves name what the viewer cannot see
    (`others_hidden`; none if the search's top moves left it out), each line kept cut
    at the first step the viewer would not see."""
    if state.current_player() == viewer:
        return hints
    moves = hints["hints"]
    others_hidden = moves_name_unseen(state, viewer, [h["action"] for h in moves])
    if others_hidden:
        moves = [h for h in moves if h["action"] == played]
    legal = set(state.legal_actions())
    kept = [{**h, "line": seen_line(_after(state, h["action"]), h["line"], viewer) if h["action"] in legal else []}
            for h in moves]
    out: dict[str, Any] = {**hints, "hints": kept}
    if others_hidden:
        out["others_hidden"] = True
    return out
