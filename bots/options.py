"""Every search option and bot parameter, declared once, with its check.

One ``Setting`` row per parameter: its name, type, default, accepted range or
choices, the bots that take it and a one-line meaning. The rows are the fields
of ``SearchOptions`` and ``StudySwitches`` (each field carries its row: read
them with ``option_settings()``) and ``BOT_SETTINGS``, the bots' own parameters
(the clock, the engine, ChanceProbCut's calibration, MCTS's and the random
bot's). Everything else derives from them: the checks and their messages
(``Setting.check``), the names each bot accepts (``accepted``), the bots'
per-game defaults (``GAME_DEFAULTS``, from the games' adapters in bots/adapters/,
which this module names none of), the settings the native engine receives
(``SearchOptions.native_settings`` and ``NATIVE_INPUTS``), the C++ engine's list of
them with their types (bots/native/search_settings.h, ``python -m bots.native_header``)
and the parameter tables of docs/guide/bots.md (``python -m bots.settings_docs``).

``SearchOptions`` is frozen and checks itself when built, so a bad value is
refused with the option's name, what was given and what is accepted, whichever
entry point (``make_bot``, ``search()``, a ``StarSearcher``) built it. Both engines
read the same object: the Python ``StarSearcher`` and the native ``NativeSearcher``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from bots.adapters import setting_defaults
from bots.keys import KeyFunction
from bots.mcts import MCTS_EVALUATORS
from bots.probcut_models import ProbCutSettings

ALGORITHMS = ("expectiminimax", "star1", "star2", "chanceprobcut")
SEARCH_BOTS = ("expectiminimax", "star1", "star2", "chanceprobcut", "mcms")
YARDSTICKS = ("gnubg",)  # external programs as bots (bots/yardsticks/)
BOT_NAMES = SEARCH_BOTS + ("mcts", "random") + YARDSTICKS
PROBING_ORDERS = ("cyclic", "sequential")
MULTIPLAYER_MODELS = ("paranoid", "maxn")
ENGINES = ("auto", "native", "python")
_PROBING_ALGORITHMS = ("star2", "chanceprobcut")
_STAR2_BOTS = ("star2", "mcms")  # Ballard's Star2.5 parameters
_REACHABLE_BOTS = ("star2", "chanceprobcut", "mcms")

# Where a row's value goes: a bot's own parameter, ChanceProbCut's calibration (read
# into SearchOptions.probcut), a SearchOptions field, or a StudySwitches field.
LEVELS = ("bot", "calibration", "search", "study")


@dataclasses.dataclass(frozen=True)
class GameDefault:
    """Some bots' default for one setting in some games, and the measurement behind it: the
    games' adapters' ``SettingDefault`` entries with the same bots, value and reason, in one."""

    bots: tuple[str, ...]
    games: tuple[str, ...]
    value: Any
    reason: str


@dataclasses.dataclass(frozen=True)
class Setting:
    """One parameter: what it is, what it accepts, who takes it and what it means."""

    name: str
    # int, number, bool, choice; object: checked where it is used (accepts says what).
    kind: str
    default: Any
    meaning: str
    bots: tuple[str, ...] = ()  # the make_bot names that take it; () for SearchOptions only
    level: str = "search"
    minimum: int | float | None = None
    above: bool = False  # the minimum itself is refused
    none: bool = False  # None is accepted too
    choices: tuple[str, ...] = ()
    accepts_text: str = ""  # object kinds: what is accepted, in words
    # The C++ type the native engine reads it as, under its own name ("": not sent);
    # bots/native/search_settings.h is generated from it (python -m bots.native_header).
    native: str = ""
    bot_default: Any = None  # make_bot's default where it differs from ``default``
    default_text: str = ""  # the default in words, where a value cannot say it
    hint: str = ""  # appended to a refused choice

    @property
    def game_defaults(self) -> tuple[GameDefault, ...]:
        """The row's per-game defaults, as the games' adapters register them (bots/adapters/)."""
        merged: dict[tuple[Any, ...], list[str]] = {}
        for game, entry in setting_defaults(self.name):
            if set(entry.bots) <= set(self.bots):
                merged.setdefault((entry.bots, entry.value, entry.reason), []).append(game)
        return tuple(
            GameDefault(bots, tuple(games), value, reason)
            for (bots, value, reason), games in merged.items()
        )

    @property
    def accepts(self) -> str:
        """What the setting accepts, in words, as its error message and the docs say it."""
        if self.kind in ("int", "number"):
            what = "an integer" if self.kind == "int" else "a number"
            text = f"{what} {'>' if self.above else '>='} {self.minimum}"
        elif self.kind == "bool":
            text = "true or false"
        elif self.kind == "choice":
            text = ", ".join(self.choices)
        else:
            text = self.accepts_text
        return text + (" or none" if self.none and self.kind != "object" else "")

    def check(self, value: Any) -> None:
        """Refuses a value outside the row's range, naming the setting and what it accepts."""
        if value is None and self.none:
            return
        if self.kind in ("int", "number"):
            kind = int if self.kind == "int" else (int, float)
            minimum = cast(float, self.minimum)
            if (
                isinstance(value, bool)
                or not isinstance(value, kind)
                or not (value > minimum if self.above else value >= minimum)
            ):
                raise ValueError(f"{self.name} must be {self.accepts}, got {value!r}")
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be true or false, got {value!r}")
        elif self.kind == "choice" and value not in self.choices:
            raise ValueError(
                f"unknown {self.name} {value!r}; accepted: {', '.join(self.choices)}"
                + (f" ({self.hint})" if self.hint else "")
            )

    def default_for(self, bot: str, game: str) -> Any:
        """The value ``bot`` uses in ``game`` when its spec does not set it."""
        for entry in self.game_defaults:
            if bot in entry.bots and game in entry.games:
                return entry.value
        return self.default if self.bot_default is None else self.bot_default


_ROW = "setting"
_T = TypeVar("_T")


def _option(default: _T, kind: str, meaning: str, **row: Any) -> _T:
    """A dataclass field whose metadata is its row (named after the field by ``_rows``)."""
    setting = Setting("", kind, default, meaning, **row)
    return cast(_T, dataclasses.field(default=default, metadata={_ROW: setting}))


_ROWS: dict[type, tuple[Setting, ...]] = {}


def _rows(cls: type, level: str) -> tuple[Setting, ...]:
    """The rows of a dataclass's fields, named after them (built once per class)."""
    rows = _ROWS.get(cls)
    if rows is None:
        rows = _ROWS[cls] = tuple(
            dataclasses.replace(field.metadata[_ROW], name=field.name, level=level)
            for field in dataclasses.fields(cls)
            if _ROW in field.metadata
        )
    return rows


def _check_fields(instance: Any, level: str) -> None:
    for row in _rows(type(instance), level):
        row.check(getattr(instance, row.name))


@dataclasses.dataclass(frozen=True)
class StudySwitches:
    """Switches that exist for the node-reduction studies, not as bot features.

    Each changes how many nodes a search visits (never its value, except
    ``deeper_cutoffs``); the studies keep them as the papers counted, and the
    bots' per-game defaults (``GAME_DEFAULTS``, from the games' adapters) turn some on.
    """

    reuse_probes: bool = _option(
        True,
        "bool",
        "the full search reuses a probe's result where it decides the new window; "
        "false re-searches it, as Ballard's tables count",
        native="bool",
    )
    deeper_cutoffs: bool = _option(
        False,
        "bool",
        "table entries searched deeper than the node's remaining depth may decide too; "
        "the value is then no longer the fixed-depth one",
        bots=SEARCH_BOTS,
        native="bool",
    )
    reachable_probes: bool = _option(
        False,
        "bool",
        "Star2 (k=1) probes only while a probe cut is still reachable; the studies keep "
        "Ballard's probe-every-child phase",
        bots=_REACHABLE_BOTS,
        native="bool",
    )

    def __post_init__(self) -> None:
        _check_fields(self, "study")


@dataclasses.dataclass(frozen=True)
class SearchOptions:
    """How one searcher searches; game-independent (the evaluator is resolved per game).

    ``probing_factor`` None resolves to 1 where the algorithm probes (star2,
    chanceprobcut) and to 0 elsewhere. ``samples`` makes the search MCMS: Star2
    on chance nodes sampled with ``seed``.
    """

    algorithm: str = _option(
        "star2",
        "choice",
        "the algorithm (a bot's name picks it; mcms is star2 with samples)",
        choices=ALGORITHMS,
    )
    evaluator: Any = _option(
        None,
        "object",
        "the leaf evaluator",
        bots=SEARCH_BOTS,
        accepts_text="a registry name (`default`, `zero`, `rollout(n=10,seed=0)`, `learned`, "
        "`learned(path=FILE)`, a game name) or an evaluator object",
        default_text="the game's heuristic",
    )
    tt_size: int = _option(
        0,
        "int",
        "transposition-table entries; 0 searches without a table",
        bots=SEARCH_BOTS,
        minimum=0,
        native="std::int64_t",
        bot_default=100_000,
    )
    move_ordering: bool = _option(
        True,
        "bool",
        "table move first, history heuristic, chance outcomes by descending probability",
        bots=SEARCH_BOTS,
        native="bool",
    )
    history_min_depth: int = _option(
        2,
        "int",
        "the smallest remaining depth at which the history heuristic orders moves",
        bots=SEARCH_BOTS,
        minimum=1,
        native="int",
    )
    static_ordering: bool = _option(
        False,
        "bool",
        "at depth >= 2, moves the table knows nothing about are ordered by the "
        "evaluator's value of the position after them",
        bots=SEARCH_BOTS,
        native="bool",
    )
    probing_factor: int | None = _option(
        None,
        "int",
        "successors probed per decision child (Ballard's Star2.5); 1 is Star2, 0 Star1",
        bots=_STAR2_BOTS,
        minimum=0,
        none=True,
        native="int",
        default_text="1 where the algorithm probes, else 0",
    )
    probing: str = _option(
        "cyclic",
        "choice",
        "Star2.5's probing order: in rounds over the children, or child by child",
        bots=_STAR2_BOTS,
        choices=PROBING_ORDERS,
        native="Probing",
    )
    probcut: ProbCutSettings | None = _option(
        None,
        "object",
        "ChanceProbCut's calibrated models (make_bot reads them from R, t and calibration)",
        accepts_text="ProbCutSettings; needed by chanceprobcut",
    )
    bounds: tuple[float, float] | None = _option(
        None,
        "object",
        "known (L, U) on every leaf value for the searching player, overriding the evaluator's",
        accepts_text="a pair L <= U, or none",
    )
    key_fn: KeyFunction | None = _option(
        None,
        "object",
        "a custom table key (Python engine only); none keys by the game",
        accepts_text="a function of a state, or none",
    )
    multiplayer: str = _option(
        "paranoid",
        "choice",
        "games of 3+ players: paranoid (the others minimise the bot's utility; every cut "
        "applies) or maxn (each maximises its own; shallow pruning only); maxn is refused "
        "for 1-2 players",
        bots=SEARCH_BOTS,
        choices=MULTIPLAYER_MODELS,
        native="Multiplayer",
        hint="docs/guide/multiplayer.md",
    )
    samples: int | None = _option(
        None,
        "int",
        "MCMS: outcomes drawn per sampled chance node; none enumerates them all",
        bots=("mcms",),
        minimum=1,
        none=True,
        bot_default=5,
    )
    seed: int = _option(
        0,
        "int",
        "MCMS: the seed of the draws (make_bot's mcms: its seed, 0 if none)",
        minimum=0,
    )
    study: StudySwitches = StudySwitches()

    def __post_init__(self) -> None:
        _check_fields(self, "search")
        algorithm = self.algorithm
        if algorithm == "chanceprobcut" and self.probcut is None:
            raise ValueError("chanceprobcut needs ProbCutSettings (a calibration)")
        _probing_factor(algorithm, self.probing_factor)
        if self.bounds is not None:
            low, high = (float(x) for x in self.bounds)
            if not low <= high:
                raise ValueError(f"bounds must satisfy L <= U, got {self.bounds!r}")
            object.__setattr__(self, "bounds", (low, high))
        if self.samples is not None and algorithm != "star2":
            raise ValueError(
                f"samples makes the search MCMS, which is Star2 on sampled chance "
                f"nodes: it needs algorithm star2, got {algorithm!r}"
            )

    @classmethod
    def create(cls, algorithm: str = "star2", **settings: Any) -> SearchOptions:
        """From flat settings, as specs and ``search()`` name them (study switches too)."""
        study = {row.name: settings.pop(row.name) for row in _study_rows() if row.name in settings}
        return cls(algorithm, **settings, study=StudySwitches(**study))

    @property
    def name(self) -> str:
        """The algorithm as bots, statistics and the native engine name it."""
        return "mcms" if self.samples is not None else self.algorithm

    @property
    def probes_per_child(self) -> int:
        """The probing factor k, resolved (see the class docstring)."""
        return _probing_factor(self.algorithm, self.probing_factor)

    def native_settings(self) -> dict[str, Any]:
        """The rows marked native, by name, as the native engine reads them (k resolved)."""
        settings = {}
        for row in option_settings():
            if row.native:
                owner = self.study if row.level == "study" else self
                settings[row.name] = getattr(owner, row.name)
        settings["probing_factor"] = self.probes_per_child
        return settings


def _study_rows() -> tuple[Setting, ...]:
    return _rows(StudySwitches, "study")


def option_settings() -> tuple[Setting, ...]:
    """The rows of ``SearchOptions``' fields, then of ``StudySwitches``'."""
    return _rows(SearchOptions, "search") + _study_rows()


# What the native engine reads besides the native rows: the search's own inputs,
# resolved per game by bots/native_searcher.py's native_settings, as (C++ type, meaning).
NATIVE_INPUTS: Mapping[str, tuple[str, str]] = {
    "algorithm": ("std::string", "the algorithm's name (mcms where samples is set)"),
    "player": ("int", "the searching player"),
    "lower_bound": ("double", "L, from the bounds or the evaluator"),
    "upper_bound": ("double", "U, likewise"),
    "key_kind": ("KeyKind", "how states are keyed: digest, scheme, python_state or callback"),
    "key_text": (
        "TextFunction",
        "callback keys: a position's table key text (equal exactly when positions are), else none",
    ),
    "sampling_text": ("TextFunction", "callback keys: a position's MCMS seed text, else none"),
    "use_undo": (
        "bool",
        "search in place by ApplyAction and UndoAction (C++ states only); false clones every "
        "child, as OpenSpiel's own searches do",
    ),
    "probcut_reduction": ("int", "ChanceProbCut's R; 0 without ChanceProbCut"),
    "probcut_t": ("double", "ChanceProbCut's confidence t"),
    "probcut_models": ("ProbCutModels", "ChanceProbCut's models by depth: [a, b, sigma, *mover]"),
    "samples": ("int", "MCMS's draws per chance node; 0 without sampling"),
    "maxn_bounds": (
        "std::vector<double>",
        "max^n: [L, U] on every component of a leaf's value vector",
    ),
    "maxn_sum": (
        "std::vector<double>",
        "max^n: [S, tolerance, offset] of a constant-sum game's shallow pruning; [] without it",
    ),
    "sampling_seed": ("std::uint64_t", "MCMS's seed"),
}


def native_setting_types() -> tuple[tuple[str, str, str], ...]:
    """(name, C++ type, meaning) of every setting the native engine reads, in its order."""
    rows = tuple((row.name, row.native, row.meaning) for row in option_settings() if row.native)
    return rows + tuple((name, kind, meaning) for name, (kind, meaning) in NATIVE_INPUTS.items())


def native_setting_names() -> tuple[str, ...]:
    """Every name in the settings dict of ``bots._native.Searcher``."""
    return tuple(name for name, _, _ in native_setting_types())


# ChanceProbCut's t where no per-game default sets one: where it was measured on a
# game without one, t changed neither speed nor depth (docs/guide/chanceprobcut.md#choosing-t).
_T_SECTION = "docs/guide/chanceprobcut.md#choosing-t"

BOT_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "max_depth",
        "int",
        None,
        "decision plies; with no time_limit the bot searches exactly this deep",
        SEARCH_BOTS,
        "bot",
        minimum=1,
        none=True,
    ),
    Setting(
        "time_limit",
        "number",
        None,
        "seconds per move; iterative deepening to max_depth (or 100)",
        SEARCH_BOTS,
        "bot",
        minimum=0,
        above=True,
        none=True,
        bot_default=1.0,
        default_text="1.0 if max_depth is none too",
    ),
    Setting(
        "seed",
        "int",
        None,
        "seeds the fallback move when not even depth 1 finishes; mcms: also its draws",
        SEARCH_BOTS,
        "bot",
        minimum=0,
        none=True,
        default_text="none (mcms: 0)",
    ),
    Setting(
        "partial_iteration",
        "bool",
        True,
        "under time_limit, play the best root move the unfinished iteration searched "
        "completely; false plays the deepest completed iteration's move",
        SEARCH_BOTS,
        "bot",
    ),
    Setting(
        "engine",
        "choice",
        "auto",
        "which engine searches (auto: native where the game and evaluator allow); "
        'last_search["engine"] says which ran',
        SEARCH_BOTS,
        "bot",
        choices=ENGINES,
    ),
    Setting(
        "R",
        "int",
        None,
        "ChanceProbCut's depth reduction",
        ("chanceprobcut",),
        "calibration",
        minimum=1,
        none=True,
        default_text="2 where calibrated, else the smallest R in the file",
    ),
    Setting(
        "t",
        "number",
        1.5,
        f"ChanceProbCut's confidence ([how t was chosen]({_T_SECTION.removeprefix('docs/guide/')}))",
        ("chanceprobcut",),
        "calibration",
        minimum=0,
    ),
    Setting(
        "calibration",
        "object",
        None,
        "ChanceProbCut's calibration JSON",
        ("chanceprobcut",),
        "calibration",
        accepts_text="a path, or none",
        default_text="yours, the committed one, else a self-calibration",
    ),
    Setting(
        "uct_c",
        "number",
        2.0,
        "UCT's exploration constant",
        ("mcts",),
        "bot",
        minimum=0,
    ),
    Setting(
        "max_simulations",
        "int",
        1000,
        "simulations per move",
        ("mcts",),
        "bot",
        minimum=1,
        default_text="1000 (with time_limit and no max_simulations: the clock alone decides)",
    ),
    Setting(
        "time_limit",
        "number",
        None,
        "seconds per move, checked between simulations",
        ("mcts",),
        "bot",
        minimum=0,
        above=True,
        none=True,
    ),
    Setting(
        "rollouts",
        "int",
        1,
        "random rollouts per leaf",
        ("mcts",),
        "bot",
        minimum=1,
    ),
    Setting(
        "max_memory_mb",
        "int",
        1000,
        "the tree's memory cap (C++ MCTS only)",
        ("mcts",),
        "bot",
        minimum=1,
    ),
    Setting(
        "solve",
        "bool",
        True,
        "MCTS-Solver: proven values back up exactly",
        ("mcts",),
        "bot",
    ),
    Setting("seed", "int", 0, "seeds the search", ("mcts",), "bot", minimum=0),
    Setting(
        "evaluator",
        "object",
        "rollout",
        "how leaves are valued: random rollouts, the game's heuristic (the fair MCTS), or a "
        "learned model",
        ("mcts",),
        "bot",
        accepts_text=" or ".join(f"`{name}`" for name in MCTS_EVALUATORS),
    ),
    Setting("seed", "int", None, "seeds the moves", ("random",), "bot", minimum=0, none=True),
    Setting(
        "plies",
        "int",
        0,
        "gnubg's own lookahead: 0, 1 or 2 plies (gnubg's 2-ply is its 'world class')",
        ("gnubg",),
        "bot",
        minimum=0,
    ),
    Setting(
        "noise",
        "number",
        0.0,
        "gnubg's evaluation noise (deterministic per position); 0 plays its best move",
        ("gnubg",),
        "bot",
        minimum=0,
    ),
    Setting(
        "timeout",
        "number",
        60.0,
        "seconds gnubg may take to answer before the bot stops it and raises",
        ("gnubg",),
        "bot",
        minimum=0,
        above=True,
    ),
    Setting(
        "path",
        "object",
        None,
        "the gnubg program",
        ("gnubg",),
        "bot",
        accepts_text="a path, or none",
        default_text="/usr/games/gnubg",
    ),
)


@functools.cache
def bot_settings(bot: str) -> Mapping[str, Setting]:
    """The rows ``bot`` takes, by name, in table order (bot's own rows first)."""
    rows: dict[str, Setting] = {}
    for row in BOT_SETTINGS + option_settings():
        if bot in row.bots:
            if row.name in rows:
                raise AssertionError(f"two rows named {row.name!r} for bot {bot!r}")
            rows[row.name] = row
    return rows


def accepted(bot: str) -> tuple[str, ...]:
    """The parameter names ``bot`` accepts, sorted (make_bot's "accepted: ..." list)."""
    return tuple(sorted(bot_settings(bot)))


def _game_defaults() -> dict[str, dict[str, dict[str, Any]]]:
    defaults: dict[str, dict[str, dict[str, Any]]] = {}
    for row in BOT_SETTINGS + option_settings():
        for entry in row.game_defaults:
            for bot in entry.bots:
                for game in entry.games:
                    defaults.setdefault(bot, {}).setdefault(game, {})[row.name] = entry.value
    return defaults


# Per bot and game, settings that made the bot complete its depths sooner; a spec's own
# parameters still win, and the engine's defaults stay off so the studies' counts stay.
# One reason each, in the games' adapters (bots/adapters/<game>.py). (No probing factor
# k > 1 paid in any game: docs/guide/bots.md#per-game-defaults-and-why.)
GAME_DEFAULTS: Mapping[str, Mapping[str, Mapping[str, Any]]] = _game_defaults()


def as_options(options: SearchOptions | str, settings: dict[str, Any]) -> SearchOptions:
    """``options`` itself, or built from an algorithm name and flat ``settings``."""
    if isinstance(options, SearchOptions):
        if settings:
            raise TypeError(
                f"pass either SearchOptions or settings, not both: {', '.join(sorted(settings))}"
            )
        return options
    return SearchOptions.create(options, **settings)


def _probing_factor(algorithm: str, probing_factor: Any) -> int:
    """Star2's probing factor k: 1 unless given; only star2 and chanceprobcut probe."""
    probes = algorithm in _PROBING_ALGORITHMS
    if probing_factor is None:
        return 1 if probes else 0
    if not probes and probing_factor > 0:
        raise ValueError(
            f"{algorithm} does not probe; probing_factor applies to star2 and chanceprobcut"
        )
    return int(probing_factor)
