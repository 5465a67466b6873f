"""The web application: a JSON API (FastAPI; its OpenAPI document at /openapi.json and
the interactive one at /docs) and the page, plain static modules in
gutenberg_ai/interfaces/web/static/ (no build step). docs/web.md describes both.

Every request is checked: a bad field is a 422 naming it, an unknown game or record a
404, a busy game a 409, too big an upload a 413, a full server a 503; nothing ends in a
500 with a traceback (an unexpected error is logged and answered with a line saying so).
The client never names a file on the server: positions and records come in the request,
and the shipped example positions are named by their game and name from a list.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import time
from pathlib import Path
from typing import Annotated, Optional

import fastapi
import pyspiel
from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection

from gutenberg_ai._version import __version__
from gutenberg_ai import games
from gutenberg_ai.search.hints import hint
from gutenberg_ai.common.jsonfile import FileDataError, decode_json, plain_text
from gutenberg_ai.games.positionfile import PositionError, load_position
from gutenberg_ai.games.records import MAX_PERSON_NAME, RecordError, load_record
from gutenberg_ai.interfaces.choices import UsageError, fresh_seed, known_params, load_game
from gutenberg_ai.interfaces.web.searches import Runner
from gutenberg_ai.interfaces.web.sessions import (Held, Limits, NotNow, Review, Store, WebGame, WebTable,
                                                  board_of, no_reading, review_of_game)

log = logging.getLogger("gutenberg_ai.interfaces.web")
STATIC = Path(__file__).parent / "static"
WEB_BOTS = ("smmcts", "ismcts", "learned", "heuristic", "random")   # the AI seats the page offers: stoppable searches
USER_ERRORS = (FileDataError, ValueError, pyspiel.SpielError)
STOPPING_SECONDS = 10.0     # how long a request waits for a search told to stop to end
LOOK_SECONDS = 5.0          # how long a look at a game waits for a change under way (a move)
MAX_VERSION = 2**31 - 1     # the largest `at` a request may name (a game's changes are far fewer)


class ApiError(Exception):
    """A request that cannot be served: its status, a message, and the problems (field,
    reason) of a file."""

    def __init__(self, status: int, message: str, problems=()):
        super().__init__(message)
        self.status, self.message, self.problems = status, message, list(problems)


def user_error(e: Exception, status: int = 422, where: str = "request") -> ApiError:
    """The ApiError of what a person got wrong: a file's problems as the file names them,
    anything else one problem at `where` (the field, or the request as a whole)."""
    if isinstance(e, FileDataError):
        return ApiError(status, str(e), e.problems)
    return ApiError(status, str(e), [(where, str(e))])


@contextlib.contextmanager
def refused(status: int = 422, where: str = "request"):
    """What a person got wrong (USER_ERRORS) inside, answered as an ApiError of `status`
    (user_error)."""
    try:
        yield
    except USER_ERRORS as e:
        raise user_error(e, status, where) from None


@contextlib.contextmanager
def said_of(name: str):
    """A file's problems found inside, said of `name`, the upload's: a loader given the
    decoded JSON names it only by its kind ("position", "record")."""
    try:
        yield
    except FileDataError as e:
        raise type(e).of(name, e.problems) if e.path is None else e from None


def named_field(error: Exception, fields) -> list:
    """The problems of an error that names the request's `fields` as the games' settings
    word them ("players: 1 is out of range (2-4)"; "names.1: ..." an item of one), each
    at its field (a game's ParameterError may name several); else none."""
    named = getattr(error, "problems", None) or [str(error).partition(": ")[::2]]
    return [(where, reason) for where, reason in named if reason and where.split(".")[0] in fields]


# ---------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------
class Strict(BaseModel):
    """A request body: no field it does not name, and each of its own JSON type (true is
    not a number, "2" not a count, 1e3 not a whole number): refused, naming the field,
    rather than converted."""
    model_config = ConfigDict(extra="forbid", strict=True)


# A search's budget as a request gives it, refused (422 naming the field) before any work:
# a finite, positive time and a positive iteration count here; their upper bounds are the
# server's caps (Limits, within gutenberg_ai.common.limits), checked by create_app's budget()
# so that the message names the cap this server has.
Seconds = Annotated[Optional[float], Field(gt=0, allow_inf_nan=False)]
Iterations = Annotated[Optional[int], Field(ge=1)]
Seed = Annotated[int, Field(ge=0, le=2**31 - 1)]


class GameSettings(Strict):
    """The settings of a game, played or followed: each is refused, by name, by a game
    that does not have it (GET /api/info lists each game's parameters)."""
    characters: Optional[bool] = Field(None, description="character tiles (the game's default: yes)")
    automa: bool = Field(False, description="Gutenberg: the rulebook's automa as an extra seat (always solo)")
    rounds: Optional[int] = Field(None, ge=0, le=20, description="fewer rounds: a short game (each game has its "
                                  "own bound: Gutenberg 6, Printing Press 3, Lead Letter Printers 20, where 0, "
                                  "its default, plays until the orders run out)")
    variant: Optional[str] = Field(None, description="Printing Press: basic or advanced")
    factory_tops: Optional[bool] = Field(None, description="Lead Letter Printers: the factory piles face up, each "
                                         "top in view (the game's default: yes); false: drawn as from a face-down "
                                         "deck")
    # Printing Press's solo game made harder (rulebook p.17, any combination).
    one_token: Optional[bool] = Field(None, description="Printing Press solo: 1 setup token instead of 3")
    automa_wins_ties: Optional[bool] = Field(None, description="Printing Press solo: the automa wins ties for "
                                             "initiative")
    hard_board: Optional[bool] = Field(None, description="Printing Press solo: the solo board's higher-scoring "
                                       "side (5, 4, 3, 1)")

    def settings(self) -> dict:
        """The game's parameters these settings give (None: not given; the automa apart)."""
        return {name: getattr(self, name) for name in GAME_SETTINGS}


# The game parameters a request names as they are (the automa is made from a flag and the players).
GAME_SETTINGS = tuple(name for name in GameSettings.model_fields if name != "automa")


class NewGame(GameSettings):
    """A new game against the AI."""
    game: str = Field(games.DEFAULT_GAME, description="the game: " + ", ".join(games.GAMES))
    players: int = Field(2, ge=1, le=4, description="the people, you included; 1 is solo")
    seat: int = Field(0, ge=0, le=3, description="your seat")
    ai: list[str] = Field(["smmcts"], min_length=1, max_length=3,
                          description="the AI seats' bot, one for all or one per AI seat: " + ", ".join(WEB_BOTS))
    seconds: Seconds = Field(None, description="a searching AI's time a move")
    iterations: Iterations = Field(None, description="or its iterations a move (reproducible)")
    seed: Optional[int] = Field(None, ge=0, le=2**31 - 1, description="the deal and the AI (default: a new one)")


class NewTable(GameSettings):
    """A game followed at a real table ("At the table"): the same settings as a played
    game, the person's seat and the players' names."""
    game: str = Field(games.DEFAULT_GAME, description="the game: " + ", ".join(games.GAMES))
    players: int = Field(2, ge=1, le=4, description="the players at the table, you included; 1 is solo")
    seat: int = Field(0, ge=0, le=3, description="your seat")
    names: Optional[list[Annotated[str, Field(max_length=MAX_PERSON_NAME)]]] = Field(
        None, min_length=1, max_length=4, description="the players' names in seat order (yours included)")
    seed: Optional[Seed] = Field(None, description="the placeholders of what you do not see, and the hints "
                                                   "(default: a new one, in the table's view)")
    position: Optional[str] = Field(None, description="a game under way: a position file's JSON text; the game, "
                                    "players and settings are the file's (those given must agree), the names "
                                    "the file's unless given")


class Entry(Strict):
    """What the table shows: an action id, a number of the menu, or words (the game's
    words, their start, or a card by what it shows: "A I U 5 guilders"); one of them."""
    action: Optional[int] = Field(None, ge=0, le=2**31 - 1)
    number: Optional[int] = Field(None, ge=1, le=100_000)
    text: Optional[str] = Field(None, min_length=1, max_length=200)
    at: Optional[int] = Field(None, ge=0, le=MAX_VERSION,
                              description="the `version` of the page's view: another means the table has changed "
                                          "since (a second click, another tab), a 409, nothing entered")


class AtEntry(Entry):
    """An entry's value given again: a hidden entry now shown (reveal), or a correction (fix)."""
    # 0 is let through to the model, which names it: the position's start, for a table begun from one.
    entry: int = Field(ge=0, le=1_000_000, description="the entry's number (the log's; 1 the first)")


class Move(Strict):
    """The person's move: an action of the moves listed, or numbers as the game reads
    them (Gutenberg's plan as five numbers; a row and a column)."""
    action: Optional[int] = Field(None, ge=0, le=2**31 - 1)
    numbers: Optional[list[int]] = Field(None, min_length=1, max_length=8)
    at: Optional[int] = Field(None, ge=0, le=MAX_VERSION,
                              description="the `version` of the page's view: another means the game has changed "
                                          "since (a second click, another tab, an undo), a 409, nothing played")


class Budget(Strict):
    seconds: Seconds = None
    iterations: Iterations = None
    top: int = Field(5, ge=1, le=20)
    seed: Optional[Seed] = Field(None, description="the search's seed (default: the game's or the table's seed; "
                                                   "for a position a new one; the one used is in the answer)")


class Upload(Strict):
    """A file's contents as text, and its name (for messages)."""
    text: str
    name: str = Field("upload.json", max_length=200)


class PositionHint(Upload, Budget):
    pass


class TableHint(Budget):
    player: Optional[int] = Field(None, ge=0, le=3, description="another player's decision (from what you know)")


class CheckedJsonRequest(Request):
    """A request whose JSON body is read as a file's JSON is (jsonfile.decode_json): a key
    given twice, deep nesting, a number no field holds are refused naming the place, where
    json.loads would keep the last of two keys, silently."""

    async def json(self):
        if not hasattr(self, "_json"):
            self._json = decode_json(await self.body(), "request body", FileDataError)
        return self._json


class CheckedJsonRoute(APIRoute):
    """The API's routes: their bodies read by CheckedJsonRequest. FastAPI answers a body
    its reading refused with a 400 caused by the FileDataError; create_app's handler says
    its problems (422)."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def checked(request: Request):
            return await handler(CheckedJsonRequest(request.scope, request.receive))
        return checked


# ---------------------------------------------------------------------------------------
# The application
# ---------------------------------------------------------------------------------------
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")    # the Host names a loopback server answers to
PAGE_COOKIE = "gutenberg_page"
PAGE_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")     # secrets.token_urlsafe(16)
# The page's own policy: its modules, style sheet and API from this server, nothing
# inline, no frames. The API's interactive documents load Swagger UI and ReDoc from
# their CDN with an inline script, so they have a looser one of their own.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
               "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
               "worker-src blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")


def allowed_hosts(bind: str, named: str = "") -> list[str]:
    """The Host header values a server listening on `bind` answers to (docs/web.md): a
    loopback address only the loopback names; another address itself, the loopback names
    and the names in `named` (comma-separated: $GUTENBERG_AI_HOSTS); every address
    (0.0.0.0, ::) the machine's own names besides."""
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        address = None
    if bind == "localhost" or (address is not None and address.is_loopback):
        return list(LOOPBACK)
    hosts = list(LOOPBACK) + [n.strip().lower() for n in named.split(",") if n.strip()]
    if address is not None and address.is_unspecified:
        hosts += [socket.gethostname().lower(), socket.getfqdn().lower()]
    else:
        hosts.append(f"[{bind}]" if address is not None and address.version == 6 else bind.lower())
    return list(dict.fromkeys(hosts))


class PageCookie:
    """ASGI middleware: the page a request comes from, by its cookie (a random token the
    server gives a browser on its first request, HttpOnly, SameSite=Strict), put in
    the request's state for the stores (sessions.Store), whose games and records belong
    to it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        token = HTTPConnection(scope).cookies.get(PAGE_COOKIE, "")
        fresh = not PAGE_TOKEN.fullmatch(token)
        if fresh:
            token = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["page"] = token

        async def sending(message):
            if fresh and message["type"] == "http.response.start":
                MutableHeaders(scope=message).append(
                    "set-cookie", f"{PAGE_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict")
            await send(message)
        await self.app(scope, receive, sending)


class SecurityHeaders:
    """ASGI middleware: every answer says not to sniff its type and not to be framed, and
    carries its content security policy (the page's, or the API documents')."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        policy = DOCS_POLICY if scope["path"] in DOCS_PATHS else PAGE_POLICY

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("x-frame-options", "DENY")
                headers.setdefault("content-security-policy", policy)
                headers.setdefault("referrer-policy", "no-referrer")
            await send(message)
        await self.app(scope, receive, sending)


def page_of(request: Request) -> str:
    return request.state.page


Page = Annotated[str, Depends(page_of)]


def too_big_words(request_limit: int, file_limit: int) -> str:
    return (f"the request is over {request_limit // 1024} KiB (a position or record file in it is at most "
            f"{file_limit // 1024} KiB here)")


def create_app(limits: Limits | None = None, hosts=LOOPBACK) -> FastAPI:
    """The application, answering to the Host names `hosts` (allowed_hosts)."""
    limits = limits or Limits()
    runner = Runner(limits.workers, limits.max_waiting, limits.heartbeat)
    played = Store(limits.max_games, limits.games_per_page, limits.idle_seconds, "game")
    reviews = Store(limits.max_records, limits.records_per_page, limits.idle_seconds, "record")
    tables = Store(limits.max_games, limits.games_per_page, limits.idle_seconds, "followed game")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweeper():      # idle games and records go even when nobody asks
            while True:
                await asyncio.sleep(min(60.0, limits.idle_seconds / 4))
                played.sweep()
                reviews.sweep()
                tables.sweep()
        task = asyncio.create_task(sweeper())
        yield
        task.cancel()
        runner.shutdown()

    # A file's text in a JSON string: escapes may double it, and a little room for the rest.
    # A body over it is refused (413) as it comes, with a Content-Length or chunked.
    body_limit = 2 * limits.max_upload_bytes + 4096
    app = FastAPI(title="gutenberg-ai", version=__version__, lifespan=lifespan, max_body_size=body_limit,
                  description="Play, hints, your table and review for the printing games of gutenberg-ai "
                              "(docs/web.md).")
    if getattr(app, "max_body_size", None) != body_limit:   # an older FastAPI takes the option silently
        raise RuntimeError(f"FastAPI {fastapi.__version__} has no request body limit (max_body_size): "
                           'upgrade it (pip install -e ".[web]")')
    app.state.limits, app.state.runner, app.state.games, app.state.reviews = limits, runner, played, reviews
    app.state.tables = tables
    app.router.route_class = CheckedJsonRoute
    # Each wraps those added before it: the Host name is checked first (a page of another
    # site reaching this server by DNS rebinding is refused), then every answer gets the
    # headers, then the request its page.
    app.add_middleware(PageCookie)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))

    # -- errors: a JSON body {"error", "problems"}, never a traceback ------------------
    @app.exception_handler(ApiError)
    async def api_error(request, e: ApiError):
        return JSONResponse({"error": e.message, "problems": [{"where": w, "reason": r} for w, r in e.problems]},
                            status_code=e.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, e):
        if isinstance(e.__cause__, FileDataError):     # CheckedJsonRequest refused the body
            problems = [{"where": "request body", "reason": f"{w}: {r}" if w else r} for w, r in e.__cause__.problems]
            return JSONResponse({"error": "; ".join(f"request body: {p['reason']}" for p in problems),
                                 "problems": problems}, status_code=422)
        if e.status_code == 400 and "parsing the body" in str(e.detail):
            # FastAPI's answer to a body its JSON parser gave up on (nested too deep): the
            # body's problem, as a JSON syntax error is.
            why = "not JSON this server reads (nested too deep?)"
            return JSONResponse({"error": f"request body: {why}", "problems": [{"where": "request body",
                                                                                 "reason": why}]}, status_code=422)
        words = too_big_words(body_limit, limits.max_upload_bytes) if e.status_code == 413 else str(e.detail)
        return JSONResponse({"error": words, "problems": []}, status_code=e.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, e: RequestValidationError):
        problems = []
        for err in e.errors():
            if err.get("type") == "json_invalid":    # loc: ("body", character offset)
                at = err.get("loc", ("body", "?"))[-1]
                why = err.get("ctx", {}).get("error", err.get("msg", ""))
                problems.append({"where": "request body", "reason": f"not JSON at character {at}: {plain_text(str(why))}"})
                continue
            loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path")]
            problems.append({"where": ".".join(loc) or "request", "reason": plain_text(str(err.get("msg", "")))})
        message = "; ".join(f"{p['where']}: {p['reason']}" for p in problems)
        return JSONResponse({"error": message, "problems": problems}, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request, e):
        log.exception("unexpected error")
        return JSONResponse({"error": "the server failed to answer this (its log says why)", "problems": []},
                            status_code=500)

    # -- the page ----------------------------------------------------------------------
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)   # HEAD: a monitor's check
    def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- what the server offers --------------------------------------------------------
    @app.get("/api/info", summary="The games, bots and limits")
    def info():
        out = []
        for g in games.GAMES.values():
            defaults = g.rules_module.DEFAULTS
            # Each as a request takes it: the automa is the request's flag (the game's own
            # -1, "with one player", is what a request without it gives).
            parameters = {k: GameSettings.model_fields["automa"].default if k == "automa" else v
                          for k, v in defaults.items() if k in ("players", "automa", *GAME_SETTINGS)}
            out.append({"key": g.key, "title": g.title, "score_word": g.score_word, "parameters": parameters,
                        "board": hasattr(g.view, "web_board")})
        from gutenberg_ai.tools.plots import COLOURS      # a player's colour, as the command line's plots have it
        return {"games": out, "bots": list(WEB_BOTS), "version": __version__,
                "player_colours": list(COLOURS),
                "limits": {k: getattr(limits, k) for k in ("max_ai_seconds", "max_hint_seconds", "max_iterations",
                                                            "max_upload_bytes", "max_games", "games_per_page",
                                                            "records_per_page")}}

    def budget(seconds, iterations, max_seconds, default_seconds):
        if seconds is not None and iterations is not None:
            raise ApiError(422, "seconds and iterations: give one budget, not both",
                           [("seconds", "give seconds or iterations, not both")])
        if seconds is not None and seconds > max_seconds:
            raise ApiError(422, f"seconds: {seconds:g} is over this server's {max_seconds:g}",
                           [("seconds", f"at most {max_seconds:g}")])
        if iterations is not None and iterations > limits.max_iterations:
            raise ApiError(422, f"iterations: {iterations} is over this server's {limits.max_iterations}",
                           [("iterations", f"at most {limits.max_iterations}")])
        if seconds is None and iterations is None:
            return {"seconds": min(default_seconds, max_seconds)}   # the server's limit holds here too
        if seconds is not None:
            return {"seconds": seconds}
        # An iteration budget is bounded in time too (the first reached stops it): at a
        # few hundred iterations a second, 200,000 would hold a worker and its stream
        # for many minutes.
        return {"iterations": iterations, "seconds": max_seconds}

    # -- play --------------------------------------------------------------------------
    def printing_game(key: str):
        try:
            return games.get(key)
        except ValueError as e:
            raise ApiError(422, str(e), [("game", f"not one of {', '.join(games.GAMES)}")]) from None

    def requested_game(g, req):
        """The game of a request's settings (players, rounds, characters, variant, the solo
        difficulty, automa: a solo game of a game with an automa has it)."""
        params = {"players": req.players, **req.settings()}
        if req.automa or (req.players == 1 and "automa" in g.rules_module.DEFAULTS):
            params["automa"] = 1
        return load_game(known_params(g, params, prefix=""), g.key)

    @app.post("/api/games", status_code=201, summary="Start a game against the AI")
    def new_game(req: NewGame, page: Page):
        from gutenberg_ai.interfaces.play import Session, Settings
        g = printing_game(req.game)
        for name in req.ai:
            if name not in WEB_BOTS:
                raise ApiError(422, f"ai: {name!r} is not one of {', '.join(WEB_BOTS)}",
                               [("ai", f"{name!r} is not one of {', '.join(WEB_BOTS)}")])
        b = budget(req.seconds, req.iterations, limits.max_ai_seconds, 2.0)
        try:
            game = requested_game(g, req)
            settings = Settings(human=req.seat, ai=tuple(req.ai), seconds=b.get("seconds"),
                                iterations=b.get("iterations"),
                                seed=req.seed if req.seed is not None else fresh_seed())
            import io
            from rich.console import Console
            session = Session(game, settings, console=Console(file=io.StringIO()), read_line=no_reading)
        except (UsageError, ValueError, pyspiel.SpielError) as e:
            raise ApiError(422, str(e), named_field(e, NewGame.model_fields)) from None
        web = WebGame(session, limits)
        played.add(web, page)
        return web.view()

    def game_of(game_id: str, page: str) -> WebGame:
        return played.get(game_id, page)

    def take(web: WebGame | WebTable) -> None:
        """Hold the game for a request (busy until released); 409 while a search holds it,
        but a search told to stop is waited for (it ends at its next slice, seconds on a
        loaded machine), so that Undo, a move or Continue right after Stop acts instead
        of finding the game busy."""
        job = web.job
        stopping = job is not None and job.cancel.is_set()
        if not web.lock.acquire(timeout=STOPPING_SECONDS if stopping else 0):
            raise ApiError(409, "this game is busy (a search is under way): wait for it, or stop it")
        web.busy = True

    @contextlib.contextmanager
    def holding(web: WebGame | WebTable):
        take(web)
        try:
            yield
        finally:
            web.busy = False
            web.lock.release()

    def looked_at(web: WebGame | WebTable, now, searched):
        """A look that changes nothing (the game, a download, the log): during a search,
        `searched(web.frozen)`, of the game as the search found it, at once; otherwise
        `now()` once the change under way (a move, seconds at most) is done."""
        deadline = time.monotonic() + LOOK_SECONDS
        while True:
            frozen = web.frozen
            if frozen is not None:
                return searched(frozen)
            if web.lock.acquire(timeout=0.05):
                break
            if time.monotonic() > deadline:
                raise ApiError(409, "this game is busy: try again")
        try:
            return now()
        finally:
            web.lock.release()

    def viewed(web: WebGame | WebTable, since: int = 0) -> dict:
        """The game as the page shows it (`searching`: whether a search holds it)."""
        return looked_at(web, lambda: dict(web.view(since), searching=False), lambda f: f.view(since))

    def made_of(web: WebGame | WebTable, name, make):
        """`make(parts)` of the game's parts (Held.parts): as it stands, or during a
        search as the search found it (made once a search)."""
        return looked_at(web, lambda: make(web.parts()), lambda f: f.made(name, make))

    @app.get("/api/games/{game_id}", summary="The game as you see it")
    def get_game(game_id: str, page: Page, since: int = Query(0, ge=0)):
        return viewed(game_of(game_id, page), since)

    def moved_on(seen: int | None, web: Held, done: str):
        """409 where the request was made on a view of version `seen` and the game has
        changed since: a move or an entry is for the decision the page showed, never
        another (a number or an action id can mean another move there)."""
        if seen is not None and seen != web.version:
            raise ApiError(409, f"the game has changed since this page's view (version {seen} then, {web.version} "
                                f"now): nothing {done}; look again", [("at", "not the game's version now")])

    @app.post("/api/games/{game_id}/move", summary="Your move")
    def move(game_id: str, page: Page, req: Move):
        web = game_of(game_id, page)
        if (req.action is None) == (req.numbers is None):
            reason = "give an action or numbers" + (", not both" if req.action is not None else "")
            raise ApiError(422, reason, [("action", reason)])
        with holding(web):
            moved_on(req.at, web, "played")
            try:
                return web.human(req.action, req.numbers)
            except NotNow as e:
                raise user_error(e, 409) from None
            except USER_ERRORS as e:
                raise user_error(e, where="action" if req.action is not None else "numbers") from None

    @app.post("/api/games/{game_id}/undo", summary="Back to your previous decision")
    def undo(game_id: str, page: Page):
        web = game_of(game_id, page)
        with holding(web), refused(409):
            return web.undo()

    def stream_holding(web: WebGame | WebTable, work, wanted, why: str, check=None):
        """A search on the game, holding it from now until the search ends; the game must
        be waiting for one of `wanted` (next_turn's kinds), else 409 saying `why`; then
        `check()` (held) may refuse it too."""
        take(web)

        def release():
            web.busy = False
            web.job = None
            web.thaw()
            web.lock.release()
        try:
            if web.turn() not in wanted:
                raise ApiError(409, why)
            if check is not None:
                check()
            web.freeze()      # what the looks at the game get while it searches
            response = runner.stream(work, USER_ERRORS, on_end=release)
        except BaseException:
            release()
            raise
        web.job = response.job
        return response

    @app.post("/api/games/{game_id}/advance", summary="The AI's next move (streamed: progress, then the game)")
    async def advance(game_id: str, page: Page):
        web = game_of(game_id, page)
        return stream_holding(web, web.advance, ("ai",), "no AI seat is to move (it is your decision, or the game is over)")

    @app.post("/api/games/{game_id}/hint", summary="Hints at your decision (streamed: progress, then the hints)")
    async def game_hint(game_id: str, page: Page, req: Optional[Budget] = None):
        req = req or Budget.model_validate({})       # no body: every field's default
        web = game_of(game_id, page)
        b = budget(req.seconds, req.iterations, limits.max_hint_seconds, 2.0)

        def work(job):
            state = web.session.state      # read held: an undo may have replaced it since the request came
            return hints_result(state, state.get_game().num_players() == 1, req, b, job,
                                games.of(state).score_word, seat_names=web.session.seat_names,
                                seed=web.session.settings.seed)
        return stream_holding(web, work, ("human",), "hints are for your decision, and it is not yours now")

    def hints_result(state, solo, req, b, job, score_word, search=None, seat_names=None, seed=None, **options):
        """The hints at `state` (`search`: hint(state, ...) by default) as the page shows them;
        `seat_names`: how the lines' steps name each seat (else "player N"); the search's
        seed: the request's, else `seed` (the game's, the table's), else a new one."""
        search = search or (lambda **budget: hint(state, **budget))
        seed = req.seed if req.seed is not None else seed if seed is not None else fresh_seed()
        result = search(top=req.top, seed=seed, progress=job.progress, max_nodes=limits.max_nodes,
                        **b, **options)
        out = {"hints": [h.as_dict() for h in result], "iterations": result.iterations,
               "seconds": round(result.seconds, 2), "measure": result.measure, "solo": solo,
               "score_word": score_word, "budget": b, "seed": seed, "notice": result.notice}
        if seat_names:
            out["seat_names"] = list(seat_names)
        return out

    @app.post("/api/games/{game_id}/stop", summary="Stop the game's search (the AI's or a hint)")
    def stop(game_id: str, page: Page):
        return {"stopped": game_of(game_id, page).stop()}

    @app.get("/api/games/{game_id}/record", summary="The game record, as the command line reads it")
    def record(game_id: str, page: Page, full: bool = False):
        web = game_of(game_id, page)
        data = made_of(web, ("record", full), lambda played: played.record_data(full))
        return record_file(data, f"{web.session.printing_game.key}-game{'-full' if full else ''}.json")

    def record_file(data: dict, name: str) -> Response:
        """A record to download, written as the command line writes it."""
        from gutenberg_ai.games.records import _dumps
        return Response(_dumps(data) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/position", summary="This position, as `gutenberg-ai hint` reads it")
    def position(game_id: str, page: Page):
        web = game_of(game_id, page)
        try:
            data = made_of(web, "position", lambda played: played.position())
        except PositionError as e:
            raise ApiError(409, f"not a decision a position file records: {e.reason}") from None
        name = f"{web.session.printing_game.key}-position.json"
        return Response(json.dumps(data, indent=2) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.post("/api/games/{game_id}/review", summary="Review this game", status_code=201)
    def review_game(game_id: str, page: Page):
        web = game_of(game_id, page)
        with holding(web), refused():
            review = review_of_game(web)
        reviews.add(review, page)
        return review.summary()

    @app.delete("/api/games/{game_id}", summary="Leave a game")
    def leave(game_id: str, page: Page):
        game_of(game_id, page).stop()
        played.drop(game_id, page)
        return {"left": True}

    # -- at the table: a real game followed entry by entry -----------------------------
    @app.post("/api/tables", status_code=201, summary="Follow a game played at a real table")
    def new_table(req: NewTable, page: Page):
        from gutenberg_ai.interfaces.table import FollowedGame, SeatNamesError, position_name
        g, names, field = printing_game(req.game), req.names, {}
        seed = req.seed if req.seed is not None else fresh_seed()
        try:
            if req.position is not None:
                game, known = table_position(req, req.position, seed)
                if not names:       # the position's names: a problem is said as the position's
                    names, field = known, {"name_field": position_name}
            else:
                game = requested_game(g, req)
            followed = FollowedGame(game, req.seat, seed, names, **field)
        except FileDataError as e:          # the position's problems, as /api/positions/check names them
            raise user_error(e) from None
        except SeatNamesError as e:     # each name's problem at its place: names.K, or the position's
            raise ApiError(422, f"{e}" + (" (the table's names can be given as names)" if field else ""),
                           [("position", f"{where}: {why}") for where, why in e.problems] if field else e.problems
                           ) from None
        except (UsageError, ValueError, pyspiel.SpielError) as e:
            raise ApiError(422, str(e), named_field(e, NewTable.model_fields)) from None
        web = WebTable(followed, limits)
        tables.add(web, page)
        return web.view()

    def table_position(req: NewTable, position: str, seed: int):
        """The game of a table request's position (positionfile.position_game, as `table
        --position` reads a file) and the names it gives: the settings given in the
        request must be the file's; a file over the upload limit is refused before it is
        read (the upload's checks: read_upload)."""
        from gutenberg_ai.games.positionfile import position_game
        # A field of the request, not an upload of its own: too big is the request's fault (422).
        data = read_upload(Upload(text=position, name="position"), PositionError, too_big=422)
        given = req.model_fields_set
        settings = {name: getattr(req, name) for name in ("players", *GAME_SETTINGS) if name in given}
        settings["automa"] = 1 if req.automa else None
        _, pos, game, _, _ = position_game(data, req.game if "game" in given else None, seed=seed,
                                           settings=settings, command="web")
        return game, pos.names

    def table_of(table_id: str, page: str) -> WebTable:
        return tables.get(table_id, page)

    def entered(req: Entry) -> dict:
        """The one way a request names its entry (action, number or text)."""
        named = {k: v for k, v in (("action", req.action), ("number", req.number), ("text", req.text))
                 if v is not None}
        if len(named) != 1:
            raise ApiError(422, "give one of action, number or text",
                           [("action", "give one of action, number or text")])
        return named

    @contextlib.contextmanager
    def table_refusals():
        """An entry the model refuses (table.EntryRefused) or that the game cannot take now:
        409 with its reason; words that name no entry: 422. Nothing changed."""
        from gutenberg_ai.interfaces.table import EntryRefused
        try:
            yield
        except (EntryRefused, NotNow) as e:
            raise ApiError(409, str(e), [("entry", str(e))]) from None
        except USER_ERRORS as e:
            raise user_error(e, where="entry") from None

    @app.get("/api/tables/{table_id}", summary="The followed game: what it waits for, the board, the menu")
    def get_table(table_id: str, page: Page):
        web = table_of(table_id, page)
        return viewed(web)

    def table_change(table_id: str, page: str, req: Entry, change):
        """`change(web, **named)` with the entry the request names, the game held; a
        refusal changes nothing."""
        web = table_of(table_id, page)
        named = entered(req)
        with holding(web), table_refusals():
            moved_on(req.at, web, "entered")
            return change(web, **named)

    @app.post("/api/tables/{table_id}/entry", summary="Enter what the table shows (a draw or a move)")
    def table_entry(table_id: str, page: Page, req: Entry):
        return table_change(table_id, page, req, WebTable.enter)

    @app.post("/api/tables/{table_id}/reveal", summary="A hidden entry now shown, as it came up")
    def table_reveal(table_id: str, page: Page, req: AtEntry):
        return table_change(table_id, page, req, lambda web, **named: web.reveal(req.entry, **named))

    @app.post("/api/tables/{table_id}/fix", summary="Correct an earlier entry: the game replayed from it")
    def table_fix(table_id: str, page: Page, req: AtEntry):
        return table_change(table_id, page, req, lambda web, **named: web.fix(req.entry, **named))

    @app.get("/api/tables/{table_id}/log", summary="The entries so far, as you know them")
    def table_log(table_id: str, page: Page):
        web = table_of(table_id, page)
        return made_of(web, "log", lambda followed: followed.log())

    @app.post("/api/tables/{table_id}/hint",
              summary="Hints at the decision now, yours or another's (streamed: progress, then the hints)")
    async def table_hint(table_id: str, page: Page, req: Optional[TableHint] = None):
        req = req or TableHint.model_validate({})    # no body: every field's default
        web = table_of(table_id, page)
        b = budget(req.seconds, req.iterations, limits.max_hint_seconds, 2.0)
        f = web.followed
        if req.player is not None and not 0 <= req.player < f.game.num_players():
            raise ApiError(422, f"player: {req.player} is not a seat of this game", [("player", "not a seat")])

        def work(job):
            out = hints_result(f.state, f.game.num_players() == 1, req, b, job, f.printing_game.score_word,
                               search=lambda **budget: f.hint(req.player, **budget), seat_names=f.names,
                               seed=f.seed)
            # Whose hint, as the terminal's table says it: another's is searched from what you know.
            to_act = f.state.current_player()
            whose = "your decision" if to_act == f.seat else f"{web.labels[to_act]}'s decision, from what you know"
            out["title"] = f"Hints for {whose} ({out['iterations']:,} iterations, {out['seconds']} s)"
            return out
        def asked_to_act():
            who = f.seat if req.player is None else req.player     # whose decision is asked about
            if f.state.current_player() != who:
                raise ApiError(409, f.not_to_move(who) + (" (ask for their hint with player)"
                                                          if req.player is None else ""))
        return stream_holding(web, work, ("own", "move"),
                              "hints are for a player's decision: the table waits for an entry", asked_to_act)

    @app.post("/api/tables/{table_id}/stop", summary="Stop the followed game's hint")
    def table_stop(table_id: str, page: Page):
        return {"stopped": table_of(table_id, page).stop()}

    @app.get("/api/tables/{table_id}/record",
             summary="What you have seen, as a record (`gutenberg-ai table --resume` reads it)")
    def table_record(table_id: str, page: Page):
        web = table_of(table_id, page)
        data = made_of(web, "record", lambda followed: followed.record_data())
        return record_file(data, f"table-{web.followed.printing_game.key}.json")

    @app.delete("/api/tables/{table_id}", summary="Leave a followed game")
    def leave_table(table_id: str, page: Page):
        table_of(table_id, page).stop()
        tables.drop(table_id, page)
        return {"left": True}

    # -- your table: positions ---------------------------------------------------------
    def examples():
        out = {}
        for g in games.GAMES.values():
            if not g.position_module:
                continue
            folder = Path(g.data_folder) / "positions"
            for path in sorted(folder.glob("*.json")):
                out[(g.key, path.stem)] = path
        return out

    @app.get("/api/positions/examples", summary="The example positions shipped with the games")
    def list_examples():
        return [{"game": k, "name": n} for k, n in examples()]

    @app.get("/api/positions/schemas", summary="Each game's position format and its JSON Schema (the page's form)")
    def position_schemas():
        return {g.key: {"format": g.position_format, "title": g.title, "schema": g.positions.position_schema()}
                for g in games.GAMES.values() if g.position_module}

    @app.get("/api/positions/examples/{game}/{name}", summary="An example position's file")
    def get_example(game: str, name: str):
        path = examples().get((game, name))
        if path is None:
            raise ApiError(404, f"no example position {name!r} of {game!r} (GET /api/positions/examples lists them)")
        return Response(path.read_text(encoding="utf-8"), media_type="application/json")

    def upload_name(req: Upload) -> str:
        """How messages name an upload: the name it gave, as plain text, cut short."""
        return plain_text(req.name)[:60] or "upload"

    def read_upload(req: Upload, error, too_big: int = 413):
        """The JSON object of an upload, its size bounded first (`too_big`: the status of
        one over the server's limit)."""
        raw = req.text.encode("utf-8", "surrogatepass")
        if len(raw) > limits.max_upload_bytes:
            over = f"{len(raw)} bytes, over this server's {limits.max_upload_bytes} bytes"
            raise ApiError(too_big, f"{plain_text(req.name)}: {over}", [(plain_text(req.name), over)])
        source = upload_name(req)
        try:
            data = decode_json(raw, source, error)
        except FileDataError as e:
            raise user_error(e) from None
        if not isinstance(data, dict):
            raise ApiError(422, f"{source}: the file is not a JSON object", [("", "not a JSON object")])
        return data

    def load_uploaded_position(req: Upload):
        data = read_upload(req, PositionError)
        with refused(), said_of(upload_name(req)):
            return load_position(data, command="web")

    def position_view(g, pos) -> dict:
        from gutenberg_ai.games.positionfile import seat_names
        player = pos.current_player
        names = seat_names(pos.names)
        core = pos.state
        legal = core.legal_actions()
        return {"game": g.key, "title": g.title, "player": player, "step": core.step_name(),
                "players": pos.game_params["players"], "labels": names,
                "board": board_of(core, player, names),
                "moves": [{"action": a, "text": g.view.move_text(core, a, core.action_to_string(a))} for a in legal]}

    @app.post("/api/positions/check", summary="Check a position file and show its table")
    def check_position(req: Upload):
        g, pos = load_uploaded_position(req)
        return position_view(g, pos)

    @app.post("/api/positions/hint", summary="Hints at a position file (streamed: progress, then the hints)")
    async def position_hint(req: PositionHint):
        b = budget(req.seconds, req.iterations, limits.max_hint_seconds, 2.0)   # before any work
        g, pos = await asyncio.to_thread(load_uploaded_position, req)
        solo = pos.game_params["players"] == 1

        def work(job):
            out = hints_result(pos.state, solo, req, b, job, g.score_word, returns="score" if solo else "win")
            out["position"] = position_view(g, pos)
            return out
        return runner.stream(work, USER_ERRORS)

    # -- review: records ---------------------------------------------------------------
    @app.get("/api/records", summary="The records held for review")
    def list_records(page: Page):
        return [{"id": r.id, "title": r.title, "game": games.of(r.game).key} for r in reviews.values(page)]

    @app.post("/api/records", status_code=201, summary="Upload a game record to review")
    def upload_record(req: Upload, page: Page):
        data, name = read_upload(req, RecordError), upload_name(req)
        with refused(), said_of(name):
            record = load_record(data, command="web")
            record["_source"] = name
            review = Review(record, name)
        reviews.add(review, page)
        return review.summary()

    @app.get("/api/records/{record_id}", summary="A record's moves")
    def get_record(record_id: str, page: Page):
        return reviews.get(record_id, page).summary()

    @app.get("/api/records/{record_id}/board", summary="The table after the record's first `to` actions")
    def record_board(record_id: str, page: Page, to: int = 0):
        review = reviews.get(record_id, page)
        with refused(where="to"):
            return review.board(to)

    @app.get("/api/records/{record_id}/download", summary="The record, as the command line reads it")
    def download_record(record_id: str, page: Page):
        review = reviews.get(record_id, page)
        from gutenberg_ai.games.records import _dumps
        data = {k: v for k, v in review.record.items() if not k.startswith("_")}
        return Response(_dumps(data) + "\n", media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="record.json"'})

    @app.post("/api/records/{record_id}/chances",
              summary="Each player's win chance over the game (streamed: each point, then all)")
    async def chances(record_id: str, page: Page):
        review = reviews.get(record_id, page)
        if review.chances is not None:
            return {"event": "done", "result": review.chances}
        if review.busy:
            raise ApiError(409, "the chances of this record are being computed")
        review.busy = True

        def done():
            review.busy = False
        try:
            return runner.stream(lambda job: review.compute_chances(job, limits.review_points,
                                                                    limits.review_iterations, limits.review_seconds,
                                                                    limits.max_nodes),
                                 USER_ERRORS, on_end=done)
        except BaseException:
            done()
            raise

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None) -> int:
    """Run the application with uvicorn until interrupted; prints its address."""
    import socket
    import uvicorn
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:           # the address in use, no such host: said with the address
        sock.close()
        raise OSError(e.errno, f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    port = sock.getsockname()[1]   # port 0: the one the system gave
    hosts = allowed_hosts(host, os.environ.get("GUTENBERG_AI_HOSTS", ""))
    app = create_app(limits, hosts)
    config = uvicorn.Config(app, log_level=os.environ.get("GUTENBERG_AI_LOG", "warning"))
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    print(f"gutenberg-ai serve: http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    if list(hosts) != list(LOOPBACK):
        print(f"answering to the Host names {', '.join(hosts)} ($GUTENBERG_AI_HOSTS adds more)", flush=True)
    server.run(sockets=[sock])
    return 0
