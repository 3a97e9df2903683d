"""What better move ordering could still buy a pruning search: its last iteration
when the best moves are known.

Star2's cuts depend on move order. A probe of a decision child bounds the chance
node tightly only when the probed move is the child's best; an alpha-beta cut comes
early only when the refutation is searched first. Every ordering lever (the table's
move, history, the evaluator's ordering, killer moves) is a guess at those moves.
This section measures what a perfect guess would be worth in the engine as it is,
before anyone builds one:

1. The bot deepens 1, 2, ..., D as in the time-to-depth section, but with a table
   large enough to keep every entry (``KNOWN_MOVES_CAPACITY``).
2. A fresh bot deepens again to D-1, exactly as before; then, before its iteration D,
   every decision node's move in its table is replaced by the move the previous
   search at depth D stored for it (its best, or the one that cut), and nodes the
   table does not hold get that move in an entry that orders and never decides. Its
   iteration D is timed. Repeated ``rounds`` times, each round ordered by the one
   before (the counts settle after one or two rounds).

The last round's iteration D is the bot's with the moves of a complete search at
depth D searched first, everything else (the earlier iterations' entries and leaf
values, the history scores) as the bot has it: about the least an iteration can
cost by better ordering (not a proven minimum: the moves are those that cut for the
windows the previous search met). Against expectiminimax's time to complete D-1 it
bounds how far the time-to-depth ratio can fall by ordering alone.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import bots
from bots.transposition import MOVE, TranspositionTable
from experiments.common.measure import timed_iteration
from experiments.common.tables import markdown_table

# Entries of a search the ordering rounds learn from; none is evicted at the depths
# of the benchmark (a star2 search at dice depth 6 stores about 10^6).
KNOWN_MOVES_CAPACITY = 10**7
# Below any remaining depth: such an entry orders moves and never decides a value.
ORDER_ONLY_DEPTH = -1
DEFAULT_ROUNDS = 2
INF = float("inf")


def skip_reason(params: dict[str, Any]) -> str | None:
    """Why a bot has no ordering bound: a search without a table has no moves to carry."""
    if params.get("tt_size") == 0:
        return "a search without a table (tt_size=0) keeps no moves to order by"
    return None


def order_only_table(source: TranspositionTable, capacity: int) -> TranspositionTable:
    """A table holding ``source``'s best moves as entries that cannot decide a value."""
    table = TranspositionTable(capacity)
    impose_moves(table, source)
    return table


def impose_moves(table: TranspositionTable, source: TranspositionTable) -> None:
    """Gives every decision node ``source`` holds its move there: an entry of ``table``
    keeps its depth and bounds (so what it decides is unchanged); a position ``table``
    lacks gets an entry that orders and cannot decide."""
    entries = table.entries
    for key, entry in source.entries.items():
        move = entry[MOVE]
        if move is None:
            continue
        own = entries.get(key)
        if own is None:
            table.store(key, ORDER_ONLY_DEPTH, -INF, INF, move)
        elif own[MOVE] != move:
            entries[key] = own[:MOVE] + (move,) + own[MOVE + 1 :]


def _deepen(searcher: Any, state: Any, depth: int, order: list[int]) -> tuple[float, Any]:
    """One iteration as the bot runs it: CPU seconds, (value, action)."""
    value, action, timing = timed_iteration(searcher, state, depth, root_order=order)
    return timing.process, (value, action)


def ordering_bound(
    game: Any,
    state: Any,
    name: str,
    params: dict[str, Any],
    depth: int,
    rounds: int = DEFAULT_ROUNDS,
    capacity: int = KNOWN_MOVES_CAPACITY,
) -> dict[str, Any]:
    """The bot's own deepening to ``depth``, then ``rounds`` deepenings whose iteration
    ``depth`` is ordered by the moves of the search before; CPU, nodes, root values."""
    player = state.current_player()
    # The known moves are imposed on the Python engine's table: this section reads and
    # writes table entries, which the native engine keeps in C++.
    params = {**params, "tt_size": capacity, "engine": "python"}

    def fresh() -> Any:
        searcher = bots.make_bot(name, game, player, **params).searcher
        searcher.reset_stats()
        return searcher

    searcher = fresh()
    deepening: list[dict[str, Any]] = []
    orders: list[list[int]] = [[]]
    cpu = 0.0
    value = math.nan
    for d in range(1, depth + 1):
        seconds, (value, action) = _deepen(searcher, state, d, orders[-1])
        cpu += seconds
        deepening.append(
            {"depth": d, "cpu": cpu, "nodes": searcher.nodes, "tt_hits": searcher.tt_hits}
        )
        orders.append([action] if action is not None else [])
    record: dict[str, Any] = {"deepening": deepening, "value": value, "rounds": []}
    known, known_order = searcher.table, orders[depth]
    for _ in range(rounds):
        searcher = fresh()
        before = 0.0
        for d in range(1, depth):
            before += _deepen(searcher, state, d, orders[d - 1])[0]
        nodes, hits = searcher.nodes, searcher.tt_hits
        impose_moves(searcher.table, known)
        # The root too searches the known best move first.
        seconds, (value, action) = _deepen(searcher, state, depth, known_order)
        record["rounds"].append(
            {
                "cpu_before": before,
                "cpu": seconds,
                "nodes_before": nodes,
                "nodes": searcher.nodes - nodes,
                "tt_hits": searcher.tt_hits - hits,
                "value": value,
                "action": action,
            }
        )
        known, known_order = searcher.table, [action] if action is not None else []
    return record


def ordering_bound_table(records: Sequence[dict[str, Any]], reference: str) -> str:
    """Per game and algorithm: depth D against the reference's D-1, with and without
    the best moves known at D."""
    emm: dict[str, dict[int, dict[int, dict]]] = defaultdict(dict)
    runs: dict[tuple[str, str], dict[int, dict]] = defaultdict(dict)
    for r in records:
        if r.get("error"):
            continue
        if r.get("section") == "time_to_depth" and r["bot"] == reference:
            emm[r["game"]][r["index"]] = {d["depth"]: d for d in r["depths"]}
        elif r.get("section") == "ordering_bound":
            runs[(r["game"], r["bot"])][r["index"]] = r
    header = [
        "game",
        "d",
        "positions",
        "algorithm",
        "time(alg, d+1) / time(emm, d): own deepening",
        "best moves known at d+1",
        "its iteration d+1 alone / time(emm, d)",
        "best moves known",
        "nodes of iteration d+1: best moves known / own",
        "nodes(alg, d+1) / nodes(emm, d), best moves known",
    ]
    table_rows: list[list[Any]] = []
    for (game, bot), by_index in sorted(runs.items()):
        d = next(iter(by_index.values()))["depth"] - 1
        both = [i for i in by_index if d in emm[game].get(i, {})]
        if not both or d < 1:
            continue
        emm_cpu = sum(emm[game][i][d]["cpu"] for i in both)
        emm_nodes = sum(emm[game][i][d]["nodes"] for i in both)
        own = [by_index[i]["deepening"] for i in both]
        best = [by_index[i]["rounds"][-1] for i in both]
        own_cpu = sum(rows[-1]["cpu"] for rows in own)
        own_last = sum(rows[-1]["cpu"] - rows[-2]["cpu"] for rows in own)
        own_last_nodes = sum(rows[-1]["nodes"] - rows[-2]["nodes"] for rows in own)
        best_last = sum(r["cpu"] for r in best)
        best_cpu = sum(rows[-2]["cpu"] for rows in own) + best_last
        best_nodes = sum(r["nodes"] for r in best)
        # What the ratio would be if a node cost what an expectiminimax node costs.
        best_all_nodes = sum(rows[-2]["nodes"] for rows in own) + best_nodes
        table_rows.append(
            [
                game,
                d,
                len(both),
                f"`{bot}`",
                f"{own_cpu / emm_cpu:.2f}",
                f"{best_cpu / emm_cpu:.2f}",
                f"{own_last / emm_cpu:.2f}",
                f"{best_last / emm_cpu:.2f}",
                f"{best_nodes / own_last_nodes:.2f}",
                f"{best_all_nodes / emm_nodes:.2f}",
            ]
        )
    return markdown_table(header, table_rows, "-rr-rrrrrr") + "\n"
