"""The terminal's table, written once for every game and drawn with `rich`: the menu of
legal moves, hints, the table at a decision fitted to the terminal, a search's progress,
the score sheet. What a game's table looks like is the game's own: its view module
(games.PrintingGame.view; Gutenberg's is gutenberg_ai.games.gutenberg.view, Printing Press's
gutenberg_ai.games.printing_press.view), which the functions here call for the state at
hand (docs/new-game.md lists what a view provides). Everything here only reads a
CoreState and returns rich renderables; gutenberg_ai.interfaces.play asks the questions.

What a player may not see stays hidden (the views draw a state as one player sees it).
Dynamic text goes through rich.text.Text, never markup, so a card such as
"G3 [ink swap | gain red]" prints as it is.
"""
from __future__ import annotations

import contextlib
import os

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from gutenberg_ai import games
from gutenberg_ai.common import draw
from gutenberg_ai.games.seen import named_step

# The width of output that goes to a pipe or a file: rich would take 80 columns, where a
# review's table folds its moves a word a line; COLUMNS, where set, still decides.
PIPED_WIDTH = 120
GROUP_MIN = 6   # a shared start of at least this many characters groups moves on a line


def output_console(stderr: bool = False, **options) -> Console:
    """A command's console (no markup, no highlighting): a terminal's own width, and
    PIPED_WIDTH columns for a pipe or a file (unless COLUMNS says otherwise)."""
    if not Console(stderr=stderr).is_terminal and "COLUMNS" not in os.environ:
        options.setdefault("width", PIPED_WIDTH)
    return Console(stderr=stderr, highlight=False, markup=False, **options)


# ---------------------------------------------------------------------------------------
# The game's own table: its view module
# ---------------------------------------------------------------------------------------
def view_of(core):
    """The view module of the game of `core` (a CoreState or a pyspiel state)."""
    return games.of(core).view


def game_view(core, viewer: int, seat_names=None):
    """The whole table as `viewer` sees it (-1: everything): the `board` command, the
    end of a replay, `hint --board`."""
    return view_of(core).game_view(core, viewer, seat_names)


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0):
    """The table at `viewer`'s decision, at a level of `compact`ness (0 in full, up to
    the view's COMPACTNESS - 1)."""
    return view_of(core).decision_view(core, viewer, seat_names, width, compact)


def fit_decision(console, core, viewer: int, seat_names, below, height: int | None = None):
    """The decision view at the most detailed level at which it fits `height` lines (the
    console's) together with `below` (the menu and what follows it, `below` lines)."""
    view = view_of(core)
    height = height or console.height
    options = console.options
    for compact in range(view.COMPACTNESS):
        drawn = view.decision_view(core, viewer, seat_names, options.max_width, compact)
        if len(console.render_lines(drawn, options, pad=False)) + below <= height:
            break
    return drawn


def move_text(core, action: int, text: str) -> str:
    """A move's words (the state's action_to_string) with what it gives where they do
    not say, in the game's own way."""
    return view_of(core).move_text(core, action, text)


def score_table(core, seat_names=None):
    """The final score sheet (rich)."""
    return view_of(core).score_table(core, seat_names)


def score_sheet(core) -> str:
    """The final score sheet as plain text (the demo's)."""
    return view_of(core).score_sheet(core)


# ---------------------------------------------------------------------------------------
# The menu
# ---------------------------------------------------------------------------------------
def _common_prefix(texts) -> str:
    """The longest start shared by all `texts` that ends at a space and leaves each a
    rest that does not begin with a digit unless the start ends a list item (", "):
    "printing " of "printing P12 ..." and "printing P15 ...", "set 1, " of "set 1, 1 ink
    ..." and "set 1, 2 inks ...", but not "use gear " of "use gear 2: order"."""
    first = texts[0]
    n = 0
    while n < len(first) and all(len(t) > n and t[n] == first[n] for t in texts):
        n += 1
    while n > 0:
        cut = first.rfind(" ", 0, n)
        if cut < 0:
            return ""
        prefix = first[:cut + 1]
        if prefix.endswith(", ") or not any(t[len(prefix):len(prefix) + 1].isdigit() for t in texts):
            return prefix
        n = cut
    return ""


def without_step(text: str, step: str) -> str:
    """A move's words without the step's name they start with ("draft: printing P17"
    under the heading or in the column "draft": "printing P17")."""
    return text[len(step) + 2:] if text.startswith(step + ": ") else text


def menu_text(texts, step: str, width: int) -> Text:
    """The numbered moves (1-based), the step's name dropped from their words (the
    heading says it), and consecutive moves that start alike grouped under that start:
    "printing  1) P12 [A I U] 3g   2) P15 [I I I] 5g" (on the next lines if they do not
    fit on one)."""
    words = [without_step(t, step) for t in texts]
    groups = []   # (prefix, [(number, rest)])
    i = 0
    while i < len(words):
        j, prefix = i + 1, ""
        while j < len(words):
            candidate = _common_prefix(words[i:j + 1])
            if len(candidate) < GROUP_MIN:
                break
            prefix, j = candidate, j + 1
        groups.append((prefix, [(k + 1, words[k][len(prefix):]) for k in range(i, j)]))
        i = j
    out = Text()
    for g, (prefix, items) in enumerate(groups):
        if g:
            out.append("\n")
        cells = []
        for number, rest in items:
            cell = Text(f"{number:>2}) ", style="bold green")
            cells.append(cell.append(rest))
        if not prefix:
            out.append_text(cells[0])
            continue
        head = Text(prefix.rstrip(", ") + "  ", style="cyan")
        one_line = len(head) + sum(len(c) for c in cells) + 3 * (len(cells) - 1)
        if one_line <= width:
            out.append_text(head).append_text(draw.joined(cells, "   "))
        else:
            body = draw.pack(cells, width - 2)
            head.rstrip()           # (in place)
            out.append_text(head)
            out.append("\n  ").append_text(Text("\n  ").join(body.split("\n")))
    return out


def moves_table(texts, limit: int | None = None) -> Table:
    """The numbered menu of moves (1-based), the first `limit` of them."""
    t = Table(box=box.SIMPLE, show_header=False, padding=(0, 1))
    t.add_column(justify="right", style="bold green", no_wrap=True)
    t.add_column()
    for i, text in enumerate(texts[:limit] if limit else texts):
        t.add_row(str(i + 1), Text(text))
    return t


# ---------------------------------------------------------------------------------------
# Hints
# ---------------------------------------------------------------------------------------
class ExpectedLines:
    """The play the search expects after each move, below the hints' table: the move,
    then its steps side by side as many as fit the width the console gives, each step
    whole (never broken in the middle), indented under the move."""
    INDENT = 6

    def __init__(self, rows):
        self.rows = rows    # (the move's label, [steps])

    def __rich_console__(self, console, options):
        yield Text("Then, as the search expects (up to the first draw: nobody knows it yet):", style="dim")
        pad = " " * self.INDENT
        for label, steps in self.rows:
            yield Text("  ").append_text(label)
            if steps:
                body = draw.pack([Text(step, style="dim") for step in steps], options.max_width - self.INDENT, "; ")
                yield Text("\n").join(Text(pad).append_text(line) for line in body.split("\n"))


class HintsRows:
    """The hints' table at the width the console gives: on a narrow one (under
    NARROW_HINTS columns) a measure's interval goes under its value, so that the move
    keeps room to be read and every column stays."""
    NARROW_HINTS = 90

    def __init__(self, rows, numbered: bool, solo: bool, word: str):
        self.rows = rows    # (cells before the move, move, searched, (value, interval), fame, standing)
        self.numbered, self.solo, self.word = numbered, solo, word

    def __rich_console__(self, console, options):
        gap = "\n" if options.max_width < self.NARROW_HINTS else " "   # between a measure and its interval
        t = Table(box=box.SIMPLE_HEAD)
        if self.numbered:
            t.add_column("#", justify="right", style="bold green")
        t.add_column("move", ratio=1)
        t.add_column("searched", justify="right")
        if not self.solo:
            t.add_column("win", justify="right", style="bold", no_wrap=True)
        t.add_column(self.word, justify="right", style="bold" if self.solo else "", no_wrap=True)
        t.add_column("vs best", no_wrap=True)
        for cells, move, share, (value, interval), fame, standing in self.rows:
            measure = value if interval is None else value + gap + interval
            t.add_row(*cells, move, share, measure, *([] if fame is None else [fame]), standing)
        yield t


def hints_table(hints, numbers=None, title="Hints", line_steps: int = 4, solo: bool = False,
                score_word: str = "fame", seat_names=None) -> Group:
    """Hints (gutenberg_ai.Hint) as a table, and below it the first `line_steps` steps
    of the line the search expects after each move (ExpectedLines), each seat said by
    its name in `seat_names` where given; `numbers` maps an action to its menu number. The measure (the chance to win; solo, where there is
    nobody to beat, the expected final score, called `score_word` as the game calls it)
    comes with its 95% interval, and each move says how it stands against the best (its
    `standing`): best (the highest measure of the moves whose interval is known), level
    (within the search's noise), behind, or too few samples (no interval: "?"). Hints
    of a search that ran no iteration (its time too short for one) say that nothing was
    searched."""
    word = score_word
    measure = f"expected final {word}" if solo else "chance to win"
    caption = (f"{word}: expected final {word}, with a 95% interval" if solo else
               f"win: chance to win, with a 95% interval; {word}: expected final {word}") + \
        f". best: the highest {measure} among the moves measured; level: the search cannot tell it " \
        "from the best; ?: too few samples for an interval"
    lines, rows = [], []
    for h in hints:
        cells = [] if numbers is None else [str(numbers.get(h.action, "?"))]
        steps = [named_step(step, seat_names) if seat_names else step for step in h.line[:line_steps]]
        lines.append((Text(f"{cells[0]}) " if cells else "", style="bold green").append(h.text), steps))
        unknown = " (?)" if h.share > 0 else ""
        value, interval = _measure(h, solo)
        shown = (value + unknown, None) if interval is None else (value, f"({interval})")
        fame = None if solo else ("-" if h.expected_fame is None else f"{h.expected_fame:.0f}")
        rows.append((cells, Text(h.text), f"{h.share:.0%}", shown, fame, h.standing))
    table = HintsRows(rows, numbers is not None, solo, word)
    # The title and the legend at the console's width, not folded to the table's.
    heading, legend = Text(str(title), style="italic"), Text(caption, style="dim")
    if getattr(hints, "notice", None):
        legend = Text.assemble((hints.notice + "\n", "bold"), legend)
    if not any(steps for _, steps in lines):
        return Group(heading, table, legend)
    return Group(heading, table, legend, ExpectedLines(lines))


def measure_text(hint, solo: bool, score_word: str = "fame") -> str:
    """A hint's measure in words, with its 95% interval: "chance to win 54% (47-61%)";
    solo "expected final fame 73 (70-76)"."""
    value, interval = _measure(hint, solo)
    words = f"expected final {score_word}" if solo else "chance to win"
    return f"{words} {value} ({interval or TOO_FEW_WORDS})"


def _measure(hint, solo: bool) -> tuple[str, str | None]:
    """A hint's measure and its interval as text ("54%", "47-61%"; solo "73", "70-76"),
    the interval None where the hint has none. Rounded to whole units the two ends of a
    narrow interval can meet ("72-72%"), which would read as certainty: a decimal more is
    shown, the measure's too, until they differ (as the page's measureText does)."""
    iv = hint.interval
    x, scale, unit = (hint.expected_fame, 1, "") if solo else (hint.win_probability, 100, "%")
    digits = 0
    while iv is not None and digits < 3 and f"{iv[0] * scale:.{digits}f}" == f"{iv[1] * scale:.{digits}f}":
        digits += 1
    value = "-" if x is None else f"{x * scale:.{digits}f}{unit}"
    return value, None if iv is None else f"{iv[0] * scale:.{digits}f}-{iv[1] * scale:.{digits}f}{unit}"


MAX_LINE = 1000       # a line typed at a prompt: longer is refused (read again), not read


def too_long(line: str) -> str:
    """What a prompt says of a line over MAX_LINE characters (none of it is read)."""
    return f"a line of {len(line):,} characters: at most {MAX_LINE:,} are read here; type it again"


TOO_FEW_WORDS = "too few samples for an interval"


def weighed_line(hints, action: int, score_word: str = "fame") -> str:
    """An AI move's search in a line: the move's chance to win (solo: the expected final
    score) with its interval, as its search measured it."""
    played = next((h for h in hints if h.action == action), hints[0] if hints else None)
    if played is None:      # its other moves withheld, and its own not among those kept
        return f"{hints.iterations:,} iterations"
    return f"{measure_text(played, hints.measure == 'fame', score_word)}, {hints.iterations:,} iterations"


def policy_table(hints, title="Hints") -> Table:
    """The hints of a bot that does not report a search (measure "policy"): its move
    first, then the others by the probability its policy gives them."""
    t = Table(title=draw.cell(title), title_justify="left", box=box.SIMPLE_HEAD, caption_justify="left",
              caption="policy: the bot's probability of the move (its own move first)",
              min_width=min(len(title), 100))     # the title on a line, as the search's table has it
    t.add_column("move", ratio=1)
    t.add_column("policy", justify="right", style="bold")
    for h in hints:
        t.add_row(Text(h.text), f"{h.share:.0%}")
    return t


# ---------------------------------------------------------------------------------------
# A search in progress
# ---------------------------------------------------------------------------------------
@contextlib.contextmanager
def search_progress(console, description: str, iterations=None, seconds=None):
    """A progress bar while a search runs, on `console` if it is a terminal: yields the
    callback for the search's `progress=` (progress(iterations, seconds)). The bar fills
    with the iterations done (an iteration budget) or the time spent (seconds)."""
    if not console.is_terminal:
        yield None
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
               TextColumn("{task.fields[done]:,} iterations"), TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=iterations or seconds, done=0)

        def update(done, elapsed):
            bar.update(task, completed=done if iterations else min(elapsed, seconds), done=done)

        yield update
