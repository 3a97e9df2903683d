"""Fitting ChanceProbCut's models: v_deep ~ a * v_shallow + b (residual sigma) per (d, R).

The pairs are exact Star2 values of the outcome children of sampled chance nodes, at
the shallow depth d - R and the deep depth d. Two users share this one fit:

* ``python -m experiments.probcut.calibrate``, the full command for papers (many
  positions, chosen depths, a results folder, one runner task per position);
* the bot's self-calibration (``quick_fit``), when ``chanceprobcut`` meets a game with
  no calibration: fewer positions and outcomes, depths chosen by a node budget, so
  that it takes about a minute at most on one core; bots/calibration.py caches it.

Values are exact, so the engine that computes them changes only the time: both use
the native engine where it runs (bots/native_searcher.py ``make_searcher("auto")``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from bots.arithmetic import ordered_sum
from bots.native_searcher import make_searcher
from bots.options import SearchOptions
from bots.searcher_protocol import SearcherProtocol


def fit_probcut_model(pairs: Sequence[tuple[float, float]]) -> dict[str, float]:
    """Least-squares fit of v_deep = a * v_shallow + b + e, e ~ N(0, sigma^2), its sums
    in bots/arithmetic.py's order (so a fit does not depend on numpy's).

    ``pairs`` are (v_shallow, v_deep). Returns a, b, sigma (residual standard
    deviation with n - 2 degrees of freedom), r2 and samples. If every shallow
    value is the same the slope is unidentifiable: a = 0, b = mean(v_deep).
    """
    data = np.asarray(pairs, dtype=float)
    if data.ndim != 2 or data.shape[1] != 2:
        raise ValueError(f"pairs must be a sequence of (v_shallow, v_deep), got shape {data.shape}")
    n = len(data)
    if n < 3:
        raise ValueError(
            f"need at least 3 (v_shallow, v_deep) pairs to fit a, b and sigma, got {n}"
        )
    if not np.all(np.isfinite(data)):
        raise ValueError("pairs contain non-finite values")
    x, y = data[:, 0].tolist(), data[:, 1].tolist()
    x_mean, y_mean = ordered_sum(x) / n, ordered_sum(y) / n
    sxx = ordered_sum((v - x_mean) ** 2 for v in x)
    if sxx > 1e-300:
        a = ordered_sum((u - x_mean) * (v - y_mean) for u, v in zip(x, y)) / sxx
    else:
        a = 0.0
    b = y_mean - a * x_mean
    ssr = ordered_sum((v - (a * u + b)) ** 2 for u, v in zip(x, y))
    sst = ordered_sum((v - y_mean) ** 2 for v in y)
    sigma = math.sqrt(ssr / (n - 2))
    r2 = 1.0 - ssr / sst if sst > 1e-300 else (1.0 if ssr <= 1e-300 else 0.0)
    return {"a": a, "b": b, "sigma": sigma, "r2": float(r2), "samples": int(n)}


def combinations(depths: Sequence[int], reductions: Sequence[int]) -> list[tuple[int, int]]:
    """(d, R) pairs with d > R: the engine only probes when the shallow depth is >= 1."""
    return [(d, r) for r in sorted(reductions) for d in sorted(depths) if d > r]


def collect_pairs(
    records: Sequence[dict], depth: int, reduction: int, *, player: int | None = None
) -> list[tuple[float, float]]:
    """(v_shallow, v_deep) of every child searched at both depths; with ``player``, from
    the mover's view instead (children at chance nodes left out)."""
    pairs = []
    for record in records:
        for child in record["children"]:
            values = child["values"]
            if str(depth) not in values or str(depth - reduction) not in values:
                continue
            x, y = values[str(depth - reduction)], values[str(depth)]
            if player is not None:
                if child["mover"] < 0:
                    continue
                if child["mover"] != player:
                    x, y = -x, -y
            pairs.append((x, y))
    return pairs


def fit_models(
    records: Sequence[dict], combos: Sequence[tuple[int, int]], *, symmetrize: bool, player: int
) -> dict[str, list[dict]]:
    """The models the bot uses plus the diagnostic fits, one entry per (d, R)."""
    models, raw, mover = [], [], []
    for depth, reduction in combos:
        pairs = collect_pairs(records, depth, reduction)
        key = {"depth": depth, "reduction": reduction}
        fitted = pairs + [(-x, -y) for x, y in pairs] if symmetrize else pairs
        model: dict[str, Any] = {**key, **fit_probcut_model(fitted)}
        raw.append({**key, **fit_probcut_model(pairs)})
        if symmetrize:
            mover_pairs = collect_pairs(records, depth, reduction, player=player)
            if len(mover_pairs) >= 3:
                mover_fit = fit_probcut_model(mover_pairs)
                mover.append({**key, **mover_fit})
                # The engine predicts a*v + s*b, s = +1 when the searching player moves
                # at the child and -1 otherwise (bots/probcut_models.py, ProbCutModel.mover).
                model["mover_relative"] = {k: mover_fit[k] for k in ("a", "b", "sigma", "r2")}
        models.append(model)
    return {"models": models, "unsymmetrized": raw, "mover_relative": mover}


def symmetric(game: pyspiel.Game) -> bool:
    """Two-player zero-sum: one model serves both seats, so the fit takes the pairs and
    their negations."""
    return game.num_players() == 2 and game.get_type().utility in (
        pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.Utility.CONSTANT_SUM,
    )


def _outcome_rng(seed: int, index: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "little"))


def live_outcomes(
    state: pyspiel.State, seed: int, index: int, max_outcomes: int
) -> list[tuple[int, float]]:
    """The chance node's outcomes whose child is not terminal; at most ``max_outcomes``
    (0: all) of them, drawn by a generator seeded by (seed, index)."""
    outcomes = [(a, p) for a, p in state.chance_outcomes() if not state.child(a).is_terminal()]
    if max_outcomes and len(outcomes) > max_outcomes:
        outcomes = sorted(_outcome_rng(seed, index).sample(outcomes, max_outcomes))
    return outcomes


def exact_searcher(
    game: pyspiel.Game, player: int, evaluator: Any, tt_size: int
) -> SearcherProtocol:
    """Star2 with a table: exact values, on the native engine where it runs."""
    options = SearchOptions.create("star2", evaluator=evaluator, tt_size=tt_size)
    return make_searcher("auto", game, player, options)


def fit_engine(game: pyspiel.Game, evaluator: Any) -> str:
    """The engine the exact searches run on, which picks ``QuickPlan``'s budget."""
    return exact_searcher(game, 0, evaluator, 0).engine


def measure_position(
    game: pyspiel.Game,
    state: pyspiel.State,
    index: int,
    *,
    seed: int,
    player: int,
    depths: Sequence[int],
    evaluator: Any,
    tt_size: int,
    max_outcomes: int,
) -> dict[str, Any]:
    """Exact Star2 values of the chance node's outcome children at every depth."""
    searcher = exact_searcher(game, player, evaluator, tt_size)
    children = []
    start = time.perf_counter()
    for action, prob in live_outcomes(state, seed, index, max_outcomes):
        child = state.child(action)
        values, nodes = {}, {}
        for depth in sorted(depths):
            searcher.reset_stats()
            values[str(depth)] = float(searcher.search(child, depth)[0])
            nodes[str(depth)] = searcher.nodes
        children.append(
            {
                "outcome": int(action),
                "prob": float(prob),
                "mover": int(child.current_player()),
                "values": values,
                "nodes": nodes,
            }
        )
    return {
        "id": str(index),
        "index": index,
        "history": _history(state),
        "state": str(state),
        "children": children,
        "time": time.perf_counter() - start,
    }


def _history(state: pyspiel.State) -> list[int] | None:
    try:
        return [int(a) for a in state.history()]
    except Exception:  # pylint: disable=broad-except
        return None


# ------------------------------------------------------------ self-calibration


@dataclasses.dataclass(frozen=True)
class QuickPlan:
    """The size of a self-calibration. Every field changes the fit, so every field is
    part of the cache key (bots/calibration.py).

    Children (outcomes of the sampled chance nodes, interleaved across positions) are
    searched depth by depth, 1, 2, ... up to ``max_depth``, and each depth stops once
    ``node_budget`` nodes (``python_node_budget`` on the Python engine, some 10x slower
    per node) have been spent in all, after at least ``min_children`` children. A
    depth from 3 on whose first ``min_children`` children would overrun the budget (its
    cost guessed from the last two depths' growth) is not started, so the deepest
    model is the deepest the budget affords (depths 1 and 2 always search at least
    ``min_children``). Node counts are deterministic, so the fit does not depend on the
    machine's speed; it depends on the engine only through the budget.
    """

    positions: int = 30
    max_outcomes: int = 6
    max_depth: int = 6
    reductions: tuple[int, ...] = (1, 2)
    node_budget: int = 20_000_000
    python_node_budget: int = 1_000_000
    min_children: int = 30
    seed: int = 0
    plies: tuple[int, int] = (0, 30)
    tt_size: int = 200_000

    def __post_init__(self) -> None:
        if self.positions < 1 or self.min_children < 2 or self.max_depth < 2:
            raise ValueError(
                f"a quick plan needs positions >= 1, min_children >= 2 and max_depth >= 2, "
                f"got {self}"
            )


QUICK_PLAN = QuickPlan()


def quick_fit(
    game: pyspiel.Game, evaluator: Any, plan: QuickPlan, *, player: int = 0
) -> dict[str, Any]:
    """A calibration (the dict bots/calibration.py stores) fitted as ``plan`` says.

    A game with no chance node after its first decision (catch: the ball's column is
    drawn before any move) gives no models and ``"chance_nodes": 0``: a search never
    meets a chance node there, so ChanceProbCut has nothing to prune.
    """
    # The experiments' sampler, so that both fit the same kind of positions; imported
    # here, as bots/evaluators/position_evaluator.py imports games: importing bots
    # registers no Python game.
    from games.position_sampler import sample_position  # noqa: PLC0415

    start = time.perf_counter()
    cpu_start = time.process_time()
    searcher = exact_searcher(game, player, evaluator, plan.tt_size)
    budget = plan.node_budget if searcher.engine == "native" else plan.python_node_budget
    positions: list[list[dict[str, Any]]] = []
    for index in range(plan.positions):
        try:
            state = sample_position(game, plan.seed, index, plan.plies, kind="chance")
        except ValueError:
            break  # no chance node after the first decision within a thousand games
        positions.append(
            [
                {"state": state.child(action), "values": {}, "nodes": {}}
                for action, _ in live_outcomes(state, plan.seed, index, plan.max_outcomes)
            ]
        )
    # Interleaved (each position's first outcome, then each one's second, ...), so that a
    # depth the budget cuts short still sees many positions.
    longest = max((len(p) for p in positions), default=0)
    children = [p[rank] for rank in range(longest) for p in positions if rank < len(p)]
    spent, deepest = _search_depths(searcher, children, plan, budget)
    for child in children:
        child["mover"] = int(child.pop("state").current_player())
    records = [{"children": children}]
    combos = combinations(range(2, deepest + 1), plan.reductions)
    fits = (
        fit_models(records, combos, symmetrize=symmetric(game), player=player)
        if combos
        else {"models": [], "unsymmetrized": [], "mover_relative": []}
    )
    searched = {
        str(d): sum(1 for c in children if str(d) in c["values"])
        for d in range(1, plan.max_depth + 1)
    }
    return {
        "player": player,
        "symmetrized": symmetric(game) and bool(combos),
        "positions": len(positions),
        "children": len(children),
        "chance_nodes": len(positions),
        "children_searched": {d: n for d, n in searched.items() if n},
        "nodes": spent,
        "engine": searcher.engine,
        "node_budget": budget,
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu_start,
        "models": fits["models"],
        "diagnostics": {
            "unsymmetrized": fits["unsymmetrized"],
            "mover_relative": fits["mover_relative"],
        },
    }


def _search_depths(
    searcher: SearcherProtocol, children: list[dict[str, Any]], plan: QuickPlan, budget: int
) -> tuple[int, int]:
    """Searches the children depth by depth within the budget (QuickPlan says how);
    returns the nodes spent and the deepest depth with at least ``min_children``."""
    spent, deepest = 0, 0
    mean_nodes: dict[int, float] = {}
    if len(children) < plan.min_children:
        return spent, deepest
    for depth in range(1, plan.max_depth + 1):
        if depth >= 3:
            growth = mean_nodes[depth - 1] / max(mean_nodes[depth - 2], 1.0)
            guess = mean_nodes[depth - 1] * max(growth, 1.0) * plan.min_children
            if spent + guess > budget:
                break
        key, previous = str(depth), str(depth - 1)
        done = nodes = 0
        for child in children:
            if depth > 1 and previous not in child["values"]:
                break
            if done >= plan.min_children and spent + nodes >= budget:
                break
            searcher.reset_stats()
            child["values"][key] = float(searcher.search(child["state"], depth)[0])
            child["nodes"][key] = searcher.nodes
            nodes += searcher.nodes
            done += 1
        spent += nodes
        if done < plan.min_children:
            for child in children:
                child["values"].pop(key, None)
                child["nodes"].pop(key, None)
            break
        mean_nodes[depth] = nodes / done
        deepest = depth
    return spent, deepest
