"""The web page in a real headless Chromium (Debian's `chromium`, driven by Playwright's
Python package), against `gutenberg-ai serve` started as a user would on 127.0.0.1: a
whole game against the AI played by clicking, a hint, a bad position uploaded and its
errors shown, a record reviewed with its chart. Screenshots are kept as test artifacts
in test-artifacts/web/ (or $GUTENBERG_AI_ARTIFACTS), which CI keeps (docs/web.md).

Skipped, saying why, where there is no Chromium (CHROMIUM or /usr/bin/chromium) or no
Playwright; .ci/run installs both.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import pytest
from web_server import running_server

from gutenberg_ai import games

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e .[test])")

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)", allow_module_level=True)

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTIFACTS = pathlib.Path(os.environ.get("GUTENBERG_AI_ARTIFACTS", ROOT / "test-artifacts" / "web"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def server():
    """`gutenberg-ai serve --port 0` in a process of its own; its printed address."""
    with running_server("--workers", "2") as (url, log):
        yield url


@pytest.fixture(scope="module")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


# Every content security policy violation the page meets, as the browser reports it.
CSP_WATCH = ("window.__csp = []; document.addEventListener('securitypolicyviolation',"
             " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def opened(page, server):
    """Open the page and wait until it says it has filled every list it fills at its
    start (the games, the example positions: one request after another)."""
    page.goto(server)
    page.wait_for_selector("body[data-loaded]", state="attached")


@pytest.fixture
def page(server, browser):
    """A fresh page of its own (its own cookies: its own games and records), on the
    start of the page; after the test, nothing on it failed: no script error, no
    content security policy violation, no file of the page missing, its icon there."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors, missing = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: r.status >= 400 and "/api/" not in r.url and missing.append(f"{r.status} {r.url}"))
    opened(page, server)
    page.errors = errors
    yield page
    assert not errors, errors
    assert page.evaluate("window.__csp") == []
    assert not missing, missing
    # Its icon is there (headless Chromium asks for none, so the page is asked for it).
    assert page.evaluate("async () => { const l = document.querySelector('link[rel=icon]');"
                         " return !!l && (await fetch(l.href)).ok; }")
    context.close()


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_game(page, game, players=2, rounds=1, seed=5, ai="smmcts", iterations=30):
    page.select_option("#game", game)
    page.fill("#players", str(players))
    page.fill("#ai", ai)
    page.fill("#iterations", str(iterations))
    page.fill("#rounds", str(rounds))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board .board-section")


def click_a_move(page):
    """Take the person's decision by clicking: on the board where an item offers a legal
    move, else in the move list. Whether it was on the board."""
    target = page.locator("#board .clickable")
    if target.count():
        target.first.click()
        menu = page.locator(".move-menu button.move")
        if menu.count():
            menu.first.click()
        return True
    page.locator("#moves button.move").first.click()
    return False


def wait_for_decision(page, turn):
    page.wait_for_function("() => { const s = document.querySelector('#status').textContent;"
                           " return s.includes('Your decision') || s.includes('over'); }")
    assert not page.text_content("#play-error"), (turn, page.text_content("#play-error"))
    return "over" in page.text_content("#status")


def play(page, decisions, name=None, decide=None):
    """Take up to `decisions` of the person's decisions, each clicked (click_a_move)
    unless `decide(turn)` takes it (and says so: True), each waited for in the log (a
    decision may follow with the same words); a screenshot `name`-middle at the fourth,
    and `name`-end with the score sheet. Whether the game is over, and how many moves
    were clicked on the board."""
    on_board = 0
    for turn in range(decisions):
        if wait_for_decision(page, turn):
            break
        logged = page.locator("#log li").count()
        if not (decide and decide(turn)):
            on_board += click_a_move(page)
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {logged}")
        if name and turn == 3:
            shot(page, f"{name}-middle")
    over = wait_for_decision(page, decisions)
    if over and name:
        page.wait_for_selector("#score-sheet")
        shot(page, f"{name}-end")
    return over, on_board


def won(page) -> bool:
    sheet = page.text_content("#scores")
    return "Winner" in sheet or "Shared win" in sheet


def ask_for_a_hint(page, name, tab=""):
    """Hint for 0.3 s in Play (`tab` "") or At the table ("follow-"): a table of hints."""
    page.fill(f"#{tab}hint-seconds", "0.3")
    page.click(f"#{tab}hint")
    page.wait_for_selector(f"#{tab}hints table.hints tbody tr")
    assert re.search(r"\d+%", page.text_content(f"#{tab}hints"))
    shot(page, name)


def test_play_a_whole_game_by_clicking_with_a_hint(page):
    """Printing Press, 2 players, 1 round, the AI at 30 iterations a move: every decision
    is clicked on the board where a board item offers a legal move (a card of the
    offer, a tableau's cell), else in the move list; one hint is asked for; the game
    ends with the score sheet, and nothing on the page failed."""
    start_game(page, "printing-press")
    shot(page, "play-start")
    over, on_board = play(page, 200, "play", lambda turn: turn == 0 and ask_for_a_hint(page, "play-hint"))
    assert over, "the game did not end within 200 decisions"
    assert on_board > 0, "no move was clickable on the board"
    assert won(page)
    # Over: nothing acts on the game any more (its records and its review remain).
    assert page.is_disabled("#undo") and page.is_disabled("#hint") and page.is_disabled("#hint-seconds")
    assert not page.is_visible("#download-position")
    assert page.is_visible("#download-record") and page.is_enabled("#review-this")


def test_the_board_s_moves_are_buttons_to_the_keyboard_and_a_screen_reader(page):
    """A board item that plays a move is a button (role, name: its move, or what it shows
    and how many moves its menu has); Tab-focused, Enter or Space plays it, and a menu's
    moves are reached from the keyboard too."""
    start_game(page, "printing-press")
    keys = ["Enter", "Space"]
    for turn in range(40):
        if not keys or wait_for_decision(page, turn):
            break
        logged = page.locator("#log li").count()
        items = page.locator("#board [role=button]")
        if not items.count():          # (a decision the board does not show: the list)
            page.locator("#moves button.move").first.click()
        else:
            item = items.first
            # (all read before the key: the move re-draws the page)
            label, menu = item.get_attribute("aria-label"), item.get_attribute("aria-haspopup")
            assert label and item.get_attribute("tabindex") == "0"
            if menu:
                assert re.search(r": \d+ moves$", label), label
            elif not page.locator("#moves p.help").count():      # (the list shows them all)
                assert label in page.locator("#moves button.move").all_inner_texts(), label
            item.focus()
            page.keyboard.press(keys.pop(0))
            if menu:
                page.wait_for_selector(".move-menu[role=menu] button[role=menuitem]:focus")
                page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {logged}")
    assert not keys, "no move on the board in 40 decisions"
    assert not page.text_content("#play-error")


def test_the_hints_as_the_search_gives_them(page):
    """The hints table shows each move's standing as the hints give it (best, level,
    behind, too few samples), no interval where there is none, an interval whose ends
    round alike with the decimals that keep them apart (never "50%-50%"), the measure
    with as many, and the
    expected line a step an item, its unknown steps in the hints' words. The hints are
    the server's answer as hints.Hint writes them, fixed here so that every case shows."""
    from gutenberg_ai.search.hints import TOO_FEW, Hint, line_step
    hints = [Hint(action=1, text="the first move", share=0.4, win_probability=0.502, expected_fame=30.0,
                  interval=(0.501, 0.504), level=True, standing="best",
                  line=[line_step(1, None), line_step(-1, None)]),
             Hint(action=2, text="the second move", share=0.3, win_probability=0.45, expected_fame=28.0,
                  interval=(0.3, 0.6), level=True, standing="level", line=[line_step(0, "take card 5")]),
             Hint(action=3, text="the third move", share=0.2, win_probability=0.2, expected_fame=20.0,
                  interval=(0.1, 0.3), level=False, standing="behind"),
             Hint(action=4, text="the fourth move", share=0.1, win_probability=0.9, expected_fame=40.0,
                  interval=None, level=None, standing=TOO_FEW)]
    result = {"hints": [h.as_dict() for h in hints], "iterations": 1000, "seconds": 0.3, "measure": "win",
              "solo": False, "score_word": "points", "budget": {"seconds": 0.3}}
    start_game(page, "printing-press", ai="heuristic")
    wait_for_decision(page, 0)
    page.route("**/api/games/*/hint", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"result": result})))
    page.click("#hint")
    page.wait_for_selector("#hints table.hints tbody tr")
    rows = page.eval_on_selector_all("#hints table.hints tbody tr",
                                     "trs => trs.map(tr => [...tr.children].slice(1).map(td => td.textContent))")
    assert [r[2] for r in rows] == ["best", "level", "behind", TOO_FEW]
    assert [r[1] for r in rows] == ["50.2% (50.1%-50.4%)", "45% (30%-60%)", "20% (10%-30%)", "90%"]
    steps = page.eval_on_selector_all("#hints tbody tr:first-child .line li", "lis => lis.map(li => li.textContent)")
    assert steps == ["player 1: a move you do not see", "a draw, not known yet"]
    shot(page, "hints-standing")
    # The result's seat names (a table's) say who takes each step, shown as text.
    result["seat_names"] = ["<i>Anna</i>", "Ben"]
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#hints .line li')?.textContent.startsWith('Ben')")
    steps = page.eval_on_selector_all("#hints tbody tr .line li", "lis => lis.map(li => li.textContent)")
    assert steps == ["Ben: a move you do not see", "a draw, not known yet", "<i>Anna</i>: take card 5"]


def test_an_ai_move_s_why_shows_and_hides_what_it_weighed(page):
    """After an AI move the log has its line and a Why? button: it shows the moves the
    search weighed (from the game's state, as the hints table draws them: text, never
    markup) and hides them again."""
    start_game(page, "printing-press")
    for turn in range(20):
        if page.locator("#log button.why").count():
            break
        wait_for_decision(page, turn)
        logged = page.locator("#log li").count()
        click_a_move(page)
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {logged}")
    # The first AI move's line: the oldest (new lines come on top, the AI moving on).
    line = page.locator("#log li", has=page.locator("button.why")).last
    why, listed = line.locator("button.why"), line.locator(".why-list")
    assert "chance to win" in line.text_content()
    assert not listed.is_visible()
    # A log longer than its box (the box made short): the line is below the box's edge,
    # and opening its list brings the line to the box's top, the list under it.
    page.evaluate("document.getElementById('log').style.maxHeight = '8em'")
    why.click()
    assert listed.is_visible() and "what it weighed" in listed.locator("h3").text_content()
    line_top, list_top, box_top, box_bottom = line.evaluate(
        "li => [li.getBoundingClientRect().top, li.querySelector('.why-list').getBoundingClientRect().top,"
        " ...(r => [r.top, r.bottom])(document.getElementById('log').getBoundingClientRect())]")
    assert abs(line_top - box_top) <= 1 and list_top < box_bottom, (line_top, list_top, box_top, box_bottom)
    rows = listed.locator("table.hints tbody tr")
    assert rows.count() >= 1 and re.search(r"\d+%", rows.first.text_content())
    shot(page, "play-why")
    why.click()
    assert not listed.is_visible() and why.text_content() == "Why?"


def test_undo_after_a_stopped_search(page):
    """The AI's search stopped after the person's move: the page says Undo, and Undo
    acts (back to the person's decision)."""
    page.select_option("#game", "printing-press")
    page.fill("#seconds", "25")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#board .board-section")
    for turn in range(20):          # the person's decisions until the AI thinks
        wait_for_decision(page, turn)
        logged = page.locator("#log li").count()
        click_a_move(page)
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {logged}")
        page.wait_for_function("() => { const s = document.querySelector('#status').textContent;"
                               " return s.includes('thinking') || s.includes('Your decision'); }")
        if "thinking" in page.text_content("#status"):
            break
    assert page.is_disabled("#undo")        # the search holds the game
    # A record asked for meanwhile: the game as the search found it, saved at once.
    with page.expect_download() as during:
        page.click("#download-record")
    assert during.value.suggested_filename == "printing-press-game.json"
    with open(during.value.path(), encoding="utf-8") as f:
        searched = json.load(f)
    assert searched["format"] == "gutenberg-record" and not searched["finished"]
    page.click("#stop")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('stopped')")
    assert page.is_enabled("#undo")
    with page.expect_download() as saved:   # the search stopped: the same game, no AI move added
        page.click("#download-record")
    with open(saved.value.path(), encoding="utf-8") as f:
        assert json.load(f)["actions"] == searched["actions"]
    assert page.text_content("#play-error") == ""
    page.click("#undo")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your decision')")
    assert "Undone" in page.text_content("#log")


def test_play_a_short_gutenberg_game_with_a_plan_and_a_hint(page):
    """Gutenberg, 2 players, the AI at 30 iterations a move, a short game of ROUNDS
    rounds: every plan is entered as a plan (the five numbers of the plan form, not a
    move of the list), a hint is asked for at the first plan, every other decision is
    clicked on the board or in the move list; the game ends with the score sheet."""
    rounds = int(os.environ.get("GUTENBERG_AI_WEB_ROUNDS", "2"))
    start_game(page, "gutenberg", rounds=rounds, seed=4)
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Gutenberg')")
    shot(page, "gutenberg-start")
    plans = []

    def enter_a_plan(turn):
        if not page.locator("#plan-entry").count():
            return False
        inputs = page.locator("#plan-entry .entry-number")
        assert inputs.count() == 5
        example = [int(inputs.nth(i).input_value()) for i in range(5)]
        plan = example[1:] + example[:1]       # the same markers, placed otherwise
        for i, n in enumerate(plan):
            inputs.nth(i).fill(str(n))
        shot(page, f"gutenberg-plan-{len(plans) + 1}")
        if not plans:
            ask_for_a_hint(page, "gutenberg-hint")
            assert "plan" in page.text_content("#hints")
        page.click("#plan-submit")
        plans.append(plan)
        return True
    over, _ = play(page, 400, "gutenberg", enter_a_plan)
    assert over, "the game did not end within 400 decisions"
    assert len(plans) == rounds, plans
    log = page.text_content("#log")
    words = ("orders", "inks", "specialties", "gears", "patronage")
    for plan in plans:      # each plan played as entered, in the game's words
        assert "you: plan: " + ", ".join(f"{w} {n}" for w, n in zip(words, plan)) in log, (plan, log)
    assert won(page)


def places_hold_their_pieces(page) -> int:
    """Every shop of Lead Letter Printers' city board shows its full name unclipped, and
    every tradesman there is drawn inside its shop's cell; the tradesmen counted."""
    return page.evaluate("""() => {
        const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                                 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
        let pieces = 0;
        for (const cell of document.querySelectorAll('#board .grid.wide .sq.place.filled')) {
            const name = cell.querySelector('.place-name');
            if (!name || name.scrollWidth > name.clientWidth || !cell.title.startsWith(name.textContent))
                throw new Error('a shop name is cut: ' + cell.textContent);
            for (const p of cell.querySelectorAll('.piece')) {
                if (!inside(p.getBoundingClientRect(), cell.getBoundingClientRect()))
                    throw new Error('a tradesman outside its shop: ' + cell.textContent);
                pieces++;
            }
        }
        return pieces;
    }""")


def test_play_a_whole_lead_letter_printers_game_by_clicking(page):
    """Lead Letter Printers, 2 players, 2 rounds, the AI at 30 iterations a move: the form
    shows only the game's settings (no characters, no automa, no variant) and the game
    starts; every decision is clicked, on the board (a shop of the city board, a display)
    where an item offers a legal move, else in the move list; the city board's shops
    keep their full names and their tradesmen inside; the game ends with the score sheet."""
    page.select_option("#game", "lead-letter-printers")
    for hidden in ("#characters", "#automa", "#variant", "#one_token"):
        assert not page.locator(hidden).is_visible(), hidden
    assert page.locator("#factory_tops").is_visible() and page.is_checked("#factory_tops")   # the rulebook's
    start_game(page, "lead-letter-printers", rounds=2, seed=2)
    assert page.text_content("#status").startswith("Lead Letter Printers")
    assert page.locator("#board .grid.wide .sq.place.filled").count() == 9      # a 2-player city: 9 shops
    placed = []
    over, on_board = play(page, 400, "llp", lambda turn: placed.append(places_hold_their_pieces(page)))
    assert over, "the game did not end within 400 decisions"
    assert max(placed) >= 4, placed             # both players' tradesmen were on the board
    assert on_board > 0, "no move was clickable on the board"
    assert won(page)


def test_the_printing_press_solo_game_made_harder_from_the_form(page):
    """The solo difficulty's three boxes show for Printing Press only; ticked, the game
    starts with them (the board's heading says so)."""
    boxes = ("#one_token", "#automa_wins_ties", "#hard_board")
    page.select_option("#game", "gutenberg")
    assert not any(page.locator(box).is_visible() for box in boxes + ("#factory_tops",))
    page.select_option("#game", "printing-press")
    assert all(page.locator(box).is_visible() for box in boxes)
    page.check("#hard_board")
    page.check("#one_token")
    start_game(page, "printing-press", players=1, ai="heuristic")
    assert "harder: 1 setup token (not 3), solo board 5-4-3-1" in page.text_content("#board h2.heading")


def test_lead_letter_printers_city_board_for_four(page):
    """A 4-player city (16 shops): every shop's full name fits its cell, each tradesman
    inside its shop, once the setup's placements are made."""
    start_game(page, "lead-letter-printers", players=4, seed=3)
    assert page.locator("#board .grid.wide .sq.place.filled").count() == 16
    play(page, 2)                                    # the person's two placements
    assert places_hold_their_pieces(page) == 8       # and the others': two tradesmen a player
    page.locator("#board .board-section").first.screenshot(path=str(ARTIFACTS / "llp-4p-city.png"))


def test_review_a_game_played_with_its_chart(page):
    """A game played on the page (a few decisions), reviewed: the slider moves the board;
    the chart draws a line per player in the command line's plot colours, on axes
    labelled as the plot labels them."""
    from gutenberg_ai.tools.plots import COLOURS
    start_game(page, "printing-press", seed=7, ai="heuristic")
    play(page, 4)
    page.click("#review-this")
    page.wait_for_selector("#review-board .board-section")
    page.wait_for_selector("#chance-chart polyline.chance-line", timeout=120_000)
    page.wait_for_function("() => document.querySelector('#chance-status').textContent.includes('over the game')",
                           timeout=120_000)
    lines = page.locator("#chance-chart polyline.chance-line")
    assert lines.count() == 2
    assert [lines.nth(i).get_attribute("stroke") for i in range(2)] == list(COLOURS[:2])
    labels = page.eval_on_selector_all("#chance-chart text.axis-label", "ts => ts.map(t => t.textContent)")
    assert labels == ["action in the record", "chance to win"]
    ticks = page.eval_on_selector_all("#chance-chart text.tick", "ts => ts.map(t => t.textContent)")
    assert {"0%", "50%", "100%"} <= set(ticks)
    end = page.text_content("#review-where")
    page.fill("#review-slider", "1")
    page.dispatch_event("#review-slider", "input")
    page.wait_for_function("() => document.querySelector('#review-where').textContent.startsWith('move 1 ')")
    assert page.text_content("#review-where") != end
    shot(page, "review")


def test_upload_a_record_file_to_review(page, tmp_path):
    """A record written by `gutenberg-ai demo --save`, uploaded as a file."""
    path = tmp_path / "demo.json"
    subprocess.run([sys.executable, "-m", "gutenberg_ai", "demo", "--seed", "3", "--rounds", "1", "--quiet",
                    "--save", str(path)], check=True, capture_output=True)
    page.click("#tab-review")
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("() => document.querySelector('#record-pick').selectedOptions[0].textContent === 'demo.json'")
    page.wait_for_selector("#review-moves li")
    moves = sum(1 for a in json.loads(path.read_text())["actions"] if a["player"] >= 0)
    assert page.locator("#review-moves li").count() == moves
    shot(page, "review-upload")


def test_a_bad_position_shows_every_error(page, tmp_path):
    """A position with three mistakes: each is listed with its field, and no board."""
    good = json.loads((ROOT / "gutenberg_ai/games/gutenberg/data/positions/plan-round1-2p.json").read_text())
    good["round"] = 9
    good["players"][0]["guilders"] = -3
    good["players"][1]["fame"] = "lots"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(good))
    page.click("#tab-table")
    page.set_input_files("#position-file", str(bad))
    page.wait_for_selector("#position-errors li")
    errors = page.text_content("#position-errors")
    assert "round" in errors and "players[0].guilders" in errors and "players[1].fame" in errors
    assert page.locator("#position-errors li").count() >= 3
    assert page.locator("#position-board .board-section").count() == 0
    shot(page, "position-errors")
    # An example position: its table, then a hint for it.
    page.select_option("#example", "gutenberg/fulfil-round6-2p")
    page.wait_for_selector("#position-board .board-section")
    page.fill("#position-seconds", "0.3")
    page.click("#position-hint")
    page.wait_for_selector("#position-hints table.hints tbody tr")
    shot(page, "position-hint")


def load_example(page, name, data=None):
    """Choose an example position and wait until its text is in (and checked)."""
    if data is None:
        game, stem = name.split("/")
        folder = game.replace("-", "_")
        data = json.loads((ROOT / f"gutenberg_ai/games/{folder}/data/positions/{stem}.json").read_text())
    page.select_option("#example", name)
    page.wait_for_function("(want) => { try { return JSON.stringify(JSON.parse("
                           "document.querySelector('#position-text').value)) === JSON.stringify(want); }"
                           " catch (e) { return false; } }", arg=data)
    page.wait_for_function("() => document.querySelector('#position-status').textContent !== 'checking...'")


def check_form(page):
    """Check the form and wait for the server's answer."""
    page.click("#position-form-check")
    page.wait_for_function("() => document.querySelector('#position-status').textContent !== 'checking...'")


def test_the_page_is_open_once_its_example_positions_are_listed(server, browser):
    """The example positions come in the page's last request at its start: with their
    answer late, the opened page (what every test waits for) lists them all the same
    (waiting only for the games' list, a test read an empty list of examples)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)

        def late(route):
            time.sleep(1.5)
            route.continue_()
        page.route("**/api/positions/examples", late)
        opened(page, server)
        examples = [o for o in page.eval_on_selector_all("#example option", "os => os.map(o => o.value)") if o]
        assert "gutenberg/plan-round1-2p" in examples, examples
    finally:
        context.close()


def test_a_position_edited_in_a_form(page, tmp_path):
    """Every example position of every game as a form (built from the game's schema)
    gives back the same JSON; the main fields of each game are fields (round, step,
    players' holdings, the board or the offer); three wrong fields are shown each at its
    field, all at once; fixed, the form's JSON is what the command line's loader reads."""
    page.click("#tab-table")
    examples = [o for o in page.eval_on_selector_all("#example option", "os => os.map(o => o.value)") if o]
    assert {"gutenberg/plan-round1-2p", "printing-press/cards-round2-3p"} <= set(examples)
    forms = 0
    for name in examples:
        game, stem = name.split("/")
        folder = game.replace("-", "_")
        shipped = json.loads((ROOT / f"gutenberg_ai/games/{folder}/data/positions/{stem}.json").read_text())
        load_example(page, name, shipped)
        page.click("#position-form-open")
        if not shipped["format"].endswith("-position"):      # a start file (cfr-mini): no position form
            page.wait_for_function("() => document.querySelector('#position-errors').textContent.includes('not a position')")
            continue
        page.wait_for_selector("#position-form .form-top")
        check_form(page)
        assert page.locator("#position-board .board-section, #position-board pre.text-board").count(), name
        assert json.loads(page.input_value("#position-text")) == shipped, name
        forms += 1
        assert page.locator("#position-form .field-error").count() == 0
    assert forms >= 7
    # Printing Press: the step, a player's holdings, the offer.
    load_example(page, "printing-press/cards-round2-3p")
    page.click("#position-form-open")
    page.wait_for_selector("#position-form .form-top")
    for path in ("round", "step.kind", "step.player", "offer[0]", "offer[1]", "players[0].cubes",
                 "players[0].orders[0][0]", "players[0].tableau[0]", "players[0].character"):
        assert page.locator(f'#position-form [data-path="{path}"]').count() == 1, path
    assert page.locator('#position-form select[data-path="step.kind"]').count() == 1
    shot(page, "position-form-pp")
    # Gutenberg: wrong fields, every one at its field.
    load_example(page, "gutenberg/plan-round1-2p")
    page.click("#position-form-open")
    page.wait_for_selector("#position-form .form-top")
    for path in ("round", "first_player", "step.kind", "step.player", "board.printing[0]", "board.inks[0][1]",
                 "players[0].guilders", "players[0].fame", "players[0].types", "players[1].orders[0][0]"):
        assert page.locator(f'#position-form [data-path="{path}"]').count() == 1, path
    kinds = page.eval_on_selector('#position-form select[data-path="step.kind"]',
                                  "s => [...s.options].map(o => o.value)")
    assert {"plan", "turn", "fulfil"} <= set(kinds)
    field = lambda path: page.locator(f'#position-form .form-input[data-path="{path}"]')     # noqa: E731
    field("round").fill("9")
    field("players[0].guilders").fill("-3")
    field("players[1].fame").fill("lots")
    check_form(page)
    errors = {page.get_attribute(f'#position-form .field-error >> nth={i}', "data-where")
              for i in range(page.locator("#position-form .field-error").count())}
    assert errors == {"round", "players[0].guilders", "players[1].fame"}
    for path, words in (("round", "out of range"), ("players[0].guilders", "out of range"),
                        ("players[1].fame", "whole number")):
        # Shown beside its own field, in the loader's words.
        row = page.locator(f'#position-form .form-row:has(> [data-path="{path}"])')
        assert words in row.locator(".field-error").text_content(), path
    assert page.locator("#position-board .board-section").count() == 0
    shot(page, "position-form-errors")
    field("round").fill("1")
    field("players[0].guilders").fill("7")
    field("players[1].fame").fill("0")
    check_form(page)
    assert page.locator("#position-board .board-section").count()
    assert page.locator("#position-form .field-error").count() == 0
    written = json.loads(page.input_value("#position-text"))
    shipped = json.loads((ROOT / "gutenberg_ai/games/gutenberg/data/positions/plan-round1-2p.json").read_text())
    shipped["players"][0]["guilders"] = 7
    assert written == shipped
    path = tmp_path / "from-the-form.json"
    path.write_text(page.input_value("#position-text"))
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "hint", str(path), "--iterations", "50", "--top", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    shot(page, "position-form")


def test_at_the_table_a_followed_game_entered_by_clicking(page):
    """At the table: a recorded Gutenberg game (2 players, you in seat 1) followed on the
    page: the first draws clicked in the list of what can be entered, the next typed in
    its words; the page says what it waits for, and the entries' log shows them; a card
    already out is refused; the draws typed up to the first decision, hinted; a correction
    names the entry that no longer fits."""
    from test_table_follow import recorded
    _, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    page.click("#tab-follow")
    page.select_option("#follow-game", "lead-letter-printers")      # only the game's own settings
    assert page.is_visible("#follow-rounds") and not page.is_visible("#follow-characters")
    page.select_option("#follow-game", "gutenberg")
    assert page.is_visible("#follow-characters") and page.is_checked("#follow-characters")
    page.fill("#follow-players", "2")
    page.fill("#follow-seat", "1")
    page.fill("#follow-seed", "5")
    page.click("#follow-start")
    for i in range(3):
        page.wait_for_selector(f"#follow-status:has-text('(entry {i + 1})')")
        assert "what came up" in page.inner_text("#follow-status")
        page.locator("#follow-options button.entry-option", has_text=re.compile(f"^{re.escape(acts[i]['text'])}$")).click()
    page.wait_for_selector("#follow-status:has-text('(entry 4)')")
    page.fill("#follow-text", acts[3]["text"])
    page.press("#follow-text", "Enter")
    page.wait_for_selector("#follow-status:has-text('(entry 5)')")
    page.wait_for_selector("#follow-log li:nth-child(4)")
    log = page.locator("#follow-log li").all_inner_texts()
    assert log == [f"chance: {a['text']}" for a in acts[:4]]
    page.fill("#follow-text", acts[0]["text"])        # a card already out: refused, nothing changes
    page.press("#follow-text", "Enter")
    page.wait_for_selector("#follow-error:has-text('is none of what can be entered now')")
    assert "(entry 5)" in page.inner_text("#follow-status")
    shot(page, "at-the-table")
    while "what came up" in page.inner_text("#follow-status"):     # the draws up to a decision, typed
        status = page.inner_text("#follow-status")
        n = int(re.search(r"\(entry (\d+)\)", status).group(1)) - 1     # what the other's unseen moves left
        page.fill("#follow-text", acts[n]["text"])
        page.press("#follow-text", "Enter")
        page.wait_for_function("(before) => document.getElementById('follow-status').textContent !== before", arg=status)
    assert "move" in page.inner_text("#follow-status")
    page.fill("#follow-hint-seconds", "0.3")
    page.click("#follow-hint")
    page.wait_for_selector("#follow-hints table.hints")
    shot(page, "at-the-table-hint")
    page.fill("#follow-fix-entry", "1")          # the second card said to be the first
    page.fill("#follow-fix-text", acts[1]["text"])
    page.click("#follow-fix")
    page.wait_for_selector(f"#follow-error:has-text('no longer fits, left out: entry 2 (chance: {acts[1]['text']})')")


def test_at_the_table_begun_from_a_position_shows_the_positions_game_in_the_form(page):
    """At the table from a pasted Lead Letter Printers position while the form's game is
    Gutenberg: the followed game is the position's, and so is the form's game (with its
    own settings shown)."""
    llp = (ROOT / "gutenberg_ai/games/lead_letter_printers/data/positions/table-3p.json").read_text()
    page.click("#tab-follow")
    page.select_option("#follow-game", "gutenberg")
    page.click("#follow-under-way summary")
    page.fill("#follow-position", llp)
    page.click("#follow-start")
    page.wait_for_selector("#follow-status:has-text('(entry 1)')")
    assert page.input_value("#follow-game") == "lead-letter-printers" and page.input_value("#follow-players") == "3"
    assert page.is_visible("#follow-rounds") and not page.is_visible("#follow-characters")


def test_at_the_table_a_whole_recorded_game_typed_ends_in_its_scores(page):
    """At the table: a whole recorded Gutenberg game (2 players, you in seat 1) typed entry
    by entry in the page's text field with Enter; at the end the page's board shows the
    recording's final scores on both players' sheets, and its verdict the recorded winner
    (the first seeded game of the heuristic players that seat 1, you, wins)."""
    from test_table_follow import recorded
    record = next(r for r in (recorded("gutenberg", 2, seed=seed)[1] for seed in range(3, 30))
                  if r.result["winners"] == [1])
    acts = record.actions
    status = start_table(page, "gutenberg", 2, 1)
    plans = 0
    for _ in range(3 * len(acts)):
        found = re.match(r"entry (\d+), ", status) or re.search(r"\(entry (\d+)\)", status)   # a reveal first
        if found is None:
            break
        plans += enter_recorded(page, acts[int(found.group(1)) - 1]["text"])
        status = entered(page, status)
    assert "over" in status
    assert plans == 6, plans             # your plan in each round, by the form
    scores = record.result["scores"]
    assert record.result["winners"] == [1] and page.inner_text("#follow-scores .verdict") == "Winner: you"
    board = page.inner_text("#follow-board")       # your sheet first (seat 1), then player 0's
    assert [int(x) for x in re.findall(r"end scoring now: (\d+)", board)] == [scores[1], scores[0]], board


# What a card lookup finds a drawn card by, as a person reads it off the card: the card's
# kind and what it shows, without its number (Printing Press' deal, Lead Letter
# Printers' lead letters and technologies; the orders' faces are too alike for a bag of
# words).
LOOKED_UP = {"printing-press": ("deal card",), "lead-letter-printers": ("draw lead letter", "draw technology")}


def as_the_card_shows(text):
    """'deal card 78 (woodcutting / O / illuminating)' -> 'card woodcutting O illuminating'."""
    head, shows = re.fullmatch(r"(.*?) \((.*)\)", text).groups()
    return " ".join([w for w in head.split()[1:] if not w.isdigit()] + re.sub(r"[/|]", " ", shows).split())


def printed_alike(key, text):
    """Whether the card a draw names shows the same as another of its kind (two lead
    letters "AD, 1 paper"): typed as it shows, the entry is the first of them, which need
    not be the recording's, so the recording's words are typed instead."""
    def face(words):
        return re.sub(r"\b\d+\b", "#", words, count=1)
    drawn = face(text.split(" ", 1)[1])           # "draw lead letter 30 AD (1 paper)"
    return sum(face(m.text) == drawn for m in games.get(key).cards.find_cards("")) > 1


# The most requests on a followed game the page has had unanswered at once.
AT_ONCE = """() => { const fetch = window.fetch; let open = 0; window.__atOnce = 0;
  window.fetch = (url, ...more) => {
    if (!/\\/api\\/tables\\/[^/]+/.test(url)) return fetch(url, ...more);
    window.__atOnce = Math.max(window.__atOnce, ++open);
    return fetch(url, ...more).finally(() => { open--; }); }; }"""


# The page's line (what it waits for) once it is not `before`, and its error, if any.
NEXT = """(before) => { const s = document.getElementById('follow-status').textContent;
  const e = document.getElementById('follow-error').textContent;
  return s !== before || e !== '' ? {status: s, error: e} : false; }"""


def entered(page, status) -> str:
    """Wait until the page has taken the entry just made (its line says what it waits for
    next: returned) or refused it (the test fails with the page's reason). One request
    to the browser: a whole game is hundreds of entries."""
    now = page.wait_for_function(NEXT, arg=status, polling=10).json_value()
    assert not now["error"], (status, now["error"])
    return now["status"]


def type_entry(page, text):
    page.fill("#follow-text", text)
    page.press("#follow-text", "Enter")


def start_table(page, key, players, seat) -> str:
    """At the table on the page: game `key`, `players`, you in `seat`, seed 5, started;
    what it waits for first."""
    page.click("#tab-follow")
    page.select_option("#follow-game", key)
    page.fill("#follow-players", str(players))
    page.fill("#follow-seat", str(seat))
    page.fill("#follow-seed", "5")
    page.click("#follow-start")
    page.wait_for_selector("#follow-status:has-text('(entry 1)')")
    return page.text_content("#follow-status")


def enter_recorded(page, text) -> bool:
    """Enter a recorded entry's words at the table: your own plan in the five numbers of
    the plan form (as in Play; True), anything else typed."""
    if text.startswith("plan: ") and page.locator("#follow-plan-entry").count():
        inputs = page.locator("#follow-plan-entry .entry-number")
        assert inputs.count() == 5
        for i, n in enumerate(re.findall(r"\d+", text)):
            inputs.nth(i).fill(n)
        page.click("#follow-plan-submit")
        return True
    type_entry(page, text)
    return False


def click_entry(page, text) -> bool:
    """Click the entry with these words in the list of what can be entered, if it is
    shown there (the list shows the first 60)."""
    button = page.locator("#follow-options button.entry-option", has_text=re.compile(f"^{re.escape(text)}$"))
    if not button.count():
        return False
    button.first.click()
    return True


def correct_a_draw(page, status, acts, n, name) -> str:
    """At draw `n` (0-based), a wrong card entered (clicked in the list), the next draw
    entered as it came, then the wrong one fixed: the next draw still fits and is kept.
    What the page waits for then."""
    coming = {a["text"] for a in acts[n:n + 6]}
    options = page.locator("#follow-options button.entry-option").all_inner_texts()
    wrong = next(t for t in options if t not in coming and t.split()[:2] == acts[n]["text"].split()[:2])
    click_entry(page, wrong)
    status = entered(page, status)
    type_entry(page, acts[n + 1]["text"])
    entered(page, status)
    page.wait_for_selector(f"#follow-log li[value='{n + 1}']:has-text('{wrong}')")
    page.fill("#follow-fix-entry", str(n + 1))
    page.fill("#follow-fix-text", as_the_card_shows(acts[n]["text"]))
    page.click("#follow-fix")
    page.wait_for_selector(f"#follow-log li[value='{n + 1}']:has-text('{acts[n]['text']}')")
    assert not page.inner_text("#follow-error"), page.inner_text("#follow-error")      # nothing left out
    assert page.locator(f"#follow-log li[value='{n + 2}']").inner_text() == f"chance: {acts[n + 1]['text']}"
    shot(page, name)
    return page.text_content("#follow-status")


def follow_a_whole_game_on_the_page(page, key, players, seat, name):
    """A recorded game of heuristic bots followed on the page from seat `seat` as a
    person enters it: every entry in turn clicked in the list, typed in its words, or
    (a drawn card) typed as the card shows; a hint at your first decision and at another
    player's (solo: the automa's cards are draws); a wrong card corrected with Fix. The
    page's final score sheet and verdict against the recording's."""
    from test_table_follow import recorded
    _, record, _ = recorded(key, players)
    acts = record.actions
    looked_up = LOOKED_UP[key]
    page.click("#tab-follow")
    page.select_option("#follow-game", key)
    page.fill("#follow-players", str(players))
    page.fill("#follow-seat", str(seat))
    page.fill("#follow-seed", "5")
    page.evaluate(AT_ONCE)
    page.click("#follow-start")
    page.wait_for_selector("#follow-status:has-text('(entry 1)')")
    fix_at = next(n for n in range(12, len(acts) - 1)       # two draws of a kind in a row
                  if any(acts[n]["text"].startswith(k) and acts[n + 1]["text"].startswith(k) for k in looked_up))
    hinted, manners = set(), {"clicked": 0, "typed": 0, "looked up": 0}
    shots = {0: f"{name}-start"}
    status = page.text_content("#follow-status")
    for _ in range(2 * len(acts)):
        found = re.match(r"entry (\d+), ", status) or re.search(r"\(entry (\d+)\)", status)   # a reveal first
        if found is None:
            break
        n = int(found.group(1)) - 1
        text = acts[n]["text"]
        if status.startswith("what came up") and n == fix_at:
            status = correct_a_draw(page, status, acts, n, f"{name}-fix")
            continue
        whose = "own" if status.startswith("your move") else "other" if "'s move" in status else None
        if whose and whose not in hinted:
            if page.locator("#follow-options button.entry-option").count() > 1:
                hinted.add(whose)
                ask_for_a_hint(page, f"{name}-hint-{whose}", "follow-")
        if text.startswith(looked_up) and n % 2 and not printed_alike(key, text):
            type_entry(page, as_the_card_shows(text))
            manners["looked up"] += 1
        elif n % 3 == 0 and click_entry(page, text):
            manners["clicked"] += 1
        else:
            type_entry(page, text)
            manners["typed"] += 1
        status = entered(page, status)
        if n in shots:
            shot(page, shots.pop(n))
    assert "over" in status
    # The page never sent a request on the game while another was unanswered (the server
    # would refuse it as busy: an entry made just after another could meet the log's request).
    assert page.evaluate("window.__atOnce") == 1
    assert hinted == ({"own", "other"} if players > 1 else {"own"}), hinted
    assert min(manners.values()) > 10, manners
    shot(page, f"{name}-end")
    sheet = page.locator("#follow-score-sheet tr").all()
    head = sheet[0].locator("th").all_inner_texts()
    totals = {row[head.index("seat")]: int(row[head.index("total")])
              for row in (r.locator("td").all_inner_texts() for r in sheet[1:])}
    labels = ["you" if s == seat else f"player {s}" for s in range(players)]
    assert totals == dict(zip(labels, record.result["scores"])), totals
    verdict = page.inner_text("#follow-scores .verdict")
    if players == 1:        # against the automa, whose score the recording does not keep
        assert re.fullmatch(rf"You beat the automa, {totals['you']} to \d+|The automa wins, \d+ to {totals['you']}",
                            verdict), verdict
    else:
        winners = [labels[s] for s in record.result["winners"]]
        assert verdict == "Winner: " + winners[0] and len(winners) == 1


def test_at_the_table_the_automas_planning_card_is_said_arrow_by_arrow(page):
    """Solo Gutenberg at the table: once the automa's planning card is entered, the log
    shows under it each arrow and the markers the card leaves, what the person moves on
    the automa's board (the API's `notes`)."""
    from test_table_follow import recorded
    _, record, _ = recorded("gutenberg", 1)
    acts = record.actions
    card = next(i for i, a in enumerate(acts) if a["text"].startswith("automa planning card"))
    status = start_table(page, "gutenberg", 1, 0)
    while True:
        n = int(re.search(r"\(entry (\d+)\)", status).group(1)) - 1
        if n > card:
            break
        enter_recorded(page, acts[n]["text"])
        status = entered(page, status)
    line = page.locator(f"#follow-log li[value='{card + 1}']")
    line.wait_for()
    notes = line.locator(".rule-note").all_inner_texts()
    assert notes[0].strip().startswith("arrow 1, ") and notes[-1].strip().startswith("its markers now: orders ")
    assert line.inner_text().startswith(f"chance: {acts[card]['text']}")
    assert page.locator(f"#follow-log li[value='{card}'] .rule-note").count() == 0   # the entry before: none


def test_at_the_table_a_whole_printing_press_game_for_three(page):
    """Printing Press, 3 players, you in seat 2: the recorded game followed on the page to
    its recorded scores and winner (follow_a_whole_game_on_the_page)."""
    follow_a_whole_game_on_the_page(page, "printing-press", 3, 2, "at-the-table-pp")


def test_at_the_table_a_whole_lead_letter_printers_game_for_four(page):
    """Lead Letter Printers, 4 players, you in seat 0: the recorded game followed on the
    page to its recorded scores and winner (follow_a_whole_game_on_the_page)."""
    follow_a_whole_game_on_the_page(page, "lead-letter-printers", 4, 0, "at-the-table-llp")


def test_at_the_table_a_whole_printing_press_solo_game(page):
    """Printing Press solo against the automa (its cards entered as they are turned): the
    recorded game followed on the page to its recorded score (follow_a_whole_game_on_the_page)."""
    follow_a_whole_game_on_the_page(page, "printing-press", 1, 0, "at-the-table-pp-solo")


def test_a_reload_keeps_the_game_and_the_table_open(page):
    """A reload (F5) comes back to Play's game and the followed table as they stood:
    the server holds them, the tab remembers which; a new game forgets the old one."""
    start_game(page, "printing-press", ai="heuristic")
    first = page.inner_text("#board")
    click_a_move(page)
    page.wait_for_function("(first) => document.querySelector('#board').innerText !== first"
                           " && document.querySelector('#status').textContent.includes('Your decision')", arg=first)
    board = None
    while board != page.inner_text("#board"):      # settled: the AI's moves between shown
        board = page.inner_text("#board")
        page.wait_for_timeout(1000)
    before = page.inner_text("#log")
    page.reload()
    page.wait_for_selector("body[data-loaded]", state="attached")
    assert page.is_visible("#game-area") and not page.is_visible("#new-game")
    assert page.inner_text("#board") == board
    assert sorted(page.inner_text("#log").splitlines()) == sorted(before.splitlines())    # the seed's line first
    page.click("#tab-follow")
    page.select_option("#follow-game", "printing-press")
    page.fill("#follow-players", "3")
    page.fill("#follow-seat", "1")
    page.click("#follow-start")
    page.wait_for_selector("#follow-status:has-text('(entry 1)')")
    seed = page.input_value("#follow-seed")
    assert seed.isdigit()           # no seed given: the table's new one, shown in the form
    page.locator("#follow-options button.entry-option").first.click()
    page.wait_for_selector("#follow-status:has-text('(entry 2)')")
    page.reload()
    page.wait_for_selector("body[data-loaded]", state="attached")
    assert page.is_visible("#follow") and "(entry 2)" in page.inner_text("#follow-status")
    # The form says the game that came back, not its defaults.
    assert [page.input_value(f"#follow-{k}") for k in ("game", "players", "seat", "seed")] == \
        ["printing-press", "3", "1", seed]
    page.click("#tab-play")
    page.click("#new")
    page.reload()
    page.wait_for_selector("body[data-loaded]", state="attached")
    assert page.is_visible("#new-game") and not page.is_visible("#game-area")


def test_at_a_phones_width_the_page_is_one_column_and_no_wider(page):
    page.set_viewport_size({"width": 390, "height": 844})
    start_game(page, "printing-press", players=3, ai="heuristic")
    click_a_move(page)
    page.wait_for_function("() => !document.querySelector('#status').textContent.includes('thinking')")
    shot(page, "phone-printing-press")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, width
    board, aside = (page.locator(sel).bounding_box() for sel in ("#board", "#play aside"))
    assert aside["y"] >= board["y"] + board["height"] - 1      # the moves below the board, not beside it
