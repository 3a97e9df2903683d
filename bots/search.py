"""The search engine's public entry point: ``StarSearcher``, ``search()`` and what they raise.

All algorithms share a fail-soft alpha-beta at max/min nodes and differ only at
chance nodes: expectiminimax searches every outcome with an open window; Star1,
Star2 (with Ballard's Star2.5) and ChanceProbCut prune them. The Python engine, the
reference, is laid out by concern:

* bots/searcher_protocol.py: ``SearcherProtocol``, what both engines offer, and what they share
  (``SearchTimeout``, ``LeafValueOutOfBounds``, ``search_bounds``; the counters,
  ``STAT_KEYS``, are declared in bots/counters.py);
* bots/expectiminimax.py: the recursion, decision nodes, the table, the leaves, and
  expectiminimax's chance nodes;
* bots/star.py: ``StarSearcher``, Star1's windows and Star2's probes at chance nodes;
* bots/frames.py: a chance node's frame, which those steps read and narrow;
* bots/chance_probcut.py: ChanceProbCut's step; bots/probcut_models.py its models;
* bots/mcms.py: MCMS, Star2 on sampled chance nodes;
* bots/maxn.py: max^n for three or more players (``multiplayer="maxn"``).

The native engine (bots/native_searcher.py) runs the same algorithms in C++;
``search()`` picks the engine.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from bots.counters import STAT_KEYS
from bots.native_searcher import make_searcher
from bots.options import SearchOptions, as_options
from bots.searcher_protocol import (
    LeafValueOutOfBounds,
    SearcherProtocol,
    SearchResult,
    SearchTimeout,
    search_bounds,
)
from bots.star import StarSearcher

__all__ = [
    "STAT_KEYS",
    "LeafValueOutOfBounds",
    "SearchResult",
    "SearchTimeout",
    "StarSearcher",
    "SearcherProtocol",
    "search",
    "search_bounds",
]


def search(
    game: pyspiel.Game,
    state: Any,
    algorithm: SearchOptions | str,
    depth: int,
    *,
    player: int | None = None,
    engine: str = "auto",
    **settings: Any,
) -> SearchResult:
    """One fixed-depth search with fresh statistics (no iterative deepening).

    ``algorithm`` is ``SearchOptions``, or an algorithm name with ``settings``
    (``SearchOptions.create``'s). ``engine`` as for bots: ``auto`` (native where
    built and the game and evaluator allow it), ``native`` or ``python``;
    ``SearchResult.engine`` says which ran.
    """
    if player is None:
        player = state.current_player()
        if player < 0:
            raise ValueError("state is a chance or terminal node: pass `player` explicitly")
    searcher = make_searcher(engine, game, player, as_options(algorithm, settings))
    value, action = searcher.search(state, depth)
    return SearchResult(
        value=value,
        action=action,
        depth=depth,
        stats=searcher.stats(),
        engine=searcher.engine,
        values=getattr(searcher, "root_values", None),
    )
