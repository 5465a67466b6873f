"""What the server holds for the page: games being played (WebGame, over play.Session)
and records being reviewed (Review), each in a bounded store that drops idle entries.

Nothing here knows a game's rules: a game is played through play.Session (next_turn,
human_move, think, apply_move, undo), drawn through its view (web_board, move_text,
typed_move, score_rows, verdict), hinted through hints.hint, reviewed through
records.load_record and replay, and positions go through positionfile.load_position.
"""
from __future__ import annotations

import io
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyspiel
from fastapi import HTTPException
from rich.console import Console

from gutenberg_ai import games
from gutenberg_ai.interfaces.entries import EntryRefused, find_entry
from gutenberg_ai.interfaces import tui
from gutenberg_ai.games import core_of
from gutenberg_ai.games.records import CHANCE, GameRecord, fill_hidden, game_of, replay

if TYPE_CHECKING:
    from gutenberg_ai.interfaces.web.searches import Job


@dataclass
class Limits:
    """What one server allows (docs/web.md, "Limits")."""
    max_games: int = 32            # games held at once, all pages together (then 503)
    max_records: int = 32          # records held for review, all pages together
    games_per_page: int = 4        # one page's games (its least recently used idle one goes)
    records_per_page: int = 8      # one page's records
    idle_seconds: float = 1800.0   # a game or record untouched this long is dropped
    workers: int = 2               # searches at once
    max_waiting: int = 8           # searches queued beyond those (then 503)
    max_ai_seconds: float = 30.0   # an AI seat's time a move
    max_hint_seconds: float = 60.0
    max_iterations: int = 200_000  # an iteration budget
    max_nodes: int = 400_000       # a search tree's node pool (its memory: docs/web.md)
    max_upload_bytes: int = 1 << 20   # a position file or record sent by the page
    review_points: int = 40        # searches over a reviewed game for its chart
    review_iterations: int = 300   # each
    review_seconds: float = 1.5    # each at most (40 points: a minute)
    heartbeat: float = 3.0         # a search whose stream is not read this long stops


class Store:
    """Entries by a random id, each belonging to the page that added it (its cookie,
    app.PageCookie): at most `per_page` a page, the page's least recently used idle one
    dropped first, and at most `limit` in all, beyond which a new one is refused (503)
    rather than another page's dropped. Any untouched for `idle` seconds is dropped. A
    page sees only its own: another's id is unknown to it (404)."""

    def __init__(self, limit: int, per_page: int, idle: float, what: str):
        self.limit, self.per_page, self.idle, self.what = limit, per_page, idle, what
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def add(self, entry, page: str) -> str:
        with self.lock:
            self._sweep()
            mine = [k for k, e in self.items.items() if e.page == page]
            if len(mine) >= self.per_page:
                idle = next((k for k in mine if not self.items[k].busy), None)
                if idle is None:
                    raise HTTPException(503, f"this page holds {self.per_page} {self.what}s, all busy: "
                                             "try again in a moment")
                del self.items[idle]
            elif len(self.items) >= self.limit:
                raise HTTPException(503, f"the server holds {self.limit} {self.what}s of its pages: "
                                         "try again later")
            key = secrets.token_urlsafe(12)
            entry.id, entry.page = key, page
            entry.touched = time.monotonic()
            self.items[key] = entry
            return key

    def get(self, key: str, page: str):
        with self.lock:
            self._sweep()
            entry = self.items.get(key)
            if entry is None or not secrets.compare_digest(entry.page, page):
                raise HTTPException(404, f"no such {self.what} (it may have been idle too long and dropped)")
            entry.touched = time.monotonic()
            self.items.move_to_end(key)
            return entry

    def drop(self, key: str, page: str):
        with self.lock:
            entry = self.items.get(key)
            if entry is not None and secrets.compare_digest(entry.page, page):
                del self.items[key]

    def values(self, page: str):
        with self.lock:
            self._sweep()
            return [e for e in self.items.values() if secrets.compare_digest(e.page, page)]

    def sweep(self):
        with self.lock:
            self._sweep()

    def _sweep(self):
        now = time.monotonic()
        for key in [k for k, e in self.items.items() if not e.busy and now - e.touched > self.idle]:
            del self.items[key]


def text_view(core, viewer: int, seat_names) -> str:
    """The game's terminal table as plain text: the page's board for a game whose view
    has no web_board yet."""
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(tui.game_view(core, viewer, seat_names))
    return console.export_text()


def board_of(core, viewer: int, seat_names) -> dict:
    """The table for the page: the game's web_board, else its terminal table as text."""
    view = games.of(core).view
    if hasattr(view, "web_board"):
        return view.web_board(core, viewer, seat_names)
    return {"heading": core.step_name(), "sections": [], "text": text_view(core, viewer, seat_names)}


def score_sheet(core, seat_names) -> dict:
    """The final score sheet in the game's own columns (its view's score_rows)."""
    view = games.of(core).view
    return {"rows": view.score_rows(core), "verdict": view.verdict(core, seat_names)}


# ---------------------------------------------------------------------------------------
# A game being played
# ---------------------------------------------------------------------------------------
class NotNow(ValueError):
    """A request the game cannot take in its present state (409)."""


class Held:
    """A game the page drives, held in a Store: one thing at a time changes it (its lock;
    busy while held), its search under way (job), for the stop endpoint, and what the
    game was when that search began (frozen), which the looks that change nothing (the
    view, a download, the log) get meanwhile. `version` goes up with every change (a
    move, an undo, an entry, a correction), so a request made on an older view is told
    from one made on this one, even where the change left as many actions or entries as
    before (an undo then another move, a correction)."""

    id: str              # set by the Store that holds it, with page and touched
    page: str
    touched: float

    def __init__(self, limits: Limits):
        self.limits = limits
        self.busy = False
        self.lock = threading.Lock()
        self.job: Job | None = None
        self.frozen: Frozen | None = None
        self.version = 0

    def changed(self):
        """The game changed (held): a view from before is an older view."""
        self.version += 1

    def view(self, since: int = 0) -> dict:
        raise NotImplementedError

    def parts(self, copied: bool = False):
        """What the downloads and the log are made of (the game's own, or `copied`: kept
        as they are now whatever the game does next)."""
        raise NotImplementedError

    def freeze(self) -> None:
        """A search begins (held): keep the game as it is now for the looks meanwhile."""
        self.frozen = Frozen(self.view(), self.parts(copied=True))

    def thaw(self) -> None:
        """The search has ended (still held)."""
        self.frozen = None

    def stop(self) -> bool:
        """Stop the search under way, if any (it ends at its next slice); whether there was one."""
        job = self.job
        if job is not None:
            job.cancel.set()
        return job is not None


class Frozen:
    """A held game as a search found it, for the looks that change nothing while the
    search runs: the view then, and the parts the downloads and the log are made of,
    copied (an AI's search plays its move before it ends), each look made once, on
    demand."""

    def __init__(self, shown: dict, parts):
        self.shown = shown
        self.parts = parts
        self._made: dict = {}
        self._lock = threading.Lock()   # a second request for a look waits for the first's

    def view(self, since: int = 0) -> dict:
        """The view as it was when the search began, marked `searching`, with the events
        numbered from `since`."""
        out = dict(self.shown, searching=True)
        if "events" in out:
            out["events"] = [e for e in out["events"] if e["n"] >= since]
        return out

    def made(self, name, make):
        """make(parts), once for each name."""
        with self._lock:
            if name not in self._made:
                self._made[name] = make(self.parts)
            return self._made[name]


class WebGame(Held):
    """A play.Session driven by the page: what the terminal prints is collected as
    events, an AI move is one search the page asks for (advance), the person's moves
    come as actions or typed numbers."""

    MAX_EVENTS = 400     # the last events kept (a game has a few hundred)

    def __init__(self, session, limits: Limits):
        super().__init__(limits)
        self.session = session
        self.events: list[dict] = []
        self.seen = 0                       # events numbered from the first
        session.say = self._say
        for bot in session.bots.values():   # the server's bound on a tree's memory
            if hasattr(bot, "progress"):
                bot.options["max_nodes"] = min(bot.options.get("max_nodes", limits.max_nodes), limits.max_nodes)
                if bot.iterations is not None:   # an iteration budget is bounded in time too
                    bot.seconds = limits.max_ai_seconds
        with self.lock:
            self.play_free()

    def _say(self, text: str, style: str = "", why: dict | None = None):
        event = {"n": self.seen, "text": text, "style": style}
        if why is not None:      # what an AI move weighed (hints.Hints.as_dict, a title): the Why? list
            event["why"] = why
        self.events.append(event)
        self.seen += 1
        del self.events[:-self.MAX_EVENTS]

    @property
    def game(self):
        return self.session.game

    def play_free(self):
        """Play what needs no decision (draws, moves the position gives, the person's
        only move) up to an AI seat's or the person's decision, or the end."""
        s = self.session
        while True:
            kind, value = s.next_turn()
            if kind == "chance":
                s.apply_move(value)
            elif kind == "preset":
                s.apply_move(value, preset=True)
            elif kind == "human" and len(s.state.legal_actions()) == 1:
                action = s.state.legal_actions()[0]
                s._flush_draws()
                self._say(f"you: {self.move_words(action)} (the only move)", "cyan")
                s.human_move(action)
            else:
                break
        s._flush_draws()

    def move_words(self, action: int) -> str:
        s = self.session
        return tui.move_text(core_of(s.state), action, s.state.action_to_string(s.state.current_player(), action))

    def turn(self) -> str:
        return self.session.next_turn()[0]

    def advance(self, job) -> dict:
        """One AI move (a search, stopped by the job) and what follows it up to the next
        decision; the game's view after it. Run in a worker."""
        s = self.session
        kind, seat = s.next_turn()
        if kind == "ai":
            bot = s.bots[seat]
            if hasattr(bot, "progress"):
                bot.progress = job.progress
            try:
                job.check()
                action = s.think(seat)
            finally:
                if hasattr(bot, "progress"):
                    bot.progress = None
            s.apply_move(action)
            self.changed()
        self.play_free()
        return self.view()

    def human(self, action: int | None = None, numbers=None) -> dict:
        """The person's move: an action, or numbers as the game's view reads them (a plan
        as five numbers, a row and a column)."""
        s = self.session
        kind, _ = s.next_turn()
        if kind != "human":
            raise NotNow("it is not your decision" if kind != "end" else "the game is over")
        legal = s.state.legal_actions()
        if numbers is not None:
            action = games.of(self.game).view.typed_move(core_of(s.state), list(numbers), legal)
            if action is None:
                raise ValueError(f"numbers {' '.join(str(n) for n in numbers)}: no move here is written so")
        if action is None or action not in legal:
            raise ValueError(f"move {action} is not legal here")
        self._say(f"you: {self.move_words(action)}", "cyan")
        s.human_move(action)
        self.changed()
        self.play_free()
        return self.view()

    def undo(self) -> dict:
        if self.session.next_turn()[0] == "end":     # the result is final, as for a move
            raise NotNow("the game is over: there is no decision to go back to")
        self.session._undo()
        self.changed()
        self.play_free()
        return self.view()

    def view(self, since: int = 0) -> dict:
        """The game as the person sees it: the board, the moves if it is their decision,
        what happened (events numbered from `since`), the score sheet at the end."""
        s = self.session
        core = core_of(s.state)
        kind, who = s.next_turn()
        g = games.of(self.game)
        out = {"id": self.id, "game": g.key, "title": g.title, "score_word": g.score_word,
               "seat": s.human, "labels": s.labels, "players": self.game.num_players(), "seed": s.settings.seed,
               "status": kind, "to_act": who if kind in ("ai", "human") else None,
               "step": core.step_name(), "can_undo": bool(s.decisions) and kind != "end",
               "actions": len(s.record.actions), "version": self.version,
               "board": board_of(core, s.human, s.labels),
               "events": [e for e in self.events if e["n"] >= since], "moves": []}
        if kind == "human":
            legal = s.state.legal_actions()
            out["moves"] = [{"action": a, "text": self.move_words(a)} for a in legal]
        if kind == "end":
            out["scores"] = score_sheet(core, s.labels)
        return out

    def parts(self, copied: bool = False) -> Played:
        s = self.session
        if copied:
            return Played(s.record.copy(), s.state.clone(), s.human)
        return Played(s.record, s.state, s.human)


@dataclass(frozen=True)
class Played:
    """What a played game's downloads are made of: its record, the state its actions led
    to, and the person's seat."""
    record: GameRecord
    state: pyspiel.State
    seat: int

    def record_data(self, full: bool) -> dict:
        """The record, whole (`full`) or as the person has seen it."""
        return self.record.to_dict() if full else self.record.to_dict(viewer=self.seat, state=self.state)

    def position(self) -> dict:
        """The position the person is at, as a position file writes it (the state as
        played: its moves, for some games)."""
        return games.of(self.state).positions.position_of(self.state, viewer=self.seat)


# ---------------------------------------------------------------------------------------
# A game followed at a real table
# ---------------------------------------------------------------------------------------
class WebTable(Held):
    """A game followed at a real table (table.FollowedGame) driven by the page, as the
    terminal loop drives it (table_terminal.TableSession, whose words it shares): what the
    person does not see gets its placeholder at once, everything else waits for an entry.
    The menu of a state is drawn once and kept until the game changes, so an entry by
    its number names the action the page showed."""

    def __init__(self, followed, limits: Limits):
        from gutenberg_ai.interfaces.table_terminal import TableSession
        super().__init__(limits)
        self.followed = followed
        self.words = TableSession(followed, Console(file=io.StringIO()), read_line=no_reading)
        self._menu: tuple = ((), {})
        self.settle()

    @property
    def labels(self) -> list:
        return self.words.names

    def turn(self) -> str:
        return self.followed.next_turn()[0]

    def settle(self):
        """A placeholder for each draw or move the person does not see, up to what they
        enter (or the end)."""
        while self.followed.next_turn()[0] == "unseen":
            self.followed.place_unseen()

    def menu(self) -> dict:
        """What can be entered now, action -> words (a reveal: what the entry shown could be)."""
        f = self.followed
        key = (tuple(f.entries), f.next_turn())
        if self._menu[0] != key:
            kind, value = key[1]
            options = {} if kind == "end" else f.options_at(value) if kind == "reveal" else f.options()
            self._menu = (key, options)
        return self._menu[1]

    def find(self, options: dict, action=None, number=None, text=None, now=True) -> int:
        """The entry a request names among `options`: an action id, a number of the menu,
        or words (the game's words, a card by what it shows: entries.find_entry);
        `now`: the options are the present state's (numbers may name a move as the game's
        view reads them)."""
        if action is not None:
            if action not in options:
                raise EntryRefused(f"not possible: action {action} is not among what can be entered now")
            return action
        line = str(number) if number is not None else text
        core = core_of(self.followed.state) if now else None
        return find_entry(line, options, core, self.words.view, self.words.cards)

    def enter(self, **named) -> dict:
        kind, _ = self.followed.next_turn()
        if kind in ("reveal", "end"):
            raise NotNow("a hidden entry is shown now: enter it first (reveal)" if kind == "reveal"
                         else "the game is over")
        self.followed.enter(self.find(self.menu(), **named))
        self.changed()
        self.settle()
        return self.view()

    def reveal(self, entry: int, **named) -> dict:
        f = self.followed
        f.refuse_before_start(entry - 1)
        if entry - 1 not in f.reveals():
            raise NotNow(f"entry {entry} is not a hidden entry shown now")
        f.reveal(entry - 1, self.find(f.options_at(entry - 1), now=False, **named))
        self.changed()
        self.settle()
        return self.view()

    def fix(self, entry: int, **named) -> dict:
        """Correct entry `entry` (1 the first); the game replayed from there. The view,
        with the entries that no longer fit named."""
        f = self.followed
        f.correctable(entry - 1)
        action = self.find(f.options_at(entry - 1), now=False, **named)
        dropped = f.fix(entry - 1, action)
        self.changed()
        self.settle()
        out = self.view()
        out["dropped"] = [{"entry": k + 1, "player": p, "who": self._who(p), "text": w} for k, p, w in dropped]
        return out

    def _who(self, player: int) -> str:
        return "chance" if player == CHANCE else self.labels[player]

    def log(self) -> list:
        """Every entry as the person knows it (text None: not seen), with `notes`: what
        the automa did there by a rule (FollowedGame.entry_lines: one replay)."""
        return [{"entry": i + 1, "player": p, "who": self._who(p), "text": words, "notes": notes}
                for i, (p, words, notes) in enumerate(self.followed.entry_lines())]

    def record_data(self) -> dict:
        """What the person has seen, as a record (`gutenberg-ai table --resume` reads it)."""
        return self.followed.to_dict()

    def parts(self, copied: bool = False) -> WebTable | Followed:
        # A hint changes nothing of the game, but a look may outlast it and meet the next
        # entry: a copy is the record and the log made now (some 10 ms late in a game).
        return Followed(self.record_data(), self.log()) if copied else self

    def view(self, since: int = 0) -> dict:
        """The game as the person sees it: what it waits for in words, the board from their
        seat, the menu of possible entries, the score sheet at the end."""
        f = self.followed
        kind, value = f.next_turn()
        core = core_of(f.state)
        g = f.printing_game
        out = {"id": self.id, "game": g.key, "title": g.title, "score_word": g.score_word, "seat": f.seat,
               "seed": f.seed, "labels": self.labels, "players": f.game.num_players(), "status": kind,
               "to_act": value if kind in ("own", "move") else None,
               "reveal": value + 1 if kind == "reveal" else None,
               "waits_for": "the end of the game" if kind == "end" else self.words.question(kind, value).strip(),
               "step": core.step_name(), "entries": len(f.entries), "version": self.version,
               "hidden": f.hidden_count(),
               "board": board_of(core, f.seat, self.labels),
               "options": [{"number": i + 1, "action": a, "text": t} for i, (a, t) in enumerate(self.menu().items())]}
        if kind == "end":
            out["scores"] = score_sheet(core, self.labels)
        return out


@dataclass(frozen=True)
class Followed:
    """A followed game's record and log as they were (WebTable.parts copied)."""
    record: dict
    entries: list

    def record_data(self) -> dict:
        return self.record

    def log(self) -> list:
        return self.entries


def no_reading(prompt):
    raise EOFError("the web page's games read no terminal")


# ---------------------------------------------------------------------------------------
# A record being reviewed
# ---------------------------------------------------------------------------------------
class Review:
    """A checked record (records.load_record, then replayed to its end by
    records.replay, which checks every action and the result), its actions as replayed
    (a viewer's hidden entries filled as replay fills them), and the win chances of its
    chart once computed."""

    id: str              # set by the Store that holds it, with page and touched
    page: str
    touched: float

    def __init__(self, record: dict, title: str):
        self.busy = False
        self.record = record
        self.title = title
        self.game = game_of(record)
        self.viewer = record.get("viewer")
        played = []
        replay(record, on_action=lambda i, state, entry: played.append(
            {"player": entry["player"], "action": entry["action"],
             "text": state.action_to_string(entry["player"], entry["action"]),
             "hidden": bool(entry.get("filled"))}))
        self.actions = played
        self.chances: dict | None = None
        labels = {e["seat"]: f"player {e['seat']} ({e['player']})" for e in record["seats"]}
        self.labels = [labels.get(seat, f"player {seat}") for seat in range(self.game.num_players())]

    def summary(self) -> dict:
        g = games.of(self.game)
        steps = [i for i, a in enumerate(self.actions) if a["player"] != CHANCE]
        return {"id": self.id, "title": self.title, "game": g.key, "game_title": g.title,
                "labels": self.labels, "viewer": self.viewer, "actions": len(self.actions),
                "moves": [{"index": i, "player": self.actions[i]["player"],
                           "text": ("a move you did not see" if self.actions[i]["hidden"] else self.actions[i]["text"])}
                          for i in steps],
                "finished": self.record.get("result") is not None, "chances": self.chances,
                "score_word": g.score_word}

    def state_at(self, n: int):
        state = self.game.new_initial_state()
        for entry in self.actions[:n]:
            state.apply_action(entry["action"])
        return state

    def board(self, n: int) -> dict:
        if not 0 <= n <= len(self.actions):
            raise ValueError(f"to: {n} is not between 0 and {len(self.actions)} (the record's actions)")
        state = self.state_at(n)
        core = core_of(state)
        viewer = -1 if self.viewer is None else self.viewer
        out = {"to": n, "step": core.step_name(), "board": board_of(core, viewer, self.labels),
               "last": self.actions[n - 1]["text"] if n else None}
        if state.is_terminal():
            out["scores"] = score_sheet(core, self.labels)
        return out

    def points(self, count: int) -> list[int]:
        """The action indices the chart searches at: `count` decisions spread evenly."""
        steps = [i for i, a in enumerate(self.actions) if a["player"] != CHANCE]
        if len(steps) <= count:
            return steps
        return [steps[round(k * (len(steps) - 1) / (count - 1))] for k in range(count)]

    def compute_chances(self, job, count: int, iterations: int, seconds: float, max_nodes: int) -> dict:
        """Each player's chance to win (solo: the expected final score) at `count`
        decisions spread over the game, by a search of `iterations` (at most `seconds`)
        from each (the best
        move's means for every seat), and at the end the result."""
        core_module = games.of(self.game).core
        solo = self.game.num_players() == 1
        points = self.points(count)
        state = self.game.new_initial_state()
        out = []
        at = 0
        for k, n in enumerate(points):
            job.check()
            while at < n:
                state.apply_action(self.actions[at]["action"])
                at += 1
            core = core_of(state)
            with games.searching(core_module):
                result = core_module.search(core, "smmcts", iterations=iterations, seconds=seconds, seed=n,
                                            returns="score" if solo else "win", max_nodes=max_nodes,
                                            progress=lambda *_: job.check())
            best = result["moves"][0]
            values = best["fame" if solo else "win"][:self.game.num_players()]
            out.append({"to": n, "values": [round(v, 3) for v in values]})
            job.post("progress", iterations=result["iterations"], seconds=0, done=k + 1, of=len(points),
                     point=out[-1])
        final = self.state_at(len(self.actions))
        if final.is_terminal():
            core = core_of(final)
            if solo:
                values = [float(core.final_scores()[0])]
            else:
                winners = core.winners()
                values = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.game.num_players())]
            out.append({"to": len(self.actions), "values": values})
        self.chances = {"measure": f"expected {games.of(self.game).score_word}" if solo else "chance to win",
                        "iterations": iterations, "points": out}
        return self.chances


def review_of_game(game: WebGame) -> Review:
    """A finished or ongoing web game as a record to review: the whole record once it is
    over, before that what the person has seen."""
    s = game.session
    over = s.state.is_terminal()
    record = s.record.to_dict() if over else s.record.to_dict(viewer=s.human, state=s.state)
    from gutenberg_ai.games.records import load_record
    return Review(load_record(record), f"{games.of(game.game).title}: your game "
                  f"({len(record['actions'])} actions{'' if over else ', so far'})")


__all__ = ["Held", "Limits", "Review", "Store", "WebGame", "WebTable", "board_of", "fill_hidden", "no_reading",
           "review_of_game"]
