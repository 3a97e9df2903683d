"""Golden search statistics: a change meant only to make the engine faster must not
change what it searches.

`search_golden_stats.json` holds, for real games and every algorithm (Star2.5 variants
included), the root value and move of each iterative-deepening iteration a bot runs and
the final `stats()` counters. Both engines (python and native) must reproduce it to the
node; the Python engine, the reference, writes it. An engine change that alters them on
purpose (a new pruning rule, another move order) rewrites the file with

    python tests/test_search_golden_stats.py --regenerate

and reports the new node counts and why, as the project's rules ask.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import pytest
from helpers.exactness import deepen, deepening_differences

import games  # noqa: F401  (registers dice)
from experiments.benchmark.depth import task_position

pytestmark = pytest.mark.parity  # engine parity and golden values: every supported Python

GOLDEN_PATH = pathlib.Path(__file__).parent / "data" / "search_golden_stats.json"

# (game, bot spec, deepest iteration); three seeded positions each.
CASES = [
    ("dice(n=5,k=4)", "star2", 4),
    ("dice(n=5,k=4)", "chanceprobcut", 4),
    ("dice(n=5,k=4)", "chanceprobcut(t=1.5)", 4),
    ("dice(n=5,k=4)", "expectiminimax", 3),
    ("dice(n=5,k=4)", "star1", 4),
    ("dice(n=5,k=4)", "star2(probing=sequential,probing_factor=3)", 4),
    ("einstein_wurfelt_nicht", "star2", 4),
    ("einstein_wurfelt_nicht", "chanceprobcut", 4),
    ("einstein_wurfelt_nicht", "chanceprobcut(t=1.5)", 4),
    ("einstein_wurfelt_nicht", "expectiminimax", 3),
    ("pig", "star2", 6),
    ("pig", "chanceprobcut", 6),
    ("pig", "chanceprobcut(t=1.5)", 6),
    ("pig", "expectiminimax", 5),
    ("pig", "star2(reachable_probes=false,probing_factor=2)", 5),
    ("backgammon", "star2", 2),
    ("backgammon", "chanceprobcut", 2),
    ("backgammon", "star2(probing=sequential,probing_factor=2)", 2),
]
POSITIONS = 3


def deepen_case(
    game_string: str, spec: str, depth: int, index: int, engine: str = "python"
) -> dict[str, Any]:
    """The bot's own deepening on one of the benchmark's seeded positions."""
    game, state = task_position({"game": game_string, "seed": 0, "index": index})
    return deepen(game, state, spec, depth, engine)


def case_id(game_string: str, spec: str, index: int) -> str:
    return f"{game_string}|{spec}|{index}"


def all_cases() -> list[tuple[str, str, int, int]]:
    return [(g, s, d, i) for g, s, d in CASES for i in range(POSITIONS)]


GOLDEN = json.loads(GOLDEN_PATH.read_text()) if GOLDEN_PATH.exists() else {}


@pytest.mark.parametrize("game_string,spec,depth,index", all_cases())
def test_search_matches_golden(
    game_string: str, spec: str, depth: int, index: int, engine: str
) -> None:
    """Both engines reproduce the file to the node."""
    expected = GOLDEN[case_id(game_string, spec, index)]
    got = deepen_case(game_string, spec, depth, index, engine)
    differences = deepening_differences(expected, got, counters=expected["stats"])
    assert not differences, "; ".join(differences)


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: python {sys.argv[0]} --regenerate")
    golden = {case_id(g, s, i): deepen_case(g, s, d, i) for g, s, d, i in all_cases()}
    GOLDEN_PATH.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(golden)} cases to {GOLDEN_PATH}")
