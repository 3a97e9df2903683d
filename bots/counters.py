"""The counters a search reports in ``last_search``, each declared once.

Both engines count the same events at the same places; these rows name them.
``STAT_KEYS`` (every searcher's ``stats()``), ``MCMS_STAT_KEYS``, the native
engine's list (``bots._native.counter_names()``, compared by
tests/test_settings_table.py) and docs/guide/bots.md's table derive from them.
Counters are plain integers incremented where the event happens; nothing is
estimated.
"""

from __future__ import annotations

import dataclasses

_ALL = ("expectiminimax", "star1", "star2", "chanceprobcut", "mcms")
_STAR1 = ("star1", "star2", "chanceprobcut", "mcms")
_PROBING = ("star2", "chanceprobcut", "mcms")
_PROBCUT = ("chanceprobcut",)
_MCMS = ("mcms",)


@dataclasses.dataclass(frozen=True)
class Counter:
    """One counter: its name, what it counts, and the algorithms whose searches move it."""

    name: str
    meaning: str
    algorithms: tuple[str, ...]


COUNTERS: tuple[Counter, ...] = (
    Counter(
        "nodes",
        "every state visited: decision, chance and leaf, probes and shallow ProbCut searches "
        "included, every revisit counted",
        _ALL,
    ),
    Counter("leaves", "terminal states plus evaluated frontier states", _ALL),
    Counter("evaluations", "evaluator calls", _ALL),
    Counter("probe_nodes", "nodes visited by Star2's probing phase", _PROBING),
    Counter(
        "tt_hits", "table lookups that settled a node: a deciding entry or a stored leaf", _ALL
    ),
    Counter(
        "cutoffs_alpha_beta", "decision nodes cut by alpha-beta (max^n: by shallow pruning)", _ALL
    ),
    Counter("cutoffs_star1", "chance nodes cut by Star1's bounds", _STAR1),
    Counter("cutoffs_star2_probe", "chance nodes cut by Star2's probes", _PROBING),
    Counter("cutoffs_probcut", "chance nodes cut by ChanceProbCut's shallow searches", _PROBCUT),
    Counter("probcut_nodes", "nodes of ChanceProbCut's shallow searches", _PROBCUT),
    Counter(
        "probcut_researches",
        "children searched again because they failed against a bound ChanceProbCut guessed",
        _PROBCUT,
    ),
    Counter(
        "probe_reuses",
        "probed moves whose result the full search reused instead of searching again",
        _PROBING,
    ),
    Counter("sampled_chance_nodes", "chance nodes searched on their draws", _MCMS),
    Counter("samples_drawn", "draws made (a node's draws are made once)", _MCMS),
    Counter("sample_reuses", "visits that found a node's draws already made", _MCMS),
)

# What every searcher reports, and what MCMS adds: the counters only sampling moves.
STAT_KEYS: tuple[str, ...] = tuple(c.name for c in COUNTERS if c.algorithms != _MCMS)
MCMS_STAT_KEYS: tuple[str, ...] = STAT_KEYS + tuple(
    c.name for c in COUNTERS if c.algorithms == _MCMS
)
