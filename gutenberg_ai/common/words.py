"""Words every game's text shares."""
from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """`n` and its noun, singular where `n` is one: counted(1, "mark") is "1 mark",
    counted(3, "mark") "3 marks" (`plural` where it is not the word and an "s")."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def listed(words) -> str:
    """Words as a sentence lists them: listed(["a"]) is "a", listed(["a", "b", "c"])
    "a, b and c"."""
    words = [str(w) for w in words]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


__all__ = ["budget_words", "counted", "listed", "rounds_words"]


def budget_words(budget: dict) -> str:
    """A search budget in words: "2,000 iterations" or "0.5 s"."""
    if budget.get("iterations") is not None:
        return f"{budget['iterations']:,} iterations"
    return f"{budget['seconds']:g} s"


def rounds_words(rounds: int | None) -> str:
    """How much of a game is played, in words: "1 round", "3 rounds", or "the whole
    game" for none given or 0 (Lead Letter Printers' 0: until the orders run out)."""
    return counted(rounds, "round") if rounds else "the whole game"
