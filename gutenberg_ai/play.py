"""`gutenberg-ai play`: a game in the terminal, one person against AI opponents.

The session shows the table as the person sees it (gutenberg_ai.tui.decision_view: the
part of the board the decision is about, their own printing house, the others in a line
each; it fits a 100x40 terminal), asks for a move by its number in a menu written in the
game's words, and lets the AI seats move with a progress indicator. Commands at the
prompt: a move number; at a plan step also the plan as five numbers; `hint [SECONDS]`,
`undo`, `board`, `moves`, `save FILE`, `save --full FILE`, `save-position FILE`,
`help [characters | gears]`, `quit`. Nothing typed ends in a traceback: a typo gets a
message saying what would work. At a terminal the prompt has line editing and history
(readline), and what was typed while the AI was thinking is thrown away, not played.

Chance is drawn with the seed (records.draw_chance: a function of the seed and the move
number), and the AI seats are seeded from it, so the same seed and the same moves give
the same game (exactly so with an iteration budget; a time budget depends on the
machine). `undo` goes back to the person's previous decision by replaying the record up
to it, which draws the same cards again.

`save FILE` writes what the person has seen (records.GameRecord.to_dict with a viewer:
the AI's plan committed this plan step and the tiles the others drew stay hidden, and
the seeds are left out); `save --full FILE` writes everything. A game continues from
either with `gutenberg-ai play --resume FILE` (records.fill_hidden fills what was
hidden; the hidden plans at its end are chosen again).
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import pyspiel
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

import gutenberg_ai
from gutenberg_ai import _core, names, tui
from gutenberg_ai.bots import budget_options, make_bot
from gutenberg_ai.position import PositionError, save_position
from gutenberg_ai.records import CHANCE, GameRecord, draw_chance, seat_entry

_UNDONE = object()   # what the menu returns when undo went back to an earlier decision
MENU_LIMIT = 40      # longer menus (the plan step: hundreds of plans) are listed on request
DRAWS_SHOWN = 6      # a deal of more draws is summed up in a line
HINT_TOP = 5
SCREEN_LINES = 40    # the height a decision is fitted to when the output is not a terminal

HELP = """\
[bold]Your move[/bold]: type its number from the menu. At a plan step you may also type your plan as five numbers, the initiative markers on orders, inks, specialties, gears and patronage: e.g. [green]3 2 1 1 0[/green].

[bold]Commands[/bold]
  [green]hint[/green] [SECONDS]         the best moves by a search, with win chances and how sure they are
  [green]undo[/green]                   back to your previous decision
  [green]board[/green]                  the whole table (the screen at a decision shows what the decision is about)
  [green]moves[/green]                  list every legal move (plan steps have hundreds)
  [green]save[/green] FILE              write the game as you have seen it (continue it: gutenberg-ai play --resume FILE)
  [green]save --full[/green] FILE       write the whole game record, hidden plans and tiles included
  [green]save-position[/green] FILE     write this position, for gutenberg-ai hint
  [green]help characters[/green]        what each character tile does
  [green]help gears[/green]             what each gear reward gives
  [green]quit[/green]                   leave the game
Line editing and history (arrow keys) work at the prompt; Ctrl-C stops a hint, or leaves."""


def help_characters() -> Text:
    text = Text("Characters (rulebook p.23): each player draws 2 tiles and keeps one.\n", style="bold")
    for name, ability in zip(names.CHARACTERS, names.CHARACTER_ABILITIES):
        text.append(f"  {name}", style="bold cyan")
        text.append(f": {ability}\n")
    return text


def help_gears() -> Text:
    text = Text("Gears (rulebook p.10 and p.22): a gear's active sector gives its reward once a round, at any "
                "time, up to 3 gear uses a round. Taking a gear installs it; the top gear turns one sector "
                "each round and turns the others with it. The rewards:\n", style="bold")
    for kind in names.GEAR_KINDS:
        text.append(f"  {kind.replace('_', ' ')}", style="bold cyan")
        text.append(f": {names.GEAR_REWARDS[kind]}\n")
    text.append("On a card: G3 [ink swap | gain red | type fame A/O] lists the 3 sectors in the order they "
                "reach the mark.", style="dim")
    return text


@dataclass
class Settings:
    """What `gutenberg-ai play` was asked for."""
    human: int = 0
    ai: tuple = ("smmcts",)
    seconds: float | None = 3.0
    iterations: int | None = None
    seed: int = 0
    save: str | None = None
    # Plans given in the position file for seats that plan after the first hidden one:
    # (seat, allocation) played for them when their turn to plan comes in the first
    # round (position_start).
    presets: list = field(default_factory=list)


class Quit(Exception):
    """The person left (quit, end of input, Ctrl-C)."""

    def __init__(self, code: int, why: str):
        super().__init__(why)
        self.code = code


class Session:
    """A game in the terminal. `start`: record entries (player, action) to play first
    without asking (a game resumed)."""

    def __init__(self, game, settings: Settings, console: Console | None = None, read_line=None, start=()):
        self.game = game
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
        if len(names_) == 1:
            names_ = names_ * len(ai_seats)
        if ai_seats and len(names_) != len(ai_seats):
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
        self.labels = [f"you (player {seat})" if seat == self.human else f"player {seat} ({e['player']})"
                       for seat, e in enumerate(seats)]
        self.record = GameRecord(game, settings.seed, seats, command="play")
        self.state = game.new_initial_state()
        self.decisions: list[int] = []    # record indices of the person's decisions, for undo
        self.drawn: list[str] = []        # chance draws not yet shown
        # The plans the position gives, played in its first plan step (again after an undo).
        self.presets = dict(settings.presets)
        self.preset_round = gutenberg_ai.core_of(self.state).round
        for entry in start:
            if self.state.current_player() == self.human and len(self.state.legal_actions()) > 1:
                self.decisions.append(len(self.record.actions))
            self.record.add(self.state, entry["action"])
            self.state.apply_action(entry["action"])
        self.record.finish(self.state)

    # -- the game loop ------------------------------------------------------------------
    def run(self) -> int:
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                preset = self._preset(player)
                if player == CHANCE:
                    self._apply(draw_chance(self.state, self.settings.seed))
                elif preset is not None:
                    self._apply(preset, preset=True)
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

    def _preset(self, player: int):
        """The plan the position gave `player`, if it is their turn to plan it now."""
        if player not in self.presets or player == CHANCE:
            return None
        core = gutenberg_ai.core_of(self.state)
        if core.round != self.preset_round or core.phase != "plan":
            return None
        allocation = tuple(self.presets[player])
        for a in self.state.legal_actions():
            if a < _core.ACTIONS["PRINTING"] and tuple(_core.plan_of(a)) == allocation:
                return a
        return None

    def _apply(self, action: int, preset: bool = False):
        player = self.state.current_player()
        before = gutenberg_ai.core_of(self.state) if player == CHANCE else None
        self.record.add(self.state, action)
        text = self.state.action_to_string(player, action)
        self.state.apply_action(action)
        self.record.finish(self.state)
        if before is not None and before.step_name().startswith("automa"):
            self._announce_automa(before, action, text)
        else:
            self._announce(player, text, preset)

    def _announce(self, player: int, text: str, preset: bool = False):
        """Say what just happened, as the person may know it."""
        history = [(h.player, h.action) for h in self.state.full_history()]
        core = gutenberg_ai.core_of(self.state)
        hidden = core.mask_history(self.human, history)[-1][1] < 0 if history else False
        if player == CHANCE:
            self.drawn.append("a character tile you do not see" if hidden else text)
            return
        self._flush_draws()
        who = self.labels[player]
        if preset:   # the person wrote it in the position: they know it
            self.console.print(Text(f"{who}: {text} (as the position gives it)", style="yellow"))
        elif hidden:
            self.console.print(Text(f"{who} commits a plan (hidden until every plan is committed)", style="yellow"))
        elif player != self.human:
            self.console.print(Text(f"{who}: {text}", style="yellow"))

    def _announce_automa(self, before, action: int, text: str):
        """The automa's cards, with what its action took off the board."""
        self._flush_draws()
        took = tui.automa_took(before, action)
        self.console.print(Text(f"automa: {text}" + (f" - takes {took}" if took else ""), style="yellow"))

    def _flush_draws(self):
        # A deal (setup, a new round) is dozens of draws, and the board shows where they
        # went; a few draws (an order as a reward) are worth reading.
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
        self._flush_draws()
        if not self.console.is_terminal:
            return bot.step(self.state)
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
            core = gutenberg_ai.core_of(self.state)
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
            self._help(rest)
        elif command == "hint":
            self._hint(rest, legal)
        elif command == "undo":
            self._undo()
            return _UNDONE
        elif command == "board":
            self.console.print(tui.game_view(gutenberg_ai.core_of(self.state), self.human, self.labels))
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

    def _help(self, rest):
        topic = rest[0].lower() if rest else ""
        if not topic:
            self.console.print(HELP)
        elif topic.startswith("char"):
            self.console.print(help_characters())
        elif topic.startswith("gear"):
            self.console.print(help_gears())
        else:
            raise ValueError(f"help {rest[0]!r}: try help, help characters or help gears")

    def _plan(self, allocation, plans) -> int:
        if allocation in plans:
            self.console.print(Text(f"you: {self.state.action_to_string(self.human, plans[allocation])}",
                                    style="cyan"))
            return plans[allocation]
        markers = sum(next(iter(plans)))
        raise ValueError(f"plan {' '.join(map(str, allocation))} is not legal: place all your {markers} "
                         "markers, at most 6 on one action (orders, inks, specialties, gears, patronage)")

    def _show(self, legal, texts):
        """The table at this decision and the menu, fitted to the terminal (a file or a
        pipe counts as 40 lines): the rule, the view, the menu, a line of help, the prompt."""
        self._flush_draws()
        core = gutenberg_ai.core_of(self.state)
        console = self.console
        if len(legal) <= MENU_LIMIT:
            menu = tui.menu_text(texts, core.step_name(), console.width)
        else:
            markers = core.to_dict()["players"][self.human]["markers"]
            menu = Text(f"{len(legal)} plans. Type how many of your {markers} initiative markers go on orders, "
                        "inks, specialties, gears and patronage (five numbers, at most 6 on one), e.g. ")
            menu.append(" ".join(map(str, _spread(markers))), style="green")
            menu.append("; moves lists them all, hint suggests some.")
        height = console.size.height if console.is_terminal else SCREEN_LINES
        below = len(console.render_lines(menu, pad=False)) + 3
        console.rule(f"Your decision: {core.step_name()}")
        console.print(tui.fit_decision(console, core, self.human, self.labels, below, height))
        console.print(menu)
        console.print("[dim]Type a move number, or help (board: the whole table).[/dim]")

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
        if not self.tty:
            return self.console.input(prompt)
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
            budget = {"seconds": seconds}
        elif s.iterations is not None:
            budget = {"iterations": s.iterations}
        else:
            budget = {"seconds": s.seconds or 1.0}
        try:
            with tui.search_progress(self.console, "searching for hints", **budget) as progress:
                started = time.perf_counter()
                hints = gutenberg_ai.hint(self.state, top=HINT_TOP, seed=s.seed, progress=progress, **budget)
        except KeyboardInterrupt:
            self.console.print(Text("Hint stopped.", style="bold"))
            return
        numbers = {a: i + 1 for i, a in enumerate(legal)}
        solo = self.game.num_players() == 1
        title = f"Hints ({time.perf_counter() - started:.1f} s, {hints.iterations:,} iterations of search)"
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
        full = bool(rest) and rest[0] == "--full"
        path = " ".join(rest[1:] if full else rest)
        if not path:
            raise ValueError("save FILE: name the file, e.g. save game.json (save --full FILE: "
                             "everything, hidden plans and tiles included)")
        if full:
            self.record.save(path)
            what = "the whole game record"
        else:
            self.record.save(path, viewer=self.human, state=self.state)
            what = "the game as you have seen it"
        self.console.print(Text(f"Saved {what} ({len(self.record.actions)} actions) to {path}; continue it "
                                f"with: gutenberg-ai play --resume {path}"))

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
        """--save: the whole record once the game is over; before that, what the person
        has seen (like `save FILE`)."""
        path = self.settings.save
        if not path:
            return
        if self.state.is_terminal():
            self.record.save(path)
            self.console.print(f"Game record written to {path}")
        else:
            self.record.save(path, viewer=self.human, state=self.state)
            self.console.print(f"The game so far, as you have seen it, written to {path} "
                               f"(continue it: gutenberg-ai play --resume {path})")


_READLINE = []


def _line_editing():
    """Line editing and history for input() at a terminal (the readline module, where
    Python has it)."""
    if not _READLINE:
        try:
            import readline  # noqa: F401  (importing it is what turns it on)
            _READLINE.append(True)
        except ImportError:
            _READLINE.append(False)


def _spread(markers: int):
    """An example plan: the markers spread over the five actions."""
    return [markers // 5 + (1 if i < markers % 5 else 0) for i in range(5)]


# ---------------------------------------------------------------------------------------
# Starting from a position, resuming a record
# ---------------------------------------------------------------------------------------
def plan_order(state_dict) -> list:
    """The people in plan order: seat order from the first player, the automa skipped."""
    n, first, automa = state_dict["num_seats"], state_dict["first_player"], state_dict["automa_seat"]
    return [(first + i) % n for i in range(n) if (first + i) % n != automa]


def position_start(data: dict, pos) -> tuple[dict, list]:
    """A position whose plans are hidden, made playable: the plans written "hidden" are
    not stand-ins to play with but decisions still to make. Returns (position data to
    start from, presets): the position rewound to the turn of the first seat, in plan
    order, whose plan is hidden (that seat plans again: the AI searches, a person is
    asked), and the plans the file gives for the seats after it, as (seat, allocation)
    to play for them when their turn comes. A position without hidden plans is
    returned as it is."""
    if not pos.hidden_plans:
        return data, []
    d = pos.state.to_dict()
    order = plan_order(d)
    committed = order[:d["step"]]
    first = min(committed.index(seat) for seat in pos.hidden_plans)
    rewound = {**data, "players": [dict(p) for p in data["players"]]}
    rewound["step"] = {"kind": "plan", "player": order[first]}
    presets = []
    for seat in committed[first:]:
        rewound["players"][seat].pop("plan", None)
        if seat not in pos.hidden_plans:
            presets.append((seat, tuple(d["players"][seat]["plan"])))
    return rewound, presets


__all__ = ["HELP", "Quit", "Session", "Settings", "plan_order", "position_start", "play"]


def play(game, settings: Settings, console: Console | None = None) -> int:
    """Run a session to its end; the exit code (0 at the end of the game or on quit)."""
    return Session(game, settings, console).run()
