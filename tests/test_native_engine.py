"""What only the native engine has: parity with the Python engine to the counter, errors
raised through it, its loader, and its deadline.

The reference is the Python engine (bots/search.py, bots/mcms.py). For every algorithm
the native engine must return the same value and move at every iteration of a bot's
own deepening (one searcher, table and history kept, the previous move first) and the
same ``stats()``, counter for counter, with the bot's table, without one and with a
table small enough to evict. Positions are the benchmark's seeded ones.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pyspiel
import pytest
from helpers.engines import native_problem, position_keyed
from helpers.exactness import deepen, deepening_differences
from helpers.playouts import random_action
from helpers.random_tree import random_tree
from helpers.random_tree_game import RandomTreeGame, StateOnlyTreeEvaluator

import bots
import games  # noqa: F401  (registers dice)
from bots import native_engine
from bots.calibration import canonical_game_string, default_calibration_path, save_calibration
from bots.evaluators import default_evaluator
from bots.native_searcher import NativeSearcher, make_searcher
from bots.search import LeafValueOutOfBounds, search
from experiments.benchmark.depth import task_position

pytestmark = [
    pytest.mark.parity,  # engine parity: run on every supported Python (.ci/run)
    pytest.mark.skipif(native_problem() is not None, reason=f"engine=native: {native_problem()}"),
]

# game, deepest iteration, positions (experiments.benchmark.depth.task_position, seed 0)
GAMES = [
    ("pig", 4, 2),
    ("backgammon", 2, 1),
    ("einstein_wurfelt_nicht", 3, 2),
    ("2048", 2, 2),
    ("catch", 4, 2),
    ("yacht", 1, 2),
    ("maedn", 2, 2),
    ("banqi", 2, 2),
]
SPECS = [
    "expectiminimax",
    "star1",
    "star2",
    "star2(probing_factor=2,probing=cyclic)",
    "star2(probing_factor=2,probing=sequential)",
    "chanceprobcut",
    "mcms(samples=3,seed=5)",
]
# None: the bot's default table; 50 entries evict in the middle of a search.
TT_SIZES = [None, 0, 50]


def synthetic_calibration(path: Any, game: pyspiel.Game) -> str:
    """ChanceProbCut models for games the project has not calibrated (a=1, b=0)."""
    models = [
        {"depth": d, "reduction": r, "a": 1.0, "b": 0.0, "sigma": 0.05, "r2": 1.0, "samples": 100}
        for r in (1, 2)
        for d in range(2, 8)
        if d > r
    ]
    data = {"game": canonical_game_string(game), "evaluator": "default", "models": models}
    save_calibration(str(path), data)
    return str(path)


def assert_same(python: dict[str, Any], native: dict[str, Any], where: str) -> None:
    differences = deepening_differences(python, native)
    assert not differences, f"{where}: native differs from python: " + "; ".join(differences)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("game_string,depth,positions", GAMES)
def test_engines_agree_on_every_counter(tmp_path, game_string, depth, positions, spec):
    game = pyspiel.load_game(game_string)
    extra: dict[str, Any] = {}
    if spec.startswith("chanceprobcut") and not _has_calibration(game):
        extra["calibration"] = synthetic_calibration(tmp_path / "cal.json", game)
    for index in range(positions):
        game, state = task_position({"game": game_string, "seed": 0, "index": index})
        for tt_size in TT_SIZES:
            options = dict(extra) if tt_size is None else dict(extra, tt_size=tt_size)
            where = f"{game_string} position {index} {spec} tt_size={tt_size}"
            python = deepen(game, state, spec, depth, "python", **options)
            native = deepen(game, state, spec, depth, "native", **options)
            assert_same(python, native, where)


def _has_calibration(game: pyspiel.Game) -> bool:
    import os

    return os.path.exists(default_calibration_path(game))


def test_engines_agree_with_a_python_evaluator():
    """engine=native calls a Python evaluator back: same values, moves and counters."""

    class Wrapped:
        """The game's default evaluator behind a Python object with no native twin."""

        def __init__(self, game: pyspiel.Game) -> None:
            self.inner = default_evaluator(game)
            self.calls = 0

        def evaluate(self, state: Any) -> Any:
            self.calls += 1
            return self.inner.evaluate(state)

        def prior(self, state: Any) -> Any:
            return self.inner.prior(state)

    for game_string, depth in (("pig", 4), ("einstein_wurfelt_nicht", 2), ("2048", 2)):
        game, state = task_position({"game": game_string, "seed": 0, "index": 1})
        for spec in ("star2", "expectiminimax"):
            python = deepen(game, state, spec, depth, "python", evaluator=Wrapped(game))
            evaluator = Wrapped(game)
            native = deepen(game, state, spec, depth, "native", evaluator=evaluator)
            assert_same(python, native, f"{game_string} {spec} Python evaluator")
            # Every evaluation went through the Python object.
            assert evaluator.calls == native["stats"]["evaluations"] > 0
            # The same numbers as the native twin of the default evaluator.
            twin = deepen(game, state, spec, depth, "native")
            assert_same(twin, native, f"{game_string} {spec} native twin")


class Boom(RuntimeError):
    pass


class FailingEvaluator:
    """Raises on its ``fail_at``-th call (0: never)."""

    def __init__(self, game: pyspiel.Game, fail_at: int) -> None:
        self.inner = default_evaluator(game)
        self.fail_at = fail_at
        self.calls = 0

    def evaluate(self, state: Any) -> Any:
        self.calls += 1
        if self.calls == self.fail_at:
            raise Boom(f"evaluator gave up at call {self.calls}")
        return self.inner.evaluate(state)

    def prior(self, state: Any) -> Any:
        return self.inner.prior(state)


@pytest.mark.parametrize("algorithm", ["star2", "expectiminimax"])
def test_an_evaluator_exception_surfaces_and_the_searcher_still_works(algorithm):
    game, state = task_position({"game": "pig", "seed": 0, "index": 0})
    evaluator = FailingEvaluator(game, fail_at=7)
    player = state.current_player()
    searcher = make_searcher("native", game, player, algorithm, evaluator=evaluator, tt_size=1000)
    assert isinstance(searcher, NativeSearcher)
    with pytest.raises(Boom, match="evaluator gave up at call 7"):
        searcher.search(state, 3)
    # The same searcher searches again, and agrees with a fresh Python one.
    searcher.reset_stats()
    value, action = searcher.search(state, 3)
    evaluator.fail_at = 0
    fresh = search(game, state, algorithm, 3, evaluator=evaluator, engine="python")
    assert (value, action) == (pytest.approx(fresh.value, abs=1e-9), fresh.action)


def test_an_evaluator_exception_in_a_bot_surfaces():
    game, state = task_position({"game": "einstein_wurfelt_nicht", "seed": 0, "index": 0})
    evaluator = FailingEvaluator(game, fail_at=3)
    bot = bots.make_bot(
        "star2(max_depth=2)", game, state.current_player(), evaluator=evaluator, engine="native"
    )
    with pytest.raises(Boom):
        bot.step(state)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_search["engine"] == "native"


class OutOfBounds:
    """Pig values twice the declared [-1, 1]."""

    def __init__(self, game: pyspiel.Game) -> None:
        self.game = game

    def evaluate(self, state: Any) -> list[float]:
        return [2.0, -2.0]

    def prior(self, state: Any) -> Any:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


@pytest.mark.parametrize("algorithm", ["star1", "star2", "expectiminimax"])
def test_a_leaf_value_outside_the_bounds_is_an_error(algorithm):
    game, state = task_position({"game": "pig", "seed": 0, "index": 0})
    for engine in ("python", "native"):
        with pytest.raises(LeafValueOutOfBounds, match="outside its declared bounds"):
            search(game, state, algorithm, 2, evaluator=OutOfBounds(game), engine=engine)
    searcher = make_searcher("native", game, 0, algorithm, evaluator=OutOfBounds(game))
    with pytest.raises(LeafValueOutOfBounds):
        searcher.search(state, 2)
    # Depth 0 at a decision node: the root itself is the leaf.
    with pytest.raises(LeafValueOutOfBounds):
        searcher.search(state, 0)


def test_unknown_engine_is_refused_with_the_list():
    game = pyspiel.load_game("pig")
    with pytest.raises(ValueError, match="auto, native, python"):
        bots.make_bot("star2(max_depth=2)", game, 0, engine="bogus")
    with pytest.raises(ValueError, match="auto, native, python"):
        bots.make_bot("star2(max_depth=2,engine=bogus)", game, 0)
    with pytest.raises(ValueError, match="auto, native, python"):
        make_searcher("bogus", game, 0, "star2")
    with pytest.raises(ValueError, match="auto, native, python"):
        search(game, game.new_initial_state(), "star2", 1, player=0, engine="bogus")


@pytest.mark.parametrize(
    "game_string,spec",
    [
        ("backgammon", "star2(time_limit=0.2)"),
        ("pig", "expectiminimax(time_limit=0.2)"),
        ("yacht", "mcms(time_limit=0.2)"),
        ("einstein_wurfelt_nicht", "chanceprobcut(time_limit=0.2)"),
    ],
)
def test_a_native_bot_keeps_its_time_limit(game_string, spec):
    game, state = task_position({"game": game_string, "seed": 0, "index": 1})
    bot = bots.make_bot(spec, game, state.current_player(), engine="native")
    bot.step(state)  # warm-up: evaluator tables, first allocations
    for _ in range(2):
        start = time.perf_counter()
        action = bot.step(state)
        elapsed = time.perf_counter() - start
        assert action in state.legal_actions()
        assert bot.last_search["engine"] == "native"
        # The deadline stopped the deepening: without it these searches would run for
        # minutes and finish. How close to it moves end is measured by
        # experiments.benchmark.full_games, never asserted: it depends on the machine.
        assert bot.last_search["completed"] is False, bot.last_search
        assert bot.last_search["time"] <= elapsed


@pytest.fixture
def fresh_loader(monkeypatch):
    """Forgets the loader's cached verdict before and after the test."""

    def reset() -> None:
        native_engine._loaded = False
        native_engine._module = None
        native_engine._problem = None

    reset()
    yield monkeypatch
    monkeypatch.undo()
    reset()
    assert native_engine.problem() is None, native_engine.problem()


def test_a_stale_build_is_refused(fresh_loader):
    fresh_loader.setattr(native_engine, "source_digest", lambda root=None: "0" * 64)
    assert native_engine.native() is None
    problem = native_engine.problem()
    assert problem is not None and "stale" in problem and "pip install -e ." in problem
    with pytest.raises(RuntimeError, match="stale"):
        native_engine.require()
    game = pyspiel.load_game("pig")
    with pytest.raises(RuntimeError, match="engine=native is unavailable: .*stale"):
        bots.make_bot("star2(max_depth=1)", game, 0, engine="native")
    # auto falls back to the Python engine.
    bot = bots.make_bot("star2(max_depth=1)", game, 0, engine="auto")
    assert bot.searcher.engine == "python"


def test_a_build_for_another_open_spiel_is_refused(fresh_loader):
    module = native_engine.native()
    assert module is not None
    native_engine._loaded = False
    fresh_loader.setattr(module, "OPEN_SPIEL_VERSION", "0.0.1")
    assert native_engine.native() is None
    assert "built against open_spiel 0.0.1" in native_engine.problem()


def test_starspiel_engine_python_disables_the_native_engine(fresh_loader):
    fresh_loader.setenv("STARSPIEL_ENGINE", "python")
    assert native_engine.native() is None
    assert "STARSPIEL_ENGINE=python" in native_engine.problem()


def _fast_path_tree_game() -> RandomTreeGame:
    """A Python game the Python engine searches as positions, keyed by the position."""
    tree = random_tree(
        random.Random(0), num_players=2, grid=False, layered=False, max_nodes=60, max_branching=3
    )
    game = RandomTreeGame(tree, fast_path=True)
    assert position_keyed(game)
    return game


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2"])
def test_engines_agree_on_every_counter_on_a_position_keyed_python_game(algorithm):
    # Native keys such a game by its position's canonical text, called back: the same
    # transpositions as the Python engine's position keys (nodes 17, tt_hits 2 here).
    game = _fast_path_tree_game()
    state = game.new_initial_state()
    evaluator = StateOnlyTreeEvaluator(game)
    runs = {
        engine: search(
            game, state, algorithm, 2, evaluator=evaluator, tt_size=100_000, engine=engine
        )
        for engine in ("python", "native")
    }
    assert runs["native"].value == pytest.approx(runs["python"].value, abs=1e-9)
    assert runs["native"].action == runs["python"].action
    assert runs["native"].stats == runs["python"].stats


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2"])
def test_engines_agree_on_a_position_keyed_python_game_without_a_table(algorithm):
    """Without a table the key does not matter: every counter agrees."""
    game = _fast_path_tree_game()
    state = game.new_initial_state()
    evaluator = StateOnlyTreeEvaluator(game)
    for depth in (1, 2, 3, 4):
        runs = [
            search(game, state, algorithm, depth, evaluator=evaluator, tt_size=0, engine=engine)
            for engine in ("python", "native")
        ]
        assert (runs[1].value, runs[1].action, runs[1].stats) == (
            runs[0].value,
            runs[0].action,
            runs[0].stats,
        ), depth


@pytest.mark.parametrize(
    "game_string,in_place",
    [
        ("pig", True),
        ("einstein_wurfelt_nicht", True),
        ("backgammon", True),
        ("dice", True),
        ("catch", True),
        ("2048", True),
        ("chess", False),
    ],
)
def test_searches_in_place_where_states_can_be_restored(game_string, in_place):
    """pig, catch and 2048 have no UndoAction and einstein's and backgammon's are unsound
    in open_spiel 2.0.2: the engine saves and restores their fields instead of cloning
    (bots/native/field_undo.cc). A game with neither (chess) is cloned."""
    game = pyspiel.load_game(game_string)
    bot = bots.make_bot("star2(max_depth=2)", game, 0, engine="native")
    assert bot.searcher._native.searches_in_place is in_place


@pytest.mark.parametrize(
    "game_string,spec,depth",
    [
        ("pig(winscore=25)", "star2", 4),
        ("pig(winscore=25)", "chanceprobcut", 4),
        ("einstein_wurfelt_nicht", "star2", 2),
        ("einstein_wurfelt_nicht", "mcms(samples=3,seed=5)", 2),
        ("backgammon", "star2", 1),
        ("catch(rows=15)", "star2", 4),
    ],
)
def test_engines_agree_along_a_whole_game(tmp_path, game_string, spec, depth):
    """The restored fields must be exact late in a game too (scores near the goal, captures):
    every counter agrees at every decision of a random game played to its end."""
    game = pyspiel.load_game(game_string)
    extra: dict[str, Any] = {}
    if spec.startswith("chanceprobcut") and not _has_calibration(game):
        extra["calibration"] = synthetic_calibration(tmp_path / "cal.json", game)
    rng = random.Random(7)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            python = deepen(game, state, spec, depth, "python", **extra)
            native = deepen(game, state, spec, depth, "native", **extra)
            assert_same(python, native, f"{game_string} {spec} after {state.history()}")
            decisions += 1
        state.apply_action(random_action(state, rng))
    assert decisions > 10
