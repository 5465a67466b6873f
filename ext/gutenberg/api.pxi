# The Python face of the core (included by core.pyx): a Rules object per game that
# makes states, and a CoreState around one GameState struct.

import array

from gutenberg_ai.games.gutenberg import names as _names


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


PHASE_NAMES = ("setup", "draft", "types", "plan", "execute", "fulfil", "prepare", "end",
               "characters", "reveal")
PENDING_NAMES = ("ink of choice", "specialty of choice", "lowest specialty", "free type",
                 "order as a reward", "ink swap", "type swap", "sell a type", "type discount",
                 "Caxton's wild ink", "Ungler's specialties", "Guillard's gears",
                 "Gutenberg's shift")
RETURNS_MODES = ("win", "score", "margin")   # the values of RETURNS_* (ext/engine/engine_types.pxd)
FULFIL_MODE_NAMES = ("skip", "print", "print+colour", "print+decoration", "print+both")

# Exported action-range constants, for Python code that builds or reads actions.
ACTIONS = dict(
    PLAN=A_PLAN, PRINTING=A_PRINTING, REFINEMENT=A_REFINEMENT, TYPES=A_TYPES, INKS=A_INKS,
    SPECIALTY=A_SPECIALTY, GEAR=A_GEAR, PLACE=A_PLACE, REORIENT=A_REORIENT,
    PATRON_REWARD=A_PATRON_REWARD, PATRON_CARD=A_PATRON_CARD, DISCARD=A_DISCARD, BUY=A_BUY,
    USE_GEAR=A_USE_GEAR, PASS=A_PASS, FULFIL=A_FULFIL, INK=A_INK, LETTER=A_LETTER,
    SPECIALTY_UP=A_SPECIALTY_UP, SELL_GUILDERS=A_SELL_GUILDERS, SELL_FAME=A_SELL_FAME,
    MORE=A_MORE, CHARACTER=A_CHARACTER, SHIFT=A_SHIFT, SWAP=A_SWAP, NUM_ACTIONS=N_ACTIONS)
CHANCE_OUTCOMES = dict(
    PRINTING=C_PRINTING, REFINEMENT=C_REFINEMENT, SPECIALTY=C_SPECIALTY, GEAR=C_GEAR,
    PATRONAGE=C_PATRONAGE, INK=C_INK, CHARACTER=C_CHARACTER, AUTOMA_PLAN=C_AUTOMA_PLAN,
    AUTOMA_SPACE=C_AUTOMA_SPACE, AUTOMA_NONE=C_AUTOMA_NONE, NUM_CHANCE=N_CHANCE)
NUM_PLANS = N_PLANS
# The bounds of a player's holdings (gutenberg_types.pxd), shared by the position
# schema, the consistency checks and the game's utilities (tests compare them).
LIMITS = dict(MAX_FAME=MAX_FAME, MAX_GUILDERS=MAX_GUILDERS, MAX_TYPES=MAX_TYPES,
              MAX_MARKERS=MAX_MARKERS, MAX_ROW=MAX_ROW, MAX_ORDERS=MAX_ORDERS,
              MAX_PATRONAGE=N_PATRONAGE_SPACES, N_SPECIALTIES=N_SPECIALTIES)
PHASES = dict(SETUP_DEAL=PH_SETUP_DEAL, DRAFT=PH_DRAFT, TYPES=PH_TYPES, PLAN=PH_PLAN, TURN=PH_TURN,
              FULFIL=PH_FULFIL, REFILL=PH_REFILL, TERMINAL=PH_TERMINAL,
              CHARACTERS=PH_CHARACTERS, REVEAL=PH_REVEAL)
SUBS = dict(CHOOSE=SUB_CHOOSE, REFINEMENT=SUB_REFINEMENT, DISCARD=SUB_DISCARD, PLACE=SUB_PLACE,
            DONE=SUB_DONE)
PENDING = dict(INK=PD_INK, SPECIALTY=PD_SPECIALTY, LOWEST=PD_LOWEST, TYPE=PD_TYPE, ORDER=PD_ORDER,
               INK_SWAP=PD_INK_SWAP, TYPE_SWAP=PD_TYPE_SWAP, SELL_TYPE=PD_SELL_TYPE,
               TYPE_DISCOUNT=PD_TYPE_DISCOUNT, CAXTON=PD_CAXTON, UNGLER=PD_UNGLER,
               GUILLARD=PD_GUILLARD, SHIFT=PD_SHIFT)
FULFIL_MODES = dict(SKIP=FULFIL_SKIP, PRINT=FULFIL_PRINT, COLOUR=FULFIL_COLOUR,
                    DECORATION=FULFIL_DECORATION, BOTH=FULFIL_BOTH,
                    FINISH_SLOT=FULFIL_FINISH, APPLIED_SLOT=FULFIL_APPLIED, DONE_SLOT=FULFIL_DONE)


def plan_of(int index):
    """The allocation (markers per row) of plan action `index`."""
    if not 0 <= index < N_PLANS:
        raise ValueError(f"plan index {index} is out of range (0-{N_PLANS - 1})")
    return tuple(PLAN_TABLE[index][i] for i in range(N_ROWS))


def plan_index(allocation):
    """The plan action of an allocation (markers per row, 5 numbers)."""
    allocation = tuple(int(v) for v in allocation)
    if len(allocation) != N_ROWS:
        raise ValueError(f"a plan has {N_ROWS} rows, got {len(allocation)}")
    total = sum(allocation)
    if not 0 <= total <= MAX_MARKERS or min(allocation) < 0 or max(allocation) > 6:
        raise ValueError(f"plan {allocation}: 0-{MAX_MARKERS} markers, 0-6 a row")
    for i in range(PLAN_START[total], PLAN_START[total + 1]):
        if plan_of(i) == allocation:
            return i
    raise AssertionError("unreachable")


def type_set_of(int index):
    return tuple(_names.LETTERS[TYPE_SET[index][i]] for i in range(3))


cdef class Rules:
    """A game's catalogue and parameters, compiled: it makes initial states."""
    cdef object __weakref__   # gamedata keeps the rules of a file's data while in use
    cdef Catalogue cat
    cdef GameState initial
    cdef readonly object catalogue
    cdef readonly int players
    cdef readonly int rounds
    cdef readonly bint characters
    cdef readonly bint automa

    def __init__(self, catalogue, int players=2, int rounds=6, bint characters=False, bint automa=False):
        if automa and not 1 <= players <= MAX_SEATS - 1:
            raise ValueError(f"players: {players} is out of range with the automa (1-{MAX_SEATS - 1})")
        if not automa and not 2 <= players <= MAX_SEATS:
            raise ValueError(f"players: {players} is out of range (2-{MAX_SEATS}; 1 needs the automa)")
        if not 1 <= rounds <= 6:
            raise ValueError(f"rounds: {rounds} is out of range (1-6)")
        self.cat = catalogue.to_core()
        if self.cat.starting_types != 3:
            raise ValueError(f"catalogue: rules.starting_types is {self.cat.starting_types}; "
                             "the rules engine deals 3 types at setup")
        self.catalogue = catalogue
        self.players = players
        self.rounds = rounds
        self.characters = characters
        self.automa = automa
        init_state(&self.initial, &self.cat, players, rounds, characters, automa)

    def __reduce__(self):
        return (_rules_starting_at, (self.catalogue, self.players, self.rounds, self.characters,
                                     self.automa, PyBytes_FromStringAndSize(<char*>&self.initial, sizeof(GameState))))

    def starting_at(self, CoreState state):
        """The same rules with games starting at `state` (a position) instead of before
        the setup."""
        if state.rules is not self:
            raise ValueError("the state follows other rules (another catalogue or parameters)")
        cdef Rules r = Rules(self.catalogue, self.players, self.rounds, self.characters, self.automa)
        r.initial = state.s
        return r

    def new_state(self):
        """The state before the first setup draw."""
        cdef CoreState st = CoreState.__new__(CoreState)
        st.rules = self
        st.s = self.initial
        return st

    def state_from_dict(self, d):
        """A state from `CoreState.to_dict()` output (possibly edited by hand), checked
        for consistency; raises ValueError naming the first problem found."""
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


cdef class CoreState:
    """One game state: a GameState struct and the rules it follows."""
    cdef GameState s
    cdef readonly Rules rules

    # -- copying ------------------------------------------------------------------------
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
        """Every field of the state as plain numbers and lists (see core.pxd)."""
        return self.s

    # -- queries ------------------------------------------------------------------------
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

    def legal_actions(self):
        cdef int buf[MAX_LEGAL]
        cdef int n = legal_actions(&self.s, &self.rules.cat, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, int action):
        """Whether `action` (a chance outcome at a chance node) may be applied now: the
        core's direct test, the check `apply` makes."""
        return is_legal(&self.s, &self.rules.cat, action)

    def legal_mask(self):
        """bytes with a 1 at every action (or chance outcome) that `is_legal` accepts, over
        0 .. max(NUM_ACTIONS, NUM_CHANCE) - 1 (tests hold it against legal_actions)."""
        cdef int n = max(N_ACTIONS, N_CHANCE), a
        cdef bytearray out = bytearray(n)
        for a in range(n):
            out[a] = is_legal(&self.s, &self.rules.cat, a)
        return bytes(out)

    def chance_outcomes(self):
        cdef int buf[MAX_LEGAL]
        cdef double prob[MAX_LEGAL]
        if current_player(&self.s) != CHANCE:
            return []
        cdef int n = chance_outcomes(&self.s, &self.rules.cat, buf, prob)
        return [(buf[i], prob[i]) for i in range(n)]

    def final_scores(self):
        """Fame after end-of-game scoring, per seat (meaningful at any time: it is what
        the scoring would give now)."""
        cdef int out[MAX_SEATS]
        final_scores(&self.s, &self.rules.cat, out)
        return [out[i] for i in range(self.s.num_players)]

    def score_breakdown(self, int seat):
        """The end-scoring parts of one seat: fame track, specialties, patronage, guilders
        (score_parts, whose sum final_scores gives)."""
        self._check_seat(seat)
        cdef ScoreParts b = score_parts(&self.s.players[seat], &self.rules.cat)
        parts = dict(fame=b.fame, specialties=b.specialties, patronage=b.patronage, guilders=b.guilders)
        parts["total"] = sum(parts.values())
        return parts

    def ranking_key(self, int seat):
        """Higher is better: score, then fewer types, then fewer inks (rulebook ties)."""
        self._check_seat(seat)
        cdef PlayerState* p = &self.s.players[seat]
        return (self.final_scores()[seat], -total4(p.types), -total4(p.inks))

    def winners(self):
        """The winning players (the automa is not ranked); more than one share the win."""
        cdef bint win[MAX_SEATS]
        winners(&self.s, &self.rules.cat, win)
        return [i for i in range(self.s.num_players) if win[i]]

    def returns(self, mode="win"):
        """The players' returns at the end under the game parameter `returns` ("win",
        "score" or "margin"; see returns_of in core.pyx)."""
        cdef double out[MAX_SEATS]
        if mode not in RETURNS_MODES:
            raise ValueError(f"returns: {mode!r} is not one of {', '.join(RETURNS_MODES)}")
        returns_of(&self.s, &self.rules.cat, RETURNS_MODES.index(mode), out)
        return [out[i] for i in range(self.s.num_players)]

    def plan_visible(self, int owner, int observer):
        """A plan is hidden from the others until every player has committed."""
        return plan_seen(&self.s, owner, observer)

    def mask_history(self, int player, history):
        """The history (actor, action) pairs that led here as `player` knows them: what
        they have not seen (entry_hidden in core.pyx) has action -1."""
        cdef int n = len(history), i = 0
        self._check_seat(player)
        out = []
        for actor, action in history:
            out.append((actor, -1 if entry_hidden(&self.s, player, i, n, actor, action) else action))
            i += 1
        return out

    def resample_history(self, int player, history, unsigned long long seed):
        """A state `player` cannot tell from this one, drawn uniformly, and the actions of
        a history leading to it: `history` ((actor, action) pairs, the one that led here)
        with the entries player has not seen redrawn (resample_history in core.pyx)."""
        cdef CoreState st = self.clone()
        cdef Rng rng
        cdef int n = len(history), i
        cdef int[::1] actors = array.array("i", [h[0] for h in history]) if n else None
        cdef int[::1] actions = array.array("i", [h[1] for h in history]) if n else None
        rng.s = seed
        if n:
            resample_history(&st.s, player, &actors[0], &actions[0], n, &rng)
        else:
            resample_hidden(&st.s, player, &rng, NULL)
        return st, [actions[i] for i in range(n)]

    def _check_seat(self, int seat):
        if not 0 <= seat < self.s.num_players:
            raise ValueError(f"player {seat} is out of range (0-{self.s.num_players - 1})")

    @property
    def automa_seat(self):
        """The automa's seat (after the players'), or -1."""
        return self.s.automa_seat

    def character(self, int seat):
        """The name of the character tile `seat` kept, or None."""
        x = self.s.players[seat].character if 0 <= seat < self.s.num_seats else -1
        return _names.CHARACTERS[x] if x >= 0 else None

    # -- acting -------------------------------------------------------------------------
    def apply(self, action):
        """Apply a legal action (or chance outcome). An illegal one raises
        IllegalActionError and leaves the state as it was."""
        cdef int a
        a = action_id(action)
        if not is_legal(&self.s, &self.rules.cat, a):
            self._raise_illegal(a)
        apply_action(&self.s, &self.rules.cat, a)

    def _raise_illegal(self, a):
        raise IllegalActionError(self.illegal_message(a))

    def illegal_message(self, a):
        """Why action `a` cannot be applied now, in the game's words."""
        if self.s.phase == PH_TERMINAL:
            return f"action {a}: the game is over"
        if not 0 <= a < max(N_ACTIONS, N_CHANCE):
            return f"action {a} is out of range (0-{max(N_ACTIONS, N_CHANCE) - 1})"
        legal = [x for x, _ in self.chance_outcomes()] if self.is_chance() else self.legal_actions()
        return (f"action {a} ({self.action_to_string(a)}) is not legal now "
                f"({self.step_name()}); legal: {', '.join(map(str, legal[:12]))}"
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

    def resample_plans(self, int player, unsigned long long seed):
        """A copy in which what `player` cannot see (the others' plans committed this
        plan step, the others' character tiles) is redrawn uniformly (see `determinize`
        in core.pyx)."""
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

    # -- words --------------------------------------------------------------------------
    def planning_steps(self, int outcome):
        """What the automa's planning card drawn as chance outcome `outcome` (C_AUTOMA_PLAN
        + its number) does to its markers, here at its reveal: one dict per arrow, in the
        card's order, with the actions its ends came to (`first`, `second`: a row's
        number; "min" and "max" resolved), what moved (`outcome`: "moved" from the first to
        the second, "back" from the second to the first as the first had none, "full" as
        the second holds 6, "empty" as neither holds one, "same" as both ends came to one
        action) and the automa's markers per action before it (`before`). The words of
        the reveal (view.chance_note) are made of these. ValueError if this state is not
        at the planning card's draw or `outcome` is not a card it could draw."""
        cdef int index
        cdef PlanningStep steps[MAX_AUTOMA_MOVES]
        cdef GameState tmp = self.s
        if (current_player(&self.s) != CHANCE
                or chance_context(&self.s, &self.rules.cat, &index) != DEAL_AUTOMA_PLAN):
            raise ValueError("planning_steps: this is not the automa's planning card draw")
        if not is_legal(&self.s, &self.rules.cat, outcome):
            raise ValueError(f"planning_steps: {outcome} is not a planning card the automa can draw now")
        tmp.automa_card = outcome - C_AUTOMA_PLAN
        apply_planning_card(&tmp, &self.rules.cat, steps)
        words = ("moved", "back", "full", "empty", "same")
        return [dict(first=steps[m].first, second=steps[m].second, outcome=words[steps[m].outcome],
                     before=[steps[m].before[r] for r in range(N_ROWS)])
                for m in range(self.rules.cat.automa_planning[tmp.automa_card].n_moves)]

    def step_name(self):
        """What is being decided now, in the game's words."""
        cdef int cp = current_player(&self.s)
        if self.s.phase == PH_TERMINAL:
            return "end of the game"
        if self.s.n_pending > 0:
            q = self.s.pending[0]
            if cp == CHANCE:
                return "order as a reward: draw"
            return PENDING_NAMES[q.kind]
        if cp == CHANCE:
            if self.s.phase == PH_CHARACTERS:
                return "characters: draw"
            if self.s.phase == PH_REVEAL:
                return "automa: planning card"
            if self.s.phase == PH_TURN:
                return "automa: execution card"
            return "setup: deal" if self.s.phase == PH_SETUP_DEAL else "prepare the next round: deal"
        if self.s.phase == PH_CHARACTERS:
            return "characters"
        if self.s.phase == PH_PLAN and self.s.sub >= 0:
            return "free actions before the plans"
        if self.s.phase == PH_FULFIL and self.s.fulfil_slot == FULFIL_APPLIED:
            return "fulfil: after printing"
        if self.s.phase == PH_TURN:
            return _names.ROWS[self.s.row].replace("orders", "take orders").replace(
                "inks", "take inks").replace("specialties", "develop specialties").replace(
                "gears", "improve printing house") if self.s.row != ROW_PATRONAGE else "patronage"
        return PHASE_NAMES[self.s.phase]

    def action_to_string(self, int a):
        """An action in the game's words, naming the step it belongs to."""
        cat = self.rules.catalogue
        L, I, S = _names.LETTERS, _names.INKS, _names.SPECIALTIES
        cdef int cp = current_player(&self.s)
        cdef int x, m
        if cp == CHANCE:
            if C_PRINTING <= a < C_REFINEMENT:
                return "draw " + cat.describe_printing(a - C_PRINTING)
            if C_REFINEMENT <= a < C_SPECIALTY:
                return "draw " + cat.describe_refinement(a - C_REFINEMENT)
            if C_SPECIALTY <= a < C_GEAR:
                return "draw " + cat.describe_specialty_card(a - C_SPECIALTY)
            if C_GEAR <= a < C_PATRONAGE:
                return "draw " + cat.describe_gear(a - C_GEAR)
            if C_PATRONAGE <= a < C_INK:
                return "draw " + cat.describe_patronage(a - C_PATRONAGE)
            if C_INK <= a < C_CHARACTER:
                return f"draw {I[a - C_INK]} ink"
            if C_CHARACTER <= a < C_AUTOMA_PLAN:
                return f"draw character {_names.CHARACTERS[a - C_CHARACTER]}"
            if C_AUTOMA_PLAN <= a < C_AUTOMA_SPACE:
                return f"automa planning card {a - C_AUTOMA_PLAN}"
            if C_AUTOMA_SPACE <= a < C_AUTOMA_NONE:
                return f"automa execution card: space {a - C_AUTOMA_SPACE + 1}"
            if a == C_AUTOMA_NONE:
                return "automa execution card: none left, no refinement card"
            return f"chance outcome {a} (out of range)"
        step = self.step_name()
        if A_PLAN <= a < A_PRINTING:
            return "plan: " + ", ".join(f"{r} {v}" for r, v in zip(_names.ROWS, plan_of(a)))
        if A_PRINTING <= a < A_REFINEMENT:
            return f"{step}: printing {cat.describe_printing(a - A_PRINTING)}"
        if A_REFINEMENT <= a < A_TYPES:
            return f"{step}: refinement {cat.describe_refinement(a - A_REFINEMENT)}"
        if A_TYPES <= a < A_INKS:
            return "types: " + ", ".join(type_set_of(a - A_TYPES))
        if A_INKS <= a < A_SPECIALTY:
            x = (a - A_INKS) // INK_SET
            m = (a - A_INKS) % INK_SET + 1
            return f"take inks: set {x + 1}, {m} ink{'s' if m > 1 else ''}, pay {self._ink_cost(x, m)}"
        if A_SPECIALTY <= a < A_GEAR:
            x = (a - A_SPECIALTY) // 5
            m = (a - A_SPECIALTY) % 5
            use = "its icons" if m == 0 else f"+1 {S[m - 1]}"
            return f"develop specialties: {cat.describe_specialty_card(x)}, {use}"
        if A_GEAR <= a < A_PLACE:
            return f"improve printing house: take {cat.describe_gear(a - A_GEAR)}"
        if A_PLACE <= a < A_REORIENT:
            x = (a - A_PLACE) // N_SECTORS
            return f"improve printing house: install at gear position {x + 1}, sector {(a - A_PLACE) % N_SECTORS + 1} active"
        if A_REORIENT <= a < A_PATRON_REWARD:
            x = (a - A_REORIENT) // N_SECTORS
            return f"improve printing house: turn gear {x + 1} to sector {(a - A_REORIENT) % N_SECTORS + 1}"
        if A_PATRON_REWARD <= a < A_PATRON_CARD:
            r = self.rules.core_catalogue["patronage_rewards"][a - A_PATRON_REWARD]
            return f"patronage: reward {_reward_text(r['kind'], r['amount'])}"
        if A_PATRON_CARD <= a < A_DISCARD:
            return f"patronage: take {cat.describe_patronage(a - A_PATRON_CARD)}"
        if A_DISCARD <= a < A_BUY:
            return f"{step}: discard order in slot {a - A_DISCARD + 1}"
        if A_BUY <= a < A_USE_GEAR:
            if 0 <= cp < self.s.num_seats:
                return f"buy type {L[a - A_BUY]} for {type_cost(&self.s.players[cp])}"
            return f"buy type {L[a - A_BUY]}"
        if A_USE_GEAR <= a < A_PASS:
            return f"use gear {a - A_USE_GEAR + 1}"
        if a == A_PASS:
            if self.s.n_pending > 0:
                return f"{step}: decline"
            if self.s.phase == PH_FULFIL:
                if self.s.fulfil_slot == FULFIL_FINISH and max(self.s.fulfil_mode) >= FULFIL_PRINT:
                    return "fulfil: print the chosen orders"
                return "fulfil: done"
            if self.s.phase == PH_PLAN:
                return f"{step}: done"
            return f"{step}: pass"
        if A_FULFIL <= a < A_INK:
            return f"fulfil: order {(a - A_FULFIL) // 5 + 1} {FULFIL_MODE_NAMES[(a - A_FULFIL) % 5]}"
        if A_INK <= a < A_LETTER:
            if self.s.n_pending > 0 and self.s.pending[0].kind == PD_CAXTON:
                return f"Caxton: {I[a - A_INK]} is wild this round"
            return f"{step}: {I[a - A_INK]} ink"
        if A_LETTER <= a < A_SPECIALTY_UP:
            return f"{step}: type {L[a - A_LETTER]}"
        if A_SPECIALTY_UP <= a < A_SELL_GUILDERS:
            if self.s.n_pending > 0 and self.s.pending[0].kind == PD_UNGLER:
                # Her two picks are not alike: the first to one level, the second to another.
                level = self.rules.cat.ungler_levels[0 if self.s.pending[0].stage == 0 else 1]
                return f"{step}: {S[a - A_SPECIALTY_UP]} to level {_names.ROMAN[level]}"
            return f"{step}: +1 {S[a - A_SPECIALTY_UP]}"
        if a == A_SELL_GUILDERS:
            return f"sell a type: {SELL_TYPE_GUILDERS} guilders"
        if a == A_SELL_FAME:
            return f"sell a type: {SELL_TYPE_FAME} fame"
        if A_MORE <= a < A_CHARACTER:
            return "order as a reward: pay 2 for " + ("2 printing", "2 refinement", "1 printing + 1 refinement")[a - A_MORE]
        if A_CHARACTER <= a < A_SHIFT:
            return f"characters: keep {_names.CHARACTERS[a - A_CHARACTER]}"
        if A_SHIFT <= a < A_SWAP:
            x = (a - A_SHIFT) // N_ROWS
            return f"Gutenberg: shift a marker from {_names.ROWS[x]} to {_names.ROWS[(a - A_SHIFT) % N_ROWS]}"
        if A_SWAP <= a < N_ACTIONS:
            x = (a - A_SWAP) // N_SPECIALTIES
            return f"Plantin: swap the levels of {S[x]} and {S[(a - A_SWAP) % N_SPECIALTIES]}"
        return f"action {a} (out of range 0-{N_ACTIONS - 1})"

    def _ink_cost(self, int space, int k):
        cdef int pos, cost = 0
        for pos in range(INK_SET):
            if k > 0 and self.s.ink_space[space][pos] >= 0:
                cost += pos
                k -= 1
        return cost

    def observation_string(self, int player):
        """The state as `player` sees it (others' plans hidden until all have committed)."""
        self._check_seat(player)
        return self._describe(player)

    def __str__(self):
        return self._describe(-1)

    def _describe(self, int viewer):
        cat = self.rules.catalogue
        L, I, S = _names.LETTERS, _names.INKS, _names.SPECIALTIES
        s = self.to_dict()
        rules = self.rules.core_catalogue
        lines = [f"Round {s['round']}/{s['rounds']}, {self.step_name()}; first player {s['first_player']}"]
        if viewer >= 0:
            lines[0] = f"Player {viewer} sees. " + lines[0]
        board = []
        pr = [cat.describe_printing(x) for x in s['printing_space'] if x >= 0]
        rf = [cat.describe_refinement(x) for x in s['refinement_space'] if x >= 0]
        if pr or rf:
            board.append("  printing: " + "; ".join(pr))
            board.append("  refinement: " + "; ".join(rf))
        inks = ["/".join(I[c] if c >= 0 else "-" for c in sp) for sp in s['ink_space'][:rules['board'][s['num_seats']]['ink_sets']]]
        if any(c >= 0 for sp in s['ink_space'] for c in sp):
            board.append("  inks: " + "  ".join(f"{i + 1}:{t}" for i, t in enumerate(inks)))
        sp = [cat.describe_specialty_card(x) for x in s['specialty_space'] if x >= 0]
        if sp:
            board.append("  specialty cards: " + "; ".join(sp))
        gs = [cat.describe_gear(x) for x in s['gear_space'] if x >= 0]
        if gs:
            board.append("  gears: " + "; ".join(gs))
        pat = []
        for i, x in enumerate(s['patronage_space']):
            if x >= 0:
                opens = rules['patronage_rounds'][i]
                pat.append(cat.describe_patronage(x) + ("" if opens <= s['round'] else f" (from round {opens})"))
        board.append("  patronage cards: " + ("; ".join(pat) if pat else "none"))
        rw = []
        for k in range(4):
            r = rules['patronage_rewards'][k]
            taken = s['patronage_reward_seat'][k]
            rw.append(_reward_text(r["kind"], r["amount"]) + (f" (taken by {taken})" if taken >= 0 else ""))
        board.append("  patronage rewards: " + "; ".join(rw))
        board.append("  bag: " + ", ".join(f"{I[c]} {s['bag'][c]}" for c in range(4)))
        if s['draft_printing'] or s['draft_refinement']:
            board.append("  draft printing: " + "; ".join(cat.describe_printing(x) for x in _bits(s['draft_printing'])))
            board.append("  draft refinement: " + "; ".join(cat.describe_refinement(x) for x in _bits(s['draft_refinement'])))
        if s['pool_printing'] or s['pool_refinement']:
            board.append("  drawn printing: " + "; ".join(cat.describe_printing(x) for x in _bits(s['pool_printing'])))
            board.append("  drawn refinement: " + "; ".join(cat.describe_refinement(x) for x in _bits(s['pool_refinement'])))
        lines.append("Board:")
        lines.extend(board)
        scores = self.final_scores()
        for seat in range(s['num_seats']):
            p = s['players'][seat]
            if seat == s['automa_seat']:
                plan = ", ".join(f"{r} {v}" for r, v in zip(_names.ROWS, p["plan"]))
                card = f", planning card {s['automa_card']}" if s['automa_card'] >= 0 else ""
                lines.append(f"Automa (seat {seat}): initiative markers {p['markers']}: {plan}{card}")
                continue
            lines.append(f"Player {seat}: fame {p['fame']} (final {scores[seat]}), guilders {p['guilders']}, "
                         f"patronage cards {p['patronage']}")
            if p['character'] >= 0:
                wild = f"; wild ink {_names.INKS[p['wild_ink']]}" if p['wild_ink'] >= 0 else ""
                lines.append(f"  character: {_names.CHARACTERS[p['character']]}{wild}")
            elif p['character_drawn'][0] >= 0:
                if viewer < 0 or viewer == seat:
                    drawn = " / ".join(_names.CHARACTERS[x] for x in p['character_drawn'] if x >= 0)
                else:
                    drawn = f"{sum(1 for x in p['character_drawn'] if x >= 0)} tiles"
                lines.append(f"  characters drawn: {drawn}")
            types = " ".join(L[i] * p["types"][i] for i in range(4) if p["types"][i])
            inks_held = ", ".join(f"{I[c]} {p['inks'][c]}" for c in range(4) if p["inks"][c])
            lines.append(f"  types: {types or '-'}; inks: {inks_held or '-'}")
            lines.append("  specialties: " + ", ".join(f"{S[j]} {_names.ROMAN[p['levels'][j]]}" for j in range(4))
                         + f"; reward track {p['track']}")
            for k in range(4):
                if p["order_printing"][k] >= 0:
                    lines.append(f"  order {k + 1}: {cat.describe_printing(p['order_printing'][k])} + "
                                 f"{cat.describe_refinement(p['order_refinement'][k])}")
            for k in range(3):
                if p["gear"][k] >= 0:
                    used = " (used)" if p["gear_used"][k] else ""
                    lines.append(f"  gear {k + 1}: {cat.describe_gear(p['gear'][k])}, sector {p['gear_active'][k] + 1} active{used}")
            if s['phase'] >= 3 and s['round'] > 0:
                if viewer < 0 or self.plan_visible(seat, viewer):
                    plan = ", ".join(f"{r} {v}" for r, v in zip(_names.ROWS, p["plan"]))
                else:
                    plan = "hidden"
                lines.append(f"  initiative markers {p['markers']}: {plan}")
        return "\n".join(lines)

    # -- tensors ------------------------------------------------------------------------
    def write_observation(self, int player, float[::1] out):
        """Write the observation tensor of `player` into `out` (see observation_size)."""
        if out.shape[0] < OBS_SIZE:
            raise ValueError(f"observation buffer of {out.shape[0]} floats; {OBS_SIZE} needed")
        self._check_seat(player)
        write_obs(&self.s, player, &out[0])

    # -- consistency --------------------------------------------------------------------
    def problems(self):
        """What is inconsistent in this state (for hand-made positions): each card in
        exactly one place, 48 inks, values in range. Empty when all is well."""
        return _problems(self)


OBSERVATION_SIZE = None


def state_apply_action(state, action):
    """`GutenbergState._apply_action`, compiled: pyspiel calls it for every action, and a
    compiled function saves the interpreted frame of a Python method."""
    cdef CoreState core = state._core
    cdef int a
    a = action_id(action)
    if not is_legal(&core.s, &core.rules.cat, a):
        core._raise_illegal(a)
    apply_action(&core.s, &core.rules.cat, a)


def _rules_starting_at(catalogue, players, rounds, characters, automa, bytes initial):
    cdef Rules r = Rules(catalogue, players, rounds, characters, automa)
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


def _reward_text(kind, amount):
    name = _names.REWARD_KINDS[kind]
    if name == "ink":
        return f"{amount} ink{'s' if amount > 1 else ''} of choice"
    if name == "specialty":
        return f"+{amount} specialty level{'s' if amount > 1 else ''}"
    if name == "order":
        return "an order" if amount == 1 else f"{amount} orders"
    if name == "type":
        return "a free type" if amount == 1 else f"{amount} free types"
    return f"{amount} {name}"


def _problems(CoreState st):
    s = st.to_dict()
    out = []
    n = s["num_seats"]
    if not 2 <= n <= MAX_SEATS:
        return [f"num_seats: {n} is out of range (2-{MAX_SEATS})"]
    if not 0 <= s["phase"] <= PH_REVEAL:
        return [f"phase: {s['phase']} is out of range (0-{PH_REVEAL})"]
    if not 0 <= s["first_player"] < n:
        out.append(f"first_player: {s['first_player']} is out of range (0-{n - 1})")
    if not 0 <= s["round"] <= s["rounds"] <= 6:
        out.append(f"round: {s['round']} of {s['rounds']} is out of range")
    if s["phase"] == PH_PLAN and s["sub"] >= 0 and (s["step"] != 0 or s["sub"] >= s["num_players"]):
        out.append(f"sub: the free-action window {s['sub']} of the plan step comes before the plans "
                   f"(step {s['step']}) and has one player each ({s['num_players']})")
    if s["phase"] == PH_FULFIL and not 0 <= s["fulfil_slot"] <= FULFIL_DONE:
        out.append(f"fulfil_slot: {s['fulfil_slot']} is out of range (0-{FULFIL_DONE})")

    def places(kind, total, deck, discard, extra, box=None):
        seen = {}
        def put(x, where):
            if not 0 <= x < total:
                out.append(f"{where}: card {x} is out of range (0-{total - 1})")
            elif x in seen:
                out.append(f"{kind} card {x} is both in {seen[x]} and in {where}")
            else:
                seen[x] = where
        for name in (deck, discard, box):
            for x in _bits(s[name]) if name else ():
                put(x, name)
        for x, where in extra:
            put(x, where)
        return seen

    def all_there(kind, seen, total, out_of_game=0):
        missing = [x for x in range(total) if x not in seen and not (out_of_game >> x) & 1]
        if missing:
            out.append(f"{kind} card(s) {', '.join(map(str, missing))} are nowhere")

    pl = s["players"]
    printing = [(x, f"printing_space[{i}]") for i, x in enumerate(s["printing_space"]) if x >= 0]
    refinement = [(x, f"refinement_space[{i}]") for i, x in enumerate(s["refinement_space"]) if x >= 0]
    printing += [(x, "draft_printing") for x in _bits(s["draft_printing"])]
    printing += [(x, "pool_printing") for x in _bits(s["pool_printing"])]
    refinement += [(x, "draft_refinement") for x in _bits(s["draft_refinement"])]
    refinement += [(x, "pool_refinement") for x in _bits(s["pool_refinement"])]
    gears = [(x, f"gear_space[{i}]") for i, x in enumerate(s["gear_space"]) if x >= 0]
    # Cards in a player's hand in the middle of a turn or of an order as a reward.
    if s["n_pending"] > 0 and s["pending"][0]["kind"] == PD_GUILLARD:
        gears += [(x, "gear_pool") for x in _bits(s["gear_pool"])]
        if s["pending"][0]["stage"] == 2:
            gears.append((s["pending"][0]["arg"], "pending[0].arg"))
    if s["phase"] == PH_DRAFT and s["sub"] == 1:
        printing.append((s["sub_card"], "sub_card"))
    elif s["phase"] == PH_TURN and s["turn_order"][s["turn"]] == s["automa_seat"]:
        # The automa holds nothing: what it takes goes straight to the discard piles. At
        # take orders, sub_card is the printing space it took its card from.
        if s["row"] == ROW_ORDERS and s["sub"] == SUB_REFINEMENT and not (
                0 <= s["sub_card"] < MAX_SPACES and s["printing_space"][s["sub_card"]] < 0):
            out.append(f"sub_card: {s['sub_card']} is not the empty printing space the automa took from")
    elif s["phase"] == PH_TURN and s["sub"] == SUB_REFINEMENT:
        printing.append((s["sub_card"], "sub_card"))
    elif s["phase"] == PH_TURN and s["sub"] == SUB_DISCARD:
        printing.append((s["sub_card"] // 64, "sub_card"))
        refinement.append((s["sub_card"] % 64, "sub_card"))
    elif s["phase"] == PH_TURN and s["sub"] == SUB_PLACE:
        gears.append((s["sub_card"], "sub_card"))
    if s["n_pending"] > 0 and s["pending"][0]["kind"] == PD_ORDER:
        q = s["pending"][0]
        if q["stage"] == 2:
            printing.append((q["arg"], "pending[0].arg"))
        who = q["seat"]
        if 0 <= q["stage"] <= 2 and 0 <= who < n and all(x >= 0 for x in pl[who]["order_printing"]):
            out.append(f"pending[0].stage: {q['stage']}: an order as a reward is drawn with a free slot "
                       f"(with {MAX_ORDERS} orders held, one is discarded first: stage 3)")
    for seat in range(n):
        p = pl[seat]
        for k in range(MAX_ORDERS):
            a, b = p["order_printing"][k], p["order_refinement"][k]
            if (a < 0) != (b < 0):
                out.append(f"players[{seat}].order_printing[{k}]/order_refinement[{k}]: an order is a pair of cards")
            if a >= 0:
                printing.append((a, f"players[{seat}].order_printing[{k}]"))
            if b >= 0:
                refinement.append((b, f"players[{seat}].order_refinement[{k}]"))
        seen_empty = False
        for k in range(MAX_INSTALLED):
            g = p["gear"][k]
            if g >= 0:
                if seen_empty:
                    out.append(f"players[{seat}].gear[{k}]: gears are installed from position 1 on")
                gears.append((g, f"players[{seat}].gear[{k}]"))
                if not 0 <= p["gear_active"][k] < N_SECTORS:
                    out.append(f"players[{seat}].gear_active[{k}]: {p['gear_active'][k]} is out of range (0-2)")
            else:
                seen_empty = True
        for field, lo, hi in (("fame", 0, MAX_FAME), ("guilders", 0, MAX_GUILDERS),
                              ("patronage", 0, N_PATRONAGE_SPACES),
                              ("track", 0, N_TRACK), ("gear_uses", 0, MAX_GEAR_USES)):
            if not lo <= p[field] <= hi:
                out.append(f"players[{seat}].{field}: {p[field]} is out of range ({lo}-{hi})")
        if not 0 <= p["markers"] <= MAX_MARKERS:
            out.append(f"players[{seat}].markers: {p['markers']} is out of range (0-{MAX_MARKERS})")
        elif sum(p["plan"]) > p["markers"]:
            out.append(f"players[{seat}].plan: {sum(p['plan'])} markers placed, {p['markers']} owned")
        for field, hi in (("types", MAX_TYPES), ("inks", 48), ("levels", MAX_LEVEL), ("plan", 6)):
            for i, v in enumerate(p[field]):
                if not 0 <= v <= hi:
                    out.append(f"players[{seat}].{field}[{i}]: {v} is out of range (0-{hi})")
        if sum(p["types"]) > MAX_TYPES:
            # A printing house holds at most MAX_TYPES types in all (docs/rulings.md).
            out.append(f"players[{seat}].types: {sum(p['types'])} types in all, more than {MAX_TYPES}")
    all_there("printing", places("printing", N_PRINTING, "printing_deck", "printing_discard", printing,
                                 "printing_box"), N_PRINTING)
    all_there("refinement", places("refinement", N_REFINEMENT, "refinement_deck", "refinement_discard",
                                   refinement, "refinement_box"), N_REFINEMENT)
    all_there("gear", places("gear", N_GEARS, "gear_deck", "gear_discard", gears, "gear_box"), N_GEARS)
    all_there("specialty", places("specialty", N_SPECIALTY_CARDS, "specialty_deck", "specialty_discard",
              [(x, f"specialty_space[{i}]") for i, x in enumerate(s["specialty_space"]) if x >= 0],
              "specialty_box"), N_SPECIALTY_CARDS)
    patronage = len(_bits(s["patronage_box"])) + sum(1 for x in s["patronage_space"] if x >= 0)
    patronage += sum(pl[seat]["patronage"] for seat in range(n))
    if s["phase"] != PH_SETUP_DEAL and patronage != N_PATRONAGE:
        out.append(f"patronage: {patronage} cards in the box, on the board and taken; the game has {N_PATRONAGE}")
    inks = list(s["bag"])
    for sp in s["ink_space"]:
        for c in sp:
            if c >= 0:
                if c >= N_INKS:
                    out.append(f"ink_space: colour {c} is out of range (0-3)")
                    continue
                inks[c] += 1
    for seat in range(n):
        for c in range(N_INKS):
            inks[c] += pl[seat]["inks"][c]
    per = st.rules.core_catalogue['inks_per_colour']
    for c in range(N_INKS):
        if inks[c] != per:
            out.append(f"inks: {inks[c]} {_names.INKS[c]} in all (bag, board, players); the game has {per}")
    if s["n_pending"] < 0 or s["n_pending"] > MAX_PENDING:
        out.append(f"n_pending: {s['n_pending']} is out of range")
    return out


# ---------------------------------------------------------------------------------------
# Observation tensor: a fixed layout of one-hots and scaled counts, seats relative to
# the observer (observer first).
# ---------------------------------------------------------------------------------------
cdef enum:
    SEAT_BLOCK = (2 + 4 + 4 + 4 * 7 + 5 + MAX_ORDERS * (N_PRINTING + N_REFINEMENT) + MAX_INSTALLED * (N_GEARS + N_SECTORS + 1) + 1 + 6 + 1 + 1 + 1
                  + N_CHARACTERS + 1 + N_CHARACTERS + N_INKS + 2)
cdef enum:
    OBS_SIZE = (7 + 10 + 5 + 5 + 4 + N_AUTOMA_PLANNING + 1 + 1 + N_PRINTING + N_REFINEMENT + N_SPECIALTY_CARDS + N_GEARS
                + MAX_SPACES * INK_SET * 5 + 4 + N_PATRONAGE_SPACES * (N_PATRONAGE + 2)
                + N_PATRONAGE_REWARDS * 5 + 2 * (N_PRINTING + N_REFINEMENT) + 2
                + N_PRINTING + N_REFINEMENT + N_SPECIALTY_CARDS + N_GEARS
                + N_PENDING_KINDS + 5 + 1 + 1 + 1 + 1 + 5 + N_PRINTING + N_REFINEMENT + N_GEARS + 6 + MAX_ORDERS * 6
                + MAX_SEATS * SEAT_BLOCK)

OBSERVATION_SIZE = OBS_SIZE


cdef inline int put_mask(float* out, int at, uint64_t m, int n) noexcept nogil:
    """A feature for each of the first n bits of m, set where the bit is (`out` is
    zeroed): only the set bits are visited (the network's rollouts write many)."""
    if n < 64:
        m &= bit(n) - 1
    while m:
        out[at + ctz64(m)] = 1.0
        m &= m - 1
    return at + n


cdef void write_obs(const GameState* s, int player, float* out) noexcept nogil:
    cdef int at = 0, i, k, seat, rel, cp, c, j
    cdef const PlayerState* p
    cdef uint64_t m
    memset(out, 0, OBS_SIZE * sizeof(float))
    out[at + s.round] = 1.0
    at += 7
    out[at + s.phase] = 1.0
    at += 10
    if s.phase == PH_TURN:
        out[at + s.row] = 1.0
    at += 5
    cp = current_player(s)
    if cp >= 0:
        out[at + (cp - player + s.num_seats) % s.num_seats] = 1.0
    else:
        out[at + 4] = 1.0
    at += 5
    out[at + (s.first_player - player + s.num_seats) % s.num_seats] = 1.0
    at += 4
    out[at + 1 + s.automa_card] = 1.0
    at += N_AUTOMA_PLANNING + 1
    out[at] = 1.0 if s.characters else 0.0
    at += 1
    m = 0
    for i in range(MAX_SPACES):
        if s.printing_space[i] >= 0:
            m |= bit(s.printing_space[i])
    at = put_mask(out, at, m, N_PRINTING)
    m = 0
    for i in range(MAX_SPACES):
        if s.refinement_space[i] >= 0:
            m |= bit(s.refinement_space[i])
    at = put_mask(out, at, m, N_REFINEMENT)
    m = 0
    for i in range(MAX_SPACES):
        if s.specialty_space[i] >= 0:
            m |= bit(s.specialty_space[i])
    at = put_mask(out, at, m, N_SPECIALTY_CARDS)
    m = 0
    for i in range(MAX_SPACES):
        if s.gear_space[i] >= 0:
            m |= bit(s.gear_space[i])
    at = put_mask(out, at, m, N_GEARS)
    for i in range(MAX_SPACES):
        for k in range(INK_SET):
            out[at + 1 + s.ink_space[i][k]] = 1.0
            at += 5
    for c in range(N_INKS):
        out[at + c] = s.bag[c] / 12.0
    at += 4
    for i in range(N_PATRONAGE_SPACES):
        out[at + 1 + s.patronage_space[i]] = 1.0
        at += N_PATRONAGE + 1
        # whether the space is open this round is catalogue data; the observer sees the
        # round, so a flag for "card present" is enough here
        out[at] = 1.0 if s.patronage_space[i] >= 0 else 0.0
        at += 1
    for k in range(N_PATRONAGE_REWARDS):
        if s.patronage_reward_seat[k] >= 0:
            out[at + 1 + (s.patronage_reward_seat[k] - player + s.num_seats) % s.num_seats] = 1.0
        else:
            out[at] = 1.0
        at += 5
    at = put_mask(out, at, s.draft_printing, N_PRINTING)
    at = put_mask(out, at, s.draft_refinement, N_REFINEMENT)
    at = put_mask(out, at, s.pool_printing, N_PRINTING)
    at = put_mask(out, at, s.pool_refinement, N_REFINEMENT)
    out[at] = s.pool_due_printing / 2.0
    out[at + 1] = s.pool_due_refinement / 2.0
    at += 2
    at = put_mask(out, at, s.printing_deck, N_PRINTING)
    at = put_mask(out, at, s.refinement_deck, N_REFINEMENT)
    at = put_mask(out, at, s.specialty_deck, N_SPECIALTY_CARDS)
    at = put_mask(out, at, s.gear_deck, N_GEARS)
    if s.n_pending > 0:
        out[at + s.pending[0].kind] = 1.0
        out[at + N_PENDING_KINDS + (s.pending[0].stage + 1 if s.pending[0].stage < 4 else 4)] = 1.0
        out[at + N_PENDING_KINDS + 5] = s.pending[0].amount / 4.0
    at += N_PENDING_KINDS + 6
    out[at] = s.n_pending / 8.0
    at += 1
    if s.n_pending > 0 and reward_declinable(&s.pending[0]):
        out[at] = 1.0
    at += 1
    if s.phase == PH_PLAN and s.sub >= 0:   # a free-action window before the plans
        out[at] = 1.0
    at += 1
    if s.phase == PH_TURN:
        out[at + (0 if s.sub == SUB_CHOOSE else (s.sub if s.sub < 4 else 4))] = 1.0
    at += 5
    if s.phase == PH_TURN and s.sub == SUB_REFINEMENT:
        out[at + s.sub_card] = 1.0
    elif s.phase == PH_TURN and s.sub == SUB_DISCARD:
        out[at + s.sub_card // 64] = 1.0
        out[at + N_PRINTING + s.sub_card % 64] = 1.0
    elif s.phase == PH_TURN and s.sub == SUB_PLACE:
        out[at + N_PRINTING + N_REFINEMENT + s.sub_card] = 1.0
    at += N_PRINTING + N_REFINEMENT + N_GEARS
    if s.phase == PH_FULFIL:
        out[at + (s.fulfil_slot if s.fulfil_slot < 6 else 5)] = 1.0   # (FULFIL_DONE never waits)
    at += 6
    for k in range(MAX_ORDERS):
        if s.phase == PH_FULFIL:
            out[at + 1 + s.fulfil_mode[k]] = 1.0
        at += 6
    for rel in range(MAX_SEATS):
        if rel >= s.num_seats:
            at += SEAT_BLOCK
            continue
        seat = (player + rel) % s.num_seats
        p = &s.players[seat]
        out[at] = p.fame / 100.0
        out[at + 1] = p.guilders / 30.0
        at += 2
        for i in range(4):
            out[at + i] = p.types[i] / 5.0
            out[at + 4 + i] = p.inks[i] / 5.0
        at += 8
        for j in range(N_SPECIALTIES):
            out[at + p.levels[j]] = 1.0
            at += 7
        out[at + p.track] = 1.0
        at += 5
        for k in range(MAX_ORDERS):
            if p.order_printing[k] >= 0:
                out[at + p.order_printing[k]] = 1.0
                out[at + N_PRINTING + p.order_refinement[k]] = 1.0
            at += N_PRINTING + N_REFINEMENT
        for k in range(MAX_INSTALLED):
            if p.gear[k] >= 0:
                out[at + p.gear[k]] = 1.0
                out[at + N_GEARS + p.gear_active[k]] = 1.0
                out[at + N_GEARS + N_SECTORS] = p.gear_used[k]
            at += N_GEARS + N_SECTORS + 1
        out[at] = p.gear_uses / 3.0
        at += 1
        if plan_seen(s, seat, player):
            for i in range(N_ROWS):
                out[at + i] = p.plan[i] / 6.0
            out[at + 5] = 1.0
        at += 6
        out[at] = p.markers / 10.0
        out[at + 1] = p.patronage / 4.0
        out[at + 2] = 1.0
        at += 3
        out[at + 1 + p.character] = 1.0
        at += N_CHARACTERS + 1
        if seat == player:   # the tiles drawn at setup are seen by their owner only
            for i in range(2):
                if p.character_drawn[i] >= 0:
                    out[at + p.character_drawn[i]] = 1.0
        at += N_CHARACTERS
        if p.wild_ink >= 0:
            out[at + p.wild_ink] = 1.0
        at += N_INKS
        out[at] = 1.0 if p.character_flags & FLAG_PLANTIN_SWAPPED else 0.0
        out[at + 1] = 1.0 if p.character_flags & FLAG_SCHOEFFER_TWICE else 0.0
        at += 2
