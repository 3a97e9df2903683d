"""Monte Carlo *-Minimax Search (Lanctot, Saffidine, Veness, Archibald, Winands 2013).

MCMS is Star2 on a sampled tree: at a chance node with remaining depth above 0
and more outcomes than ``samples``, it draws ``samples`` outcomes from the
chance distribution, with replacement, and searches the node as a chance node
whose outcomes are the draws with equal weights. Everything else (alpha-beta,
Star1 windows, Star2 probing, the bounds L and U, the transposition table) is
the exact engine's, so MCMS returns the value of plain expectiminimax over the
tree it sampled.

Choices (the paper's abstract leaves them open):

* Repeated draws merge: an outcome drawn c times is one child of weight
  c / samples. The value is the same as searching c equal children, at the
  cost of one.
* Draws are a function of (seed, the node's sampling key, samples) only: the
  generator of a chance node is seeded with ``seed`` and a 64-bit BLAKE2b hash
  of the canonical text of the node's key. A node therefore has the same draws
  in every iteration of iterative deepening, on every path that reaches it, and
  in every move of a game; runs are reproducible across processes.
* The transposition table stays sound without separating entries: since the
  draws depend on the state alone, MCMS searches one fixed "sampled game" (each
  chance distribution replaced by its empirical one), and every entry it stores
  is an exact value or bound of that game. The sampling key is the table key
  (history-keyed games use the history digest whether or not there is a
  table), so two states the table merges always have the same draws. An MCMS
  searcher owns its table; exact searchers never read it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pyspiel

from bots.adapters import KEY_FUNCTIONS, SAMPLING_KEY_FUNCTIONS
from bots.counters import MCMS_STAT_KEYS
from bots.keys import HistoryDigestNode, digest_key, history_digest, history_key
from bots.maxn import MaxnSearcher
from bots.node import SearchNode
from bots.options import SearchOptions, as_options
from bots.star import StarSearcher
from games import plain_name
from games.splitmix import SplitMix64, seed_state

# Draws kept per searcher so repeated visits (iterative deepening, probes) skip
# chance_outcomes() (1 ms for yacht's 7,776 rolls); cleared when full.
_DRAW_CACHE_SIZE = 100_000


def canonical_text(key: Any) -> str:
    """Text of a key that is the same in every process (no ids, no hash seeds).

    Ints, floats, strings, booleans and None print as themselves, tuples
    recursively; any other object (a custom game's shared rules table inside a
    position) prints as its type name only, being the same for every node of
    the game.
    """
    if isinstance(key, tuple):
        return "(" + ",".join(canonical_text(item) for item in key) + ")"
    if key is None or isinstance(key, (bool, int, float, str)):
        return repr(key)
    return type(key).__name__


def sampling_seed(seed: int, key: Any) -> int:
    """The generator state of a chance node: ``seed`` and the canonical text of its key."""
    return seed_state(seed, canonical_text(key))


def draw_outcomes(
    outcomes: Sequence[tuple[int, float]], samples: int, state: int
) -> list[tuple[int, float]]:
    """``samples`` draws with replacement by SplitMix64(state), merged: (action,
    count / samples) per distinct outcome, most drawn first, ties in order of first draw."""
    weights = [prob for _, prob in outcomes]
    drawn = SplitMix64(state).choices(weights, samples)
    counts: dict[int, int] = {}
    for action in (outcomes[index][0] for index in drawn):
        counts[action] = counts.get(action, 0) + 1
    merged = sorted(counts.items(), key=lambda item: -item[1])  # stable: first draws first
    return [(action, count / samples) for action, count in merged]


class ChanceSampling:
    """MCMS's draws, for a searcher of either model (``MCMSSearcher``: paranoid,
    ``MaxnMCMSSearcher``: max^n); the searchers' own code is untouched.

    Only the chance node is overridden, and only to hand the node its sample, so
    expectiminimax, Star1 and Star2 keep their hot loop as it is.
    """

    samples_chance_nodes = True
    key_fn: Any
    nodes: int

    def __init__(
        self, game: pyspiel.Game, player: int, options: SearchOptions | None = None, **settings: Any
    ):
        """``options`` with ``samples``, or ``SearchOptions.create``'s settings for star2;
        one constructor for MCMS under either model."""
        options = as_options("star2" if options is None else options, settings)
        self._init_sampling(game, options)
        super().__init__(game, player, options)  # type: ignore[call-arg]  # the searcher's

    def _init_sampling(self, game: pyspiel.Game, options: SearchOptions) -> None:
        if options.samples is None:
            raise ValueError("MCMSSearcher needs samples: outcomes drawn per chance node")
        self.samples = options.samples
        self.seed = options.seed
        self._draws: dict[Hashable, list[tuple[int, float]] | None] = {}
        short_name = plain_name(game.get_type().short_name)
        # A C++ twin of a custom game (games/native/) is keyed by its string; its
        # draws stay seeded by the Python position, as on the Python twin.
        self._registered_key_fn = KEY_FUNCTIONS.get(short_name)
        self._sampling_fn = SAMPLING_KEY_FUNCTIONS.get(short_name)

    def reset_stats(self) -> None:
        super().reset_stats()  # type: ignore[misc]
        self.sampled_chance_nodes = 0
        self.samples_drawn = 0
        self.sample_reuses = 0

    def stats(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in MCMS_STAT_KEYS}

    def sampling_key(self, node: SearchNode) -> Hashable:
        """The node's table key; for history-keyed games always the history digest.

        A game whose adapter gives a sampling key of its own (bots/adapters/) samples by
        it where the table uses the game's registered key: a C++ twin's state of a game
        in games/ is keyed by its string but samples with the Python position rebuilt
        from it, as on the Python twin.
        """
        key_fn = self.key_fn
        if self._sampling_fn is not None and key_fn is self._registered_key_fn:
            return self._sampling_fn(node)
        if key_fn is digest_key or key_fn is history_key:
            if isinstance(node, HistoryDigestNode):
                return node.digest
            return history_digest(node.history())  # type: ignore[attr-defined]
        return key_fn(node)

    def sampled_outcomes(self, node: SearchNode) -> list[tuple[int, float]] | None:
        """The merged draws of a chance node, or None where it is enumerated.

        Drawn before the table lookup, so a node the table settles still counts
        as sampled (the native engine counts the same way).
        """
        key = self.sampling_key(node)
        draws = self._draws.get(key, False)
        if draws is not False:
            if draws is not None:
                self.sample_reuses += 1
                self.sampled_chance_nodes += 1
            return draws  # type: ignore[return-value]
        outcomes = node.chance_outcomes()
        if len(outcomes) <= self.samples:
            draws = None
        else:
            draws = draw_outcomes(outcomes, self.samples, sampling_seed(self.seed, key))
            self.samples_drawn += self.samples
            self.sampled_chance_nodes += 1
        if len(self._draws) >= _DRAW_CACHE_SIZE:
            self._draws.clear()
        self._draws[key] = draws
        return draws


class MCMSSearcher(ChanceSampling, StarSearcher):
    """MCMS under the paranoid model: Star2 on sampled chance nodes."""


class MaxnMCMSSearcher(ChanceSampling, MaxnSearcher):
    """MCMS under max^n (``multiplayer="maxn"``): sampled chance nodes averaging vectors."""
