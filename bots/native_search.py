"""The native engine behind the Python Searcher's interface, and the engine choice.

``NativeSearcher`` takes exactly the Python ``Searcher``'s (and ``MCMSSearcher``'s)
arguments, validates them by building that reference searcher's settings, and runs
``bots._native.Searcher``: the same algorithms over ``open_spiel::State`` with the
same counters. ``make_searcher`` picks the engine: ``auto`` runs native where the
extension is built, the game is a C++ game and the evaluator has a native twin, and
the Python engine otherwise; ``native`` runs native wherever the extension is built,
calling a Python game or evaluator back; ``python`` runs the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyspiel

from bots import native_engine
from bots.keys import history_key
from bots.mcms import MCMS_STAT_KEYS, MCMSSearcher, canonical_text
from bots.search import STAT_KEYS, LeafValueOutOfBounds, Searcher, SearchTimeout

ENGINES = ("auto", "native", "python")


def is_cpp_game(game: pyspiel.Game) -> bool:
    """Whether the game's states are C++ states (not a game registered from Python)."""
    return type(game.new_initial_state()).__module__.split(".")[0] == "pyspiel"


def native_evaluator_name(evaluator: Any) -> str | None:
    """The native twin of a built-in evaluator, if the extension has it."""
    module = native_engine.native()
    name = getattr(type(evaluator), "native_name", None)
    if module is None or not isinstance(name, str) or name not in module.evaluator_names():
        return None
    return name


class TableSize:
    """What the Python engine's table answers to outside the engine: its length."""

    def __init__(self, searcher: Any):
        self._searcher = searcher

    def __len__(self) -> int:
        return int(self._searcher.table_size)


class NativeSearcher:
    """A ``Searcher`` (or ``MCMSSearcher`` with ``samples``) run by the native engine."""

    engine = "native"

    def __init__(
        self,
        game: pyspiel.Game,
        player: int,
        algorithm: str = "star2",
        *,
        samples: int | None = None,
        seed: int = 0,
        **kwargs: Any,
    ):
        module = native_engine.require()
        if kwargs.get("key_fn") is not None:
            raise ValueError(
                "engine=native keys states itself; a custom key_fn needs engine=python"
            )
        # The reference searcher validates every argument and resolves the evaluator,
        # its bounds and the probing factor exactly as the Python engine would.
        if samples is not None:
            reference: Searcher = MCMSSearcher(game, player, samples, seed, **kwargs)
        else:
            reference = Searcher(game, player, algorithm, **kwargs)
        self.reference = reference
        self.game = game
        self.player = reference.player
        self.algorithm = reference.algorithm
        self.evaluator = reference.evaluator
        self.lower_bound, self.upper_bound = reference.lower_bound, reference.upper_bound
        self.probing_factor = reference.probing_factor
        self.probing = reference.probing
        self.reachable_probes = reference.reachable_probes
        self.deeper_cutoffs = reference.deeper_cutoffs
        self.history_min_depth = reference.history_min_depth
        self.static_ordering = reference.static_ordering
        self.move_ordering = reference.move_ordering
        self.probcut = reference.probcut
        self.samples = samples
        self.seed = seed
        self.deadline: float | None = None
        cpp_game = is_cpp_game(game)
        positions = not cpp_game and hasattr(game.new_initial_state(), "search_position")
        if positions:
            # The Python engine keys a custom Python game by its immutable position.
            key_kind = "callback"
        elif reference._state_key is not history_key:
            key_kind = "scheme"
        elif cpp_game:
            key_kind = "digest"
        else:
            key_kind = "python_state"
        options: dict[str, Any] = {
            "algorithm": "mcms" if samples is not None else reference.algorithm,
            "player": reference.player,
            "lower_bound": reference.lower_bound,
            "upper_bound": reference.upper_bound,
            "tt_size": reference.table.capacity if reference.table is not None else 0,
            "move_ordering": reference.move_ordering,
            "probing_factor": reference.probing_factor,
            "probing": reference.probing,
            "reachable_probes": reference.reachable_probes,
            "deeper_cutoffs": reference.deeper_cutoffs,
            "reuse_probes": reference.reuse_probes,
            "history_min_depth": reference.history_min_depth,
            "static_ordering": reference.static_ordering,
            "key_kind": key_kind,
            # In place (ApplyAction/UndoAction) only on C++ states: a Python game undoes nothing.
            "use_undo": cpp_game,
        }
        if positions:
            options["key_text"] = _position_key_text
            options["sampling_text"] = _position_sampling_text
        if reference.probcut is not None:
            settings = reference.probcut
            options["probcut_reduction"] = settings.reduction
            options["probcut_t"] = settings.t
            options["probcut_models"] = {
                depth: [model.a, model.b, model.sigma, *(model.mover or ())]
                for depth, model in settings.models.items()
            }
        if samples is not None:
            options["samples"] = samples
            options["sampling_seed"] = seed
        # A native evaluator reads C++ states: a Python game's evaluator is called back.
        native_name = (native_evaluator_name(reference.evaluator) if cpp_game else None) or ""
        self.native_evaluator = native_name or None
        self._native = module.Searcher(
            game,
            options,
            reference.evaluator,
            native_name,
            type(reference.evaluator).__name__,
            cpp_game and bool(native_name),
        )
        self._stat_keys = MCMS_STAT_KEYS if samples is not None else STAT_KEYS
        self.table = TableSize(self._native) if reference.table is not None else None

    @property
    def releases_gil(self) -> bool:
        """Whether searches run without the GIL (C++ game and native evaluator)."""
        return bool(self._native.releases_gil)

    @property
    def nodes(self) -> int:
        return int(self._native.nodes)

    @property
    def evaluations(self) -> int:
        return int(self._native.evaluations)

    @property
    def tt_hits(self) -> int:
        return int(self._native.tt_hits)

    def reset_stats(self) -> None:
        self._native.reset_stats()

    def stats(self) -> dict[str, int]:
        stats = self._native.stats()
        return {key: int(stats[key]) for key in self._stat_keys}

    def search(
        self,
        state: Any,
        depth: int,
        root_order: Sequence[int] | None = None,
        partial: dict | None = None,
    ) -> tuple[float, int | None]:
        """As ``Searcher.search``: raises ``SearchTimeout`` past ``deadline``."""
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        deadline = self.deadline if self.deadline is not None else 0.0
        module = native_engine.require()
        try:
            status, value, action, best = self._native.search(
                state, int(depth), list(root_order or ()), float(deadline)
            )
        except module.LeafValueOutOfBounds as error:
            raise LeafValueOutOfBounds(str(error)) from None
        if partial is not None and best is not None:
            partial["value"], partial["action"] = best
        if status == "timeout":
            raise SearchTimeout()
        return float(value), action


def _position_key_text(state: Any) -> str:
    """Equal for two states of a custom Python game exactly when their positions are:
    a position is a tuple of values, and of shared objects compared by identity."""
    return repr(state.search_position())


def _position_sampling_text(state: Any) -> str:
    """MCMS's seed text for a custom Python game's state, as bots/mcms.py makes it."""
    return canonical_text(state.search_position())


def make_searcher(
    engine: str,
    game: pyspiel.Game,
    player: int,
    algorithm: str,
    *,
    samples: int | None = None,
    seed: int = 0,
    **kwargs: Any,
) -> Any:
    """The searcher ``engine`` asks for (see the module docstring for ``auto``)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; accepted: {', '.join(ENGINES)}")
    if engine == "auto":
        engine = "native" if _native_fits(game, player, algorithm, samples, kwargs) else "python"
    if engine == "native":
        return NativeSearcher(game, player, algorithm, samples=samples, seed=seed, **kwargs)
    if samples is not None:
        return MCMSSearcher(game, player, samples, seed, **kwargs)
    return Searcher(game, player, algorithm, **kwargs)


def _native_fits(
    game: pyspiel.Game, player: int, algorithm: str, samples: int | None, kwargs: dict
) -> bool:
    """Whether ``auto`` runs native: built, a C++ game, a native evaluator, no custom key."""
    if native_engine.native() is None or kwargs.get("key_fn") is not None:
        return False
    if not is_cpp_game(game):
        return False
    from bots.evaluators import make_evaluator

    evaluator = make_evaluator(kwargs.get("evaluator"), game)
    kwargs["evaluator"] = evaluator  # built once, for whichever engine runs
    return native_evaluator_name(evaluator) is not None
