"""`gutenberg-ai table`: a real game followed in the terminal (the model:
gutenberg_ai.interfaces.table.FollowedGame).

The prompt says what it waits for ("a draw (setup)?", "Tom's move (plan)?", "your move
(draft)?", "entry 12, Tom's plan, now shown?"). An entry is typed:
- in the game's words: the whole text, its start, or words it contains (one move must
  fit; `list` shows them all);
- by its number in the menu (`list`), or `#ID` for the action's id;
- a draw by the `cards` lookup: what the card shows (`O O O U U 7 guilders`);
- a move as the game's view lets a person type it (Gutenberg: a plan as five numbers).
Commands: `hint [PLAYER]`, `fix N` (correct entry N; the next line is its new value),
`log [N]` (the last N entries and their rule notes), `board`, `list`, `save FILE`, `position FILE` (what the
person knows now as a position file), `help`, `quit`. What is typed wrong gets
a line saying why, and nothing changes. After every entry the game is saved (what the
person has seen: FollowedGame.to_dict) to the save path, and `table --resume FILE`
continues it.
"""
from __future__ import annotations

import shlex

from rich.console import Console
from rich.text import Text

from gutenberg_ai.interfaces.choices import RECORD_FILES, UsageError, check_output
from gutenberg_ai.interfaces.entries import find_entry
from gutenberg_ai.games import core_of
from gutenberg_ai.interfaces import tui
from gutenberg_ai.interfaces.play import Quit, SCREEN_LINES, file_words, read_bounded, save_seen_position
from gutenberg_ai.interfaces.table import CHANCE, FollowedGame

MENU_SHOWN = 12     # a menu this long is shown with the prompt; a longer one on `list`
DROPPED_SHOWN = 5   # entries a correction left out, named one a line (the rest counted)
LOG_SHOWN = 10
HELP = """\
[bold]Enter what the table shows[/bold]: a move or a draw in the game's words (its start,
or words it contains), its number in [green]list[/green], [green]#ID[/green] for the action's id,
a card by what it shows (O O O U U 7 guilders).
  [green]hint[/green] [PLAYER]    the best moves now (PLAYER: another's, from what you know)
  [green]fix[/green] N             correct entry N (asked next); the game is replayed
  [green]log[/green] [N]           the last N entries, with what the automa's rules did
  [green]board[/green]             the whole table as you see it
  [green]list[/green]              every possible entry now, numbered
  [green]save[/green] FILE         save the game as you have seen it (gutenberg-ai table --resume FILE)
  [green]position[/green] FILE     what you know now as a position file (gutenberg-ai hint FILE)
  [green]quit[/green]              leave (saved: gutenberg-ai table --resume FILE)"""


class TableSession:
    """The terminal loop of a followed game. `read_line(prompt)` reads a line (default:
    the terminal); `save`: the path written after every entry; `budget`: the hints'
    search budget (seconds or iterations)."""

    def __init__(self, followed: FollowedGame, console: Console | None = None, read_line=None,
                 save: str | None = None, budget: dict | None = None):
        self.followed = followed
        self.console = console or Console(highlight=False)
        # The prompt holds names and a move's words: printed as they are, never as markup.
        self.read_line = read_line or (lambda prompt: self.console.input(Text(prompt)))
        self.echo = read_line is not None
        self.save_path = save
        self.budget = dict(budget or {"iterations": 2000})
        g = followed.printing_game
        self.view, self.cards = g.view, (g.cards if g.cards_module else None)
        self.unseen: list[str] = []      # placeholders placed since the last line said so
        self.said = 0                    # lines printed since the last prompt, still on the screen

    @property
    def names(self):
        return ["you" if s == self.followed.seat else n for s, n in enumerate(self.followed.names)]

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        try:
            while True:
                kind, value = self.followed.next_turn()
                if kind == "end":
                    break
                if kind == "unseen":
                    self.followed.place_unseen()
                    self.unseen.append(value)
                    self._autosave()
                    continue
                self._say_unseen()
                self._ask(kind, value)
        except Quit as q:
            self._say_unseen()
            self.console.print(Text(str(q), style="bold"))
            self._autosave(final=True)
            return q.code
        except KeyboardInterrupt:
            self.console.print(Text("Interrupted.", style="bold"))
            self._autosave(final=True)
            return 130
        self._say_unseen()
        core = core_of(self.followed.state)
        self.console.rule("End of the game")
        self.console.print(tui.score_table(core, self.names))
        self._autosave(final=True)
        return 0

    def note(self, text: str, style: str = "dim"):
        """Print a line the next decision's screen keeps above it (an entry, a placeholder,
        a correction, the start's words): that screen leaves room for its lines."""
        said = Text(text, style=style)
        self.console.print(said)
        self.said += len(self.console.render_lines(said, pad=False))

    def _say_unseen(self):
        if not self.unseen:
            return
        draws = sum(1 for p in self.unseen if p == CHANCE)
        moves = [p for p in self.unseen if p != CHANCE]
        core = core_of(self.followed.state)
        if draws:
            self.note(f"{self.view.UNSEEN_DRAW}" + (f" (x{draws})" if draws > 1 else ""))
        for p in moves:
            self.note(f"{self.names[p]} {self.view.hidden_move_text(core, p)}", style="yellow")
        self.unseen = []

    def question(self, kind: str, value) -> str:
        """What the prompt waits for, in words."""
        f = self.followed
        if kind == "reveal":
            e = f.entries[value]
            what = "the draw you did not see" if e.player == CHANCE else f"{self.names[e.player]}'s hidden move"
            return f"entry {value + 1}, {what}, now shown? "
        step = core_of(f.state).step_name().rstrip("?")     # a step asked as a question has its own "?"
        if kind == "chance":
            return f"what came up ({step})? "
        if kind == "own":
            return f"your move ({step})? "
        return f"{self.names[value]}'s move ({step})? "

    def _ask(self, kind, value):
        f = self.followed
        options = f.options_at(value) if kind == "reveal" else f.options()
        if kind == "own" and len(options) > 1:
            self._show_decision(options)
        elif 1 < len(options) <= MENU_SHOWN:
            self.console.print(tui.menu_text(list(options.values()), core_of(f.state).step_name(), self.console.width))
        while True:
            line = self._read(self.question(kind, value))
            if not line.strip():
                continue
            try:
                done = self._command(line, options)
                if done == "fixed":      # the game changed: the turn is asked again
                    return
                if done:
                    continue
                action = self._find(line, options, reveal=kind == "reveal")
                before = len(f.entries)
                words = options.get(action) or f.text(action)
                if kind == "reveal":
                    f.reveal(value, action)
                else:
                    f.enter(action)
            except Quit:
                raise
            except ValueError as e:      # EntryRefused too: nothing changed
                self.note(str(e), style="red")
                continue
            who = "chance" if kind == "chance" else ("you" if kind == "own" else
                                                     self.names[f.entries[value if kind == "reveal" else before].player])
            self.note(f"{value + 1 if kind == 'reveal' else before + 1}. {who}: {words}",
                      style="cyan" if kind == "own" else "yellow")
            if kind != "reveal":
                # Where the automa's rules chose (its planning card's arrows, the markers it
                # passes): what the table should now show, as play's log says it.
                for note in f.rule_notes(before)[0]:
                    self.note(note, style="yellow")
            self._autosave()
            return

    def _find(self, line: str, options: dict, reveal: bool = False) -> int:
        core = None if reveal else core_of(self.followed.state)
        return find_entry(line, options, core, self.view, self.cards)

    def _show_decision(self, options: dict):
        f = self.followed
        core = core_of(f.state)
        legal = list(options)
        texts = [tui.move_text(core, a, t) for a, t in options.items()]
        menu = self.view.menu(core, f.seat, legal, texts, self.console.width) or \
            tui.menu_text(texts, core.step_name(), self.console.width)
        height = self.console.size.height if self.console.is_terminal else SCREEN_LINES
        # the lines said since the last prompt (the entry, placeholders, a correction)
        # stay above the decision on the same screen
        below = len(self.console.render_lines(menu, pad=False)) + 3 + self.said
        self.said = 0
        self.console.rule(f"Your decision: {core.step_name()}")
        self.console.print(tui.fit_decision(self.console, core, f.seat, self.names, below, height))
        self.console.print(menu)
        self.console.print("[dim]Type your move (number or words), hint, or help.[/dim]")

    # -- commands -----------------------------------------------------------------------
    def _command(self, line: str, options: dict):
        """Run `line` if it is a command: "done", or "fixed" after a correction (the
        game changed); None when it is not a command."""
        words = line.split()
        command, rest = words[0].lower(), words[1:]
        f = self.followed
        if command in ("quit", "exit"):
            raise Quit(0, "You left the table.")
        if command == "help":
            self.console.print(HELP)
        elif command == "hint":
            self._hint(rest)
        elif command == "fix":
            return self._fix(rest)
        elif command == "log":
            self._log(rest)
        elif command == "board":
            self.console.print(tui.game_view(core_of(f.state), f.seat, self.names))
            pending = f.shown_stand_ins()
            if pending:     # the board holds a stand-in where the table shows the truth
                self.note(f"{pending}: the board shows a stand-in for it until you enter it.", style="yellow")
        elif command in ("list", "moves"):
            self.console.print(tui.moves_table(list(options.values())))
        elif command == "save":
            self._save(rest)
        elif command == "position":
            # What the person knows now, for `gutenberg-ai hint FILE` (the same hints).
            pending = f.shown_stand_ins()
            if pending:
                raise ValueError(f"position: {pending}: enter what the table shows first (the file would hold "
                                 "a stand-in for it)")
            self.console.print(save_seen_position(f.printing_game, f.state, f.seat, rest, "position",
                                                  "save FILE keeps the game as you have seen it",
                                                  names=f.written_names()))
        else:
            return None
        return "done"

    def _hint(self, rest):
        f = self.followed
        player = None
        if rest:
            who = " ".join(rest).lower()
            seats = [s for s, n in enumerate(self.names) if n.lower() == who or str(s) == who]
            if not seats:
                raise ValueError(f"hint {' '.join(rest)!r}: name a player ({', '.join(self.names)}) or a seat number")
            player = seats[0]
        hints = f.hint(player, top=5, **self.budget)
        to_act = f.state.current_player()
        solo = f.game.num_players() == 1
        self.console.print(tui.hints_table(hints, title=f"Hints for {self.names[to_act]} ({hints.iterations:,} "
                                           "iterations, from what you have seen)", solo=solo,
                                           score_word=f.printing_game.score_word, seat_names=self.names))

    def _fix(self, rest) -> str:
        f = self.followed
        if len(rest) != 1 or not rest[0].isdigit():
            raise ValueError("fix N: the number of the entry to correct (log shows them)")
        i = int(rest[0]) - 1
        f.correctable(i)
        options = f.options_at(i)
        was = options.get(f.entries[i].action, "?")
        line = self._read(f"entry {i + 1} (was: {was}), corrected? (Enter: leave it) ")
        if not line.strip():
            self.note(f"{i + 1}. left as it was: {was}")
            return "done"
        action = find_entry(line, options, cards=self.cards)
        dropped = f.fix(i, action)
        self.note(f"{i + 1}. corrected to: {options[action]}; the game replayed from there.", style="bold")
        for k, player, words in dropped[:DROPPED_SHOWN]:
            who = "chance" if player == CHANCE else self.names[player]
            self.note(f"  no longer fits, left out: entry {k + 1} ({who}: {words})", style="red")
        if len(dropped) > DROPPED_SHOWN:
            self.note(f"  and {len(dropped) - DROPPED_SHOWN} more entries left out (log shows the game now)",
                      style="red")
        self._autosave()
        return "fixed"

    def _log(self, rest):
        if len(rest) > 1 or (rest and not (rest[0].isascii() and rest[0].isdigit() and int(rest[0]) > 0)):
            raise ValueError(f"log N: N is how many of the last entries to show, 1 or more (not {' '.join(rest)!r})")
        n = int(rest[0]) if rest else LOG_SHOWN
        entries = self.followed.entry_lines()
        for i in range(max(0, len(entries) - n), len(entries)):
            player, words, notes = entries[i]
            who = "chance" if player == CHANCE else self.names[player]
            self.console.print(Text(f"{i + 1:>5}. {who}: {words if words is not None else '(not seen)'}"))
            for line in notes:     # where the automa's rules chose, as the page's log gives it
                self.console.print(Text(f"       {line}", style="yellow"))

    def _save(self, rest):
        if not rest:
            raise ValueError("save FILE: name the file")
        path = file_words(rest, "save", "save FILE: what you have seen")
        try:     # a file that cannot be written is said, and the game goes on
            check_output(path, "save", replaces=RECORD_FILES)
            self.followed.save(path)
        except UsageError as e:
            raise ValueError(str(e)) from None
        except OSError as e:
            raise ValueError(f"save: {path}: {e.strerror or e}") from None
        self.console.print(Text(f"Saved to {path}"))

    def _autosave(self, final: bool = False):
        if self.save_path:
            self.followed.save(self.save_path)
            if final:
                self.console.print(Text(f"Saved to {self.save_path} (continue: gutenberg-ai table --resume "
                                        f"{shlex.quote(self.save_path)})", style="dim"))

    def _read(self, prompt: str) -> str:
        line = read_bounded(self.read_line, prompt, self.console, prompt if self.echo else None)
        self.said = 0                    # what was said before the prompt has scrolled up
        return line


__all__ = ["TableSession", "find_entry"]
