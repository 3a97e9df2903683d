"""Fast-path speed benchmark: tree expansion rate of positions vs C++ pig.

``python -m experiments.benchmark.game_speed`` (or ``measure_speed()``) prints, for each game,
nodes per second of a depth-limited full expansion (is_terminal,
is_chance_node, legal_actions / chance_outcomes, child for every successor:
what a search does per node, without evaluation) from sampled mid-game
positions. The same Python code expands the Python game's fast-path positions
and its pyspiel wrapper states (the Python game is built directly with
``games.python_game``, whatever ``pyspiel.load_game`` registers), the game's
C++ twin's states where the native engine registered it (same positions), and
OpenSpiel's C++ ``pig`` states, the reference. Rates use CPU time
(time.process_time), so a busy shared machine does not skew them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import pyspiel

import bots  # noqa: F401  (loads the native engine)
import games

DEFAULT_SPECS = ("dice(n=5,k=4)", "chance_tic_tac_toe", "ballard_tree(n=10,plies=3)")


def _expand(node: Any, depth: int) -> int:
    """Full expansion to ``depth`` decision plies; returns nodes visited."""
    if depth == 0 or node.is_terminal():
        return 1
    count = 1
    if node.is_chance_node():
        for action, _ in node.chance_outcomes():
            count += _expand(node.child(action), depth)
    else:
        for action in node.legal_actions():
            count += _expand(node.child(action), depth - 1)
    return count


def _samples(game: pyspiel.Game, count: int, plies: int, rng: random.Random) -> list[Any]:
    """Non-terminal states after up to ``plies`` random moves (chance too).

    Walks that end in a terminal are retried with fewer plies, so short games
    (a ballard_tree) still yield samples.
    """
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randint(0, plies)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def _rate(roots: Sequence[Any], depth: int, seconds: float) -> float:
    nodes, start = 0, time.process_time()
    while True:
        for root in roots:
            nodes += _expand(root, depth)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return nodes / elapsed


def _pick_depth(roots: Sequence[Any], min_nodes: int, max_depth: int = 12) -> int:
    depth = 1
    while depth < max_depth and sum(_expand(r, depth) for r in roots) < min_nodes:
        depth += 1
    return depth


def _replay(game: pyspiel.Game, history: Sequence[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def measure_speed(
    specs: Sequence[str] = DEFAULT_SPECS,
    seconds: float = 1.0,
    num_positions: int = 8,
    sample_plies: int = 8,
    reference: str = "pig",
    seed: int = 0,
    verbose: bool = True,
) -> dict[str, dict[str, Any]]:
    """Nodes/second of full expansion: fast path, wrapper state, C++ twin, reference.

    Returns {spec: {"depth", "position_nodes_per_s", "state_nodes_per_s",
    "twin_nodes_per_s", "ratio_to_reference"}} plus an entry {"depth",
    "state_nodes_per_s"} for the reference game. ``state_nodes_per_s`` is the
    Python game's wrapper states, expanded one ply shallower than the positions;
    ``twin_nodes_per_s`` is the C++ twin's states at the positions' depth, or None
    where ``pyspiel.load_game`` builds the Python game (no native engine, or
    ``STARSPIEL_ENGINE=python``). Roughly ``seconds`` per measured variant.
    """
    rng = random.Random(seed)
    results: dict[str, dict[str, Any]] = {}
    ref_game = pyspiel.load_game(reference)
    ref_roots = _samples(ref_game, num_positions, sample_plies, rng)
    ref_depth = _pick_depth(ref_roots, 20000)
    ref_rate = _rate(ref_roots, ref_depth, seconds)
    results[reference] = {"depth": ref_depth, "state_nodes_per_s": ref_rate}
    for spec in specs:
        game = games.python_game(spec)
        roots = _samples(game, num_positions, sample_plies, rng)
        positions = [s.search_position() for s in roots]
        depth = _pick_depth(positions, 20000)
        pos_rate = _rate(positions, depth, seconds)
        state_rate = _rate(roots, max(1, depth - 1), seconds)
        registered = pyspiel.load_game(spec)
        twin_rate = None
        if not isinstance(registered, type(game)):  # the C++ twin
            twin_roots = [_replay(registered, s.history()) for s in roots]
            twin_rate = _rate(twin_roots, depth, seconds)
        results[spec] = {
            "depth": depth,
            "position_nodes_per_s": pos_rate,
            "state_nodes_per_s": state_rate,
            "twin_nodes_per_s": twin_rate,
            "ratio_to_reference": pos_rate / ref_rate,
        }
    if verbose:
        print(
            f"{'game':32s} {'depth':>5s} {'position n/s':>13s} "
            f"{'Py state n/s':>13s} {'C++ state n/s':>14s} {'vs ' + reference:>8s}"
        )
        print(f"{reference:32s} {ref_depth:5d} {'-':>13s} {'-':>13s} {ref_rate:14,.0f} {1.0:8.2f}")
        for spec in specs:
            r = results[spec]
            twin = "-" if r["twin_nodes_per_s"] is None else f"{r['twin_nodes_per_s']:,.0f}"
            print(
                f"{spec:32s} {r['depth']:5d} "
                f"{r['position_nodes_per_s']:13,.0f} "
                f"{r['state_nodes_per_s']:13,.0f} "
                f"{twin:>14s} "
                f"{r['ratio_to_reference']:8.2f}"
            )
        print(
            "Py state: the Python game's pyspiel states, one ply shallower. C++ state: its C++\n"
            f"twin's ('-' where not loaded). vs {reference}: position n/s over {reference}'s."
        )
    return results


if __name__ == "__main__":
    measure_speed()
