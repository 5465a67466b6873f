"""CFR-style solvers on a small variant of each printing game, and a bot that plays their
policy.

A whole game is far too large for counterfactual regret minimisation, which walks the
complete game tree every iteration. Each game ships a small variant, the real game from a
position near its end (`variant_path(game)`, `variant_game(game=...)`):

- Gutenberg (data/positions/cfr-mini.json): the last and only round of a 2-player game,
  one initiative marker each, two printing and two refinement cards, one ink set, one
  specialty card and one gear on the board, one order each, the rest of the cards out of
  the game. The plan step is still a hidden simultaneous commitment, and the rest of the
  round (the five actions, rewards, fulfilment) is the real game: about 32,000 decision
  nodes.
- Printing Press (games/printing_press/data/positions/cfr-mini.json, made by
  games/printing_press/variants.py): the last Select Cards step of a 1-round 2-player
  game after the first player's turn: the second player takes one of two cards and
  places it, or discards it and draws the bag's last two tokens (unseen by the other),
  then both choose the window of their frame: about 4,200 decision nodes.
- Lead Letter Printers (games/lead_letter_printers/data/positions/cfr-mini.json, made by
  games/lead_letter_printers/variants.py): the second player's last turn of a 1-round
  2-player game and the phases after it: about 1,200 decision nodes; every draw from
  there is face up, so it is a game of perfect information with chance.

    from gutenberg_ai.search import cfr
    game = cfr.variant_game()                          # Gutenberg's
    game = cfr.variant_game(game="printing-press")     # Printing Press's
    result = cfr.solve(game, "cfr+", iterations=200)
    print(result.exploitability, result.seconds)

OpenSpiel's C++ solvers run on the game directly: CFR, CFR+, and outcome- or
external-sampling Monte Carlo CFR; OpenSpiel computes the exploitability of the
average policy (`pyspiel.exploitability`, in the game's win/loss utility).

OpenSpiel's outcome sampling ("mccfr-outcome") freezes on this variant: its average
policy is updated only where the other player's current policy leads, and after the plan
step every information state holds one history (docs/search.md, "Why outcome sampling
freezes"). "mccfr-outcome-other" is the same sampler (`OutcomeSamplingStudy`, Python)
with the average taken at the other player's nodes, which converges; `audit_tree`
checks what the solvers assume of a game (perfect recall, chance probabilities).
"""
from __future__ import annotations

import functools
import hashlib
import os
import random
import time
from dataclasses import dataclass, field
from importlib import resources

import numpy as np
import pyspiel

from gutenberg_ai import games
from gutenberg_ai.common import limits

VARIANT = "cfr-mini.json"
SOLVERS = ("cfr", "cfr+", "mccfr-outcome", "mccfr-external", "mccfr-outcome-other")
# Where each game's small variant is shipped: (package, folder inside it).
VARIANTS = {"gutenberg": ("gutenberg_ai.games.gutenberg", "data/positions"),
            "printing-press": ("gutenberg_ai.games.printing_press", "data/positions"),
            "lead-letter-printers": ("gutenberg_ai.games.lead_letter_printers", "data/positions")}


def variant_path(game: str = "gutenberg") -> str:
    """The path of the small variant's position shipped for `game` (a games-table key)."""
    if game not in VARIANTS:
        raise ValueError(f"game: {game!r} is not one of {', '.join(VARIANTS)}")
    package, folder = VARIANTS[game]
    return str(resources.files(package) / folder / VARIANT)


def variant_game(returns: str = "win", game: str = "gutenberg"):
    """The small variant as an OpenSpiel game: the native game of `game` started from
    its shipped position."""
    return games.get(game).load(position=variant_path(game), returns=returns)


def _solver(game, algorithm: str, seed: int):
    if algorithm == "cfr":
        return pyspiel.CFRSolver(game)
    if algorithm == "cfr+":
        return pyspiel.CFRPlusSolver(game)
    if algorithm == "mccfr-outcome":
        return pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)
    if algorithm == "mccfr-external":
        return pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
    if algorithm == "mccfr-outcome-other":
        return OutcomeSamplingStudy(game, seed=seed, average="other")
    raise ValueError(f"algorithm: {algorithm!r} is not one of {', '.join(SOLVERS)}")


@dataclass
class SolveResult:
    """An average policy and how good it is."""

    algorithm: str
    iterations: int
    seconds: float
    policy: object                 # a pyspiel policy: action_probabilities(state)
    exploitability: float
    curve: list = field(default_factory=list)   # (iterations, seconds, exploitability)
    solver: object = None          # kept alive: an MCCFR average policy reads its tables


def solve(game=None, algorithm: str = "cfr+", iterations: int = 100, seed: int = 0,
          checkpoints: int = 0) -> SolveResult:
    """Run a solver (SOLVERS: OpenSpiel's C++ ones, or "mccfr-outcome-other", see
    OutcomeSamplingStudy) for `iterations` (1 to limits.MAX_ITERATIONS) and return its
    average policy with its exploitability; `checkpoints` (0 to `iterations`) > 0 also
    records the exploitability that many times along the way (each costs a
    best-response computation). `seed`: 0 to limits.MAX_SEED, or to
    limits.MAX_SEARCH_INT for OpenSpiel's MCCFR solvers (they take 32-bit seeds)."""
    if algorithm not in SOLVERS:
        raise ValueError(f"algorithm: {algorithm!r} is not one of {', '.join(SOLVERS)}")
    limits.check_iterations(iterations)
    limits.check_whole(checkpoints, "checkpoints", 0, iterations)
    if algorithm in ("mccfr-outcome", "mccfr-external"):
        limits.check_whole(seed, "seed", 0, limits.MAX_SEARCH_INT)
    else:
        limits.check_seed(seed)
    game = game or variant_game()
    solver = _solver(game, algorithm, seed)
    sampled = algorithm.startswith("mccfr")
    # The iterations after which the exploitability is recorded, in order (some
    # coincide when checkpoints do not divide iterations), made as the run reaches them.
    marks = (max(1, round(iterations * k / checkpoints)) for k in range(1, checkpoints + 1))
    mark = next(marks, None)
    curve = []
    start = time.perf_counter()
    spent = 0.0
    for it in range(1, iterations + 1):
        if sampled:
            solver.run_iteration()
        else:
            solver.evaluate_and_update_policy()
        if it == mark:
            while mark is not None and mark <= it:
                mark = next(marks, None)
            if it != iterations:
                spent += time.perf_counter() - start
                curve.append((it, spent, pyspiel.exploitability(game, solver.average_policy())))
                start = time.perf_counter()
    spent += time.perf_counter() - start
    # CFR and CFR+ can copy their average policy out; MCCFR's refers to the solver.
    policy = solver.tabular_average_policy() if not sampled else solver.average_policy()
    value = pyspiel.exploitability(game, policy)
    curve.append((iterations, spent, value))
    return SolveResult(algorithm, iterations, spent, policy, value, curve, solver)


@dataclass
class TreeAudit:
    """What `audit_tree` found in a game's whole tree. The lists name the information
    states (or chance nodes, by history) where a property fails; empty lists mean the
    game is fit for CFR-style solvers."""

    decision_nodes: int = 0
    chance_nodes: int = 0
    terminals: int = 0
    info_states: dict = field(default_factory=dict)                  # player -> count
    histories_per_info_state: dict = field(default_factory=dict)     # histories -> info states
    outcomes_per_chance_node: dict = field(default_factory=dict)     # outcomes -> chance nodes
    min_chance_reach: float = 1.0      # smallest chance probability of reaching a terminal
    longest_history: int = 0
    recall_violations: list = field(default_factory=list)  # histories differ in the player's own past
    legal_mismatches: list = field(default_factory=list)   # histories differ in legal actions
    tensor_mismatches: list = field(default_factory=list)  # tensor splits or merges what the string does not
    chance_errors: list = field(default_factory=list)      # probabilities not positive or not summing to 1

    @property
    def ok(self) -> bool:
        return not (self.recall_violations or self.legal_mismatches or self.tensor_mismatches
                    or self.chance_errors)


def _check_tree_size(root, max_nodes: int, what: str) -> None:
    """Raises ValueError as soon as the tree below `root` has more than `max_nodes` nodes.
    The walk only counts (about 200,000 nodes a second), so that a tree too large for a
    walk that does more at every node is refused before that walk starts."""
    stack, nodes = [root], 0
    while stack:
        state = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise ValueError(f"{what}: the game tree has more than {max_nodes:,} nodes (max_nodes): "
                             f"{what} walks small games only (cfr.variant_game)")
        if state.is_terminal():
            continue
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        stack.extend(state.child(a) for a in actions)


def audit_tree(game, key=None, tensors: bool = True, max_nodes: int = 500_000, root=None) -> TreeAudit:
    """Walks the whole tree of `game` and checks what CFR-style solvers assume of it.

    Perfect recall: every history in an information state (grouped by `key(state,
    player)`, default the information-state string) has the same sequence of the
    player's own (information state, action) pairs, and the same legal actions. With
    `tensors` (and a game that has them), the information-state tensor groups histories
    exactly as the key does (no two keys share a tensor, no key has two). Chance: every
    outcome's probability is positive and they sum to 1. Also counts what the sampling
    solvers depend on: the histories per information state, the outcomes per chance
    node, the smallest chance probability of a terminal. `root` (default the initial
    state) audits the subtree below a state. Small games only: a tree of more than
    `max_nodes` nodes (1 to limits.MAX_NODES) is refused, by a walk that only counts
    and stops as soon as it passes the bound, before the audit starts."""
    limits.check_whole(max_nodes, "audit_tree: max_nodes", 1, limits.MAX_NODES)
    key = key or (lambda state, player: state.information_state_string(player))
    tensors = tensors and game.get_type().provides_information_state_tensor
    audit = TreeAudit()
    own_past = {}        # information state -> the player's own past (an interned id)
    legal = {}           # information state -> legal actions
    # A tensor is kept as a digest of its bytes: a whole game's has 10,000 numbers.
    tensor_of: dict[str, bytes] = {}       # information state -> tensor digest
    key_of_tensor: dict[bytes, str] = {}   # tensor digest -> information state
    interned: dict[tuple[int, str, int], int] = {}   # (own past, information state, action) -> id
    histories: dict[str, int] = {}         # information state -> histories
    outcomes: dict[int, int] = {}          # number of outcomes -> chance nodes
    players = game.num_players()
    start = root.clone() if root is not None else game.new_initial_state()
    _check_tree_size(start, max_nodes, "audit_tree")
    # Depth first, with an explicit stack: (state, each player's own past, chance reach).
    stack = [(start, (0,) * players, 1.0)]
    while stack:
        state, past, reach = stack.pop()
        if state.is_terminal():
            audit.terminals += 1
            audit.min_chance_reach = min(audit.min_chance_reach, reach)
            audit.longest_history = max(audit.longest_history, len(state.history()))
            continue
        if state.is_chance_node():
            audit.chance_nodes += 1
            chance = state.chance_outcomes()
            outcomes[len(chance)] = outcomes.get(len(chance), 0) + 1
            if any(p <= 0 for _, p in chance) or abs(sum(p for _, p in chance) - 1) > 1e-9:
                audit.chance_errors.append(state.history_str())
            for action, p in chance:
                stack.append((state.child(action), past, reach * p))
            continue
        audit.decision_nodes += 1
        player = state.current_player()
        info = key(state, player)
        actions = tuple(state.legal_actions())
        histories[info] = histories.get(info, 0) + 1
        if info not in own_past:
            own_past[info], legal[info] = past[player], actions
            audit.info_states[player] = audit.info_states.get(player, 0) + 1
        else:
            if own_past[info] != past[player] and info not in audit.recall_violations:
                audit.recall_violations.append(info)
            if legal[info] != actions and info not in audit.legal_mismatches:
                audit.legal_mismatches.append(info)
        if tensors:
            tensor = hashlib.blake2b(np.asarray(state.information_state_tensor(player), dtype=np.float32)
                                     .tobytes(), digest_size=16).digest()
            if tensor_of.setdefault(info, tensor) != tensor or key_of_tensor.setdefault(tensor, info) != info:
                if info not in audit.tensor_mismatches:
                    audit.tensor_mismatches.append(info)
        for action in actions:
            step = (past[player], info, action)
            if step not in interned:
                interned[step] = len(interned) + 1
            child_past = past[:player] + (interned[step],) + past[player + 1:]
            stack.append((state.child(action), child_past, reach))
    counts: dict[int, int] = {}
    for n in histories.values():
        counts[n] = counts.get(n, 0) + 1
    audit.histories_per_info_state = dict(sorted(counts.items()))
    audit.outcomes_per_chance_node = dict(sorted(outcomes.items()))
    return audit


class OutcomeSamplingStudy:
    """OpenSpiel's outcome-sampling MCCFR re-written over a tree built once, so that what
    the sampler does can be counted (docs/search.md, "Why outcome sampling freezes").

    The algorithm is OpenSpiel's (open_spiel/algorithms/outcome_sampling_mccfr.cc): one
    episode per iteration, the update player alternating; the update player samples its
    current policy mixed with `epsilon` of uniform, the other player and chance sample
    theirs; regrets get the sampled counterfactual values (the sampled action's value
    divided by its sampling probability, the others 0); the tables start at 1e-6, and the
    current policy is regret matching. Two average policies come out of the same run (the
    averaging draws no random numbers, so both see the same episodes and regrets):

    - "update", OpenSpiel's: at the update player's nodes, its policy weighted by its own
      reach over the reach of the whole sample (theirs, the other player's, chance's).
    - "other": at the other player's nodes, its policy weighted by its own reach over the
      reach of the sample, i.e. 1 / (the update player's sampling reach x chance's). The
      other player samples its own policy, so a node is reached with probability (its own
      reach) x (that), and the increment's expectation is its own reach times its policy:
      CFR's average, with weights bounded by the update player's exploration.

    Per information state it counts the updates (as the update player), the last
    iteration of one, the "update" weights (their sum and their largest) and the smallest
    reach of the other player's policy at an update. Two-player zero-sum games only."""

    def __init__(self, game, epsilon: float = 0.6, seed: int = 0, average: str = "update",
                 max_nodes: int = 500_000):
        if average not in ("update", "other"):
            raise ValueError(f"average: {average!r} is not 'update' or 'other'")
        if game.num_players() != 2 or game.get_type().utility != pyspiel.GameType.Utility.ZERO_SUM:
            raise ValueError("OutcomeSamplingStudy: two-player zero-sum games only")
        if not 0 < epsilon <= 1:
            raise ValueError(f"epsilon: {epsilon!r} is not in (0, 1]")
        self.game, self.epsilon, self.iterations, self.default_average = game, epsilon, 0, average
        self._rng = random.Random(seed)
        # The tree: node n is a terminal (kind 0, value[n] = player 0's return), a chance
        # node (kind 1, probs[n], children[n]) or a decision (kind 2, info[n], children[n]).
        self.keys: list[str] = []
        self.actions: list[list[int]] = []
        self.players: list[int] = []
        kind: list[int] = []
        value: list[float] = []
        probs: list[list[float]] = []
        info: list[int] = []
        children: list[list[int]] = []
        index = {}
        stack: list[tuple[pyspiel.State, tuple[int, int] | None]] = [(game.new_initial_state(), None)]
        while stack:
            state, parent = stack.pop()
            n = len(kind)
            if n >= max_nodes:
                raise ValueError(f"OutcomeSamplingStudy: the tree has more than {max_nodes:,} nodes")
            if parent is not None:
                children[parent[0]][parent[1]] = n
            kind.append(0)
            value.append(0.0)
            probs.append([])        # a chance node's
            info.append(-1)         # a decision's
            children.append([])
            if state.is_terminal():
                value[n] = state.returns()[0]
                continue
            if state.is_chance_node():
                kind[n] = 1
                outcomes = state.chance_outcomes()
                probs[n] = [p for _, p in outcomes]
                moves = [a for a, _ in outcomes]
            else:
                kind[n] = 2
                player = state.current_player()
                key = state.information_state_string(player)
                moves = state.legal_actions()
                if key not in index:
                    index[key] = len(self.keys)
                    self.keys.append(key)
                    self.actions.append(moves)
                    self.players.append(player)
                info[n] = index[key]
            children[n] = [0] * len(moves)
            for j, a in enumerate(moves):
                stack.append((state.child(a), (n, j)))
        self._kind, self._value, self._probs, self._info, self._children = kind, value, probs, info, children
        m = len(self.keys)
        self.regrets = [[1e-6] * len(a) for a in self.actions]
        self.average = {"update": [[1e-6] * len(a) for a in self.actions],
                        "other": [[1e-6] * len(a) for a in self.actions]}
        self.updates, self.last_update = [0] * m, [0] * m
        self.weight_sum, self.weight_max = [0.0] * m, [0.0] * m
        self.min_other_reach = [1.0] * m

    def nodes(self) -> int:
        return len(self._kind)

    def _current(self, i):
        positive = [r if r > 0 else 0.0 for r in self.regrets[i]]
        total = sum(positive)
        if total > 0:
            return [r / total for r in positive]
        return [1.0 / len(positive)] * len(positive)

    def run(self, iterations: int):
        """Runs `iterations` more episodes."""
        for _ in range(iterations):
            self.iterations += 1
            self._episode((self.iterations - 1) % 2)

    def run_iteration(self):
        """One episode (OpenSpiel's MCCFR solvers' interface)."""
        self.run(1)

    def _episode(self, up):
        rng, eps = self._rng, self.epsilon
        # Reaches: the update player's policy, the other player's and chance's, the sample,
        # the other player's policy alone.
        node, mine, others, sample, other_own = 0, 1.0, 1.0, 1.0, 1.0
        path = []
        while True:
            kind = self._kind[node]
            if kind == 0:
                value = self._value[node] if up == 0 else -self._value[node]
                break
            if kind == 1:
                x, acc, probs = rng.random(), 0.0, self._probs[node]
                j = len(probs) - 1
                for k, p in enumerate(probs):
                    acc += p
                    if x < acc:
                        j = k
                        break
                others *= probs[j]
                sample *= probs[j]
                node = self._children[node][j]
                continue
            i = self._info[node]
            policy = self._current(i)
            k = len(policy)
            mine_node = self.players[i] == up
            sampling = [eps / k + (1 - eps) * p for p in policy] if mine_node else policy
            x, acc, a = rng.random() * sum(sampling), 0.0, k - 1
            for j, p in enumerate(sampling):
                acc += p
                if x < acc:
                    a = j
                    break
            path.append((i, mine_node, a, policy, sampling, mine, others, sample, other_own))
            if mine_node:
                mine *= policy[a]
            else:
                others *= policy[a]
                other_own *= policy[a]
            sample *= sampling[a]
            node = self._children[node][a]
        for i, mine_node, a, policy, sampling, mine, others, sample, other_own in reversed(path):
            child = value / sampling[a]
            value = policy[a] * child      # the policy's value: the other actions' estimates are 0
            if mine_node:
                w = others / sample
                regrets = self.regrets[i]
                for j in range(len(policy)):
                    regrets[j] += ((child if j == a else 0.0) - value) * w
                weight = mine / sample
                average = self.average["update"][i]
                for j, p in enumerate(policy):
                    average[j] += weight * p
                self.updates[i] += 1
                self.last_update[i] = self.iterations
                self.weight_sum[i] += weight
                self.weight_max[i] = max(self.weight_max[i], weight)
                self.min_other_reach[i] = min(self.min_other_reach[i], other_own)
            else:
                weight = other_own / sample
                average = self.average["other"][i]
                for j, p in enumerate(policy):
                    average[j] += weight * p

    def average_policy(self, kind: str | None = None):
        """The average policy, "update" (OpenSpiel's) or "other" (see the class); by
        default the one named when the study was made."""
        tables = self.average[kind or self.default_average]
        return pyspiel.TabularPolicy({key: [(a, p / sum(t)) for a, p in zip(self.actions[i], t)]
                                      for i, (key, t) in enumerate(zip(self.keys, tables))})

    def current_policy(self):
        """Regret matching on the regrets so far."""
        return pyspiel.TabularPolicy({key: list(zip(self.actions[i], self._current(i)))
                                      for i, key in enumerate(self.keys)})


@functools.lru_cache(maxsize=8)
def _solved(game: str, returns: str, algorithm: str, iterations: int, seed: int) -> SolveResult:
    return solve(variant_game(returns, game), algorithm, iterations, seed)


def make_cfr_bot(game, player: int, seed: int = 0, algorithm: str = "cfr+", iterations: int = 100):
    """The "cfr" bot of gutenberg_ai.make_bot: solves the small variant of the game once
    per process (per algorithm and iterations) and plays the average policy. `game` must
    be a small variant (variant_game(game=...)); a whole game is far too large for CFR."""
    key = games.of(game).key
    params = game.get_parameters()
    if key not in VARIANTS or os.path.abspath(params.get("position", "") or "/") != variant_path(key):
        raise ValueError(f"cfr: plays the small variant only (gutenberg_ai.search.cfr.variant_game("
                         f"game={key!r})); use ismcts or smmcts for the whole game")
    if algorithm not in SOLVERS:
        raise ValueError(f"cfr: algorithm: {algorithm!r} is not one of {', '.join(SOLVERS)}")
    limits.check_iterations(iterations, "cfr: iterations")
    result = _solved(key, params["returns"], algorithm, iterations, seed)
    return CFRBot(game, player, result.policy, seed)


class CFRBot(pyspiel.Bot):
    """Plays a solved average policy of the small variant (sampling its action
    probabilities with a seeded generator)."""

    def __init__(self, game, player: int, policy, seed: int = 0):
        super().__init__()
        self._player = player
        self._policy = policy
        self._rng = random.Random(seed)

    def step(self, state):
        probs = self._policy.action_probabilities(state)
        actions = sorted(probs)
        weights = [probs[a] for a in actions]
        if sum(weights) <= 0:
            return self._rng.choice(state.legal_actions())
        return self._rng.choices(actions, weights)[0]

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return True

    def step_with_policy(self, state):
        probs = self._policy.action_probabilities(state)
        action = self.step(state)
        return list(probs.items()), action
