"""`gutenberg-ai play`: a game in the terminal, one person against AI opponents.

The session shows the table as the person sees it (gutenberg_ai.tui), asks for a move by
its number in a menu written in the game's words, and lets the AI seats move with a
progress indicator. Commands at the prompt: a move number; at a plan step also the plan
as five numbers; `hint [SECONDS]`, `undo`, `board`, `moves`, `save FILE`,
`save-position FILE`, `help`, `quit`. Nothing typed ends in a traceback: a typo gets a
message saying what would work.

Chance is drawn with the seed (records.draw_chance: a function of the seed and the move
number), and the AI seats are seeded from it, so the same seed and the same moves give
the same game (exactly so with an iteration budget; a time budget depends on the
machine). `undo` goes back to the person's previous decision by replaying the record up
to it, which draws the same cards again.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import pyspiel
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

import gutenberg_ai
from gutenberg_ai import _core, tui
from gutenberg_ai.bots import budget_options, make_bot
from gutenberg_ai.position import PositionError, save_position
from gutenberg_ai.records import CHANCE, GameRecord, draw_chance, seat_entry

_UNDONE = object()   # what the menu returns when undo went back to an earlier decision
MENU_LIMIT = 40
DRAWS_SHOWN = 6   # longer menus (the plan step: hundreds of plans) are listed on request
HINT_TOP = 5

HELP = """\
[bold]Your move[/bold]: type its number from the menu. At a plan step you may also type your plan as five numbers, the initiative markers on orders, inks, specialties, gears and patronage: e.g. [green]3 2 1 1 0[/green].

[bold]Commands[/bold]
  [green]hint[/green] [SECONDS]       the best moves by a search, with win chances
  [green]undo[/green]                 back to your previous decision
  [green]board[/green]                show the table again
  [green]moves[/green]                list every legal move (plan steps have hundreds)
  [green]save[/green] FILE            write the game record (replay: gutenberg-ai replay FILE)
  [green]save-position[/green] FILE   write this position (where the format supports it)
  [green]help[/green]                 this text
  [green]quit[/green]                 leave the game"""


@dataclass
class Settings:
    """What `gutenberg-ai play` was asked for."""
    human: int = 0
    ai: tuple = ("smmcts",)
    seconds: float | None = 3.0
    iterations: int | None = None
    seed: int = 0
    save: str | None = None


class Quit(Exception):
    """The person left (quit, end of input, Ctrl-C)."""

    def __init__(self, code: int, why: str):
        super().__init__(why)
        self.code = code


class Session:
    def __init__(self, game, settings: Settings, console: Console | None = None, read_line=None):
        self.game = game
        self.settings = settings
        self.console = console or Console()
        self.read_line = read_line or self._read_stdin
        self.echo = not sys.stdin.isatty()   # a scripted session shows what it was fed
        n = game.num_players()
        if not 0 <= settings.human < n:
            raise ValueError(f"seat: {settings.human} is out of range (0-{n - 1})")
        self.human = settings.human
        ai_seats = [seat for seat in range(n) if seat != self.human]
        names = list(settings.ai)
        if len(names) == 1:
            names = names * len(ai_seats)
        if ai_seats and len(names) != len(ai_seats):
            raise ValueError(f"ai: {len(names)} bots named for {len(ai_seats)} AI seats "
                             "(name one for all, or one per seat)")
        self.bots = {}
        seats = [seat_entry(self.human, "human")]
        for seat, name in zip(ai_seats, names):
            options = budget_options(name, settings.seconds, settings.iterations)
            bot_seed = settings.seed + 1 + seat
            self.bots[seat] = make_bot(name, game, seat, seed=bot_seed, **options)
            seats.append(seat_entry(seat, name, bot_seed, options))
        seats.sort(key=lambda e: e["seat"])
        self.labels = [f"you (player {seat})" if seat == self.human else f"player {seat} ({e['player']})"
                       for seat, e in enumerate(seats)]
        self.record = GameRecord(game, settings.seed, seats, command="play")
        self.state = game.new_initial_state()
        self.decisions: list[int] = []    # record indices of the person's decisions, for undo
        self.drawn: list[str] = []        # chance draws not yet shown

    # -- the game loop ------------------------------------------------------------------
    def run(self) -> int:
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                if player == CHANCE:
                    self._apply(draw_chance(self.state, self.settings.seed))
                elif player != self.human:
                    self._apply(self._think(player))
                else:
                    self._apply(self._ask())
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
        core = gutenberg_ai.core_of(self.state)
        self.console.print(tui.game_view(core, self.human, self.labels))
        self.console.print(tui.score_table(core, self.labels))
        self._save_on_exit()
        return 0

    def _apply(self, action: int):
        player = self.state.current_player()
        self.record.add(self.state, action)
        text = self.state.action_to_string(player, action)
        self.state.apply_action(action)
        self.record.finish(self.state)
        self._announce(player, text)

    def _announce(self, player: int, text: str):
        """Say what just happened, as the person may know it."""
        history = [(h.player, h.action) for h in self.state.full_history()]
        core = gutenberg_ai.core_of(self.state)
        hidden = core.mask_history(self.human, history)[-1][1] < 0 if history else False
        if player == CHANCE:
            self.drawn.append("a card you do not see" if hidden else text)
            return
        self._flush_draws()
        who = self.labels[player]
        if hidden:
            self.console.print(Text(f"{who} commits a plan (hidden until every plan is committed)", style="yellow"))
        elif player != self.human:
            self.console.print(Text(f"{who}: {text}", style="yellow"))

    def _flush_draws(self):
        # A deal (setup, a new round) is dozens of draws, and the board shows where they
        # went; a few draws (an order as a reward, the automa's cards) are worth reading.
        if len(self.drawn) > DRAWS_SHOWN:
            self.console.print(Text(f"dealt: {len(self.drawn)} cards, inks and tiles (see the board)", style="dim"))
        elif self.drawn:
            self.console.print(Text("drawn: " + "; ".join(self.drawn), style="dim"))
        self.drawn = []

    def _think(self, player: int) -> int:
        """The AI seat's move, with a progress indicator while it searches."""
        bot = self.bots[player]
        if len(self.state.legal_actions()) == 1:
            return self.state.legal_actions()[0]
        if not self.console.is_terminal:
            return bot.step(self.state)
        self._flush_draws()
        columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        with Progress(*columns, console=self.console, transient=True) as progress:
            progress.add_task(f"{self.labels[player]} is thinking", total=None)
            return bot.step(self.state)

    # -- the person's decision ----------------------------------------------------------
    def _ask(self) -> int:
        """The person's move; commands are answered in between. A decision with one
        legal move is played at once (and is not one undo goes back to)."""
        while True:
            legal = self.state.legal_actions()
            texts = [self.state.action_to_string(self.human, a) for a in legal]
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
        plans = {_core.plan_of(a): a for a in legal if a < _core.ACTIONS["PRINTING"]}
        numbers = line.replace(",", " ").split()
        if all(w.isdigit() for w in numbers):
            if len(numbers) == 5 and plans:
                return self._plan(tuple(int(w) for w in numbers), plans)
            if len(numbers) == 1:
                k = int(numbers[0])
                if 1 <= k <= len(legal):
                    self.console.print(Text(f"you: {texts[k - 1]}", style="cyan"))
                    return legal[k - 1]
                raise ValueError(f"there is no move {k}: the moves are numbered 1 to {len(legal)}")
            if len(numbers) == 5:
                raise ValueError(f"five numbers are a plan, and this is not the plan step: type one move "
                                 f"number (1-{len(legal)})")
            raise ValueError(f"type one move number (1-{len(legal)})"
                             + (", or your plan as five numbers" if plans else ""))
        if command == "help":
            self.console.print(HELP)
        elif command == "hint":
            self._hint(rest, legal)
        elif command == "undo":
            self._undo()
            return _UNDONE
        elif command == "board":
            self._show(legal, texts)
        elif command in ("moves", "list"):
            self.console.print(tui.moves_table(texts))
        elif command == "save":
            self._save(rest)
        elif command == "save-position":
            self._save_position(rest)
        elif command in ("quit", "exit"):
            raise Quit(0, "You left the game.")
        else:
            raise ValueError(f"{line.strip()!r} is not a move or a command: type a move number "
                             f"(1-{len(legal)}){', your plan as five numbers' if plans else ''}, or help")
        return None

    def _plan(self, allocation, plans) -> int:
        if allocation in plans:
            self.console.print(Text(f"you: {self.state.action_to_string(self.human, plans[allocation])}",
                                    style="cyan"))
            return plans[allocation]
        markers = sum(next(iter(plans)))
        raise ValueError(f"plan {' '.join(map(str, allocation))} is not legal: place all your {markers} "
                         "markers, at most 6 on one action (orders, inks, specialties, gears, patronage)")

    def _show(self, legal, texts):
        self._flush_draws()
        core = gutenberg_ai.core_of(self.state)
        self.console.rule(f"Your decision: {core.step_name()}")
        self.console.print(tui.game_view(core, self.human, self.labels))
        if len(legal) <= MENU_LIMIT:
            self.console.print(tui.moves_table(texts))
        else:
            markers = core.to_dict()["players"][self.human]["markers"]
            self.console.print(
                f"{len(legal)} legal moves. Plan: type how many of your {markers} initiative markers "
                "go on orders, inks, specialties, gears and patronage (five numbers, at most 6 on "
                "one), e.g. [green]" + " ".join(map(str, _spread(markers))) + "[/green]; "
                "[green]moves[/green] lists them all, [green]hint[/green] suggests some.")
        self.console.print("[dim]Type a move number, or help.[/dim]")

    def _read(self, prompt: str) -> str:
        try:
            line = self.read_line(prompt)
        except EOFError:
            raise Quit(1, "The input ended before the game did.") from None
        except KeyboardInterrupt:
            raise Quit(130, "Interrupted.") from None
        if self.echo:
            self.console.print(Text(line, style="dim"))
        return line

    def _read_stdin(self, prompt: str) -> str:
        return self.console.input(prompt)

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
            budget = {"seconds": seconds}
        elif s.iterations is not None:
            budget = {"iterations": s.iterations}
        else:
            budget = {"seconds": s.seconds or 1.0}
        with self.console.status("searching for hints"):
            started = time.perf_counter()
            hints = gutenberg_ai.hint(self.state, top=HINT_TOP, seed=s.seed, **budget)
        numbers = {a: i + 1 for i, a in enumerate(legal)}
        solo = self.game.num_players() == 1
        title = f"Hints ({time.perf_counter() - started:.1f} s of search{'' if solo else '; win = chance to win'})"
        self.console.print(tui.hints_table(hints, numbers, title=title, solo=solo))

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
        self.console.print(Text(f"Undone: {undone}. Back to your previous decision.", style="bold"))

    def _save(self, rest):
        if not rest:
            raise ValueError("save FILE: name the file, e.g. save game.json")
        path = " ".join(rest)
        self.record.save(path)
        self.console.print(Text(f"Saved the game record ({len(self.record.actions)} actions) to {path}; "
                                f"replay it with: gutenberg-ai replay {path}"))

    def _save_position(self, rest):
        if not rest:
            raise ValueError("save-position FILE: name the file, e.g. save-position table.json")
        path = " ".join(rest)
        # What the person may know: the plans committed before theirs stay hidden.
        try:
            save_position(gutenberg_ai.core_of(self.state), path, viewer=self.human)
        except PositionError as e:
            raise ValueError(f"save-position: not here: {e.reason} (save FILE keeps the whole game)") from None
        self.console.print(Text(f"Saved this position to {path}; ask for a hint with: gutenberg-ai hint {path}"))

    def _save_on_exit(self):
        if self.settings.save:
            self.record.save(self.settings.save)
            self.console.print(f"Game record written to {self.settings.save}")


def _spread(markers: int):
    """An example plan: the markers spread over the five actions."""
    return [markers // 5 + (1 if i < markers % 5 else 0) for i in range(5)]


def play(game, settings: Settings, console: Console | None = None) -> int:
    """Run a session to its end; the exit code (0 at the end of the game or on quit)."""
    return Session(game, settings, console).run()


__all__ = ["HELP", "Quit", "Session", "Settings", "play"]
