"""What a game's view may leave out: the play loop's words where a game has nothing of its
own to say. The games table's `view` reads a game's view module first, then this one.

A game whose draws are all shown on the table (or hidden) gives no `chance_note`; one
whose hidden moves are plain moves gives no `dropped_text`.
"""
from __future__ import annotations

from gutenberg_ai.common.words import counted

HELP_TOPICS: dict = {}      # `help TOPIC` at the prompt: name -> (what it explains, a function giving rich Text)
UNSEEN_DRAW = "a draw you do not see"


def hidden_move_text(core, player: int) -> str:
    """What the person is told of a move they do not see."""
    return "makes a move you do not see"


def dropped_text(n: int) -> str:
    """What `play --resume` says of the hidden moves at the end of a record, chosen again."""
    return f"{counted(n, 'move')} you had not seen, chosen again"


def chance_note(before, outcome: int, text: str) -> str | None:
    """A draw worth a line of its own, in the game's words, or None: every draw is shown
    on the table (or hidden), none gets a line of its own."""
    return None


def automa_note(before, action: int) -> str | None:
    """What an automa took while `action` is played from `before` and the rule that chose
    it among options, or None: a game without such a rule says nothing."""
    return None
