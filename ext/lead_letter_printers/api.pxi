# The Python face of the Lead Letter Printers core (included by core.pyx): a Rules object
# per game that makes states, and a CoreState around one GameState struct. Its methods
# mirror Printing Press's (gutenberg_ai.games.printing_press._core) so that bots, hints,
# records and the command line can treat the games alike.

import array

from gutenberg_ai.games.lead_letter_printers import names as _names
from gutenberg_ai.games.lead_letter_printers.describe import text as _describe_text


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


PHASE_NAMES = ("setup", "tradesmen setup", "Action phase", "Order and contract phase",
               "Production phase", "Preparation phase", "game end: last optional actions", "end")
FRAME_NAMES = ("effect", "resources of choice", "trade", "1:2 conversion", "trading tile again",
               "typesetting", "where the lead letter goes", "travel", "after the travel: a city",
               "after the travel: a coin", "technology", "technology built", "build", "blue chain",
               "factory", "factory draw", "keep a factory", "assistant", "lead letter resources",
               "typesetting table", "keep the lead letter", "advance an order", "buy",
               "signboard action", "city disc", "copy a technology", "slide a tradesman",
               "Reset: lay a tradesman down", "Reset: the II rooms' actions", "stage reward",
               "which signboard to turn face down")
# Sizes the Python side lays the table out with (describe.py, view.py).
SIZES = {"tradesmen": N_TRADESMEN, "stacks": N_STACKS, "technologies": N_TECHS, "contracts": N_CONTRACTS,
         "grid_side": GRID_SIDE}
RETURNS_MODES = _names.RETURNS_MODES   # the values of RETURNS_* in engine_types.pxd

ACTIONS = dict(
    PASS=A_PASS, SETUP=A_SETUP, MOVE=A_MOVE, RESET=A_RESET, KEEP=A_KEEP, DISCARD=A_DISCARD,
    LAY=A_LAY, RESOURCE=A_RESOURCE, CONVERT=A_CONVERT, TILE=A_TILE, REFRESH_TILES=A_REFRESH_TILES,
    AGAIN=A_AGAIN, STACK=A_STACK, STICK=A_STICK, STICK_PAIR=A_STICK_PAIR, UNDER=A_UNDER, MAP=A_MAP,
    TRACK=A_TRACK, STOP=A_STOP, TRADE=A_TRADE, FACTORY_PILE=A_FACTORY_PILE, FACTORY=A_FACTORY,
    UP=A_UP, DOWN=A_DOWN, REPLACE=A_REPLACE, TECH=A_TECH, REFRESH_COLUMN=A_REFRESH_COLUMN,
    CHAIN=A_CHAIN, ASSISTANT=A_ASSISTANT, STREET=A_STREET, TABLE=A_TABLE, ADVANCE=A_ADVANCE,
    BUY_ORDER=A_BUY_ORDER, BUY_CONTRACT=A_BUY_CONTRACT, SIGNBOARD=A_SIGNBOARD, ACTIVATE=A_ACTIVATE,
    DISC=A_DISC, CITY=A_CITY, COPY=A_COPY, SLIDE=A_SLIDE, PAIR=A_PAIR, NUM_ACTIONS=N_ACTIONS)
CHANCE_OUTCOMES = dict(LETTER=C_LETTER, TILE=C_TILE, TECH=C_TECH, ORDER=C_ORDER, CONTRACT=C_CONTRACT,
                       DISC=C_DISC, FACTORY=C_FACTORY, TOP=C_TOP, FACTORY_TOP=C_FACTORY_TOP,
                       NUM_CHANCE=N_CHANCE)
PHASES = dict(DEAL=PH_DEAL, SETUP=PH_SETUP, ACTIONS=PH_ACTIONS, ORDERS=PH_ORDERS,
              PRODUCTION=PH_PRODUCTION, PREPARATION=PH_PREPARATION, FINAL=PH_FINAL,
              TERMINAL=PH_TERMINAL)
FRAMES = {name: i for i, name in enumerate((
    "EFFECT", "RESOURCE", "TRADE", "CONVERT", "TILE_AGAIN", "TYPESET", "TYPESET_WHERE", "TRAVEL",
    "CITY_CHOICE", "COIN_CHOICE", "TECHNOLOGY", "TECH_DONE", "BUILD", "CHAIN", "FACTORY",
    "FACTORY_DRAW", "FACTORY_KEEP", "ASSISTANT", "LETTER_RES", "TABLE", "KEEP", "ADVANCE", "BUY",
    "SIGNBOARD", "CITY_DISC", "COPY", "SLIDE", "LAY", "RESET_ACT", "STAGE", "SIGN_SOURCE"))}
MAX_PLAYERS = MAX_SEATS
MAX_LEGAL_ACTIONS = MAX_LEGAL
NUM_ACTIONS = N_ACTIONS
NUM_CHANCE_OUTCOMES = N_CHANCE
GRID = GRID_SIDE
ORDER_TRACK_SECTIONS = ORDER_SECTIONS   # sections beyond the player order section
ASSISTANT_KINDS = ("paper", "lead", "ink", "mark", "capacity")


def move_action(int tradesman, int r, int c, int room):
    """The Shop action moving tradesman 0/1 to the shop at row r, column c of the city
    board, room 0 (I) or 1 (II)."""
    if not 0 <= tradesman < N_TRADESMEN or not 0 <= r < GRID_SIDE or not 0 <= c < GRID_SIDE \
            or not 0 <= room < N_ROOMS:
        raise ValueError(f"move ({tradesman}, {r}, {c}, {room}) is out of range")
    return A_MOVE + (tradesman * GRID_CELLS + r * GRID_SIDE + c) * N_ROOMS + room


def street(int r, int c, below=False):
    """The street to the right of (or below) the shop at row r, column c."""
    return (r * GRID_SIDE + c) * 2 + (1 if below else 0)


def max_game_length(int players, int rounds=0):
    """An upper bound on the number of actions (chance outcomes included) in a game.

    Rounds: each takes at least `players` orders off the board (bought, or discarded at the
    preparation), so a game has at most (orders in play) / players + 1 of them. A turn:
    at most 4 slot changes, 24 discs, 36 signboards and everything the main action and
    its effects bring, bounded by 300 entries (effects nest at most MAX_FRAMES deep and
    each is a few decisions; a factory pile's new top in view is one of them); the order
    phase 3 a player, production 2 per stage moved. The setup's four factory tops (the
    piles face up) are well within its bound of 2 x players x 300 entries.
    """
    cdef int orders = 36 - 4 * (5 if players <= 2 else 3 if players == 3 else 1)
    cdef int r = orders // players + 2
    if rounds > 0:
        r = min(r, rounds)
    setup = 54 + 36 + 48 + 24 + 36 + 24 + 2 * players * 300
    per_round = players * (2 * 300 + 4 + 2 * (N_STAGES + N_WAITING) * 10 + 50) + 2 * N_DISPLAY + 60
    return setup + r * per_round + players * 300


cdef class Rules:
    """A game's catalogue and parameters, compiled: it makes initial states.

    players       2-4
    rounds        0: until the orders run out (the game); k: a small variant ending after k rounds
    factory_tops  True (the rulebook's setup 2a): the factory piles lie face up, each
                  pile's top in view of all; False: they are drawn as from a face-down deck
    """
    cdef object __weakref__   # gamedata keeps the rules of a file's data while in use
    cdef Catalogue cat
    cdef GameState initial
    cdef readonly object catalogue
    cdef readonly int players
    cdef readonly int rounds
    cdef readonly bint factory_tops

    def __init__(self, catalogue, players=2, rounds=0, factory_tops=True):
        from gutenberg_ai.games.lead_letter_printers.catalogue import Catalogue as _Catalogue
        if not isinstance(catalogue, _Catalogue):
            raise TypeError(f"catalogue: a Lead Letter Printers Catalogue is needed, got {type(catalogue).__name__}")
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_SEATS:
            raise ValueError(f"players: {players!r} is not a number of players (2-{MAX_SEATS})")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= 20:
            raise ValueError(f"rounds: {rounds!r} is out of range (0-20; 0 plays until the orders run out)")
        if not isinstance(factory_tops, bool):
            raise ValueError(f"factory_tops: {factory_tops!r} is not true or false")
        self.cat = dict(catalogue.to_core(), sign_orders=[0] * N_SIGNS, sign_discs=[0] * N_SIGNS)
        derive_sign_masks(&self.cat)
        self.catalogue = catalogue
        self.players = players
        self.rounds = rounds
        self.factory_tops = factory_tops
        init_state(&self.initial, &self.cat, players, rounds, factory_tops)

    @property
    def params(self):
        return dict(players=self.players, rounds=self.rounds, factory_tops=self.factory_tops)

    def __reduce__(self):
        return (_rules_starting_at, (self.catalogue, self.params,
                                     PyBytes_FromStringAndSize(<char*>&self.initial, sizeof(GameState))))

    def starting_at(self, CoreState state):
        """The same rules with games starting at `state`."""
        if state.rules is not self:
            raise ValueError("the state follows other rules (another catalogue or parameters)")
        cdef Rules r = Rules(self.catalogue, **self.params)
        r.initial = state.s
        return r

    def new_state(self):
        """The state before the first setup draw."""
        cdef CoreState st = CoreState.__new__(CoreState)
        st.rules = self
        st.s = self.initial
        return st

    def state_from_dict(self, d):
        """A state from `CoreState.to_dict()` output (possibly edited by hand), checked for
        consistency; ValueError names the first problem found."""
        cdef CoreState st = CoreState.__new__(CoreState)
        st.rules = self
        try:
            st.s = _with_factory_tops(d, self.factory_tops)
        except (TypeError, ValueError, KeyError, IndexError, OverflowError) as e:
            raise ValueError(f"state: {e}") from None
        problems = st.problems()
        if problems:
            raise ValueError("state: " + problems[0])
        return st

    def random_games(self, int n, unsigned long long seed):
        """Play n uniformly random games inside the core (no Python in the loop) and
        return the final scores of the last one."""
        return random_game_scores(&self.initial, &self.cat, self.players, n, seed)

    def check_random_games(self, int n, unsigned long long seed):
        """Play n uniformly random games inside the core, checking the invariants after
        every action (resources and money conserved, tracks in range, the effect stack
        within bounds, a legal action at every decision, the game's end within
        max_game_length). Returns (failures, actions played, the first failure's game
        and its kind, or None)."""
        cdef GameState s
        cdef Rng rng
        cdef int i, bad, length, failures = 0, limit = self.max_game_length
        cdef long long total = 0
        first = None
        kinds = ("", "resources", "money", "track", "frames", "legal", "length")
        rng.s = seed
        for i in range(n):
            s = self.initial
            with nogil:
                bad = check_random_game(&s, &self.cat, &rng, limit, &length)
            total += length
            if bad != BAD_NONE:
                failures += 1
                if first is None:
                    first = (i, kinds[bad])
        return failures, total, first

    @property
    def core_catalogue(self):
        """The catalogue as the core sees it (a dict of numbers)."""
        return self.cat

    @property
    def max_game_length(self):
        return max_game_length(self.players, self.rounds)


cdef class CoreState:
    """One game state: a GameState struct and the rules it follows."""
    cdef GameState s
    cdef readonly Rules rules

    # -- copying --------------------------------------------------------------------------
    def clone(self):
        cdef CoreState st = CoreState.__new__(CoreState)
        st.rules = self.rules
        st.s = self.s
        return st

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_rebuild_state, (self.rules, PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GameState))))

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return self.to_bytes() == (<CoreState>other).to_bytes()

    def __hash__(self):
        return hash(self.to_bytes())

    def to_bytes(self):
        return PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GameState))

    def to_dict(self):
        """Every field of the state as plain numbers and lists (see llp_types.pxd); under
        the face-down reading (factory_tops false) without the piles' tops, which it never
        shows, so that its states read as they always have."""
        cdef dict d = self.s
        if not self.s.factory_tops:
            del d["factory_tops"], d["factory_top"]
        return d

    # -- queries --------------------------------------------------------------------------
    def current_player(self):
        """The seat to decide, -1 at a chance node, -4 at the end."""
        return current_player(&self.s)

    def is_chance(self):
        return current_player(&self.s) == CHANCE

    def is_terminal(self):
        return self.s.phase == PH_TERMINAL

    @property
    def phase(self):
        return PHASE_NAMES[self.s.phase]

    @property
    def num_players(self):
        return self.s.num_players

    @property
    def rounds_played(self):
        return self.s.rounds_played

    @property
    def round(self):
        """The round being played, from 1 (0 during the setup)."""
        return 0 if self.s.phase <= PH_SETUP else self.s.rounds_played + (0 if self.s.phase >= PH_FINAL else 1)

    @property
    def automa_seat(self):
        """-1: Lead Letter Printers has no automa (the same face as the other games)."""
        return -1

    def rounds_left(self):
        return rounds_left(&self.s)

    def frame(self):
        """The effect waiting for a decision (the top frame) as a dict, or None."""
        if self.s.n_frames == 0:
            return None
        cdef object f = self.s.frames[self.s.n_frames - 1]
        return dict(f, name=FRAME_NAMES[f["kind"]])

    def legal_actions(self):
        cdef int buf[MAX_LEGAL]
        cdef int n = legal_actions(&self.s, &self.rules.cat, buf)
        return [buf[i] for i in range(n)]

    def chance_outcomes(self):
        cdef int buf[N_CHANCE]
        cdef double prob[N_CHANCE]
        if current_player(&self.s) != CHANCE:
            return []
        cdef int n = chance_outcomes(&self.s, &self.rules.cat, buf, prob)
        return [(buf[i], prob[i]) for i in range(n)]

    def move_costs(self, int seat, int tradesman):
        """The capacity a Shop move of the seat's tradesman to each cell costs now (99: out
        of reach), by cell r * 4 + c."""
        cdef int best[GRID_CELLS]
        self._check_seat(seat)
        move_costs(&self.s, &self.rules.cat, seat, tradesman, best)
        return [best[i] for i in range(GRID_CELLS)]

    def final_scores(self):
        """Each player's score by the final scoring, as if the game ended now."""
        cdef int out[MAX_SEATS]
        final_scores(&self.s, &self.rules.cat, out)
        return [out[i] for i in range(self.s.num_players)]

    def score_breakdown(self, int seat):
        """The final scoring's lines for the seat (rulebook: Game end)."""
        cdef int parts[8]
        self._check_seat(seat)
        score_parts(&self.s, &self.rules.cat, seat, parts)
        keys = ("track", "signboard_sets", "orders_in_production", "orders_not_started",
                "composing_sticks", "director", "contracts", "resources_and_cash")
        out = {k: parts[i] for i, k in enumerate(keys)}
        out["total"] = final_score(&self.s, &self.rules.cat, seat)
        return out

    def contract_value(self, int seat, int contract):
        """The points contract X is worth to the seat now (before doubling)."""
        self._check_seat(seat)
        if not 0 <= contract < N_CONTRACTS:
            raise ValueError(f"contract {contract} is out of range (0-{N_CONTRACTS - 1})")
        return contract_value(&self.s, &self.rules.cat, seat, contract)

    def ranking_key(self, int seat):
        """Higher is better: the score, then the completed orders, then the cash (the
        rulebook's tie-breaks, as winners_of takes them)."""
        self._check_seat(seat)
        cdef PlayerState* p = &self.s.players[seat]
        return (self.final_scores()[seat], popcount64(p.completed), p.marks)

    def winners(self):
        """The winning players (ties: completed orders, then cash; else shared)."""
        cdef bint win[MAX_SEATS]
        winners(&self.s, &self.rules.cat, win)
        return [i for i in range(self.s.num_players) if win[i]]

    def returns(self, mode="win"):
        cdef double out[MAX_SEATS]
        if mode not in RETURNS_MODES:
            raise ValueError(f"returns: {mode!r} is not one of {', '.join(RETURNS_MODES)}")
        returns_of(&self.s, &self.rules.cat, RETURNS_MODES.index(mode), out)
        return [out[i] for i in range(self.s.num_players)]

    def mask_history(self, int player, history):
        """The history (actor, action) pairs as `player` knows them: what they have not seen
        (entry_hidden) has action -1."""
        cdef int n = len(history), i = 0
        out = []
        for actor, action in history:
            out.append((actor, -1 if entry_hidden(&self.s, player, i, n, actor, action) else action))
            i += 1
        return out

    def resample_history(self, int player, history, unsigned long long seed):
        """A state `player` cannot tell from this one, drawn uniformly, and the actions of a
        history leading to it (resample_history in hidden.pxi)."""
        cdef CoreState st = self.clone()
        cdef Rng rng
        cdef int n = len(history), i
        cdef int[::1] actors = array.array("i", [h[0] for h in history]) if n else None
        cdef int[::1] actions = array.array("i", [h[1] for h in history]) if n else None
        rng.s = seed
        if n:
            resample_history(&st.s, player, &actors[0], &actions[0], n, &rng)
        return st, [actions[i] for i in range(n)]

    def resample_from(self, CoreState start, int player, history, unsigned long long seed):
        """As resample_history, for a history that begins at `start` (a game's initial
        state: a position): returns (the new start, the new state, the new actions)."""
        cdef CoreState st = self.clone()
        cdef CoreState begin = start.clone()
        cdef Rng rng
        cdef int n = len(history), i
        cdef int[::1] actors = array.array("i", [h[0] for h in history]) if n else None
        cdef int[::1] actions = array.array("i", [h[1] for h in history]) if n else None
        rng.s = seed
        if n:
            resample_from(&begin.s, &st.s, player, &actors[0], &actions[0], n, &rng)
        else:
            resample_from(&begin.s, &st.s, player, NULL, NULL, 0, &rng)
        return begin, st, [actions[i] for i in range(n)]

    def determinize(self, int player, unsigned long long seed):
        """A copy in which what `player` has not seen is redrawn uniformly."""
        cdef CoreState st = self.clone()
        cdef Rng rng
        rng.s = seed
        determinize(&st.s, &self.rules.cat, player, &rng)
        return st

    def smmcts_redraw(self, int player, unsigned long long seed):
        """A copy with what smmcts redraws before each of its iterations redrawn for
        `player` (smmcts_redraw in search_hooks.pxi, the function the search calls; ismcts
        redraws through determinize). For tests of what a redraw keeps and leaks."""
        self._check_seat(player)
        cdef CoreState st = self.clone()
        cdef Rng rng
        rng.s = seed
        smmcts_redraw(&st.s, player, &rng)
        return st

    def _check_seat(self, int seat):
        if not 0 <= seat < self.s.num_players:
            raise ValueError(f"player {seat} is out of range (0-{self.s.num_players - 1})")

    # -- acting ---------------------------------------------------------------------------
    def apply(self, action):
        """Apply a legal action (or chance outcome). An illegal one raises
        IllegalActionError saying why, and leaves the state as it was."""
        cdef int a
        a = action_id(action)
        if not is_legal(&self.s, &self.rules.cat, a):
            raise IllegalActionError(self.illegal_message(a))
        apply_action(&self.s, &self.rules.cat, a)

    def illegal_message(self, a):
        """Why action `a` cannot be applied now, in the game's words."""
        if self.s.phase == PH_TERMINAL:
            return f"action {a}: the game is over"
        if self.is_chance():
            if not 0 <= a < N_CHANCE:
                return f"chance outcome {a} is out of range (0-{N_CHANCE - 1})"
            legal = [x for x, _ in self.chance_outcomes()]
            return (f"chance outcome {a} ({self.action_to_string(a)}) cannot happen now; possible: "
                    f"{', '.join(map(str, legal[:12]))}{' ...' if len(legal) > 12 else ''}")
        if not 0 <= a < N_ACTIONS:
            return f"action {a} is out of range (0-{N_ACTIONS - 1})"
        legal = self.legal_actions()
        return (f"action {a} ({self.action_to_string(a)}) is not legal now ({self.step_name()}); legal: "
                f"{', '.join(map(str, legal[:12]))}{' ...' if len(legal) > 12 else ''}")

    def _advance(self):
        """Carry out what follows without a decision (as after every action): for
        positions written by hand with effects waiting."""
        advance(&self.s, &self.rules.cat)

    def apply_unchecked(self, int action):
        apply_action(&self.s, &self.rules.cat, action)

    def play_random(self, unsigned long long seed):
        """Finish the game with uniformly random moves (inside the core)."""
        cdef Rng rng
        rng.s = seed
        with nogil:
            play_random(&self.s, &self.rules.cat, &rng)

    def sample_chance(self, unsigned long long seed):
        cdef Rng rng
        rng.s = seed
        if current_player(&self.s) != CHANCE:
            raise ValueError("not a chance node")
        return sample_chance(&self.s, &self.rules.cat, &rng)

    # -- words ----------------------------------------------------------------------------
    def step_name(self):
        """What is being decided now, in the game's words."""
        s = self.s
        if s.phase == PH_TERMINAL:
            return "end of the game"
        if s.deal >= 0:
            return "a draw from a pile"
        if s.n_frames > 0:
            return f"{PHASE_NAMES[s.phase]}: {FRAME_NAMES[s.frames[s.n_frames - 1].kind]}"
        if s.phase == PH_ACTIONS:
            return (f"Action phase, turn {s.turn // s.num_players + 1} of 2: "
                    + ("optional actions, or end the turn" if s.main_done else "Shop or Reset"))
        return PHASE_NAMES[s.phase]

    def _cell(self, int cell):
        cat = self.rules.catalogue
        shop = self.rules.cat.boards[self.s.num_players].shop[cell]
        name = cat.shop_name(shop) if shop >= 0 else "?"
        return f"{name} (row {cell // GRID_SIDE + 1}, column {cell % GRID_SIDE + 1})"

    def action_to_string(self, int a):
        """An action (or a chance outcome at a chance node) in the game's words."""
        cat = self.rules.catalogue
        cdef int cp = current_player(&self.s)
        cdef int x, k, t, r
        R = _names.RESOURCES
        fk = self.s.frames[self.s.n_frames - 1].kind if self.s.n_frames > 0 else -1
        if cp == CHANCE:
            if C_LETTER <= a < C_TILE:
                return "draw " + cat.describe_letter(a - C_LETTER)
            if C_TILE <= a < C_TECH:
                return "draw " + cat.describe_tile(a - C_TILE)
            if C_TECH <= a < C_ORDER:
                return "draw " + cat.describe_tech(a - C_TECH)
            if C_ORDER <= a < C_CONTRACT:
                return "draw " + cat.describe_order(a - C_ORDER)
            if C_CONTRACT <= a < C_DISC:
                return "draw " + cat.describe_contract(a - C_CONTRACT)
            if C_DISC <= a < C_FACTORY:
                return "place " + cat.describe_disc(a - C_DISC)
            if C_FACTORY <= a < C_TOP:
                return (f"player {(a - C_FACTORY) // N_FACTORIES} draws "
                        + cat.describe_factory((a - C_FACTORY) % N_FACTORIES))
            if C_TOP <= a < C_FACTORY_TOP:
                return "the lead letters' pile shows " + _letters_text(a - C_TOP) + " on top"
            if C_FACTORY_TOP <= a < N_CHANCE:
                x = a - C_FACTORY_TOP
                return (f"the level {_names.LEVELS[self.rules.cat.factories[x].level]} factories' pile shows "
                        + cat.describe_factory(x) + " on top")
            return f"chance outcome {a} (out of range)"
        if a == A_PASS:
            return {F_TRAVEL: "end the travel", F_TRADE: "no trade", F_TYPESET: "no typesetting", F_SLIDE: "no slide",
                    F_SIGN_SOURCE: "turn a completed order's signboard face down"}.get(
                fk, "pass" if self.s.phase != PH_ACTIONS or self.s.n_frames else "end the turn")
        if A_SETUP <= a < A_MOVE:
            return f"setup: a tradesman into room II of {self._cell(a - A_SETUP)}"
        if A_MOVE <= a < A_RESET:
            t = (a - A_MOVE) // (GRID_CELLS * N_ROOMS)
            x = ((a - A_MOVE) // N_ROOMS) % GRID_CELLS
            r = (a - A_MOVE) % N_ROOMS
            return f"Shop: tradesman {t + 1} to room {('I', 'II')[r]} of {self._cell(x)}"
        if A_RESET <= a < A_KEEP:
            x = self.s.table[a - A_RESET]
            return "Reset with " + (cat.describe_letter(x) if x >= 0 else "no lead letter")
        if A_KEEP <= a < A_DISCARD:
            return f"keep the lead letter on stack {a - A_KEEP + 1}"
        if a == A_DISCARD:
            return "discard the lead letter for its resources"
        if A_LAY <= a < A_RESOURCE:
            return f"lay tradesman {a - A_LAY + 1} down"
        if A_RESOURCE <= a < A_CONVERT:
            if fk == F_CONVERT and self.s.frames[self.s.n_frames - 1].a < 0:
                return f"1:2 conversion: pay 1 {R[a - A_RESOURCE]}"
            return f"take 1 {R[a - A_RESOURCE]}"
        if a == A_CONVERT:
            return "trade: the 1:2 conversion"
        if A_TILE <= a < A_REFRESH_TILES:
            x = self.s.face_tiles[(a - A_TILE) // 2]
            how = "back" if (a - A_TILE) % 2 else "as printed"
            return f"trade: {cat.describe_tile(x) if x >= 0 else 'a trading tile'}, {how}"
        if a == A_REFRESH_TILES:
            return "trade: 1 mark for 3 new trading tiles"
        if a == A_AGAIN:
            return "the trading tile once more"
        if A_STACK <= a < A_STICK:
            what = {F_TYPESET: "typeset", F_CHAIN: "end the chain with the resources of",
                    F_LETTER_RES: "the resources of"}.get(fk, "the top of")
            return f"{what} the lead letter on stack {a - A_STACK + 1}"
        if A_STICK <= a < A_UNDER:
            x = (a - A_STICK) % N_STICK
            pair = " paired with a city tile" if a >= A_STICK_PAIR else ""
            return (f"onto composing stick {x // 3 + 1}, space {x % 3 + 1} "
                    f"({_names.LETTERS[self.rules.cat.stick[x].letter]}){pair}")
        if A_UNDER <= a < A_MAP:
            return f"under the contract in slot {a - A_UNDER + 1}"
        if A_MAP <= a < A_TRACK:
            seat = cp if cp >= 0 else 0
            node = self.s.players[seat].agent
            k = a - A_MAP
            if k < self.rules.cat.degree[node]:
                return f"travel to {cat.node_name(self.rules.cat.next[node][k])}"
            return f"travel along link {k + 1}"
        if a == A_TRACK:
            return "1 section on along the order track"
        if a == A_STOP:
            return "stop here on the map" if fk == F_TRAVEL and self.s.frames[self.s.n_frames - 1].b \
                and not self.s.frames[self.s.n_frames - 1].c else "end the travel"
        if a == A_TRADE:
            return "a trade action"
        if A_FACTORY_PILE <= a < A_FACTORY:
            return f"a factory of level {_names.LEVELS[a - A_FACTORY_PILE]}: draw 3"
        if A_FACTORY <= a < A_UP:
            return "keep " + cat.describe_factory(a - A_FACTORY)
        if A_UP <= a < A_TECH:
            x = (a - A_UP) % N_SPACES
            how = ("face up on", "face down on", "replacing the tile on")[(a - A_UP) // N_SPACES]
            return f"build {how} space {cat.space_name(x)}"
        if A_TECH <= a < A_REFRESH_COLUMN:
            k = (a - A_TECH) // TECH_ROWS
            x = self.s.tech_face[k][(a - A_TECH) % TECH_ROWS]
            return "buy " + (cat.describe_tech(x) if x >= 0 else "a technology")
        if A_REFRESH_COLUMN <= a < A_CHAIN:
            return f"1 mark: three new technologies of level {_names.LEVELS[a - A_REFRESH_COLUMN]}"
        if A_CHAIN <= a < A_ASSISTANT:
            return f"the chain goes on to space {cat.space_name(a - A_CHAIN)}"
        if A_ASSISTANT <= a < A_STREET:
            return f"the {ASSISTANT_KINDS[a - A_ASSISTANT]} assistant"
        if A_STREET <= a < A_TABLE:
            x = a - A_STREET
            return f"onto the street between {self._cell(x // 2)} and {self._cell(street_b(x))}"
        if A_TABLE <= a < A_ADVANCE:
            x = self.s.table[a - A_TABLE]
            return ("take " if fk != F_TABLE or self.s.frames[self.s.n_frames - 1].arg != 2 else "discard ") + \
                (cat.describe_letter(x) if x >= 0 else "a lead letter")
        if A_ADVANCE <= a < A_BUY_ORDER:
            x = a - A_ADVANCE
            return f"waiting order {x + 1} into stage 1" if x < N_WAITING else f"the order in stage {x - 1} on"
        if A_BUY_ORDER <= a < A_BUY_CONTRACT:
            x = self.s.order_display[a - A_BUY_ORDER]
            return f"buy {cat.describe_order(x) if x >= 0 else 'an order'} (space {a - A_BUY_ORDER + 1})"
        if A_BUY_CONTRACT <= a < A_SIGNBOARD:
            x = self.s.contract_display[a - A_BUY_CONTRACT]
            return f"buy {cat.describe_contract(x) if x >= 0 else 'a contract'} (space {a - A_BUY_CONTRACT + 1})"
        if A_SIGNBOARD <= a < A_ACTIVATE:
            x = a - A_SIGNBOARD
            what = ("1 workforce", "a travel without paying", "a technology without paying")[x]
            return f"{_names.SIGNBOARDS[x]} signboard action: {what}"
        if A_ACTIVATE <= a < A_DISC:
            return (f"activate {cat.describe_contract((a - A_ACTIVATE) // N_SLOTS)} in slot "
                    f"{(a - A_ACTIVATE) % N_SLOTS + 1}")
        if A_DISC <= a < A_CITY:
            if fk == F_SIGN_SOURCE:
                return "turn the signboard of " + cat.describe_disc(a - A_DISC) + " face down"
            return "use " + cat.describe_disc(a - A_DISC)
        if A_CITY <= a < A_COPY:
            return f"the city disc of {cat.city_names[a - A_CITY] if a - A_CITY < len(cat.city_names) else '?'}"
        if A_COPY <= a < A_SLIDE:
            return f"copy the technology on space {cat.space_name(a - A_COPY)}"
        if A_SLIDE <= a < A_PAIR:
            return f"slide tradesman {a - A_SLIDE + 1} down to its II room"
        if A_PAIR <= a < N_ACTIONS:
            return "pair " + cat.describe_disc(a - A_PAIR) + " with a lead letter"
        return f"action {a} (out of range 0-{N_ACTIONS - 1})"

    def observation_string(self, int player):
        """The state as `player` sees it: the factories others drew are hidden."""
        self._check_seat(player)
        return self._describe(player)

    def __str__(self):
        return self._describe(-1)

    def _describe(self, int viewer):
        return _describe_text(self, viewer)

    # -- tensors --------------------------------------------------------------------------
    def write_observation(self, int player, float[::1] out):
        """Write the observation tensor of `player` into `out` (OBSERVATION_SIZE floats)."""
        if out.shape[0] < OBS_SIZE:
            raise ValueError(f"observation buffer of {out.shape[0]} floats; {OBS_SIZE} needed")
        self._check_seat(player)
        return write_obs(&self.s, player, &out[0])

    # -- consistency ----------------------------------------------------------------------
    def problems(self):
        """What is inconsistent in this state: every component in one place, resources and
        money conserved, tracks in range. Empty when all is well."""
        return _problems(self)


def _letters_text(int mask):
    return "".join(_names.LETTERS[i] for i in range(N_LETTERS) if (mask >> i) & 1) or "no letter"


def state_apply_action(state, action):
    """A Python game shell's `_apply_action`, compiled (checked, raising IllegalActionError)."""
    cdef CoreState core = state._core
    core.apply(action)


def _rules_starting_at(catalogue, params, bytes initial):
    cdef Rules r = Rules(catalogue, **params)
    if PyBytes_GET_SIZE(initial) != sizeof(GameState):
        raise ValueError("state bytes of the wrong size (built by another version?)")
    memcpy(&r.initial, PyBytes_AS_STRING(initial), sizeof(GameState))
    return r


def _rebuild_state(Rules rules, bytes data):
    cdef CoreState st = CoreState.__new__(CoreState)
    st.rules = rules
    if PyBytes_GET_SIZE(data) != sizeof(GameState):
        raise ValueError("state bytes of the wrong size (built by another version?)")
    memcpy(&st.s, PyBytes_AS_STRING(data), sizeof(GameState))
    return st


def _bits(m):
    return [i for i in range(64) if (m >> i) & 1]


def _with_factory_tops(d, bint factory_tops):
    """A state's dict with the piles' tops: a dict without them (to_dict's under the
    face-down reading, or one written before the piles lay face up) follows the rules'
    reading, with no top in view yet (a chance node deals them)."""
    if isinstance(d, dict) and "factory_tops" not in d and "factory_top" not in d:
        return dict(d, factory_tops=int(factory_tops), factory_top=[-1] * N_LEVELS)
    return d


def _problems(CoreState st):
    cdef dict s = st.s      # every field, the piles' tops too (to_dict leaves them out when face down)
    cat = st.rules.core_catalogue
    out = []
    n = s["num_players"]
    if not 2 <= n <= MAX_SEATS or s["num_seats"] != n:
        return [f"num_players/num_seats: {n}/{s['num_seats']} are out of range"]
    if not 0 <= s["phase"] <= PH_TERMINAL:
        return [f"phase: {s['phase']} is out of range (0-{PH_TERMINAL})"]
    if not 0 <= s["n_frames"] < MAX_FRAMES:
        return [f"n_frames: {s['n_frames']} (at most {MAX_FRAMES - 1} effects may wait)"]
    # The sequence and who acts: values the core indexes with.
    if sorted(s["order"][:n]) != list(range(n)):
        return [f"order: {s['order'][:n]} is not an order of the {n} players"]
    if not 0 <= s["n_turns"] <= 2 * MAX_SEATS or not 0 <= s["turn"] <= s["n_turns"]:
        return [f"turn: {s['turn']} of {s['n_turns']} is out of range"]
    if any(not 0 <= x < n for x in s["seq"][:s["n_turns"]]):
        return [f"seq: {s['seq'][:s['n_turns']]} names a seat out of range"]
    if not -1 <= s["actor"] < n or not -1 <= s["deal"] <= DEAL_FACTORY_TOP:
        return [f"actor/deal: {s['actor']}/{s['deal']} out of range"]
    if s["phase"] not in (PH_DEAL, PH_TERMINAL) and s["deal"] < 0 and s["actor"] < 0:
        return ["actor: no player to decide"]
    for i, f in enumerate(s["frames"][:s["n_frames"]]):
        if not 0 <= f["kind"] < N_FRAME_KINDS or (f["kind"] == F_EFFECT and not 0 <= f["kind2"] < N_EFFECTS):
            return [f"frames[{i}]: kind {f['kind']}/{f['kind2']} is out of range"]
        limit = {F_CONVERT: N_RES, F_TILE_AGAIN: N_TILES, F_TYPESET_WHERE: N_STACKS, F_TECH_DONE: N_TECHS,
                 F_BUILD: N_TECHS + N_FACTORIES, F_CHAIN: N_SPACES, F_FACTORY_DRAW: N_LEVELS,
                 F_ASSISTANT: N_ASSISTANTS, F_KEEP: N_LETTER_TILES}.get(f["kind"])
        if limit is not None and not (-1 <= f["a"] < limit) or f["kind"] in (F_CHAIN, F_BUILD, F_KEEP, F_FACTORY_DRAW, F_TECH_DONE, F_TILE_AGAIN, F_TYPESET_WHERE) and f["a"] < 0:
            return [f"frames[{i}].a: {f['a']} is out of range for a {FRAME_NAMES[f['kind']]} frame"]
        if f["kind"] == F_TECH_DONE and not -1 <= f["b"] < N_SPACES:
            return [f"frames[{i}].b: {f['b']} is not a workshop space"]
        if f["kind"] == F_COPY and not 0 <= f["arg"] < N_LEVELS or f["kind"] == F_STAGE and not 0 <= f["arg"] < N_STAGES:
            return [f"frames[{i}].arg: {f['arg']} is out of range"]
        if f["kind"] == F_TILE_AGAIN and f["b"] not in (0, 1) or f["kind"] == F_ASSISTANT and not -1 <= f["b"] < 2:
            return [f"frames[{i}].b: {f['b']} is out of range"]
    board = cat["boards"][n]["shop"]
    for e in range(N_STREETS):
        if not -1 <= s["street_owner"][e] < n or not -1 <= s["street_kind"][e] < N_ASSISTANTS \
                or (s["street_owner"][e] >= 0) != (s["street_kind"][e] >= 0):
            return [f"street_owner/kind[{e}]: {s['street_owner'][e]}/{s['street_kind'][e]} out of range"]
    for lv in range(N_LEVELS):
        if not 0 <= s["tech_bottom_n"][lv] <= PER_LEVEL_TECHS or not 0 <= s["factory_bottom_n"][lv] <= PER_LEVEL_FACTORIES:
            return [f"tech/factory bottom of level {lv}: a count out of range"]
    players = s["players"][:n]
    for seat, p in enumerate(players):
        for t in range(N_TRADESMEN):
            placed = s["phase"] > PH_SETUP or p["pos"][t] >= 0
            if placed and (not 0 <= p["pos"][t] < GRID_CELLS or board[p["pos"][t]] < 0
                           or p["room"][t] not in (0, 1) or p["upright"][t] not in (0, 1)):
                return [f"players[{seat}]: tradesman {t} at cell {p['pos'][t]}, room {p['room'][t]} is off the city board"]
        if not 0 <= p["track_slot"] < MAX_SEATS:
            return [f"players[{seat}].track_slot: {p['track_slot']} is out of range"]
        for k in range(N_SLOTS):
            c = p["slot_contract"][k]
            if c >= 0 and (c >= N_CONTRACTS or not (p["contracts"] >> c) & 1):
                return [f"players[{seat}].slot_contract[{k}]: {c} is not a contract the player has"]
        if not 0 <= p["stack_n"][0] <= MAX_STACK or not 0 <= p["stack_n"][1] <= MAX_STACK:
            return [f"players[{seat}].stack_n: {p['stack_n']} out of range"]
        if p["wf_street"][0] >= N_STREETS or p["wf_street"][1] >= N_STREETS:
            return [f"players[{seat}].wf_street: {p['wf_street']} out of range"]
        if not 0 <= p["agent"] < cat["n_nodes"]:
            return [f"players[{seat}].agent: {p['agent']} is off the map"]
    # Resources and money.
    for r in range(N_RES):
        total = s["supply"][r] + sum(p["res"][r] for p in players)
        if total != RESOURCE_SUPPLY:
            out.append(f"{_names.RESOURCES[r]}: {total} in the supply and with the players; the game has {RESOURCE_SUPPLY}")
        if s["supply"][r] < 0 or any(p["res"][r] < 0 for p in players):
            out.append(f"{_names.RESOURCES[r]}: a negative count")
    money = s["bank"] + sum(p["marks"] for p in players)
    if money != BANK:
        out.append(f"marks: {money} in the bank and with the players; {BANK} at the start")
    # Tracks.
    for seat, p in enumerate(players):
        w = f"players[{seat}]"
        if p["marks"] < 0:
            out.append(f"{w}.marks: {p['marks']} is negative")
        if not 1 <= p["workforce"] <= cat["workforce_max"]:
            out.append(f"{w}.workforce: {p['workforce']} is off the track (1-{cat['workforce_max']})")
        if not 0 <= p["capacity"] < CAP_SPACES:
            out.append(f"{w}.capacity: {p['capacity']} is off the track (0-{CAP_SPACES - 1})")
        if not 0 <= p["section"] <= ORDER_SECTIONS:
            out.append(f"{w}.section: {p['section']} is off the order track (0-{ORDER_SECTIONS})")
        if not 0 <= p["agent"] < cat["n_nodes"]:
            out.append(f"{w}.agent: {p['agent']} is off the map")
        if len(_bits(p["cities"])) + p["factories_paid"] > N_MARKERS:
            out.append(f"{w}: more city markers spent than the {N_MARKERS} a player has")
        if any(not 0 <= x <= MAX_STACK for x in p["stack_n"]):
            out.append(f"{w}.stack_n: {p['stack_n']} out of range")
        on_board = sum(1 for e in range(N_STREETS) if s["street_owner"][e] == seat)
        if on_board + len(_bits(p["assistants"])) != N_ASSISTANTS:
            out.append(f"{w}: {on_board} assistants on the board and {len(_bits(p['assistants']))} in hand; "
                       f"a player has {N_ASSISTANTS}")
    # One place for each component.
    def once(name, places, total):
        seen = [x for x in places if x >= 0]
        if sorted(seen) != list(range(total)):
            missing = sorted(set(range(total)) - set(seen))
            twice = sorted(x for x in set(seen) if seen.count(x) > 1)
            out.append(f"{name}: missing {missing[:6]}, twice {twice[:6]}")
    letters = _bits(s["letter_pile"]) + _bits(s["letter_discard"]) + list(s["table"])
    for p in players:
        for k in range(N_STACKS):
            letters += list(p["stack"][k][:p["stack_n"][k]])
        letters += list(p["stick"]) + [x for x in p["contract_letter"]]
    letters += [f["a"] for f in s["frames"][:s["n_frames"]] if f["kind"] == F_KEEP]   # taken, not placed yet
    once("lead letters", letters, N_LETTER_TILES)
    if s["letter_top"] >= 0 and not any(cat["letters"][x]["letters"] == s["letter_top"] for x in _bits(s["letter_pile"])):
        out.append(f"letter_top: {s['letter_top']} is the back of no lead letter in the pile")
    once("trading tiles", _bits(s["tile_pile"]) + _bits(s["tile_discard"]) + list(s["face_tiles"]), N_TILES)
    techs = _bits(s["tech_pile"]) + [x for lv in range(N_LEVELS) for x in s["tech_bottom"][lv][:s["tech_bottom_n"][lv]]]
    techs += [x for row in s["tech_face"] for x in row]
    tops = list(s["factory_top"])
    if s["factory_tops"] != st.rules.factory_tops:
        out.append(f"factory_tops: {s['factory_tops']} where the rules say {int(st.rules.factory_tops)}")
    for lv, x in enumerate(tops):
        if x >= 0 and not s["factory_tops"]:
            out.append(f"factory_top[{lv}]: a top in view, but the piles lie face down (factory_tops false)")
        if not -1 <= x < N_FACTORIES or x >= 0 and cat["factories"][x]["level"] != lv:
            out.append(f"factory_top[{lv}]: {x} is not a factory of level {_names.LEVELS[lv]}")
    facts = _bits(s["factory_pile"]) + list(s["drawn"]) + [x for x in tops if 0 <= x < N_FACTORIES]
    facts += [x for lv in range(N_LEVELS) for x in s["factory_bottom"][lv][:s["factory_bottom_n"][lv]]]
    for p in players:
        for code in list(p["up"]) + list(p["down"]):
            if 0 <= code < N_TECHS:
                techs.append(code)
            elif code >= N_TECHS:
                facts.append(code - N_TECHS)
    for f in s["frames"][:s["n_frames"]]:
        if f["kind"] == F_BUILD:        # a tile bought (or replaced) on its way into the workshop
            (techs if f["a"] < N_TECHS else facts).append(f["a"] if f["a"] < N_TECHS else f["a"] - N_TECHS)
    once("technologies", techs, N_TECHS)
    once("factories", facts, N_FACTORIES)
    orders = _bits(s["order_pile"]) + _bits(s["order_discard"]) + list(s["order_display"])
    for p in players:
        orders += list(p["waiting"]) + list(p["stage"]) + _bits(p["completed"])
    once("orders", orders, N_ORDERS)
    contracts = _bits(s["contract_pile"]) + _bits(s["contract_discard"]) + list(s["contract_display"])
    for p in players:
        contracts += _bits(p["contracts"])
    once("contracts", contracts, N_CONTRACTS)
    discs = _bits(s["disc_pile"]) + list(s["city_disc"])
    for p in players:
        discs += _bits(p["discs"])
    once("city discs", discs, N_DISCS)
    left = [s["orders_left"][lv] for lv in range(N_LEVELS)]
    for lv in range(N_LEVELS):
        undrawn = sum(1 for x in _bits(s["order_pile"]) if cat["orders"][x]["level"] == lv)
        if not 0 <= left[lv] <= undrawn:
            out.append(f"orders_left[{lv}]: {left[lv]} with {undrawn} orders of the level not drawn")
    return out


# ---------------------------------------------------------------------------------------
# Observation tensor: a fixed layout of one-hots and scaled counts, seats relative to the
# observer (observer first). The factories another player drew, and those put back under a
# pile that the observer has not seen, are not shown.
# ---------------------------------------------------------------------------------------
cdef enum:
    N_TILE_CODES = N_TECHS + N_FACTORIES
    SEAT_BLOCK = (1 + 1 + 1 + N_RES + 1 + 1 + N_ASSISTANTS + 2 + N_STACKS * (N_LETTER_TILES + 1)
                  + N_STICK * N_LETTER_TILES + N_STICK + N_SLOTS * 2 + N_SLOTS * N_CONTRACTS
                  + N_CONTRACTS * 2 + N_SPACES * N_TILE_CODES + N_SPACES * N_TILE_CODES
                  + N_WAITING * N_ORDERS + N_STAGES * N_ORDERS + N_ORDERS * 2 + N_DISCS * 2
                  + MAX_CITIES + 1 + 1 + MAX_NODES + (ORDER_SECTIONS + 1) + MAX_SEATS
                  + N_TRADESMEN * (GRID_CELLS + 2 + 1) + 2 + MAX_SEATS)
    OBS_SIZE = ((PH_TERMINAL + 1) + 1 + (MAX_SEATS + 1) + 2 + N_FRAME_KINDS + N_EFFECTS + 6 + 1
                + N_RES + N_LETTERS + N_TABLE * N_LETTER_TILES + N_FACE_TILES * N_TILES
                + N_LEVELS * TECH_ROWS * N_TECHS + N_LEVELS * 4 + 3 * (N_FACTORIES + 1) + N_FACTORIES
                + N_DISPLAY * N_ORDERS + N_DISPLAY * N_CONTRACTS + N_LEVELS + 2
                + MAX_CITIES * N_DISCS + N_STREETS * (MAX_SEATS + N_ASSISTANTS)
                + MAX_SEATS * SEAT_BLOCK)

OBSERVATION_SIZE = OBS_SIZE


cdef inline int onehot(float* out, int at, int x, int n) noexcept nogil:
    if 0 <= x < n:
        out[at + x] = 1.0
    return at + n


cdef int write_obs(const GameState* s, int player, float* out) noexcept nogil:
    """Write the observation of `player`; returns the floats written (OBS_SIZE). Components
    are one-hot by their ids (what they show is the catalogue's, the same for every
    observer)."""
    cdef int at = 0, i, j, k, lv, rel, seat, x, code, n = s.num_players
    cdef const PlayerState* p
    cdef const Frame* f
    memset(out, 0, OBS_SIZE * sizeof(float))
    at = onehot(out, at, s.phase, PH_TERMINAL + 1)
    out[at] = s.rounds_played / 10.0
    at += 1
    at = onehot(out, at, (s.actor - player + n) % n if s.actor >= 0 else MAX_SEATS, MAX_SEATS + 1)
    out[at] = s.main_done
    out[at + 1] = s.prod_left / 10.0
    at += 2
    if s.n_frames > 0:
        f = &s.frames[s.n_frames - 1]
        onehot(out, at, f.kind, N_FRAME_KINDS)
        onehot(out, at + N_FRAME_KINDS, f.kind2, N_EFFECTS)
        k = at + N_FRAME_KINDS + N_EFFECTS
        out[k] = f.n / 5.0
        out[k + 1] = f.arg / 3.0
        out[k + 2] = f.a / 64.0
        out[k + 3] = f.b / 64.0
        out[k + 4] = f.c
        out[k + 5] = f.d
    at += N_FRAME_KINDS + N_EFFECTS + 6
    out[at] = s.n_frames / <float>MAX_FRAMES
    at += 1
    for i in range(N_RES):
        out[at + i] = s.supply[i] / 20.0
    at += N_RES
    if s.letter_top >= 0:
        for k in range(N_LETTERS):
            out[at + k] = (s.letter_top >> k) & 1
    at += N_LETTERS
    for i in range(N_TABLE):
        at = onehot(out, at, s.table[i], N_LETTER_TILES)
    for i in range(N_FACE_TILES):
        at = onehot(out, at, s.face_tiles[i], N_TILES)
    for lv in range(N_LEVELS):
        for i in range(TECH_ROWS):
            at = onehot(out, at, s.tech_face[lv][i], N_TECHS)
    for lv in range(N_LEVELS):
        out[at] = popcount64(s.tech_pile & level_techs(lv)) / 12.0
        out[at + 1] = s.tech_bottom_n[lv] / 12.0
        out[at + 2] = popcount64(s.factory_pile & level_factories(lv)) / 9.0
        out[at + 3] = s.factory_bottom_n[lv] / 9.0
        at += 4
    for i in range(3):
        # The drawn factories: their drawer sees them.
        if s.drawn[i] >= 0 and sees_drawn(s, i, player):
            out[at + s.drawn[i]] = 1.0
        elif s.drawn[i] >= 0:
            out[at + N_FACTORIES] = 1.0
        at += N_FACTORIES + 1
    for lv in range(N_LEVELS):
        for i in range(s.factory_bottom_n[lv]):
            if sees_put_back(s, lv, i, player):
                out[at + s.factory_bottom[lv][i]] = 1.0
        # The top in view: like those seen put back, a factory of the pile the observer
        # knows (the layout keeps its size, and the learned evaluation its inputs).
        if s.factory_top[lv] >= 0:
            out[at + s.factory_top[lv]] = 1.0
    at += N_FACTORIES
    for i in range(N_DISPLAY):
        at = onehot(out, at, s.order_display[i], N_ORDERS)
    for i in range(N_DISPLAY):
        at = onehot(out, at, s.contract_display[i], N_CONTRACTS)
    for lv in range(N_LEVELS):
        out[at + lv] = s.orders_left[lv] / 12.0
    at += N_LEVELS
    out[at] = popcount64(s.contract_pile) / 24.0
    out[at + 1] = popcount64(s.letter_pile) / 54.0
    at += 2
    for i in range(MAX_CITIES):
        at = onehot(out, at, s.city_disc[i], N_DISCS)
    for i in range(N_STREETS):
        if s.street_owner[i] >= 0:
            out[at + (s.street_owner[i] - player + n) % n] = 1.0
            out[at + MAX_SEATS + s.street_kind[i]] = 1.0
        at += MAX_SEATS + N_ASSISTANTS
    for rel in range(MAX_SEATS):
        if rel >= n:
            at += SEAT_BLOCK
            continue
        seat = (player + rel) % n
        p = &s.players[seat]
        out[at] = 1.0
        out[at + 1] = p.marks / 20.0
        out[at + 2] = p.points / 50.0
        at += 3
        for i in range(N_RES):
            out[at + i] = p.res[i] / 10.0
        at += N_RES
        out[at] = p.workforce / 8.0
        out[at + 1] = p.capacity / 10.0
        at += 2
        for i in range(N_ASSISTANTS):
            out[at + i] = (p.assistants >> i) & 1
        at += N_ASSISTANTS
        out[at] = p.wf_street[0] >= 0
        out[at + 1] = p.wf_street[1] >= 0
        at += 2
        for k in range(N_STACKS):
            onehot(out, at, top_letter(p, k), N_LETTER_TILES)
            out[at + N_LETTER_TILES] = p.stack_n[k] / 8.0
            at += N_LETTER_TILES + 1
        for i in range(N_STICK):
            at = onehot(out, at, p.stick[i], N_LETTER_TILES)
        for i in range(N_STICK):
            out[at + i] = p.stick_disc[i] >= 0
        at += N_STICK
        for i in range(N_SLOTS):
            out[at + i] = (p.slots_open >> i) & 1
            out[at + N_SLOTS + i] = (p.slots_used >> i) & 1
        at += 2 * N_SLOTS
        for i in range(N_SLOTS):
            at = onehot(out, at, p.slot_contract[i], N_CONTRACTS)
        for i in range(N_CONTRACTS):
            out[at + i] = (p.contracts >> i) & 1
            out[at + N_CONTRACTS + i] = p.contract_letter[i] >= 0
        at += 2 * N_CONTRACTS
        for i in range(N_SPACES):
            at = onehot(out, at, p.up[i], N_TILE_CODES)
        for i in range(N_SPACES):
            at = onehot(out, at, p.down[i], N_TILE_CODES)
        for i in range(N_WAITING):
            at = onehot(out, at, p.waiting[i], N_ORDERS)
        for i in range(N_STAGES):
            at = onehot(out, at, p.stage[i], N_ORDERS)
        for i in range(N_ORDERS):
            out[at + i] = has_bit(p.completed, i)
            out[at + N_ORDERS + i] = has_bit(p.signs_used, i)
        at += 2 * N_ORDERS
        for i in range(N_DISCS):
            out[at + i] = (p.discs >> i) & 1
            out[at + N_DISCS + i] = (p.discs_used >> i) & 1
        at += 2 * N_DISCS
        for i in range(MAX_CITIES):
            out[at + i] = (p.cities >> i) & 1
        at += MAX_CITIES
        out[at] = p.factories_paid / 12.0
        out[at + 1] = p.pairing
        at += 2
        at = onehot(out, at, p.agent, MAX_NODES)
        at = onehot(out, at, p.section, ORDER_SECTIONS + 1)
        at = onehot(out, at, p.track_slot, MAX_SEATS)
        for i in range(N_TRADESMEN):
            onehot(out, at, p.pos[i], GRID_CELLS)
            out[at + GRID_CELLS] = p.room[i] == 0
            out[at + GRID_CELLS + 1] = p.room[i] == 1
            out[at + GRID_CELLS + 2] = p.upright[i]
            at += GRID_CELLS + 3
        out[at] = p.bought_order
        out[at + 1] = p.bought_contract
        at += 2
        at = onehot(out, at, order_position(s, seat), MAX_SEATS)
    return at
