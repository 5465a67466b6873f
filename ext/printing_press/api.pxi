# The Python face of the Printing Press core (included by core.pyx): a Rules object per
# game that makes states, and a CoreState around one GameState struct. Its methods mirror
# Gutenberg's (gutenberg_ai.games.gutenberg._core) so that bots, hints, records and the command line can
# treat both games alike.

import array

from gutenberg_ai.games.printing_press import names as _names


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


PHASE_NAMES = ("character tiles", "solo board", "choose a character", "character sides",
               "setup tokens", "start of the round", "deal orders", "Select Orders",
               "deal cards", "Select Cards", "bonus markers", "Close Frames", "end")
RETURNS_MODES = _names.RETURNS_MODES   # the values of RETURNS_* in engine_types.pxd

ACTIONS = dict(
    CHARACTER=A_CHARACTER, SIDE=A_SIDE, YES=A_YES, NO=A_NO, DONE=A_DONE, ORDER=A_ORDER, TAKE=A_TAKE,
    PLACE=A_PLACE, UNDER=A_UNDER, DISCARD=A_DISCARD, KEEP_UP=A_KEEP_UP, KEEP_DOWN=A_KEEP_DOWN,
    SETUP_UP=A_SETUP_UP, SETUP_DOWN=A_SETUP_DOWN, GUILLARD=A_GUILLARD,
    CAXTON_GIVE=A_CAXTON_GIVE, CAXTON_TAKE=A_CAXTON_TAKE, TOKEN_AT=A_TOKEN_AT,
    MARKER=A_MARKER, WINDOW=A_WINDOW, NUM_ACTIONS=N_ACTIONS)
CHANCE_OUTCOMES = dict(TILE=C_TILE, SOLO=C_SOLO, SETUP=C_SETUP, FRAME=C_FRAME, PLATE=C_PLATE,
                       CARD=C_CARD, DRAW=C_DRAW, NUM_CHANCE=N_CHANCE)
PHASES = dict(TILES=PH_TILES, SOLO_BOARD=PH_SOLO_BOARD, CHARACTER=PH_CHARACTER, SIDES=PH_SIDES,
              SETUP_TOKENS=PH_SETUP_TOKENS, ROUND_START=PH_ROUND_START,
              DEAL_ORDERS=PH_DEAL_ORDERS, ORDERS=PH_ORDERS, DEAL_CARDS=PH_DEAL_CARDS,
              CARDS=PH_CARDS, MARKERS=PH_MARKERS, CLOSE=PH_CLOSE, TERMINAL=PH_TERMINAL)
SUBS = dict(TAKE=SUB_TAKE, PLACE=SUB_PLACE, KEEP=SUB_KEEP)
HELD = dict(NONE=HELD_NONE, KEPT=HELD_KEPT, SETUP=HELD_SETUP, GUILLARD=HELD_GUILLARD)
SLOTS = dict(NONE=SLOT_NONE, HAND=SLOT_HAND, UP=SLOT_UP, DOWN=SLOT_DOWN, RETURNED=SLOT_RETURNED)
CELL = dict(EMPTY=CELL_EMPTY, BASE=CELL_BASE, TOKEN=CELL_TOKEN, ABILITY=CELL_ABILITY,
            INITIATIVE=SQ_INITIATIVE, BLANK=SQ_BLANK)
PAIRS = tuple((PAIR_FIRST[k], PAIR_SECOND[k]) for k in range(N_PAIRS))
GRID_SIZE = GRID
NUM_ANCHORS = N_ANCHORS
ANCHOR_RANGE = (ANCHOR_MIN, ANCHOR_MIN + ANCHOR_SIDE - 1)
MAX_PLAYERS = MAX_SEATS
MAX_LEGAL_ACTIONS = MAX_LEGAL
NUM_ACTIONS = N_ACTIONS
NUM_CHANCE_OUTCOMES = N_CHANCE


def anchor(int r, int c):
    """The anchor index of cell (r, c) relative to the tableau's top-left square."""
    if not ANCHOR_MIN <= r < ANCHOR_MIN + ANCHOR_SIDE or not ANCHOR_MIN <= c < ANCHOR_MIN + ANCHOR_SIDE:
        raise ValueError(f"cell ({r}, {c}) is outside the anchors' range "
                         f"({ANCHOR_MIN}..{ANCHOR_MIN + ANCHOR_SIDE - 1})")
    return anchor_of(r, c)


def anchor_cell(int a):
    """The cell (r, c) of anchor index a."""
    if not 0 <= a < N_ANCHORS:
        raise ValueError(f"anchor {a} is out of range (0-{N_ANCHORS - 1})")
    return anchor_row(a), anchor_col(a)


def _from_first(str what, int i):
    """How far row (or column) i, 0-based and below 0 (above or left of the grid, which
    the grid does not draw: a card there extends the tableau), is from row 1 (column 1)."""
    side = "above" if what == "row" else "left of"
    far = "just" if i == -1 else f"{-i} {what}s"
    return f"{far} {side} {what} 1"


def _line_words(str what, int i):
    """A row or column of the tableau (0-based from its top-left square) as a player reads
    it: numbered from 1 as the grid numbers it; one above or left of the grid (0 or below)
    also says how far from row 1 or column 1 it is: "row -2 (3 rows above row 1)"."""
    return f"{what} {i + 1}" if i >= 0 else f"{what} {i + 1} ({_from_first(what, i)})"


def _lines_words(str what, int i):
    """The three rows (or columns) of a window from `i`, as _line_words says one."""
    return f"{what}s {i + 1}-{i + 3}" if i >= 0 else f"{what}s {i + 1} to {i + 3} (from {_from_first(what, i)})"


def window_words(int r, int c):
    """A 3x3 window by its top-left cell (0-based), as the moves say it: "rows 1-3,
    columns 2-4"; "rows -1 to 1 (from 2 rows above row 1), columns 2-4"."""
    return f"{_lines_words('row', r)}, {_lines_words('column', c)}"


def place_action(int orientation, int r, int c):
    """The action placing the taken card with its first square at (r, c)."""
    if not 0 <= orientation < 4:
        raise ValueError(f"orientation {orientation} is out of range (0-3)")
    return A_PLACE + orientation * N_ANCHORS + anchor(r, c)


def max_game_length(int players, int card_steps=MAX_CARD_STEPS, int rounds=N_ROUNDS):
    """An upper bound on the number of actions (chance outcomes included) in a game.

    Setup: a tile and a side each, the solo board's 9 tokens, up to 4 setup tokens each.
    A round: a cube question, the orders dealt (2 per order) and chosen, per Select Cards
    step the cards dealt, per player at most 7 entries (take, discard, 3 draws, keep,
    place) and the end of a token window, and a question; a bonus marker, a window. A
    game: at most 4 setup tokens placed (2 entries each), Guillard's token (2), Caxton's
    exchange (2).
    """
    cdef int seats = players + 1 if players == 1 else players
    setup = players * (2 + SETUP_TOKENS + CAXTON_EXTRA) + 1 + N_ROUNDS * N_CHOICES
    per_round = (1 + 2 * (seats + 1) + players + 1
                 + card_steps * ((seats + 1) + 8 * players + 1) + players + players)
    return setup + rounds * per_round + players * (2 * MAX_HAND + 2 + 2)


def _parameter_error(name, value, reason):
    return ValueError(f"{name}: {value!r} {reason}")


cdef class Rules:
    """A game's catalogue and parameters, compiled: it makes initial states.

    players      1-4; 1 is the solo game against the automa
    variant      "basic" (time track side A, 6 Select Cards steps a round) or "advanced"
                 (side B, 5 steps)
    characters   True: a random character tile each (solo: chosen); False: none, and the
                 first player is seat 0
    one_token, automa_wins_ties, hard_board   the solo game's difficulty options
    rounds       1-3 (3 is the game; fewer make small variants)
    """
    cdef object __weakref__   # gamedata keeps the rules of a file's data while in use
    cdef Catalogue cat
    cdef GameState initial
    cdef readonly object catalogue
    cdef readonly int players
    cdef readonly str variant
    cdef readonly bint characters
    cdef readonly bint one_token
    cdef readonly bint automa_wins_ties
    cdef readonly bint hard_board
    cdef readonly int rounds

    def __init__(self, catalogue, players=2, variant="basic", characters=True, one_token=False,
                 automa_wins_ties=False, hard_board=False, rounds=N_ROUNDS):
        from gutenberg_ai.games.printing_press.catalogue import Catalogue as _Catalogue
        if not isinstance(catalogue, _Catalogue):
            raise TypeError(f"catalogue: a Printing Press Catalogue is needed, got {type(catalogue).__name__}")
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_SEATS:
            raise _parameter_error("players", players, f"is not a number of players (1-{MAX_SEATS})")
        if variant not in _names.VARIANTS:
            raise _parameter_error("variant", variant, f"is not one of {', '.join(_names.VARIANTS)}")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= N_ROUNDS:
            raise _parameter_error("rounds", rounds, f"is out of range (1-{N_ROUNDS})")
        for name, value in (("characters", characters), ("one_token", one_token),
                            ("automa_wins_ties", automa_wins_ties), ("hard_board", hard_board)):
            if not isinstance(value, bool):
                raise _parameter_error(name, value, "is not true or false")
            if name != "characters" and value and players != 1:
                raise _parameter_error(name, value, f"is a solo difficulty option; this game has {players} players")
        self.cat = catalogue.to_core()
        self.catalogue = catalogue
        self.players = players
        self.variant = variant
        self.characters = characters
        self.one_token = one_token
        self.automa_wins_ties = automa_wins_ties
        self.hard_board = hard_board
        self.rounds = rounds
        init_state(&self.initial, &self.cat, players, _names.VARIANTS.index(variant), rounds,
                   characters, one_token, automa_wins_ties, hard_board)

    @property
    def params(self):
        """The parameters as a dict (check_parameters' names)."""
        return dict(players=self.players, variant=self.variant, characters=self.characters,
                    one_token=self.one_token, automa_wins_ties=self.automa_wins_ties,
                    hard_board=self.hard_board, rounds=self.rounds)

    def __reduce__(self):
        return (_rules_starting_at, (self.catalogue, self.params,
                                     PyBytes_FromStringAndSize(<char*>&self.initial, sizeof(GameState))))

    def starting_at(self, CoreState state):
        """The same rules with games starting at `state` instead of before the setup."""
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
        consistency; raises ValueError naming the first problem found."""
        cdef CoreState st = CoreState.__new__(CoreState)
        st.rules = self
        try:
            st.s = d
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

    @property
    def core_catalogue(self):
        """The catalogue as the core sees it (a dict of numbers)."""
        return self.cat

    @property
    def max_game_length(self):
        return max_game_length(self.players, self.cat.track[self.initial.variant].card_steps, self.rounds)


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
        """Every field of the state as plain numbers and lists (see pp_types.pxd)."""
        return self.s

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
    def round(self):
        return self.s.round

    @property
    def num_players(self):
        return self.s.num_players

    @property
    def automa_seat(self):
        """The automa's seat (after the player's), or -1."""
        return self.s.automa_seat

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

    def initiative(self, int seat):
        """The seat's initiative now (cubes + icons; the automa: cubes + its 4th column)."""
        self._check_seat(seat, True)
        return initiative(&self.s, seat)

    def final_scores(self):
        """Fame with the end bonus, per player (what the scoring would give now); the
        automa's is automa_score()."""
        cdef int out[MAX_SEATS]
        final_scores(&self.s, &self.rules.cat, out)
        return [out[i] for i in range(self.s.num_players)]

    def automa_score(self):
        """The solo automa's points so far (None without an automa)."""
        if self.s.automa_seat < 0:
            return None
        return self.s.players[self.s.automa_seat].fame

    def automa_took(self, int action):
        """What the solo automa's rule took while `action` (legal here) is played, when
        its turn comes in the middle of it: (card, column), the column 0-2 for the
        round's first to third choice symbol and 3 for the leftmost card when no card
        shows one (automa_choice); None when its turn does not come. Nothing is played
        on this state: its rule is asked of the offer it met."""
        cdef GameState after = self.s
        cdef GameState faced = self.s
        cdef int seat = self.s.automa_seat, k, column, chosen, before = 0, taken = 0
        if seat < 0 or not is_legal(&self.s, &self.rules.cat, action):
            return None
        apply_action(&after, &self.rules.cat, action)
        for k in range(N_COLUMNS):
            before += self.s.players[seat].columns[k]
            taken += after.players[seat].columns[k]
        if after.round != self.s.round or taken != before + 1:
            return None
        # The offer it met: this one, with the card `action` deals (the last of a deal
        # completes the offer and the picks begin).
        if faced.phase == PH_DEAL_CARDS and C_CARD <= action < C_DRAW:
            faced.offer[faced.n_offer] = action - C_CARD
            faced.n_offer += 1
        chosen = automa_choice(&faced, &self.rules.cat, &column)
        return None if chosen < 0 else (faced.offer[chosen], column)

    def window_score(self, int seat, int r, int c):
        """The points the seat's current order would score with the window at (r, c) of
        its tableau: (plate main, plate additional, frame ink, frame specialty)."""
        cdef int16_t w[9]
        cdef int parts[4]
        self._check_seat(seat)
        cdef PlayerState* p = &self.s.players[seat]
        if self.s.round < 1 or p.order_frame[self.s.round - 1] < 0:
            raise ValueError(f"player {seat} has no order this round")
        read_window(p, r, c, w)
        score_window(&self.rules.cat, p.order_frame[self.s.round - 1], p.order_plate[self.s.round - 1], w, parts)
        return tuple(parts[i] for i in range(4))

    def score_breakdown(self, int seat):
        """The seat's points: per closed round (plate main, additional, frame ink,
        specialty), the end bonus and the total. The automa: its points."""
        cdef int parts[4]
        cdef int r
        self._check_seat(seat, True)
        cdef PlayerState* p = &self.s.players[seat]
        total = final_score(&self.s, &self.rules.cat, seat)
        if seat == self.s.automa_seat:
            return dict(rounds=[], bonus=0, total=total)
        rounds = []
        for r in range(N_ROUNDS):
            if p.order_frame[r] >= 0 and (r < self.s.round - 1 or self.s.phase == PH_TERMINAL
                                          or (self.s.phase == PH_CLOSE and self._closed(seat))):
                score_window(&self.rules.cat, p.order_frame[r], p.order_plate[r], p.closed[r], parts)
                rounds.append(dict(plate=parts[0], additional=parts[1], ink=parts[2], specialty=parts[3],
                                   total=parts[0] + parts[1] + parts[2] + parts[3]))
        return dict(rounds=rounds, bonus=total - p.fame, total=total)

    def _closed(self, int seat):
        """At Close Frames: whether the seat has closed its frame already."""
        for t in range(self.s.turn):
            if self.s.turn_order[t] == seat:
                return True
        return False

    def winners(self):
        """The winning players (the automa never wins; tied players share)."""
        cdef bint win[MAX_SEATS]
        winners(&self.s, &self.rules.cat, win)
        return [i for i in range(self.s.num_players) if win[i]]

    def returns(self, mode="win"):
        """The players' returns under the game parameter `returns` ("win", "score" or
        "margin"; engine.pxi's returns_formula)."""
        cdef double out[MAX_SEATS]
        if mode not in RETURNS_MODES:
            raise ValueError(f"returns: {mode!r} is not one of {', '.join(RETURNS_MODES)}")
        returns_of(&self.s, &self.rules.cat, RETURNS_MODES.index(mode), out)
        return [out[i] for i in range(self.s.num_players)]

    def character(self, int seat):
        """The name of the seat's character, or None."""
        x = self.s.players[seat].character if 0 <= seat < self.s.num_seats else -1
        return _names.CHARACTERS[x] if x >= 0 else None

    def mask_history(self, int player, history):
        """The history (actor, action) pairs as `player` knows them: what they have not seen
        (entry_hidden) has action -1."""
        cdef int n = len(history), i = 0
        out = []
        for actor, action in history:
            out.append((actor, -1 if entry_hidden(&self.s, player, i, n, actor, action) else action))
            i += 1
        return out

    def resample_history(self, int player, history, unsigned long long seed, CoreState start=None):
        """A state `player` cannot tell from this one, drawn uniformly, and the actions of a
        history leading to it: `history` ((actor, action) pairs from `start`, by default
        the rules' initial state) with the entries player has not seen redrawn
        (resample_history in hidden.pxi). With `start`, returns (state, actions, the
        start with its hidden symbols redrawn)."""
        cdef CoreState st = self.clone()
        cdef CoreState begin = start.clone() if start is not None else self.rules.new_state()
        cdef Rng rng
        cdef int n = len(history), i
        cdef int[::1] actors = array.array("i", [h[0] for h in history]) if n else None
        cdef int[::1] actions = array.array("i", [h[1] for h in history]) if n else None
        rng.s = seed
        resample_history(&begin.s, &st.s, player, &actors[0] if n else NULL,
                         &actions[0] if n else NULL, n, &rng)
        if start is not None:
            return st, [actions[i] for i in range(n)], begin
        return st, [actions[i] for i in range(n)]

    def determinize(self, int player, unsigned long long seed):
        """A copy in which what `player` has not seen is redrawn uniformly (determinize)."""
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

    def _check_seat(self, int seat, bint automa=False):
        cdef int n = self.s.num_seats if automa else self.s.num_players
        if not 0 <= seat < n:
            raise ValueError(f"player {seat} is out of range (0-{n - 1})")

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
            return (f"chance outcome {a} ({self.action_to_string(a)}) cannot happen now "
                    f"({self.step_name()}); possible: {', '.join(map(str, legal[:12]))}"
                    f"{' ...' if len(legal) > 12 else ''}")
        if not 0 <= a < N_ACTIONS:
            return f"action {a} is out of range (0-{N_ACTIONS - 1})"
        return f"action {a} ({self.action_to_string(a)}) is not legal now: {self._why_not(a)}"

    def _why_not(self, int a):
        cdef int cp = current_player(&self.s)
        cdef PlayerState* p = &self.s.players[cp]
        step = self.step_name()
        if self.s.asking >= 0:
            return f"{step}: the answer is yes or no"
        if self.s.caxton:
            return f"{step}: take a token of a symbol in the bag"
        if self.s.token_window >= 0 and self.s.held == HELD_NONE:
            return (f"{step}: before the order is decided a player places setup tokens (or "
                    f"Guillard's) or is done")
        if self.s.held != HELD_NONE:
            if A_TOKEN_AT <= a < A_MARKER:
                return f"{step}: a token goes beside or on a card or token of the tableau"
            return f"{step}: the token must be put in the tableau first"
        if A_PLACE <= a < A_DISCARD and self.s.phase == PH_CARDS and self.s.sub == SUB_PLACE:
            o = (a - A_PLACE) // N_ANCHORS if a < A_UNDER else -1
            if o >= 0 and o != self.rules.cat.cards[self.s.taken].vertical and not has_ability(p, CH_UNGLER, SIDE_B):
                return f"{step}: the card must lie as printed ({_names.ORIENTATIONS[self.rules.cat.cards[self.s.taken].vertical]})"
            if o < 0 and not has_ability(p, CH_UNGLER, SIDE_A):
                return f"{step}: only Helena Ungler (side A) may slide a card under, once"
            if p.pieces == 0:
                return f"{step}: the first card of the tableau goes at row 1, column 1"
            return (f"{step}: a card goes beside or on a card or token (never under) and the "
                    f"tableau stays within {GRID}x{GRID}")
        if a == A_DISCARD and self.s.phase == PH_CARDS and self.s.sub == SUB_PLACE:
            if p.pieces == 0:
                return f"{step}: a token needs a card to go beside or on; the first card must be placed"
            return f"{step}: the bag is empty"
        if A_SETUP_UP <= a < A_CAXTON_TAKE:
            if not free_actions_open(&self.s):
                return (f"{step}: setup tokens and abilities are played at the player's own decisions "
                        "and in the token window before a step's order")
            if p.pieces == 0 and a < A_CAXTON_GIVE:
                return f"{step}: a token needs a card to go beside or on"
            return f"{step}: no such token or ability now"
        legal = self.legal_actions()
        return (f"{step}; legal: {', '.join(map(str, legal[:12]))}"
                f"{' ...' if len(legal) > 12 else ''}")

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
        cdef int cp = current_player(&self.s)
        s = self.s
        if s.phase == PH_TERMINAL:
            return "end of the game"
        if s.pool_due > 0:
            return "Select Cards: tokens drawn for a discarded card"
        if s.asking >= 0:
            return ("Yolande Bonhomme: go first in this step?" if s.phase != PH_ROUND_START
                    else "Yolande Bonhomme: take a cube for this round?")
        if s.caxton:
            return "William Caxton: a token of choice from the bag"
        if s.phase == PH_CARDS:
            what = ("take a card", "place the card", "keep a drawn token")[s.sub]
            if s.token_window >= 0:
                what = "setup tokens before the order is decided"
            if s.held != HELD_NONE:
                what = "where the token goes"
            return f"Select Cards, step {s.step + 1}/{self.rules.cat.track[s.variant].card_steps}: {what}"
        if s.held != HELD_NONE:
            return f"{PHASE_NAMES[s.phase]}: where the token goes"
        return PHASE_NAMES[s.phase]

    def _where(self, int r, int c):
        return f"{_line_words('row', r)}, {_line_words('column', c)}"

    def action_to_string(self, int a):
        """An action (or a chance outcome at a chance node) in the game's words."""
        cat = self.rules.catalogue
        S = _names.SYMBOLS
        cdef int cp = current_player(&self.s)
        cdef int x, o, k, r, c
        if cp == CHANCE:
            if C_TILE <= a < C_SOLO:
                return f"character tile for player {tile_seat(&self.s)}: {_names.CHARACTERS[a - C_TILE]}"
            if C_SOLO <= a < C_SETUP:
                k = self.s.solo_dealt
                return f"solo board, round {k // 3 + 1} choice {k % 3 + 1}: {S[a - C_SOLO]}"
            if C_SETUP <= a < C_FRAME:
                return f"setup token for player {(a - C_SETUP) // N_SYMBOLS}: {S[(a - C_SETUP) % N_SYMBOLS]}"
            if C_FRAME <= a < C_PLATE:
                return "order: " + cat.describe_frame(a - C_FRAME)
            if C_PLATE <= a < C_CARD:
                return "order: " + cat.describe_plate(a - C_PLATE)
            if C_CARD <= a < C_DRAW:
                return "deal " + cat.describe_card(a - C_CARD)
            if C_DRAW <= a < N_CHANCE:
                return f"token drawn by player {(a - C_DRAW) // N_SYMBOLS}: {S[(a - C_DRAW) % N_SYMBOLS]}"
            return f"chance outcome {a} (out of range)"
        if A_CHARACTER <= a < A_SIDE:
            return f"play {_names.CHARACTERS[a - A_CHARACTER]}"
        if A_SIDE <= a < A_YES:
            who = self.character(cp) if 0 <= cp < self.s.num_seats else None
            return f"{who or 'character'}: side {_names.SIDES[a - A_SIDE]}"
        if a == A_DONE and self.s.token_window >= 0 and self.s.asking < 0:
            return "no more tokens before this step's order"
        if a == A_YES or a == A_NO:
            if self.s.phase == PH_ROUND_START:
                return "Bonhomme: take 1 initiative cube this round" if a == A_YES else "Bonhomme: keep the token"
            return "Bonhomme: go first in this step" if a == A_YES else "Bonhomme: not now"
        if A_ORDER <= a < A_TAKE:
            x = a - A_ORDER
            plate = [self.s.offer_plate[i] for i in range(MAX_OFFER) if self.s.offer_frame[i] == x]
            text = f"take the order {cat.describe_frame(x)}"
            return text + (f" + {cat.describe_plate(plate[0])}" if plate and plate[0] >= 0 else "")
        if A_TAKE <= a < A_PLACE:
            return "take " + cat.describe_card(a - A_TAKE)
        if A_PLACE <= a < A_UNDER:
            o = (a - A_PLACE) // N_ANCHORS
            k = (a - A_PLACE) % N_ANCHORS
            how = ("horizontally", "vertically", "horizontally, turned around", "vertically, turned around")[o]
            card = cat.describe_card(self.s.taken) if self.s.taken >= 0 else "the card"
            # Another orientation than the printed one is Ungler's once-a-game token (side B).
            spent = " (uses Ungler's token)" if self.s.taken >= 0 and o != self.rules.cat.cards[self.s.taken].vertical \
                else ""
            return f"place {card} {how} at {self._where(anchor_row(k), anchor_col(k))}{spent}"
        if A_UNDER <= a < A_DISCARD:
            k = a - A_UNDER
            card = cat.describe_card(self.s.taken) if self.s.taken >= 0 else "the card"
            return f"Ungler: slide {card} under the occupied squares it meets, at {self._where(anchor_row(k), anchor_col(k))}"
        if a == A_DISCARD:
            card = cat.describe_card(self.s.taken) if self.s.taken >= 0 else "the card"
            return f"discard {card} and draw 3 tokens"
        if A_KEEP_UP <= a < A_KEEP_DOWN:
            return f"keep the {S[a - A_KEEP_UP]} token, symbol side up"
        if A_KEEP_DOWN <= a < A_SETUP_UP:
            return f"keep the {S[a - A_KEEP_DOWN]} token, initiative side up"
        if A_SETUP_UP <= a < A_SETUP_DOWN:
            k = (a - A_SETUP_UP) // N_SYMBOLS
            return f"place setup token {k + 1} ({S[(a - A_SETUP_UP) % N_SYMBOLS]}) symbol side up"
        if A_SETUP_DOWN <= a < A_GUILLARD:
            return f"place setup token {a - A_SETUP_DOWN + 1} initiative side up"
        if A_GUILLARD <= a < A_CAXTON_GIVE:
            return f"Guillard: place her token as {S[a - A_GUILLARD]}"
        if A_CAXTON_GIVE <= a < A_CAXTON_TAKE:
            i, j = PAIRS[a - A_CAXTON_GIVE]
            return f"Caxton: give setup tokens {i + 1} and {j + 1} back to the bag"
        if A_CAXTON_TAKE <= a < A_TOKEN_AT:
            return f"Caxton: take a {S[a - A_CAXTON_TAKE]} token from the bag"
        if A_TOKEN_AT <= a < A_MARKER:
            k = a - A_TOKEN_AT
            what = "the token"
            if self.s.held != HELD_NONE:
                what = ("the token initiative side up" if self.s.held_shown == SQ_INITIATIVE
                        else f"the {S[self.s.held_shown]} token")
            return f"put {what} at {self._where(anchor_row(k), anchor_col(k))}"
        if A_MARKER <= a < A_WINDOW:
            k = (a - A_MARKER) // 2
            x = (a - A_MARKER) % 2
            text = f"bonus marker: {_names.MARKER_KINDS[k]} on slot {x + 1}"
            if 0 <= cp < self.s.num_players and self.s.round >= 1:
                f = self.s.players[cp].order_frame[self.s.round - 1]
                if f >= 0:
                    text += f" ({cat.frames[f].bonus[x]})"
            return text
        if A_WINDOW <= a < N_ACTIONS:
            k = a - A_WINDOW
            r = anchor_row(k)
            c = anchor_col(k)
            return f"close the frame on {window_words(r, c)}"
        return f"action {a} (out of range 0-{N_ACTIONS - 1})"

    def observation_string(self, int player):
        """The state as `player` sees it: the others' setup tokens and drawn tokens hidden."""
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player {player} is out of range (0-{self.s.num_players - 1})")
        return self._describe(player)

    def __str__(self):
        return self._describe(-1)

    def tableau_text(self, int seat):
        """The seat's current tableau as a grid people can read (rows and columns numbered
        from its top-left square; a token marked ', Guillard's token +)."""
        self._check_seat(seat)
        p = self.to_dict()["players"][seat]
        return _grid_text([[p["grid"][r][c] for c in range(p["width"])] for r in range(p["height"])])

    def _describe(self, int viewer):
        cat = self.rules.catalogue
        S = _names.SYMBOLS
        s = self.to_dict()
        steps = self.rules.cat.track[s["variant"]].card_steps
        lines = []
        head = (f"Round {s['round']}/{s['rounds']} ({_names.VARIANTS[s['variant']]}), {self.step_name()}")
        lines.append((f"Player {viewer} sees. " if viewer >= 0 else "") + head)
        if s["phase"] in (PH_ORDERS, PH_DEAL_ORDERS):
            orders = [f"{cat.describe_frame(f)} + {cat.describe_plate(p)}" if p >= 0 else cat.describe_frame(f)
                      for f, p in zip(s["offer_frame"], s["offer_plate"]) if f >= 0]
            lines.append("Orders: " + ("; ".join(orders) if orders else "-"))
        if s["phase"] in (PH_CARDS, PH_DEAL_CARDS):
            offer = [cat.describe_card(x) if x >= 0 else "-" for x in s["offer"][:s["n_offer"]]]
            lines.append("Cards: " + (", ".join(offer) if offer else "-"))
            if s["taken"] >= 0:
                lines.append(f"Taken: {cat.describe_card(s['taken'])}")
        if s["n_pool"] > 0:
            me = s["turn_order"][s["turn"]]
            pool = ", ".join(S[x] for x in s["pool"][:s["n_pool"]]) if viewer in (-1, me) \
                else f"{s['n_pool']} tokens"
            lines.append(f"Drawn: {pool}")
        if s["held"] != HELD_NONE:
            lines.append("Held: " + ("a token initiative side up" if s["held_shown"] == SQ_INITIATIVE
                                     else f"a {S[s['held_shown']]} token"))
        lines.append(f"Bag: {sum(s['bag'])} tokens; cubes in the pool: {s['cubes_left']}; "
                     f"cards left: {N_CARDS - s['cards_dealt']}")
        if s["automa_seat"] >= 0:
            rows = ["/".join(S[x] if x >= 0 else "-" for x in row) for row in s["solo"]]
            lines.append("Solo board: " + "; ".join(f"round {r + 1}: {t}" for r, t in enumerate(rows)))
        scores = self.final_scores()
        for seat in range(s["num_seats"]):
            p = s["players"][seat]
            if seat == s["automa_seat"]:
                cols = " ".join(str(n) for n in p["columns"])
                lines.append(f"Automa (seat {seat}): fame {p['fame']}, cubes {p['cubes']}, "
                             f"initiative {initiative(&self.s, seat)}, cards by column {cols}")
                continue
            who = f"Player {seat}"
            if p["character"] >= 0:
                side = f", side {_names.SIDES[p['side']]}" if p["side"] >= 0 else ""
                who += f" ({_names.CHARACTERS[p['character']]}{side})"
            lines.append(f"{who}: fame {p['fame']} (with bonus {scores[seat]}), cubes {p['cubes']}, "
                         f"initiative {initiative(&self.s, seat)}, 1/2 markers {p['markers']}"
                         + (", the 1/3 marker" if p["marker13"] else "")
                         + (", ability token" if p["ability"] else ""))
            hand = []
            for k in range(MAX_HAND):
                if p["slot"][k] == SLOT_HAND:
                    hand.append(f"{k + 1}:{S[p['hand'][k]]}" if viewer in (-1, seat) else f"{k + 1}:?")
            if hand:
                lines.append("  setup tokens: " + " ".join(hand))
            if viewer in (-1, seat) and any(p["hidden_out"]):
                lines.append("  placed initiative side up: " + ", ".join(
                    f"{S[x]} x{n}" for x, n in enumerate(p["hidden_out"]) if n))
            for r in range(N_ROUNDS):
                if p["order_frame"][r] < 0:
                    continue
                marks = [f"{cat.frames[p['order_frame'][r]].bonus[j]} {p['marker'][r * 2 + j]}"
                         for j in range(2) if p["marker"][r * 2 + j]]
                lines.append(f"  round {r + 1}: {cat.describe_frame(p['order_frame'][r])} + "
                             f"{cat.describe_plate(p['order_plate'][r])}"
                             + (f"; markers {', '.join(marks)}" if marks else ""))
                if r < s["round"] - 1 or s["phase"] == PH_TERMINAL or any(v >= 0 for v in p["closed"][r]):
                    closed = [[p["closed"][r][i * 3 + j] for j in range(3)] for i in range(3)]
                    if any(v >= 0 for v in p["closed"][r]):
                        lines.append("  closed frame:")
                        lines.extend("    " + t for t in _grid_text(closed, numbers=False).split("\n"))
            if p["pieces"] > 0:
                lines.append("  tableau:")
                grid = [[p["grid"][r][c] for c in range(p["width"])] for r in range(p["height"])]
                lines.extend("    " + t for t in _grid_text(grid).split("\n"))
        return "\n".join(lines)

    # -- tensors --------------------------------------------------------------------------
    def write_observation(self, int player, float[::1] out):
        """Write the observation tensor of `player` into `out` (OBSERVATION_SIZE floats)."""
        if out.shape[0] < OBS_SIZE:
            raise ValueError(f"observation buffer of {out.shape[0]} floats; {OBS_SIZE} needed")
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player {player} is out of range (0-{self.s.num_players - 1})")
        write_obs(&self.s, player, &out[0])

    # -- consistency ----------------------------------------------------------------------
    def problems(self):
        """What is inconsistent in this state: every token accounted for (4 of each symbol),
        every card, frame and plate in one place, the tableau kept at its top-left corner,
        values in range. Empty when all is well."""
        return _problems(self)


def _cell_text(int v):
    if v < 0:
        return "  . "
    code = _names.SHORT[v & CELL_BASE]
    mark = "'" if v & CELL_TOKEN else ("+" if v & CELL_ABILITY else " ")
    return f"{code:>3}{mark}"


def _grid_text(grid, numbers=True):
    """Rows of cells; with numbers, row and column numbers from 1."""
    if not grid:
        return "(empty)"
    out = []
    if numbers:
        out.append("    " + "".join(f"{c + 1:>3} " for c in range(len(grid[0]))))
    for r, row in enumerate(grid):
        out.append((f"{r + 1:>4}" if numbers else "") + "".join(_cell_text(v) for v in row))
    return "\n".join(out)


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
    out = []
    i = 0
    while m:
        if m & 1:
            out.append(i)
        m >>= 1
        i += 1
    return out


def _problems(CoreState st):
    s = st.to_dict()
    rules = st.rules
    out = []
    n = s["num_seats"]
    if not 1 <= s["num_players"] <= MAX_SEATS or not s["num_players"] <= n <= MAX_SEATS:
        return [f"num_players/num_seats: {s['num_players']}/{n} are out of range"]
    if not 0 <= s["phase"] <= PH_TERMINAL:
        return [f"phase: {s['phase']} is out of range (0-{PH_TERMINAL})"]
    if not 0 <= s["round"] <= s["rounds"] <= N_ROUNDS:
        out.append(f"round: {s['round']} of {s['rounds']} is out of range")
    # Tokens: bag, solo board, hands, drawn, held, tableaux, closed frames, the box.
    count = list(s["bag"])
    for r in range(s["solo_returned"], N_ROUNDS):
        for x in s["solo"][r]:
            if x >= 0:
                count[x] += 1
    for x in s["pool"][:s["n_pool"]]:
        count[x] += 1
    if s["held"] == HELD_KEPT or (s["held"] == HELD_SETUP and s["held_shown"] != SQ_INITIATIVE):
        count[s["held_symbol"]] += 1      # a token on its way into the tableau
    for seat in range(s["num_players"]):
        p = s["players"][seat]
        for k in range(MAX_HAND):
            if p["slot"][k] in (SLOT_HAND, SLOT_DOWN):
                count[p["hand"][k]] += 1
            if p["slot"][k] != SLOT_NONE and not 0 <= p["hand"][k] < N_SYMBOLS:
                out.append(f"players[{seat}].hand[{k}]: {p['hand'][k]} is not a symbol")
                return out
        for x in range(N_SYMBOLS):
            count[x] += p["hidden_out"][x]
        cells = [v for row in p["grid"] for v in row] + [v for fr in p["closed"] for v in fr]
        for v in cells:
            if v >= 0 and v & CELL_TOKEN and (v & CELL_BASE) < N_SYMBOLS:
                count[v & CELL_BASE] += 1
        # The tableau sits at the top-left corner, nothing outside height x width.
        h, w = p["height"], p["width"]
        if not 0 <= h <= GRID or not 0 <= w <= GRID:
            out.append(f"players[{seat}]: tableau {h}x{w} is out of range")
            continue
        for r in range(GRID):
            for c in range(GRID):
                if (r >= h or c >= w) and p["grid"][r][c] != CELL_EMPTY:
                    out.append(f"players[{seat}].grid[{r}][{c}]: a cell outside the tableau's {h}x{w}")
        if p["pieces"] > 0 and (not any(p["grid"][0][c] >= 0 for c in range(w))
                                or not any(p["grid"][r][0] >= 0 for r in range(h))):
            out.append(f"players[{seat}]: the tableau is not kept at its top-left corner")
        if p["pieces"] == 0 and (h or w):
            out.append(f"players[{seat}]: an empty tableau of {h}x{w}")
        if not 0 <= p["markers"] <= MARKERS or p["marker13"] not in (0, 1):
            out.append(f"players[{seat}]: markers {p['markers']}, 1/3 marker {p['marker13']}")
        placed = sum(1 for r in range(N_ROUNDS) for j in range(2) if p["marker"][r * 2 + j])
        total = MARKERS + (1 if p["character"] == CH_GUTENBERG else 0)
        if p["character"] == CH_GUTENBERG and p["side"] == SIDE_A:
            total = MARKERS
        if p["side"] >= 0 and placed + p["markers"] + p["marker13"] != total:
            out.append(f"players[{seat}]: {placed} bonus markers placed and "
                       f"{p['markers'] + p['marker13']} held; the player has {total}")
    for x in range(N_SYMBOLS):
        if count[x] + s["box_tokens"][x] != s["tokens"][x]:
            out.append(f"tokens: {count[x] + s['box_tokens'][x]} {_names.SYMBOLS[x]} in all "
                       f"(bag, board, hands, tableaux, frames, box); the game has {s['tokens'][x]}")
    # Cubes.
    cubes = s["cubes_left"] + sum(s["players"][seat]["cubes"] for seat in range(n))
    if cubes != rules.core_catalogue["cubes"]:
        out.append(f"cubes: {cubes} in the pool and in front of players; the game has "
                   f"{rules.core_catalogue['cubes']}")
    # Cards, frames, plates.
    deck = len(_bits(s["card_deck"][0])) + len(_bits(s["card_deck"][1]))
    if deck + s["cards_dealt"] != N_CARDS:
        out.append(f"cards: {deck} in the deck and {s['cards_dealt']} dealt; the game has {N_CARDS}")
    frames = _bits(s["frame_deck"]) + [x for x in s["offer_frame"] if x >= 0]
    plates = _bits(s["plate_deck"]) + [x for x in s["offer_plate"] if x >= 0]
    for seat in range(s["num_players"]):
        frames += [x for x in s["players"][seat]["order_frame"] if x >= 0]
        plates += [x for x in s["players"][seat]["order_plate"] if x >= 0]
    for name, ids, total in (("frame", frames, N_FRAMES), ("plate", plates, N_PLATES)):
        if len(set(ids)) != len(ids):
            out.append(f"{name}s: one is in two places ({sorted(ids)})")
        if any(not 0 <= x < total for x in ids):
            out.append(f"{name}s: an id out of range ({sorted(ids)})")
    if s["n_turns"] > n or not 0 <= s["turn"] <= s["n_turns"]:
        out.append(f"turn: {s['turn']} of {s['n_turns']} is out of range")
    if not -1 <= s["token_window"] < s["num_players"] or (s["token_window"] >= 0 and (
            s["phase"] != PH_CARDS or s["asking"] >= 0 or s["sub"] != SUB_TAKE)):
        out.append(f"token_window: {s['token_window']} is not a player before a Select Cards step's order")
    return out

# ---------------------------------------------------------------------------------------
# Observation tensor: a fixed layout of one-hots and scaled counts, seats relative to the
# observer (observer first). A cell is 15 features: the symbol shown (12), the
# initiative icon, a blank card square, a token.
# ---------------------------------------------------------------------------------------
cdef enum:
    CELL_FEATURES = 15
    SEAT_BLOCK = (2 + (N_CHARACTERS + 1) + 3 + 1 + 2 + 2 + 2
                  + MAX_HAND * 5 + MAX_HAND * (N_SYMBOLS + 1)
                  + N_ROUNDS * (N_FRAMES + 1 + N_PLATES + 1) + N_ROUNDS * 2
                  + N_ROUNDS * 9 * CELL_FEATURES + GRID * GRID * CELL_FEATURES + 3
                  + N_SYMBOLS + N_COLUMNS)
    OBS_SIZE = ((N_ROUNDS + 1) + (PH_TERMINAL + 1) + MAX_CARD_STEPS + 3 + 4 + (N_SYMBOLS + 2) + 2
                + (MAX_SEATS + 1) + MAX_OFFER * (N_CARDS + 1) + (N_CARDS + 1)
                + MAX_OFFER * (N_FRAMES + 1 + N_PLATES + 1) + N_POOL * (N_SYMBOLS + 1)
                + 1 + N_SYMBOLS + N_ROUNDS * N_CHOICES * (N_SYMBOLS + 1) + 4
                + MAX_SEATS * SEAT_BLOCK)

OBSERVATION_SIZE = OBS_SIZE


cdef inline int put_cell(float* out, int at, int v) noexcept nogil:
    if v >= 0:
        if (v & CELL_BASE) <= SQ_BLANK:
            out[at + (v & CELL_BASE)] = 1.0
        if v & (CELL_TOKEN | CELL_ABILITY):
            out[at + 14] = 1.0
    return at + CELL_FEATURES


cdef void write_obs(const GameState* s, int player, float* out) noexcept nogil:
    cdef int at = 0, i, k, r, c, seat, rel, cp, x
    cdef const PlayerState* p
    memset(out, 0, OBS_SIZE * sizeof(float))
    out[at + s.round] = 1.0
    at += N_ROUNDS + 1
    out[at + s.phase] = 1.0
    at += PH_TERMINAL + 1
    if s.phase == PH_CARDS or s.phase == PH_DEAL_CARDS or s.phase == PH_MARKERS:
        out[at + s.step] = 1.0
    at += MAX_CARD_STEPS
    if s.phase == PH_CARDS:
        out[at + s.sub] = 1.0
    at += 3
    out[at + s.held] = 1.0
    at += 4
    if s.held != HELD_NONE:
        out[at + s.held_shown] = 1.0
    at += N_SYMBOLS + 2
    out[at] = 1.0 if s.asking >= 0 or s.token_window >= 0 else 0.0   # a question: Bonhomme's, or the token window's
    out[at + 1] = 1.0 if s.caxton else 0.0
    at += 2
    cp = current_player(s)
    if cp >= 0:
        out[at + (cp - player + s.num_seats) % s.num_seats] = 1.0
    else:
        out[at + MAX_SEATS] = 1.0
    at += MAX_SEATS + 1
    for i in range(MAX_OFFER):
        out[at + 1 + s.offer[i]] = 1.0
        at += N_CARDS + 1
    out[at + 1 + s.taken] = 1.0
    at += N_CARDS + 1
    for i in range(MAX_OFFER):
        out[at + 1 + s.offer_frame[i]] = 1.0
        out[at + N_FRAMES + 1 + 1 + s.offer_plate[i]] = 1.0
        at += N_FRAMES + 1 + N_PLATES + 1
    for i in range(N_POOL):
        # The drawn tokens are seen by the player who draws them.
        if i < s.n_pool and cp == player:
            out[at + 1 + s.pool[i]] = 1.0
        elif i < s.n_pool:
            out[at] = 1.0
        at += N_SYMBOLS + 1
    out[at] = total_bag(s) / 48.0
    at += 1
    for x in range(N_SYMBOLS):
        out[at + x] = s.box_tokens[x] / 4.0
    at += N_SYMBOLS
    for r in range(N_ROUNDS):
        for k in range(N_CHOICES):
            out[at + 1 + s.solo[r][k]] = 1.0
            at += N_SYMBOLS + 1
    out[at] = s.cubes_left / 7.0
    out[at + 1] = (N_CARDS - s.cards_dealt) / 90.0
    out[at + 2] = popcount64(s.frame_deck) / 16.0
    out[at + 3] = popcount64(s.plate_deck) / 16.0
    at += 4
    for rel in range(MAX_SEATS):
        if rel >= s.num_seats:
            at += SEAT_BLOCK
            continue
        seat = (player + rel) % s.num_seats
        p = &s.players[seat]
        out[at] = 1.0
        out[at + 1] = 1.0 if is_automa(s, seat) else 0.0
        at += 2
        out[at + 1 + p.character] = 1.0
        at += N_CHARACTERS + 1
        out[at + 1 + p.side] = 1.0
        at += 3
        out[at] = p.ability
        at += 1
        out[at] = p.cubes / 7.0
        out[at + 1] = initiative(s, seat) / 20.0
        at += 2
        out[at] = p.fame / 100.0
        out[at + 1] = closed_icons(p) / 9.0
        at += 2
        out[at] = p.markers / 3.0
        out[at + 1] = p.marker13
        at += 2
        for k in range(MAX_HAND):
            out[at + p.slot[k]] = 1.0
            at += 5
        for k in range(MAX_HAND):
            if seat == player and p.slot[k] != SLOT_NONE:
                out[at + 1 + p.hand[k]] = 1.0
            elif p.slot[k] == SLOT_UP:
                out[at + 1 + p.hand[k]] = 1.0
            else:
                out[at] = 1.0
            at += N_SYMBOLS + 1
        for r in range(N_ROUNDS):
            out[at + 1 + p.order_frame[r]] = 1.0
            out[at + N_FRAMES + 1 + 1 + p.order_plate[r]] = 1.0
            at += N_FRAMES + 1 + N_PLATES + 1
        for r in range(N_ROUNDS):
            out[at] = p.marker[r * 2 + 0] / 3.0
            out[at + 1] = p.marker[r * 2 + 1] / 3.0
            at += 2
        for r in range(N_ROUNDS):
            for i in range(9):
                at = put_cell(out, at, p.closed[r][i])
        for r in range(GRID):
            for c in range(GRID):
                at = put_cell(out, at, p.grid[r][c] if r < p.height and c < p.width else CELL_EMPTY)
        out[at] = p.height / <float>GRID
        out[at + 1] = p.width / <float>GRID
        out[at + 2] = p.pieces / 30.0
        at += 3
        if seat == player:
            for x in range(N_SYMBOLS):
                out[at + x] = p.hidden_out[x] / 4.0
        at += N_SYMBOLS
        for k in range(N_COLUMNS):
            out[at + k] = p.columns[k] / 6.0
        at += N_COLUMNS
