"""What every searcher offers, whichever engine runs it, and what both engines share.

The Python engine (``bots.search.StarSearcher``, ``bots.mcms.MCMSSearcher``) and the native
one (``bots.native_searcher.NativeSearcher``) implement ``SearcherProtocol``: the bot
layer, the experiments and ``bots.search.search`` use a searcher only through it. This
module imports neither engine, so both can import it. The counters are declared in
bots/counters.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence, Sized
from typing import Any, Protocol

import pyspiel

from bots.evaluators import evaluator_bounds, make_evaluator
from bots.options import SearchOptions


class SearchTimeout(Exception):
    """Raised inside the tree when the deadline passes; the caller keeps the last result."""


class LeafValueOutOfBounds(ValueError):
    """An evaluator returned a value outside the bounds it (or the game) declared."""


@dataclasses.dataclass
class SearchResult:
    value: float
    action: int | None
    depth: int
    stats: dict[str, int]
    engine: str = "python"
    values: list[float] | None = None  # max^n: the root's whole vector


class SearcherProtocol(Protocol):
    """A fixed-depth searcher from one player's point of view, kept by a bot across moves.

    ``search`` may be called with increasing depths for iterative deepening; the
    counters add up until ``reset_stats``.
    """

    # Which engine runs the search: "python" or "native".
    engine: str
    options: SearchOptions
    game: pyspiel.Game
    player: int
    # The algorithm as bots and statistics name it ("mcms" where chance is sampled).
    algorithm: str
    # The resolved evaluator object.
    evaluator: Any
    # time.perf_counter() past which a search raises SearchTimeout; None: no limit.
    deadline: float | None

    @property
    def table(self) -> Sized | None:
        """The transposition table (its length is its entry count), None without one."""
        ...

    @property
    def nodes(self) -> int: ...

    @property
    def evaluations(self) -> int: ...

    @property
    def tt_hits(self) -> int: ...

    def search(
        self,
        state: Any,
        depth: int,
        root_order: Sequence[int] | None = None,
        partial: dict | None = None,
    ) -> tuple[float, int | None]:
        """Searches ``state`` to ``depth`` decision plies; returns (value, action).

        ``root_order``'s moves are searched first at the root. ``partial``, if given,
        receives the best fully searched root move so far, so a caller interrupted by
        the deadline (``SearchTimeout``) still has a move.
        """
        ...

    def stats(self) -> dict[str, int]:
        """The counters since ``reset_stats``: bots/counters.py's ``STAT_KEYS`` (and
        ``MCMS_STAT_KEYS`` where chance is sampled)."""
        ...

    def reset_stats(self) -> None: ...


def search_bounds(
    evaluator: Any, game: pyspiel.Game, player: int, bounds: tuple[float, float] | None = None
) -> tuple[float, float]:
    """The search's ``lower_bound`` L and ``upper_bound`` U from the searching player's view.

    ``bounds`` when given (known bounds on every leaf, as in Ballard's trees).
    Else an evaluator may declare ``player_bounds(player)`` (asymmetric trees
    such as deep Ballard trees) or ``bounds``; declared bounds must cover
    terminal utilities too, which the engine checks. Else the game's utility range.
    """
    if bounds is not None:
        return bounds
    per_player = getattr(evaluator, "player_bounds", None)
    if callable(per_player):
        lower_bound, upper_bound = (float(x) for x in per_player(player))
        if not lower_bound <= upper_bound:
            raise ValueError(
                f"{type(evaluator).__name__}.player_bounds({player}) must "
                f"satisfy L <= U, got ({lower_bound}, {upper_bound})"
            )
        return lower_bound, upper_bound
    if getattr(evaluator, "bounds", None) is not None:
        return evaluator_bounds(evaluator, game)
    return float(game.min_utility()), float(game.max_utility())


def check_multiplayer(game: pyspiel.Game, options: SearchOptions) -> bool:
    """Whether the search runs max^n (bots/maxn.py); refuses maxn below three players."""
    if options.multiplayer != "maxn":
        return False
    if game.num_players() <= 2:
        raise ValueError(
            f"multiplayer=maxn is for games of 3 or more players; '{game}' has "
            f"{game.num_players()}, where the default multiplayer=paranoid already searches "
            f"the same values with every cut (docs/guide/multiplayer.md)"
        )
    return True


class SearcherBase:
    """What the searchers of both engines set up alike: the options, the game, the
    searching player, the evaluator, the bounds its leaves lie in, and the model of
    more than two players."""

    def __init__(self, game: pyspiel.Game, player: int, options: SearchOptions) -> None:
        self.options = options
        self.game = game
        self.player = int(player)
        self.algorithm = options.name
        self.evaluator = make_evaluator(options.evaluator, game)
        self.lower_bound, self.upper_bound = search_bounds(
            self.evaluator, game, self.player, options.bounds
        )
        self.maxn = check_multiplayer(game, options)

    def search(
        self,
        state: Any,
        depth: int,
        root_order: Sequence[int] | None = None,
        partial: dict | None = None,
    ) -> tuple[float, int | None]:
        """``SearcherProtocol.search``: the depth checked once for both engines."""
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        return self._run(state, depth, root_order, partial)

    def _run(
        self, state: Any, depth: int, root_order: Sequence[int] | None, partial: dict | None
    ) -> tuple[float, int | None]:
        """One search to a valid depth, by the engine's own means."""
        raise NotImplementedError
