"""The search options: every setting the two engines take, each listed once.

``SearchOptions`` is frozen and checks itself when built, so a bad value is
refused with the option's name, what was given and what is accepted, whichever
entry point (``make_bot``, ``search()``, a ``Searcher``) built it. Both engines
read the same object: the Python ``Searcher`` and the native ``NativeSearcher``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bots.keys import KeyFunction
from bots.probcut import ProbCutSettings

ALGORITHMS = ("expectiminimax", "star1", "star2", "chanceprobcut")
PROBING_ORDERS = ("cyclic", "sequential")
_PROBING_ALGORITHMS = ("star2", "chanceprobcut")


def check_number(
    name: str, value: Any, *, integer: bool, minimum: float, allow_none: bool = False
) -> None:
    """Refuses a value that is not a number (an integer) >= ``minimum``, naming it."""
    if value is None and allow_none:
        return
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or value < minimum:
        what = "an integer" if integer else "a number"
        raise ValueError(
            f"{name} must be {what} >= {minimum}"
            + (" or none" if allow_none else "")
            + f", got {value!r}"
        )


def check_flag(name: str, value: Any) -> None:
    """Refuses a value that is not a bool, naming it."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")


@dataclasses.dataclass(frozen=True)
class StudySwitches:
    """Switches that exist for the node-reduction studies, not as bot features.

    Each changes how many nodes a search visits (never its value, except
    ``deeper_cutoffs``); the studies keep them as the papers counted, and the
    bots' per-game defaults (``bots.factory.GAME_DEFAULTS``) turn some on.
    """

    # The full search reuses a probe's result where it decides the new window;
    # False re-searches it, as Ballard's tables count.
    reuse_probes: bool = True
    # Table entries searched deeper than asked may decide too; the value is then
    # no longer the fixed-depth value the studies compare.
    deeper_cutoffs: bool = False
    # Star2 (k=1) probes only while a probe cut is still reachable; the studies
    # keep Ballard's probe-every-child phase.
    reachable_probes: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            check_flag(field.name, getattr(self, field.name))


STUDY_SWITCHES = tuple(field.name for field in dataclasses.fields(StudySwitches))


@dataclasses.dataclass(frozen=True)
class SearchOptions:
    """How one searcher searches; game-independent (the evaluator is resolved per game).

    ``probing_factor`` None resolves to 1 where the algorithm probes (star2,
    chanceprobcut) and to 0 elsewhere. ``samples`` makes the search MCMS: Star2
    on chance nodes sampled with ``seed``.
    """

    algorithm: str = "star2"
    # A registry name, an evaluator object, or None for the game's default.
    evaluator: Any = None
    # Transposition-table entries; 0 searches without a table.
    tt_size: int = 0
    # Table move first, history heuristic, chance outcomes by descending probability.
    move_ordering: bool = True
    # The history heuristic orders moves from this remaining depth up.
    history_min_depth: int = 2
    # Moves the table does not know, at depth >= 2, ordered by the evaluator.
    static_ordering: bool = False
    # Successors probed per decision child (Ballard's Star2.5; 1 is Star2, 0 Star1).
    probing_factor: int | None = None
    probing: str = "cyclic"
    # ChanceProbCut's calibrated models (chanceprobcut only).
    probcut: ProbCutSettings | None = None
    # Known (L, U) on every leaf value for the searching player, overriding the evaluator's.
    bounds: tuple[float, float] | None = None
    # A custom table key (Python engine only); None keys by the game.
    key_fn: KeyFunction | None = None
    # MCMS: outcomes drawn per chance node, and the seed of the draws.
    samples: int | None = None
    seed: int = 0
    study: StudySwitches = StudySwitches()

    def __post_init__(self) -> None:
        algorithm = self.algorithm
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}")
        if algorithm == "chanceprobcut" and self.probcut is None:
            raise ValueError("chanceprobcut needs ProbCutSettings (a calibration)")
        check_number("tt_size", self.tt_size, integer=True, minimum=0)
        check_flag("move_ordering", self.move_ordering)
        check_flag("static_ordering", self.static_ordering)
        check_number("history_min_depth", self.history_min_depth, integer=True, minimum=1)
        _probing_factor(algorithm, self.probing_factor)
        if self.probing not in PROBING_ORDERS:
            raise ValueError(
                f"unknown probing {self.probing!r}; accepted: {', '.join(PROBING_ORDERS)}"
            )
        if self.bounds is not None:
            low, high = (float(x) for x in self.bounds)
            if not low <= high:
                raise ValueError(f"bounds must satisfy L <= U, got {self.bounds!r}")
            object.__setattr__(self, "bounds", (low, high))
        if self.samples is not None:
            check_number("samples", self.samples, integer=True, minimum=1)
            if algorithm != "star2":
                raise ValueError(
                    f"samples makes the search MCMS, which is Star2 on sampled chance "
                    f"nodes: it needs algorithm star2, got {algorithm!r}"
                )
        check_number("seed", self.seed, integer=True, minimum=0)

    @classmethod
    def create(cls, algorithm: str = "star2", **settings: Any) -> SearchOptions:
        """From flat settings, as specs and ``search()`` name them (study switches too)."""
        study = {name: settings.pop(name) for name in STUDY_SWITCHES if name in settings}
        return cls(algorithm, **settings, study=StudySwitches(**study))

    @property
    def name(self) -> str:
        """The algorithm as bots, statistics and the native engine name it."""
        return "mcms" if self.samples is not None else self.algorithm

    @property
    def probes_per_child(self) -> int:
        """The probing factor k, resolved (see the class docstring)."""
        return _probing_factor(self.algorithm, self.probing_factor)


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
    if isinstance(probing_factor, bool) or not isinstance(probing_factor, int):
        raise ValueError(f"probing_factor must be an integer >= 0, got {probing_factor!r}")
    if probing_factor < 0:
        raise ValueError(f"probing_factor must be an integer >= 0, got {probing_factor}")
    if not probes and probing_factor > 0:
        raise ValueError(
            f"{algorithm} does not probe; probing_factor applies to star2 and chanceprobcut"
        )
    return probing_factor
