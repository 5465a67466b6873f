"""At the table: a real game followed entry by entry by a person in one seat, for every
game of the games table (the model; `gutenberg-ai table` drives it in the terminal,
gutenberg_ai.interfaces.table_terminal).

The person enters what the table shows as it happens: every draw (the cards turned, the
tokens drawn, the automa's cards), every other player's move, and their own moves. The
engine needs a value for what the person cannot see (another player's secret draw, a
plan committed face down, a token kept hidden): the model puts a *placeholder* there,
drawn with a seeded generator among what is possible, so the game goes on. What is
hidden from the person is the core's to say: `mask_history(seat, history)` (a negative
action: not seen). A pending draw or move is unseen when its outcome would be masked
(tried on a clone).

    followed = FollowedGame(game, seat=0, seed=7)
    kind, value = followed.next_turn()   # ("chance", None), ("move", P), ("own", seat),
                                         # ("unseen", P), ("reveal", entry index), ("end", None)
    followed.place_unseen()              # at ("unseen", P): a placeholder
    followed.enter(action)               # what the table shows; EntryRefused, nothing changed
    followed.reveal(i, action)           # a placeholder now shown, as it came up
    dropped = followed.fix(i, action)    # a correction: the game replayed from entry i

A game already under way starts from a position (a game loaded with the parameter
`position`, as positionfile.position_game makes it): its initial state is the position,
and the entries are what happened since (entry 1 the first after it; nothing before it
can be fixed or revealed). What the position hides from the person (another player's
face-down tokens, the factories under the piles: dealt by the position's loader) are
placeholders as the entries' are: the worlds redrawn from the person's information
state redraw them too (the game's "start records"), so `start`, the state the entries
are replayed from, is the position as the current world deals it.

Revealed placeholders: when the mask shows a placeholder (the plans turned over at the
end of a plan step), next_turn() asks for it ("reveal", i) before the game goes on; the
entered value replaces it and the game is replayed from there (an entered entry after it
that no longer fits refuses the reveal).

An entry that the person could see legal but the placeholders forbid (a card the person
sees drawn that a placeholder took earlier) is accepted by redrawing the placeholders:
`state.resample_from_infostate(seat, sampler)` at that point, up to RESAMPLE_TRIES
worlds, until the entry is legal in one; that world's history becomes the placeholders.
An entry legal in none of them is refused, saying why.

Placeholders never reach a hint: the searches redraw what the player to act has not seen
(docs/search.md), so `hint()` at the person's decision is the hint on the real table.
`hint(player=P)` at another player's decision searches from what the person knows: one
world drawn from the person's information by the core's redraw (world_for: the same
world whatever the placeholders), then the search from P's information in that world.

Draws with several possible worlds: the menu of a draw (options()) is the union of the
outcomes over the current world and up to MENU_WORLDS worlds redrawn from the person's
information state (a sample of them, bounded: a rare outcome may be missing from the
menu, and is still accepted when typed, by the resampling above).
"""
from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Callable

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.common.jsonfile import text_problem
from gutenberg_ai.interfaces.entries import EntryRefused
from gutenberg_ai.games.records import CHANCE, MAX_PERSON_NAME, GameRecord, seat_entry, start_lines, write_json

RESAMPLE_TRIES = 400   # worlds tried for an entry the placeholders forbid
START_PROBES = 4       # worlds drawn to tell whether the start hides something from the person
MENU_WORLDS = 24       # worlds whose outcomes make the menu of a draw or a move
UNSEEN_PROBES = 64     # outcomes tried to tell an unseen draw or move
PERSON = "person at the table"   # the person's seat in the record


@dataclass(frozen=True)
class Entry:
    player: int      # the seat that acted, CHANCE for a draw
    action: int
    entered: bool    # False: a placeholder for what the person has not seen


def outcomes(state) -> list:
    """What can come next: the chance outcomes or the legal moves."""
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions())


def _history(state) -> list:
    return [(h.player, h.action) for h in state.full_history()]


def listed_name(k: int) -> str:
    """Where a list of names (--names, a request's names) names seat k."""
    return f"names.{k}"


def seat_name_problem(names: list, s: int, seat: int, field: Callable[[int], str] = listed_name) -> str | None:
    """What is wrong with names[s] as the name of seat s at a table followed by the
    person in `seat`, or None (`field`: where seat k's name was given, as a message says
    it). A record of the game (to_dict) keeps the names: they must be names its loader
    reads, and the table's commands (hint NAME, its messages) must tell the seats apart
    by them."""
    name = names[s]
    said = name.strip().lower()
    other = re.fullmatch(r"player (\d+)", said)
    # `hint NAME` reads a name whatever its case and spaces at its ends: so must this check.
    same = next((k for k in range(s) if names[k].strip().lower() == said), None)
    return (text_problem(name) or ("an empty name" if not name else None) or
            ("a name of spaces only" if not name.strip() else None) or
            ("a name with nothing to read (spaces, fillers or marks only)" if not shows_something(name) else None) or
            (f"{len(name)} characters, at most {MAX_PERSON_NAME} (a position file's bound)"
             if len(name) > MAX_PERSON_NAME else None) or
            (None if same is None else f"{name!r} is also {field(same)}" if names[same] == name else
             f"{name!r} is {field(same)} ({names[same]!r}) in other letters: hint NAME reads a name "
             "whatever its case") or
            (f"'you' is the person's own seat (seat {seat})" if said == "you" and s != seat else None) or
            ("'chance' is how the log names the draws" if said == "chance" else None) or
            (f"{name!r} is how the table names seat {other.group(1)}" if other and int(other.group(1)) != s
             else None) or
            (f"{name!r} reads as a seat number" if name.strip().isdigit() else None))


# Letters and symbols that show nothing: the Hangul fillers and the blank Braille pattern.
_BLANK_SIGNS = set("\u115f\u1160\u3164\uffa0\u2800")


def shows_something(name: str) -> bool:
    """Whether `name` has a character a reader sees: a letter, digit, punctuation or
    symbol, not a space, an invisible format character (a zero-width space, a byte
    order mark, a tag), a mark alone, or a blank sign."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_SIGNS for ch in name)


class SeatNamesError(ValueError):
    """Names a table cannot take: `problems`, (where, reason) for each, all at once."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(f"{where}: {why}" for where, why in problems))
        self.problems = problems


def position_name(k: int) -> str:
    """Where a position file names seat k, as a table's message says it (each game's
    format has its own key for the names)."""
    return f"the position's name of seat {k}"


class FollowedGame:
    """A game followed by the person in `seat`; `names`: one per seat (the person's
    included; None: "player K", as a position leaves a name out). `entries`: (player, action, entered) to start from (a resumed game),
    replayed and checked, from `start` (default: the game's initial state; a resumed game
    from a position: the world its save dealt)."""

    def __init__(self, game, seat: int, seed: int = 0, names=None, entries=(), start=None,
                 name_field: Callable[[int], str] = listed_name):
        n = game.num_players()
        if not 0 <= seat < n:
            raise ValueError(f"seat: {seat} is not a seat of this game (0-{n - 1})")
        names = [f"player {s}" if name is None else name for s, name in enumerate(names)] if names else \
            [f"player {s}" for s in range(n)]
        if len(names) != n:
            raise ValueError(f"names: {len(names)} given for {n} players")
        problems = [(name_field(s), why) for s in range(n) if (why := seat_name_problem(names, s, seat, name_field))]
        if problems:
            raise SeatNamesError(problems)
        self.game, self.seat, self.seed, self.names = game, seat, seed, names
        self.printing_game = games.of(game)
        self._rng = random.Random(f"gutenberg-table/{seed}")
        self.entries: list[Entry] = []
        self.start = game.new_initial_state() if start is None else start.clone()
        self.position = self.printing_game.rules_module.sources_of(game).get("position")
        self.state = self.start.clone()
        self._start_hides: bool | None = None   # whether the start hides something from the person (asked once)
        self.resumed_from: str | None = None    # the command whose record this game goes on from (resume)
        self.saved_seed: int | None = None      # that record's table_seed (resume)
        if entries:
            state, kept, dropped = self._replay([Entry(*e) for e in entries])
            if dropped:
                i = len(kept)
                raise ValueError(f"entry {i + 1} ({self.name(dropped[0].player)}: action {dropped[0].action}) "
                                 "does not fit the entries before it")
            self.state, self.entries = state, kept

    # -- what the person sees -----------------------------------------------------------
    def name(self, player: int) -> str:
        return "chance" if player == CHANCE else self.names[player]

    def masked(self, state=None) -> list:
        state = self.state if state is None else state
        return core_of(state).mask_history(self.seat, _history(state))

    def _hides(self, state, action: int) -> bool:
        """Whether `action` at `state` would be hidden from the person."""
        child = state.clone()
        child.apply_action(action)
        return core_of(child).mask_history(self.seat, _history(child))[-1][1] < 0

    def _unseen(self, state) -> bool:
        """Whether the draw or move pending at `state` is hidden from the person whatever
        it is (a decision where some moves are seen, a token kept face up or face down, is
        entered; the moves that look alike become a placeholder). Tried on UNSEEN_PROBES
        outcomes at most, spread over them."""
        if state.is_terminal():
            return False
        possible = outcomes(state)
        if not self._hides(state, possible[0]):
            return False
        step = max(1, len(possible) // UNSEEN_PROBES)
        return all(self._hides(state, a) for a in possible[::step])

    def reveals(self) -> list:
        """The placeholders the person can now see (to be entered as they came up)."""
        masked = self.masked()
        return [i for i, e in enumerate(self.entries) if not e.entered and masked[i][1] >= 0]

    def shown_stand_ins(self) -> str:
        """The placeholders the person can see now but has not entered yet, in words (""
        if none). Until they are entered the state holds stand-ins where the table shows
        the truth: the board would show them, a hint or a position would start from them."""
        shown = self.reveals()
        if not shown:
            return ""
        what = [f"entry {i + 1} (" + ("a draw" if self.entries[i].player == CHANCE
                                      else f"{self.name(self.entries[i].player)}'s move") + ")" for i in shown]
        return f"{', '.join(what)} {'is' if len(what) == 1 else 'are'} shown now but not entered yet"

    def start_hides(self) -> bool:
        """Whether the start (a position) holds facts hidden from the person: a world
        redrawn from their information state at the start differs from it."""
        if self._start_hides is None:
            rng = random.Random(f"gutenberg-table-start/{self.seed}")
            here = self.start.serialize()
            self._start_hides = any(self.start.resample_from_infostate(self.seat, rng.random).serialize() != here
                                    for _ in range(START_PROBES))
        return self._start_hides

    def hides_anything(self) -> bool:
        """Whether anything is hidden from the person: an entry, or the start's facts."""
        return any(a < 0 for _, a in self.masked()) or self.start_hides()

    def hidden_count(self) -> int:
        return sum(1 for e in self.entries if not e.entered)

    def next_turn(self):
        """What the game waits for, as (kind, value): ("reveal", entry index) a placeholder
        now shown; ("end", None); ("unseen", player) a draw or move the person does not
        see (place_unseen); ("chance", None) a draw to enter; ("own", seat) the person's
        move; ("move", player) another player's move. The terminal and the page both
        ask this."""
        shown = self.reveals()
        if shown:
            return "reveal", shown[0]
        if self.state.is_terminal():
            return "end", None
        player = self.state.current_player()
        if self._unseen(self.state):
            return "unseen", player
        if player == CHANCE:
            return "chance", None
        return ("own" if player == self.seat else "move"), player

    # -- entering -----------------------------------------------------------------------
    def _append(self, action: int, entered: bool):
        player = self.state.current_player()
        self.state.apply_action(action)
        # A move the person saw made, but not which (a token kept face down): what they
        # entered stands in for it, as a placeholder.
        if entered and player != self.seat:
            entered = self.masked()[-1][1] >= 0
        self.entries.append(Entry(player, action, entered))

    def place_unseen(self) -> int:
        """A placeholder for the pending unseen draw or move, drawn among what is possible."""
        if not self._unseen(self.state):
            raise EntryRefused("the table waits for an entry the person sees")
        action = self._rng.choice(outcomes(self.state))
        self._append(action, entered=False)
        return action

    def _worlds(self, n: int):
        """Up to `n` states drawn from the person's information state (none when nothing
        is hidden from them: the state is the only world)."""
        if not self.hides_anything():
            return
        for _ in range(n):
            yield self.state.resample_from_infostate(self.seat, self._rng.random)

    def options(self, worlds: int = MENU_WORLDS) -> dict:
        """What can be entered now: action -> its words, over the worlds the person could be
        in (this one and `worlds` more drawn at most), sorted by action."""
        state = self.state
        player = state.current_player()
        found = {a: state.action_to_string(player, a) for a in outcomes(state)}
        if player != self.seat:
            for world in self._worlds(worlds):
                for a in outcomes(world):
                    if a not in found:
                        found[a] = world.action_to_string(player, a)
        return dict(sorted(found.items()))

    def text(self, action: int) -> str:
        """The words of `action` entered now (in a world where it is possible)."""
        player = self.state.current_player()
        if action in outcomes(self.state):
            return self.state.action_to_string(player, action)
        return self.options().get(action, f"action {action}")

    def enter(self, action: int):
        """Enter what the table shows now: a draw, another player's move, the person's own.
        An entry the placeholders forbid redraws them (resample_from_infostate); one that
        no world allows is refused (EntryRefused) and nothing changes."""
        state = self.state
        if state.is_terminal():
            raise EntryRefused("the game is over")
        kind, _ = self.next_turn()
        if kind == "reveal":
            raise EntryRefused("a hidden entry is shown now: enter it first")
        if kind == "unseen":
            raise EntryRefused("the person does not see this one: it gets a placeholder")
        if action in outcomes(state):
            self._append(action, entered=True)
            return
        player = state.current_player()
        for _, world in zip(range(RESAMPLE_TRIES), self._worlds(RESAMPLE_TRIES)):
            if action in outcomes(world):
                self._adopt(world)
                self._append(action, entered=True)
                return
        raise EntryRefused(self._why_not(player, action))

    def _why_not(self, player: int, action: int) -> str:
        if player == CHANCE:
            return ("not possible: that cannot come up here (already out, or not in this game)"
                    + (" in any deal of what you have not seen" if self.hidden_count() else ""))
        return self._why_at(self.state, action)

    def _adopt(self, world):
        """The placeholders of `world` (a resample of the person's information state)."""
        history = _history(world)
        assert len(history) == len(self.entries), "a resample keeps the history's length"
        for i, ((player, action), e) in enumerate(zip(history, self.entries)):
            if action != e.action:
                assert not e.entered, "a resample keeps what the person has seen"
                self.entries[i] = Entry(player, action, False)
        self.state = world
        if start_lines(world) != start_lines(self.start):     # the position's hidden facts redrawn too
            self.start = self._start_of(world)

    def _start_of(self, world):
        """The start `world` was dealt from: the game's initial state with the hidden
        facts of the start as the world has them (its start records, as a serialized
        state carries them)."""
        return self.game.deserialize_state("\n".join(start_lines(world)))

    def _replay(self, entries, meant: dict | None = None):
        """The game replayed from the start through `entries`: (state, kept, dropped).
        An entered entry that no longer fits is dropped (and named by the caller), and so
        is one whose words `meant` gives (by id) and that reads otherwise where it lands
        now (the same id, another meaning: a draw of round 3 read as one of round 2); a
        placeholder that no longer fits is drawn again, or left out where its player no
        longer acts (next_turn places what is missing)."""
        state = self.start.clone()
        kept: list = []
        dropped: list = []
        for e in entries:
            if state.is_terminal():
                (dropped if e.entered else []).append(e)
                continue
            player = state.current_player()
            possible = outcomes(state)
            same = meant is None or id(e) not in meant or state.action_to_string(player, e.action) == meant[id(e)]
            if e.player == player and e.action in possible and same:
                kept.append(e)
                state.apply_action(e.action)
            elif e.entered:
                dropped.append(e)
            elif e.player == player and self._unseen(state):
                action = self._rng.choice(possible)
                kept.append(Entry(player, action, False))
                state.apply_action(action)
        return state, kept, dropped

    def _replaced(self, index: int, action: int):
        """The game replayed with entry `index` entered as `action` (refused if it cannot
        come up there): (state, kept, dropped), as _replay gives them."""
        before = self.state_before(index)
        if action not in outcomes(before):
            raise EntryRefused(self._why_at(before, action))
        old = self.entries[index]
        # What each later entry the person entered said: kept only where it still says it.
        meant, state = {}, before.clone()
        for e in self.entries[index:]:
            if e.entered:
                meant[id(e)] = state.action_to_string(e.player, e.action)
            state.apply_action(e.action)
        return self._replay(self.entries[:index] + [Entry(old.player, action, True)] + self.entries[index + 1:],
                            meant)

    def refuse_before_start(self, index: int):
        """Refuse an entry before the first (the position, when the game starts from one)."""
        if index < 0 and self.position is not None:
            raise EntryRefused(f"entry {index + 1} is before the game's start: the position gives the game up to "
                               "there (correct the position file and start again from it)")

    def reveal(self, index: int, action: int):
        """A placeholder now shown, entered as it came up: the game replayed from it; an
        entered entry after it that no longer fits refuses the reveal (nothing changes)."""
        self.refuse_before_start(index)
        if index not in self.reveals():
            raise EntryRefused(f"entry {index + 1} is not a hidden entry shown now")
        state, kept, dropped = self._replaced(index, action)
        if dropped:
            e = dropped[0]
            raise EntryRefused(f"not possible: that contradicts a later entry ({self.name(e.player)}: "
                               f"{self._words(e)})")
        self.state, self.entries = state, kept

    def fix(self, index: int, action: int) -> list:
        """Correct entry `index` (one the person entered) to `action`: the game is replayed
        from there; later entries are kept where they still fit. Returns the entries that
        no longer fit (dropped), as (index, player, words)."""
        self.correctable(index)
        state, kept, dropped = self._replaced(index, action)
        # Only the dropped entries are named: their words from the game before the fix.
        place = {id(e): i for i, e in enumerate(self.entries)}
        named = [(place[id(e)], e.player, self._words(e)) for e in dropped]
        self.state, self.entries = state, kept
        return named

    def correctable(self, index: int):
        """Refuse (EntryRefused) a correction of entry `index`: one that is not there, is
        before the start, or is hidden from the person."""
        self.refuse_before_start(index)
        if not 0 <= index < len(self.entries):
            raise EntryRefused(f"there is no entry {index + 1} (entries 1 to {len(self.entries)})")
        if not self.entries[index].entered:
            raise EntryRefused(f"entry {index + 1} is hidden from you: it is entered when it is shown")

    def state_before(self, index: int):
        """The game as it stood before entry `index` (the entries replayed from the start;
        `index` the number of entries: the game now)."""
        for i, (_, state) in enumerate(self._replayed()):
            if i == index:
                return state
        raise IndexError(f"entry {index}: the game has {len(self.entries)} entries")

    def _replayed(self):
        """Each entry with the game as it stood before it, (entry, state), then (None, the
        game after the last one): one replay, the same state carried on."""
        state = self.start.clone()
        for e in self.entries:
            yield e, state
            state.apply_action(e.action)
        yield None, state

    def _why_at(self, state, action: int) -> str:
        if state.is_chance_node():
            return "not possible: that cannot come up there"
        try:
            return f"not possible: {core_of(state).illegal_message(int(action))}"
        except (OverflowError, ValueError, TypeError):
            return f"not possible: action {action} is not a move of this game"

    def _words(self, e: Entry) -> str:
        """An entry's words (replayed to it: the words depend on the state)."""
        i = next((k for k, x in enumerate(self.entries) if x is e), None)
        if i is None:
            return f"action {e.action}"
        return self.state_before(i).action_to_string(e.player, e.action)

    def entry_lines(self, first: int = 0) -> list[tuple[int, str | None, list[str]]]:
        """Each entry from `first` on as the person knows it, from one replay of the game:
        (player, its words or None for a placeholder, its rule notes). The notes are what
        the game's automa did by a rule there (its planning card arrow by arrow, the
        markers it passed or received, the patronage card it took), the lines play's log
        gives (the view's chance_note and automa_note) but for one that only repeats the
        entry's words; none for an entry the person has not seen."""
        view = self.printing_game.view
        out: list[tuple[int, str | None, list[str]]] = []
        for i, (e, state) in enumerate(self._replayed()):
            if e is None or i < first:
                continue
            if not e.entered:
                out.append((e.player, None, []))
                continue
            core = core_of(state)
            words = state.action_to_string(e.player, e.action)
            lines = (view.chance_note(core, e.action, words) or "").split("\n") if core.is_chance() else []
            lines += (view.automa_note(core, e.action) or "").split("\n")
            out.append((e.player, words, [line for line in lines if line and line != f"automa: {words}"]))
        return out

    def rule_notes(self, first: int = 0) -> list[list[str]]:
        """For each entry from `first` on: its rule notes (entry_lines)."""
        return [notes for _, _, notes in self.entry_lines(first)]

    def options_at(self, index: int) -> dict:
        """What entry `index` could have been (a reveal, a correction): action -> words."""
        state = self.state_before(index)
        player = state.current_player()
        return {a: state.action_to_string(player, a) for a in outcomes(state)}

    # -- hints --------------------------------------------------------------------------
    def not_to_move(self, player: int) -> str:
        """Why there is no hint for `player` (a seat, not the one to act at this decision),
        in the table's words: the person is "you"."""
        to_act = self.state.current_player()
        if player == self.seat:
            return f"it is not your decision: {self.name(to_act)} is to move"
        if to_act == self.seat:
            return f"{self.name(player)} is not to move now: it is your decision"
        return f"{self.name(player)} is not to move now; {self.name(to_act)} is"

    def hint(self, player: int | None = None, **budget):
        """The hints at the decision now (search.hints.hint), searched from what the person
        knows. For another player to act: one world drawn from the person's information
        (world_for), then the search from that player's information in it."""
        from gutenberg_ai.search.hints import hint
        state = self.state
        pending = self.shown_stand_ins()
        if pending:
            raise EntryRefused(f"{pending}: enter what the table shows first (a hint now would start from a "
                               "stand-in for it)")
        if state.is_terminal() or state.is_chance_node():
            raise EntryRefused("hints are for a player's decision (the table waits for a draw)")
        to_act = state.current_player()
        if player is not None and player != to_act:
            raise EntryRefused(self.not_to_move(player))
        budget.setdefault("seed", self.seed)
        if to_act != self.seat:
            budget.setdefault("returns", games.returns_mode_of(self.game))
            state = self.world_for(budget["seed"])
        return hint(state, **budget)

    def world_for(self, seed: int):
        """One world (a CoreState) drawn from the person's information only, for a hint at
        another player's decision: the core's own redraw of what the person has not seen,
        the one the search makes every iteration, which deals from a canonical order of
        the unseen pool, so the placeholders do not show through (the same world on the
        real table); seeded by the hint's seed and the entry count."""
        core = core_of(self.state)
        redraw = core.resample_plans if hasattr(core, "resample_plans") else core.determinize
        return redraw(self.seat, random.Random(f"gutenberg-table-hint/{seed}/{len(self.entries)}").getrandbits(63))

    def written_names(self) -> list:
        """The names a position file of this game writes: None for a seat without one
        ("player K", and the person's "you")."""
        return [None if name in (f"player {s}", "you", PERSON) else name for s, name in enumerate(self.names)]

    def _own_name(self) -> str:
        """The person's seat in the record: the name they gave, else PERSON."""
        return self.written_names()[self.seat] or PERSON

    # -- the record ---------------------------------------------------------------------
    def record(self) -> GameRecord:
        # The person's seat by the name they gave, if any (kept for --resume and a position).
        seats = [seat_entry(s, self._own_name() if s == self.seat else self.names[s]) for s in range(len(self.names))]
        record = GameRecord(self.game, None, seats, command="table",
                            extra={**self._start_extra(), "table_seed": self.seed})
        state = self.start.clone()
        for e in self.entries:
            record.add(state, e.action)
            state.apply_action(e.action)
        record.finish(state)
        return record

    def _start_extra(self) -> dict:
        """The record's "start": the hidden facts of the start as this world deals them
        (records.start_state reads it), when a redraw changed them."""
        lines = start_lines(self.start)
        return {"start": lines} if lines else {}

    def to_dict(self) -> dict:
        """What the person has seen, as a record (records.GameRecord with a viewer): the
        placeholders hidden, those shown but not entered yet too."""
        data = self.record().to_dict(viewer=self.seat, state=self.state)
        for i, e in enumerate(self.entries):
            if not e.entered and "hidden" not in data["actions"][i]:
                data["actions"][i] = {"player": e.player, "by": data["actions"][i]["by"], "hidden": True}
        if self.hidden_count():
            data["result"], data["finished"] = None, False
        return data

    def save(self, path):
        write_json(path, self.to_dict())


def resume(path, seed: int | None = None) -> FollowedGame:
    """The followed game of a record saved by `table` (or by `play` with a viewer): what
    the person had not seen filled with placeholders that fit it (records.fill_hidden).
    `seed` (the stand-ins' and the hints'): the one given, else the record's
    ("table_seed"), else 0."""
    from gutenberg_ai.games.records import RecordError, fill_hidden, game_of, load_record, replay, start_state
    record = load_record(path, "table")
    seat = record.get("viewer")
    if seat is None:
        raise RecordError(record.get("_source", str(path)), "viewer",
                          "missing: a followed game is a record of what one person has seen")
    # Checked as replay checks a record (each entry's player, legality and text), so a
    # wrong entry is named at its place in the file before anything is followed.
    replay(record)
    if seed is None:
        seed = record.get("table_seed") or 0
    game = game_of(record)
    start = start_state(record, game)
    entries, _ = fill_hidden(record, game, seed, start)
    names = [f"player {s}" for s in range(game.num_players())]
    for e in record["seats"]:
        # The person by the name they gave (a table's save keeps it), else "you".
        names[e["seat"]] = e["player"] if e["seat"] != seat or e["player"] not in (PERSON, "human") else "you"
    for s, name in enumerate(names):
        # A record of play names its seats by their bots ("smmcts" twice): the table
        # tells seats apart by name, so a name it cannot take (each of a name shared) is
        # qualified by its seat.
        if s != seat and (names.count(name) > 1 or seat_name_problem(names, s, seat)):
            names[s] = f"player {s} ({name})"
    followed = FollowedGame(game, seat, seed, names,
                            [(e["player"], e["action"], not e.get("filled")) for e in entries], start)
    followed.resumed_from = record.get("command")
    followed.saved_seed = record.get("table_seed")
    return followed
