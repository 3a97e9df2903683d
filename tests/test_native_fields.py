"""The native engine's fast paths that read OpenSpiel's private fields, against the public
State API (the generic path), and the switch that turns them off for another open_spiel.

The fast paths (bots/native/openspiel_internals.h names every private member they use)
restore a state's fields instead of cloning it, apply moves, list moves, tell the player
to move and key states from fields. Each (game, path) pair is checked here or in the
test named in ``CHECKED_BY``: a fast path the table does not list fails the first test.
With the fast paths off (another open_spiel, or STARSPIEL_FIELD_PATHS=off), searches give
the same values, moves and counters. Skipped where the native engine is not built.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pyspiel
import pytest
from helpers.exactness import deepen, deepening_differences
from helpers.games_in_scope import GAMES_IN_SCOPE
from helpers.playouts import random_action

import games  # noqa: F401  (registers the custom games)
from bots import native_engine
from experiments.benchmark.depth import task_position

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    native_engine.problem() is not None, reason=str(native_engine.problem())
)

# Every fast path of every game, and the test that compares it with the generic path.
CHECKED_BY = {
    ("pig", "restore"): "test_restorers_give_back_the_games_states",
    ("pig", "key"): "test_native_keys.py::test_field_keys_equal_text_keys_partition",
    ("einstein_wurfelt_nicht", "restore"): "test_restorers_give_back_the_games_states",
    ("einstein_wurfelt_nicht", "apply"): (
        "test_native_moves.py::test_einstein_moves_applied_by_the_engine_are_openspiels"
    ),
    ("einstein_wurfelt_nicht", "moves"): "test_native_moves.py::test_einstein_moves_are_openspiels",
    ("einstein_wurfelt_nicht", "player"): (
        "test_native_moves.py::test_einstein_moves_applied_by_the_engine_are_openspiels"
    ),
    ("einstein_wurfelt_nicht", "key"): (
        "test_native_keys.py::test_field_keys_equal_text_keys_partition"
    ),
    ("backgammon", "restore"): "test_restorers_give_back_the_games_states",
    ("backgammon", "moves"): "test_native_moves.py::test_backgammon_moves_are_openspiels",
    ("backgammon", "key"): "test_native_keys.py::test_field_keys_equal_text_keys_partition",
    ("catch", "restore"): "test_restorers_give_back_the_games_states",
    ("catch", "moves"): "test_native_moves.py::test_catch_moves_are_openspiels",
    ("catch", "key"): "test_native_keys.py::test_field_keys_equal_text_keys_partition",
    ("2048", "restore"): "test_restorers_give_back_the_games_states",
    ("2048", "apply"): "test_native_moves.py::test_2048_moves_and_ends_are_openspiels",
    ("2048", "moves"): "test_native_moves.py::test_2048_moves_and_ends_are_openspiels",
    ("2048", "player"): "test_native_moves.py::test_2048_moves_and_ends_are_openspiels",
    # ballard_tree and dice are this project's own games: no private fields, never off.
    ("ballard_tree", "key"): "test_native_keys.py::test_field_keys_equal_text_keys_partition",
    ("dice", "key"): "test_native_keys.py::test_field_keys_equal_text_keys_partition",
    ("ballard_tree", "moves"): (
        "test_native_moves.py::test_ballard_moves_players_and_undo_are_the_games"
    ),
    ("ballard_tree", "player"): (
        "test_native_moves.py::test_ballard_moves_players_and_undo_are_the_games"
    ),
}
# Fast paths that read no OpenSpiel internals, so they stay on when the others are off.
OWN_GAMES = {"ballard_tree", "dice"}
# Games searched through the generic path below: every game with a field fast path.
FIELD_GAMES = sorted({game for game, _ in CHECKED_BY} - OWN_GAMES)


def _game_specs() -> list[str]:
    """Every game OpenSpiel registers (with its default parameters), and the games in
    scope with theirs."""
    return sorted(set(pyspiel.registered_names()) | set(GAMES_IN_SCOPE))


def _fast_paths(module, spec: str) -> set[tuple[str, str]] | None:
    try:
        game = pyspiel.load_game(spec)
        state = game.new_initial_state()
    except Exception:  # noqa: BLE001 - games that need parameters or files have no fast path
        return None
    name = game.get_type().short_name
    return {(name, path) for path in module.fast_paths(state)}


@pytest.fixture
def field_paths_off() -> Iterator[object]:
    """The native module with its field fast paths off as for another open_spiel; put
    back as built afterwards."""
    module = native_engine.require()
    module.configure_field_paths("0.0.0-another", True)
    try:
        yield module
    finally:
        module.configure_field_paths(module.OPEN_SPIEL_VERSION, True)
    assert module.field_paths()


def test_every_fast_path_is_checked_against_the_generic_path():
    module = native_engine.require()
    found: set[tuple[str, str]] = set()
    for spec in _game_specs():
        found |= _fast_paths(module, spec) or set()
    assert found == set(CHECKED_BY), (
        "fast paths without a test against the generic path (add one, and a CHECKED_BY "
        f"entry): {sorted(found - set(CHECKED_BY))}; listed but gone: "
        f"{sorted(set(CHECKED_BY) - found)}"
    )


def _states(game: pyspiel.Game, seed: int, walks: int) -> Iterator[pyspiel.State]:
    """Every state of random walks, chance nodes included."""
    rng = random.Random(seed)
    for _ in range(walks):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            state.apply_action(random_action(state, rng))


@pytest.mark.parametrize(
    "spec,walks,every",
    [
        ("pig", 6, 1),
        ("pig(players=3,winscore=20)", 4, 1),
        ("catch", 4, 1),
        ("catch(rows=5,columns=3)", 4, 1),
        pytest.param("einstein_wurfelt_nicht", 3, 1, marks=pytest.mark.slow),
        ("2048(max_tile=64)", 2, 1),
        ("backgammon", 1, 3),
        ("backgammon(hyper_backgammon=true)", 2, 2),
    ],
)
def test_restorers_give_back_the_games_states(spec, walks, every):
    """The engine saves a state's fields, applies a move (its own apply where it has one)
    and writes them back (field_undo.cc): after each move the state is the game's child,
    after the restore the state before, in every field, the history and the move number;
    two plies deep, at every checked state of random games."""
    module = native_engine.require()
    game = pyspiel.load_game(spec)
    checked = 0
    for index, state in enumerate(_states(game, seed=13, walks=walks)):
        if index % every:
            continue
        assert module.fast_restore_mismatches(state) == [], str(state)
        checked += 1
    assert checked >= 20, checked
    chess = pyspiel.load_game("chess").new_initial_state()
    assert module.fast_restore_mismatches(chess) is None


def test_field_paths_are_on_for_the_release_they_were_checked_for():
    module = native_engine.require()
    assert module.FIELD_PATHS_OPEN_SPIEL_VERSION == module.OPEN_SPIEL_VERSION, (
        "the native engine was built against an open_spiel its fast paths were not checked "
        "for: see docs/guide/engines.md, 'Moving to a new open_spiel release'"
    )
    assert module.field_paths() and module.field_paths_problem() is None


def test_another_open_spiel_turns_every_field_path_off(field_paths_off):
    """Built against another open_spiel, the engine says so in one line and uses no field
    fast path: the game's own moves, players, undo (or clones) and text keys."""
    module = field_paths_off
    assert not module.field_paths()
    problem = module.field_paths_problem()
    assert "0.0.0-another" in problem and module.FIELD_PATHS_OPEN_SPIEL_VERSION in problem
    assert "\n" not in problem
    for spec in FIELD_GAMES:
        state = pyspiel.load_game(spec).new_initial_state()
        assert module.fast_paths(state) == [], spec
        assert module.fast_restore_mismatches(state) is None
        for state in _states(pyspiel.load_game(spec), seed=1, walks=1):
            assert module.fast_legal_actions(state) is None
            assert module.fast_current_player(state) is None
            assert module.state_key(state) == module.state_key(state, from_fields=False)
    # The project's own games keep theirs.
    for spec in sorted(OWN_GAMES):
        state = pyspiel.load_game(spec).new_initial_state()
        assert {(spec, path) for path in module.fast_paths(state)} == {
            pair for pair in CHECKED_BY if pair[0] == spec
        }


def test_switched_off_by_choice_the_field_paths_say_nothing():
    module = native_engine.require()
    try:
        module.configure_field_paths(module.OPEN_SPIEL_VERSION, False)
        assert not module.field_paths() and module.field_paths_problem() is None
    finally:
        module.configure_field_paths(module.OPEN_SPIEL_VERSION, True)
    assert module.field_paths()


def test_the_environment_switches_the_field_paths_off():
    """STARSPIEL_FIELD_PATHS=off, read when the engine loads: the generic path, no warning."""
    code = (
        "import warnings; warnings.simplefilter('error'); from bots import native_engine; "
        "m = native_engine.require(); print(m.field_paths(), m.field_paths_problem())"
    )
    env = dict(os.environ, STARSPIEL_FIELD_PATHS="off", PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "None"], out.stderr


def test_the_loader_warns_once_where_the_field_paths_are_off(field_paths_off, monkeypatch):
    monkeypatch.setattr(native_engine, "_loaded", False)
    with pytest.warns(UserWarning, match="fast paths .* are off"):
        assert native_engine.native() is field_paths_off
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        native_engine.native()  # said once


@pytest.mark.parametrize("game_string", FIELD_GAMES)
@pytest.mark.parametrize("spec,tt_size", [("star2", None), ("expectiminimax", None), ("star1", 0)])
def test_the_generic_path_searches_as_the_fast_paths_do(game_string, spec, tt_size):
    """The same deepening, value for value and counter for counter, with the field fast
    paths on and off (the game's own State API, clones where it cannot undo)."""
    module = native_engine.require()
    depth = {"backgammon": 2, "2048": 2, "catch": 5}.get(game_string, 3)
    options = {} if tt_size is None else {"tt_size": tt_size}
    for index in range(2):
        game, state = task_position({"game": game_string, "seed": 0, "index": index})
        fast = deepen(game, state, spec, depth, "native", **options)
        module.configure_field_paths(module.OPEN_SPIEL_VERSION, False)
        try:
            generic = deepen(game, state, spec, depth, "native", **options)
        finally:
            module.configure_field_paths(module.OPEN_SPIEL_VERSION, True)
        differences = deepening_differences(fast, generic)
        assert not differences, f"{game_string} position {index} {spec}: {differences}"
        assert fast["stats"]["nodes"] > 10


@pytest.mark.parametrize("game_string", ["einstein_wurfelt_nicht", "2048"])
def test_evaluators_read_the_same_values_through_the_public_api(game_string):
    """The 2048 and EinStein evaluators read a field each where the fast paths are on."""
    module = native_engine.require()
    game = pyspiel.load_game(game_string)
    states = [s.clone() for s in _states(game, seed=4, walks=2)]
    on = [module.evaluator_value(game_string, game, s, 0) for s in states]
    module.configure_field_paths(module.OPEN_SPIEL_VERSION, False)
    try:
        off = [module.evaluator_value(game_string, game, s, 0) for s in states]
    finally:
        module.configure_field_paths(module.OPEN_SPIEL_VERSION, True)
    assert on == off and len(states) > 20
