"""`gutenberg-ai play`: a game in the terminal, one person against AI opponents, for every
game of the games table.

The session shows the table as the person sees it (the game's decision view through
gutenberg_ai.interfaces.tui: what the decision is about, their own holdings in full, the others in
a line or two each; it fits a 100x40 terminal), asks for a move by its number in a menu
written in the game's words (or by those words: entries.find_entry), and lets the AI seats move with a progress indicator.
Commands at the prompt: a move number, or what the game's view lets a person type
instead (Gutenberg: a plan as five numbers; Printing Press: a row and a column);
`hint [SECONDS]`, `undo`, `board`, `moves`, `save FILE`, `save --full FILE`,
`save-position FILE`, `help [TOPIC]` (the game's topics), `quit`. Nothing typed ends in a traceback: a typo gets a
message saying what would work. At a terminal the prompt has line editing and history
(readline), and what was typed while the AI was thinking is thrown away, not played.

Chance is drawn with the seed (records.draw_chance: a function of the seed and the move
number), and the AI seats are seeded from it, so the same seed and the same moves give
the same game (exactly so with an iteration budget; a time budget depends on the
machine). `undo` goes back to the person's previous decision by replaying the record up
to it, which draws the same cards again.

`save FILE` writes what the person has seen (records.GameRecord.to_dict with a viewer:
what the core hides from them, e.g. the AI's plan committed this plan step, stays
hidden, and the seeds are left out); `save --full FILE` writes everything. A game continues from
either with `gutenberg-ai play --resume FILE` (records.fill_hidden fills what was
hidden; the hidden plans at its end are chosen again).
"""
from __future__ import annotations

import re
import shlex
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import pyspiel
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from gutenberg_ai import games
from gutenberg_ai.common.jsonfile import plain_text
from gutenberg_ai.interfaces import tui
from gutenberg_ai.interfaces.choices import RECORD_FILES, UsageError, check_output, position_files
from gutenberg_ai.interfaces.entries import NothingNamed, find_entry
from gutenberg_ai.search.bots import HINT_TOP, budget_options, make_bot
from gutenberg_ai.games.seen import OTHERS_HIDDEN, seen_hints
from gutenberg_ai.search.hints import Hints, weighed
from gutenberg_ai.games import core_of
from gutenberg_ai.games.positionfile import PositionError
from gutenberg_ai.games.records import CHANCE, GameRecord, draw_chance, seat_entry

_UNDONE = object()   # what the menu returns when undo went back to an earlier decision
_ALONE = ("undo", "board", "moves", "list", "quit", "exit")   # commands that take no words
DRAWS_SHOWN = 6      # a deal of more draws is summed up in a line
SCREEN_LINES = 40    # the height a decision is fitted to when the output is not a terminal
# What `play` says of an AI seat whose bot keeps no search (hints.weighed is None).
NOT_SEARCHED = "plays without a search of ours, so it has no chances weighed to show"

HELP_COMMANDS = """\
[bold]Commands[/bold]
  [green]hint[/green] [SECONDS]         the best moves by a search, with win chances and how sure they are
  [green]why[/green] [N]                what the AI weighed for its last move (N: its N-th), without searching again
  [green]undo[/green]                   back to your previous decision
  [green]board[/green]                  the whole table (the screen at a decision shows what the decision is about)
  [green]moves[/green]                  list every legal move
  [green]save[/green] FILE              write the game as you have seen it (continue it: gutenberg-ai play --resume FILE)
  [green]save --full[/green] FILE       write the whole game record, what you have not seen included
  [green]save-position[/green] FILE     write this position, for gutenberg-ai hint
{topics}  [green]quit[/green]                   leave the game
Line editing and history (arrow keys) work at the prompt; Ctrl-C stops a hint, or leaves."""


def help_text(view) -> str:
    """The help of the prompt: the game's way of typing a move, the commands, the game's
    help topics."""
    topics = "".join(f"  [green]help {name}[/green]{' ' * max(1, 18 - len(name))}{what}\n"
                     for name, (what, _) in view.HELP_TOPICS.items())
    return view.HELP_MOVES + "\n\n" + HELP_COMMANDS.format(topics=topics)


@dataclass
class Settings:
    """What `gutenberg-ai play` was asked for."""
    human: int = 0
    ai: tuple = ("smmcts",)
    seconds: float | None = 3.0
    iterations: int | None = None
    seed: int = 0
    save: str | None = None
    # Moves a position file gives for seats after one it hides (Gutenberg: the plans
    # after the first hidden one): (seat, preset), played for them when their turn comes
    # (the game's position_start and preset_action).
    presets: list = field(default_factory=list)
    # The players' names a position file gives (None where it gives none): an AI seat
    # is shown by its name, with its bot.
    names: tuple = ()


class Quit(Exception):
    """The person left (quit, end of input, Ctrl-C)."""

    def __init__(self, code: int, why: str):
        super().__init__(why)
        self.code = code


def read_bounded(read_line, prompt: str, console, echo: str | None = None) -> str:
    """A line typed at `prompt` (read_line(prompt)), at most tui.MAX_LINE characters: a
    longer one is said and asked for again; `echo` (not None: a scripted session) is
    printed before the line, which is shown with its escape codes written out. Quit at
    the end of the input."""
    while True:
        try:
            line = read_line(prompt)
        except EOFError:
            raise Quit(1, "The input ended before the game did.") from None
        if echo is not None:
            console.print(Text(echo + plain_text(line[:tui.MAX_LINE]), style="dim"))
        if len(line) <= tui.MAX_LINE:
            return line
        console.print(Text(tui.too_long(line)))


def file_words(words, command: str, usage: str) -> str:
    """The path a command's words name (a path may hold spaces); a word that reads as an
    option (--full) is refused, not taken into the file's name ("save game.json --full"
    wrote a file called that, and not in full)."""
    option = next((w for w in words if w.startswith("--")), None)
    if option:
        raise ValueError(f"{command}: {option} is not an option here ({usage})")
    return " ".join(words)


def save_seen_position(printing_game, state, seat: int, rest, command: str, instead: str,
                       names=None) -> Text:
    """Write what `seat` knows of `state` as a position file (the path: the words of
    `rest`; `names`: the players', None where a seat has none), for `gutenberg-ai hint
    FILE`; the line saying so. ValueError names `command` and why not (a decision the
    game's position format does not hold: `instead` says what to do; a file that cannot
    be written)."""
    if not rest:
        raise ValueError(f"{command} FILE: name the file, e.g. {command} table.json")
    path = file_words(rest, command, f"{command} FILE")
    # What the person may know: what the core hides from them stays hidden. The
    # state as played (a game whose position is its moves needs them).
    try:
        check_output(path, command, replaces=position_files())
        printing_game.positions.save_position(state, path, names=names, viewer=seat)
    except UsageError as e:
        raise ValueError(str(e)) from None
    except PositionError as e:
        raise ValueError(f"{command}: not here: {e.reason} ({instead})") from None
    except OSError as e:
        raise ValueError(f"{command}: {path}: {e.strerror or e}") from None
    return Text(f"Saved this position to {path}; ask for a hint with: gutenberg-ai hint {shlex.quote(path)}")


class Session:
    """A game in the terminal. `start`: record entries (player, action) to play first
    without asking (a game resumed)."""

    def __init__(self, game, settings: Settings, console: Console | None = None, read_line=None, start=()):
        self.game = game
        self.printing_game = games.of(game)
        self.view = self.printing_game.view
        self.cards = self.printing_game.cards if self.printing_game.cards_module else None
        self.settings = settings
        self.console = console or Console()
        self.read_line = read_line or self._read_stdin
        self.tty = read_line is None and sys.stdin.isatty()
        self.echo = read_line is None and not self.tty   # a scripted session shows what it was fed
        n = game.num_players()
        if not 0 <= settings.human < n:
            raise ValueError(f"seat: {settings.human} is out of range (0-{n - 1})")
        self.human = settings.human
        ai_seats = [seat for seat in range(n) if seat != self.human]
        names_ = list(settings.ai)
        if len(names_) == 1:        # one for all (solo: for none)
            names_ = names_ * len(ai_seats)
        elif len(names_) != len(ai_seats):
            raise ValueError(f"ai: {len(names_)} bots named for {len(ai_seats)} AI seats "
                             "(name one for all, or one per seat)")
        self.bots = {}
        seats = [seat_entry(self.human, "human")]
        for seat, name in zip(ai_seats, names_):
            options = budget_options(name, settings.seconds, settings.iterations)
            bot_seed = settings.seed + 1 + seat
            self.bots[seat] = make_bot(name, game, seat, seed=bot_seed, **options)
            seats.append(seat_entry(seat, name, bot_seed, options))
        seats.sort(key=lambda e: e["seat"])
        named = [settings.names[seat] if seat < len(settings.names) else None for seat in range(len(seats))]
        self.labels = [f"you (player {seat})" if seat == self.human else
                       f"{named[seat]} (player {seat}, {e['player']})" if named[seat] else
                       f"player {seat} ({e['player']})" for seat, e in enumerate(seats)]
        # How an expected line names a seat: the person as "you", the others by name or number.
        self.seat_names = ["you" if seat == self.human else named[seat] or f"player {seat}"
                           for seat in range(len(seats))]
        self.record = GameRecord(game, settings.seed, seats, command="play")
        self.state = game.new_initial_state()
        self.decisions: list[int] = []    # record indices of the person's decisions, for undo
        self.drawn: list[str] = []        # chance draws not yet shown
        # The plans the position gives, played in its first plan step (again after an undo).
        self.presets = dict(settings.presets)
        self.preset_round = core_of(self.state).round
        self._weighed: tuple[int, Any] | None = None   # (record index, the AI's hints) of the move to come
        for entry in start:
            if self.state.current_player() == self.human and len(self.state.legal_actions()) > 1:
                self.decisions.append(len(self.record.actions))
            added = self.record.add(self.state, entry["action"])
            if "hints" in entry:     # what an AI move weighed, as the record kept it
                added["hints"] = entry["hints"]
            self.state.apply_action(entry["action"])
        self.record.finish(self.state)

    # -- the game loop ------------------------------------------------------------------
    def next_turn(self):
        """What the game waits for now, as (kind, value): ("end", None); ("chance",
        the draw), ("preset", the move the position gives): played without asking;
        ("ai", seat): an AI seat's search; ("human", seat): the person's decision. The
        terminal's loop below and the web page's (gutenberg_ai.interfaces.web) both ask this."""
        if self.state.is_terminal():
            return "end", None
        player = self.state.current_player()
        if player == CHANCE:
            return "chance", draw_chance(self.state, self.settings.seed)
        preset = self._preset(player)
        if preset is not None:
            return "preset", preset
        return ("ai" if player != self.human else "human"), player

    def human_move(self, action: int):
        """Play the person's `action` (checked legal) as a decision undo goes back to
        (a decision with one legal move is not one)."""
        legal = self.state.legal_actions()
        if self.state.current_player() != self.human:
            raise ValueError("it is not your decision")
        if action not in legal:
            raise ValueError(f"{action} is not a legal move here")
        if len(legal) > 1:
            self.decisions.append(len(self.record.actions))
        self.apply_move(action)

    def say(self, text: str, style: str = "", why: dict | None = None):
        """Tell the person something (what a move did, a draw, an undo): a line in the
        terminal; the web page's session collects them instead, with `why` (what an AI
        move weighed, for the page's Why? control; the terminal has the why command)."""
        self.console.print(Text(text, style=style))

    def run(self) -> int:
        try:
            while True:
                kind, value = self.next_turn()
                if kind == "end":
                    break
                if kind == "chance":
                    self.apply_move(value)
                elif kind == "preset":
                    self.apply_move(value, preset=True)
                elif kind == "ai":
                    self.apply_move(self.think(value))
                else:
                    self.apply_move(self._ask())
        except KeyboardInterrupt:
            self._flush_draws()
            self.console.print(Text("Interrupted.", style="bold"))
            self._save_on_exit()
            return 130
        except Quit as q:
            self._flush_draws()
            self.console.print(Text(str(q), style="bold"))
            self._save_on_exit()
            return q.code
        self._flush_draws()
        self.console.rule("End of the game")
        core = core_of(self.state)
        self.console.print(tui.game_view(core, self.human, self.labels))
        self.console.print(tui.score_table(core, self.labels))
        self._save_on_exit()
        return 0

    def _preset(self, player: int):
        """The move the position gave `player`, if it is theirs to play now."""
        if player not in self.presets or player == CHANCE:
            return None
        return self.printing_game.positions.preset_action(
            core_of(self.state), self.state.legal_actions(), self.presets[player], self.preset_round)

    def apply_move(self, action: int, preset: bool = False):
        player = self.state.current_player()
        before = core_of(self.state) if player == CHANCE else None
        automa = self.view.automa_note(core_of(self.state), action)   # the automa's rule, if its turn comes
        entry = self.record.add(self.state, action)
        if self._weighed is not None and self._weighed[0] == len(self.record.actions) - 1:
            # What the AI seat's search weighed (None: a bot that does not search).
            entry["hints"] = None if self._weighed[1] is None else self._weighed[1].as_dict(seconds=False)
        self._weighed = None
        text = self.state.action_to_string(player, action)
        if player != CHANCE:     # as the menus say it: what the move gives where its words do not
            text = tui.move_text(core_of(self.state), action, text)
        self.state.apply_action(action)
        self.record.finish(self.state)
        note = self.view.chance_note(before, action, text) if before is not None else None
        if note:     # a draw worth its own lines (Gutenberg's automa cards)
            self._say_note(note)
        else:
            self._announce(player, text, preset)
            if entry.get("hints") and not self._hidden(len(self.record.actions) - 1):
                self.say_weighed(len(self.record.actions) - 1)
            elif "hints" in entry and [e["player"] for e in self.record.actions if "hints" in e].count(player) == 1:
                # Once a seat: a bot that does not search has nothing weighed to show.
                self.say(f"  {self.labels[player]} {NOT_SEARCHED}", style="dim")
        if automa:
            self._say_note(automa)

    def _say_note(self, note: str):
        """A rule's note (the automa's draws and choices), a line at a time, after the
        draws said so far."""
        self._flush_draws()
        for line in note.split("\n"):
            self.say(line, style="yellow")

    def _announce(self, player: int, text: str, preset: bool = False):
        """Say what just happened, as the person may know it."""
        history = [(h.player, h.action) for h in self.state.full_history()]
        core = core_of(self.state)
        hidden = core.mask_history(self.human, history)[-1][1] < 0 if history else False
        if player == CHANCE:
            self.drawn.append(self.view.UNSEEN_DRAW if hidden else text)
            return
        self._flush_draws()
        who = self.labels[player]
        if preset:   # the person wrote it in the position: they know it
            self.say(f"{who}: {text} (as the position gives it)", style="yellow")
        elif hidden:
            self.say(f"{who} {self.view.hidden_move_text(core, player)}", style="yellow")
        elif player != self.human:
            self.say(f"{who}: {text}", style="yellow")

    def _flush_draws(self):
        # A deal (setup, a new round) is dozens of draws, and the board shows where they
        # went; a few draws (an order as a reward) are worth reading.
        if len(self.drawn) > DRAWS_SHOWN:
            self.say(f"dealt: {len(self.drawn)} draws (see the board)", style="dim")
        elif self.drawn:
            self.say("drawn: " + "; ".join(self.drawn), style="dim")
        self.drawn = []

    def think(self, player: int) -> int:
        """The AI seat's move, with a progress indicator while it searches; what its
        search weighed goes into the record with the move (apply_move)."""
        bot = self.bots[player]
        if len(self.state.legal_actions()) == 1:
            return self.state.legal_actions()[0]
        self._flush_draws()
        if not self.console.is_terminal:
            action = bot.step(self.state)
        else:
            columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
            with Progress(*columns, console=self.console, transient=True) as progress:
                progress.add_task(f"{self.labels[player]} is thinking", total=None)
                action = bot.step(self.state)
        self._weighed = (len(self.record.actions), weighed(bot))
        return action

    # -- what an AI move weighed ---------------------------------------------------------
    def ai_moves(self) -> list[int]:
        """The record indices of the AI seats' decisions, in order (`why N` is the N-th)."""
        return [i for i, e in enumerate(self.record.actions) if "hints" in e]

    def _hidden(self, index: int) -> bool:
        """Whether the person has not seen the record's `index`-th action (yet)."""
        history = [(e["player"], e["action"]) for e in self.record.actions]
        return core_of(self.state).mask_history(self.human, history)[index][1] < 0

    def _weighed_seen(self, index: int) -> dict:
        """What the record's `index`-th action (an AI move) weighed, as the person may be
        shown it (seen.seen_hints) until the game ends; then all of it."""
        entry = self.record.actions[index]
        if self.state.is_terminal():
            return entry["hints"]
        before = self.game.new_initial_state()
        for e in self.record.actions[:index]:
            before.apply_action(e["action"])
        return seen_hints(before, entry["hints"], entry["action"], self.human)

    def say_weighed(self, index: int):
        """The line after an AI move: its chance to win (solo: the expected score) with
        the interval, and how to see the rest."""
        n = self.ai_moves().index(index) + 1
        entry = self.record.actions[index]
        seen = self._weighed_seen(index)
        hints = Hints.from_dict(seen)
        word = self.printing_game.score_word
        why = {**seen, "title": self._weighed_title(n, index, seen), "solo": self.game.num_players() == 1,
               "score_word": word, "seat_names": self.seat_names}
        self.say(f"  {tui.weighed_line(hints, entry['action'], word)} (why {n}: what it weighed)",
                 style="dim", why=why)

    def _weighed_title(self, n: int, index: int, seen: dict) -> str:
        entry = self.record.actions[index]
        withheld = f"; {OTHERS_HIDDEN}" if seen.get("others_hidden") else ""
        return (f"AI move {n}: {self.labels[entry['player']]} played \"{entry['text']}\"; what it weighed "
                f"({seen['iterations']:,} iterations of search){withheld}")

    def why(self, n: int | None = None):
        """What the AI weighed for its `n`-th move (1-based; None: its last), as a hint
        shows it: (the heading, the Hints), or ValueError saying why there is nothing to
        show. Nothing is searched again: the record keeps it."""
        moves = self.ai_moves()
        if not moves:
            raise ValueError("why: no AI move yet")
        if n is None:
            n = len(moves)
        if not 1 <= n <= len(moves):
            raise ValueError(f"why {n}: the AI moves so far are numbered 1 to {len(moves)}")
        index = moves[n - 1]
        entry = self.record.actions[index]
        who = self.labels[entry["player"]]
        if self._hidden(index):
            raise ValueError(f"why {n}: {who}'s move is hidden from you for now")
        if entry["hints"] is None:
            raise ValueError(f"why {n}: {who} {NOT_SEARCHED} (its move: \"{entry['text']}\")")
        seen = self._weighed_seen(index)
        return self._weighed_title(n, index, seen), Hints.from_dict(seen)

    # -- the person's decision ----------------------------------------------------------
    def _ask(self) -> int:
        """The person's move; commands are answered in between. A decision with one
        legal move is played at once (and is not one undo goes back to)."""
        while True:
            legal = self.state.legal_actions()
            core = core_of(self.state)
            texts = [tui.move_text(core, a, self.state.action_to_string(self.human, a)) for a in legal]
            if len(legal) == 1:
                self._flush_draws()
                self.console.print(Text(f"you: {texts[0]} (the only move)", style="cyan"))
                return legal[0]
            self._show(legal, texts)
            action = self._menu(legal, texts)
            if action is not _UNDONE:
                self.decisions.append(len(self.record.actions))
                return action

    def _menu(self, legal, texts):
        """Read lines until one chooses a move (or undo goes back: _UNDONE)."""
        while True:
            line = self._read("your move> ")
            words = line.split()
            if not words:
                continue
            try:
                action = self._command(words[0].lower(), words[1:], line, legal, texts)
            except (ValueError, OSError, PositionError, pyspiel.SpielError) as e:
                self.console.print(Text(str(e), style="red"))
                continue
            if action is not None:
                return action

    def _command(self, command, rest, line, legal, texts):
        """The move chosen by `line`; None after a command that is not a move."""
        core = core_of(self.state)
        if command in _ALONE and rest:   # refused, as `why x` is, not taken as the command alone
            raise ValueError(f"{command} {' '.join(rest)!r}: {command} alone (it takes no words)")
        if command == "help":
            self._help(rest)
        elif command == "hint":
            self._hint(rest, legal)
        elif command == "why":
            self._why(rest)
        elif command == "undo":
            self._undo()
            return _UNDONE
        elif command == "board":
            self.console.print(tui.game_view(core, self.human, self.labels))
        elif command in ("moves", "list"):
            self.console.print(tui.moves_table(texts))
        elif command == "save":
            self._save(rest)
        elif command == "save-position":
            self._save_position(rest)
        elif command in ("quit", "exit"):
            raise Quit(0, "You left the game.")
        else:
            return self._move_named(line, legal, texts, core)
        return None

    def _move_named(self, line, legal, texts, core):
        """The move `line` names as the table reads an entry (entries.find_entry): its
        number in the menu, numbers the game's view reads (a plan, a place), its words
        (the whole text, its start, or words it contains), `#ID`, or a card by what it
        shows."""
        more = self.view.typed_move_help(core, legal)
        try:
            action = find_entry(line, dict(zip(legal, texts)), core, self.view, self.cards, noun="move", more=more)
        except NothingNamed:
            raise ValueError(f"{line.strip()!r} is not a move or a command: type a move number "
                             f"(1-{len(legal)}){more}, the move's words, or help") from None
        self.console.print(Text(f"you: {texts[legal.index(action)]}", style="cyan"))
        return action

    def _help(self, rest):
        topic = rest[0].lower() if rest else ""
        if not topic:
            self.console.print(help_text(self.view))
            return
        for name, (_, text) in self.view.HELP_TOPICS.items():
            if name.startswith(topic[:4]):
                self.console.print(text())
                return
        topics = ", ".join(f"help {name}" for name in self.view.HELP_TOPICS)
        raise ValueError(f"help {rest[0]!r}: try help" + (f", {topics}" if topics else ""))

    def _show(self, legal, texts):
        """The table at this decision and the menu, fitted to the terminal (a file or a
        pipe counts as 40 lines): the rule, the view, the menu, a line of help, the prompt."""
        self._flush_draws()
        core = core_of(self.state)
        console = self.console
        # The game's own menu where it has one (Gutenberg: a plan as five numbers;
        # Printing Press: places and windows by row and column), else every move.
        menu = self.view.menu(core, self.human, legal, texts, console.width) or \
            tui.menu_text(texts, core.step_name(), console.width)
        height = console.size.height if console.is_terminal else SCREEN_LINES
        below = len(console.render_lines(menu, pad=False)) + 3
        console.rule(f"Your decision: {core.step_name()}")
        console.print(tui.fit_decision(console, core, self.human, self.labels, below, height))
        console.print(menu)
        console.print("[dim]Type a move number or its words, or help (board: the whole table).[/dim]")

    def _read(self, prompt: str) -> str:
        try:
            return read_bounded(self.read_line, prompt, self.console, "" if self.echo else None)
        except KeyboardInterrupt:
            raise Quit(130, "Interrupted.") from None

    def _read_stdin(self, prompt: str) -> str:
        if not self.tty:
            return self.console.input(Text(prompt))
        _line_editing()
        # What was typed while the AI was thinking is not a move made at this prompt.
        import termios
        try:
            termios.tcflush(sys.stdin, termios.TCIFLUSH)
        except termios.error:
            pass
        return input(prompt)

    # -- commands -----------------------------------------------------------------------
    def _hint(self, rest, legal):
        s = self.settings
        if rest:
            try:
                seconds = float(rest[0])
            except ValueError:
                raise ValueError(f"hint {rest[0]!r}: give the seconds to search, e.g. hint 5") from None
            if not seconds > 0:
                raise ValueError("hint: the seconds must be more than 0")
            budget: dict[str, Any] = {"seconds": seconds}
        elif s.iterations is not None:
            budget = {"iterations": s.iterations}
        else:
            budget = {"seconds": s.seconds or 1.0}
        try:
            with tui.search_progress(self.console, "searching for hints", **budget) as progress:
                started = time.perf_counter()
                from gutenberg_ai.search.hints import hint
                hints = hint(self.state, top=HINT_TOP, seed=s.seed, progress=progress, **budget)
        except KeyboardInterrupt:
            self.console.print(Text("Hint stopped.", style="bold"))
            return
        numbers = {a: i + 1 for i, a in enumerate(legal)}
        solo = self.game.num_players() == 1
        title = f"Hints ({time.perf_counter() - started:.1f} s, {hints.iterations:,} iterations of search)"
        self.console.print(tui.hints_table(hints, numbers, title=title, solo=solo,
                                           score_word=self.printing_game.score_word, seat_names=self.seat_names))

    def _why(self, rest):
        if rest and not re.fullmatch(r"\d{1,6}", rest[0]):
            raise ValueError(f"why {rest[0]!r}: why alone (the AI's last move), or why N (its N-th)")
        title, hints = self.why(int(rest[0]) if rest else None)
        console = self.console
        height = console.size.height if console.is_terminal else SCREEN_LINES
        # The expected lines as long as the screen has room for them (and the prompt).
        for steps in range(4, -1, -1):
            table = tui.hints_table(hints, title=title, line_steps=steps, solo=self.game.num_players() == 1,
                                    score_word=self.printing_game.score_word, seat_names=self.seat_names)
            if len(console.render_lines(table, pad=False)) < height:
                break
        console.print(table)

    def _undo(self):
        if not self.decisions:
            raise ValueError("nothing to undo: this is your first decision")
        back_to = self.decisions.pop()
        undone = self.record.actions[back_to]["text"]
        self.record.truncate(back_to)
        self.state = self.game.new_initial_state()
        for entry in self.record.actions:
            self.state.apply_action(entry["action"])
        self.drawn = []
        self.say(f"Undone: {undone}. Back to your previous decision.", style="bold")

    def _save(self, rest):
        full = bool(rest) and rest[0] == "--full"
        if rest and rest[0].startswith("-") and not full:
            raise ValueError(f"save: {rest[0]} is not an option (save FILE, or save --full FILE)")
        path = file_words(rest[1:] if full else rest, "save", "save FILE, or save --full FILE")
        if not path:
            raise ValueError("save FILE: name the file, e.g. save game.json (save --full FILE: "
                             "everything, what you have not seen included)")
        try:     # a file that cannot be written is said, and the game goes on
            check_output(path, "save", replaces=RECORD_FILES)
            if full:
                self.record.save(path)
            else:
                self.record.save(path, viewer=self.human, state=self.state)
        except UsageError as e:
            raise ValueError(str(e)) from None
        except OSError as e:
            raise ValueError(f"save: {path}: {e.strerror or e}") from None
        what = "the whole game record" if full else "the game as you have seen it"
        self.console.print(Text(f"Saved {what} ({len(self.record.actions)} actions) to {path}; continue it "
                                f"with: gutenberg-ai play --resume {shlex.quote(path)}"))

    def _save_position(self, rest):
        self.console.print(save_seen_position(self.printing_game, self.state, self.human, rest, "save-position",
                                              "save FILE keeps the whole game"))

    def _save_on_exit(self):
        """--save: the whole record once the game is over; before that, what the person
        has seen (like `save FILE`)."""
        path = self.settings.save
        if not path:
            return
        if self.state.is_terminal():
            self.record.save(path)
            self.console.print(Text(f"Game record written to {path}"))
        else:
            self.record.save(path, viewer=self.human, state=self.state)
            self.console.print(Text(f"The game so far, as you have seen it, written to {path} "
                                    f"(continue it: gutenberg-ai play --resume {shlex.quote(str(path))})"))


_READLINE: list[bool] = []


def _line_editing():
    """Line editing and history for input() at a terminal (the readline module, where
    Python has it)."""
    if not _READLINE:
        try:
            import readline  # noqa: F401  (importing it is what turns it on)
            _READLINE.append(True)
        except ImportError:
            _READLINE.append(False)


__all__ = ["Quit", "Session", "Settings", "help_text", "play"]


def play(game, settings: Settings, console: Console | None = None) -> int:
    """Run a session to its end; the exit code (0 at the end of the game or on quit)."""
    return Session(game, settings, console).run()
