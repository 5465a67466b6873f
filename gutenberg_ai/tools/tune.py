"""`gutenberg-ai tune`: a search bot's options tuned against a reference bot with Optuna,
within a budget of games, then the best checked in an arena on fresh deals.

    gutenberg-ai tune --bot smmcts --reference heuristic --trials 20 --games 8 \\
        --iterations 200 --out tune-gutenberg/
    gutenberg-ai tune --game printing-press --space '{"uct_c": [0.1, 4, "log"], "cutoff": [0, 100]}' ...

A trial is one set of options: the bot with them plays `games` games against the reference
(an arena match: seats rotated, every deal from every seat), on the same deals for every
trial, and scores its win share. Optuna's TPE sampler (seeded) chooses the next trial from
those before. The study lives in OUT/study.db (Optuna's RDB storage, SQLite) and each
trial's games in OUT/trials/DIGEST (arena records, a folder per set of options): the same
command after an interruption continues the study where it stopped (a trial cut short is
asked again with its options, and the games it had finished are found), and raising
--trials extends it.

The space: option -> [low, high] (a number between; whole numbers if both are whole;
"log" as a third entry samples on a log scale) or a list of choices ({"choices": [...]}),
checked against the bot's search options (SEARCH_OPTIONS of its game's core) before any
game. In a game whose evaluation names its weights (Lead Letter Printers: the core's
HEURISTIC_WEIGHTS), `weights.NAME` searches that weight too: the trial's bot searches
with it over the process's (the bot option `weights`), the reference with the build's.
The default space (DEFAULT_SPACE) is the exploration constant, the cut-off and the two
temperatures; the learned bot, or a bot given a model, adds its mixing (model_value,
model_priors), less the options `options` fixes. An option both in a given space and
fixed is refused.

Validation: the best options and the bot's defaults each play `validate` fresh games against
the reference (deals no trial saw). The report (OUT/tune.json and OUT/tune.md) gives every
trial, the best, both validation win shares with their 95% Wilson intervals, and says
whether the best is better: only when its interval lies above the defaults' rate and the
defaults' interval below its rate (nothing is adopted here; a default changes by hand, with
the report cited)."""
from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict, dataclass, field

from gutenberg_ai.common import limits
from gutenberg_ai.common.extras import extra
from gutenberg_ai.common.words import rounds_words
from gutenberg_ai.games.records import write_json
from gutenberg_ai.tools import arena

STUDY_FILE = "study.db"
STUDY_NAME = "tune"
TRIALS_DIR = "trials"
VALIDATION_DIR = "validation"
SETTINGS_FILE = "tune-settings.json"
MAX_TRIALS = 10_000
MAX_SPACE = 32            # options in one space
MAX_CHOICES = 64          # choices of one option (each is checked by making the bot)
VALIDATION_SEED = 1_000_003   # added to the seed: the validation's deals are none a trial played
# The default space: exploration, cut-off, the priors' and the evaluation's temperatures.
DEFAULT_SPACE = {"uct_c": [0.05, 8.0, "log"], "cutoff": [0, 200],
                 "prior_temperature": [0.2, 20.0, "log"], "eval_temperature": [0.5, 50.0, "log"]}
# With a learned model, its mixing: its value at the leaves, its policy as the priors.
MODEL_SPACE = {"model_value": {"choices": [True, False]}, "model_priors": {"choices": [True, False]}}
# The bots whose options are the core's search options (SEARCH_OPTIONS).
TUNABLE_BOTS = ("ismcts", "smmcts", "learned")
INSTALL = "tuning needs Optuna: pip install -e '.[tune]'"
WEIGHT = "weights."       # a space's name for one of the evaluation's weights: weights.NAME


class TuneError(ValueError):
    """Settings or a parameter space that cannot run (named)."""


@dataclass
class TuneSettings:
    bot: str = "smmcts"
    reference: str = "heuristic"
    game: str = "gutenberg"
    players: int = 2
    trials: int = 20
    games: int = 8                 # games a trial (rotated over the seats)
    validate: int = 40             # games of each validation match
    iterations: int | None = 200
    seconds: float | None = None
    rounds: int | None = None      # None: the game's own (all its rounds)
    seed: int = 0
    space: dict = field(default_factory=dict)     # {} : DEFAULT_SPACE (+ MODEL_SPACE with a model)
    options: dict = field(default_factory=dict)   # fixed options of the tuned bot (e.g. a model)
    variant: str = ""              # Printing Press: "basic" or "advanced" ("": the game's own)
    factory_tops: bool = True      # Lead Letter Printers: the factory piles face up

    def resumable_part(self) -> dict:
        """What must stay the same to continue a study (all but trials and validate; the
        variant and the factory piles only when they are not the defaults, as studies
        from before they were settings had none)."""
        d = asdict(self)
        d.pop("trials")
        d.pop("validate")
        return arena.recorded(d, ("variant", "factory_tops"))


def space_of(s: TuneSettings) -> dict:
    """The space given, or the default one less the options fixed by `options`."""
    if s.space:
        return s.space
    default = {**DEFAULT_SPACE, **(MODEL_SPACE if s.bot == "learned" or s.options.get("model") else {})}
    return {name: spec for name, spec in default.items() if name not in s.options}


def check_space(space, known: dict) -> dict:
    """The space as {option: ("float"|"int", low, high, log) | ("choice", choices)};
    TuneError names every bad entry at once."""
    out, bad = _read_space(space, known)
    if bad:
        raise TuneError("; ".join(bad))
    return out


def _read_space(space, known: dict) -> tuple[dict, list[str]]:
    """(check_space's space of the entries that are well formed, the problems of the
    others); TuneError for a space that is not one at all."""
    if not isinstance(space, dict) or not space:
        raise TuneError("space: an object of option -> [low, high] or {\"choices\": [...]}")
    if len(space) > MAX_SPACE:
        raise TuneError(f"space: {len(space)} options (at most {MAX_SPACE})")
    out: dict[str, tuple] = {}
    bad: list[str] = []
    for name, spec in space.items():
        if name not in known:
            bad.append(f"space.{name}: not a search option (known: {', '.join(known)})")
            continue
        if isinstance(spec, dict) and set(spec) == {"choices"} and isinstance(spec["choices"], list) \
                and spec["choices"] and all(isinstance(c, (str, int, float, bool)) for c in spec["choices"]):
            if len(spec["choices"]) > MAX_CHOICES:
                bad.append(f"space.{name}: {len(spec['choices'])} choices (at most {MAX_CHOICES})")
                continue
            out[name] = ("choice", list(spec["choices"]))
            continue
        log = isinstance(spec, list) and len(spec) == 3 and spec[2] == "log"
        if not (isinstance(spec, list) and len(spec) in (2, 3) and (len(spec) == 2 or log)
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in spec[:2])):
            bad.append(f"space.{name}: {spec!r} is not [low, high], [low, high, \"log\"] or {{\"choices\": [...]}}")
            continue
        low, high = spec[0], spec[1]
        if not low < high or (log and low <= 0):
            bad.append(f"space.{name}: [{low}, {high}] is not a range (low < high{', low > 0 on a log scale' if log else ''})")
            continue
        whole = isinstance(low, int) and isinstance(high, int)
        if isinstance(known[name], bool):
            bad.append(f"space.{name}: a yes-or-no option (its default {str(known[name]).lower()}): search it "
                       'as {"choices": [true, false]}, not a range')
            continue
        if not whole and isinstance(known[name], int):
            bad.append(f"space.{name}: takes whole numbers (its default {known[name]}): give a whole low and "
                       f"high, not [{low}, {high}]")
            continue
        out[name] = ("int" if whole else "float", low, high, log)
    return out, bad


def arena_settings(s: TuneSettings, options: dict, games: int, seed: int) -> arena.ArenaSettings:
    """The arena match of one trial (or one validation): the bot with `options` against the
    reference."""
    from gutenberg_ai import games as table
    rounds = s.rounds
    if rounds is None:
        try:
            rounds = table.get(s.game).rules_module.DEFAULTS["rounds"]
        except ValueError as e:
            raise TuneError(str(e)) from None
    return arena.ArenaSettings(bots=[s.bot, s.reference], game=s.game, players=s.players, games=games,
                               seconds=s.seconds, iterations=s.iterations, rounds=rounds, seed=seed,
                               options={s.bot: bot_options(s.options, options)} if (s.options or options) else {},
                               variant=s.variant, factory_tops=s.factory_tops)


def bot_options(fixed: dict, searched: dict) -> dict:
    """The tuned bot's options: the fixed ones, and a trial's, whose `weights.NAME` go into
    the bot's `weights` beside any fixed there."""
    out = {**fixed, **{k: v for k, v in searched.items() if not k.startswith(WEIGHT)}}
    weights = {k[len(WEIGHT):]: v for k, v in searched.items() if k.startswith(WEIGHT)}
    if weights:
        out["weights"] = {**(fixed.get("weights") or {}), **weights}
    return out


def validate_settings(s: TuneSettings) -> dict:
    """Every setting and the space (each option's bounds checked by making the bot at both
    ends) before any game; the checked space."""
    for name, highest in (("trials", MAX_TRIALS), ("games", limits.MAX_GAMES), ("validate", limits.MAX_GAMES)):
        try:
            limits.check_whole(getattr(s, name), name, 1, highest)
        except ValueError as e:
            raise TuneError(str(e)) from None
    if not isinstance(s.options, dict):
        raise TuneError('options: an object of the tuned bot\'s fixed options, e.g. {"model": "default"}')
    if s.bot == s.reference:
        raise TuneError(f"reference: {s.reference!r} is the tuned bot itself")
    try:
        limits.check_whole(s.seed, "seed", 0, limits.MAX_SEED - VALIDATION_SEED)
        arena.validate(arena_settings(s, {}, s.games, s.seed))
    except ValueError as e:
        raise TuneError(str(e)) from None
    # The well-formed entries' ends are checked beside the other entries' problems.
    space, bad = _read_space(space_of(s), search_options(s))
    given = s.options.get("weights")
    fixed_weights: dict = given if isinstance(given, dict) else {}
    bad += [f"space.{name}: also a fixed option (options.{name}); an option is searched or fixed, not both"
            for name in space if name in s.options or (name.startswith(WEIGHT) and name[len(WEIGHT):] in fixed_weights)]
    for name, spec in space.items():     # each option's ends (or choices) as the bot takes them
        for value in (spec[1] if spec[0] == "choice" else spec[1:3]):
            try:
                arena.validate(arena_settings(s, {name: value}, s.games, s.seed))
            except ValueError as e:
                bad.append(f"space.{name}: {value!r}: {e}")
    if bad:
        raise TuneError("; ".join(bad))
    return space


def search_options(s: TuneSettings) -> dict:
    """The tuned bot's search options with their defaults (its game core's SEARCH_OPTIONS),
    and the evaluation's named weights as `weights.NAME` where the game has them."""
    from gutenberg_ai import games
    if s.bot not in TUNABLE_BOTS:
        raise TuneError(f"bot: {s.bot!r} has no search options to tune (the searches that have: "
                        f"{', '.join(TUNABLE_BOTS)})")
    core = games.get(s.game).core
    # The weights a search starts from: the core's, with the game's searches' own over them.
    weights = {**core.heuristic_weights(), **(games.search_weights(core) or {})} \
        if hasattr(core, "HEURISTIC_WEIGHTS") else {}
    return {**core.SEARCH_OPTIONS, **{WEIGHT + name: value for name, value in weights.items()}}


def suggest(trial, space: dict) -> dict:
    out = {}
    for name, spec in space.items():
        if spec[0] == "choice":
            out[name] = trial.suggest_categorical(name, spec[1])
        elif spec[0] == "int":
            out[name] = trial.suggest_int(name, spec[1], spec[2], log=spec[3])
        else:
            out[name] = trial.suggest_float(name, spec[1], spec[2], log=spec[3])
    return out


def win_share(summary: dict, bot: str) -> dict:
    row = next(r for r in summary["standings"] if r["bot"] == bot)
    return {k: row[k] for k in ("games", "wins", "win_rate", "win_rate_low", "win_rate_high")}


def check_resume(out: str, s: TuneSettings):
    path = os.path.join(out, SETTINGS_FILE)
    if os.path.exists(path):
        with open(path) as f:
            before = json.load(f)
        if before != s.resumable_part():
            changed = sorted(k for k in set(before) | set(s.resumable_part())
                             if before.get(k) != s.resumable_part().get(k))
            raise TuneError(f"out: {out} holds a study with other settings ({', '.join(changed)}); "
                            "use another --out or the same settings")
    os.makedirs(out, exist_ok=True)
    write_json(path, s.resumable_part())


def trial_folder(out: str, options: dict) -> str:
    """Where the games of a trial with these options go: named by the options, so that a
    trial interrupted and asked again finds the games it had played."""
    digest = hashlib.sha256(json.dumps(options, sort_keys=True).encode()).hexdigest()[:16]
    return os.path.join(out, TRIALS_DIR, digest)


def sampler_seed(seed: int, asked: int) -> int:
    """The sampler's seed for a run that finds `asked` trials in the study (numpy's
    generators take 32 bits)."""
    return (seed * 1_000_003 + asked) % 2**32


def run_tune(s: TuneSettings, out: str, jobs: int = 1, progress=None, ray=None) -> dict:
    """Run the trials not yet in OUT's study, validate the best, write OUT/tune.json and
    OUT/tune.md; returns the report."""
    space = validate_settings(s)
    arena.check_count(jobs, "jobs", limits.MAX_JOBS)
    optuna = extra("optuna", TuneError, INSTALL)
    check_resume(out, s)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name=STUDY_NAME, storage=f"sqlite:///{os.path.join(out, STUDY_FILE)}",
                                direction="maximize", load_if_exists=True)
    # The sampler's generator is not kept in the study: seeded by the seed alone, a study
    # extended or resumed would ask its first trials' options again. Seeded by the seed
    # and the trials already asked, each run asks new ones, the same for the same runs.
    study.sampler = optuna.samplers.TPESampler(seed=sampler_seed(s.seed, len(study.trials)))
    complete = optuna.trial.TrialState.COMPLETE
    # A trial an earlier run left unfinished (interrupted) is closed as failed and its
    # options asked again first: their games, kept under the options' folder, are found.
    for stale in study.get_trials(states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(stale.number, state=optuna.trial.TrialState.FAIL)
        study.enqueue_trial(stale.params)
    while len(study.get_trials(states=(complete,))) < s.trials:
        trial = study.ask()
        options = suggest(trial, space)
        played = arena.run_arena(arena_settings(s, options, s.games, s.seed), trial_folder(out, options), jobs,
                                 ray=ray, plots=False)
        study.tell(trial, win_share(played, s.bot)["win_rate"])
        if progress:
            progress(len(study.get_trials(states=(complete,))), s.trials)
    trials = [dict(number=t.number, options=t.params, win_rate=t.value)
              for t in study.get_trials(states=(complete,))]
    best = max(trials, key=lambda t: (t["win_rate"], -t["number"]))
    seed = s.seed + VALIDATION_SEED
    validation = {}
    for name, options in (("best", best["options"]), ("defaults", {})):
        played = arena.run_arena(arena_settings(s, options, s.validate, seed),
                                 os.path.join(out, VALIDATION_DIR, name), jobs, ray=ray, plots=False)
        validation[name] = win_share(played, s.bot)
    report = dict(settings=asdict(s), space={k: list(v) for k, v in space.items()}, trials=trials, best=best,
                  validation=validation, better=better(validation["best"], validation["defaults"]))
    write_json(os.path.join(out, "tune.json"), report)
    with open(os.path.join(out, "tune.md"), "w") as f:
        f.write(report_markdown(report))
    return report


def better(best: dict, defaults: dict) -> bool:
    """The validation shows the best better than the defaults: each rate outside the
    other's 95% interval, in the best's favour."""
    return best["win_rate_low"] > defaults["win_rate"] and defaults["win_rate_high"] < best["win_rate"]


def report_markdown(r: dict) -> str:
    s = r["settings"]
    budget = f"{s['iterations']} iterations" if s["iterations"] else f"{s['seconds']} s"
    rounds = rounds_words(s["rounds"])
    reading = ((f", the {s['variant']} variant" if s.get("variant") else "")
               + (f", {arena.FACE_DOWN}" if s.get("factory_tops") is False else ""))
    lines = [f"# Tuning {s['bot']} against {s['reference']} ({s['game']}, {s['players']} players, {rounds}{reading})",
             "", f"{len(r['trials'])} trials of {s['games']} games each, {budget} a move, seed {s['seed']}; "
             f"validation: {s['validate']} games on fresh deals for the best and for the defaults.", "",
             "| trial | win share | options |", "|---:|---:|---|"]
    for t in sorted(r["trials"], key=lambda t: -t["win_rate"]):
        shown = ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(t["options"].items()))
        lines.append(f"| {t['number']} | {t['win_rate']:.3f} | {shown} |")
    lines += ["", "| validation | games | win share | 95% interval |", "|---|---:|---:|---|"]
    for name, v in r["validation"].items():
        lines.append(f"| {name} | {v['games']} | {v['win_rate']:.3f} | {v['win_rate_low']:.3f}-{v['win_rate_high']:.3f} |")
    verdict = ("The best is better than the defaults in the validation." if r["better"] else
               "The validation does not show the best better than the defaults: nothing to adopt.")
    return "\n".join(lines + ["", verdict, ""])
