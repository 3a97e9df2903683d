"""The native engine behind the Python Searcher's interface, and the engine choice.

``NativeSearcher`` takes the Python ``StarSearcher``'s ``SearchOptions`` (``samples``
for MCMS), resolves the evaluator and its bounds as that engine does, and runs
``bots._native.Searcher``: the same algorithms over ``open_spiel::State`` with the
same counters. ``make_searcher`` picks the engine: ``auto`` runs native where the
extension is built, the game is a C++ game and the evaluator has a native twin (by its
``native_name``, or a learned evaluator's ``native_model()``), and the Python engine
otherwise; ``native`` runs native wherever the extension is built, calling a Python
game or evaluator back; ``python`` runs the reference engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pyspiel

from bots import native_engine
from bots.adapters import default_key_function
from bots.counters import MCMS_STAT_KEYS, STAT_KEYS
from bots.evaluators import make_evaluator
from bots.keys import history_key
from bots.maxn import MaxnBounds, MaxnSearcher
from bots.mcms import MaxnMCMSSearcher, MCMSSearcher, canonical_text
from bots.options import ENGINES, SearchOptions, as_options
from bots.searcher_protocol import (
    LeafValueOutOfBounds,
    SearcherBase,
    SearcherProtocol,
    SearchTimeout,
    check_multiplayer,
)
from bots.star import StarSearcher


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


def _has_model(evaluator: Any) -> bool:
    """Whether the evaluator's class offers ``native_model()`` and the extension is built."""
    hook = getattr(type(evaluator), "native_model", None)
    return native_engine.native() is not None and callable(hook)


def native_model(evaluator: Any) -> Any | None:
    """The ``bots._native.LearnedModel`` a learned evaluator builds of itself through its
    ``native_model()`` method (None where it has none), where the extension is built (the
    searcher copies it)."""
    return evaluator.native_model() if _has_model(evaluator) else None


def has_native_twin(evaluator: Any) -> bool:
    """Whether the native engine evaluates leaves itself: a native twin by name, or a model."""
    return native_evaluator_name(evaluator) is not None or native_model(evaluator) is not None


class TableSize:
    """What the Python engine's table answers to outside the engine: its length."""

    def __init__(self, searcher: Any):
        self._searcher = searcher

    def __len__(self) -> int:
        return int(self._searcher.table_size)


def _native_counter(name: str) -> Any:
    """A read-only property: the C++ searcher's counter ``name``, as an int."""
    return property(lambda self: int(getattr(self._native, name)), doc=f"``{name}``")


class NativeSearcher(SearcherBase):
    """A ``StarSearcher`` (or ``MCMSSearcher`` with ``samples``) run by the native engine."""

    engine = "native"

    def __init__(
        self,
        game: pyspiel.Game,
        player: int,
        options: SearchOptions | str = "star2",
        **settings: Any,
    ):
        """``options``, or an algorithm name and ``SearchOptions.create``'s settings."""
        module = native_engine.require()
        options = as_options(options, settings)
        if options.key_fn is not None:
            raise ValueError(
                "engine=native keys states itself; a custom key_fn needs engine=python"
            )
        SearcherBase.__init__(self, game, player, options)
        # The whole vector of the last completed search under max^n, else None.
        self.root_values: list[float] | None = None
        self.probing_factor = options.probes_per_child
        self.probing = options.probing
        self.probcut = options.probcut if options.algorithm == "chanceprobcut" else None
        self.samples = options.samples
        self.seed = options.seed
        self.deadline: float | None = None
        cpp_game = is_cpp_game(game)
        # A native evaluator reads C++ states: a Python game's evaluator is called back.
        native_name = (native_evaluator_name(self.evaluator) if cpp_game else None) or ""
        model = None if native_name or not cpp_game else native_model(self.evaluator)
        # The native leaf by name, "learned" for a model, None when called back.
        self.native_evaluator = native_name or ("learned" if model is not None else None)
        self._native = module.Searcher(
            game,
            native_settings(
                game,
                self.player,
                options,
                self.lower_bound,
                self.upper_bound,
                MaxnBounds.of(game, self.evaluator, options.bounds),
            ),
            self.evaluator,
            native_name,
            type(self.evaluator).__name__,
            cpp_game and (bool(native_name) or model is not None),
            model,
        )
        self._stat_keys = MCMS_STAT_KEYS if options.samples is not None else STAT_KEYS
        self.table = TableSize(self._native) if options.tt_size > 0 else None

    @property
    def releases_gil(self) -> bool:
        """Whether searches run without the GIL (C++ game and native evaluator)."""
        return bool(self._native.releases_gil)

    # The counters the bot layer reads between searches, from the C++ searcher.
    nodes = _native_counter("nodes")
    evaluations = _native_counter("evaluations")
    tt_hits = _native_counter("tt_hits")

    def reset_stats(self) -> None:
        self._native.reset_stats()

    def stats(self) -> dict[str, int]:
        stats = self._native.stats()
        return {key: int(stats[key]) for key in self._stat_keys}

    def _run(
        self, state: Any, depth: int, root_order: Sequence[int] | None, partial: dict | None
    ) -> tuple[float, int | None]:
        """``SearcherBase.search`` in the C++ engine: raises ``SearchTimeout`` past ``deadline``."""
        deadline = self.deadline if self.deadline is not None else 0.0
        module = native_engine.require()
        try:
            status, value, action, best, values = self._native.search(
                state, int(depth), list(root_order or ()), float(deadline)
            )
        except module.LeafValueOutOfBounds as error:
            raise LeafValueOutOfBounds(str(error)) from None
        if partial is not None and best is not None:
            partial["value"], partial["action"] = best[0], best[1]
            if self.maxn:
                partial["values"] = list(best[2])
        if status == "timeout":
            raise SearchTimeout()
        if self.maxn:
            self.root_values = [float(x) for x in values]
        return float(value), action


def native_settings(
    game: pyspiel.Game,
    player: int,
    options: SearchOptions,
    lower_bound: float,
    upper_bound: float,
    maxn: MaxnBounds | None = None,
) -> dict[str, Any]:
    """The settings dict ``bots._native.Searcher`` reads: the options' native rows and
    ``NATIVE_INPUTS`` (bots/options.py), the bounds resolved from the evaluator as the
    Python engine does (``maxn``: max^n's, resolved from the options' evaluator where not
    given). The engine refuses a dict with a name missing or unknown."""
    cpp_game = is_cpp_game(game)
    positions = not cpp_game and hasattr(game.new_initial_state(), "search_position")
    if positions:
        # The Python engine keys a custom Python game by its immutable position.
        key_kind = "callback"
    elif default_key_function(game) is not history_key:
        key_kind = "scheme"
    elif cpp_game:
        key_kind = "digest"
    else:
        key_kind = "python_state"
    probcut = options.probcut if options.algorithm == "chanceprobcut" else None
    if maxn is None:
        maxn = MaxnBounds.of(game, make_evaluator(options.evaluator, game), options.bounds)
    settings: dict[str, Any] = {
        **options.native_settings(),
        "algorithm": options.name,
        "player": player,
        "lower_bound": lower_bound,
        "upper_bound": upper_bound,
        "key_kind": key_kind,
        "key_text": _position_key_text if positions else None,
        "sampling_text": _position_sampling_text if positions else None,
        # In place (ApplyAction/UndoAction) only on C++ states: a Python game undoes nothing.
        "use_undo": cpp_game,
        "probcut_reduction": probcut.reduction if probcut is not None else 0,
        "probcut_t": probcut.t if probcut is not None else 0.0,
        "probcut_models": probcut.native_models() if probcut is not None else {},
        "samples": options.samples or 0,
        "sampling_seed": options.seed,
        **maxn.native(),
    }
    return settings


def _position_key_text(state: Any) -> str:
    """Equal for two states of a custom Python game exactly when their positions are:
    a position is a tuple of values, and of shared objects compared by identity."""
    return repr(state.search_position())


def _position_sampling_text(state: Any) -> str:
    """MCMS's seed text for a custom Python game's state, as bots/mcms.py makes it."""
    return canonical_text(state.search_position())


def make_searcher(
    engine: str, game: pyspiel.Game, player: int, options: SearchOptions | str, **settings: Any
) -> SearcherProtocol:
    """The searcher ``engine`` asks for (see the module docstring for ``auto``).

    ``options``, or an algorithm name and ``SearchOptions.create``'s settings.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; accepted: {', '.join(ENGINES)}")
    options = as_options(options, settings)
    if engine == "auto":
        engine = "python"
        if native_engine.native() is not None and options.key_fn is None and is_cpp_game(game):
            # The evaluator built once, for whichever engine runs it.
            evaluator = make_evaluator(options.evaluator, game)
            options = dataclasses.replace(options, evaluator=evaluator)
            if has_native_twin(evaluator):
                engine = "native"
    if engine == "native":
        return NativeSearcher(game, player, options)
    if check_multiplayer(game, options):
        if options.samples is not None:
            return MaxnMCMSSearcher(game, player, options)
        return MaxnSearcher(game, player, options)
    if options.samples is not None:
        return MCMSSearcher(game, player, options)
    return StarSearcher(game, player, options)
