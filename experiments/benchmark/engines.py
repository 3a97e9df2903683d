"""`python -m experiments.benchmark.engines`: the native engine against the Python one,
against the floor, and against OpenSpiel's own C++ expectiminimax.

Three sections, each on the same seeded positions, measured side by side in one process
(CPU time, ``time.process_time``, so a busy machine skews the ratios less):

* ``engines``: star2 as ``make_bot`` builds it (the game's defaults, a fresh table per
  position) to a fixed depth on each engine. The node counts must be identical; the
  ratio is Python's CPU time over native's.
* ``floor``: native star2's CPU per node over the floor's, a plain C++ expectimax (one
  ``Child()`` and one ``LegalActions()``/``ChanceOutcomes()`` per node) calling the same
  native evaluator over the same positions and depth.
* ``openspiel``: OpenSpiel's C++ ``algorithms::ExpectiminimaxSearch`` with the same native
  evaluator as its value function against native star2; the values must agree to 1e-9.

Every timed call follows the same call, untimed, on fresh objects of its own (a fresh bot
and table for a search), so each is timed with the caches warm, as in a game, where a
bot's searches follow one another. A catch search of 73 nodes costs 14.4 us timed cold,
straight after the bot's construction in Python, and 7.4 us warm: cold timing charged
small searches for the harness.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from absl import app, flags

import bots
import games  # noqa: F401  (registers the custom games)
from bots import native_engine
from experiments.benchmark.depth import task_position
from experiments.common.measure import timed, timed_iteration
from experiments.common.results import ResultsFolder, write_atomic
from experiments.common.tables import markdown_table

SECTIONS = ("engines", "floor", "openspiel")
DEFAULT_ENGINES = (
    "pig:7",
    "dice:5",
    "einstein_wurfelt_nicht:5",
    "catch:7",
    "2048:3",
    "backgammon:2",
)
DEFAULT_OPENSPIEL = ("pig:7", "einstein_wurfelt_nicht:5", "backgammon:3")
GOALS = {"engines": {"backgammon": 8.0}, "engines_default": 15.0, "floor": 2.0}
OPENSPIEL_GOALS = {"pig": 8.0, "einstein_wurfelt_nicht": 8.0, "backgammon": 200.0}

FLAGS = flags.FLAGS
flags.DEFINE_list("sections", list(SECTIONS), f"Sections to run: {', '.join(SECTIONS)}.")
flags.DEFINE_list("games", list(DEFAULT_ENGINES), "game:depth pairs for engines and floor.")
flags.DEFINE_list("openspiel_games", list(DEFAULT_OPENSPIEL), "game:depth pairs for openspiel.")
flags.DEFINE_integer("positions", 8, "Seeded positions per game (experiments.benchmark.depth's).")
flags.DEFINE_integer("seed", 0, "Position seed.")
flags.DEFINE_string("out", "results/benchmark_engines", "Results folder.")


def parse_pairs(items: Sequence[str]) -> list[tuple[str, int]]:
    pairs = []
    for item in items:
        name, sep, depth = item.rpartition(":")
        if not sep or not depth.isdigit() or not name:
            raise ValueError(f"expected game:depth (e.g. pig:7), got {item!r}")
        pairs.append((name, int(depth)))
    return pairs


def star2_search(game: Any, state: Any, depth: int, engine: str) -> tuple[dict, float]:
    """One fixed-depth star2 search from a fresh bot, after the same search from another
    (the warm-up): (stats with value/action, CPU s)."""
    spec = f"star2(max_depth={depth})"
    warm_up, timed_bot = (
        bots.make_bot(spec, game, state.current_player(), engine=engine) for _ in range(2)
    )
    timed_iteration(warm_up.searcher, state, depth)
    searcher = timed_bot.searcher
    value, action, timing = timed_iteration(searcher, state, depth)
    record = {**searcher.stats(), "value": value, "action": action, "engine": searcher.engine}
    return record, timing.process


def measure_engines(game_string: str, depth: int, index: int, seed: int) -> dict[str, Any]:
    game, state = task_position({"game": game_string, "seed": seed, "index": index})
    python, python_cpu = star2_search(game, state, depth, "python")
    native, native_cpu = star2_search(game, state, depth, "native")
    same = {k: v for k, v in python.items() if k != "engine"} == {
        k: v for k, v in native.items() if k != "engine"
    }
    return {
        "nodes": native["nodes"],
        "python_cpu": python_cpu,
        "native_cpu": native_cpu,
        "native_ran": native["engine"],
        "identical": same,
    }


# A baseline's result: (value, nodes, evaluations, ...).
_BASELINE_COUNTS = {"nodes": 1, "evaluations": 2}


def _against_baseline(
    game_string: str, depth: int, index: int, seed: int, baseline: str, kind: str, count: str
) -> dict[str, Any]:
    """Native star2 and a C++ baseline of the extension on one position: star2's nodes and
    CPU seconds, the baseline's ``<kind>_<count>`` (the count its result holds at
    ``_BASELINE_COUNTS[count]``) and CPU seconds, and whether the values agree."""
    module = native_engine.require()
    game, state = task_position({"game": game_string, "seed": seed, "index": index})
    native, native_cpu = star2_search(game, state, depth, "native")
    evaluator = bots.make_bot("star2", game, 0, engine="native").searcher.native_evaluator
    player = state.current_player()
    run = getattr(module, baseline)
    run(game, state, depth, evaluator, player)  # the warm-up
    result, timing = timed(lambda: run(game, state, depth, evaluator, player))
    return {
        "star2_nodes": native["nodes"],
        "star2_cpu": native_cpu,
        f"{kind}_{count}": result[_BASELINE_COUNTS[count]],
        f"{kind}_cpu": timing.process,
        "values_agree": abs(result[0] - native["value"]) <= 1e-9,
    }


def measure_floor(game_string: str, depth: int, index: int, seed: int) -> dict[str, Any]:
    """Star2 against a plain expectimax in C++ (the floor any search pays per node)."""
    return _against_baseline(game_string, depth, index, seed, "plain_expectimax", "floor", "nodes")


def measure_openspiel(game_string: str, depth: int, index: int, seed: int) -> dict[str, Any]:
    """Star2 against OpenSpiel's own expectiminimax (its evaluator calls)."""
    return _against_baseline(
        game_string, depth, index, seed, "openspiel_expectiminimax", "openspiel", "evaluations"
    )


MEASURES = {"engines": measure_engines, "floor": measure_floor, "openspiel": measure_openspiel}


def _ratio(records: list[dict], numerator: str, denominator: str) -> float:
    return sum(r[numerator] for r in records) / max(sum(r[denominator] for r in records), 1e-12)


def _engines_row(game: str, depth: int, rs: list[dict]) -> list[Any]:
    ratio = _ratio(rs, "python_cpu", "native_cpu")
    goal = GOALS["engines"].get(game.split("(")[0], GOALS["engines_default"])
    return [
        game,
        depth,
        len(rs),
        f"{statistics.mean(r['nodes'] for r in rs):,.0f}",
        f"{sum(r['python_cpu'] for r in rs):.3f}",
        f"{sum(r['native_cpu'] for r in rs):.3f}",
        f"**{ratio:.1f}x**",
        f"{goal:g}x",
        f"{sum(r['identical'] for r in rs)} of {len(rs)}",
    ]


def _floor_row(game: str, depth: int, rs: list[dict]) -> list[Any]:
    star2 = 1e6 * _ratio(rs, "star2_cpu", "star2_nodes")
    floor = 1e6 * _ratio(rs, "floor_cpu", "floor_nodes")
    return [
        game,
        depth,
        f"{star2:.3f}",
        f"{floor:.3f}",
        f"**{star2 / floor:.2f}**",
        f"<= {GOALS['floor']:g}",
    ]


def _openspiel_row(game: str, depth: int, rs: list[dict]) -> list[Any]:
    ratio = _ratio(rs, "openspiel_cpu", "star2_cpu")
    goal = OPENSPIEL_GOALS.get(game.split("(")[0])
    return [
        game,
        depth,
        len(rs),
        f"{sum(r['openspiel_cpu'] for r in rs):.3f}",
        f"{sum(r['star2_cpu'] for r in rs):.4f}",
        f"**{ratio:.0f}x**",
        "" if goal is None else f"{goal:g}x",
        f"{sum(r['values_agree'] for r in rs)} of {len(rs)}",
    ]


# Per section, in the order the summary shows them: its table's header and row.
_SECTION_TABLES: dict[str, tuple[list[str], Callable[[str, int, list[dict]], list[Any]]]] = {
    "engines": (
        "game|depth|positions|star2 nodes (mean)|Python CPU s|native CPU s|"
        "native / Python nodes per second|goal|identical counts".split("|"),
        _engines_row,
    ),
    "floor": (
        "game|depth|star2 us per node|floor us per node|star2 / floor|goal".split("|"),
        _floor_row,
    ),
    "openspiel": (
        "game|depth|positions|OpenSpiel C++ expectiminimax CPU s|native star2 CPU s|"
        "speed-up|goal|values agree (1e-9)".split("|"),
        _openspiel_row,
    ),
}


def summarize(records: list[dict]) -> str:
    by_section: dict[str, dict[tuple[str, int], list[dict]]] = {}
    for record in records:
        key = (record["game"], record["depth"])
        by_section.setdefault(record["section"], {}).setdefault(key, []).append(record)
    lines = []
    for section, (header, row) in _SECTION_TABLES.items():
        if section in by_section:
            rows = [row(game, depth, rs) for (game, depth), rs in by_section[section].items()]
            lines += [markdown_table(header, rows), ""]
    return "\n".join(lines)


def run(
    sections: Sequence[str],
    engine_pairs: Sequence[tuple[str, int]],
    openspiel_pairs: Sequence[tuple[str, int]],
    positions: int,
    seed: int,
    out: str,
) -> str:
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ValueError(
            f"unknown section(s) {', '.join(unknown)}; accepted: {', '.join(SECTIONS)}"
        )
    if native_engine.problem() is not None:
        raise RuntimeError(
            f"the engines benchmark needs the native engine: {native_engine.problem()}"
        )
    config = {
        "sections": list(sections),
        "games": [f"{g}:{d}" for g, d in engine_pairs],
        "openspiel_games": [f"{g}:{d}" for g, d in openspiel_pairs],
        "positions": positions,
        "seed": seed,
    }
    with ResultsFolder(out, config, extra={"load": os.getloadavg()}) as folder:
        records = list(folder.existing.values())
        for section in sections:
            pairs = openspiel_pairs if section == "openspiel" else engine_pairs
            for game, depth in pairs:
                for index in range(positions):
                    record_id = f"{section}|{game}|{depth}|{index}"
                    if record_id in folder.existing:
                        continue
                    record = {"id": record_id, "section": section, "game": game, "depth": depth}
                    record.update(MEASURES[section](game, depth, index, seed))
                    folder.append(record)
                    records.append(record)
                    print(json.dumps(record), file=sys.stderr)
    order = {r["id"]: i for i, r in enumerate(records)}
    summary = summarize(sorted(records, key=lambda r: order[r["id"]]))
    command = "python -m experiments.benchmark.engines " + " ".join(sys.argv[1:])
    text = f"{summary}\nCommand: `{command.strip()}`; load average at start {os.getloadavg()[0]:.2f}.\n"
    write_atomic(os.path.join(out, "summary.md"), text)
    return text


def main(argv: list[str]) -> None:
    del argv
    print(
        run(
            FLAGS.sections,
            parse_pairs(FLAGS.games),
            parse_pairs(FLAGS.openspiel_games),
            FLAGS.positions,
            FLAGS.seed,
            FLAGS.out,
        )
    )


if __name__ == "__main__":
    app.run(main)
