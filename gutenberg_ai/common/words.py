"""Words every game's text shares."""
from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """`n` and its noun, singular where `n` is one: counted(1, "mark") is "1 mark",
    counted(3, "mark") "3 marks" (`plural` where it is not the word and an "s")."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


__all__ = ["budget_words", "counted"]


def budget_words(budget: dict) -> str:
    """A search budget in words: "2,000 iterations" or "0.5 s"."""
    if budget.get("iterations") is not None:
        return f"{budget['iterations']:,} iterations"
    return f"{budget['seconds']:g} s"
