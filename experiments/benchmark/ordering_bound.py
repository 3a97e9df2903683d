"""What better move ordering could still buy a pruning search: its tree when the best
moves are known.

Star2's cuts depend on move order. A probe of a decision child bounds the chance
node tightly only when the probed move is the child's best; an alpha-beta cut comes
early only when the refutation is searched first. Every ordering lever (the table's
move, history, the evaluator's ordering, killer moves) is a guess at those moves.
This section measures what a perfect guess would be worth in the engine as it is,
before anyone builds one:

1. The bot deepens 1, 2, ..., D as in the time-to-depth section, but with a table
   large enough to keep every entry (``KNOWN_MOVES_CAPACITY``).
2. A fresh searcher of the same bot searches depth D once, with no iterative
   deepening, its table holding only the best (or refuting) move of every decision
   node the previous search stored, as entries that order moves and never decide a
   value. Repeated ``rounds`` times, each round ordered by the one before (the node
   counts settle after one or two rounds).

The last round is the bot's tree at depth D with the moves of a complete search at
depth D searched first: about the smallest tree better ordering can reach (not a
proven minimum: the moves are the ones that cut for the windows the previous search
met). Its CPU time against expectiminimax's time to complete D-1 bounds how far the
time-to-depth ratio of issue 10 can fall by ordering alone.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import bots
from bots.transposition import MOVE, TranspositionTable

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
    for key, entry in source.entries.items():
        if entry[MOVE] is not None:
            table.store(key, ORDER_ONLY_DEPTH, -INF, INF, entry[MOVE])
    return table


def ordering_bound(
    game: Any,
    state: Any,
    name: str,
    params: dict[str, Any],
    depth: int,
    rounds: int = DEFAULT_ROUNDS,
    capacity: int = KNOWN_MOVES_CAPACITY,
) -> dict[str, Any]:
    """The bot's own deepening to ``depth`` and ``rounds`` searches at ``depth`` ordered
    by the moves of the search before; CPU seconds, nodes and the root value of each."""
    player = state.current_player()
    params = {**params, "tt_size": capacity}
    searcher = bots.make_bot(name, game, player, **params).searcher
    searcher.reset_stats()
    deepening: list[dict[str, Any]] = []
    order: list[int] = []
    cpu = 0.0
    value = math.nan
    for d in range(1, depth + 1):
        start = time.process_time()
        value, action = searcher.search(state, d, root_order=order)
        cpu += time.process_time() - start
        deepening.append(
            {"depth": d, "cpu": cpu, "nodes": searcher.nodes, "tt_hits": searcher.tt_hits}
        )
        order = [action] if action is not None else []
    record: dict[str, Any] = {"deepening": deepening, "value": value, "rounds": []}
    table = searcher.table
    for _ in range(rounds):
        searcher = bots.make_bot(name, game, player, **params).searcher
        searcher.table = order_only_table(table, capacity)
        searcher.reset_stats()
        start = time.process_time()
        value, action = searcher.search(state, depth)
        record["rounds"].append(
            {
                "cpu": time.process_time() - start,
                "nodes": searcher.nodes,
                "tt_hits": searcher.tt_hits,
                "value": value,
                "action": action,
            }
        )
        table = searcher.table
    return record


def ordering_bound_table(records: Sequence[dict[str, Any]], reference: str) -> str:
    """Per game and algorithm: depth D against the reference's D-1, three ways."""
    emm: dict[str, dict[int, dict[int, dict]]] = defaultdict(dict)
    runs: dict[tuple[str, str], dict[int, dict]] = defaultdict(dict)
    for r in records:
        if r.get("error"):
            continue
        if r.get("section") == "time_to_depth" and r["bot"] == reference:
            emm[r["game"]][r["index"]] = {d["depth"]: d for d in r["depths"]}
        elif r.get("section") == "ordering_bound":
            runs[(r["game"], r["bot"])][r["index"]] = r
    lines = [
        "| game | d | positions | algorithm | nodes at d+1 / emm's at d: own deepening | "
        "best moves known | time(alg, d+1) / time(emm, d): own deepening | "
        "its iteration d+1 alone | one search, best moves known |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for (game, bot), by_index in sorted(runs.items()):
        deeper = next(iter(by_index.values()))["depth"]
        d = deeper - 1
        both = [i for i in by_index if d in emm[game].get(i, {})]
        if not both:
            continue
        emm_cpu = sum(emm[game][i][d]["cpu"] for i in both)
        emm_nodes = sum(emm[game][i][d]["nodes"] for i in both)
        own = [by_index[i]["deepening"] for i in both]
        own_cpu = sum(rows[-1]["cpu"] for rows in own)
        own_nodes = sum(rows[-1]["nodes"] for rows in own)
        last_cpu = sum(rows[-1]["cpu"] - (rows[-2]["cpu"] if len(rows) > 1 else 0) for rows in own)
        best = [by_index[i]["rounds"][-1] for i in both]
        best_cpu = sum(r["cpu"] for r in best)
        best_nodes = sum(r["nodes"] for r in best)
        lines.append(
            f"| {game} | {d} | {len(both)} | `{bot}` | {own_nodes / emm_nodes:.2f} | "
            f"{best_nodes / emm_nodes:.2f} | {own_cpu / emm_cpu:.2f} | "
            f"{last_cpu / emm_cpu:.2f} | {best_cpu / emm_cpu:.2f} |"
        )
    return "\n".join(lines) + "\n"
